"""How a question's evidence is weighed once its meaning is known: a linear
model over each candidate's lexical parts, its topics, cards and keywords,
and its semantic similarity, learned on the development questions.

``search.Engine`` collects an :class:`Evidence` for each candidate of a long
question; :func:`features` turns them into rows and :func:`scores` into one
number each.  The weights below are written by ``bench/learn_fusion.py``
from development questions only: ``bench/real_questions.json``'s
development part, ``bench/real_questions_dev2.json``,
``bench/real_questions_dev3.json`` and the development part of
``bench/queries.json`` (never a held-out question).
Without embeddings the hand-set lexical ranking stays (the site mirrors it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX

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

# -- learned: bench/learn_fusion.py writes this block ----------------------------
# BEGIN WEIGHTS
MEAN: tuple[float, ...] = (0.303269, 0.0350257, 0.0767722, 0.0186308, 0.0101056, 0.167757, 0.0177051, 0.0182991, 0.00836756, 0.00851259, 0.000346908, 0.283781, -3.73977e-17, 0.112233, 0.112233, 0.144343, 0.112233, 0.00800557, 0.0140793, 0.0255431, 0.0814168, 0.0144098, 0.216242, 0.06122)
SCALE: tuple[float, ...] = (0.141934, 0.045731, 0.531838, 0.0409111, 0.100017, 0.373651, 0.131877, 0.129962, 0.133174, 0.0876373, 0.0180753, 0.139847, 0.999992, 0.133473, 0.133473, 0.155799, 0.133473, 0.089115, 0.0701788, 0.103279, 0.16419, 0.0777721, 0.481422, 0.142874)
WEIGHTS: tuple[float, ...] = (0.0585459, 0.0239764, -0.042291, 0.0300108, -0.0550072, -0.0738637, -0.027924, 0.0765924, 0.0149042, 0.12233, 0.00992489, 0.071919, 0.0639663, 0.0432737, 0.0737113, 0.158007, 0.214412, 0.099748, 0.0372016, 0.0218245, 0.156026, 0.153559, 0.193829, 0.2899)
TRAINED_ON = "90 + 71 + 121 development questions and 146 development queries, L2 1.0"
# END WEIGHTS


@dataclass
class Evidence:
    """What the lexical ranking found for one candidate of a question."""

    bm25: float = 0.0
    coverage: float = 0.0
    parent: float = 0.0
    adjacent: float = 0.0
    named: float = 0.0
    glossary: float = 0.0
    chapter: float = 0.0
    in_words: bool = False
    topics: list[float] = field(default_factory=list)
    cards: list[float] = field(default_factory=list)


def _ranks(values: dict[str, float]) -> dict[str, float]:
    order = sorted(values, key=lambda i: -values[i])
    return {id: 10.0 / (10.0 + n) for n, id in enumerate(order, 1)}


def _parent(id: str) -> str | None:
    if id.startswith(GLOSSARY_PREFIX) or numbers.kind(id) != "subrule":
        return None
    return numbers.parent(id)


def features(evidence: dict[str, Evidence], lexical: dict[str, float],
             similarity: dict[str, float],
             cites: dict[str, set[str]] | None = None,
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
    sims = {id: similarity.get(id) or 0.0 for id in lexical}
    mean = sum(sims.values()) / len(sims)
    sd = math.sqrt(sum((s - mean) ** 2 for s in sims.values()) / len(sims)) + 1e-6
    sim_rank = _ranks(sims)
    bm25_rank = _ranks({id: evidence[id].bm25 if id in evidence else 0.0 for id in lexical})
    lex_rank = _ranks(lexical)
    rows = {}
    for id in lexical:
        e = evidence.get(id) or Evidence()
        t, c = e.topics, e.cards
        rows[id] = [e.bm25, e.coverage, e.parent, e.adjacent, e.named, e.glossary, e.chapter,
                    max(t, default=0.0), sum(t) - max(t, default=0.0),
                    max(c, default=0.0), sum(c) - max(c, default=0.0),
                    sims[id], (sims[id] - mean) / sd, sim_rank[id], bm25_rank[id],
                    norm[id], lex_rank[id], 0.0 if e.in_words else 1.0,
                    cited_by.get(id, 0.0),
                    max((norm[t] for t in cites.get(id, ()) if t in norm), default=0.0),
                    _second_best(kids[up], norm[id]) if (up := parents[id]) else 0.0,
                    max(kids.get(id, []), default=0.0),
                    *((math.log1p(a[0]), a[1]) if (a := asked.get(id)) else (0.0, 0.0))]
    return rows


def _second_best(values: list[float], own: float) -> float:
    """The best of ``values`` once ``own`` (one of them) is left out."""
    rest = list(values)
    rest.remove(own)
    return max(rest, default=0.0)


def ready() -> bool:
    """True when learned weights are present (and fit ``FEATURES``)."""
    return len(WEIGHTS) == len(MEAN) == len(SCALE) == len(FEATURES)


def scores(rows: dict[str, list[float]]) -> dict[str, float]:
    """The learned score of each row."""
    out = {}
    for id, row in rows.items():
        out[id] = sum(w * (x - m) / s for w, x, m, s in zip(WEIGHTS, row, MEAN, SCALE))
    return out
