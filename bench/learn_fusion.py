"""How well the question fusion learns: cross-validation by development part.

    python -m bench.learn_fusion [--release 2026-08-07] [--l2 1.0]

Collects the development questions' feature rows as ``tools/learn_fusion.py``
does (development questions only, the learned fusion off while collecting),
then prints, for each real development part, MRR@10 of the hand-set fusion
and of weights fitted on the other parts and the development queries; then
the same fitted on every part (in sample) and the weights.  Writes nothing:
``tools/learn_fusion.py`` writes the shipped ``data/fusion.json``.  Takes
about 2 minutes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bench.search_quality import rank_of
from tools.learn_fusion import PARTS, development_rows, fit, open_engine

ROOT = Path(__file__).resolve().parent.parent


def subrules_first(engine, ids: list[str]) -> list[str]:
    """``ids`` as the engine orders a long question's fused ranking."""
    from crsearch.search.fusion import subrules_first as order

    config = engine.config
    return [i for i, _ in order([(i, 0.0) for i in ids],
                                lambda id: engine.index.is_title_rule(id, config.title_rule_words),
                                config.subrules_window)]


def mrr(engine, data: list[dict], model=None) -> float:
    """MRR@10: the engine's own ranking, or ``model``'s over the same rows
    (the few title or rule-number hits the engine puts first are left out)."""
    total = 0.0
    for d in data:
        got = d["got"]
        if model is not None and len(d["ids"]):
            w, mean, scale = model
            order = [d["ids"][i] for i in np.argsort(-(((d["x"] - mean) / scale) @ w), kind="stable")]
            got = subrules_first(engine, order)[:10]
        rank = rank_of(got[:10], d["q"]["ids"], loose=not d["q"].get("exact"))
        total += 1.0 / rank if rank else 0.0
    return total / max(1, len(data))


def cross_validate(data: dict[str, list[dict]], engine, l2: float = 1.0,
                   any_answer: bool = False) -> dict[str, float]:
    """MRR@10 of each real part, fitted on the other parts and the queries."""
    real = [name for name in PARTS if data.get(name)]
    out = {}
    for test in real:
        train = [d for name in real if name != test for d in data[name]] + data.get("queries", [])
        out[test] = mrr(engine, data[test], fit(train, l2, any_answer=any_answer))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--l2", type=float, default=1.0)
    args = ap.parse_args()

    from crsearch.search import fusion

    engine = open_engine(args.release)
    data = development_rows(engine)
    print(f"{len(fusion.FEATURES)} features; development parts: "
          + ", ".join(f"{k} {len(v)}" for k, v in data.items()))
    for test, learned in cross_validate(data, engine, args.l2).items():
        print(f"fit on the other parts and the development set, MRR@10 on {test}: hand-set "
              f"{mrr(engine, data[test]):.3f}, learned {learned:.3f}")
    real = [name for name in PARTS if data[name]]
    model = fit([d for name in real for d in data[name]] + data["queries"], args.l2)
    print("fit on all (in sample): MRR@10 " + ", ".join(
        f"{k} {mrr(engine, v):.3f} -> {mrr(engine, v, model):.3f}" for k, v in data.items()))
    print("weights:", ", ".join(f"{f} {x:+.2f}" for f, x in zip(fusion.FEATURES, model[0])))


if __name__ == "__main__":
    main()
