"""The static site: pages, anchors, links, cited-by, search files, repeatability.

HTML is parsed with BeautifulSoup, never grepped.  The 2026-08-07 site is
built once per session (``latest_site``); small cases use ``mini_release``.
"""

from __future__ import annotations

import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import run

from crsearch.errors import BadInput
from crsearch.rules.model import Chapter, GlossaryEntry, Release, Rule, Section
from crsearch.site import build as site

DATE = "2026-08-07"


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_bytes(), "html.parser")


@pytest.fixture(scope="session")
def pages(latest_site) -> dict[str, BeautifulSoup]:
    """The chapter and fixed pages (rule pages, "702.19c.html", are tested in test_site_pages)."""
    return {p.name: soup_of(p) for p in sorted(latest_site.glob("*.html")) if "." not in p.stem}


@pytest.fixture(scope="session")
def by_id(pages) -> dict[str, dict]:
    """Every element with an id, per page (``find(id=...)`` is slow on big pages)."""
    return {name: {el["id"]: el for el in s.find_all(id=True)} for name, s in pages.items()}


@pytest.fixture(scope="session")
def urls(latest_release) -> site.Urls:
    return site.Urls(latest_release)


# -- URLs -----------------------------------------------------------------------

def test_url_for_gives_relative_urls_for_every_kind_of_id(urls):
    assert urls.url_for("702.19c") == "702.html#702.19c"
    assert urls.url_for("702.19") == "702.html#702.19"
    assert urls.url_for("702") == "702.html"
    assert urls.url_for("7") == "index.html#7"
    assert urls.url_for("glossary:Trample") == "glossary.html#g-trample"
    with pytest.raises(KeyError):
        urls.url_for("702.999")


def test_url_for_module_function_points_at_real_anchors(latest_release, latest_site):
    expected = {"510.1c": "510.html#510.1c", "7": "index.html#7", "702": "702.html",
                "glossary:Trample": "glossary.html#g-trample"}
    for id, url in expected.items():
        assert site.url_for(id, latest_release) == url
        page, _, anchor = url.partition("#")
        soup = BeautifulSoup((latest_site / page).read_text(encoding="utf-8"), "html.parser")
        assert not anchor or soup.find(id=anchor) is not None, url
    with pytest.raises(KeyError):
        site.url_for("510.99z", latest_release)


# -- pages and anchors ----------------------------------------------------------------

def test_one_page_per_chapter_plus_the_fixed_pages(latest_site, latest_release):
    names = {p.name for p in latest_site.glob("*.html") if "." not in p.stem}
    assert {c.id + ".html" for c in latest_release.chapters} <= names
    assert {"index.html", "glossary.html", "keywords.html", "about.html", "search.html",
            "not-found.html", "explain.html", "api.html"} <= names
    assert len(names) == len(latest_release.chapters) + 8
    rule_pages = {p.name for p in latest_site.glob("*.html") if "." in p.stem}
    assert rule_pages == {r.id + ".html" for r in latest_release.rules}


def test_every_rule_and_subrule_is_anchored_at_its_id_on_its_chapter_page(by_id, latest_release):
    for rule in latest_release.rules:
        el = by_id[f"{rule.chapter}.html"].get(rule.id)
        assert el is not None, rule.id
        assert el.find("a")["href"] == f"{rule.id}.html"  # the rule's own page


def test_examples_are_set_apart(pages, latest_release):
    asides = [a for name, s in pages.items() if name[:3].isdigit()
              for a in s.select("article.rule aside.example")]
    assert len(asides) == latest_release.counts()["examples"] == 277
    assert all(a.find(class_="label").get_text() == "Example:" for a in asides)


def test_glossary_anchors_every_term_once(pages, latest_release, urls):
    g = pages["glossary.html"]
    ids = [h["id"] for h in g.select("div.term > h2[id]")]
    assert len(ids) == len(latest_release.glossary) == 739
    assert len(set(ids)) == len(ids)
    trample = g.find(id=urls.anchor("glossary:Trample"))
    assert trample.get_text(strip=True).startswith("Trample")


