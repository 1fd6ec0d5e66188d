"""explain reads abilities: which rule each triggered, activated or static
ability follows, with the span of its condition, cost or clause."""

from __future__ import annotations

import pytest

from crsearch.desk import abilities, explain


@pytest.fixture(scope="module")
def table(latest_release):
    return explain.build(latest_release)


def readings(text, table):
    """(text, id) of each reading of an ability, in reading order."""
    return [(t["text"], t["id"]) for t in explain.find(text, table)
            if t["kind"] in explain.READING_KINDS]


def ids_of(text, table):
    return [t["id"] for t in explain.find(text, table)]


# -- triggered abilities ----------------------------------------------------------

@pytest.mark.parametrize("text, span, id", [
    ("When this creature enters, draw a card.", "When this creature enters", "603.1"),
    ("Whenever you cast a creature spell, you gain 1 life.", "Whenever you cast a creature spell",
     "603.1"),
    ("At the beginning of your upkeep, you lose 1 life.", "At the beginning of your upkeep",
     "603.2b"),
    ("At end of combat, sacrifice this creature.", "At end of combat", "603.1"),
    ("You may exert it as it attacks. When you do, draw a card.", "When you do", "603.12"),
    ("Exile it at the beginning of the next end step.", "at the beginning of the next end step",
     "603.7"),
    ("At the beginning of your next upkeep, pay {2}{U}. If you don't, you lose the game.",
     "At the beginning of your next upkeep", "603.7"),
    ("Whenever it blocks a creature, destroy that creature at end of combat.", "at end of combat",
     "603.7"),
])
def test_triggered_abilities_are_read_with_their_condition(table, text, span, id):
    assert (span, id) in readings(text, table)


def test_a_trigger_condition_keeps_its_terms_inside_it(table):
    found = explain.find("When this creature dies, draw a card.", table)
    assert [(t["text"], t["id"]) for t in found][:3] == [
        ("When this creature dies", "603.1"), ("creature", "302"), ("dies", "700.4")]


def test_a_list_or_a_name_with_a_comma_does_not_end_the_condition(table):
    assert readings("Whenever you cast an instant, sorcery, or Wizard spell, copy it.", table) == [
        ("Whenever you cast an instant, sorcery, or Wizard spell", "603.1")]
    text = "When Kozilek, Butcher of Truth is put into a graveyard from anywhere, shuffle."
    assert readings(text, table)[0] == (text[:text.rindex(",")], "603.1")
    assert readings("When Éomer enters, draw a card.", table) == [("When Éomer enters", "603.1")]
    assert readings("Whenever Bebop & Rocksteady attack, scry 1.", table) == [
        ("Whenever Bebop & Rocksteady attack", "603.1")]
    # A comma before an effect of three words and "and" is not a list's.
    assert readings("When this creature enters, tap target creature, and draw a card.", table) == [
        ("When this creature enters", "603.1")]


def test_a_keyword_parameter_stops_before_reminder_text(table):
    text = ("Partner with Sylvia (When this creature enters, target player may put Sylvia into "
            "their hand from their library, then shuffle.)")
    assert ("When this creature enters", "603.1") in readings(text, table)
    assert ("Partner with Sylvia", "702.124") in [(t["text"], t["id"])
                                                  for t in explain.find(text, table)]


def test_a_condition_may_hold_a_parenthesis(table):
    text = "Whenever you get one or more {E} (energy counters), draw a card."
    assert readings(text, table) == [
        ("Whenever you get one or more {E} (energy counters)", "603.1")]


def test_a_granted_ability_in_quotes_is_read(table):
    text = 'Create a 2/2 red Goblin creature token with "Whenever this creature attacks, scry 1."'
    assert ("Whenever this creature attacks", "603.1") in readings(text, table)


# -- activated, mana and loyalty abilities ------------------------------------------

