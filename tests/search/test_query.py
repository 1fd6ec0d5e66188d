"""What query.parse makes of what a judge types (no index needed)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crsearch.errors import BadInput
from crsearch.rules.numbers import Span
from crsearch.rules.text import words
from crsearch.search.query import MAX_QUERY_CHARS, card_names, correct, parse
from crsearch.search.vocab import SLANG, tables


@pytest.mark.parametrize("text", ["CR 702.19c", "§702.19c", "rule 702.19c", "702.19C",
                                  "702.19 c", "  cr702.19c. ", "(702.19c)"])
def test_rule_numbers_in_any_form_are_the_whole_query(text):
    q = parse(text)
    assert q.spec_only
    assert q.ids == [Span("702.19c", "702.19c")]
    assert q.words == []


def test_a_range_is_a_spec():
    assert parse("510.1c-d").ids == [Span("510.1c", "510.1d")]


def test_a_number_inside_words_is_found_and_removed_from_the_words():
    q = parse("trample rule 702.19")
    assert not q.spec_only
    assert q.ids == [Span("702.19", "702.19")]
    assert q.words == ["trample"]


def test_a_malformed_number_is_reported_not_searched():
    q = parse("702.19l")
    assert q.bad_number == "702.19l"
    assert "skip" in q.bad_reason


def test_filters_are_taken_out_and_checked():
    q = parse("section:7 kind:glossary lethal damage")
    assert q.filters == {"section": "7", "kind": "glossary"}
    assert q.words == ["lethal", "damage"]
    assert parse("chapter:702 trample").filters == {"chapter": "702"}
    assert parse("kind:rules x").filters == {"kind": "rule"}


@pytest.mark.parametrize("text", ["kind:banana trample", "section:12 x", "chapter:7 x"])
def test_impossible_filter_values_are_bad_input(text):
    with pytest.raises(BadInput):
        parse(text)


def test_unknown_field_names_stay_words():
    assert parse("Example: trample").words == ["example", "trample"]


def test_quoted_phrases_straight_and_curly():
    q = parse('"combat damage" “first strike”')
    assert q.phrases == ["combat damage", "first strike"]


def test_curly_apostrophes_are_folded():
    assert parse("can’t block").words == parse("can't block").words == ["can't", "block"]


def test_lost_rule_numbers_make_a_passage():
    q = parse("See rule , “Combat Damage Step.”")
    assert q.passage
    assert q.phrases == ["combat damage step"]


def test_short_typed_queries_are_not_passages():
    assert not parse("deathtouch trample").passage
    assert not parse("can a tapped creature block").passage


def test_jargon_is_expanded():
    assert parse("LKI").words == ["last", "known", "information"]
    assert parse("SBA").words == ["state", "based", "actions"]


def test_question_words_are_not_search_terms():
    assert parse("can a tapped creature block").terms == ["tapped", "creature", "block"]


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01", "AND OR NOT", "((( )))", "\"\""])
def test_nothing_to_search_for_is_bad_input(text):
    with pytest.raises(BadInput):
        parse(text)


def test_lone_operators_are_dropped_but_words_kept():
    assert parse("trample AND deathtouch").words == ["trample", "deathtouch"]


def test_unbalanced_quotes_and_parens_are_tolerated():
    q = parse('"trample (deathtouch')
    assert q.words == ["trample", "deathtouch"]


def test_control_characters_and_surrogates_are_cleaned():
    q = parse("tram\x00ple \udcff deathtouch\x1b")
    assert "deathtouch" in q.words
    assert all("\x00" not in w and "\udcff" not in w for w in q.words)


def test_huge_queries_are_cut():
    q = parse("trample " * 2000)
    assert q.truncated
    assert len(q.text) <= MAX_QUERY_CHARS
    assert q.passage


def test_correct_replaces_only_unknown_words():
    vocab = {"deathtouch": 30, "trample": 40, "creature": 900, "death": 20}
    q = parse("deathtuch creature")
    assert correct(q, vocab, {"deathtouch"}) == "deathtouch creature"
    assert correct(parse("trample creature"), vocab, set()) is None


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parse_never_raises_anything_but_bad_input(text):
    try:
        q = parse(text)
    except BadInput as e:
        assert str(e)
    else:
        assert q.words or q.ids or q.filters or q.bad_number


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_undecodable_bytes_parse_to_clean_text(data):
    text = data.decode("utf-8", "surrogateescape")
    try:
        q = parse(text)
    except BadInput as e:
        assert str(e)
        return
    assert q.words or q.ids or q.filters or q.bad_number
    for piece in [q.text, *q.words, *q.phrases]:
        assert piece == piece.strip() and len(piece) <= MAX_QUERY_CHARS
        assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in piece), piece


def test_alternatives_give_negations_and_synonyms():
    from crsearch.search.query import alternatives

    vocab = {"tapped", "untapped", "creature", "noncreature"}
    assert ["untapped"] in alternatives("tapped", vocab)
    assert ["tapped"] in alternatives("untapped", vocab)
    assert ["noncreature"] in alternatives("creature", vocab)
    assert ["put", "into", "graveyard", "battlefield"] in alternatives("dies", vocab)
    assert alternatives("zzz", vocab) == []


# -- questions in a player's words ---------------------------------------------

def test_a_question_is_not_a_pasted_passage():
    q = parse("Ghave gets bounced with Unsummon. My friend says the counters disappear "
              "so it dies as a 0/0 instead of going to my hand. Who is right?")
    assert q.question and not q.passage
    pasted = parse("If at least one attacking or blocking creature has first strike or double "
                   "strike as the combat damage step begins, the only creatures that deal")
    assert not pasted.question and pasted.passage


@pytest.mark.parametrize("text, name", [
    ("I Oblivion Ring someone's creature and then I lose. Does it come back?", "Oblivion Ring"),
    ("Garruk, Unleashed has two loyalty and I use his -2. Does he survive?", "Garruk, Unleashed"),
    ("Does Mikaeus's ability give my tokens undying?", "Mikaeus's"),
    ("Can my Kalonian Hydra trample over a blocker?", "Kalonian Hydra"),
    ("If I blink it with Teleportation Circle, does it keep its counters?", "Teleportation Circle"),
])
def test_card_names_in_questions_are_found_and_left_out(text, name):
    q = parse(text)
    assert name in q.names
    left_out = {w for w in words(name)}
    assert not left_out & set(q.terms), q.terms


def test_rules_words_in_capitals_and_sentence_starts_are_not_names():
    assert card_names("Does trample work? ETB triggers and SBA checks, player A and me.") == []
    assert card_names("Commander tax: do I pay it?") == []


def test_slang_is_read_as_rules_wording():
    q = parse("if I deck out in response to a fizzle, do I lose?")
    keys = [k for k, _ in q.slang]
    assert keys == ["deck out", "in response", "fizzle"]
    assert {"library", "priority", "resolve"} <= set(q.terms)
    # The typed words stay.
    assert "deck" in q.terms


def test_players_attack_words_and_the_old_rules_words_are_read():
    q = parse("my Elf came into play last turn, can I swing with it and ping them in response?")
    keys = [k for k, _ in q.slang]
    assert {"came into play", "swing", "ping", "in response"} <= set(keys)
    assert {"enters", "battlefield", "attack", "damage"} <= set(q.terms)
    q = parse("is a card removed from the game the same as exile, and what is in play?")
    assert {"removed from the game", "in play"} <= {k for k, _ in q.slang}
    assert {"exile", "battlefield"} <= set(q.terms)


def test_british_spelling_is_read_as_the_rules_spell_it():
    q = parse("what colour is a colourless artifact if I paint it?")
    assert {"color", "colorless"} <= set(q.terms)


def test_filler_words_do_not_search():
    q = parse("my friend says a creature with hexproof can't be targeted, is he right?")
    assert "friend" not in q.terms and "says" not in q.terms
    assert "hexproof" in q.terms


def test_the_slang_table_is_one_json_table_for_the_site():
    data = tables()
    assert json.loads(json.dumps(data)) == data
    assert data["slang"]["deck out"] == SLANG["deck out"]
    for key in ("deck out", "fizzle", "bounce", "blink", "flicker", "dies to", "goes to the yard",
                "on the stack", "in response", "another priority pass", "counters stay", "mill",
                "tutor", "etb", "ltb", "sac", "pump", "wrath", "board wipe", "trample over",
                "chump"):
        assert key in data["slang"], key
    # Keys that existed before stay.
    assert {"jargon", "synonyms", "question_words", "stop_words"} <= set(data)
