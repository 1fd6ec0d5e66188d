"""The learned fusion of a question's evidence (crsearch/search/fusion.py, data/fusion.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crsearch.search import fusion
from crsearch.search.config import DEFAULT
from crsearch.search.fusion import Evidence, Weights

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_weights_fit_the_features():
    weights = fusion.learned()
    assert weights is not None
    assert len(weights.weights) == len(weights.mean) == len(weights.scale) == len(fusion.FEATURES)
    assert all(s > 0 for s in weights.scale)
    assert "development questions" in weights.trained_on


@pytest.mark.parametrize("damage", [
    lambda d: d.update(features=d["features"][:-1]),                   # a feature short
    lambda d: d["features"].reverse(),                                  # other order
    lambda d: d["features"][0].update(scale=0.0),                       # a zero scale
    lambda d: d["features"][3].pop("weight"),                           # a number missing
    lambda d: d["features"][3].update(mean="x"),                        # not a number
    lambda d: d.pop("features"),
])
def test_weights_that_do_not_fit_the_features_are_not_used(damage):
    data = json.loads((ROOT / "data" / fusion.FILE).read_text(encoding="utf-8"))
    assert Weights.from_json(data) == fusion.learned()
    damage(data)
    assert Weights.from_json(data) is None
    assert Weights.from_json([1, 2]) is None and Weights.from_json(None) is None


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


def test_scores_follow_the_weights():
    n = len(fusion.FEATURES)
    weights = [0.0] * n
    weights[fusion.FEATURES.index("similarity")] = 1.0
    model = Weights((0.0,) * n, (1.0,) * n, tuple(weights))
    rows = fusion.features({}, {"100.1": 2.0, "100.2": 1.0}, {"100.1": 0.1, "100.2": 0.9})
    got = fusion.scores(rows, model)
    assert got["100.2"] > got["100.1"]


def test_a_long_question_is_ranked_by_the_learned_weights(engine):
    from crsearch.search.engine import Engine

    question = "my opponent bounced my creature, do the +1/+1 counters stay?"
    learned = engine.search(question, 10, features=True)
    assert "learned weights" in learned.understood["semantic"]
    rows = learned.features
    assert len(rows) >= 10 and all(len(r) == len(fusion.FEATURES) for r in rows.values())
    scores = fusion.scores(rows, fusion.learned())
    # The learned scores' order, then "the most specific answer first".
    order = sorted(scores.items(), key=lambda t: -t[1])
    title_rule = lambda id: engine.index.is_title_rule(id, DEFAULT.title_rule_words)
    assert [h.id for h in learned.results] == \
        [i for i, _ in fusion.subrules_first(order, title_rule, DEFAULT.subrules_window)][:10]
    assert {"122.2", "400.7"} & {h.id for h in learned.results[:2]}
    # Without the search asking, the rows stay out of the result.
    assert engine.search(question, 10).features == {}
    # Without the learned weights, the hand-set fusion ranks as before.
    hand_set = Engine(engine.index_dir, config=DEFAULT.but(learned_fusion=False))
    hand = hand_set.search(question, 10, features=True)
    assert hand.understood["semantic"].startswith("fused with the lexical ranking (")
    assert [h.id for h in hand.results] != [h.id for h in learned.results]
    assert hand.features == rows  # the same evidence, weighed otherwise


def test_a_short_query_keeps_the_hand_set_ranking(engine):
    result = engine.search("deathtouch trample", 5, features=True)
    assert result.features == {} and result.understood["semantic"] == "not used"


def _learning_tool():
    import tools.learn_fusion as learn_fusion

    return learn_fusion


@pytest.mark.slow
def test_the_learning_tool_searches_no_held_out_question():
    """tools/learn_fusion.py with a stand-in engine: every question it
    searches is a development one, and it writes the weights it learned."""
    from types import SimpleNamespace

    from bench import search_quality

    learn_fusion = _learning_tool()

    searched: list[str] = []
    n = len(fusion.FEATURES)
    answer = {q["query"]: q["ids"][0] for qs in learn_fusion.development_parts().values() for q in qs}

    class FakeEngine:
        def search(self, text, limit, asked_skip=frozenset(), features=False):
            assert features
            searched.append(text)
            right = answer.get(text, "100.2")
            rows = {"100.1": [float(i % 3) for i in range(n)], right: [1.0] * n}
            return SimpleNamespace(results=[SimpleNamespace(id="100.1"), SimpleNamespace(id=right)],
                                   features=rows)

    text = learn_fusion.learn(FakeEngine())
    bench = ROOT / "bench"
    held = {q["query"] for q in search_quality.load_real() if q.get("holdout")}
    for name in ("real_questions_fresh.json", "real_questions_late.json"):
        held |= {q["query"] for q in json.loads((bench / name).read_text())["questions"]}
    held |= {q["query"] for q in search_quality.load_queries() if q.get("heldout")}
    assert len(searched) >= 90 + 71 + 121 and held and not held & set(searched)
    dev3 = {q["query"] for q in json.loads((bench / "real_questions_dev3.json").read_text())["questions"]}
    assert dev3 <= set(searched)
    weights = Weights.from_json(json.loads(text))
    assert weights is not None
    # The right candidate has the higher feature values: the weights say so.
    row = {"100.1": [float(i % 3) for i in range(n)], "100.2": [1.0] * n}
    got = fusion.scores(row, weights)
    assert got["100.2"] > got["100.1"]


def test_the_shipped_weights_are_written_as_the_tool_writes_them():
    """data/fusion.json is the tool's output, not edited by hand, and was
    learned from today's development questions (their counts)."""
    import numpy as np

    learn_fusion = _learning_tool()
    shipped = (ROOT / "data" / fusion.FILE).read_text(encoding="utf-8")
    w = fusion.learned()
    model = (np.array(w.weights), np.array(w.mean), np.array(w.scale))
    assert learn_fusion.fusion_json(fusion.FEATURES, model, w.trained_on) == shipped
    parts = learn_fusion.development_parts()
    assert w.trained_on == learn_fusion.trained_on(parts, 1.0)


