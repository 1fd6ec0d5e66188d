"""`crsearch.changes.lineage`: the links worked out at import, and the history read from them.

Synthetic releases in our own words (``conftest.make_release``); the
archive-wide comparison with the pairing done on the spot is in
``test_history_archive.py``.
"""

from __future__ import annotations

import pytest
from conftest import BASE_RULES as BASE
from conftest import make_release as make

from crsearch.changes.history import rule_history, trace_forward
from crsearch.changes.lineage import Linker, link
from crsearch.store.datadir import Store
from crsearch.store.lineage import FILE, Lineage, relink


def inserted() -> dict[str, str]:
    """BASE with a subrule inserted at 100.1b: the two after it move down."""
    rules = dict(BASE)
    rules["100.1b"] = "Shuffling is done face down, thoroughly and quickly."
    rules["100.1c"] = BASE["100.1b"]
    rules["100.1d"] = BASE["100.1c"].replace("100.2", "100.3")
    rules["101.2"] = BASE["101.2"].replace("can't.", "can't, always.")
    return rules


def moved_chapter() -> dict[str, str]:
    """A rule that leaves chapter 101 for chapter 100, its text kept."""
    rules = inserted()
    rules["100.3"] = rules.pop("101.1")
    return rules


GLOSSARY = {"Match": "A contest between players. See rule 100.1.",
            "Pool": "The points a team shares. See rule 100.2."}


def chain() -> list:
    renamed = {"Match": GLOSSARY["Match"], "Team Pool": GLOSSARY["Pool"],
               "Shuffle": "To mix cards. See rule 100.1b."}
    return [make("2020-01-01", BASE, GLOSSARY), make("2020-02-01", inserted(), GLOSSARY),
            make("2020-03-01", moved_chapter(), renamed, examples={"100.2": ["Ann and Bob share."]})]


def test_a_link_records_renumbering_additions_and_text_changes():
    got = link(make("2020-01-01", BASE), make("2020-02-01", inserted()))
    assert got["moves"] == {"100.1b": "100.1c", "100.1c": "100.1d"}
    assert got["came"] == {"100.1b": None}
    assert got["gone"] == {}
    assert got["text"] == ["100.1b", "100.1c", "101.2"]


def test_a_rule_that_leaves_its_chapter_is_found_through_the_whole_releases():
    got = link(make("2020-02-01", inserted()), make("2020-03-01", moved_chapter()))
    assert got["gone"] == {"101.1": "100.3"}
    assert got["came"] == {"100.3": "101.1"}
    assert got["whole"]["101.1"] == "100.3"


def test_examples_that_change_alone_are_told_apart_from_text():
    got = link(make("2020-02-01", inserted()),
               make("2020-03-01", inserted(), examples={"100.2": ["Ann and Bob share."]}))
    assert (got["text"], got["examples"]) == ([], ["100.2"])


@pytest.fixture
def linked_store(tmp_path):
    releases = chain()
    store = Store(tmp_path)
    for r in releases:
        store.save(r)
    relink(store, Linker())
    return store, releases


def every_id(releases):
    return [(r.effective_date, rule.id) for r in releases for rule in r.rules]


def test_history_from_the_table_equals_the_history_paired_on_the_spot(linked_store):
    store, releases = linked_store
    assert len(Lineage.read(store.dir).links) == 2
    for date, id in every_id(releases):
        table = [e.to_dict() for e in rule_history(store, id, at=date)]
        assert table == [e.to_dict() for e in rule_history(releases, id, at=date)], (date, id)
    moved = rule_history(store, "100.3")
    assert [(e.event, e.old_id, e.id) for e in moved] == [
        ("present", None, "101.1"), ("moved", "101.1", "100.3")]


def test_trace_forward_from_the_table_equals_the_pairing_on_the_spot(linked_store):
    store, releases = linked_store
    for r in releases:
        ids = [rule.id for rule in r.rules] + ["999.9"]
        assert trace_forward(store, ids, r.effective_date) == \
            trace_forward(releases, ids, r.effective_date)
    assert trace_forward(store, ["100.1c", "101.1"], "2020-01-15") == {
        "100.1c": ("100.1d", "2020-03-01"), "101.1": ("100.3", "2020-03-01")}


def test_a_missing_link_is_worked_out_when_history_needs_it(linked_store):
    import os

    from crsearch.store.lineage import write

    store, releases = linked_store
    folders = [os.path.basename(s.dir) for s in store.releases()]
    lineage = Lineage.read(store.dir)
    del lineage.links[(folders[0], folders[1])]
    write(store.dir, lineage, folders)
    assert Lineage.read(store.dir).missing(folders) == [(folders[0], folders[1])]
    for date, id in every_id(releases):
        assert [e.to_dict() for e in rule_history(store, id, at=date)] == \
            [e.to_dict() for e in rule_history(releases, id, at=date)], (date, id)
    (store.root / FILE).unlink()
    assert [e.event for e in rule_history(store, "100.1d")] == ["present", "moved"]


