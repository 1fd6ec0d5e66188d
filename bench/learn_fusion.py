"""Learn the question fusion's weights (crsearch/fusion.py) from the development questions.

    python bench/learn_fusion.py [--release 2026-08-07] [--l2 1.0] [--write-asked] [--write]

Reads only development questions: the development part of
``bench/real_questions.json`` ("holdout": false),
``bench/real_questions_dev2.json`` and ``bench/real_questions_dev3.json``.
Held-out questions are dropped as soon as a file is read and never searched
here.

For each question, ``crsearch``'s engine gives the feature rows of its
candidates (``Engine.last_features``); a candidate is right when it answers
the question the way ``bench/search_quality.py`` scores a hit.  The model
is linear over standardised features, fitted with a softmax (listwise)
loss and L2 regularisation by Adam (numpy, in this script only: a search
needs neither numpy nor this script).

It prints a cross-validation by part (fit on the other development parts,
score MRR@10 on the one left out, against the hand-set fusion), then fits on
every part; ``--write`` puts those weights into crsearch/fusion.py.
``--write-asked`` first writes data/asked.json, the questions asked before
(``crsearch/asked.py``), from the same development questions; the features
of a question never count itself or another question of its page
(``Engine.asked_skip``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from search_quality import answers, build_store, load_queries, load_real, rank_of  # noqa: E402

#: The real-question files that hold development questions, by part name.
PARTS = {"dev": ROOT / "bench" / "real_questions.json",
         "dev2": ROOT / "bench" / "real_questions_dev2.json",
         "dev3": ROOT / "bench" / "real_questions_dev3.json"}
FUSION = ROOT / "crsearch" / "search" / "fusion.py"
ASKED = ROOT / "data" / "asked.json"


def development_parts() -> dict[str, list[dict]]:
    """The development parts of the real questions and the development
    set's own queries (bench/queries.json, an exact id is a hit), held-out
    questions dropped."""
    parts = {name: [q for q in load_real(path) if not q.get("holdout")]
             for name, path in PARTS.items()}
    parts["queries"] = [{"query": q["query"], "ids": q["expected"], "exact": True}
                        for q in load_queries() if not q.get("heldout")]
    return parts


def hit(got: str, q: dict) -> bool:
    """``got`` answers ``q`` as bench/search_quality.py scores it."""
    return got in q["ids"] if q.get("exact") else any(answers(got, e) for e in q["ids"])


def collect(engine, questions: list[dict]) -> list[dict]:
    """Each question's candidate rows, labels and the ranking the engine gave."""
    out = []
    for q in questions:
        # A question asked before (data/asked.json) never answers itself,
        # nor one from its own page.
        engine.asked_skip = {q["source"]} if q.get("source") else set()
        got = [h.id for h in engine.search(q["query"], 10).results]
        rows = dict(engine.last_features)
        ids = list(rows)
        x = np.array([rows[i] for i in ids], float) if ids else np.zeros((0, 0))
        y = np.array([hit(i, q) for i in ids], float)
        out.append({"q": q, "got": got, "ids": ids, "x": x, "y": y})
    return out


def fit(data: list[dict], l2: float, epochs: int = 400, lr: float = 0.02,
        any_answer: bool = False):
    """Weights, means and scales of a linear listwise model: the softmax's
    cross-entropy with every right candidate equally likely, or
    (``any_answer``) minus the log of their probability together (one of
    them first answers the question; bench/fusion_trials.py measures it)."""
    xs = np.vstack([d["x"] for d in data if len(d["ids"])])
    mean, scale = xs.mean(0), xs.std(0)
    scale[scale < 1e-9] = 1.0  # a feature that never varied says nothing
    zs = [((d["x"] - mean) / scale, d["y"]) for d in data if len(d["ids"]) and d["y"].sum()]
    if not zs:
        sys.exit("no development question has its answer among its candidates")
    w = np.zeros(xs.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for ep in range(1, epochs + 1):
        g = np.zeros_like(w)
        for z, y in zs:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            t = p * y if any_answer else y
            g += z.T @ (p - t / t.sum())
        g = g / len(zs) + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9 ** ep)) / (np.sqrt(v / (1 - 0.999 ** ep)) + 1e-8)
    return w, mean, scale


