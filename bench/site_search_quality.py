"""Search quality of the built site against the CLI: development set and real questions.

    python -m bench.site_search_quality [--release 2026-08-07] [--verbose] [--no-real]

Builds the site of the release, serves it on 127.0.0.1, and runs every query
of ``bench/queries.json`` through ``search.html?q=...`` in headless Chromium
(Debian's, driven by Playwright): the ids ranked are read from the result
links inside ``#results``.  The same queries go through ``crsearch search``'s
engine twice: with its embeddings off (the lexical ranking the site mirrors)
and on.  ``bench/real_questions.json`` runs too, its development and held-out
parts apart.  Prints R@1, R@5 and MRR@10 side by side, per kind and overall,
how often the site's first result and top five equal the CLI's lexical
ones, and whether the site reaches 0.9 of the CLI's MRR@10 (issue #10).
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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

    def run(query: str, limit: int = 10, source: str = "") -> list[str]:
        page.goto(base + "search.html?q=" + quote(query, safe=""))
        page.wait_for_function(READ_RESULTS, timeout=20000)
        got = page.evaluate(READ_RESULTS) or []
        return list(dict.fromkeys(got))[:limit]

    return run


def agreement(a_rank, b_rank, queries: list[dict], k: int = 5,
              differ: list | None = None) -> tuple[float, float]:
    """How often two rankers agree: same first result, same top ``k`` (in order).
    The queries where they do not are added to ``differ``."""
    same1 = samek = 0
    for q in queries:
        a, b = a_rank(q["query"], k), b_rank(q["query"], k)
        same1 += a[:1] == b[:1]
        samek += a[:k] == b[:k]
        if a[:k] != b[:k] and differ is not None:
            # Never show a held-out question (None): only that one differs.
            differ.append((None if q.get("holdout") else q["query"], a[:k], b[:k]))
    n = len(queries) or 1
    return same1 / n, samek / n


def memo(ranker):
    """The ranker with its answers kept (each query runs once in the browser)."""
    seen: dict[tuple[str, int], list[str]] = {}

    def run(query: str, limit: int = 10, source: str = "") -> list[str]:
        if (query, 10) not in seen:
            seen[(query, 10)] = ranker(query, 10, source)
        return seen[(query, 10)][:limit]

    return run


def main() -> None:
    from bench.search_quality import build_store, crsearch_ranker, evaluate, load_queries, load_real
    from crsearch.site import build as site

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--verbose", "-v", action="store_true", help="list queries the site does not rank first (never held-out ones)"
                         " and every query where the site's top five differ from the CLI's")
    ap.add_argument("--no-real", action="store_true", help="the development set only")
    args = ap.parse_args()
    queries = load_queries()
    real = [] if args.no_real else load_real()
    stored, release, _ = build_store(args.release)
    lexical = memo(crsearch_ranker(stored, semantic=False))
    cli = evaluate(lexical, queries + real)
    semantic = evaluate(crsearch_ranker(stored, semantic=True), queries + real)
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
        site_rank = memo(site_ranker(page, base))
        ours = evaluate(site_rank, queries + real, args.verbose, "site")
        run_s = time.perf_counter() - t
        differ: list = []
        agree = {"development set": agreement(site_rank, lexical, queries, differ=differ),
                 "real questions": agreement(site_rank, lexical, real, differ=differ)}
        browser.close()
    server.shutdown()
    print(f"{len(queries)} development queries, {len(real)} real questions "
          f"({sum(1 for q in real if q.get('holdout'))} held out), release {args.release}; "
          f"site built in {build_s:.1f} s, queries run in the browser in {run_s:.1f} s; "
          f"JavaScript errors: {len(errors)}\n")
    print("MRR@10 (R@1 / R@5): the site, the CLI with embeddings off (what the site mirrors),"
          " and the CLI with embeddings (WordLlama)\n")
    print(f"{'kind':<20}{'n':>4}   {'site':>19}   {'CLI lexical':>19}   {'CLI + embeddings':>19}"
          f"   site/CLI lexical")

    def cell(row) -> str:
        return f"{row[3]:.3f} ({row[1]:.2f}/{row[2]:.2f})"

    for kind in cli:
        share = ours[kind][3] / cli[kind][3] if cli[kind][3] else 1.0
        print(f"{kind:<20}{cli[kind][0]:>4}   {cell(ours[kind]):>19}   {cell(cli[kind]):>19}"
              f"   {cell(semantic[kind]):>19}   {share:>8.2f}")
    print()
    for name, (a1, ak) in agree.items():
        print(f"site vs CLI lexical, {name}: same first result {a1:.0%}, same top 5 {ak:.0%}")
    for query, a, b in differ if args.verbose else ():
        if query is None:
            print("  differs: (a held-out question)")
        else:
            print(f"  differs: {query[:80]!r}\n    site {a}\n    CLI  {b}")
    am, bm = ours["ALL"][3], cli["ALL"][3]
    print(f"\ngoal: site MRR@10 >= 0.9 x CLI's: {'met' if am >= 0.9 * bm else 'NOT met'} "
          f"({am:.3f} vs {bm:.3f}, {am / bm:.2f})")
    for e in errors[:5]:
        print("JavaScript error:", e)


if __name__ == "__main__":
    main()
