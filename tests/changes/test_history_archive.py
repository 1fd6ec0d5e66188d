"""The lineage table over the whole archive: the same answers as pairing the releases on the spot.

Every archived release is imported (as ``crsearch update --from`` does, the
table built link by link); then the history of a sample of rules of many
releases, read from the table, is compared with today's engine pairing the
same releases as it reads them.  The engine is fed the releases from memory
and remembers each pairing it has made, which changes nothing it answers
and makes the comparison take minutes rather than hours.
"""

from __future__ import annotations

import random

import pytest

from crsearch.changes import history
from crsearch.changes.history import rule_history, trace_forward
from crsearch.store.datadir import Store
from crsearch.store.lineage import Lineage

pytestmark = [pytest.mark.slow, pytest.mark.archive, pytest.mark.timeout(3600)]


class InMemory:
    """A stored release as today's engine reads it, held in memory: the same
    rule objects on every read, so that pairings can be remembered."""

    def __init__(self, release):
        self.effective_date = release.effective_date
        self._release = release
        self._chapters: dict[str, list] = {}
        for r in release.rules:
            self._chapters.setdefault(r.id.split(".", 1)[0], []).append(r)

    def meta(self):
        return {"rule_ids": [r.id for r in self._release.rules]}

    def chapter_rules(self, chapter):
        return self._chapters.get(chapter, [])

    def release(self):
        return self._release


@pytest.fixture(scope="module")
def store(archive_data_dir):
    return Store(archive_data_dir)


@pytest.fixture(scope="module")
def releases(store):
    return [InMemory(s.release()) for s in store.releases()]


@pytest.fixture
def engine(monkeypatch):
    """Today's engine, remembering its pairings across calls."""
    seen: dict = {}
    real_rules, real_headings = history.pair_rules, history.pair_headings

    def pair_rules(old, new, group_map=None):
        key = ("r", id(old), id(new), tuple(sorted((group_map or {}).items())))
        if key not in seen:
            seen[key] = (old, new, real_rules(old, new, group_map))
        return seen[key][2]

    def pair_headings(old, new, kind):
        key = ("h", id(old), id(new), kind)
        if key not in seen:
            seen[key] = (old, new, real_headings(old, new, kind))
        return seen[key][2]

    monkeypatch.setattr(history, "pair_rules", pair_rules)
    monkeypatch.setattr(history, "pair_headings", pair_headings)


def sample(releases) -> list[tuple[str, str | None]]:
    """At least 300 (rule, release date) pairs: 8 rules of every third release,
    the rules of known renumberings and repeated ids, and removed rules read
    from the latest release that had them (date None)."""
    rng = random.Random(25)
    out: list[tuple[str, str | None]] = []
    for r in releases[::3]:
        ids = sorted(set(r.meta()["rule_ids"]))
        out += [(i, r.effective_date) for i in rng.sample(ids, 8)]
    out += [("733.1", None), ("723.1", None), ("722.1", "2023-04-14"), ("310.9a", None),
            ("502.35b", "2004-06-01"), ("702.30d", "2009-09-04"), ("702.30d", "2009-10-01")]
    latest = set(releases[-1].meta()["rule_ids"])
    gone = sorted({i for r in releases[:-1:10] for i in r.meta()["rule_ids"]} - latest)
    out += [(i, None) for i in rng.sample(gone, 12)]
    return out


def test_the_table_links_every_pair_of_neighbouring_releases(store):
    import os

    folders = [os.path.basename(s.dir) for s in store.releases()]
    assert len(folders) >= 114
    assert Lineage.read(store.dir).missing(folders) == []


def test_history_from_the_table_equals_todays_engine(store, releases, engine):
    pairs = sample(releases)
    assert len(pairs) >= 300
    differ = []
    for id, at in pairs:
        table = [e.to_dict() for e in rule_history(store, id, at=at)]
        if table != [e.to_dict() for e in rule_history(releases, id, at=at)]:
            differ.append((id, at))
    assert differ == []


def test_trace_forward_from_the_table_equals_todays_engine(store, releases, engine):
    for date in ("2003-03-15", "2009-10-01", "2016-09-30", "2023-04-14"):
        r = next(r for r in releases if r.effective_date == date)
        ids = sorted(set(r.meta()["rule_ids"]))
        assert trace_forward(store, ids, date) == trace_forward(releases, ids, date), date


def test_the_table_knows_which_release_has_each_rule(store, releases):
    """A history finds the last release that had a rule from the table and
    the latest release's ids alone."""
    lineage = Lineage.read(store.dir)
    stored = store.releases()
    import os

    for k in range(len(stored) - 1, 0, -1):
        link = lineage.get(os.path.basename(stored[k - 1].dir), os.path.basename(stored[k].dir))
        old, new = set(releases[k - 1].meta()["rule_ids"]), set(releases[k].meta()["rule_ids"])
        for id in old | new:
            assert link.in_old(id, id in new) == (id in old), (stored[k].effective_date, id)
            assert link.in_new(id, id in old) == (id in new), (stored[k].effective_date, id)


def test_diffs_of_neighbours_through_the_table_equal_the_full_diffs(store, releases):
    """``crsearch diff`` of two neighbouring releases reads their link:
    the same changes as pairing the whole releases, for every pair."""
    import os

    from crsearch.changes.diff import diff_linked, diff_releases

    lineage = Lineage.read(store.dir)
    stored = store.releases()
    differ, skipped = [], []
    for k in range(1, len(stored)):
        link = lineage.get(os.path.basename(stored[k - 1].dir), os.path.basename(stored[k].dir))
        got = diff_linked(stored[k - 1], stored[k], link)
        if got is None:
            skipped.append(stored[k].effective_date)
        elif got.to_dict() != diff_releases(releases[k - 1].release(), releases[k].release()).to_dict():
            differ.append(stored[k].effective_date)
    assert differ == []
    # Left to the full diff: the links of the three releases that repeat an
    # id (2004-06-01, 2009-09-04, 2009-10-01) and of the incomplete 2013-02-01.
    assert skipped == ["2004-06-01", "2004-10-01", "2009-09-04", "2009-10-01", "2010-02-01",
                       "2013-02-01", "2013-05-01"]
