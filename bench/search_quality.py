"""Search quality: crsearch against a SQLite FTS5 baseline, same documents, same run.

    python -m bench.search_quality [--release 2026-08-07] [--verbose] [--lexical]
                                   [--real bench/real_questions.json]

Two query sets:

- ``bench/real_questions.json``: questions that players really asked in public,
  in their own words, with the rule ids the answer cites and the source URL.
  A third is held out (``"holdout": true``), fixed before any tuning: its
  rows are reported apart and ``--verbose`` never lists its misses.  A hit
  is an expected id, its parent rule (for a subrule) or one of its subrules.
- ``bench/queries.json``: the development set described below (exact ids).
- ``bench/real_questions_fresh.json`` (``--real`` it, with ``--only-real``): a
  second real set collected after tuning, all held out, for final reporting
  only; it shows up as a single "real heldout" row.
- ``bench/real_questions_late.json`` (the same way): a third, 88 questions
  collected after the topics and cards tables were grown, all held out.
- ``bench/real_questions_dev2.json`` (the same way): 71 more, collected at the
  same time as a second development part for the next round of tuning (its
  rows are not held out and show up as "real dev").
- ``bench/real_questions_dev3.json`` (the same way): 121 more, collected as a
  third development part (judge blogs, Cranial Insertion, Stack Exchange,
  Reddit, forums and rules questions filed on open-source rules engines),
  first measured before it was trained on; none shares a page with a
  held-out question.

``--lexical`` turns the embeddings off, to see what they add.

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
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def load_real(path: Path | None = None) -> list[dict]:
    """The real-question set: bench/real_questions.json (``questions``)."""
    path = path or ROOT / "bench" / "real_questions.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["questions"] if isinstance(data, dict) else data


def answers(got: str, expected: str) -> bool:
    """A real question's hit: the id, its parent rule (for a subrule) or a subrule of it."""
    from crsearch.rules import numbers

    if got == expected or got.startswith("glossary:") or expected.startswith("glossary:"):
        return got == expected
    try:
        if numbers.kind(expected) == "subrule" and numbers.parent(expected) == got:
            return True
        return numbers.kind(expected) == "rule" and numbers.contains(expected, got)
    except Exception:  # noqa: BLE001 - odd ids never match
        return False


def build_store(release_date: str) -> tuple[object, object, float]:
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.search.build import build_index
    from crsearch.store.datadir import Store

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
        from crsearch.search.build import documents

        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, name, text, "
                        "examples, tokenize='porter unicode61')")
        self.db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)",
                            [(d["id"], d.get("name", ""), d.get("text", ""),
                              d.get("examples", "")) for d in documents(release)])

    def search(self, query: str, limit: int = 10, source: str = "") -> list[str]:
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))
        rows = self.db.execute("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) "
                               "LIMIT ?", (match, limit)).fetchall()
        return [r[0] for r in rows]


def crsearch_ranker(stored, semantic: bool = True):
    from crsearch.errors import CRSearchError
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    engine = Engine(stored.index_dir, config=DEFAULT.but(embeddings=semantic))

    def run(query: str, limit: int = 10, source: str = "") -> list[str]:
        # The questions asked before that crsearch ships come from the
        # development pages: none from the page this question came from.
        skip = {source} if source else set()
        try:
            return [h.id for h in engine.search(query, limit, asked_skip=skip).results]
        except CRSearchError:
            return []

    return run


def rank_of(got: list[str], expected: list[str], loose: bool) -> int | None:
    for i, g in enumerate(got, 1):
        if any(answers(g, e) if loose else g == e for e in expected):
            return i
    return None


