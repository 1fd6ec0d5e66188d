"""The shipped tables over all the archived releases (slow: the whole archive).

Every archived release is imported (``archive_data_dir``).  For each one,
the tables carried by ``tables.Carry`` (the shipped map and the words
check, as the index build does) are compared with what this test works out
on its own from the archive: the lineage of each id through the data
folder's links, and its check words from the tables' release.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from conftest import run

from crsearch.rules.text import words
from crsearch.search import tables
from crsearch.search.asked import check_words, doc_texts, holds
from crsearch.search.build import documents
from crsearch.store.datadir import Store
from crsearch.store.lineage import Lineage

pytestmark = [pytest.mark.slow, pytest.mark.archive, pytest.mark.timeout(3600)]


@pytest.fixture(scope="module")
def archive(archive_data_dir):
    store = Store(archive_data_dir)
    stored = store.releases()
    lineage = Lineage.read(store.dir)
    names = [os.path.basename(s.dir) for s in stored]
    links = [lineage.get(a, b) for a, b in zip(names, names[1:])]
    texts = [doc_texts(documents(s.release())) for s in stored]
    return stored, links, texts


def lineage_of(id: str, at: int, links, n: int) -> list[str | None]:
    """The number of rule ``id`` of release ``at`` in every release, by the links."""
    out: list[str | None] = [None] * n
    out[at] = id
    for k in range(at, 0, -1):
        out[k - 1] = links[k - 1].backward(out[k])[0] if out[k] else None
    for k in range(at + 1, n):
        out[k] = links[k - 1].forward(out[k - 1])[0] if out[k - 1] else None
    return out


def test_no_table_id_lands_on_a_rule_whose_text_does_not_match(archive):
    stored, links, texts = archive
    dates = [s.effective_date for s in stored]
    numbering = tables.renumbering().numbering
    at = dates.index(numbering)
    df: Counter[str] = Counter()
    for text in texts[at].values():
        df.update(set(words(text)))
    ids = tables.table_ids()
    every = sorted({i for v in ids.values() for i in v})
    check = {i: check_words(texts[at][i], dict(df)) for i in every}
    lineage = {i: lineage_of(i, at, links, len(dates)) for i in every}
    wrong, lost, summary = [], [], []
    for k, date in enumerate(dates):
        carry = tables.Carry(date, texts[k])
        counts = {}
        for what, table in ids.items():
            kept = moved = 0
            for i in table:
                got, want = carry(i), lineage[i][k]
                fits = want is not None and holds(want, check[i], texts[k])
                if got is not None and (got != want or not holds(got, check[i], texts[k])):
                    wrong.append((date, i, got))
                if got is None and fits:
                    lost.append((date, i, want))
                kept += got is not None
                moved += got is not None and got != i
            counts[what] = (kept, moved, len(table) - kept)
        summary.append((date, counts))
    print("\nrelease     " + "  ".join(f"{w}: kept/moved/dropped" for w in ids))
    for date, counts in summary:
        print(date, "  ".join(f"{w}: {c[0]}/{c[1]}/{c[2]}" for w, c in counts.items()))
    assert wrong == []
    assert lost == []
    # The check words this test works out are the map's.
    assert {i: tables.renumbering().check[i] for i in every} == check


def test_the_map_is_current(archive_data_dir, capsys):
    from tools import renumber_tables

    assert renumber_tables.main(["--data-dir", str(archive_data_dir), "--check"]) == 0, capsys.readouterr().out


@pytest.fixture(scope="module")
def indexed_old(tmp_path_factory):
    """A data folder of 2023-04-14 and 2026-01-16, indexed at import."""
    from conftest import ARCHIVE

    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source

    root = tmp_path_factory.mktemp("data-old")
    paths = [ARCHIVE / "2023-04-14.txt", ARCHIVE / "2026-01-16.txt"]
    results = import_sources([Source(p.name, p.read_bytes(), path=str(p)) for p in paths],
                             Store(root), build_index=True)
    assert [r.error for r in results] == [None, None]
    return root


@pytest.mark.parametrize(("release", "first"), [("2023-04-14", "719.1"), ("2026-01-16", "722.1")])
def test_a_topic_query_finds_the_releases_own_rule(indexed_old, release, first):
    """Checked from outside: "Controlling Another Player" is 719.1 in
    2023-04-14 and 722.1 in 2026-01-16 (723.1 in the tables' numbering)."""
    import json

    r = run(indexed_old, "--release", release, "search", "mindslaver control another player turn",
            "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["results"][0]["id"] == first
