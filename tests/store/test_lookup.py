"""``lookup`` and the store's partial chapter read behind it."""

from __future__ import annotations

import pytest

from crsearch.rules.model import Chapter, Release, Rule, Section
from crsearch.store.datadir import Store
from crsearch.store.lookup import Library


def inside(within):
    return lambda id: id == within or (id.startswith(within) and id[len(within):].isalpha())


@pytest.mark.slow
@pytest.mark.parametrize("chapter", ["119", "601", "702", "704"])
def test_partial_read_equals_filtering_the_whole_chapter(latest_data_dir, chapter):
    stored = Store(latest_data_dir).pick()
    whole = stored.chapter_dicts(chapter)
    for d in whole:
        keep = inside(d["id"])
        assert stored.rule_dicts(chapter, d["id"], keep) == [x for x in whole if keep(x["id"])]
        exact = d["id"].__eq__
        assert stored.rule_dicts(chapter, d["id"], exact) == [x for x in whole if exact(x["id"])]


def test_partial_read_falls_back_when_a_rule_repeats_or_strays(tmp_path):
    rules = [Rule("100.1", "rule", "One."), Rule("100.1a", "subrule", "One a."),
             Rule("100.2", "rule", "Two."), Rule("100.1", "rule", "One again."),
             Rule("100.1b", "subrule", "A stray subrule.")]
    release = Release(effective_date="2030-01-01", sections=[Section("1", "Game Concepts")],
                      chapters=[Chapter("100", "General", "1")], rules=rules)
    stored = Store(tmp_path).save(release)
    got = stored.rule_dicts("100", "100.1", inside("100.1"))
    assert [(d["id"], d["text"]) for d in got] == [
        ("100.1", "One."), ("100.1a", "One a."), ("100.1", "One again."),
        ("100.1b", "A stray subrule.")]
    found = Library(stored).lookup(["100.1"])
    # Items are shown once per id; the stray subrule is not lost.
    assert [r.text for r in found.items] == ["One.", "One a.", "A stray subrule."]


def test_subrule_lookup_brings_its_parent_for_context(latest_data_dir):
    found = Library(Store(latest_data_dir).pick()).lookup(["702.19c"])
    assert [i.id for i in found.items] == ["702.19c"]
    assert found.context("702.19c")[-1] == ("702.19", "Trample")


def test_a_rule_lookup_does_not_parse_the_whole_chapter(latest_data_dir, monkeypatch):
    import crsearch.store.datadir

    def whole_file(text):
        raise AssertionError("parsed the whole chapter file")

    stored = Store(latest_data_dir).pick()
    monkeypatch.setattr(crsearch.store.datadir, "loads", whole_file)
    got = stored.rule_dicts("702", "702.19", inside("702.19"))
    assert [d["id"] for d in got][:3] == ["702.19", "702.19a", "702.19b"]