@pytest.mark.parametrize("text, span, id", [
    ("{1}, {T}: Tap target creature.", "{1}, {T}:", "602.1"),
    ("Sacrifice a creature: Scry 1.", "Sacrifice a creature:", "602.1"),
    ("{T}: Add {G}.", "{T}: Add {G}", "605.1a"),
    ("{T}: Add {C}{C}.", "{T}: Add {C}{C}", "605.1a"),
    ("{T}, Sacrifice an artifact: Add one mana of any color.", "{T}, Sacrifice an artifact: Add",
     "605.1a"),
    ("+1: Draw a card.\n−3: Destroy target creature.", "+1:", "606.3"),
    ("+1: Draw a card.\n−3: Destroy target creature.", "−3:", "606.3"),
    ("Flying\nEquip {2} ({2}: Attach to target creature you control.)", "{2}:", "602.1"),
    ("[+1]: Draw a card.\n[−2]: Destroy target creature.", "[−2]:", "606.3"),  # MTGJSON's form
])
def test_activated_abilities_are_read_by_their_cost(table, text, span, id):
    assert (span, id) in readings(text, table)


def test_an_ability_that_adds_mana_and_targets_is_no_mana_ability(table):
    text = "{T}: Exile target card from a graveyard. Add one mana of any color."
    assert readings(text, table) == [("{T}:", "602.1")]


def test_a_colon_after_a_name_is_no_cost(table):
    # A Room's door name and cost, and a face label, are not activation costs.
    assert "602.1" not in ids_of("Vault Door {3}: When you unlock this door, draw a card.", table)
    assert "602.1" not in ids_of("Back face: Whenever you cast a spell, draw a card.", table)


# -- restrictions and sorcery timing ----------------------------------------------------

def test_activate_only_as_a_sorcery_is_the_timing_rule_not_the_card_type(table):
    text = "{2}, {T}: Draw a card. Activate only as a sorcery."
    found = [(t["text"], t["id"]) for t in explain.find(text, table)]
    assert ("Activate only as a sorcery", "602.5d") in found
    assert "307" not in [id for _, id in found]
    # A sorcery elsewhere is still the card type.
    assert "307" in ids_of("Return target sorcery card from your graveyard to your hand.", table)


@pytest.mark.parametrize("text, span, id", [
    ("{1}: Scry 1. Activate only once each turn.", "Activate only once each turn", "602.5b"),
    ("{1}: Scry 1. Activate only during your turn.", "Activate only during your turn", "602.5b"),
    ("{1}: Scry 1. Activate only as an instant.", "Activate only as an instant", "602.5e"),
    ("{1}: Scry 1. Activate only any time you could cast a sorcery.",
     "Activate only any time you could cast a sorcery", "602.5d"),
    ("Level up {1} ({1}: Put a level counter on this. Level up only as a sorcery.)",
     "Level up only as a sorcery", "602.5d"),
    ("Each opponent can cast spells only any time they could cast a sorcery.",
     "any time they could cast a sorcery", "307.5"),
    # Equip is an activated ability, plot a special action: the release says which.
    ("Equip {2} ({2}: Attach to target creature you control. Equip only as a sorcery.)",
     "Equip only as a sorcery", "602.5d"),
    ("Plot {2}{R} (You may pay {2}{R} and exile this card from your hand. Plot only as a "
     "sorcery.)", "as a sorcery", "307.5"),
])
def test_activation_restrictions(table, text, span, id):
    assert (span, id) in readings(text, table)


# -- replacement and prevention effects ----------------------------------------------

@pytest.mark.parametrize("text, span, id", [
    ("If a card would be put into a graveyard from anywhere, exile it instead.",
     "If a card would be put into a graveyard from anywhere, exile it instead", "614.1a"),
    ("Target player mills two cards. If you control a Wizard, that player mills four cards "
     "instead.", "If you control a Wizard, that player mills four cards instead", "614.1a"),
    ("Damage that would reduce your life total to less than 1 reduces it to 1 instead.",
     "Damage that would reduce your life total to less than 1 reduces it to 1 instead", "614.1a"),
    ("Skip your draw step.", "Skip your draw step", "614.1b"),
    ("As this creature enters, choose a color.", "As this creature enters", "614.1c"),
    ("This creature enters with two +1/+1 counters on it.", "enters with", "614.1c"),
    ("You may have this creature enter as a copy of any creature on the battlefield.",
     "enter as", "614.1c"),
    ("This land enters tapped.", "enters tapped", "614.1d"),
    ("Other creatures you control enter with an additional +1/+1 counter on them.", "enter with",
     "614.1d"),
    ("Combat damage can't be prevented.", "can't be prevented", "615.12"),
])
def test_replacement_effects(table, text, span, id):
    assert (span, id) in readings(text, table)


