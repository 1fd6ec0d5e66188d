"""The site on a phone: Slow 4G and a 4x slower CPU, in headless Chromium.

    python -m bench.site_phone [--runs 5] [--release 2026-08-07]

Builds the site, serves it with ``site serve``'s server (gzip, cache headers)
on 127.0.0.1, and throttles Chromium through the DevTools protocol
(``Network.emulateNetworkConditions``: 400 ms round trip, 400 kbit/s down
and up; ``Emulation.setCPUThrottlingRate``: 4).  Every run starts with an
empty cache.  Prints medians:

- chapter 702: largest contentful paint, bytes over the wire;
- first search result after Enter, typed in the home page's box at about
  six keys a second (the drop-down's searches load data while typing, as
  on a real phone), then Enter: the time until ``search.html`` lists its
  first result;
- the same for a search opened cold from a link (``search.html?q=...``
  with nothing cached), and for a second search typed on the search page.

Budgets (issue #10): first result <= 2 s after Enter; LCP of 702 <= 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SLOW_4G = {"offline": False, "latency": 400, "downloadThroughput": 400 * 1000 / 8,
           "uploadThroughput": 400 * 1000 / 8}
CPU_SLOWDOWN = 4
QUERIES = ["deathtouch", "trample over planeswalkers", "what happens when a creature dies",
           "601.2f-h", "deathtuch"]
LCP = """() => new Promise(done => new PerformanceObserver(list => {
  const all = list.getEntries(); done(all[all.length - 1].startTime);
}).observe({type: "largest-contentful-paint", buffered: true}))"""
FIRST_RESULT = "document.querySelector('#results li[data-id], #results .error')"


def throttled(browser):
    """A new context and page (empty cache) with Slow 4G and 4x CPU."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page


def chapter_lcp(browser, base: str) -> tuple[float, int]:
    context, page = throttled(browser)
    try:
        page.goto(base + "702.html", wait_until="load", timeout=120000)
        lcp = page.evaluate(LCP)
        wire = page.evaluate("performance.getEntriesByType('navigation')[0].transferSize")
    finally:
        context.close()
    return lcp / 1000, wire


def typed_search(browser, base: str, query: str) -> tuple[float, float]:
    """Seconds from Enter to the first result: typed on the home page, then
    typed again on the search page (a second search)."""
    context, page = throttled(browser)
    try:
        page.goto(base + "index.html", wait_until="load", timeout=120000)
        page.click("#q")
        page.keyboard.type(query, delay=160)
        t = time.perf_counter()
        page.keyboard.press("Enter")
        page.wait_for_function(FIRST_RESULT, timeout=120000, polling=10)
        first = time.perf_counter() - t
        page.fill("#q", "")
        page.click("#q")
        page.keyboard.type("first strike", delay=160)
        t = time.perf_counter()
        page.keyboard.press("Enter")
        page.wait_for_url("**/search.html?q=first*", timeout=120000)
        page.wait_for_function(FIRST_RESULT, timeout=120000, polling=10)
        second = time.perf_counter() - t
    finally:
        context.close()
    return first, second


def linked_search(browser, base: str, query: str) -> float:
    """Seconds from navigation start to the first result, nothing cached."""
    context, page = throttled(browser)
    try:
        page.goto(base + "search.html?q=" + quote(query, safe=""), wait_until="commit")
        page.wait_for_function(FIRST_RESULT, timeout=120000, polling=10)
        ms = page.evaluate("performance.now()")
    finally:
        context.close()
    return ms / 1000


def main() -> None:
    from playwright.sync_api import sync_playwright

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per measure (medians)")
    ap.add_argument("--release", default="2026-08-07")
    args = ap.parse_args()
    txt = ROOT.parent / "shared" / "cr" / "archive" / f"{args.release}.txt"
    release = release_from_bytes(txt.read_bytes(), txt.name)
    out = Path(tempfile.mkdtemp(prefix="crsearch-phone-")) / "site"
    site.build(release, out)
    server = site.make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        lcps, wires = [], []
        for _ in range(args.runs):
            lcp, wire = chapter_lcp(browser, base)
            lcps.append(lcp)
            wires.append(wire)
        typed: dict[str, list[float]] = {q: [] for q in QUERIES}
        again: list[float] = []
        linked: dict[str, list[float]] = {q: [] for q in QUERIES}
        for _ in range(args.runs):
            for q in QUERIES:
                first, second = typed_search(browser, base, q)
                typed[q].append(first)
                again.append(second)
                linked[q].append(linked_search(browser, base, q))
        browser.close()
    server.shutdown()
    size = (out / "702.html").stat().st_size
    print(f"Slow 4G (400 ms RTT, 400 kbit/s) and {CPU_SLOWDOWN}x CPU, empty cache each run; "
          f"medians of {args.runs} runs\n")
    med = statistics.median(lcps)
    print(f"chapter 702: largest contentful paint {med:.2f} s (budget 2 s: "
          f"{'met' if med <= 2 else 'NOT met'}); {statistics.median(wires) / 1e3:.0f} kB over the "
          f"wire for {size / 1e3:.0f} kB of HTML")
    print("\nfirst search result after Enter, typed on the home page (budget 2 s):")
    firsts = []
    for q in QUERIES:
        m = statistics.median(typed[q])
        firsts.append(m)
        print(f"  {q!r:<38} {m:.2f} s")
    overall = statistics.median(firsts)
    print(f"  median over queries                    {overall:.2f} s: "
          f"{'met' if max(firsts) <= 2 else 'NOT met'} (worst {max(firsts):.2f} s)")
    print(f"second search typed on the search page:  {statistics.median(again):.2f} s")
    print("\nsearch opened cold from a link (search.html?q=..., nothing cached), navigation to first result:")
    for q in QUERIES:
        print(f"  {q!r:<38} {statistics.median(linked[q]):.2f} s")


if __name__ == "__main__":
    main()
