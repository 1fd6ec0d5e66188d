"""`crsearch.store.lineage`: the lineage table kept in the data folder.

Synthetic releases (``conftest.make_release``) saved straight into a store;
the import test reads three releases of the shared archive.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import ARCHIVE, make_release

from crsearch.changes.lineage import Linker
from crsearch.store.datadir import Store
from crsearch.store.lineage import FILE, Lineage, Link, relink

RULES = {
    "100.1": "A match is played between two or more players.",
    "100.2": "Teams share a turn and a pool of points, but never a hand of cards.",
    "101.1": "Whenever a card and these rules disagree, the card wins the argument.",
}


def release(date: str, extra: dict[str, str] | None = None):
    return make_release(date, {**RULES, **(extra or {})})


def pairs(store: Store) -> list[tuple[str, str]]:
    return [(k.old[:10], k.new[:10]) for k in Lineage.read(store.dir).links.values()]


def folders(store: Store) -> list[str]:
    return [os.path.basename(s.dir) for s in store.releases()]


def test_a_release_inserted_between_two_relinks_its_neighbours(tmp_path):
    store = Store(tmp_path)
    store.save(release("2020-01-01"))
    store.save(release("2020-03-01", {"101.2": "A third rule about the end of the match."}))
    assert relink(store, Linker()) == [("2020-01-01", "2020-03-01")]
    store.save(release("2020-02-01"))
    assert relink(store, Linker()) == [("2020-01-01", "2020-02-01"), ("2020-02-01", "2020-03-01")]
    assert pairs(store) == [("2020-01-01", "2020-02-01"), ("2020-02-01", "2020-03-01")]
    assert relink(store, Linker()) == []  # nothing left to do


def test_a_release_imported_again_gets_new_links(tmp_path):
    store = Store(tmp_path)
    store.save(release("2020-01-01"))
    store.save(release("2020-02-01"))
    relink(store, Linker())
    before = folders(store)
    store.save(release("2020-02-01", {"101.2": "A rule the second copy adds."}), force=True)
    assert relink(store, Linker()) == [("2020-01-01", "2020-02-01")]
    (link,) = Lineage.read(store.dir).links.values()
    assert link.new != before[1] and link.came == {"101.2": None}


def test_an_interrupted_relink_leaves_a_whole_table(tmp_path):
    store = Store(tmp_path)
    for date in ("2020-01-01", "2020-02-01", "2020-03-01"):
        store.save(release(date))
    linker = Linker()
    calls = []

    def stops_at_the_second(old, new):
        calls.append(old)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return linker(old, new)

    with pytest.raises(KeyboardInterrupt):
        relink(store, stops_at_the_second)
    assert pairs(store) == [("2020-01-01", "2020-02-01")]
    assert [p.name for p in store.root.iterdir() if p.name.startswith(f".{FILE}")] == []
    assert relink(store, linker) == [("2020-02-01", "2020-03-01")]


def test_repair_rebuilds_a_damaged_table(tmp_path):
    store = Store(tmp_path)
    store.save(release("2020-01-01"))
    store.save(release("2020-02-01"))
    (store.root / FILE).write_text('{"format": 1, "links": [', encoding="utf-8")
    assert Lineage.read(store.dir).damaged
    report = store.repair(links=Linker())
    assert report.fixed == ["linked 1 pair of neighbouring releases in the lineage table"]
    assert pairs(store) == [("2020-01-01", "2020-02-01")]
    assert store.repair(links=Linker()).lines() == []


def test_the_table_lists_links_in_date_order_by_folder(tmp_path):
    store = Store(tmp_path)
    for date in ("2020-03-01", "2020-01-01", "2020-02-01"):
        store.save(release(date))
    relink(store, Linker())
    data = json.loads((store.root / FILE).read_text(encoding="utf-8"))
    names = folders(store)
    assert data["format"] == 1
    assert [(d["old"], d["new"]) for d in data["links"]] == list(zip(names, names[1:]))


def test_one_link_is_read_alone_as_the_whole_table_reads_it(tmp_path):
    store = Store(tmp_path)
    for k, date in enumerate(("2020-01-01", "2020-02-01", "2020-03-01", "2020-04-01")):
        store.save(release(date, {f"101.{k + 2}": f"Rule number {k} of the late additions."}))
    relink(store, Linker())
    names = folders(store)
    table = Lineage.read(store.dir)
    seen = []
    for old, new in zip(names, names[1:]):
        got = Lineage.read_link(store.dir, old, new)
        assert got is not None and (got.old, got.new) == (old, new)
        assert got.data == table.get(old, new).data
        seen.append(got.whole)
    assert seen == [{"101.2": "101.3"}, {"101.3": "101.4"}, {"101.4": "101.5"}]
    assert Lineage.read_link(store.dir, names[0], names[2]) is None  # not neighbours
    # A table laid out otherwise (spaces, another key order) reads the same, whole.
    data = json.loads((store.root / FILE).read_text(encoding="utf-8"))
    data["links"] = [dict(reversed(list(d.items()))) for d in data["links"]]
    (store.root / FILE).write_text(json.dumps(data, indent=1), encoding="utf-8")
    assert Lineage.read_link(store.dir, names[1], names[2]).data == table.get(names[1], names[2]).data
    (store.root / FILE).unlink()
    assert Lineage.read_link(store.dir, names[1], names[2]) is None


def test_a_link_answers_both_ways_and_knows_which_release_has_a_rule():
    link = Link("a", "b", {"moves": {"1.1": "1.2", "1.2": "1.3"}, "gone": {"2.1": "3.1", "2.2": None},
                           "came": {"3.1": "2.1", "1.1": None}, "text": ["1.5"], "examples": ["1.6"]})
    assert [link.forward(i) for i in ("1.1", "1.4", "2.1", "2.2")] == [
        ("1.2", False), ("1.4", False), ("3.1", True), (None, True)]
    assert [link.backward(i) for i in ("1.3", "1.2", "3.1", "1.1")] == [
        ("1.2", False), ("1.1", False), ("2.1", True), (None, True)]
    # old ids: 1.1 1.2 1.4 1.5 1.6 2.1 2.2; new ids: 1.1 1.2 1.3 1.4 1.5 1.6 3.1
    assert [link.in_old(i, True) for i in ("1.1", "1.3", "3.1", "1.4")] == [True, False, False, True]
    assert [link.in_new(i, True) for i in ("1.1", "2.1", "2.2", "1.4")] == [True, False, False, True]
    assert link.changed("1.5") and link.changed("1.6") and not link.changed("1.4")


@pytest.mark.slow
@pytest.mark.archive
def test_import_links_each_release_to_its_neighbours(tmp_path):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source

    store = Store(tmp_path)

    def load(*dates: str) -> None:
        paths = [ARCHIVE / f"{d}.txt" for d in dates]
        results = import_sources([Source(p.name, p.read_bytes(), path=str(p)) for p in paths],
                                 store, build_index=False)
        assert [r.error for r in results] == [None] * len(paths)
        assert [r.warnings for r in results] == [[]] * len(paths)

    load("2026-01-16", "2026-08-07")
    assert pairs(store) == [("2026-01-16", "2026-08-07")]
    load("2026-04-17")
    assert pairs(store) == [("2026-01-16", "2026-04-17"), ("2026-04-17", "2026-08-07")]
    link = Lineage.read(store.dir).get(*folders(store)[:2])
    # Chapter 722 became 723: the whole releases pair it.
    assert link is not None and link.forward("722.1") == ("723.1", True)
