"""The retrieve and features stages of the full-text search.

``retrieve``: BM25F over the index's fields (name, text, examples,
context) finds the candidates, from the query's stems and the other
wordings of its words ("tapped" -> "untapped", "dies" -> "put into a
graveyard from the battlefield").  ``score``: each candidate is re-ranked
by how much of the query's wording it has (coverage, word pairs side by
side, a pasted passage's word pairs), and keeps each part as
``fusion.Evidence`` for a long question's learned fusion.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import NamedTuple

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.search.config import RankingConfig
from crsearch.search.fusion import Evidence
from crsearch.search.index import Doc, Index
from crsearch.search.query import ParsedQuery, alternatives
from crsearch.search.vocab import QUESTION_WORDS


class Terms(NamedTuple):
    """The query's stems for the full-text search."""

    #: Every stem to retrieve with, in order: the typed words', their other
    #: wordings' and the quoted phrases'.
    stems: list[str]
    #: A typed word's stem -> the stems of each of its other wordings (they
    #: count as the word).
    alts: dict[str, list[set[str]]]
    #: Each quoted phrase's stems.
    phrases: list[list[str]]


def terms_of(index: Index, q: ParsedQuery) -> Terms:
    """The stems a query searches for."""
    stems: list[str] = []
    for w in q.terms:
        _add_new(stems, index.stems(w))
    # Other wordings of the typed words widen the search and count as the
    # word in the coverage (``score``).
    alts: dict[str, list[set[str]]] = {}
    if not q.passage:
        for w in q.terms:
            ws = index.stems(w)
            if len(ws) != 1:
                continue
            for alt in alternatives(w, index.vocab):
                a = set(index.stems(" ".join(alt)))
                if a and ws[0] not in a:
                    alts.setdefault(ws[0], []).append(a)
                    _add_new(stems, a)
    phrases = [index.stems(p) for p in q.phrases]
    for ps in phrases:
        _add_new(stems, ps)
    return Terms(stems, alts, phrases)


def _add_new(stems: list[str], more: Iterable[str]) -> None:
    for s in more:
        if s not in stems:
            stems.append(s)


class Candidates(NamedTuple):
    """The retrieve stage's output: the BM25F candidates, best first."""

    hits: list[tuple[Doc, float]]
    #: Which backend answered: "fast" or "whoosh".
    path: str


def retrieve(index: Index, q: ParsedQuery, terms: Terms, long_question: bool,
             config: RankingConfig) -> Candidates:
    """The top BM25F candidates of the query's stems (``terms`` has some)."""
    # One flat Or of field terms: nested groups and Whoosh's "scale"
    # (coordination) make it walk every posting in Python, 10x slower.
    # Coverage is rewarded in the re-ranking instead.  Words in a fifth of
    # all documents ("creature", "player") find nothing on their own and
    # cost most of the time: they only count in the re-ranking, unless the
    # query has nothing rarer.
    stems = terms.stems
    n = index.doc_count()
    df = {s: index.doc_frequency(s) for s in stems}
    if q.passage:
        # A passage is identified by its rarest words; the re-ranking
        # compares its whole wording with each candidate.
        pick = sorted((s for s in stems if df[s]), key=lambda s: df[s])[:config.passage_terms]
        fields = config.passage_fields
    else:
        pick = [s for s in stems if df[s] <= config.common * n] or stems
        fields = config.field_boosts
    hits, path = index.candidates(pick, fields, [] if q.passage else terms.phrases, q.filters,
                                  config.question_candidates if long_question else config.candidates)
    return Candidates(hits, path)


class Lexical(NamedTuple):
    """The features stage's output."""

    #: (id, hand-set lexical score), in the candidates' order (a typed
    #: "quoted phrase" a candidate lacks leaves it out).
    scores: list[tuple[str, float]]
    #: Each candidate's parts of that score.
    evidence: dict[str, Evidence]


class _Wording(NamedTuple):
    """What every candidate of one query is compared with."""

    stem_set: set[str]
    alts: dict[str, list[set[str]]]
    #: The same, flat: (typed word's stem, the stems of one other wording).
    alt_pairs: list[tuple[str, set[str]]]
    weights: dict[str, float]
    total_weight: float
    #: The query's word pairs: a passage's all, typed words' without question words.
    qbigrams: set[tuple[str, str]]
    pairs: set[tuple[str, str]]
    #: Keyword rules the query names, rule ids a passage cites.
    named: set[str]
    cited: set[str]
    question: bool
    #: Per rule: how many of its subrules are candidates.
    in_candidates: dict[str, int]
    #: The coverage of each set of query stems a candidate has (candidates
    #: share them: each sum is made once per query).
    coverage: dict[frozenset[str], float]


