"""cite-check on the article of issue 26, with the real 2012 and 2026 releases.

A text of March 2012 cites the legend rule (704.5k), trample (702.18b),
lifelink (702.14b) and protection (702.15e); all four name other rules today
(704.5k is the world rule).  Dated, it is read as of its date; undated, the
words around the numbers catch them.
"""

from __future__ import annotations

import pytest
from conftest import ARCHIVE, LATEST, run

ARTICLE = """# Combat and legends, explained
Updated 10 March 2012

Two copies of a legend? The legend rule (704.5k) puts both into the graveyard.
Trample lets an attacker assign excess damage to the player (702.18b), and with
lifelink the damage also makes you gain that much life (702.14b). Protection
from a color means the creature can't be blocked by creatures of that color
(702.15e).
"""
UNDATED = ARTICLE.split("\n", 2)[2]

#: It imports the 2012-02-01 release.
pytestmark = pytest.mark.archive


@pytest.fixture(scope="module")
def then_and_now(tmp_path_factory):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    root = tmp_path_factory.mktemp("cite-2012")
    paths = [ARCHIVE / "2012-02-01.txt", LATEST]
    results = import_sources([Source(p.name, p.read_bytes()) for p in paths], Store(root),
                             build_index=False, jobs=1)
    assert all(r.error is None for r in results)
    return root


def check(data_dir, text):
    r = run(data_dir, "cite-check", "-", input=text)
    assert r.exit_code == 1, r.output
    return r.output


@pytest.mark.slow
def test_the_dated_article_is_read_as_of_its_date(then_and_now):
    out = check(then_and_now, ARTICLE)
    for old, new in [("704.5k", "704.5j"), ("702.18b", "702.19b"), ("702.14b", "702.15b"),
                     ("702.15e", "702.16e")]:
        assert f"{old} moved -> {new}" in out
    assert ('4 citations read as of 2012-03-10, the date on line 2 ("Updated 10 March 2012"), '
            "in the 2012-02-01 rules: 0 ok, 4 moved, 0 mismatched, 0 missing") in out


@pytest.mark.slow
def test_the_undated_article_is_caught_by_its_words(then_and_now):
    out = check(then_and_now, UNDATED)
    assert '704.5k is not what "The legend rule" names: that is 704.5j today' in out
    assert "702.18b is not what" in out and "that is 702.19b today" in out
    assert "702.14b is not what" in out and "that is 702.15b today" in out
    assert "4 ok" not in out and "(the text has no date;" in out
