"""Reading hyperlinked rules pages back into a Release.

Round trips use the real 2026-08-07 release and the synthetic ``mini_release``;
the "other layouts" are small pages written here, in words of our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crsearch.errors import NotACR
from crsearch.ingest import htmlread
from crsearch.ingest.pipeline import release_from_site
from crsearch.ingest.sources import read_from
from crsearch.site import build as site


@pytest.mark.slow
def test_round_trip_of_the_2026_08_07_site_is_exact(latest_site, latest_release):
    back = release_from_site(latest_site)
    assert back.counts() == latest_release.counts()
    assert [r.id for r in back.rules] == [r.id for r in latest_release.rules]
    assert back.to_dict() == latest_release.to_dict()


@pytest.mark.slow
def test_round_trip_of_the_synthetic_release_is_exact(tmp_path, mini_release):
    site.build(mini_release, tmp_path / "s", search=False)
    back = release_from_site(tmp_path / "s")
    assert back.to_dict() == mini_release.to_dict()
    # the dangling reference survives as dangling, not dropped
    rule = next(r for r in back.rules if r.id == "101.2c")
    assert [x.missing for x in rule.references] == [["999.9"]]


@pytest.mark.slow
def test_a_built_site_is_a_site_source_for_update(tmp_path, mini_release, mini_data_dir):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.store.datadir import Store

    site.build(mini_release, tmp_path / "s", search=False)
    sources = read_from(str(tmp_path / "s"))
    assert [s.kind for s in sources] == ["site"]
    store = Store(tmp_path / "data")
    results = import_sources(sources, store, build_index=False)
    assert results[0].error is None
    assert store.pick().release().to_dict() == mini_release.to_dict()


# -- other layouts -------------------------------------------------------------------------

HEAD = "<!doctype html><html><head><meta charset='utf-8'><title>Rules</title></head><body>"
TAIL = "</body></html>"

# Numbers sit in ids only; the visible text has none.  References are links.
IDS_LAYOUT = HEAD + """
<h1>Magic: The Gathering Comprehensive Rules</h1>
<p>These rules are effective as of May 5, 2031.</p>
<h2 id="s1">1. Pretend Things</h2>
<h3 id="c100">100. Basics</h3>
<p id="r100.1">Every pretend game has a pretend table.</p>
<p id="r100.1a">The table is square. See rule <a href="#r100.2">100.2</a>.</p>
<p class="ex">Example: A table with four sides is square.</p>
<p id="r100.2">Players sit at the table. See rules <a href="#r100.1a">100.1a</a>&ndash;<a href="#r100.1b">b</a>.</p>
<p id="r100.1b">A wobbly table is still a table.</p>
<h3 id="c101">101. Chairs</h3>
<div id="cr-101-1"><span>Chairs are optional (see <a href="#cr-100-1">rule 100.1</a>).</span></div>
<h2>Glossary</h2>
<dl>
<dt>Table</dt><dd>Where the game happens. See rule <a href="#r100.1">100.1</a>.</dd>
<dt>Wobble</dt><dd>What a table does on an uneven floor. See rule <a href="#r100.1b">100.1b</a>.</dd>
</dl>
""" + TAIL

# Numbers only in link text (one page per chapter), like the seed pages'
# source before their scraper dropped the numbers.
LINKTEXT_INDEX = HEAD + """
<nav><a href="c200.html">200. Moves</a></nav>
<h1>Comprehensive Rules</h1>
<p>Effective as of June 6, 2031.</p>
<ul><li><a href="c200.html">2. Motion</a></li></ul>
""" + TAIL
LINKTEXT_200 = HEAD + """
<h2>2. Motion</h2>
<h3><a href="c200.html">200.</a> Moves</h3>
<p><a href="c200.html#200.1">200.1.</a> A move takes one step. See rule <a href="c200.html#200.2">200.2</a>.</p>
<p><a href="c200.html#200.1a">200.1a</a> A long move takes two steps.</p>
<p><a href="c200.html#200.2">200.2.</a> A hop is a move. See rules <a href="c200.html#200.1">200.1</a> and <a href="c200.html#200.1a">200.1a</a>.</p>
""" + TAIL

# Empty named anchors before the text, as older hand-made pages do.
ANCHOR_LAYOUT = HEAD + """
<p>Comprehensive Rules (effective as of July 7, 2031)</p>
<p><b>3. Weather</b></p>
<p><b>300. Rain</b></p>
<p><a name="300-1"></a>Rain falls down. See rule <a href="#300-2">300.2</a>.</p>
<p><a name="300-2"></a>Rain stops eventually.</p>
<p><a name="300-2a"></a>A drizzle counts as rain.</p>
""" + TAIL


def _write(folder: Path, pages: dict[str, str]) -> Path:
    folder.mkdir()
    for name, html in pages.items():
        (folder / name).write_text(html, encoding="utf-8")
    return folder


def test_reads_numbers_that_sit_only_in_ids(tmp_path):
    rel = release_from_site(_write(tmp_path / "ids", {"index.html": IDS_LAYOUT}))
    assert rel.effective_date == "2031-05-05"
    assert [r.id for r in rel.rules] == ["100.1", "100.1a", "100.1b", "100.2", "101.1"]
    by = {r.id: r for r in rel.rules}
    assert by["100.1a"].text == "The table is square. See rule 100.2."
    assert by["100.1a"].examples == ["A table with four sides is square."]
    # the range inside links is whole again, and resolves to both ends
    assert by["100.2"].references[0].text == "rules 100.1a–b"
    assert by["100.2"].references[0].targets == ["100.1a", "100.1b"]
    assert by["101.1"].references[0].targets == ["100.1"]
    assert [g.term for g in rel.glossary] == ["Table", "Wobble"]
    assert rel.glossary[1].references[0].targets == ["100.1b"]
    assert sorted(rel.get("100.1").cited_by) == ["101.1", "glossary:Table"]


def test_keeps_rule_numbers_that_sit_inside_links(tmp_path):
    folder = _write(tmp_path / "links", {"index.html": LINKTEXT_INDEX, "c200.html": LINKTEXT_200})
    rel = release_from_site(folder)
    assert rel.effective_date == "2031-06-06"
    assert [(c.id, c.title) for c in rel.chapters] == [("200", "Moves")]
    assert [(s.id, s.title) for s in rel.sections] == [("2", "Motion")]
    assert [r.id for r in rel.rules] == ["200.1", "200.1a", "200.2"]
    hop = rel.get("200.2")
    assert hop.text == "A hop is a move. See rules 200.1 and 200.1a."
    assert hop.references[0].targets == ["200.1", "200.1a"]


def test_reads_numbers_from_empty_named_anchors(tmp_path):
    rel = release_from_site(_write(tmp_path / "anchors", {"index.html": ANCHOR_LAYOUT}))
    assert [(r.id, r.kind) for r in rel.rules] == [
        ("300.1", "rule"), ("300.2", "rule"), ("300.2a", "subrule")]
    assert rel.get("300.1").references[0].targets == ["300.2"]
    assert rel.unplaced == []


def test_the_seed_scrapers_loss_does_not_happen(tmp_path):
    # The seed pages read 'See rules –d.' because the numbers were links.
    page = HEAD + """<p>Comprehensive Rules, effective as of August 8, 2031.</p>
    <p>5. Tests</p><p>500. Checks</p>
    <p>500.1. A check has parts.</p><p>500.1a One part.</p><p>500.1b Another part.</p>
    <p>500.2. Parts are checked in order. See rules <a href="#500.1a">500.1a</a>–<a href="#500.1b">b</a>.</p>
    """ + TAIL
    rel = release_from_site(_write(tmp_path / "seedlike", {"index.html": page}))
    assert rel.get("500.2").text.endswith("See rules 500.1a–b.")
    assert rel.get("500.2").references[0].targets == ["500.1a", "500.1b"]


def test_pages_without_rules_or_date_are_refused_with_a_reason(tmp_path):
    empty = _write(tmp_path / "empty", {"index.html": HEAD + "<p>Hello there.</p>" + TAIL})
    with pytest.raises(NotACR, match="effective as of"):
        htmlread.read_site(empty)
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    with pytest.raises(NotACR, match="no HTML pages"):
        htmlread.read_site(nothing)


def test_id_attributes_in_many_spellings():
    f = htmlread._id_from_attr
    assert f("r702.19c") == "702.19c"
    assert f("702-19c") == "702.19c"
    assert f("cr_702_019") == "702.19"
    assert f("c702") == "702"
    assert f("footnote-3") is None
    assert f("702.19l") is None
