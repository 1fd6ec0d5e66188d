"""The learned fusion of a question's evidence (crsearch/fusion.py)."""

from __future__ import annotations

import pytest

from crsearch.search import fusion
from crsearch.search.fusion import Evidence


def test_the_weights_fit_the_features():
    assert fusion.ready()
    assert len(fusion.WEIGHTS) == len(fusion.FEATURES)
    assert all(s > 0 for s in fusion.SCALE)
    assert "development questions" in fusion.TRAINED_ON


def test_features_of_synthetic_evidence():
    evidence = {
        "702.19b": Evidence(bm25=1.0, coverage=0.5, adjacent=0.25, in_words=True, topics=[1.0, 0.9]),
        "702.19": Evidence(bm25=0.5, in_words=True, cards=[0.8]),
        "613.1d": Evidence(topics=[1.0]),  # brought by a topic alone
    }
    lexical = {"702.19b": 3.0, "702.19": 1.5, "613.1d": 1.0}
    rows = fusion.features(evidence, lexical, {"702.19b": 0.2, "702.19": 0.6})
    assert list(rows) == list(lexical)
    row = dict(zip(fusion.FEATURES, rows["702.19b"]))
    assert row["bm25"] == 1.0 and row["coverage"] == 0.5 and row["adjacent"] == 0.25
    assert row["topic"] == 1.0 and row["topic_more"] == pytest.approx(0.9)
    assert row["lexical"] == 1.0 and row["lexical_rank"] == pytest.approx(10 / 11)
    assert row["words_missed"] == 0.0
    card = dict(zip(fusion.FEATURES, rows["702.19"]))
    assert card["card"] == 0.8 and card["similarity_rank"] == pytest.approx(10 / 11)
    assert card["similarity_z"] > 0 > row["similarity_z"]
    alone = dict(zip(fusion.FEATURES, rows["613.1d"]))
    assert alone["words_missed"] == 1.0 and alone["similarity"] == 0.0 and alone["bm25"] == 0.0


def test_the_rules_around_a_candidate():
    lexical = {"702.19b": 4.0, "702.19c": 2.0, "702.19": 1.0, "510.1c": 3.0}
    cites = {"510.1c": {"702.19c"}, "702.19c": {"702.19b", "999.9"}}
    rows = fusion.features({}, lexical, {}, cites)
    c = dict(zip(fusion.FEATURES, rows["702.19c"]))
    assert c["cited_by_best"] == 0.75    # 510.1c cites it: 3 / 4
    assert c["cites_best"] == 1.0        # it cites 702.19b, the best
    assert c["sibling_best"] == 1.0      # 702.19b
    assert c["subrule_best"] == 0.0
    rule = dict(zip(fusion.FEATURES, rows["702.19"]))
    assert rule["subrule_best"] == 1.0 and rule["sibling_best"] == 0.0
    b = dict(zip(fusion.FEATURES, rows["702.19b"]))
    assert b["sibling_best"] == 0.5 and b["cited_by_best"] == 0.5


def test_scores_follow_the_weights(monkeypatch):
    n = len(fusion.FEATURES)
    monkeypatch.setattr(fusion, "MEAN", (0.0,) * n)
    monkeypatch.setattr(fusion, "SCALE", (1.0,) * n)
    weights = [0.0] * n
    weights[fusion.FEATURES.index("similarity")] = 1.0
    monkeypatch.setattr(fusion, "WEIGHTS", tuple(weights))
    rows = fusion.features({}, {"100.1": 2.0, "100.2": 1.0}, {"100.1": 0.1, "100.2": 0.9})
    got = fusion.scores(rows)
    assert got["100.2"] > got["100.1"]


def test_a_long_question_is_ranked_by_the_learned_weights(indexed_data_dir, monkeypatch):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    question = "my opponent bounced my creature, do the +1/+1 counters stay?"
    engine = Engine(Store(indexed_data_dir).pick().index_dir)
    learned = engine.search(question, 10)
    assert "learned weights" in learned.understood["semantic"]
    rows = engine.last_features
    assert len(rows) >= 10 and all(len(r) == len(fusion.FEATURES) for r in rows.values())
    scores = fusion.scores(rows)
    # The learned scores' order, then "the most specific answer first".
    order = sorted(scores.items(), key=lambda t: -t[1])
    assert [h.id for h in learned.results] == [i for i, _ in engine.subrules_first(order)][:10]
    assert {"122.2", "400.7"} & {h.id for h in learned.results[:2]}
    # Without weights, the hand-set fusion ranks as before.
    monkeypatch.setattr(fusion, "WEIGHTS", ())
    hand = engine.search(question, 10)
    assert hand.understood["semantic"].startswith("fused with the lexical ranking (")
    assert [h.id for h in hand.results] != [h.id for h in learned.results]


