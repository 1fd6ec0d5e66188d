"""The spelling corrector leaves known words alone and corrects only close typos."""

from __future__ import annotations

import pytest

from crsearch.rules.suggest import close_enough, edit_distance
from crsearch.search.query import correct, parse
from crsearch.search.vocab import english_words

VOCAB = {"deathtouch": 30, "trample": 40, "creature": 900, "blank": 3, "filled": 2,
         "spell": 500, "target": 400, "fizzles": 0, "goes": 0, "gets": 10}


def test_edit_distance_counts_typing_mistakes():
    assert edit_distance("deathtuch", "deathtouch") == 1
    assert edit_distance("hexprof", "hexproof") == 1
    assert edit_distance("menance", "menace") == 1
    assert edit_distance("tramlpe", "trample") == 1  # swapped neighbours
    assert edit_distance("blink", "blank") == 1
    assert edit_distance("abc", "xyz") == 3


def test_a_correction_must_be_close():
    assert close_enough("deathtuch", "deathtouch")
    assert not close_enough("fizz", "fizzles")
    assert not close_enough("exle", "exile1x")
    assert not close_enough("abcdefgh", "abxxxxgh")


@pytest.mark.parametrize("text", [
    "does my spell fizzle if the target is goes?",
    "my spell filled because its target was exiled",
    "what happens if i blink my creature",
    "what happens if i blank my creature",
])
def test_known_words_are_never_rewritten(text):
    assert correct(parse(text), VOCAB, set()) is None


def test_slang_words_are_known():
    for w in ("blink", "flicker", "fizzle", "fizzled", "tutor", "sac"):
        assert correct(parse(w), VOCAB, set()) is None, w


def test_card_names_of_the_table_are_known():
    assert correct(parse("humility opalescence trample"), {"trample": 3, "humble": 2}, set()) is None


def test_an_unknown_word_is_corrected_only_to_a_close_one():
    assert correct(parse("deathtuch creature"), VOCAB, {"deathtouch"}) == "deathtouch creature"
    # Far from every known word: left as typed.
    assert correct(parse("zqxwvt creature"), VOCAB, set()) is None


def test_the_english_word_list_is_read():
    known = english_words()
    assert {"goes", "blink", "attacking", "exiled"} <= known
    assert "deathtuch" not in known and "hexprof" not in known


def test_the_engine_does_not_correct_the_issue_examples(indexed_data_dir):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    engine = Engine(Store(indexed_data_dir).pick().index_dir)
    for text in ["does my spell fizzle if the target is goes?",
                 "my spell filled because its target was exiled",
                 "what happens if i blink my creature", "blink"]:
        assert engine.search(text, 3).suggestion is None, text
    assert engine.search("tramplle", 3).suggestion == "trample"


def test_a_query_of_known_words_never_reads_the_word_list(indexed_data_dir):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    engine = Engine(Store(indexed_data_dir).pick().index_dir)
    english_words.cache_clear()
    engine.search("can a tapped creature block", 3)
    engine.search("blink", 3)
    assert english_words.cache_info().currsize == 0