def test_prevent_stays_the_prevention_term(table):
    assert "615" in ids_of("Prevent all combat damage that would be dealt this turn.", table)


def test_what_a_trigger_condition_says_is_an_event_not_an_effect(table):
    assert readings("Whenever a permanent you control enters tapped, untap it.", table) == [
        ("Whenever a permanent you control enters tapped", "603.1")]
    assert "514.2" not in ids_of("Whenever a creature dealt damage this turn dies, scry 1.", table)


# -- durations --------------------------------------------------------------------------

@pytest.mark.parametrize("text, span, id", [
    ("Target creature gets +3/+3 until end of turn.", "until end of turn", "514.2"),
    ("Until your next turn, you can't lose life.", "Until your next turn", "611.2a"),
    ("{2}, {T}: Gain control of target creature for as long as this artifact remains tapped.",
     "for as long as this artifact remains tapped", "611.2b"),
    ("When this enchantment enters, exile target creature until this enchantment leaves the "
     "battlefield.", "until this enchantment leaves the battlefield", "610.3"),
    ("Target creature gets +1/+0 until end of combat.", "until end of combat", "500.5a"),
    ("Your opponents can't cast spells this turn.", "this turn", "514.2"),
    ("You may play that card this turn.", "this turn", "514.2"),
])
def test_durations(table, text, span, id):
    assert (span, id) in readings(text, table)


@pytest.mark.parametrize("text", [
    "If a creature died this turn, draw a card.",
    "Destroy each creature that attacked this turn.",
    "Each player who has cast a spell this turn loses 1 life.",
    "You may play cards exiled with it as long as you attacked this turn.",
])
def test_this_turn_that_says_when_is_no_duration(table, text):
    assert "514.2" not in ids_of(text, table)


# -- can't ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, span", [
    ("This spell can't be countered.", "can't be countered"),
    ("This creature can't block.", "can't block"),
    ("Creatures can’t attack you.", "can’t attack"),
    ("It can't be the target of spells.", "can't"),
    ("You can't lose the game.", "can't lose the game"),  # widened over the term
])
def test_cant_beats_can(table, text, span):
    assert (span, "101.2") in readings(text, table)


# -- shape ------------------------------------------------------------------------------

SAMPLE = ("Whenever you cast a creature spell, you may put a quest counter on this enchantment. "
          "{T}, Sacrifice an artifact: Add one mana of any color. Activate only as a sorcery.\n"
          "If a creature would die this turn, exile it instead. It can't be countered.")


def test_spans_nest_and_never_cross(table):
    found = explain.find(SAMPLE, table)
    assert {t["kind"] for t in found} >= {"triggered ability", "mana ability", "restriction",
                                          "replacement effect", "duration", "can't"}
    for t in found:
        assert SAMPLE[t["span"][0]:t["span"][1]] == t["text"]
        assert t["definition"] and t["term"]
    for a in found:
        for b in found:
            (s1, e1), (s2, e2) = a["span"], b["span"]
            overlap = s1 < e2 and s2 < e1
            nested = (s1 <= s2 and e2 <= e1) or (s2 <= s1 and e1 <= e2)
            assert not overlap or nested, (a["text"], b["text"])
    keys = [(t["span"][0], -t["span"][1]) for t in found]
    assert keys == sorted(keys)  # reading order, the outer first


def test_readings_have_the_json_shape_of_terms(table):
    reading = next(t for t in explain.find(SAMPLE, table) if t["kind"] == "triggered ability")
    assert set(reading) == {"span", "text", "term", "id", "kind", "definition", "source"}
    assert reading["definition"].startswith("Triggered abilities have a trigger condition")
    assert reading["source"] == "603.1"


def test_multi_face_texts_are_read_face_by_face(table):
    text = ("When this creature enters, draw a card. // {T}: Add {G}.\n"
            "// Workshop {2}{U}: Whenever you cast an artifact spell, scry 1.")
    assert abilities.faces(text) == [(0, text.index(" //")),
                                     (text.index("{T}"), text.index("\n//") + 1),
                                     (text.index("Workshop"), len(text))]
    assert readings(text, table) == [("When this creature enters", "603.1"),
                                     ("{T}: Add {G}", "605.1a"),
                                     ("Whenever you cast an artifact spell", "603.1")]