def test_a_short_query_keeps_the_hand_set_ranking(indexed_data_dir):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    engine = Engine(Store(indexed_data_dir).pick().index_dir)
    engine.search("deathtouch trample", 5)
    assert engine.last_features == {}


def test_the_learning_script_searches_no_held_out_question(monkeypatch, tmp_path):
    """bench/learn_fusion.py, run whole with a fake engine: every question
    it searches is a development one, and it writes the weights it learned."""
    import json
    import shutil
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(bench))
    import learn_fusion
    import search_quality

    searched: list[str] = []
    n = len(fusion.FEATURES)
    answer = {q["query"]: q["ids"][0] for qs in learn_fusion.development_parts().values() for q in qs}

    class Hit:
        def __init__(self, id):
            self.id = id

    class FakeEngine:
        def __init__(self, index_dir):
            self.last_features: dict = {}

        def vectors(self):
            return object()

        def search(self, text, limit):
            searched.append(text)
            right = answer.get(text, "100.2")
            self.last_features = {"100.1": [float(i % 3) for i in range(n)], right: [1.0] * n}

            class Result:
                results = [Hit("100.1"), Hit(right)]
            return Result()

        def subrules_first(self, scored):
            return scored

    class Stored:
        index_dir = tmp_path

    monkeypatch.setattr(learn_fusion, "build_store", lambda date: (Stored, None, 0.0))
    monkeypatch.setattr("crsearch.search.engine.Engine", FakeEngine)
    copy = tmp_path / "fusion.py"
    shutil.copy(learn_fusion.FUSION, copy)
    monkeypatch.setattr(learn_fusion, "FUSION", copy)
    monkeypatch.setattr(sys, "argv", ["learn_fusion.py", "--write"])
    learn_fusion.main()

    held = {q["query"] for q in search_quality.load_real() if q.get("holdout")}
    for name in ("real_questions_fresh.json", "real_questions_late.json"):
        held |= {q["query"] for q in json.loads((bench / name).read_text())["questions"]}
    held |= {q["query"] for q in search_quality.load_queries() if q.get("heldout")}
    assert len(searched) >= 90 + 71 + 121 and held and not held & set(searched)
    dev3 = {q["query"] for q in json.loads((bench / "real_questions_dev3.json").read_text())["questions"]}
    assert dev3 <= set(searched)
    assert "WEIGHTS: tuple[float, ...] = (" in copy.read_text()
    assert fusion.ready()  # switched off while collecting, on again after


def _page(url: str) -> str:
    """One public page, however it is reached: a Stack Exchange question, a
    Reddit thread (through any mirror), a Cranial Insertion article (either
    host name), else the address without its scheme, www. or a final slash."""
    import re

    for pattern, tag in ((r"stackexchange\.com/(?:questions|q|a)/(\d+)", "se"),
                         (r"/comments/(\w+)", "reddit"),
                         (r"cranial-?insertion\.com/articles?/(\d+)", "ci")):
        m = re.search(pattern, url)
        if m:
            return f"{tag}:{m.group(1)}"
    return re.sub(r"^https?://(www\.)?", "", url.strip()).rstrip("/").lower()


def test_the_third_development_part_is_apart_from_every_held_out_question(latest_release):
    """bench/real_questions_dev3.json: development questions only, each with
    rule ids of the 2026-08-07 release, from no page that another set used."""
    import json
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench"
    dev3 = json.loads((bench / "real_questions_dev3.json").read_text())["questions"]
    assert len(dev3) >= 120
    assert not any(q["holdout"] for q in dev3)
    ids = {r.id for r in latest_release.rules}
    assert all(q["ids"] and set(q["ids"]) <= ids for q in dev3)
    others = {_page(q["source"]) for path in bench.glob("real_questions*.json")
              if path.name != "real_questions_dev3.json"
              for q in json.loads(path.read_text())["questions"]}
    pages = [_page(q["source"]) for q in dev3]
    assert len(set(pages)) == len(pages) and not set(pages) & others
    assert len({q["query"] for q in dev3}) == len(dev3)
