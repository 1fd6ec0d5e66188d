"""Search quality of the built site against the CLI, on the development set.

    python bench/site_search_quality.py [--release 2026-08-07] [--verbose]

Builds the site of the release, serves it on 127.0.0.1, and runs every query
of ``bench/queries.json`` through ``search.html?q=...`` in headless Chromium
(Debian's, driven by Playwright): the ids ranked are read from the result
links inside ``#results``.  The same queries go through ``crsearch search``'s
engine.  Prints R@1, R@5 and MRR@10 side by side, per kind and overall, and
whether the site reaches 0.9 of the CLI's MRR@10 (the goal of issue #10).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

#: Read the ranked ids from the page once the search has answered.
READ_RESULTS = """() => {
  const r = document.getElementById("results");
  if (!r || r.getAttribute("aria-busy")) return null;
  return Array.from(r.querySelectorAll("a[href]")).map(a => {
    const li = a.closest("[data-id]");
    return li ? li.getAttribute("data-id") : a.getAttribute("href");
  });
}"""


def site_ranker(page, base: str):
    """Rank with the site: load search.html?q=..., read the result links."""
    from urllib.parse import quote

    def run(query: str, limit: int = 10) -> list[str]:
        page.goto(base + "search.html?q=" + quote(query, safe=""))
        page.wait_for_function(READ_RESULTS, timeout=20000)
        got = page.evaluate(READ_RESULTS) or []
        return list(dict.fromkeys(got))[:limit]

    return run


def main() -> None:
    from search_quality import build_store, crsearch_ranker, evaluate, load_queries

    from crsearch import site

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--verbose", "-v", action="store_true", help="list queries the site does not rank first")
    args = ap.parse_args()
    queries = load_queries()
    stored, release, _ = build_store(args.release)
    cli = evaluate(crsearch_ranker(stored), queries)
    out = Path(tempfile.mkdtemp(prefix="crsearch-site-quality-")) / "site"
    t = time.perf_counter()
    site.build(release, out)
    build_s = time.perf_counter() - t
    server = site.make_server(out, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        t = time.perf_counter()
        ours = evaluate(site_ranker(page, base), queries, args.verbose, "site")
        run_s = time.perf_counter() - t
        browser.close()
    server.shutdown()
    print(f"{len(queries)} queries, release {args.release}; site built in {build_s:.1f} s, "
          f"queries run in the browser in {run_s:.1f} s; JavaScript errors: {len(errors)}\n")
    print(f"{'kind':<20}{'n':>4}   {'site R@1':>9} {'R@5':>6} {'MRR@10':>7}"
          f"   {'CLI R@1':>8} {'R@5':>6} {'MRR@10':>7}   site/CLI")
    for kind in cli:
        n, a1, a5, am = ours[kind]
        _, b1, b5, bm = cli[kind]
        share = am / bm if bm else 1.0
        print(f"{kind:<20}{n:>4}   {a1:>9.3f} {a5:>6.3f} {am:>7.3f}"
              f"   {b1:>8.3f} {b5:>6.3f} {bm:>7.3f}   {share:>8.2f}")
    am, bm = ours["ALL"][3], cli["ALL"][3]
    print(f"\ngoal: site MRR@10 >= 0.9 x CLI's: {'met' if am >= 0.9 * bm else 'NOT met'} "
          f"({am:.3f} vs {bm:.3f}, {am / bm:.2f})")
    for e in errors[:5]:
        print("JavaScript error:", e)


if __name__ == "__main__":
    main()
