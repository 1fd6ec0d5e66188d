"""explain: the rules terms of a card's text, from the stored release."""

from __future__ import annotations

import json

import pytest
from conftest import run

from crsearch.desk import explain

SEED = ("Whenever you cast a creature spell, you may put a quest counter on this enchantment. "
        "Remove five quest counters from this enchantment and sacrifice it: Search your library "
        "for an Equipment card, put it onto the battlefield, attach it to a creature you "
        "control, then shuffle.")


@pytest.fixture(scope="module")
def table(latest_release):
    return explain.build(latest_release)


def terms(text, table):
    return [(t["text"], t["id"]) for t in explain.find(text, table)]


def ids_of(text, table):
    return [t["id"] for t in explain.find(text, table)]


def test_seed_card_finds_the_terms_of_the_card_page_with_their_rules(table):
    found = explain.find(SEED, table)
    got = {(t["text"].lower(), t["id"]) for t in found}
    for want in [("cast", "701.5"), ("quest counter", "122"), ("sacrifice", "701.21"),
                 ("search", "701.23"), ("attach", "701.3"), ("shuffle", "701.24"),
                 ("battlefield", "403"), ("equipment", "301.5")]:
        assert want in got, (want, sorted(got))
    # Reading order, and each span is the text it names.
    starts = [t["span"][0] for t in found]
    assert starts == sorted(starts)
    for t in found:
        a, b = t["span"]
        assert SEED[a:b] == t["text"]
        assert t["definition"], t


def test_definitions_come_from_the_release_without_see_pointers(table):
    sac = next(t for t in explain.find("Sacrifice a creature.", table) if t["id"] == "701.21")
    assert sac["definition"].startswith("To move a permanent you control to its owner")
    assert "See rule" not in sac["definition"]


@pytest.mark.parametrize("text, id", [
    ("Each opponent sacrifices a creature.", "701.21"),
    ("Then that player shuffled their library.", "701.24"),
    ("Whenever another creature dies, draw a card.", "700.4"),
    ("Whenever a creature died this turn,", "700.4"),
    ("Exiled cards can't be played.", "701.13"),
    ("Whenever an opponent casts a spell,", "701.5"),
    ("This spell can't be countered.", "701.6"),
    ("You may attach it to a creature.", "701.3"),
    ("Scry 2.", "701.22"),
    ("Target player mills three cards.", "701.17"),
    ("At the beginning of your upkeep, you lose 1 life.", "503"),
    ("Untap all lands you control.", "701.26"),
])
def test_inflections_find_the_term(table, text, id):
    assert id in ids_of(text, table)


def test_counter_the_marker_and_counter_the_action_are_told_apart(table):
    assert ("Counter", "701.6") in terms("Counter target spell.", table)
    assert ("quest counter", "122") in terms("Put a quest counter on it.", table)
    plus = terms("Put a +1/+1 counter on target creature.", table)
    assert ("+1/+1 counter", "122.1a") in plus
    assert ("flying counter", "122.1b") in terms("Put a flying counter on it.", table)
    assert "701.6" not in ids_of("Remove all counters from it.", table)


def test_exile_the_zone_and_exile_the_action_are_told_apart(table):
    assert ("Exile", "701.13") in terms("Exile target creature.", table)
    assert ("exile", "406") in terms("You may cast spells from exile.", table)


def test_flash_is_the_keyword_and_flashback_keeps_its_cost(table):
    assert terms("Flash", table) == [("Flash", "702.8")]
    assert terms("Flashback {2}{R}", table) == [("Flashback {2}{R}", "702.34")]


@pytest.mark.parametrize("line, id", [
    ("ward {2}", "702.21"),
    ("Ward—Pay 3 life", "702.21"),
    ("Equip {1}", "702.6"),
    ("Protection from red", "702.16"),
    ("Enchant creature", "702.5"),
    ("Cycling {2}", "702.29"),
    ("Kicker {1}{G}", "702.33"),
    ("Bushido 2", "702.45"),
    ("Suspend 4—{1}{R}", "702.62"),
    ("Hexproof from white", "702.11"),
])
def test_keyword_abilities_with_parameters_are_found_whole(table, line, id):
    text = f"Flying\n{line}\nWhen this creature enters, draw a card."
    assert (line, id) in terms(text, table)


def test_longest_phrase_wins(table):
    assert ("double strike", "702.4") in terms("It gains double strike.", table)
    assert ("First strike", "702.7") in terms("First strike", table)
    assert ("Swampwalk", "702.14") in terms("Swampwalk", table)


def test_ability_words_only_before_their_dash(table):
    assert ("Landfall", "207.2c") in terms("Landfall — Whenever a land you control enters,", table)
    assert "207.2c" not in ids_of("It has no domain here.", table)


@pytest.mark.archive
def test_terms_come_from_the_release_not_a_fixed_list():
    from conftest import ARCHIVE

    from crsearch.ingest.pipeline import release_from_bytes

    old = ARCHIVE / "2003-03-15.txt"
    table_2003 = explain.build(release_from_bytes(old.read_bytes(), old.name))
    # Ward was added in 2021: the 2003 rules do not know it.
    assert "702.21" not in [t["id"] for t in explain.find("Ward {2}", table_2003)]


