"""The fuse stage: a long question's lexical ranking fused with its meaning.

How a question's evidence is weighed once its meaning is known: a linear
model over each candidate's lexical parts, its topics, cards and keywords,
its semantic similarity and the questions asked before, learned on the
development questions.  ``lexical`` collects an :class:`Evidence` for each
candidate of a long question and ``tables`` adds the topics and cards;
:func:`features` turns them into rows and :func:`scores` into one number
each.  The weights are data, ``data/fusion.json``, written by
``tools/learn_fusion.py`` from development questions only (never a
held-out one).  Without them, or with ``RankingConfig.learned_fusion``
off, the hand-set fusion ranks (``RankingConfig.semantic``); without
embeddings the lexical ranking stays (the site mirrors it).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Collection, Mapping, Set
from operator import itemgetter, mul, sub, truediv
from typing import Any, NamedTuple

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.search.config import RankingConfig
from crsearch.search.query import ParsedQuery, question_words
from crsearch.search.records import Record

#: The features, in the order of the weights.
FEATURES = (
    "bm25",            # BM25 score over the best one's
    "coverage",        # share of the question's weighted words (squared)
    "parent",          # subrules among the candidates (a rule that sums them up)
    "adjacent",        # share of the question's word pairs side by side
    "named",           # a subrule of a keyword the question names
    "glossary",        # a glossary entry (for a question of several words)
    "chapter",         # a chapter or section heading
    "topic",           # best topic (or keywords-together) bonus, 1 for a topic's first rule
    "topic_more",      # the other topics' bonuses, summed
    "card",            # best card bonus
    "card_more",       # the other cards' bonuses, summed
    "similarity",      # cosine similarity with the question
    "similarity_z",    # the same, standardised over the candidates
    "similarity_rank",  # 10 / (10 + rank by similarity)
    "bm25_rank",       # 10 / (10 + rank by BM25)
    "lexical",         # the hand-set lexical score over the best one's
    "lexical_rank",    # 10 / (10 + rank by the lexical score)
    "words_missed",    # brought only by a topic, card or keywords, not by the words
    # The rules around it among the candidates: the best lexical score (over
    # the best one's) of a candidate that cites it, that it cites, of its
    # sibling subrules and of its own subrules.
    "cited_by_best",
    "cites_best",
    "sibling_best",
    "subrule_best",
    # Questions asked before (asked.py) that it (or its parent or subrule)
    # answered: log(1 + how many), and the closest one's similarity.
    "asked",
    "asked_best",
)

class Evidence(Record):
    """What the lexical ranking found for one candidate of a question."""

    __slots__ = ("bm25", "coverage", "parent", "adjacent", "named", "glossary", "chapter",
                 "in_words", "topics", "cards")
    _FIELDS = __slots__

    def __init__(self, bm25: float = 0.0, coverage: float = 0.0, parent: float = 0.0,
                 adjacent: float = 0.0, named: float = 0.0, glossary: float = 0.0,
                 chapter: float = 0.0, in_words: bool = False, topics: list[float] | None = None,
                 cards: list[float] | None = None) -> None:
        self.bm25 = bm25
        self.coverage = coverage
        self.parent = parent
        self.adjacent = adjacent
        self.named = named
        self.glossary = glossary
        self.chapter = chapter
        self.in_words = in_words
        self.topics: list[float] = [] if topics is None else topics
        self.cards: list[float] = [] if cards is None else cards


def _ranks(values: dict[str, float]) -> dict[str, float]:
    # Highest first; ties keep their order (a reversed sort is stable too).
    order = sorted(values, key=values.__getitem__, reverse=True)
    return {id: 10.0 / (10.0 + n) for n, id in enumerate(order, 1)}


def _parent(id: str) -> str | None:
    if id.startswith(GLOSSARY_PREFIX) or numbers.kind(id) != "subrule":
        return None
    return numbers.parent(id)


def features(evidence: dict[str, Evidence], lexical: dict[str, float],
             similarity: dict[str, float],
             cites: Mapping[str, Set[str]] | None = None,
             asked: dict[str, tuple[int, float, int]] | None = None) -> dict[str, list[float]]:
    """One row of ``FEATURES`` per candidate of ``lexical`` (its hand-set
    scores, bonuses included), in that order; ``cites`` gives the ids each
    candidate's text cites, ``asked`` the questions asked before that each
    answered (``asked.Memory.evidence``)."""
    if not lexical:
        return {}
    top = max(lexical.values()) or 1.0
    norm = {id: lex / top for id, lex in lexical.items()}
    cites = cites or {}
    asked = asked or {}
    cited_by: dict[str, float] = {}
    for id, targets in cites.items():
        for target in targets:
            cited_by[target] = max(cited_by.get(target, 0.0), norm.get(id, 0.0))
    parents = {id: _parent(id) for id in lexical}
    kids: dict[str, list[float]] = {}
    for id, up in parents.items():
        if up:
            kids.setdefault(up, []).append(norm[id])
    # Each rule's best two subrules: a sibling's best is the other one.
    top2 = {up: sorted(vs, reverse=True)[:2] if len(vs) > 1 else [vs[0], 0.0]
            for up, vs in kids.items()}
    sims = {id: similarity.get(id) or 0.0 for id in lexical}
    mean = sum(sims.values()) / len(sims)
    sd = math.sqrt(sum((s - mean) ** 2 for s in sims.values()) / len(sims)) + 1e-6
    sim_rank = _ranks(sims)
    bm25_rank = _ranks({id: evidence[id].bm25 if id in evidence else 0.0 for id in lexical})
    lex_rank = _ranks(lexical)
    rows = {}
    for id in lexical:
        e = evidence.get(id) or _NONE
        t, c = e.topics, e.cards
        # Most candidates have no topic, card, citation or kin: no calls then.
        t_best = max(t) if t else 0.0
        c_best = max(c) if c else 0.0
        its = cites.get(id)
        up = parents[id]
        own, sim = norm[id], sims[id]
        a = asked.get(id)
        rows[id] = [e.bm25, e.coverage, e.parent, e.adjacent, e.named, e.glossary, e.chapter,
                    t_best, sum(t) - t_best if t else 0.0,
                    c_best, sum(c) - c_best if c else 0.0,
                    sim, (sim - mean) / sd, sim_rank[id], bm25_rank[id],
                    own, lex_rank[id], 0.0 if e.in_words else 1.0,
                    cited_by.get(id, 0.0),
                    max((norm[x] for x in its if x in norm), default=0.0) if its else 0.0,
                    (b[1] if (b := top2[up])[0] == own else b[0]) if up else 0.0,
                    top2[id][0] if id in top2 else 0.0,
                    math.log1p(a[0]) if a else 0.0, a[1] if a else 0.0]
    return rows


#: The evidence of a candidate that has none (never changed).
_NONE = Evidence()


# -- the learned weights --------------------------------------------------------

#: The shipped weights: in the data folder (``paths.data_dir``).
FILE = "fusion.json"


class Weights(NamedTuple):
    """A linear model over standardised ``FEATURES``: one mean, scale and
    weight per feature, and what it was trained on."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    trained_on: str = ""

    @classmethod
    def from_json(cls, data: Any) -> Weights | None:
        """The weights of ``data/fusion.json``'s shape; None when they do not
        fit ``FEATURES`` (name by name) or a number is missing."""
        try:
            rows = data["features"]
            if [r["name"] for r in rows] != list(FEATURES):
                return None
            got = cls(tuple(float(r["mean"]) for r in rows), tuple(float(r["scale"]) for r in rows),
                      tuple(float(r["weight"]) for r in rows), str(data.get("trained_on", "")))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return got if all(s > 0 for s in got.scale) else None

    def score(self, row: list[float]) -> float:
        # sum(w * (x - m) / s ...), each step mapped in C: the very same numbers.
        return sum(map(truediv, map(mul, self.weights, map(sub, row, self.mean)), self.scale))


