"""Write the question fusion's shipped data from the development questions:
``data/asked.json`` (the questions asked before) and ``data/fusion.json``
(the learned weights).

    python -m tools.learn_fusion [--release 2026-08-07] [--l2 1.0] [--check]

Reads only development questions: the development part of
``bench/real_questions.json`` ("holdout": false),
``bench/real_questions_dev2.json``, ``bench/real_questions_dev3.json`` and
the development part of ``bench/queries.json``.  Held-out questions are
dropped as soon as a file is read and never searched here.

First ``data/asked.json``: each development question with its answers,
numbered as in ``--release``.  Then an
index of that release (which stores those questions' vectors) answers every
development question with the learned fusion switched off
(``RankingConfig.learned_fusion``), keeping its candidates' feature rows
(``Engine.search(..., features=True)``); a candidate is right when it
answers the question the way ``bench/search_quality.py`` scores a hit, and
a question never counts itself or another question of its page
(``asked_skip``).  The model is linear over standardised features, fitted
with a softmax (listwise) loss and L2 regularisation by Adam (numpy, in
this script only: a search needs neither numpy nor this script).  Its
weights, fitted on every development part, go to ``data/fusion.json``.

The same questions and release give the same files: the script runs with
PYTHONHASHSEED=0 (it starts itself again so), because the coverage feature
sums a set of floats in an order that follows the hash seed, and another
seed moves the weights by about 1e-4 of themselves.  ``--check`` writes
nothing and says whether the shipped files are current.  How well the
weights do is measured by ``bench/learn_fusion.py`` (cross-validation by
part) and ``bench/search_quality.py``.  Takes about 3 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.search_quality import answers, build_store, load_queries, load_real

ROOT = Path(__file__).resolve().parent.parent

#: The real-question files that hold development questions, by part name.
PARTS = {"dev": ROOT / "bench" / "real_questions.json",
         "dev2": ROOT / "bench" / "real_questions_dev2.json",
         "dev3": ROOT / "bench" / "real_questions_dev3.json"}
FUSION = ROOT / "data" / "fusion.json"
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
        skip = {q["source"]} if q.get("source") else set()
        result = engine.search(q["query"], 10, asked_skip=skip, features=True)
        rows = result.features
        ids = list(rows)
        x = np.array([rows[i] for i in ids], float) if ids else np.zeros((0, 0))
        y = np.array([hit(i, q) for i in ids], float)
        out.append({"q": q, "got": [h.id for h in result.results], "ids": ids, "x": x, "y": y})
    return out


def development_rows(engine) -> dict[str, list[dict]]:
    """Every development part's rows (``collect``), from an engine whose
    learned fusion is off: the features do not depend on it, and the
    rankings it gives are the hand-set fusion's (the baseline)."""
    return {name: collect(engine, qs) for name, qs in development_parts().items()}


def open_engine(release: str):
    """An engine over a fresh index of ``release``, the learned fusion off."""
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    stored, _release, _ = build_store(release)
    engine = Engine(stored.index_dir, config=DEFAULT.but(learned_fusion=False))
    if engine.index.vectors() is None:
        sys.exit(f"no embeddings in the index ({engine.index.vectors_problem}): the fusion needs them")
    return engine


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


def trained_on(data: dict[str, list[dict]], l2: float) -> str:
    """What the weights were fitted on, in words."""
    counts = {k: len(v) for k, v in data.items()}
    return (f"{' + '.join(str(counts[p]) for p in PARTS if counts.get(p))} development "
            f"questions and {counts['queries']} development queries, L2 {l2}")


def fusion_json(features: tuple[str, ...], model: Any, about: str) -> str:
    """The text of ``data/fusion.json``: one row per feature (its mean,
    scale and weight, six significant digits) and what it was trained on."""
    w, mean, scale = model

    def six(x: float) -> float:
        return float(f"{x:.6g}")

    head = {"about": "The learned fusion of a long question's evidence (crsearch/search/fusion.py): "
                     "a linear model over standardised features, each row the feature's mean, "
                     "scale and weight. Written by tools/learn_fusion.py from development "
                     "questions only; do not edit by hand.",
            "trained_on": about}
    rows = [json.dumps({"name": f, "mean": six(a), "scale": six(b), "weight": six(c)})
            for f, a, b, c in zip(features, mean, scale, w)]
    return ("{\n" + "".join(f" {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
            + ' "features": [\n' + ",\n".join("  " + r for r in rows) + "\n ]\n}\n")


def learn(engine, l2: float = 1.0) -> str:
    """The text of ``data/fusion.json`` learned through ``engine`` (its
    learned fusion off) from every development part."""
    from crsearch.search import fusion

    data = development_rows(engine)
    real = [name for name in PARTS if data[name]]
    model = fit([d for name in real for d in data[name]] + data["queries"], l2)
    return fusion_json(fusion.FEATURES, model, trained_on(data, l2))


def asked_json(release) -> str:
    """The text of ``data/asked.json``: the real development questions
    (never a held-out one) with their answers, numbered as in ``release``
    (run tools/renumber_tables.py after it, for the map that carries them
    into other releases)."""
    from crsearch.search.asked import doc_texts
    from crsearch.search.build import documents

    texts = doc_texts(documents(release))
    out = []
    for name in PARTS:
        for q in load_real(PARTS[name]):
            if q.get("holdout"):
                continue
            missing = [i for i in q["ids"] if i not in texts]
            if missing:
                sys.exit(f"{q['id']}: {', '.join(missing)} not in {release.effective_date}")
            out.append({"question": q["query"], "ids": q["ids"], "source": q["source"]})
    return json.dumps({
        "about": "Rules questions that players asked in public, in crsearch's own words, with "
                 "the rules that answer them and the page where they were asked: the development "
                 "questions of bench/ (none held out), written by tools/learn_fusion.py. Ids "
                 f"are numbered as in {release.effective_date} ('numbering'); "
                 "crsearch/search/tables.py carries them into other releases.",
        "numbering": release.effective_date, "questions": out}, ensure_ascii=False, indent=0) + "\n"


def _put(path: Path, text: str, check: bool, say: Callable[[str], None]) -> bool:
    """Write ``text`` to ``path`` (or, with ``check``, say whether it is there); True when current."""
    current = path.exists() and path.read_text(encoding="utf-8") == text
    if check:
        say(f"{path.relative_to(ROOT)}: {'current' if current else 'NOT current'}")
    elif not current:
        path.write_text(text, encoding="utf-8")
        say(f"written: {path.relative_to(ROOT)}")
    else:
        say(f"unchanged: {path.relative_to(ROOT)}")
    return current


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; say whether the shipped files are current")
    args = ap.parse_args(argv)
    _, release, _ = build_store(args.release)
    ok = _put(ASKED, asked_json(release), args.check, print)
    if args.check and not ok:
        return 1  # the fusion would be learned from an index of other questions
    ok = _put(FUSION, learn(open_engine(args.release), args.l2), args.check, print) and ok
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Sums over sets of floats follow the hash seed: one seed, one result.
        # sys.orig_argv keeps ``-m tools.learn_fusion``, so the tool starts as a module again.
        os.execve(sys.executable, sys.orig_argv, {**os.environ, "PYTHONHASHSEED": "0"})
    sys.exit(main())
