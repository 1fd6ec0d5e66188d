"""Rule pages, community anchors, every release, what changed, the JSON API and
offline files of the static site.

Three small synthetic releases (the mini fixture and two variants: a changed,
an added and a renumbered rule, then a release with markup in its text) are
built with ``--all``; the real 2026-08-07 release checks rule pages, anchors
and the JSON API against the CLI.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import run

from crsearch.site import build as site
from crsearch.site import offline as site_offline

V1, V2, V3 = "2031-03-03", "2031-06-01", "2031-09-01"
MARKUP = "<script>alert('x')</script>"


def soup_of(path: Path) -> BeautifulSoup:
    """A page as the browser shows it: an older release's chapter text
    written from its shared runs (crsearch.site.bodies)."""
    from crsearch.site import bodies

    page = bodies.inline(path.read_bytes(), lambda src: (path.parent / src).read_bytes())
    return BeautifulSoup(page, "html.parser")


def _variant(text: str, date: str, swaps: list[tuple[str, str]]) -> bytes:
    text = text.replace("March 3, 2031", {V2: "June 1, 2031", V3: "September 1, 2031"}[date])
    for old, new in swaps:
        assert old in text, old
        text = text.replace(old, new)
    return text.encode("utf-8")


# v2: 100.2 reworded; a new keyword 201.2 "Zip" pushes Zoom from 201.2 to 201.3.
V2_SWAPS = [
    ("starts with a pile of invented cards", "starts with a stack of invented cards"),
    ("201.2. Zoom\n\n201.2a Zoom is a keyword move that moves a widget. See rule 201.1a.",
     "201.2. Zip\n\n201.2a Zip is a keyword move that makes a widget hum.\n\n"
     "201.3. Zoom\n\n201.3a Zoom is a keyword move that moves a widget. See rule 201.1a."),
]
# v3: markup in a rule, an example and a glossary term must stay text.
V3_SWAPS = V2_SWAPS + [
    ("100.4. A widget rule with a gap before its example.",
     f"100.4. A widget rule with a gap before its example {MARKUP} and <b>bold</b> & more."),
    ("Example: Ann sets a widget aside before she plays.",
     "Example: Ann types <img src=x onerror=alert(1)> before she plays."),
    ("Zonk\nA term", "<i>Tag</i>\nA term with <em>markup</em>. See rule 100.4.\n\nZonk\nA term"),
]


@pytest.fixture(scope="module")
def trio(mini_bytes):
    from crsearch.ingest.pipeline import release_from_bytes

    text = mini_bytes.decode("utf-8")
    v1 = release_from_bytes(mini_bytes, "mini_cr.txt")
    v2 = release_from_bytes(_variant(text, V2, V2_SWAPS), "mini_v2.txt")
    v3 = release_from_bytes(_variant(text, V3, V3_SWAPS), "mini_v3.txt")
    assert [r.effective_date for r in (v1, v2, v3)] == [V1, V2, V3]
    return v1, v2, v3


@pytest.fixture(scope="module")
def all_site(tmp_path_factory, trio) -> Path:
    out = tmp_path_factory.mktemp("all") / "site"
    site.build_all(list(trio), out)  # with the search files
    return out


# -- rule pages -------------------------------------------------------------------

@pytest.mark.slow
def test_every_rule_of_the_latest_release_has_its_own_page(all_site, trio):
    latest = trio[2]
    for r in latest.rules:
        page = soup_of(all_site / f"{r.id}.html")
        assert page.find(id=r.id) is not None, r.id
        assert page.find("link", rel="manifest")["href"] == "manifest.webmanifest"
    # Older releases are lighter: chapters, no rule pages.
    assert (all_site / V1 / "100.html").is_file()
    assert not (all_site / V1 / "100.2.html").exists()


def test_a_rule_page_shows_its_chapter_parent_subrules_and_links(all_site):
    s = soup_of(all_site / "101.2a.html")
    crumbs = [li.get_text(" ", strip=True) for li in s.select("header nav.crumbs li")]
    assert crumbs == ["Contents", "1. Test Concepts", "101. Widgets",
                      "101.2. Widgets have parts. See rules …", "101.2a"]
    assert s.select_one("header nav.crumbs a[href='101.2.html']") is not None
    context = s.select_one(".rule-context")
    assert context.find("a", href="101.html#101.2a").get_text() == "Read in chapter 101"
    assert context.find("a", href=f"api/{V3}/rules/101.2a.json") is not None
    parent = soup_of(all_site / "101.2.html")
    shown = [h["id"] for h in parent.select(".rule-body article .num")]
    assert shown[:3] == ["101.2", "101.2a", "101.2b"] and shown[-1] == "101.2p"


def test_cites_and_cited_by_carry_titles_and_collapse_beyond_five(all_site):
    s = soup_of(all_site / "101.2.html")
    cites = [(a["href"], a.get_text(" ", strip=True)) for a in s.select("#cites ~ ul.refs a")]
    assert ("100.1a.html", "100.1a A two-player test game has two imaginary players.") in cites
    by = soup_of(all_site / "100.1b.html").select_one("section[aria-labelledby=cited-by]")
    assert by.find("a", href="glossary.html#g-team-teammate").get_text(" ", strip=True) == "Glossary Team, Teammate"
    assert by.find("details") is None  # two entries: nothing to fold


def test_real_rule_page_folds_a_long_cited_by_list(latest_site, latest_release):
    s = soup_of(latest_site / "601.2b.html")
    section = s.select_one("section[aria-labelledby=cited-by]")
    visible = section.find("ul", recursive=False).find_all("li")
    folded = section.select("details.more li")
    rule = next(r for r in latest_release.rules if r.id == "601.2b")
    assert len(visible) == 5 and len(visible) + len(folded) == len(set(rule.cited_by)) > 40
    assert visible[0].find(class_="ref-num") is not None
    crumbs = [li.get_text(" ", strip=True) for li in s.select("header nav.crumbs li")]
    assert crumbs[1:3] == ["6. Spells, Abilities, and Effects", "601. Casting Spells"]


def test_real_chapter_pages_carry_community_anchor_aliases(latest_site, latest_release):
    s = soup_of(latest_site / "702.html")
    art = s.find(id="R70219c")
    assert art.name == "article" and art.find(class_="num")["id"] == "702.19c"
    assert art.find(class_="num").a["href"] == "702.19c.html"
    ids = [el["id"] for el in s.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert site.anchor_alias("702.19c") == "R70219c"
    # Chapter pages still read back into the same rules (update --from site/).
    from crsearch.ingest.htmlread import read_site

    back = read_site(latest_site)
    assert [r.id for r in back.rules] == [r.id for r in latest_release.rules]


def test_header_is_sticky_and_holds_search_and_breadcrumbs(latest_site):
    s = soup_of(latest_site / "702.html")
    header = s.find("header", class_="top")
    assert header.find("form", role="search") and header.find("nav", class_="crumbs")
    css = (latest_site / "site.css").read_text(encoding="utf-8")
    assert re.search(r"\.top \{ position: sticky; top: 0;", css)
    assert "scroll-margin-top" in css


# -- every release ----------------------------------------------------------------

def test_all_puts_the_latest_at_the_root_and_older_under_their_date(all_site):
    for date, folder in ((V3, all_site), (V2, all_site / V2), (V1, all_site / V1)):
        home = soup_of(folder / "index.html")
        assert home.find("meta", attrs={"name": "crsearch-effective-date"})["content"] == date
        switch = home.select_one(".release-switch")
        assert switch["data-current"] == date and switch["data-latest"] == V3
        assert switch.find("a")["href"] == ("releases.html" if folder == all_site else "../releases.html")
    script = (all_site / "releases.js").read_text(encoding="utf-8")
    assert json.loads(script[script.index("=") + 1:].rstrip().rstrip(";")) == [V3, V2, V1]
    table = soup_of(all_site / "releases.html").select("table.release-table tbody tr")
    assert [tr.find("a")["href"] for tr in table] == ["index.html", f"{V2}/index.html", f"{V1}/index.html"]


def test_older_releases_share_the_roots_style_and_page_scripts(all_site):
    for date in (V1, V2):
        page = soup_of(all_site / date / "glossary.html")
        assert page.find("link", rel="stylesheet")["href"] == "../site.css"
        assert page.find("script", src="../app.js") is not None
        for name in ("site.css", "app.js", "site.js", "rank.js", "text.js", "explain-terms.js"):
            assert not (all_site / date / name).exists(), name
        assert page.find("script", src="../rank.js") and page.find("script", src="../text.js")
        explain = soup_of(all_site / date / "explain.html")
        data, script = [s["src"] for s in explain.select("script[src]") if "explain" in s["src"]]
        assert script == "../explain.js" and re.fullmatch(r"\.\./search/explain-terms\.[0-9a-f]{10}\.js", data)
        assert (all_site / date / data).is_file()
        # The root's site.js, with the data files in the shared search/.
        script = page.find("script", attrs={"data-search": True})
        assert script["src"] == "../site.js" and script["data-search"].startswith("../search/meta.")
        assert (all_site / date / script["data-search"]).is_file()
        assert (all_site / date / script["data-keys"]).is_file()
        assert not (all_site / date / "search").exists()


def test_older_chapters_share_runs_of_unchanged_rules(all_site):
    """An older release's chapter page keeps its own header and footer, its
    text comes from runs in the root's search/ (b.<hash>.js) that a release
    reading the same shares; without them it is not the whole page."""
    raw = (all_site / V1 / "100.html").read_text(encoding="utf-8")
    runs = re.findall(r'<script src="\.\./(search/b\.[0-9a-f]{10}\.js)"></script>', raw)
    assert runs and 'id="100.1"' not in raw and "data-line" not in raw.split("<main")[1].split("</main>")[0]
    assert f'href="../api/{V1}/release.json"' in raw  # <noscript>
    shown = soup_of(all_site / V1 / "100.html")
    assert shown.find(id="100.1") is not None and shown.find(id="R1001") is not None
    assert shown.select_one("header") is not None and shown.find("main").find("h1").get_text(" ", strip=True)
    # Chapters that read the same in V1 and V2 are the same runs: one file each.
    def refs(date: str) -> set[str]:
        return {r for page in (all_site / date).glob("*.html")
                for r in re.findall(r'search/b\.[0-9a-f]{10}\.js', page.read_text(encoding="utf-8"))}
    assert len(refs(V1) & refs(V2)) >= 3
    assert {f"search/{p.name}" for p in (all_site / "search").glob("b.*.js")} == refs(V1) | refs(V2)
    for name in runs:
        assert (all_site / name).read_bytes().startswith(b"document.write(")
    # The glossary too; the root (the latest) keeps whole static pages.
    assert "search/b." in (all_site / V1 / "glossary.html").read_text(encoding="utf-8")
    for name in ("100.html", "glossary.html", "100.1.html"):
        assert "search/b." not in (all_site / name).read_text(encoding="utf-8")


def _data(path: Path):
    """The data a search file stores (``searchdata._script``)."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text[text.index("]=") + 2:].rstrip().rstrip(";"))


