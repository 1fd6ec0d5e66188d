"""Library search speed by stage, against SQLite FTS5 in the same run.

    python -m bench.search_stages [--runs 3] [--profile] [--save FILE | --check FILE]

For the judge-style queries (``bench/queries.json``) and the real questions
(``bench/real_questions*.json``) on 2026-08-07: the median time of one
``Rules.search`` in an opened data folder, the median of one FTS5 query over
the same documents (``search_quality.FTS5``) and their ratio (goal: 2.5x or
less); then each engine stage's share (read, exact layers, retrieve,
features, tables, fuse, present), timed by wrapping the stage functions.

``--save FILE`` writes every query's top 10 as ``to_dict(why=True)`` has
it (ids, scores, snippets, why each was found, how the query was read; the
questions that name cards too, and with ``--cards DIR`` those again with
the card data of a ``bench/card_search_quality.py --keep DIR`` folder);
``--check FILE`` compares them with a saved run (a speed change must not
change a ranking).  ``--profile`` prints the hottest functions (cProfile)
over one pass of the real questions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench.search_quality import FTS5, build_store, load_queries, load_real

REAL = ["real_questions.json", "real_questions_dev2.json", "real_questions_dev3.json",
        "real_questions_fresh.json", "real_questions_late.json"]
#: Checked by --save/--check too, not timed: the questions that name cards.
CARDS = ["real_questions_cards_dev.json", "real_questions_cards_heldout.json"]

#: The stages as the engine calls them: (label, module, function name).
STAGES = [("read", "crsearch.search.query", "Reader.read"),
          ("exact", "crsearch.search.exact", "find"),
          ("terms", "crsearch.search.lexical", "terms_of"),
          ("retrieve", "crsearch.search.lexical", "retrieve"),
          ("features", "crsearch.search.lexical", "score"),
          ("tables", "crsearch.search.boosts", "named"),
          ("lift", "crsearch.search.boosts", "lift"),
          ("fuse", "crsearch.search.fusion", "fuse"),
          ("present", "crsearch.search.present", "hits")]


def instrument(totals: dict[str, float]) -> None:
    """Wrap each stage function so that its time adds to ``totals``."""
    import importlib

    for label, module, name in STAGES:
        mod = importlib.import_module(module)
        owner, attr = (getattr(mod, name.split(".")[0]), name.split(".")[1]) if "." in name \
            else (mod, name)
        inner = getattr(owner, attr)

        def timed(*args, _inner=inner, _label=label, **kwargs):
            t = time.perf_counter()
            try:
                return _inner(*args, **kwargs)
            finally:
                totals[_label] += time.perf_counter() - t

        setattr(owner, attr, timed)
        # The engine imported the modules, not the names: patching them is enough.


def timed_medians(run, queries: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU time of one query (CPU time does not grow when
    other processes share the machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            run(q)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - t)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--cards", type=Path, metavar="DIR",
                    help="also save/check the card questions with this --keep folder's card data")
    args = ap.parse_args()

    stored, release, _ = build_store("2026-08-07")
    fts = FTS5(release)
    del release
    import gc

    gc.collect()
    from crsearch import Rules
    from crsearch.errors import CRSearchError

    rules = Rules.open(stored.path.parent.parent)

    def ours(q: str) -> list[str]:
        try:
            return [h.id for h in rules.search(q, 10).results]
        except CRSearchError:
            return []

    def answer(rules, q: str) -> object:
        """The whole answer (why included), as a saved run compares it."""
        try:
            return rules.search(q, 10).to_dict(why=True)
        except CRSearchError as e:
            return f"error: {e}"

    sets = {"judge queries": [q["query"] for q in load_queries()],
            "real questions": [q["query"] for f in REAL for q in load_real(ROOT / "bench" / f)]}
    cards = [q["query"] for f in CARDS for q in load_real(ROOT / "bench" / f)]
    every = list(dict.fromkeys([q for qs in sets.values() for q in qs] + cards))
    tops = {q: answer(rules, q) for q in every}   # warm: the tables, embeddings and caches
    if args.cards is not None:
        from bench.card_search_quality import prepare

        _, _, card_data = prepare("2026-08-07", args.cards)
        with_cards = Rules.open(card_data)
        tops.update({f"[cards] {q}": answer(with_cards, q) for q in cards})
    if args.save:
        args.save.write_text(json.dumps(tops, indent=0, sort_keys=True), encoding="utf-8")
    if args.check:
        want = json.loads(args.check.read_text(encoding="utf-8"))
        # JSON round trip: tuples read back as lists.
        now = json.loads(json.dumps(tops))
        changed = [q for q in now if want.get(q) != now[q]]
        print(f"rankings: {len(now) - len(changed)} of {len(now)} answers identical "
              f"(top 10, scores, snippets, why)")
        for q in changed[:10]:
            print(f"  changed: {q[:70]!r}\n    was {json.dumps(want.get(q))[:600]}"
                  f"\n    now {json.dumps(now[q])[:600]}")

    print(f"Rules.search vs SQLite FTS5, medians over {args.runs} runs of each set:")
    for name, queries in sets.items():
        (a, a_cpu), (b, b_cpu) = timed_medians(ours, queries, args.runs), \
            timed_medians(fts.search, queries, args.runs)
        print(f"  {name:<15} ({len(queries):>3}): wall crsearch {a * 1000:6.2f} ms, FTS5 "
              f"{b * 1000:6.2f} ms = {a / b:4.1f}x; CPU {a_cpu * 1000:6.2f} ms, "
              f"{b_cpu * 1000:6.2f} ms = {a_cpu / b_cpu:4.1f}x (goal <= 2.5x)")

    totals: dict[str, float] = defaultdict(float)
    instrument(totals)
    for name, queries in sets.items():
        totals.clear()
        t = time.perf_counter()
        for q in queries:
            ours(q)
        whole = time.perf_counter() - t
        parts = ", ".join(f"{k} {v / len(queries) * 1000:.2f}" for k, v in totals.items())
        rest = whole - sum(totals.values())
        print(f"  stages, {name} (ms per query): {parts}, rest {rest / len(queries) * 1000:.2f}")

    if args.profile:
        import cProfile
        import pstats

        pr = cProfile.Profile()
        pr.enable()
        for q in sets["real questions"]:
            ours(q)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
