"""cite-check on real old texts: is the default (no --as-of) honest?

Run: python -m bench.citecheck_articles [--data DIR] [--show-dev-misses]

``cite/articles.json`` holds 57 real texts written 2006-2022 (issue threads
of rules engines, judges' blogs, forums), about half of which say their
date in the text, with 123 citations: for each, the rule the number named
when written ("then"), the rule with those words today ("now") and whether
the number is stale today.  Each text is checked with the library
(``citecheck.check``) twice: as a user would run it, without ``--as-of``
(the date the text gives, the words around each citation), and with
``--as-of`` the article's date (the upper bound).

Figures, for the dev articles and the held-out ones apart (a third of the
articles, drawn by article with a fixed seed before any tuning; their misses
are never printed):

- date: of the texts that say their date, how many were read in the right
  release (the one in effect on the date written), wrong or none; of those
  that do not, how many got no date (right) or one;
- flagging: precision and recall of calling a stale citation stale
  (moved, mismatch or missing against ok), dated and undated texts apart;
- now: of the citations given a ``now``, how many are the rule with those
  words today (precision), and of the stale ones, how many got it (recall).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
ARTICLES = Path(__file__).resolve().parent / "cite" / "articles.json"
DATA = Path("/tmp/crsearch-citecheck-bench")
SEED = 26
FLAGS = ("moved", "mismatch", "missing")


def split(articles: list[dict]) -> tuple[list[dict], list[dict]]:
    """(dev, held out): a third of the articles held out, drawn by ``SEED``."""
    ids = sorted(a["id"] for a in articles)
    held = set(random.Random(SEED).sample(ids, len(ids) // 3))
    return ([a for a in articles if a["id"] not in held], [a for a in articles if a["id"] in held])


def pair(gold: list[dict], found: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each gold citation with the found citation of its id (in text order)."""
    used: set[int] = set()
    out = []
    for g in gold:
        hit = next((k for k, c in enumerate(found) if c["id"] == g["cited"] and k not in used), None)
        if hit is not None:
            used.add(hit)
        out.append((g, found[hit] if hit is not None else None))
    return out


class Tally:
    """Flagging and ``now`` counts over citations."""

    def __init__(self) -> None:
        self.flagged = self.stale = self.caught = 0
        self.given = self.right_now = 0
        self.cites = 0

    def add(self, g: dict, c: dict | None) -> bool:
        """Count one citation; True when the answer is right."""
        self.cites += 1
        flagged = c is not None and c["status"] in FLAGS
        self.flagged += flagged
        self.stale += g["stale"]
        self.caught += flagged and g["stale"]
        now = c.get("now") if c is not None and flagged else None
        self.given += now is not None
        good_now = now is not None and now == g["now"]
        self.right_now += good_now
        return flagged == g["stale"] and (not g["stale"] or good_now)

    def line(self) -> str:
        p = (lambda a, b: f"{a / b:.3f}" if b else "  -  ")
        return (f"flag P {p(self.caught, self.flagged)} R {p(self.caught, self.stale)}   "
                f"now P {p(self.right_now, self.given)} R {p(self.right_now, self.stale)}   "
                f"({self.cites} citations, {self.stale} stale, {self.flagged} flagged, "
                f"{self.right_now} right now)")


def run(store, articles: list[dict], as_of: bool, show: bool) -> dict[str, Tally]:
    from crsearch.desk import citecheck

    tallies = {"dated": Tally(), "undated": Tally(), "all": Tally()}
    dates = {"right": 0, "wrong": 0, "none": 0, "undated none": 0, "undated some": 0}
    times = []
    for a in articles:
        t = time.perf_counter()
        result = citecheck.check(store, a["text"], a["written"] if as_of else None)
        times.append(time.perf_counter() - t)
        want_release = store.pick(a["written"]).effective_date
        got = result.get("as_of")
        if not as_of:
            if a["dated_in_text"]:
                key = "none" if got is None else (
                    "right" if result["release"] == want_release else "wrong")
            else:
                key = "undated none" if got is None else "undated some"
            dates[key] += 1
            if show and key in ("wrong", "none", "undated some"):
                print(f"  {a['id']} date: {key}, got {got}, written {a['written']}")
        kind = "dated" if a["dated_in_text"] else "undated"
        for g, c in pair(a["citations"], result["citations"]):
            ok = tallies[kind].add(g, c)
            tallies["all"].add(g, c)
            if show and not ok:
                status = "not found" if c is None else f"{c['status']} {c.get('now', '')}"
                print(f"  {a['id']} {g['cited']:9} got {status:20} want "
                      f"{'stale ' + g['now'] if g['stale'] else 'ok'}"
                      f"   [{(g.get('words') or '')[:50]}]")
    if not as_of:
        print(f"  date: dated texts {dates['right']} right release, {dates['wrong']} wrong, "
              f"{dates['none']} none; undated texts {dates['undated none']} none, "
              f"{dates['undated some']} given one")
    for k, tally in tallies.items():
        print(f"  {k:8} {tally.line()}")
    print(f"  check time per text: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms")
    return tallies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA,
                    help="data folder with the whole archive (imported if short)")
    ap.add_argument("--show-dev-misses", action="store_true",
                    help="print each wrong answer on the dev articles (never the held-out ones)")
    ap.add_argument("--dev-only", action="store_true",
                    help="leave the held-out articles out (while tuning)")
    args = ap.parse_args()
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import read_from
    from crsearch.store.datadir import Store

    store = Store(args.data)
    if len(store.catalog()) < len(list(ARCHIVE.glob("*.txt"))):
        t = time.perf_counter()
        import_sources(read_from(str(ARCHIVE)), store, build_index=False, jobs=2)
        print(f"imported the archive into {args.data} in {time.perf_counter() - t:.0f} s")
    articles = json.loads(ARTICLES.read_text(encoding="utf-8"))["articles"]
    dev, held = split(articles)
    groups = [("dev", dev, args.show_dev_misses), ("held out", held, False)]
    for name, group, show in groups[:1] if args.dev_only else groups:
        n_cites = sum(len(a["citations"]) for a in group)
        dated = sum(a["dated_in_text"] for a in group)
        for as_of in (False, True):
            how = "with --as-of (the article's date)" if as_of else "without --as-of"
            print(f"\n{name}: {len(group)} articles ({dated} dated in the text), "
                  f"{n_cites} citations, {how}")
            run(store, group, as_of, show)


if __name__ == "__main__":
    main()