def test_older_releases_share_the_kept_words_of_typo_correction(all_site):
    """The known words typo correction leaves alone are, for every older
    release, the same k files (those near a word of any release); the
    latest keeps its own in its v files, as a site of one release does."""
    kept = {}
    for date in (V1, V2):
        page = soup_of(all_site / date / "glossary.html")
        keys = _data(all_site / date / page.find("script", attrs={"data-keys": True})["data-keys"])
        kept[date] = keys["kept"]
        assert keys["kept"] and set(keys["kept"]) <= set(keys["letters"])
        for name in keys["letters"].values():
            assert _data(all_site / "search" / name)["k"] == []
        for name in keys["kept"].values():
            assert _data(all_site / "search" / name), name
    assert kept[V1] == kept[V2]
    page = soup_of(all_site / "glossary.html")
    keys = _data(all_site / page.find("script", attrs={"data-keys": True})["data-keys"])
    assert "kept" not in keys
    latest_kept = [w for name in keys["letters"].values() for w in _data(all_site / "search" / name)["k"]]
    shared = {w for name in kept[V1].values() for w in _data(all_site / "search" / name)}
    assert latest_kept and set(latest_kept) <= shared


def test_changes_page_shows_changed_added_and_renumbered_rules(all_site):
    page = soup_of(all_site / V2 / "changes.html")
    changed = page.find(id="c-100.2")
    assert [d.get_text() for d in changed.find_all("del")] == ["pile"]
    assert [i.get_text() for i in changed.find_all("ins")] == ["stack"]
    added = page.find(id="c-201.2")
    assert "op-added" in added["class"] and "Zip" in added.get_text()
    moved = page.find(id="c-201.3")
    assert "op-moved" in moved["class"]
    head = moved.select_one(".change-head").get_text(" ", strip=True)
    assert head.startswith("201.2 → 201.3 renumbered") and "201.2a → 201.3a" in head
    assert moved.find("a", class_="old-link")["href"] == f"../{V1}/201.html#201.2"
    # Linked from the home page and from each changed rule of that release.
    home = soup_of(all_site / V2 / "index.html")
    assert home.select_one(".release-links a")["href"] == "changes.html"
    chapter = soup_of(all_site / V2 / "100.html")
    note = chapter.find(id="100.2").parent.select_one(".changed-note a")
    assert note["href"] == "changes.html#c-100.2"
    assert chapter.find(id="100.1").parent.select_one(".changed-note") is None
    assert not (all_site / V1 / "changes.html").exists()


