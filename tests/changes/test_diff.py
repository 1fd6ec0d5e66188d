"""`crsearch.changes.diff` and the `diff` / `history` commands.

Synthetic releases are built here in code, in our own words; the real-data
tests compare 2026-06-19 with 2026-08-07 from the shared archive.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import BASE_RULES, run
from conftest import make_release as make

from crsearch.changes.diff import (
    diff_releases,
    group_moves,
    normalize_typography,
    word_diff,
)
from crsearch.changes.history import rule_history
from crsearch.errors import BadInput, NotFound

# -- synthetic releases ------------------------------------------------------

BASE_GLOSSARY = {
    "Match": "A contest between players. See rule 100.1.",
    "Pool": "The points a team shares. See rule 100.2.",
    "Old Idea": "Something the rules no longer use.",
}


def by_op(diff, op, kind=None):
    return sorted((c.old_id, c.new_id) for c in diff.of(op, kind))


def test_identical_releases_have_no_differences():
    a = make("2020-01-01", BASE_RULES, BASE_GLOSSARY)
    d = diff_releases(a, make("2020-02-01", BASE_RULES, BASE_GLOSSARY))
    assert len(d) == 0 and d.counts()["rule"]["changed"] == 0


def test_added_removed_and_changed_rules_with_a_word_diff():
    new_rules = dict(BASE_RULES)
    new_rules["101.3"] = "A brand new rule about shuffling thoroughly."
    del new_rules["100.1b"]
    new_rules["100.1c"] = BASE_RULES["100.1c"]
    new_rules["101.2"] = "When one effect says something can happen and another says it can't, it can."
    new_rules["100.1a"] = "Each player brings a deck of cards of their own choosing to the table."
    d = diff_releases(make("1", BASE_RULES), make("2", new_rules))
    assert by_op(d, "added") == [(None, "101.3")]
    # 100.1b was removed and 100.1c stays put: nothing moves into the gap.
    assert by_op(d, "removed") == [("100.1b", None)]
    assert by_op(d, "changed") == [("100.1a", "100.1a"), ("101.2", "101.2")]
    change = d.of("changed")[0]
    assert change.fields["text"] == [("equal", "Each player brings a "), ("delete", "stack"),
                                     ("insert", "deck"),
                                     ("equal", " of cards of their own choosing to the table.")]
    assert not change.cosmetic and not change.renumbering


def test_an_inserted_subrule_renumbers_the_rest_as_moves_not_changes():
    new_rules = {k: v for k, v in BASE_RULES.items() if not k.startswith("100.1")}
    new_rules.update({
        "100.1": BASE_RULES["100.1"],
        "100.1a": BASE_RULES["100.1a"],
        "100.1b": "A player may concede at any moment, even in the middle of a turn.",
        "100.1c": BASE_RULES["100.1b"],
        "100.1d": BASE_RULES["100.1c"],
    })
    d = diff_releases(make("1", BASE_RULES), make("2", new_rules))
    assert by_op(d, "added") == [(None, "100.1b")]
    assert by_op(d, "moved") == [("100.1b", "100.1c"), ("100.1c", "100.1d")]
    assert d.of("changed") == [] and d.of("removed") == []
    assert all(not c.fields for c in d.of("moved"))


def test_a_renumbered_rule_carries_its_subrules_and_updates_references():
    old = make("1", BASE_RULES, BASE_GLOSSARY)
    new_rules = {}
    for k, v in BASE_RULES.items():
        k2 = k.replace("100.1", "100.2", 1) if k.startswith("100.1") else k
        k2 = "100.3" if k == "100.2" else k2
        new_rules[k2] = v.replace("rule 100.2", "rule 100.3")
    new_rules["100.1"] = "A match has a winner, or it is a draw."
    glossary = dict(BASE_GLOSSARY, Pool="The points a team shares. See rule 100.3.")
    d = diff_releases(old, make("2", new_rules, glossary))
    assert by_op(d, "moved", "rule") == [("100.1", "100.2"), ("100.2", "100.3")]
    assert by_op(d, "added") == [(None, "100.1")]
    moved_c = next(c for c in d.of("moved") if c.old_id == "100.1c")
    assert moved_c.new_id == "100.2c" and moved_c.renumbering and not moved_c.cosmetic
    pool = d.of("changed", "glossary")[0]
    assert pool.renumbering and pool.noise
    # One line for the rule and the subrules that moved with it unchanged
    # (100.2c's only change follows the renumbering).
    groups = {c.new_id: [x.new_id for x in carried] for c, carried in group_moves(d.changes)}
    assert groups["100.2"] == ["100.2a", "100.2b", "100.2c"]
    assert "100.2c" not in groups


def test_moved_and_reworded_rule_is_one_move_with_a_diff():
    new_rules = dict(BASE_RULES)
    del new_rules["101.2"]
    new_rules["101.2"] = "Players may never look at the bottom card of a stack."
    new_rules["101.3"] = ("When one effect says something can happen and another says "
                          "it can't, then it can't.")
    d = diff_releases(make("1", BASE_RULES), make("2", new_rules))
    move = d.of("moved")[0]
    assert (move.old_id, move.new_id) == ("101.2", "101.3") and move.similarity >= 0.9
    assert ("insert", "then") in move.fields["text"]
    assert by_op(d, "added") == [(None, "101.2")]


def test_typography_only_changes_are_flagged_cosmetic_and_can_be_left_out():
    new_rules = dict(BASE_RULES)
    new_rules["101.2"] = BASE_RULES["101.2"].replace("can't", "can\u2019t")
    new_rules["100.2"] = BASE_RULES["100.2"].replace("  ", " ").replace(", but", ",  but")
    d = diff_releases(make("1", BASE_RULES), make("2", new_rules))
    assert [c.id for c in d.of("changed")] == ["100.2", "101.2"]
    assert all(c.cosmetic and c.noise for c in d.of("changed"))
    assert len(d.filtered(cosmetic=False)) == 0
    assert normalize_typography("it\u2019s \u201cfine\u201d \u2014 ok") == "it's \"fine\" - ok"


def test_example_changes_are_reported_separately_from_the_text():
    ex_old = {"101.1": ["A card says you win; you win."]}
    ex_new = {"101.1": ["A card says you win; you still have to finish the turn."]}
    d = diff_releases(make("1", BASE_RULES, examples=ex_old), make("2", BASE_RULES, examples=ex_new))
    (change,) = d.of("changed")
    assert set(change.fields) == {"examples"}


def test_glossary_added_removed_changed_and_renamed():
    glossary = {
        "Match": "A contest between players, won by the last one standing. See rule 100.1.",
        "Team Pool": "The points a team shares. See rule 100.2.",
        "Deck": "The cards a player brings.",
    }
    d = diff_releases(make("1", BASE_RULES, BASE_GLOSSARY), make("2", BASE_RULES, glossary))
    assert [c.new["term"] for c in d.of("added", "glossary")] == ["Deck"]
    assert [c.old["term"] for c in d.of("removed", "glossary")] == ["Old Idea"]
    assert [c.old["term"] for c in d.of("changed", "glossary")] == ["Match"]
    (renamed,) = d.of("moved", "glossary")
    assert (renamed.old["term"], renamed.new["term"]) == ("Pool", "Team Pool")
    assert {c.kind for c in d.filtered("glossary")} == {"glossary"}
    assert "glossary" not in {c.kind for c in d.filtered("rules")}


def test_chapters_and_sections_added_removed_and_retitled():
    old = make("1", BASE_RULES, chapters={"100": "Playing", "101": "Golden Rules"},
               sections={"1": "Basics"})
    rules = dict(BASE_RULES, **{"102.1": "Dice are rolled openly."})
    new = make("2", rules, chapters={"100": "Playing the Game", "101": "Golden Rules",
                                     "102": "Dice"}, sections={"1": "The Basics"})
    d = diff_releases(old, new)
    assert [(c.id, c.op) for c in d.of(kind="section")] == [("1", "retitled")]
    assert [(c.id, c.op) for c in d.of(kind="chapter")] == [("100", "retitled"), ("102", "added")]
    retitled = d.of("retitled", "chapter")[0]
    assert retitled.fields["title"] == [("equal", "Playing "), ("insert", "the Game")]


def test_word_diff_rebuilds_both_texts():
    old = "If a creature’s power is 0, it deals no damage. (See rule 510.)"
    new = "If a creature's power is 0 or less, it deals no combat damage. See rule 510."
    segs = word_diff(old, new)
    join = lambda keep: "".join(t for op, t in segs if op in keep)
    words = lambda s: re.findall(r"\w+|[^\w\s]", s)
    assert words(join({"equal", "insert"})) == words(new)
    assert words(join({"equal", "delete"})) == words(old)
    assert ("insert", "or less") in segs and ("delete", "(") in segs


def test_rule_history_follows_a_move_and_a_removal():
    r1 = make("2020-01-01", BASE_RULES)
    rules2 = dict(BASE_RULES)
    rules2["101.2"] = "A brand new second golden rule about dice."
    rules2["101.3"] = BASE_RULES["101.2"]
    r2 = make("2020-06-01", rules2)
    rules3 = dict(rules2)
    rules3["101.3"] = rules2["101.3"].replace("it can't", "it cannot")
    r3 = make("2021-01-01", rules3)
    rules4 = {k: v for k, v in rules3.items() if k != "101.3"}
    r4 = make("2021-06-01", rules4)
    history = rule_history([r3, r1, r2, r4], "101.3")
    assert [(e.date, e.event, e.id, e.old_id) for e in history] == [
        ("2020-01-01", "present", "101.2", None),
        ("2020-06-01", "moved", "101.3", "101.2"),
        ("2021-01-01", "changed", "101.3", None),
        ("2021-06-01", "removed", "101.3", None),
    ]
    # Numbered as in 2020-01-01, 101.2 is the same rule.
    assert rule_history([r1, r2, r3, r4], "101.2", at="2020-03-01")[1].event == "moved"
    # The new 101.2 starts in 2020-06-01.
    assert [e.event for e in rule_history([r1, r2, r3, r4], "101.2")] == ["added"]


def test_rule_history_errors():
    r1, r2 = make("2020-01-01", BASE_RULES), make("2020-06-01", BASE_RULES)
    with pytest.raises(NotFound) as e:
        rule_history([r1, r2], "101.9")
    assert "101.1" in e.value.suggestions
    with pytest.raises(BadInput):
        rule_history([r1, r2], "101")
    with pytest.raises(NotFound):
        rule_history([r1, r2], "101.1", at="2019-01-01")


# -- real releases ------------------------------------------------------------

@pytest.fixture(scope="module")
def real_pair(latest_data_dir):
    from crsearch.store.datadir import Store

    stored = {s.effective_date: s for s in Store(latest_data_dir).releases()}
    return stored["2026-06-19"].release(), stored["2026-08-07"].release()


@pytest.fixture(scope="module")
def real_diff(real_pair):
    return diff_releases(*real_pair)


def test_real_counts_add_up(real_pair, real_diff):
    old, new = real_pair
    assert (old.counts()["rules"], new.counts()["rules"]) == (1170, 1173)
    assert (old.counts()["subrules"], new.counts()["subrules"]) == (1983, 1989)
    assert (old.counts()["glossary"], new.counts()["glossary"]) == (735, 739)
    counts = real_diff.counts()
    for kind, key in (("rule", "rules"), ("subrule", "subrules"), ("glossary", "glossary")):
        moved_in = sum(1 for c in real_diff.of("moved", kind) if c.old_kind != kind)
        moved_out = sum(1 for c in real_diff.changes if c.op == "moved" and c.old_kind == kind
                        and c.kind != kind)
        assert (counts[kind]["added"] - counts[kind]["removed"] + moved_in - moved_out
                == new.counts()[key] - old.counts()[key]), kind
    assert counts["rule"]["added"] == 3 and counts["subrule"]["added"] == 6
    assert counts["glossary"]["added"] == 4
    assert counts["rule"]["removed"] == counts["subrule"]["removed"] == 0


def test_real_renumbering_is_moves_not_noise(real_diff):
    moves = {(c.old_id, c.new_id) for c in real_diff.of("moved")}
    assert {("310.8", "310.9"), ("310.8b", "310.9b"), ("310.11", "310.12"),
            ("704.5z", "704.5aa")} <= moves
    added = {c.new_id for c in real_diff.of("added")}
    assert {"122.1j", "310.8", "701.70", "702.195", "704.5w"} <= added
    # Every rule that only moved has no text diff; the glossary entries that
    # cite a renumbered rule are flagged, not shown as real changes.
    assert all(not c.fields for c in real_diff.of("moved") if c.similarity == 1.0
               and c.old_id not in ("310.8a",))
    noise = sorted(c.new["term"] for c in real_diff.changes if c.noise)
    assert noise == ["Protect, Protector", "Siege"]
    real_changes = {c.id for c in real_diff.of("changed") if not c.noise}
    assert real_changes == {"310.7", "506.4", "605.1a", "704.5v", "722.3a"}


def test_real_history_follows_the_battle_renumbering(latest_data_dir):
    from crsearch.store.datadir import Store

    history = rule_history(Store(latest_data_dir), "310.9a")
    assert [(e.event, e.old_id, e.id) for e in history] == [
        ("present", None, "310.8a"), ("moved", "310.8a", "310.9a")]
    assert ("insert", "only") in history[1].fields["text"]


# -- the commands ---------------------------------------------------------------

def test_diff_defaults_to_the_latest_release_and_the_one_before(latest_data_dir):
    r = run(latest_data_dir, "diff")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Comprehensive Rules 2026-06-19 → 2026-08-07"
    assert lines[1].startswith("Added 3 rules, 6 subrules and 4 glossary entries")
    assert "310.8 → 310.9  renumbered (with 310.8b–g → 310.9b–g)" in r.output
    assert "If a {+Siege+} battle’s defense is 0" in r.output
    assert "\x1b[" not in r.output
    assert "Only references to renumbered rules changed: Protect, Protector, Siege" in r.output


def test_diff_json_shape(latest_data_dir):
    r = run(latest_data_dir, "diff", "2026-06-19", "2026-08-07", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert (data["old"], data["new"]) == ("2026-06-19", "2026-08-07")
    assert data["summary"]["rule"]["added"] == 3
    change = next(c for c in data["changes"] if c["new_id"] == "310.7")
    assert set(change) >= {"kind", "op", "old_id", "new_id", "old", "new", "diff", "similarity",
                           "cosmetic", "renumbering"}
    assert ["insert", "Siege"] in change["diff"]["text"]


def test_diff_kind_and_release_selection(latest_data_dir):
    r = run(latest_data_dir, "diff", "--kind", "glossary", "--json")
    assert {c["kind"] for c in json.loads(r.output)["changes"]} == {"glossary"}
    r = run(latest_data_dir, "--release", "2026-07-01", "diff", "2026-01-01", "--json")
    assert r.exit_code == 1 and "earliest is 2026-06-19" in r.output


@pytest.mark.parametrize("args, code, message", [
    (("diff", "1999-01-01"), 1, "no imported release was in effect on 1999-01-01"),
    (("diff", "yesterday"), 2, "is not a date"),
    (("diff", "2026-06-20", "2026-06-19"), 2, "both dates select the 2026-06-19 release"),
    (("--release", "2026-06-19", "diff"), 1, "earliest imported release"),
    (("history", "310.99"), 1, "Did you mean"),
    (("history", "seven"), 2, "Error: 'seven' is not a rule number"),
])
def test_diff_and_history_errors(latest_data_dir, args, code, message):
    result = run(latest_data_dir, *args)
    assert result.exit_code == code, result.output
    assert message in result.output


def test_diff_needs_two_releases(mini_data_dir):
    r = run(mini_data_dir, "diff")
    assert r.exit_code == 1 and "only one release" in r.output


def test_history_command(latest_data_dir):
    r = run(latest_data_dir, "history", "310.9a")
    assert r.exit_code == 0, r.output
    assert "310.8a → 310.9a  renumbered and changed" in r.output
    data = json.loads(run(latest_data_dir, "history", "CR 310.9a", "--json").output)
    assert data["id"] == "310.9a"
    assert [e["event"] for e in data["history"]] == ["present", "moved"]