def test_text_with_no_rules_term_has_no_abilities(table):
    assert explain.find("When in doubt, call a judge. If you would rather wait, ask instead.",
                        table) == []


def test_readings_come_from_the_release(latest_release):
    from types import SimpleNamespace

    built = abilities.build(latest_release, explain.short_definition)
    assert {r["id"] for r in built} >= {"603.1", "602.5d", "614.1a", "611.2b", "101.2"}
    assert all(r["definition"] for r in built)
    # A release without the rule has no such reading.
    without = SimpleNamespace(rules=[r for r in latest_release.rules if r.id != "602.5d"])
    assert "602.5d" not in {r["id"] for r in abilities.build(without, explain.short_definition)}


# -- everyday words ----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Hello world", "The world is wide and the snow is deep.",
                                  "Basic math is easy.", "I read a book about food."])
def test_type_words_used_as_everyday_words_are_not_terms(table, text):
    assert explain.find(text, table) == []


@pytest.mark.parametrize("text, word, id", [
    ("Legendary Creature — Elf Druid", "Legendary", "205.4"),
    ("World Enchantment", "World", "205.4"),
    ("Search your library for a basic land card.", "basic", "205.4"),
    ("Snow permanents you control get +1/+1.", "Snow", "205.4"),
    ("If it's legendary, draw a card.", "legendary", "205.4"),
    ("Sacrifice a Food: You gain 3 life.", "Food", "205.3g"),
    ("Equipped creature gets +1/+1. Attach this Equipment to it.", "Equipment", "301.5"),
])
def test_type_words_count_where_a_card_writes_them(table, text, word, id):
    assert (word, id) in [(t["text"], t["id"]) for t in explain.find(text, table)]


@pytest.mark.slow
def test_a_long_text_without_the_end_of_an_ability_is_read_in_linear_time(table):
    import time

    # Each pattern is bounded: no comma after "When", no "instead" after
    # "If", 20,000 characters of it, read in about a second, not minutes.
    for text in ("Flying. When " + "a creature " * 1900, "Flying. If " + "a creature would " * 1200):
        start = time.perf_counter()
        explain.find(text[:explain.MAX_TEXT], table)
        assert time.perf_counter() - start < 10


def test_a_keyword_in_running_text_takes_no_rest_of_line_parameter(table):
    text = "Auras that can't enchant a creature on the battlefield stay in your graveyard."
    assert ("enchant", "702.5") in [(t["text"], t["id"]) for t in explain.find(text, table)]
    assert ("Enchant creature you control", "702.5") in [
        (t["text"], t["id"]) for t in explain.find("Enchant creature you control", table)]


def _bench_texts() -> list[str]:
    """Every card text of the bench's explain sets (real Oracle texts)."""
    from pathlib import Path

    texts = []
    for path in sorted((Path(__file__).resolve().parents[2] / "bench").glob("explain_*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n=== ")[1:]:
            body = block.split("\n", 1)[1] if "\n" in block else ""
            texts.append(body.split("\n---", 1)[0])
    return [t for t in texts if t.strip()]


def test_the_cues_skip_only_readings_that_cannot_match(table, monkeypatch):
    from crsearch.desk import abilities, explain

    texts = _bench_texts()
    assert len(texts) > 150
    # Each cue'd reading's matches hold one of its cues ...
    for r in table["readings"]:
        cues = abilities.CUES.get(r["term"])
        if cues is None:
            continue
        for text in texts:
            for m in abilities._compiled(r["pattern"]).finditer(text):
                plain = m.group(0).lower().replace("\u2019", "'")
                assert any(c in plain for c in cues), (r["term"], m.group(0))
    # ... so every text reads the same with the cues as without them.
    with_cues = [explain.find(t, table) for t in texts]
    monkeypatch.setattr(abilities, "CUES", {})
    assert [explain.find(t, table) for t in texts] == with_cues


def test_every_cue_names_a_reading():
    from crsearch.desk import abilities

    terms = {r[1] for r in abilities.READINGS}
    assert set(abilities.CUES) <= terms
    assert all(c == c.lower() and "\u2019" not in c for cues in abilities.CUES.values() for c in cues)