@functools.cache
def learned() -> Weights | None:
    """The shipped weights (``data/fusion.json``), read once; None when the
    file is missing or damaged (questions then rank by the hand-set fusion)."""
    from crsearch.paths import data_dir

    try:
        with open(data_dir() / FILE, encoding="utf-8") as f:
            return Weights.from_json(json.load(f))
    except (OSError, ValueError):
        return None


def scores(rows: dict[str, list[float]], weights: Weights) -> dict[str, float]:
    """The learned score of each row."""
    return {id: weights.score(row) for id, row in rows.items()}


# -- the stage --------------------------------------------------------------------

class Fused(NamedTuple):
    """What the fuse stage made of a long question's lexical ranking."""

    #: (id, score), best first.
    scores: list[tuple[str, float]]
    #: How the meaning was used (``--why``'s ``understood.semantic``).
    note: str
    #: Per id: its similarity and semantic rank, the question asked before it answered.
    why: dict[str, dict[str, Any]]
    #: Per id: its row of ``FEATURES`` (what ``tools/learn_fusion.py`` learns from).
    features: dict[str, list[float]]


def fuse(q: ParsedQuery, scored: list[tuple[str, float]], evidence: dict[str, Evidence],
         vectors: Any, config: RankingConfig,
         cites: Callable[[str, Collection[str]], Set[str]], asked_skip: Set[str] = frozenset(),
         shown: int | None = None) -> Fused:
    """The lexical ranking ``scored`` (best first) fused with the candidates'
    semantic similarity to the question: by the learned weights, else by
    the hand-set fusion.  ``vectors`` are the index's embeddings (not None)
    and ``cites(id, among)`` the rules a rule cites (of a range, those in
    ``among``: the candidates); the questions asked before from a page of
    ``asked_skip`` are left out (the bench leaves out a question's own).
    ``shown``: only the first so many of the fused ranking get their
    ``why`` (None: all)."""
    from crsearch.search.semantic import MODEL_NAME

    vec = vectors.query(question_words(q))
    if vec is None:
        return Fused(scored, "no known words", {}, {})
    sims = {id: vectors.similarity(vec, id) for id, _ in scored}
    # Only the citations among the candidates count: a range ("702.19b-d")
    # is looked for in them alone, not in every rule.
    pool = [id for id, _ in scored if not id.startswith(GLOSSARY_PREFIX)]
    among = frozenset(pool)
    asked = vectors.memory().evidence(vec, list(sims), asked_skip)
    rows = features(evidence, dict(scored), sims, {id: cites(id, among) for id in pool}, asked)
    weights = learned() if config.learned_fusion else None
    if weights is not None:
        learned_scores = scores(rows, weights)
        fused = sorted(learned_scores.items(), key=itemgetter(1), reverse=True)
        note = f"fused with the lexical ranking by learned weights ({MODEL_NAME})"
    else:
        top = scored[0][1] or 1.0
        fused = [(id, lex / top + config.semantic * (sims.get(id) or 0.0)) for id, lex in scored]
        fused.sort(key=itemgetter(1), reverse=True)
        note = f"fused with the lexical ranking ({MODEL_NAME})"
    return Fused(fused, note, _why(fused[:shown], sims, asked, vectors.asked), rows)