@pytest.mark.slow
def test_the_shipped_weights_are_what_the_tool_learns(indexed_data_dir):
    """data/fusion.json is current: tools/learn_fusion.py learns it again,
    byte for byte, from today's development questions (about a minute; with
    the tool's hash seed, as the sums over sets of floats follow it)."""
    import os
    import subprocess
    import sys

    from crsearch.store.datadir import Store

    code = ("import sys\n"
            "from crsearch.search.config import DEFAULT\n"
            "from crsearch.search.engine import Engine\n"
            "from tools.learn_fusion import learn\n"
            "engine = Engine(sys.argv[1], config=DEFAULT.but(learned_fusion=False))\n"
            "sys.stdout.write(learn(engine))\n")
    index_dir = Store(indexed_data_dir).pick("2026-08-07").index_dir
    got = subprocess.run([sys.executable, "-c", code, str(index_dir)], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert got.returncode == 0, got.stderr
    assert got.stdout == (ROOT / "data" / fusion.FILE).read_text(encoding="utf-8")


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


def test_a_sibling_tied_with_a_candidate_is_its_best_sibling():
    # Two subrules of 702.19 with the same score: each one's best sibling is
    # the other (not 0 because the best value is its own); a lone subrule has none.
    lexical = {"702.19b": 2.0, "702.19c": 2.0, "702.19d": 1.0, "510.1c": 4.0}
    rows = fusion.features({}, lexical, {})
    best = {id: dict(zip(fusion.FEATURES, row))["sibling_best"] for id, row in rows.items()}
    assert best == {"702.19b": 0.5, "702.19c": 0.5, "702.19d": 0.5, "510.1c": 0.0}


@pytest.mark.parametrize("limit", [1, 3, 10])
def test_every_shown_result_of_a_question_says_how_close_its_meaning_is(engine, limit):
    # The fused ranking's --why is made only for what can be shown: a short
    # list, or one that the exact layers start, still has it for each result.
    for question in ("my opponent bounced my creature, do the +1/+1 counters stay?",
                     "under rule 702.19c, does my trample creature blocked by a creature "
                     "with protection assign damage to the player?"):
        full = {h.id: h.why for h in engine.search(question, 50).results}
        shown = engine.search(question, limit).results
        assert len(shown) == limit
        for hit in shown:
            assert hit.why == full[hit.id]
            assert "similarity" in hit.why["semantic"]
    assert shown[0].why["found_by"] == "rule number"  # placed before the fused ranking