def test_rule_pages_show_their_history_following_renumbering(all_site):
    s = soup_of(all_site / "201.3a.html")
    rows = s.select("section.history li")
    assert [r.get("class")[0] for r in rows] == ["h-present", "h-moved"]
    assert rows[0].a["href"] == f"{V1}/201.html#201.2a"
    assert "201.2a → 201.3a renumbered" in rows[1].get_text(" ", strip=True)
    assert rows[1].find("a", class_="h-changes")["href"] == f"{V2}/changes.html#c-201.3a"
    changed = soup_of(all_site / "100.2.html").select("section.history li")
    assert [d.get_text() for d in changed[1].find_all("del")] == ["pile"]
    assert soup_of(all_site / "100.2.html").select_one(".rule-context a[href='#history']")


@pytest.mark.slow
def test_all_build_is_byte_identical(tmp_path, trio, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a, b = tmp_path / "a", tmp_path / "b"
    site.build_all(list(trio), a, search=False)
    site.build_all(list(reversed(trio)), b, search=False)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files)


# -- JSON API ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_cli_site(tmp_path_factory, latest_data_dir) -> Path:
    out = tmp_path_factory.mktemp("cli-site") / "site"
    r = run(latest_data_dir, "site", "build", str(out), "--no-search")
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.slow
@pytest.mark.parametrize("id", ["702.19c", "702.19", "601.2b", "100.1", "119.1d", "510.1c"])
def test_api_rule_equals_the_cli_json(real_cli_site, latest_data_dir, id):
    r = run(latest_data_dir, "rule", id, "--no-children", "--json")
    assert r.exit_code == 0, r.output
    expected = json.loads(r.output)[0]
    got = json.loads((real_cli_site / "api" / "2026-08-07" / "rules" / f"{id}.json").read_text())
    assert got == expected
    assert list(got) == ["id", "kind", "title", "text", "examples", "references", "cited_by", "release"]


@pytest.mark.slow
def test_api_chapter_glossary_and_index_equal_the_cli(real_cli_site, latest_data_dir):
    api = real_cli_site / "api"
    r = run(latest_data_dir, "rule", "702", "--json")
    assert json.loads((api / "2026-08-07" / "chapters" / "702.json").read_text()) == json.loads(r.output)
    glossary = json.loads((api / "2026-08-07" / "glossary.json").read_text())
    r = run(latest_data_dir, "define", "trample", "--json")
    assert json.loads(r.output) in glossary
    index = json.loads((api / "releases.json").read_text())
    assert [row["effective_date"] for row in index] == ["2026-08-07"]
    r = run(latest_data_dir, "releases", "--json")
    cli_row = next(x for x in json.loads(r.output) if x["effective_date"] == "2026-08-07")
    assert {k: v for k, v in cli_row.items() if k != "dir"} == {
        k: v for k, v in index[0].items() if k not in ("api", "site")}
    doc = soup_of(real_cli_site / "api.html")
    assert doc.find("a", href="api/2026-08-07/glossary.json") is not None
    assert doc.find("a", href="api/releases.json") is not None


def test_api_of_every_release_has_chapters_and_the_latest_has_rules(all_site):
    index = json.loads((all_site / "api" / "releases.json").read_text())
    assert [(x["effective_date"], x["current"], x["site"]) for x in index] == [
        (V3, True, "../index.html"), (V2, False, f"../{V2}/index.html"),
        (V1, False, f"../{V1}/index.html")]
    for date in (V1, V2, V3):
        chapter = json.loads((all_site / "api" / date / "chapters" / "201.json").read_text())
        assert chapter[0]["id"] == "201" and all(x["release"] == date for x in chapter)
    assert (all_site / "api" / V3 / "rules" / "201.3a.json").is_file()
    assert not (all_site / "api" / V2 / "rules").exists()


# -- markup stays text ------------------------------------------------------------

def test_markup_in_a_release_stays_text_everywhere(all_site, trio):
    rule = soup_of(all_site / "100.4.html")
    chapter = soup_of(all_site / "100.html")
    for s in (rule, chapter):
        assert s.find("script", string=re.compile("alert")) is None
        assert s.find("b") is None and s.find("img") is None
        body = s.find(id="100.4").parent
        assert MARKUP in body.select_one("p.t").get_text()
        assert "<img src=x onerror=alert(1)>" in body.select_one("aside.example").get_text()
    glossary = soup_of(all_site / "glossary.html")
    assert glossary.find("i") is None and glossary.find("em") is None
    assert any(h.get_text(strip=True) == "<i>Tag</i>" for h in glossary.select("div.term h2"))
    changes = soup_of(all_site / "changes.html")
    assert changes.find("script", string=re.compile("alert")) is None
    assert changes.find("img") is None and changes.find("b") is None
    assert MARKUP in changes.find(id="c-100.4").get_text()
    # JSON API and search data: the text as it is, JSON-encoded.
    api = json.loads((all_site / "api" / V3 / "rules" / "100.4.json").read_text())
    assert MARKUP in api["text"]
    strings = [t for path in _search_data(all_site) for t in _strings(path)]
    assert "<i>Tag</i>" in strings or any("<i>Tag</i>" in t for t in strings)
    # The service worker's lists hold file names only, never text.
    for url, _ in sum(_worker_lists(all_site), []):
        assert re.fullmatch(r"[A-Za-z0-9._/-]+", url), url


def _search_data(folder: Path) -> list[Path]:
    """The files the build writes for search (terms.js, or a search/ folder)."""
    found = [p for p in [folder / "terms.js"] if p.is_file()]
    if (folder / "search").is_dir():
        found += sorted(p for p in (folder / "search").rglob("*") if p.suffix in (".js", ".json"))
    assert found, "no search data"
    return found


def _strings(path: Path) -> list[str]:
    """Every string in a JSON file, or in a script ``window.X = <JSON>;``."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        # "window.X = <JSON>;" or "(window.X=window.X||{})["key"]=<JSON>;"
        start = text.index('"]=') + 3 if '"]=' in text.split("\n", 1)[0][:120] else text.index("=") + 1
        text = text[start:].rstrip().rstrip(";")
    try:
        data = json.loads(text)
    except ValueError:
        return []
    out: list[str] = []
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            stack += list(x.keys()) + list(x.values())
        elif isinstance(x, list):
            stack += x
    return out


# -- offline and installable ------------------------------------------------------

def _worker_lists(folder: Path) -> tuple[list[list], list[list]]:
    """The shell (URL, hash) and the bundles (URL, bytes) named in ``sw.js``."""
    sw = (folder / "sw.js").read_text(encoding="utf-8")
    shell = json.loads(re.search(r"var SHELL = (\[.*?\]);\n", sw).group(1))
    packs = json.loads(re.search(r"var BUNDLES = (\[.*?\]);\n", sw).group(1))
    return shell, packs


def _bundled(folder: Path) -> dict[str, tuple[str, str]]:
    """Every file the bundles hold: path -> (content type, text)."""
    _, packs = _worker_lists(folder)
    out = {}
    for url, size in packs:
        data = (folder / url).read_bytes()
        assert len(data) == size
        for name, kind, text in json.loads(data)["files"]:
            out[name] = (kind, text)
    return out


def test_the_worker_fetches_a_shell_and_a_few_bundles_of_the_latest_release(all_site):
    shell, packs = _worker_lists(all_site)
    assert {"site.css", "site.js", "app.js", "manifest.webmanifest", "icons/icon-192.png",
            "releases.js"} <= {u for u, _ in shell}
    for url, h in shell:
        assert h == hashlib.sha256((all_site / url).read_bytes()).hexdigest()[:16]
    # Bundles are named by their content's hash, so browsers may keep them for good.
    for url, _size in packs:
        digest = re.fullmatch(r"offline/(?:pages|search)-\d+\.([0-9a-f]{10})\.json", url).group(1)
        assert hashlib.sha256((all_site / url).read_bytes()).hexdigest()[:10] == digest
    files = _bundled(all_site)
    root_pages = {p.name for p in all_site.glob("*.html") if not site_offline.is_rule_page(p.name)}
    assert root_pages <= set(files) and {"glossary.html", "search.html", "101.html"} <= root_pages
    # Each file as it is on disk, with its type.
    for name, (kind, text) in files.items():
        assert text.encode("utf-8") == (all_site / name).read_bytes(), name
        assert kind.startswith("text/html" if name.endswith(".html") else "text/javascript"), name
    # The latest release's search data: every file its pages name.
    meta = soup_of(all_site / "index.html").find("script", attrs={"data-search": True})["data-search"]
    assert meta.startswith("search/") and meta in files
    # Never a rule page (made from its chapter), an older release or the JSON API.
    assert not any(site_offline.is_rule_page(n) or n.startswith(("api/", V1, V2)) for n in files)
    assert len(shell) + len(packs) <= 20


def test_the_shell_is_every_file_but_pages_rule_pages_and_data():
    """A script the build starts writing (say ``js/rank.js``) is in the shell
    without a list to update, so search keeps working offline."""
    names = ["js/rank.js", "site.js", "702.html", "702.19c.html", "search/meta.0123456789.js",
             "explain-terms.js", "crsearch-site.json", "sw.js", "icons/icon.svg"]
    assert site_offline.shell(names) == ["icons/icon.svg", "js/rank.js", "site.js"]
    assert [n for n in names if site_offline.bundled(n)] == [
        "702.html", "search/meta.0123456789.js", "explain-terms.js"]


@pytest.mark.slow
def test_a_rebuild_changes_only_the_bundles_of_changed_files(tmp_path, trio):
    v1, v2, _ = trio
    a, b = tmp_path / "a", tmp_path / "b"
    site.build(v1, a, search=False)
    site.build(v2, b, search=False)
    version = re.compile(r'var VERSION = "(\w+)"')
    assert version.search((a / "sw.js").read_text()).group(1) != version.search(
        (b / "sw.js").read_text()).group(1)
    assert re.search(r'var RELEASE = "([\d-]+)"', (b / "sw.js").read_text()).group(1) == V2
    (old_shell, old_packs), (new_shell, new_packs) = _worker_lists(a), _worker_lists(b)
    assert dict(old_shell)["site.css"] == dict(new_shell)["site.css"]
    assert {u for u, _ in old_packs} != {u for u, _ in new_packs}
    assert _bundled(a)["100.html"] != _bundled(b)["100.html"]


def test_bundles_of_a_large_release_stay_few(latest_site):
    """The whole precache: the shell and bundles of 2026-08-07, at most 60
    files and 3 MB once gzipped (as ``site serve`` sends them)."""
    import gzip

    shell, packs = _worker_lists(latest_site)
    urls = [u for u, _ in shell] + [u for u, _ in packs]
    wire = sum(len(gzip.compress((latest_site / u).read_bytes(), 6)) for u in urls)
    assert len(urls) <= 60 and wire <= 3_000_000, (len(urls), wire)


def test_manifest_and_icons_make_the_site_installable(all_site):
    m = json.loads((all_site / "manifest.webmanifest").read_text())
    assert m["display"] == "standalone" and m["start_url"] == "./index.html" and m["name"]
    sizes = set()
    for icon in m["icons"]:
        data = (all_site / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add(w)
        else:
            assert data.startswith(b"<svg")
    assert {192, 512} <= sizes
    older = soup_of(all_site / V1 / "index.html")
    assert older.find("link", rel="manifest")["href"] == "../manifest.webmanifest"


def test_png_icon_decodes_to_its_size():
    import struct
    import zlib

    data = site_offline.png_icon(48)
    idat = data[data.index(b"IDAT") + 4:]
    raw = zlib.decompress(idat[:struct.unpack(">I", data[data.index(b"IDAT") - 4:data.index(b"IDAT")])[0]])
    assert len(raw) == 48 * (1 + 48 * 3)


# -- command line -----------------------------------------------------------------

@pytest.mark.slow
def test_cli_site_build_all_builds_every_stored_release(tmp_path, trio):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    v1, v2, v3 = trio
    text = (Path(__file__).resolve().parents[1] / "fixtures" / "mini_cr.txt").read_text(encoding="utf-8")
    sources = [Source("v1.txt", text.encode()), Source("v2.txt", _variant(text, V2, V2_SWAPS))]
    results = import_sources(sources, Store(tmp_path / "data"), build_index=False)
    assert all(r.error is None for r in results)
    out = tmp_path / "out"
    r = run(tmp_path / "data", "site", "build", str(out), "--all", "--no-search")
    assert r.exit_code == 0, r.output
    assert "2 releases" in r.output and "MB" in r.output
    assert (out / V1 / "index.html").is_file() and (out / "changes.html").is_file()
    r = run(tmp_path / "empty", "site", "build", str(tmp_path / "none"), "--all")
    assert r.exit_code == 3 and "no releases imported" in r.output and "Traceback" not in r.output


def test_build_all_refuses_two_releases_of_one_date(tmp_path, trio):
    with pytest.raises(Exception, match="share one effective date"):
        site.build_all([trio[0], trio[0]], tmp_path / "x", search=False)
    assert not (tmp_path / "x").exists()
    assert os.listdir(tmp_path) == []


class _LinksAndIds(HTMLParser):
    """A page's link targets and element ids, read in one pass (no tree)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value is not None:
                self.ids.add(value)
            elif name == "href" and tag == "a" and value is not None:
                self.hrefs.append(value)


def test_rule_pages_have_no_broken_link_or_anchor(latest_site):
    import urllib.parse

    pages: dict[str, _LinksAndIds] = {}

    def read(name: str) -> _LinksAndIds:
        if name not in pages:
            pages[name] = _LinksAndIds()
            pages[name].feed((latest_site / name).read_text(encoding="utf-8"))
            pages[name].close()
        return pages[name]

    broken, checked = [], 0
    for path in sorted(latest_site.glob("*.*.html")):
        for href in read(path.name).hrefs:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme or parts.netloc:
                continue
            target = parts.path or path.name
            checked += 1
            if not (latest_site / target).is_file():
                broken.append((path.name, href))
            elif parts.fragment and target.endswith(".html") and parts.fragment not in read(target).ids:
                broken.append((path.name, href))
    assert broken == []
    assert checked > 50000


def test_site_histories_agree_with_crsearch_history(trio):
    from crsearch.changes.history import rule_history
    from crsearch.site import changes as site_changes

    chain = site_changes.compare_all(list(trio))
    histories = site_changes.histories(chain, trio[2])
    assert set(histories) == {r.id for r in trio[2].rules}
    for id, entries in histories.items():
        expected = [(e.date, e.event, e.id, e.old_id) for e in rule_history(list(trio), id)]
        assert [(e.date, e.event, e.id, e.old_id) for e in entries] == expected, id
    assert [e.event for e in histories["201.3a"]] == ["present", "moved"]
    assert [e.event for e in histories["201.2a"]] == ["added"]


def test_older_releases_say_where_a_missing_number_was_then(trio, all_site):
    from crsearch.site import changes as site_changes
    from tests.site.test_site_search import read_data

    chain = site_changes.compare_all(list(trio))
    histories = site_changes.histories(chain, trio[2])
    # In v1, Zoom was 201.2 (v2 put Zip there and Zoom at 201.3).
    then = site_changes.numbers_then(histories, trio[0])
    assert then["201.3"] == ["201.2", "Zoom"] and then["201.3a"] == ["201.2a", ""]
    assert "201.2a" not in then  # v1 has it (as Zoom): not missing
    assert site_changes.numbers_then(histories, trio[2]) == {}
    # The older edition's search data carries it, for the search box; the root's does not.
    # Each page names its meta file; an older release's lives in the root's shared search/.
    def meta_of(page: Path) -> Path:
        src = soup_of(page).find("script", attrs={"data-search": True})["data-search"]
        return (page.parent / src).resolve()

    old_meta = meta_of(all_site / V1 / "index.html")
    old = read_data(old_meta)
    assert read_data(old_meta.parent / old["then"]) == then
    assert "then" not in read_data(meta_of(all_site / "index.html"))