def test_keyword_index_lists_701_and_702_with_numbers(pages, latest_release):
    kw = pages["keywords.html"]
    links = {a.find(class_="kw-num").get_text(): a for a in kw.select(".kw-list a")}
    expected = [r.id for r in latest_release.rules if r.chapter in ("701", "702")
                and r.kind == "rule"]
    assert sorted(links) == sorted(expected)
    assert links["702.2"]["href"] == "702.html#702.2"
    assert "Deathtouch" in links["702.2"].get_text()


def test_every_page_shows_the_effective_date(pages):
    for name, s in pages.items():
        assert s.find("time", datetime=DATE) is not None, name
        assert s.find("meta", attrs={"name": "crsearch-effective-date"})["content"] == DATE


def test_chapter_pages_have_breadcrumbs_and_prev_next(pages):
    s = pages["702.html"]
    crumbs = [li.get_text(strip=True) for li in s.select("nav.crumbs li")]
    assert crumbs == ["Contents", "7. Additional Rules", "702. Keyword Abilities"]
    assert s.select_one("nav.crumbs a[href='index.html#7']") is not None
    assert s.select_one("nav.prevnext a[rel=prev]")["href"] == "701.html"
    assert s.select_one("nav.prevnext a[rel=next]")["href"] == "703.html"
    first = pages["100.html"]
    assert first.select_one("nav.prevnext a[rel=prev]") is None
    assert first.select_one("nav.prevnext a[rel=next]")["href"] == "101.html"


def test_pages_have_landmarks_skip_link_and_no_external_resources(pages):
    for name, s in pages.items():
        assert s.html["lang"] == "en"
        assert s.find("header") and s.find("footer") and s.find("main", id="main"), name
        assert s.select_one("a.skip")["href"] == "#main"
        assert s.find("form", role="search") is not None
        for tag, attr in (("script", "src"), ("link", "href"), ("img", "src")):
            for el in s.find_all(tag, attrs={attr: True}):
                assert "//" not in el[attr], (name, el)