@pytest.mark.parametrize("word, key", [
    ("sacrifices", "sacrific"), ("sacrificed", "sacrific"), ("sacrificing", "sacrific"),
    ("shuffled", "shuffl"), ("tapped", "tap"), ("dies", "die"), ("scries", "scry"),
])
def test_lemma_gives_one_key_per_word(word, key):
    assert explain.lemma(word) == key


# -- CLI --------------------------------------------------------------------

@pytest.mark.slow
def test_json_contract(latest_data_dir):
    r = run(latest_data_dir, "explain", SEED, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["text"] == SEED
    first, second = data["terms"][:2]
    assert {"span", "term", "id", "definition"} <= set(first)
    # The trigger condition first, then the words inside it.
    assert first["id"] == "603.1" and first["kind"] == "triggered ability"
    assert SEED[first["span"][0]:first["span"][1]] == "Whenever you cast a creature spell"
    assert second["id"] == "701.5" and SEED[second["span"][0]:second["span"][1]] == "cast"
    # A term that cites no single rule is named by its glossary entry.
    day = json.loads(run(latest_data_dir, "explain", "If it's day,", "--json").output)
    assert [t["id"] for t in day["terms"]] == ["glossary:Day"]


def test_stdin_and_plain_output(latest_data_dir):
    r = run(latest_data_dir, "explain", "-", input="Flying, ward {2}\n")
    assert r.exit_code == 0, r.output
    assert "ward {2}" in r.output and "702.21" in r.output and "\x1b[" not in r.output


def test_the_cache_is_written_once_and_reused(latest_data_dir):
    from crsearch.store.datadir import Store

    stored = Store(latest_data_dir).pick()
    explain.table_for(stored)
    cache = stored.path / explain.CACHE_NAME
    assert cache.is_file()
    assert explain.table_for(stored)["release"] == stored.effective_date


@pytest.mark.parametrize("args, input, code, message", [
    (["explain", ""], None, 2, "empty"),
    (["explain", "-"], "   \n", 2, "empty"),
    (["explain", "-"], "\x00\x01binary", 2, "binary"),
    (["explain", "x" * 30_000], None, 2, "too long"),
    (["explain", "Hello there, friend."], None, 1, "no rules terms"),
])
def test_bad_input_gets_a_clear_message(latest_data_dir, args, input, code, message):
    r = run(latest_data_dir, *args, input=input)
    assert r.exit_code == code, r.output
    assert message in r.output and "Traceback" not in r.output


def test_cite_quotes_the_definitions_source(latest_data_dir):
    r = run(latest_data_dir, "explain", "Sacrifice a creature.", "--cite")
    assert r.exit_code == 0, r.output
    assert "CR glossary, “Sacrifice” (effective 2026-08-07): To move a permanent" in r.output


def test_windows_line_endings_stay_out_of_parameters(table):
    assert ("Enchant creature", "702.5") in terms("Enchant creature\r\nFlying", table)


def test_terms_are_named_as_the_glossary_names_them(table):
    target = next(t for t in explain.find("Destroy target creature.", table) if t["id"] == "115")
    assert target["term"] == "Target"


def test_on_a_terminal_the_text_comes_first_with_terms_marked(latest_data_dir):
    import click

    from crsearch.cli.desk import render_explain
    from crsearch.store.datadir import Store

    result = explain.explain(Store(latest_data_dir).pick(), "Flying, ward {2}")
    shown = render_explain(result, 80, tty=True)
    first = shown.splitlines()[0]
    assert click.unstyle(first) == "Flying[1], ward {2}[2]"
    assert "\x1b[" in first  # highlighted
    assert "\x1b[" in render_explain(result, None, tty=False)  # styles; the CLI strips them when piped
    assert "Flying[1]" not in click.unstyle(render_explain(result, None, tty=False))


def test_on_a_terminal_readings_are_underlined_around_their_terms(latest_data_dir):
    import click

    from crsearch.cli.desk import render_explain
    from crsearch.store.datadir import Store

    text = "When this creature dies, draw a card."
    result = explain.explain(Store(latest_data_dir).pick(), text)
    first = render_explain(result, 80, tty=True).splitlines()[0]
    # Each number after its term's last word; the inner term's number first.
    assert click.unstyle(first) == "When this creature[2] dies[3][1], draw a card[4]."
    assert "\x1b[4m" in first  # the trigger condition is underlined


def test_huge_stdin_is_refused_without_reading_it_all(latest_data_dir):
    r = run(latest_data_dir, "explain", "-", input="Flying " * 200_000)
    assert r.exit_code == 2 and "too long" in r.output


def test_words_that_only_look_alike_stay_apart(table):
    assert "303.7" not in ids_of("Roll a six-sided die.", table)  # roll is not Role
    assert "700.4" not in ids_of("Roll a six-sided die.", table)  # a die is not dies
    assert ("milled", "701.17") in terms("If a card was milled this turn,", table)
    assert ("surveilled", "701.25") in terms("if you surveilled this turn", table)
