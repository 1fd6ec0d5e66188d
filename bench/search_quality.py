"""Search quality on the development set: crsearch against a SQLite FTS5 baseline.

    python bench/search_quality.py [--release 2026-08-07] [--verbose]

Queries marked ``"heldout": true`` were written after the ranking was tuned
and are never tuned on: they are reported on their own rows ("heldout ...")
and left out of ALL.

Reads ``bench/queries.json``: each query has a ``kind`` and the 1-3 ids that
answer it (checked against the 2026-08-07 text).  Pasted-passage queries are
stored by reference (``seed`` file + ``line``, optionally the first ``words``
words): the text is read from ``../shared/seeds`` at run time, because this
repository must not contain the rules text.

Both systems index the same documents (every section, chapter, rule and
glossary entry); the baseline ranks with FTS5's bm25() over the words of the
query, OR-ed.  Reports Recall@1, Recall@5 and MRR@10 (a query counts as found
when any of its expected ids is ranked), overall and per kind.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"
ARCHIVE = SHARED / "cr" / "archive"
SEEDS = SHARED / "seeds"


def load_queries() -> list[dict]:
    queries = json.loads((ROOT / "bench" / "queries.json").read_text(encoding="utf-8"))
    for q in queries:
        if "seed" in q:
            line = (SEEDS / q["seed"]).read_text(encoding="utf-8").splitlines()[q["line"] - 1]
            if q.get("words"):
                line = " ".join(line.split()[: q["words"]])
            q["query"] = line
    return queries


def build_store(release_date: str) -> tuple[object, object, float]:
    from crsearch.index import build_index
    from crsearch.sources import Source
    from crsearch.store import Store
    from crsearch.update import import_sources

    path = ARCHIVE / f"{release_date}.txt"
    root = Path(tempfile.mkdtemp(prefix="crsearch-bench-"))
    store = Store(root)
    results = import_sources([Source(path.name, path.read_bytes(), path=str(path))], store,
                             build_index=False)
    assert results[0].error is None, results[0].error
    stored = store.pick(release_date)
    release = results[0].release
    t = time.perf_counter()
    build_index(release, stored.index_dir)
    return stored, release, time.perf_counter() - t


class FTS5:
    """The baseline: one FTS5 table (porter stemming), bm25() ranking."""

    def __init__(self, release) -> None:
        from crsearch.index import documents

        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, name, text, "
                        "examples, tokenize='porter unicode61')")
        self.db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)",
                            [(d["id"], d.get("name", ""), d.get("text", ""),
                              d.get("examples", "")) for d in documents(release)])

    def search(self, query: str, limit: int = 10) -> list[str]:
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))
        rows = self.db.execute("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) "
                               "LIMIT ?", (match, limit)).fetchall()
        return [r[0] for r in rows]


def crsearch_ranker(stored):
    from crsearch.errors import CRSearchError
    from crsearch.search import Engine

    engine = Engine(stored.index_dir)

    def run(query: str, limit: int = 10) -> list[str]:
        try:
            return [h.id for h in engine.search(query, limit).results]
        except CRSearchError:
            return []

    return run


def evaluate(ranker, queries: list[dict], verbose: bool = False, name: str = "") -> dict:
    per_kind: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for q in queries:
        got = ranker(q["query"], 10)
        expected = set(q["expected"])
        rank = next((i for i, g in enumerate(got, 1) if g in expected), None)
        r1 = 1.0 if rank == 1 else 0.0
        r5 = 1.0 if rank is not None and rank <= 5 else 0.0
        mrr = 1.0 / rank if rank else 0.0
        per_kind[("heldout " if q.get("heldout") else "") + q["kind"]].append((r1, r5, mrr))
        if verbose and rank != 1:
            print(f"  [{name}] {q['kind']:<11} rank={rank}  {q['query'][:60]!r} "
                  f"want {q['expected']} got {got[:4]}")
    out = {}
    allrows = [row for k, rows in per_kind.items() if not k.startswith("heldout") for row in rows]
    held = [row for k, rows in per_kind.items() if k.startswith("heldout") for row in rows]
    for kind, rows in [*sorted(per_kind.items()), ("ALL", allrows), ("ALL heldout", held)]:
        if not rows:
            continue
        n = len(rows)
        out[kind] = (n, *(sum(r[i] for r in rows) / n for i in range(3)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--verbose", "-v", action="store_true", help="list queries not ranked first")
    args = ap.parse_args()
    queries = load_queries()
    stored, release, build_s = build_store(args.release)
    ours = evaluate(crsearch_ranker(stored), queries, args.verbose, "crsearch")
    base = evaluate(FTS5(release).search, queries, args.verbose and False, "fts5")
    print(f"{len(queries)} queries ({sum(1 for q in queries if q.get('heldout'))} held out), release {args.release}, index built in {build_s:.2f} s\n")
    print(f"{'kind':<20}{'n':>4}   {'crsearch R@1':>12} {'R@5':>6} {'MRR@10':>7}"
          f"   {'FTS5 R@1':>9} {'R@5':>6} {'MRR@10':>7}   ahead")
    for kind in ours:
        n, a1, a5, am = ours[kind]
        _, b1, b5, bm = base[kind]
        ahead = "yes" if am > bm else ("tie" if am == bm else "NO")
        print(f"{kind:<20}{n:>4}   {a1:>12.3f} {a5:>6.3f} {am:>7.3f}"
              f"   {b1:>9.3f} {b5:>6.3f} {bm:>7.3f}   {ahead}")
    n, a1, a5, am = ours["ALL"]
    print(f"\ngoals: MRR@10 >= 0.85: {'met' if am >= 0.85 else 'NOT met'} ({am:.3f}); "
          f"Recall@5 >= 0.95: {'met' if a5 >= 0.95 else 'NOT met'} ({a5:.3f})")


if __name__ == "__main__":
    main()
