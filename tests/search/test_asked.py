"""Questions asked before (crsearch/asked.py, data/asked.json)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import ARCHIVE, copy_index

from crsearch.search import asked, fusion
from crsearch.search.asked import Memory

BENCH = Path(__file__).resolve().parents[2] / "bench"


#: The sets the shipped memory is made of (the card sets are not in it yet).
SETS = ["real_questions.json", "real_questions_dev2.json", "real_questions_dev3.json",
        "real_questions_fresh.json", "real_questions_late.json"]


def _questions(held_out: bool, paths: list[Path] | None = None) -> list[dict]:
    """The held-out (or development) questions of ``paths``, else of every set."""
    return [q for path in paths or [BENCH / name for name in SETS]
            for q in json.loads(path.read_text())["questions"] if bool(q.get("holdout")) == held_out]


def test_the_shipped_questions_are_development_ones_with_their_pages(latest_release):
    from tools.learn_fusion import PARTS

    entries = asked.load()
    assert len(entries) >= 280
    # The development questions of the sets the fusion learns from.
    dev, held = _questions(False, list(PARTS.values())), _questions(True)
    assert sorted((e["question"], e["source"]) for e in entries) \
        == sorted((q["query"], q["source"]) for q in dev)
    assert held and not {q["query"] for q in held} & {e["question"] for e in entries}
    assert all(e["source"].startswith("http") for e in entries)
    # The sets collected later share no page with them; a page the held-out
    # third shares with development questions stays, and the bench leaves
    # it out per question (Engine.search's asked_skip).
    later = {q["source"] for path in ("real_questions_fresh.json", "real_questions_late.json")
             for q in json.loads((BENCH / path).read_text())["questions"]}
    assert later and not later & {e["source"] for e in entries}
    ids = {r.id for r in latest_release.rules}
    assert all(set(e["ids"]) <= ids for e in entries)


def test_the_shipped_file_is_what_the_tool_writes(latest_release):
    """data/asked.json is current: tools/learn_fusion.py writes it again
    byte for byte from today's development questions."""
    import tools.learn_fusion as learn_fusion

    text = learn_fusion.asked_json(latest_release)
    assert len(json.loads(text)["questions"]) == len(asked.load())
    shipped = Path(asked.__file__).resolve().parents[2] / "data" / "asked.json"
    assert text.encode("utf-8") == shipped.read_bytes()


def test_an_id_holds_only_where_its_text_says_the_same():
    texts = {"702.19b": "Trample: assign lethal damage, the excess to the player"}
    # Three of four check words are enough (a reworded rule still holds).
    assert asked.holds("702.19b", ["trample", "excess", "lethal", "zzz"], texts)
    assert not asked.holds("702.19b", ["trample", "yyy", "lethal", "zzz"], texts)
    assert not asked.holds("999.1", [], texts)


@pytest.mark.slow
@pytest.mark.archive
def test_renumbered_releases_keep_their_questions_under_their_numbers(latest_release):
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.search import tables
    from crsearch.search.build import documents

    old = release_from_bytes((ARCHIVE / "2010-02-01.txt").read_bytes(), "2010-02-01.txt")
    entries = asked.load()
    now = tables.asked(tables.Carry("2026-08-07", asked.doc_texts(documents(latest_release))))
    then = tables.asked(tables.Carry("2010-02-01", asked.doc_texts(documents(old))))
    assert now == entries
    assert 0 < len(then) < len(entries)
    # 702.19b was a banding rule in 2010: trample was 702.17, and its subrule
    # answers there instead.
    assert not any("702.19b" in e["ids"] for e in then)
    assert any("702.17b" in e["ids"] for e in then)