def _wording(index: Index, q: ParsedQuery, terms: Terms, hits: list[tuple[Doc, float]],
             named: list[str], config: RankingConfig) -> _Wording:
    alts = terms.alts
    stem_set = set(terms.stems) - {s for v in alts.values() for a in v for s in a} | set(alts)
    weights = {s: index.idf(s) for s in stem_set}
    if q.question:
        # "copy", "leaves", "the stack": what the question is about.
        for s in index.situation_stems() & stem_set:
            weights[s] *= config.situation_weight
    in_candidates: dict[str, int] = {}
    for doc, _ in hits:
        up = numbers.parent(doc["id"]) if doc["kind"] == "subrule" else None
        if up:
            in_candidates[up] = in_candidates.get(up, 0) + 1
    return _Wording(
        stem_set=stem_set, alts=alts, alt_pairs=[(s, a) for s, v in alts.items() for a in v],
        weights=weights, total_weight=sum(weights.values()) or 1.0,
        qbigrams=set(pairwise(q.words)),
        pairs=set(pairwise([w for w in q.words if w not in QUESTION_WORDS])),
        named=set(named) if not q.passage else set(),
        cited={i for span in q.ids for i in (span.start, span.end)} if q.passage else set(),
        question=not q.passage and any(w in QUESTION_WORDS for w in q.words),
        in_candidates=in_candidates, coverage={})


def score(index: Index, q: ParsedQuery, terms: Terms, hits: list[tuple[Doc, float]],
          named: list[str], config: RankingConfig) -> Lexical:
    """Each candidate's hand-set lexical score: its BM25F score over the
    best one's plus its coverage, word pairs and the rest (``named``: the
    keyword rules the query names)."""
    w = _wording(index, q, terms, hits, named, config)
    best = hits[0][1] or 1.0
    scores: list[tuple[str, float]] = []
    evidence: dict[str, Evidence] = {}
    # What every candidate reads, looked up once: a question scores ~300.
    passage, phrases = q.passage, q.phrases
    several = len(w.stem_set) > 1
    stem_set, alt_pairs, covered = w.stem_set, w.alt_pairs, w.coverage
    parents = w.in_candidates if w.question else {}
    pairs = w.qbigrams if passage else w.pairs
    doc_words, doc_pairs = index.doc_words, index.doc_pairs
    c_coverage, c_adjacent, c_passage = config.coverage, config.adjacent, config.passage
    for doc, bm25 in hits:
        id, kind = doc["id"], doc["kind"]
        score = bm25 / best
        e = Evidence(bm25=score, in_words=True)
        tw, tstems = doc_words(doc)
        if several:
            # Coverage: every query word present matters more than tf.
            # Weighted by idf: "player" in a question says little.
            has = stem_set & tstems
            if alt_pairs:
                has |= {s for s, a in alt_pairs if a <= tstems}
            key = frozenset(has)
            coverage = covered.get(key)
            if coverage is None:
                coverage = covered[key] = _coverage(w, key)
            e.coverage = coverage
            score += c_coverage * coverage
        if parents and parents.get(id, 0) >= config.parent_min:
            # A rule whose subrules answer the question sums them up.
            e.parent = min(parents[id], config.parent_max)
            score += config.parent * e.parent
        if pairs:
            shared = len(pairs & doc_pairs(doc))
            if passage:
                # A pasted passage: how much of its wording the rule has.
                score += c_passage * shared / len(pairs)
            else:
                e.adjacent = shared / len(pairs)
                score += c_adjacent * e.adjacent
        if w.cited and (id in w.cited or any(a in w.cited for a in _ancestors(id))):
            # A passage does not cite itself: "first strike (see rule
            # 702.7)" comes from double strike's rule, not from 702.7.
            score -= config.cited
        if w.named and kind == "subrule" and numbers.parent(id) in w.named:
            e.named = 1.0
            score += config.named
        if kind == "glossary" and not passage and several:
            e.glossary = 1.0
            score -= config.glossary_multi
        if phrases:
            joined = f" {' '.join(tw)} "
            if all(f" {p} " in joined for p in phrases):
                score += config.phrase
            elif not passage:
                continue  # a typed "quoted phrase" must appear as written
        if kind in ("chapter", "section"):
            e.chapter = 1.0
            score -= config.chapter
        evidence[id] = e
        scores.append((id, score))
    return Lexical(scores, evidence)


def _coverage(w: _Wording, has: frozenset[str]) -> float:
    """The coverage of a candidate that has the query stems ``has``: their
    weight's share of all, squared."""
    weights = w.weights
    got = sum(weights[s] for s in w.stem_set if s in has)
    return (got / w.total_weight) ** 2


def _ancestors(id: str) -> list[str]:
    return [] if id.startswith(GLOSSARY_PREFIX) else numbers.ancestors(id)
