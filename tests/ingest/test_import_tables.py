"""The import pipeline carries the shipped tables into a release the shipped map
does not know, through the data folder's lineage (``pipeline.via``)."""

from __future__ import annotations

import pytest

from crsearch.ingest.pipeline import via
from crsearch.rules.model import Chapter, Release, Rule
from crsearch.search import tables
from crsearch.search.asked import doc_texts
from crsearch.search.build import documents
from crsearch.store.datadir import Store


def later(release: Release, date: str, moved: str, to: str) -> Release:
    """``release`` as a later one that moves chapter ``moved`` to ``to``."""
    rules = []
    for r in release.rules:
        d = r.to_dict()
        if r.id.split(".", 1)[0] == moved:
            d["id"] = to + r.id[len(moved):]
        rules.append(Rule.from_dict(d))
    chapters = [Chapter(to if c.id == moved else c.id, c.title, c.section) for c in release.chapters]
    return Release(effective_date=date, sections=release.sections, chapters=chapters,
                   rules=rules, glossary=release.glossary)


@pytest.mark.slow
def test_a_release_after_the_map_is_reached_through_the_data_folder(latest_data_dir, latest_release):
    store = Store(latest_data_dir)
    future = later(latest_release, "2026-11-13", "723", "799")
    assert tables.renumbering().index(future.effective_date) is None
    through = via(store, future)
    assert through is not None and through.start == "2026-08-07" and through.forward
    carry = tables.Carry(future.effective_date, doc_texts(documents(future)), through)
    assert carry("723.1") == "799.1" and carry("723.5a") == "799.5a"
    assert carry("702.19b") == "702.19b"
    # Without the lineage, the renumbered rules cannot be placed: they are left out.
    alone = tables.Carry(future.effective_date, doc_texts(documents(future)))
    assert alone("723.1") is None and alone("702.19b") == "702.19b"


def test_a_release_the_map_knows_needs_no_lineage(latest_data_dir, latest_release):
    assert via(Store(latest_data_dir), latest_release) is None
