"""Players' slang is read in every typed query, not only in questions."""

from __future__ import annotations

import pytest

from crsearch.search.query import parse


@pytest.fixture(scope="module")
def engine(indexed_data_dir):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    return Engine(Store(indexed_data_dir).pick().index_dir)


def ids(engine, query, limit=10):
    return [h.id for h in engine.search(query, limit).results]


def test_one_slang_word_is_read_as_rules_wording():
    q = parse("fizzle")
    assert not q.question
    assert [k for k, _ in q.slang] == ["fizzle"]
    assert {"resolve", "targets", "illegal"} <= set(q.terms)


def test_pasted_rules_text_reads_no_slang():
    q = parse("608.2b If the spell or ability specifies targets, it checks whether the targets "
              "are still legal. A target that's no longer in the zone it was in when it was "
              "targeted is illegal. Other changes to the game state may cause a target to no "
              "longer be legal; for example, its characteristics may have changed.")
    assert q.passage and q.slang == []


@pytest.mark.parametrize("word", ["fizzle", "fizzled"])
def test_fizzle_finds_the_rule_for_illegal_targets(engine, word):
    assert ids(engine, word, 3)[0] == "608.2b"


def test_sac_finds_sacrifice(engine):
    assert ids(engine, "sac", 3)[0] == "701.21"


def test_tutor_finds_search(engine):
    got = ids(engine, "tutor", 3)
    assert got and all(g == "701.23" or g.startswith("701.23") for g in got), got


@pytest.mark.parametrize("word", ["blink", "flicker"])
def test_blink_and_flicker_find_the_new_object_rule_and_the_return(engine, word):
    result = engine.search(word, 5)
    got = [h.id for h in result.results]
    assert result.suggestion is None  # never "blank"
    assert got[0] == "400.7"
    assert any(g == "610.3" or g.startswith("610.3") for g in got[:3]), got


@pytest.mark.parametrize("word", ["bounce", "bounced"])
def test_bounce_finds_the_owners_hand_and_the_new_object(engine, word):
    # Returned to its owner's hand (400.3), a new object there (400.7): not
    # the glossary's definition of a hand.
    result = engine.search(word, 5, features=False)
    got = [h.id for h in result.results]
    assert got[0] == "400.3", got
    assert "400.7" in got, got
    assert result.results[0].why.get("topic") == "=bounce"


def test_bounce_in_a_longer_query_is_no_whole_query_topic(engine):
    result = engine.search("bounce token", 10)
    assert all(h.why.get("topic") != "=bounce" for h in result.results)