def test_history_from_the_table_names_a_rule_no_release_has(linked_store):
    from crsearch.errors import NotFound

    store, _ = linked_store
    with pytest.raises(NotFound, match="no imported release has a rule 100.9"):
        rule_history(store, "100.9")
    with pytest.raises(NotFound, match="no rule 100.1d in the 2020-01-01 rules"):
        rule_history(store, "100.1d", at="2020-01-20")


def test_a_release_that_repeats_an_id_reads_the_copy_the_pairing_chose(tmp_path):
    from crsearch.rules.model import Rule

    first = make("2020-01-01", BASE)
    second = make("2020-02-01", BASE)
    # The second release prints 100.1b twice: a new text first, then the old one.
    at = next(k for k, r in enumerate(second.rules) if r.id == "100.1b")
    second.rules.insert(at, Rule("100.1b", "subrule", "A brand new rule that took the same number."))
    third = make("2020-03-01", BASE)
    store = Store(tmp_path)
    for r in (first, second, third):
        store.save(r)
    relink(store, Linker())
    assert any(k.repeat_new or k.repeat_old for k in Lineage.read(store.dir).links.values())
    for date, id in every_id([first, second, third]):
        assert [e.to_dict() for e in rule_history(store, id, at=date)] == \
            [e.to_dict() for e in rule_history([first, second, third], id, at=date)], (date, id)


def test_a_diff_of_neighbours_read_through_their_link_equals_the_full_diff(linked_store):
    import os

    from crsearch.changes.diff import diff_linked, diff_releases

    store, releases = linked_store
    stored = store.releases()
    lineage = Lineage.read(store.dir)
    for k in (1, 2):
        link = lineage.get(os.path.basename(stored[k - 1].dir), os.path.basename(stored[k].dir))
        got = diff_linked(stored[k - 1], stored[k], link)
        assert got is not None
        assert got.to_dict() == diff_releases(releases[k - 1], releases[k]).to_dict()
    assert {c.op for c in got.changes} >= {"moved", "added"}


def test_a_diff_through_the_link_reads_glossaries_and_headings_as_the_full_diff(tmp_path):
    """Glossary entries whose line numbers all moved, one rewritten, one
    renamed, one added; a retitled chapter; then releases that repeat a
    term (their glossaries are compared whole): each neighbours' diff
    through the link equals the full diff."""
    import os

    from crsearch.changes.diff import diff_linked, diff_releases
    from crsearch.rules.model import GlossaryEntry

    def numbered(release, first_line):
        release.glossary = [GlossaryEntry(g.term, g.heading, g.text, line=first_line + k)
                            for k, g in enumerate(release.glossary)]
        return release

    words = {"Match": GLOSSARY["Match"], "Pool": GLOSSARY["Pool"], "Deck": "The cards you play with.",
             "Turn": "One player's part of the game."}
    later = {**words, "Deck": "The “cards” you play with, shuffled.", "Shuffle": "To mix cards."}
    later["Team Pool"] = later.pop("Pool")
    repeated = {**later, "turn": "A second entry for the same term."}
    # The repeated term first, the other one rewritten: told apart by place.
    swapped = {"turn": repeated["turn"], **{k: v for k, v in later.items() if k != "Turn"},
               "Turn": "One player's part of the game, start to end."}
    releases = [numbered(make("2020-01-01", BASE, words), 100),
                numbered(make("2020-02-01", inserted(), later,
                              chapters={"100": "Playing the Game", "101": "Golden Rules"}), 140),
                numbered(make("2020-03-01", inserted(), repeated), 150),
                numbered(make("2020-04-01", inserted(), swapped), 150)]
    store = Store(tmp_path)
    for r in releases:
        store.save(r)
    relink(store, Linker())
    stored = store.releases()
    found = []
    for k in (1, 2, 3):
        link = Lineage.read_link(store.dir, os.path.basename(stored[k - 1].dir),
                                 os.path.basename(stored[k].dir))
        got = diff_linked(stored[k - 1], stored[k], link)
        assert got is not None
        assert got.to_dict() == diff_releases(releases[k - 1], releases[k]).to_dict()
        found.append({(c.kind, c.op, c.id) for c in got.changes if c.kind in ("glossary", "chapter")})
    assert found[0] == {("glossary", "changed", "glossary:Deck"), ("glossary", "moved", "glossary:Team Pool"),
                        ("glossary", "added", "glossary:Shuffle"), ("chapter", "retitled", "100")}
    assert found[1] == {("chapter", "retitled", "100"), ("glossary", "added", "glossary:turn")}