def test_static_files_make_no_outside_requests(latest_site):
    for name in ("site.js", "site.css"):
        text = (latest_site / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "@import" not in text


def test_css_has_dark_mode_print_and_phone_rules(latest_site):
    css = (latest_site / "site.css").read_text(encoding="utf-8")
    assert "prefers-color-scheme: dark" in css
    assert "@media print" in css
    assert "max-width: 40rem" in css


# -- links ----------------------------------------------------------------------------

def test_link_checker_finds_no_broken_internal_link_or_anchor(latest_site, pages, by_id):
    ids = by_id
    broken, checked = [], 0
    for name, s in pages.items():
        refs = [a["href"] for a in s.find_all("a", href=True)]
        refs += [el["src"] for el in s.find_all(["script", "img"], src=True)]
        refs += [el["href"] for el in s.find_all("link", href=True)]
        for href in refs:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme or parts.netloc:
                continue
            target = parts.path or name
            checked += 1
            missing_file = not (latest_site / target).is_file()
            missing_anchor = (not missing_file and bool(parts.fragment)
                              and target.endswith(".html") and parts.fragment not in ids[target])
            stray_query = bool(parts.query) and target != "search.html"
            if missing_file or missing_anchor or stray_query:
                broken.append((name, href))
    assert broken == []
    assert checked > 10000


def test_every_cross_reference_is_a_link_including_both_ends_of_ranges(pages, latest_release):
    # "rules 603.7d–f": one link to 603.7d, one (the "f") to 603.7f.
    p = next(p for p in pages["109.html"].select("p.t")
             if p.find("a", href="603.html#603.7d"))
    ends = [a for a in p.find_all("a", class_="xref")]
    hrefs = [a["href"] for a in ends]
    i = hrefs.index("603.html#603.7d")
    assert ends[i].get_text() == "rules 603.7d"
    assert ends[i + 1]["href"] == "603.html#603.7f" and ends[i + 1].get_text() == "f"
    # Every reference's every end is a link: count them against the model.
    from crsearch.rules import numbers

    links = sum(len(s.select("a.xref")) for s in pages.values())
    ends_in_model = 0
    for item in [*latest_release.rules, *latest_release.glossary]:
        for text in [*item.text.split("\n"), *item.examples]:
            for _s, _e, _p, spans in numbers.find_references(text):
                ends_in_model += sum(1 if sp.start == sp.end else 2 for sp in spans)
    see_term_links = sum(1 for a in pages["glossary.html"].select("a.xref")
                         if a["href"].startswith("glossary.html"))
    assert links - see_term_links == ends_in_model
    assert not any(s.select(".xref.missing") for s in pages.values())


def test_section_references_link_to_the_section(pages):
    ability = next(t for t in pages["glossary.html"].select("div.term")
                   if t.h2.get_text(strip=True) == "Ability")
    link = ability.find("a", string="section 6")
    assert link["href"] == "index.html#6"
    assert pages["index.html"].find(id="6") is not None


def test_cited_by_lists_link_back_to_every_citing_rule_and_term(by_id, latest_release, urls):
    checked = 0
    for rule in latest_release.rules:
        article = by_id[f"{rule.chapter}.html"][rule.id].parent
        got = [a["href"] for a in article.select(".cited a")]
        assert sorted(got) == sorted(urls.url_for(i) for i in rule.cited_by), rule.id
        checked += bool(got)
    assert checked > 500
    deathtouch = by_id["702.html"]["702.2"].parent
    labels = [a.get_text() for a in deathtouch.select(".cited a")]
    assert labels == ["120.4a", "Deathtouch (glossary)"]


def test_glossary_see_term_links_to_that_entry(pages, urls):
    entry = next(t for t in pages["glossary.html"].select("div.term")
                 if t.h2.get_text(strip=True).startswith("Remove from the Game"))
    assert [(a.get_text(), a["href"]) for a in entry.select("p.t a")] == [
        ("Exile", urls.url_for("glossary:Exile"))]


# -- search files: see test_site_search.py -------------------------------------


# -- building -------------------------------------------------------------------------

@pytest.mark.slow
def test_same_release_gives_a_byte_identical_site(tmp_path, mini_release, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a, b = tmp_path / "a", tmp_path / "b"
    site.build(mini_release, a)
    site.build(mini_release, b)
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert files_a == files_b and len(files_a) > 10
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files_a)
    assert all(int((a / f).stat().st_mtime) == 1700000000 for f in files_a)
    assert soup_of(a / "index.html").find("time", datetime="2023-11-14") is not None


def test_latest_site_rebuild_is_byte_identical(tmp_path, latest_release, latest_site):
    again = tmp_path / "again"
    site.build(latest_release, again)
    files = sorted(p.relative_to(latest_site) for p in latest_site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert all((latest_site / f).read_bytes() == (again / f).read_bytes() for f in files)


@pytest.mark.slow
def test_dangling_references_are_counted_shown_and_fail_strict(tmp_path, mini_release):
    warnings: list[str] = []
    result = site.build(mini_release, tmp_path / "out", search=False, warn=warnings.append)
    assert sorted(result.dangling) == [("101.2c", "999.9"), ("glossary:Zonk", "300.1")]
    assert len(warnings) == 1 and "999.9" in warnings[0]
    missing = soup_of(tmp_path / "out" / "101.html").select(".xref.missing")
    assert [m.get_text() for m in missing] == ["rule 999.9"]
    with pytest.raises(site.SiteError, match="strict"):
        site.build(mini_release, tmp_path / "strict", search=False, strict=True)
    assert not (tmp_path / "strict").exists()


@pytest.mark.slow
def test_rebuild_replaces_an_old_site_and_builds_beside_foreign_files(tmp_path, mini_release):
    out = tmp_path / "out"
    site.build(mini_release, out)
    assert (out / "search").is_dir()
    (out / "mine.html").write_text("mine")
    site.build(mini_release, out, search=False)
    assert not (out / "search").exists()  # the earlier build's, gone
    assert (out / "mine.html").read_text() == "mine"
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    site.build(mini_release, foreign, search=False)
    assert (foreign / "notes.txt").read_text() == "mine"
    assert (foreign / "index.html").is_file()
    (foreign / "index.html").write_text("changed")
    with pytest.raises(BadInput, match="index.html"):
        site.build(mini_release, foreign, search=False)
    assert (foreign / "index.html").read_text() == "changed"


@pytest.mark.slow
def test_text_is_escaped_not_interpreted(tmp_path):
    rel = Release(effective_date="2030-01-02", title="Comprehensive Rules",
                  sections=[Section("1", "Odd <b>Things</b>")],
                  chapters=[Chapter("100", "Tags & Such", "1")],
                  rules=[Rule("100.1", "rule", "Never run <script>alert(1)</script> here.")],
                  glossary=[GlossaryEntry("A<B", "A<B", "Less & more.")],
                  contents=["1. Odd <b>Things</b>", "100. Tags & Such"])
    site.build(rel, tmp_path / "s", search=False)
    s = soup_of(tmp_path / "s" / "100.html")
    assert s.find("script", string=lambda t: t and "alert" in t) is None
    assert "<script>alert(1)</script>" in s.find(id="100.1").parent.select_one("p.t").get_text()
    assert soup_of(tmp_path / "s" / "index.html").find("b") is None


# -- the command line -----------------------------------------------------------------------

@pytest.mark.slow
def test_cli_site_build_writes_a_site(tmp_path, mini_data_dir):
    out = tmp_path / "public"
    r = run(mini_data_dir, "site", "build", str(out), "--no-search")
    assert r.exit_code == 0, r.output
    assert "Built" in r.output and "2 dangling" in r.output
    assert (out / "index.html").is_file() and (out / "100.html").is_file()
    r = run(mini_data_dir, "site", "build", str(tmp_path / "strict"), "--strict", "--no-search")
    assert r.exit_code == 2 and r.output.count("\n") <= 3, r.output
    assert "Traceback" not in r.output


def test_cli_site_build_refuses_bad_output_with_one_line(tmp_path, mini_data_dir):
    f = tmp_path / "file.txt"
    f.write_text("x")
    r = run(mini_data_dir, "site", "build", str(f))
    assert r.exit_code == 2
    assert r.output.strip() == f"Error: {f} exists and is not a folder"


def test_cli_site_build_without_releases_says_so(tmp_path):
    r = run(tmp_path / "empty", "site", "build", str(tmp_path / "out"))
    assert r.exit_code == 3 and "no releases imported" in r.output
    assert r.output.count("\n") == 1


def test_cli_site_serve_needs_a_built_site(tmp_path):
    r = run(None, "site", "serve", str(tmp_path))
    assert r.exit_code == 2 and "no built site" in r.output


def test_site_commands_end_their_help_with_an_example():
    from crsearch.cli.site import build_cmd, serve_cmd, site_group

    for cmd in (site_group, build_cmd, serve_cmd):
        assert "Example:" in cmd.help.strip().split("\n\n")[-1], cmd.name


def test_serve_binds_to_loopback_only(latest_site):
    import threading
    import urllib.request

    server = site.make_server(latest_site, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with urllib.request.urlopen(base + "702.html") as resp:
            assert resp.status == 200
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(base + "nope.html")
        assert info.value.code == 404
        assert b"Not found" in info.value.read()
        info.value.close()
    finally:
        server.shutdown()
        server.server_close()


def test_importing_the_cli_loads_no_site_dependencies():
    code = ("import sys, crsearch.cli.main, crsearch.cli.site; "
            "bad = [m for m in ('jinja2', 'bs4', 'crsearch.site.build', 'crsearch.ingest.htmlread') "
            "if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr
