"""The site in a real browser: offline use, rule pages, old-style anchors, the
sticky header, the release switcher and the "what changed" pages.

Debian's Chromium, headless, via Playwright.  The offline test visits the
2026-08-07 site once over HTTP, waits for the service worker, then turns the
browser context offline *and* stops the server, so nothing can come from the
network.  Screenshots go to ``test-output/screenshots``.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import PHONE, shot, wait_for_service_worker


class Server:
    """``site serve`` for one folder, in a thread, on a free loopback port."""

    def __init__(self, folder: Path):
        from crsearch.site import build as site

        self.server = site.make_server(folder, port=0)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def latest(latest_site):
    server = Server(latest_site)
    yield server.url
    server.stop()


@pytest.fixture
def page(browser):
    # Only the offline test lets the service worker precache the whole site.
    context = browser.new_context(viewport={"width": 1200, "height": 900}, service_workers="block")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], "JavaScript errors"


def below_header(pg, id: str, timeout: int = 10_000) -> bool:
    """The element comes on screen, not hidden under the sticky header.

    The page scrolls to a rule after it has been drawn, so on a loaded machine the
    check waits for it (up to ``timeout`` ms) rather than reading the position once.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        pg.wait_for_function(
            """id => { const e = document.getElementById(id);
                       if (!e) return false;
                       const r = e.getBoundingClientRect();
                       const h = document.querySelector('header.top').getBoundingClientRect();
                       return r.top >= h.bottom - 1 && r.top < window.innerHeight; }""",
            arg=id, timeout=timeout, polling=100)
    except PlaywrightTimeout:
        return False
    return True


# -- offline ----------------------------------------------------------------------

#: Every state the page's offline sign shows, recorded as it changes.
RECORD_STATUS = """document.addEventListener("DOMContentLoaded", () => {
  const box = document.querySelector(".offline-status");
  window.offlineSeen = [];
  if (!box) return;
  const note = () => window.offlineSeen.push({text: box.textContent, hidden: box.hidden,
    bar: !!box.querySelector("progress") && box.getBoundingClientRect().height > 0});
  new MutationObserver(note).observe(box, {subtree: true, childList: true, characterData: true,
                                           attributes: true});
});"""


def wait_until_ready_offline(pg, release: str, timeout: int = 120_000) -> None:
    """Wait for the page's sign "Ready offline (release DATE)"."""
    pg.wait_for_function(
        "r => (document.querySelector('.offline-status') || {}).textContent === "
        "'Ready offline (release ' + r + ')'", arg=release, timeout=timeout, polling=100)


# Waiting is not a speed check (that is bench/site_offline.py), so the margin is wide.
@pytest.mark.timeout(600)
def test_after_one_visit_the_site_works_offline(browser, latest_site):
    server = Server(latest_site)
    base = server.url
    context = browser.new_context(viewport={"width": 1000, "height": 800}, service_workers="allow")
    context.add_init_script(RECORD_STATUS)
    pg = context.new_page()
    try:
        pg.goto(base + "index.html")
        wait_until_ready_offline(pg, "2026-08-07", timeout=480_000)
        shot(pg, "offline-ready")
        seen = pg.evaluate("window.offlineSeen")
        # The sign showed the download's progress before it said "ready".
        saving = [s for s in seen if s["text"].startswith("Saving for offline use") and not s["hidden"]]
        assert saving and any(s["bar"] for s in saving), seen
        assert pg.locator(".offline-status").is_visible()
        # Offline: the browser says so, and the server is gone too.
        context.set_offline(True)
        server.stop()

        resp = pg.goto(base + "702.html#R70219c")
        assert resp is not None and resp.from_service_worker
        pg.wait_for_function("location.hash === '#702.19c'")
        assert below_header(pg, "702.19c")
        shot(pg, "offline-chapter-702")

        # Never visited: a chapter, and a rule page made from its chapter.
        resp = pg.goto(base + "601.html")
        assert resp.from_service_worker
        assert pg.locator("h1 .chapter-title").inner_text() == "Casting Spells"
        resp = pg.goto(base + "702.19c.html")
        assert resp.from_service_worker
        assert pg.locator("header nav.crumbs").inner_text().count("702.19. Trample") == 1
        assert pg.locator("h1").get_attribute("id") == "702.19c"
        assert pg.locator("main article.rule").count() == 1
        assert pg.title().startswith("702.19c ")
        shot(pg, "offline-rule-702.19c")
        resp = pg.goto(base + "702.19.html")
        ids = pg.eval_on_selector_all("main article .num", "hs => hs.map(h => h.id)")
        assert ids[:3] == ["702.19", "702.19a", "702.19b"] and all(i.startswith("702.19") for i in ids)
        pg.click(".prevnext a[rel=next]")
        pg.wait_for_url("**/702.19a.html")
        assert pg.locator("h1").get_attribute("id") == "702.19a"

        resp = pg.goto(base + "glossary.html#g-deathtouch")
        assert resp.from_service_worker
        assert pg.locator("#g-deathtouch").inner_text().startswith("Deathtouch")

        pg.goto(base + "search.html?q=deathtouch")
        pg.wait_for_selector("#results a[href*='702.2']", timeout=30_000)
        shot(pg, "offline-search-deathtouch")
        assert pg.locator("#results a[href*='702.2']").count() >= 1
        assert pg.locator(".offline-status").inner_text() == "Ready offline (release 2026-08-07)"
    finally:
        context.close()
        try:
            server.stop()
        except OSError:
            pass


def test_a_page_read_while_the_bundles_come_works_offline(browser, latest_site):
    """Runtime caching: the page open when the worker arrived, and one read
    before the bundles are in, open offline."""
    server = Server(latest_site)
    context = browser.new_context(service_workers="allow")
    pg = context.new_page()
    try:
        pg.goto(server.url + "704.5a.html")
        wait_for_service_worker(pg)
        pg.goto(server.url + "113.6.html")
        assert pg.evaluate("document.querySelector('.offline-status').textContent") != \
            "Ready offline (release 2026-08-07)"
        pg.wait_for_timeout(500)
        context.set_offline(True)
        server.stop()
        for path, id in (("704.5a.html", "704.5a"), ("113.6.html", "113.6")):
            resp = pg.goto(server.url + path)
            assert resp is not None and resp.from_service_worker, path
            assert pg.locator("h1").get_attribute("id") == id
            # The page as the site wrote it (with its history and links), not made offline.
            assert pg.locator(".offline-note").count() == 0
    finally:
        context.close()
        try:
            server.stop()
        except OSError:
            pass


CACHED = """() => caches.keys().then(names => Promise.all(names
    .filter(n => n.startsWith("crsearch:") && !n.endsWith(":runtime"))
    .map(n => caches.open(n).then(c => c.keys())))).then(all => all.reduce((n, k) => n + k.length, 0))"""


def test_the_precache_waits_while_a_page_is_busy(browser, latest_site):
    """A page that loads search data or whose reader types says so on the
    "crsearch-busy" channel (site.js); meanwhile the service worker's
    precache fetches nothing, so a search on a slow network never queues
    behind it.  Then it resumes."""
    server = Server(latest_site)
    context = browser.new_context(service_workers="allow")
    pg = context.new_page()
    try:
        pg.goto(server.url + "about.html")
        pg.evaluate("""() => { const c = new BroadcastChannel("crsearch-busy");
            c.postMessage({busy: 3000});
            window.busyTimer = setInterval(() => c.postMessage({busy: 3000}), 400); }""")
        pg.evaluate("navigator.serviceWorker.register('sw.js').then(() => true)")
        pg.wait_for_timeout(4000)  # longer than one busy message lasts (3 s)
        assert pg.evaluate(CACHED) == 0, "the precache went on while the page was busy"
        pg.evaluate("clearInterval(window.busyTimer)")
        pg.wait_for_function(f"({CACHED})().then(n => n > 50)", timeout=60_000, polling=500)
    finally:
        context.close()
        server.stop()


# -- rule in context ------------------------------------------------------------------

def test_community_anchors_land_on_the_rule_below_the_sticky_header(page, latest):
    for hash in ("R70219c", "r702.19c", "702-19c", "rule-702.19c"):
        page.goto(latest + "702.html#" + hash)
        page.wait_for_function("location.hash === '#702.19c'")
        assert below_header(page, "702.19c"), hash
    # A rule anchor on the home page (a bookmark of a one-page copy) finds its chapter.
    page.goto(latest + "index.html#R70219c")
    page.wait_for_url("**/702.html#702.19c")
    assert below_header(page, "702.19c")
    shot(page, "anchor-R70219c")


def test_sticky_header_keeps_search_and_the_current_rule_in_reach(page, latest):
    page.goto(latest + "702.html#702.19c")
    page.wait_for_function("document.querySelector('.crumb-rule') && !document.querySelector('.crumb-rule').hidden")
    assert page.evaluate("document.querySelector('header.top').getBoundingClientRect().top") == 0
    assert page.locator("header #q").is_visible()
    assert page.locator(".crumb-rule").inner_text() == "702.19 Trample"
    assert page.locator(".crumb-rule a").get_attribute("href") == "702.19.html"
    shot(page, "sticky-header-702.19c")
    page.click(".crumb-rule a")
    page.wait_for_url("**/702.19.html")
    assert page.locator(".rule-body article .num").count() > 3  # 702.19 with its subrules


def test_rule_page_on_a_phone(browser, latest):
    context = browser.new_context(**PHONE, service_workers="block")
    pg = context.new_page()
    try:
        pg.goto(latest + "601.2b.html")
        wide = pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        header = pg.evaluate("document.querySelector('header.top').offsetHeight")
        shot(pg, "phone-rule-601.2b")
        pg.click("section[aria-labelledby=cited-by] details summary")
        shot(pg, "phone-rule-601.2b-cited-by-open", full=True)
        folded = pg.locator("section[aria-labelledby=cited-by] details li").count()
    finally:
        context.close()
    assert wide
    assert header < 740 / 3  # the sticky header leaves room to read
    assert folded > 30


# -- every release ------------------------------------------------------------------

@pytest.fixture(scope="module")
def releases_site(tmp_path_factory, mini_bytes):
    from test_site_pages import V2, V2_SWAPS, _variant

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    text = mini_bytes.decode("utf-8")
    v1 = release_from_bytes(mini_bytes, "mini_cr.txt")
    v2 = release_from_bytes(_variant(text, V2, V2_SWAPS), "mini_v2.txt")
    out = tmp_path_factory.mktemp("releases") / "site"
    site.build_all([v1, v2], out, search=False)
    server = Server(out)
    yield server.url
    server.stop()


def test_release_switcher_shows_the_same_page_in_another_release(page, releases_site):
    page.goto(releases_site + "201.3a.html")
    select = page.locator(".release-switch select")
    assert select.input_value() == "2031-06-01"
    select.select_option("2031-03-03")
    page.wait_for_url("**/2031-03-03/201.html#201.3a")
    assert page.locator(".release-switch .older").count() == 1
    page.locator(".release-switch select").select_option("2031-06-01")
    page.wait_for_url(releases_site + "201.html#201.3a")


def test_an_older_releases_chapter_is_written_from_shared_runs(page, releases_site):
    """An older release's chapter text comes from scripts shared between
    releases (crsearch.site.bodies): its URL still lands on the rule asked
    for, below the sticky header, and its links stay in its release."""
    page.goto(releases_site + "2031-03-03/201.html#201.2a")
    assert page.evaluate("document.querySelector(':target').id") == "201.2a"
    assert below_header(page, "201.2a")
    assert page.locator("main .chapter h1").inner_text().startswith("201.")
    assert page.locator("script[src*='search/b.']").count() >= 1
    page.click("main a[href='200.html#200.1']")
    page.wait_for_url("**/2031-03-03/200.html#200.1")
    assert page.evaluate("document.querySelector(':target').id") == "200.1"
    assert below_header(page, "200.1")
    page.goto(releases_site + "2031-03-03/201.html")
    page.click("main a[href='glossary.html#g-zap']")
    page.wait_for_url("**/2031-03-03/glossary.html#g-zap")
    assert page.evaluate("document.querySelector(':target').id") == "g-zap"


def test_changes_page_from_the_home_page_and_a_changed_rule(page, releases_site):
    page.goto(releases_site + "index.html")
    page.click(".release-links a[href='changes.html']")
    page.wait_for_url("**/changes.html")
    assert page.locator("[id='c-100.2'] del").inner_text() == "pile"
    assert page.locator("[id='c-100.2'] ins").inner_text() == "stack"
    assert "renumbered" in page.locator("[id='c-201.3'] .change-verb").inner_text()
    shot(page, "changes-page", full=True)
    page.goto(releases_site + "100.2.html")
    page.click(".rule-context a[href='changes.html#c-100.2']")
    page.wait_for_url("**/changes.html#c-100.2")
    assert page.evaluate("document.querySelector(':target').id") == "c-100.2"
    page.goto(releases_site + "201.3a.html#history")
    shot(page, "rule-history-201.3a")
    assert page.locator("section.history li").count() == 2


def test_an_older_release_searches_its_own_rules_from_the_shared_data(browser, tmp_path, mini_bytes):
    """An older release of an --all site loads the root's scripts and its
    data files from the root's search/, and its results and rule-number
    jumps stay in its own folder; the root's search is the root's."""
    from test_site_pages import V2, V2_SWAPS, _variant

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    text = mini_bytes.decode("utf-8")
    v1 = release_from_bytes(mini_bytes, "mini_cr.txt")
    v2 = release_from_bytes(_variant(text, V2, V2_SWAPS), "mini_v2.txt")
    out = tmp_path / "site"
    site.build_all([v1, v2], out)
    server = Server(out)
    context = browser.new_context()
    try:
        page = context.new_page()
        loaded: list[str] = []
        page.on("request", lambda r: loaded.append(r.url[len(server.url):]))
        older = v1.effective_date
        page.goto(server.url + f"{older}/search.html?q=pile")
        page.wait_for_selector("#results li[data-id]")
        first = page.locator("#results li[data-id] a").first
        assert first.get_attribute("href").startswith("100.html#")  # no rule pages here
        first.click()
        page.wait_for_url(f"**/{older}/100.html#*")
        data = [u for u in loaded if "/search/" in u or u.startswith("search/")]
        assert data and all(u.startswith("search/") for u in data), data
        assert {"site.js", "rank.js"} <= set(loaded)
        # A rule number typed in the header box goes to the older release's chapter.
        page.fill("#q", "100.2")
        page.press("#q", "Enter")
        page.wait_for_url(f"**/{older}/100.html#100.2")
        page.goto(server.url + "search.html?q=stack")
        page.wait_for_selector("#results li[data-id]")
        assert page.locator("#results li[data-id] a").first.get_attribute("href") == "100.html#100.2"
    finally:
        context.close()
        server.stop()


def test_offline_under_a_sub_path_with_a_plain_http_server(browser, tmp_path, mini_bytes):
    """Any static host: Python's http.server, the site at /cr/ rather than /."""
    import http.server

    from test_site_pages import V2, V2_SWAPS, _variant

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    text = mini_bytes.decode("utf-8")
    v1 = release_from_bytes(mini_bytes, "mini_cr.txt")
    v2 = release_from_bytes(_variant(text, V2, V2_SWAPS), "mini_v2.txt")
    site.build_all([v1, v2], tmp_path / "cr", search=False)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    httpd, base, context, pg = _first_visit(browser, Quiet, tmp_path)
    try:
        scope = pg.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base
        pg.goto(base + "2031-03-03/index.html")  # an older release: cached as visited
        context.set_offline(True)
        httpd.shutdown()
        httpd.server_close()
        for path, id in (("201.3a.html", "201.3a"), ("201.html#201.3a", "201.3a"),
                         ("changes.html", "c-100.2"), ("2031-03-03/index.html", "1")):
            resp = pg.goto(base + path)
            assert resp is not None and resp.from_service_worker, path
            assert pg.locator(f"[id='{id}']").count() == 1, path
    finally:
        context.close()


@pytest.mark.parametrize("path", ["702.19c.html", "601.2b.html", "api.html"])
def test_rule_and_api_pages_have_no_serious_accessibility_violations(page, latest, axe_violations, path):
    page.goto(latest + path)
    found = axe_violations(page)
    assert found == [], [(v["id"], v["impact"]) for v in found]


@pytest.mark.parametrize("path", ["changes.html", "releases.html", "100.2.html", "2031-03-03/201.html"])
def test_changes_and_release_pages_have_no_serious_accessibility_violations(page, releases_site,
                                                                             axe_violations, path):
    page.goto(releases_site + path)
    found = axe_violations(page)
    assert found == [], [(v["id"], v["impact"]) for v in found]


def test_a_dropped_request_does_not_undo_the_precache(browser, tmp_path, mini_bytes):
    """A bundle the server fails once (503, then a dropped connection) is
    asked for again, and the site still works offline after one visit."""
    import http.server

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    site.build(release_from_bytes(mini_bytes, "mini_cr.txt"), tmp_path / "cr", search=False)
    failed: list[str] = []

    class Flaky(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            if "/offline/pages-1." in self.path and len(failed) < 2:
                failed.append(self.path)
                if len(failed) == 1:
                    self.send_error(503)
                else:
                    self.close_connection = True  # no answer at all
                    self.connection.shutdown(2)
                return
            super().do_GET()

    httpd, base, context, pg = _first_visit(browser, Flaky, tmp_path)
    try:
        assert len(failed) == 2
        context.set_offline(True)
        httpd.shutdown()
        httpd.server_close()
        for path in ("glossary.html", "201.html", "201.1a.html"):
            resp = pg.goto(base + path)
            assert resp is not None and resp.from_service_worker, path
        assert pg.locator("h1[id='201.1a']").count() == 1
    finally:
        context.close()


def _first_visit(browser, handler, folder: Path):
    """Serve ``folder`` with ``handler`` (a SimpleHTTPRequestHandler), open
    its site under /cr/ once and wait for the service worker."""
    import functools
    import http.server

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/cr/"
    context = browser.new_context(service_workers="allow")
    pg = context.new_page()
    pg.goto(base + "index.html")
    wait_until_ready_offline(pg, pg.get_attribute("meta[name=crsearch-effective-date]", "content"))
    return httpd, base, context, pg


OUR_CACHES = """() => caches.keys().then(names => names.filter(n => n.startsWith("crsearch:")
    && !n.includes(":runtime:")))"""


@pytest.mark.timeout(300)
def test_a_new_release_replaces_the_bundles_without_breaking_an_open_page(browser, tmp_path, mini_bytes):
    """A rebuild with a new release: the open pages move to the new worker;
    a page of the old build still gets its own search data offline; the old
    cache goes once every page has moved on, and the sign names the new release."""
    import re

    from test_site_pages import V2, V2_SWAPS, _variant

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    v1 = release_from_bytes(mini_bytes, "mini_cr.txt")
    v2 = release_from_bytes(_variant(mini_bytes.decode("utf-8"), V2, V2_SWAPS), "mini_v2.txt")
    out = tmp_path / "site"
    site.build(v1, out)
    server = Server(out)
    context = browser.new_context(service_workers="allow")
    old, other = context.new_page(), context.new_page()
    try:
        old.goto(server.url + "index.html")
        wait_until_ready_offline(old, v1.effective_date)
        old_meta = old.get_attribute("script[data-search]", "data-search")
        other.goto(server.url + "100.html")
        assert "a pile of invented cards" in other.locator("[id='100.2']").locator("..").inner_text()

        site.build(v2, out)
        version = re.search(r'var VERSION = "(\w+)"', (out / "sw.js").read_text()).group(1)
        old.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        wait_until_ready_offline(old, V2)
        # Both builds' caches, while pages of the old one are open.
        assert len(old.evaluate(OUR_CACHES)) == 2
        context.set_offline(True)
        server.stop()
        # The old page's own search data, which the new build no longer has.
        assert old_meta not in {p.relative_to(out).as_posix() for p in out.rglob("*.js")}
        assert old.evaluate("m => fetch(m).then(r => r.ok, () => false)", old_meta)

        other.close()
        old.goto(server.url + "100.html")
        assert "a stack of invented cards" in old.locator("[id='100.2']").locator("..").inner_text()
        old.wait_for_function(f"v => ({OUR_CACHES})().then(n => n.length === 1 && n[0].endsWith(':' + v))",
                              arg=version, timeout=30_000, polling=200)
        resp = old.goto(server.url + "201.3a.html")
        assert resp is not None and resp.from_service_worker
        assert old.locator("h1").get_attribute("id") == "201.3a"
        # The page asks the worker for its state once loaded: the answer comes a moment later.
        old.wait_for_function("t => (document.querySelector('.offline-status') || {}).textContent === t",
                              arg=f"Ready offline (release {V2})", timeout=15_000, polling=100)
    finally:
        context.close()
        try:
            server.stop()
        except OSError:
            pass