def evaluate(ranker, queries: list[dict], verbose: bool = False, name: str = "") -> dict:
    """R@1, R@5, MRR@10 per kind; ``kind`` "real"/"real heldout" for real questions."""
    per_kind: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for q in queries:
        got = ranker(q["query"], 10, q.get("source") or "")
        real = "ids" in q
        expected = q["ids"] if real else q["expected"]
        rank = rank_of(got, expected, loose=real)
        r1 = 1.0 if rank == 1 else 0.0
        r5 = 1.0 if rank is not None and rank <= 5 else 0.0
        mrr = 1.0 / rank if rank else 0.0
        if real:
            kind = "real heldout" if q.get("holdout") else "real dev"
        else:
            kind = ("heldout " if q.get("heldout") else "") + q["kind"]
        per_kind[kind].append((r1, r5, mrr))
        # Never look at held-out misses while tuning.
        if verbose and rank != 1 and "heldout" not in kind:
            print(f"  [{name}] {kind:<11} rank={rank}  {q['query'][:90]!r} "
                  f"want {expected} got {got[:5]}")
    out = {}
    dev = [row for k, rows in per_kind.items() if not k.startswith(("heldout", "real")) for row in rows]
    held = [row for k, rows in per_kind.items() if k.startswith("heldout") for row in rows]
    order = sorted(k for k in per_kind if not k.startswith("real"))
    for kind, rows in [*((k, per_kind[k]) for k in order), ("ALL", dev), ("ALL heldout", held),
                       *((k, per_kind[k]) for k in ("real dev", "real heldout"))]:
        if not rows:
            continue
        n = len(rows)
        out[kind] = (n, *(sum(r[i] for r in rows) / n for i in range(3)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="list development queries not ranked first (never held-out ones)")
    ap.add_argument("--lexical", action="store_true", help="crsearch without embeddings")
    ap.add_argument("--real", type=Path, default=None, help="real-question file")
    ap.add_argument("--only-real", action="store_true", help="skip bench/queries.json")
    ap.add_argument("--dev-only", action="store_true",
                    help="leave the held-out real questions out (while tuning)")
    args = ap.parse_args()
    real = load_real(args.real)
    if args.dev_only:
        real = [q for q in real if not q.get("holdout")]
    queries = ([] if args.only_real else load_queries()) + real
    stored, release, build_s = build_store(args.release)
    ours = evaluate(crsearch_ranker(stored, semantic=not args.lexical), queries, args.verbose,
                    "crsearch")
    base = evaluate(FTS5(release).search, queries, False, "fts5")
    n_real = len(real)
    n_held = sum(1 for q in real if q.get("holdout"))
    print(f"{len(queries) - n_real} development queries "
          f"({sum(1 for q in queries if q.get('heldout'))} held out), {n_real} real questions "
          f"({n_held} held out), release {args.release}, index built in {build_s:.2f} s"
          f"{' (lexical only)' if args.lexical else ''}\n")
    print(f"{'kind':<20}{'n':>4}   {'crsearch R@1':>12} {'R@5':>6} {'MRR@10':>7}"
          f"   {'FTS5 R@1':>9} {'R@5':>6} {'MRR@10':>7}   ahead")
    for kind in ours:
        if kind == ("real dev" if "real dev" in ours else "real heldout"):
            print()
        n, a1, a5, am = ours[kind]
        _, b1, b5, bm = base[kind]
        ahead = "yes" if am > bm else ("tie" if am == bm else "NO")
        print(f"{kind:<20}{n:>4}   {a1:>12.3f} {a5:>6.3f} {am:>7.3f}"
              f"   {b1:>9.3f} {b5:>6.3f} {bm:>7.3f}   {ahead}")
    if "ALL" in ours:
        n, a1, a5, am = ours["ALL"]
        print(f"\ngoals: development MRR@10 >= 0.95: {'met' if am >= 0.95 else 'NOT met'} "
              f"({am:.3f}); Recall@5 >= 0.95: {'met' if a5 >= 0.95 else 'NOT met'} ({a5:.3f})")
    if "real heldout" in ours:
        _, _, h5, hm = ours["real heldout"]
        fm = base["real heldout"][3]
        print(f"goals: real held-out R@5 >= 0.55: {'met' if h5 >= 0.55 else 'NOT met'} ({h5:.3f}); "
              f"MRR@10 >= 0.40: {'met' if hm >= 0.40 else 'NOT met'} ({hm:.3f}); "
              f">= 2x FTS5 MRR: {'met' if hm >= 2 * fm else 'NOT met'} ({hm:.3f} vs {fm:.3f})")


if __name__ == "__main__":
    main()