def _why(fused: list[tuple[str, float]], sims: dict[str, float | None],
         asked: dict[str, tuple[int, float, int]], entries: list[dict[str, Any]]
         ) -> dict[str, dict[str, Any]]:
    """What ``--why`` says of the ``fused`` ids: each one's similarity and
    rank by it among the candidates, the question asked before it answered."""
    known = {id: s for id, s in sims.items() if s is not None}
    # Highest first; ties keep their order (a reversed sort is stable too).
    rank = {id: n for n, id in enumerate(sorted(known, key=known.__getitem__, reverse=True), 1)}
    why: dict[str, dict[str, Any]] = {}
    for id, _ in fused:
        if id in rank:
            why[id] = {"semantic": {"similarity": round(known[id], 3), "rank": rank[id]}}
        if id in asked:
            count, sim, n = asked[id]
            entry = entries[n]
            why.setdefault(id, {})["asked"] = {
                "question": entry["question"], "source": entry.get("source", ""),
                "similarity": round(sim, 3), "count": count}
    return why


def subrules_first(scored: list[tuple[str, float]], is_title_rule: Callable[[str], bool],
                   reach: int) -> list[tuple[str, float]]:
    """The most specific answer first: a rule that is only a title, ranked
    at most ``reach`` places above one of its own subrules, goes below it."""
    ids = [id for id, _ in scored]
    moved: set[str] = set()
    i = 0
    while i < len(ids):
        id = ids[i]
        if id not in moved and not id.startswith(GLOSSARY_PREFIX) \
                and numbers.kind(id) == "rule" and is_title_rule(id):
            for j in range(i + 1, min(i + reach + 1, len(ids))):
                if not ids[j].startswith(GLOSSARY_PREFIX) and numbers.parent(ids[j]) == id:
                    ids.insert(i, ids.pop(j))
                    moved.add(id)
                    break
        i += 1
    # The scores stay where they were, so the list stays sorted.
    return [(id, s) for id, (_, s) in zip(ids, scored)]