def test_memory_matches_answers_like_the_bench_scores_a_hit():
    vecs = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (0.6, 0.8)}
    entries = [{"question": "trample?", "ids": ["702.19b"], "source": "http://a"},
               {"question": "counters?", "ids": ["122.2"], "source": "http://b"},
               {"question": "glossary", "ids": ["glossary:dies"], "source": "http://c"}]
    memory = Memory(entries, lambda vec, n: sum(a * b for a, b in zip(vec, vecs[n])))
    got = memory.evidence([1.0, 0.0], ["702.19b", "702.19", "702.19c", "122", "122.2a",
                                       "glossary:dies", "glossary:trample", "100.1"])
    assert got["702.19b"] == (1, 1.0, 0)   # the answer itself
    assert got["702.19"] == (1, 1.0, 0)    # the rule of a subrule that answered
    assert "702.19c" not in got            # a sibling did not answer it
    assert got["122.2a"] == (1, 0.0, 1)    # a subrule of a rule that answered
    assert "122" not in got                # the section is too broad
    assert got["glossary:dies"][2] == 2 and "glossary:trample" not in got and "100.1" not in got
    # The bench leaves out a question's own page.
    assert "702.19b" not in memory.evidence([1.0, 0.0], ["702.19b"], {"http://a"})


def test_the_fusion_rows_carry_the_questions_asked_before():
    rows = fusion.features({}, {"702.19b": 2.0, "702.19": 1.0}, {}, {},
                           {"702.19b": (3, 0.8, 0)})
    row = dict(zip(fusion.FEATURES, rows["702.19b"]))
    assert row["asked"] == pytest.approx(math.log1p(3)) and row["asked_best"] == 0.8
    other = dict(zip(fusion.FEATURES, rows["702.19"]))
    assert other["asked"] == other["asked_best"] == 0.0


@pytest.mark.slow
def test_an_index_stores_them_and_a_question_uses_them(engine):
    question = ("Ghave gets bounced with Unsummon. Do the +1/+1 counters make it die "
                "as a 0/0 instead of going back to my hand?")
    result = engine.search(question, 5, features=True)
    vectors = engine.index.vectors()
    assert len(vectors.asked) == len(asked.load())
    col = fusion.FEATURES.index("asked_best")
    assert max(row[col] for row in result.features.values()) > 0.6
    seen = [h.why["asked"] for h in result.results if "asked" in h.why]
    assert seen and any("Ghave" in a["question"] for a in seen)
    # Every page left out: the feature is silent.
    skipped = engine.search(question, 5, asked_skip={e["source"] for e in vectors.asked},
                            features=True)
    assert max(row[col] for row in skipped.features.values()) == 0.0
    assert not any("asked" in h.why for h in skipped.results)


def test_a_missing_or_damaged_file_means_no_questions_asked_before(monkeypatch, tmp_path):
    monkeypatch.setattr("crsearch.paths.data_dir", lambda: tmp_path)
    assert asked.load() == []
    for bad in ("{not json", "[]", '{"questions": 5}'):
        (tmp_path / "asked.json").write_text(bad, encoding="utf-8")
        assert asked.load() == []
    good = {"question": "q", "ids": ["702.19b"], "source": "http://a"}
    damaged = [{"question": "q"}, 3, "x", {"question": 5, "ids": ["1"]},
               {"question": "q", "ids": "702.19b"}, {"question": "q", "ids": [7]},
               {"question": "q", "ids": ["1"], "source": None}]
    (tmp_path / "asked.json").write_text(json.dumps(
        {"questions": [*damaged, good, dict(good, extra=["kept out"])]}), encoding="utf-8")
    # The damaged entries go; what a good one holds besides is left out.
    assert asked.load() == [good, good]


@pytest.mark.slow
@pytest.mark.parametrize("bad", [5, "x", [3], [{"question": "q"}],
                                 [{"question": "q", "ids": None, "source": "s"}],
                                 [{"question": "q", "ids": ["zzz"], "source": "s"}],
                                 [{"question": 5, "ids": ["702.19b"], "source": "s"}]])
def test_damaged_questions_in_an_index_mean_no_embeddings_not_a_traceback(
        indexed_data_dir, tmp_path, bad):

    from crsearch.search import semantic as embed
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    index = copy_index(Store(indexed_data_dir).pick("2026-08-07").index_dir, tmp_path)
    meta = json.loads((index / embed.META).read_text(encoding="utf-8"))
    meta["asked"] = bad
    (index / embed.META).write_text(json.dumps(meta), encoding="utf-8")
    engine = Engine(index)
    result = engine.search("my trampler is blocked by a deathtouch creature, what now?", 5)
    assert result.results and engine.index.vectors() is None
    assert "damaged" in (engine.index.vectors_problem or "")
    assert any(n.startswith("semantic ranking off") for n in result.notes)