def subrules_first(engine, ids: list[str]) -> list[str]:
    return [i for i, _ in engine.subrules_first([(i, 0.0) for i in ids])]


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


def write(model, l2: float, counts: dict[str, int]) -> None:
    w, mean, scale = model

    def tup(a) -> str:
        return "(" + ", ".join(f"{x:.6g}" for x in a) + ("," if len(a) == 1 else "") + ")"

    block = (f"MEAN: tuple[float, ...] = {tup(mean)}\n"
             f"SCALE: tuple[float, ...] = {tup(scale)}\n"
             f"WEIGHTS: tuple[float, ...] = {tup(w)}\n"
             f"TRAINED_ON = \"{' + '.join(str(counts[p]) for p in PARTS if counts.get(p))} "
             f"development questions and {counts['queries']} development queries, L2 {l2}\"\n")
    text = FUSION.read_text(encoding="utf-8")
    if text.count("# BEGIN WEIGHTS") != 1 or text.count("# END WEIGHTS") != 1:
        sys.exit(f"{FUSION}: the '# BEGIN WEIGHTS' / '# END WEIGHTS' markers are missing")
    new = re.sub(r"(# BEGIN WEIGHTS\n).*?(# END WEIGHTS)", lambda m: m.group(1) + block + m.group(2),
                 text, flags=re.S)
    FUSION.write_text(new, encoding="utf-8")


def development_rows(release: str):
    """The engine of ``release`` and every development part's rows
    (``collect``).  Features are the same with or without learned weights
    and the hand-set fusion is the baseline, so the learned one is off while
    collecting (and on again after: this also runs inside the tests)."""
    from crsearch.search import fusion
    from crsearch.search.engine import Engine

    stored, _release, _ = build_store(release)
    engine = Engine(stored.index_dir)
    if engine.vectors() is None:
        sys.exit(f"no embeddings in the index ({engine.vectors_problem}): the fusion needs them")
    parts = development_parts()
    learned, fusion.WEIGHTS = fusion.WEIGHTS, ()
    try:
        data = {name: collect(engine, qs) for name, qs in parts.items()}
    finally:
        fusion.WEIGHTS = learned
        engine.asked_skip = set()
    return engine, data


def write_asked(release: str) -> int:
    """Write data/asked.json: the real development questions (never a
    held-out one) with their answers, numbered as in ``release`` (run
    tools/renumber_tables.py after it, for the map that carries them into
    other releases).  Returns how many were written."""
    from crsearch.search.asked import doc_texts
    from crsearch.search.build import documents

    _stored, rel, _ = build_store(release)
    texts = doc_texts(documents(rel))
    out = []
    for name in PARTS:
        for q in load_real(PARTS[name]):
            if q.get("holdout"):
                continue
            missing = [i for i in q["ids"] if i not in texts]
            if missing:
                sys.exit(f"{q['id']}: {', '.join(missing)} not in {release}")
            out.append({"question": q["query"], "ids": q["ids"], "source": q["source"]})
    ASKED.write_text(json.dumps({
        "about": "Rules questions that players asked in public, in crsearch's own words, with "
                 "the rules that answer them and the page where they were asked: the development "
                 "questions of bench/ (none held out), written by bench/learn_fusion.py "
                 f"--write-asked. Ids are numbered as in {release} ('numbering'); "
                 "crsearch/search/tables.py carries them into other releases.",
        "numbering": release, "questions": out}, ensure_ascii=False, indent=0) + "\n",
        encoding="utf-8")
    return len(out)


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
    ap.add_argument("--write", action="store_true", help="write the weights into crsearch/fusion.py")
    ap.add_argument("--write-asked", action="store_true",
                    help="first write data/asked.json (the questions asked before) from the "
                         "development questions")
    args = ap.parse_args()
    if args.write_asked:
        print(f"{write_asked(args.release)} questions asked before written to {ASKED}")

    from crsearch.search import fusion

    engine, data = development_rows(args.release)
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
    if args.write:
        write(model, args.l2, {k: len(v) for k, v in data.items()})
        print(f"written to {FUSION}")


if __name__ == "__main__":
    main()
