"""Ranked search over one release (``glossary`` holds the exact look-ups).

Ranking happens in layers, each putting what it is sure of first:

1. rule numbers named in the query (``CR 702.19c``, ``510.1c-d``);
2. exact titles: a keyword (``trample`` -> 702.19 and its subrules), a
   glossary term (``lethal damage`` -> the entry, then the rules it cites),
   a chapter title, or a quoted title in a pasted passage;
3. BM25F over the Whoosh fields (name, text, examples, context), with the top
   candidates re-ranked by how much of the query's wording they contain, so
   a pasted passage finds the rule it came from.

Words the release never uses are corrected first (``deathtuch`` ->
``deathtouch``) and the correction is reported as ``suggestion``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from crsearch.errors import BadInput, NotFound, short
from crsearch.rules import numbers
from crsearch.rules.glossary import is_keyword_id, title_variants
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.rules.suggest import did_you_mean
from crsearch.rules.text import STOP_WORDS, fold, words
from crsearch.search import fusion
from crsearch.search.backends import WhooshBackend, open_terms
from crsearch.search.fastindex import FastBackend
from crsearch.search.fusion import Evidence
from crsearch.search.query import ParsedQuery, Reader, alternatives, question_words
from crsearch.search.schema import COMMON, FIELD_BOOSTS, INDEX_FORMAT, TERMS
from crsearch.search.vocab import QUESTION_WORDS, SITUATION, SITUATION_WEIGHT

MODEL_NAME = "WordLlama l2_supercat_256"

#: How many BM25 candidates are re-ranked.
CANDIDATES = 30
SNIPPET_WORDS = 28
#: Weight of "the result contains every word of the query".
COVERAGE = 1.0
#: Weight of the share of a pasted passage's word pairs found in a rule.
PASSAGE = 4.0
#: Weight of the share of typed word pairs found side by side.
ADJACENT = 0.5
#: Bonus for the subrules of a keyword the query names ("ward counter spell").
NAMED = 0.4
#: Bonus per subrule of a rule among the candidates, given to that rule
#: ("when does a player lose the game": 104.3 over 104.3a, 104.3b, ...).
PARENT = 0.15
#: At most this many subrules count towards PARENT.
PARENT_MAX = 4
#: Malus of glossary entries for questions of several words.
GLOSSARY_MULTI = 0.5
#: How many of a passage's rarest words retrieve its candidates.
PASSAGE_TERMS = 8
#: How many BM25 candidates a question in a player's words re-ranks.
QUESTION_CANDIDATES = 300
#: Fusion of a question's lexical and semantic rankings: the lexical score
#: (divided by the best one) plus SEMANTIC times the cosine similarity.
#: Measured on the real questions' development part (bench/): this beat
#: reciprocal rank fusion (MRR@10 0.440 against 0.403 at best).
SEMANTIC = 1.0
#: Questions shorter than this many content words keep the lexical ranking
#: alone (short questions are what the lexical ranking was tuned on).
SEMANTIC_MIN_TERMS = 4
#: Bonus of the rules a judge's topic (``topics.TOPICS``) names, when one of
#: its cues is in the question; each later rule of a topic gets a little less.
TOPIC = 1.0
TOPIC_STEP = 0.1
#: Bonus of the rules a card that judges know as a rules topic decides
#: (``cards.RULES_CARDS``: Humility -> layers), when a question names it.
#: Measured on the real questions' development part with the 1,900-card table
#: (unchanged with 3,600 cards):
#: 0.5 -> MRR@10 0.592, 0.8 -> 0.598, 1.2 -> 0.595 (R@1 falls above 0.8).
CARD = 0.8
#: Share of a further topic's or card's bonus that a rule already lifted gets.
AGAIN = 0.3


@dataclass
class Hit:
    """One search result."""

    id: str
    kind: str
    title: str
    snippet: str
    score: float
    parent: str = ""
    #: (start, end) character spans of matched words in ``snippet``.
    highlights: list[tuple[int, int]] = field(default_factory=list)
    #: Why it matched (see ``Engine.search``): in ``to_dict`` only when asked.
    why: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, why: bool = False) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind, "title": self.title,
               "snippet": self.snippet, "score": round(self.score, 3),
               "parent": self.parent or None}
        if why:
            out["why"] = self.why
        return out


@dataclass
class SearchResult:
    query: str
    release: str
    results: list[Hit]
    suggestion: str | None = None
    notes: list[str] = field(default_factory=list)

    #: What the query was understood as (``--why``): question, card names
    #: left out, slang read as rules wording, semantic ranking used or not.
    understood: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, why: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"query": self.query, "release": self.release,
               "results": [h.to_dict(why) for h in self.results],
               "suggestion": self.suggestion}
        if why:
            out["understood"] = self.understood
        return out


class Engine:
    """An opened index; reuse it for many queries.

    The ranking lives here; documents and BM25F candidates come from a
    backend.  Common queries (rule numbers, keyword and glossary titles,
    keyword interactions, and any typed words whose stems the fast files
    cover) are answered by ``fastindex.FastBackend`` without importing
    Whoosh; the rest goes to ``index.WhooshBackend``, opened on first use.
    ``fast=False`` always uses Whoosh (the tests compare the two).
    """

    def __init__(self, index_dir: Path, fast: bool = True, semantic: bool = True):
        self.index_dir = Path(index_dir)
        self.semantic = semantic
        self.terms = open_terms(self.index_dir)
        self._whoosh: WhooshBackend | None = None
        self.fast = FastBackend.open(self.index_dir, INDEX_FORMAT) if fast else None
        #: Where stored fields, frequencies and counts come from.
        self.docs: FastBackend | WhooshBackend = self.fast or self.whoosh
        self.release = self.terms["effective_date"]
        self.ids: list[str] = self.terms["ids"]
        self.id_set = set(self.ids)
        self.vocab: dict[str, int] = self.terms["vocab"]
        self.keywords: dict[str, str] = self.terms["keywords"]
        self.chapter_titles: dict[str, str] = self.terms["chapters"]
        self.glossary: dict[str, dict[str, Any]] = {}
        for g in self.terms["glossary"]:
            for name in g["names"]:
                self.glossary.setdefault(name, g)
        self.reader = Reader(self.terms)
        self.title_words = self.reader.title_words
        self._stem: Callable[[str], str] | None = None
        self._stem_cache: dict[str, str] = dict(self.fast.stems) if self.fast else {}
        self._doc_cache: dict[str, tuple[list[str], set[str]]] = {}
        #: How the last query's candidates were found: "fast" or "whoosh".
        self.last_path = ""
        #: Per query: why each result was found, and what the semantic step did.
        self._why: dict[str, dict[str, Any]] = {}
        self._semantic_note: str | None = None
        self._vectors: Any = None
        self._cues: Any = None  # topics.Cues, stemmed on the first query that needs them
        self._cards: Any = None  # cards.CardTable
        #: The learned fusion's feature rows of the last long question, by id.
        self.last_features: dict[str, list[float]] = {}
        self._order: dict[str, int] | None = None  # id -> place in rule order
        # Per query: the rules where the keywords a long question names meet,
        # and each candidate's evidence for the learned fusion.
        self._together: list[str] = []
        self._evidence: dict[str, Evidence] | None = None
        #: Why the embeddings cannot be used (one line), once tried.
        self.vectors_problem: str | None = None
        #: Sources (pages) of questions asked before to leave out: the bench
        #: leaves out the page the question it measures came from.
        self.asked_skip: set[str] = set()

    def vectors(self):
        """The index's embeddings (``embed.Vectors``), loaded on the first
        question; None (and ``vectors_problem`` says why) when unusable."""
        if self._vectors is None and self.vectors_problem is None:
            from crsearch.search import semantic as embed

            try:
                self._vectors = embed.Vectors(self.index_dir)
            except embed.EmbeddingsUnavailable as e:
                self.vectors_problem = str(e)
        return self._vectors

    @property
    def whoosh(self) -> WhooshBackend:
        """The Whoosh backend, opened on first use (a damaged index is
        reported when it is opened)."""
        if self._whoosh is None:
            self._whoosh = WhooshBackend(self.index_dir)
        return self._whoosh

    def close(self) -> None:
        if self._whoosh is not None:
            self._whoosh.close()

    # -- helpers ---------------------------------------------------------------
    def stems(self, text: str) -> list[str]:
        """The index's terms for ``text``: folded, stop words out, stemmed."""
        return [self.stem_word(w) for w in words(text) if w not in STOP_WORDS]

    def stem_word(self, w: str) -> str:
        s = self._stem_cache.get(w)
        if s is None:
            if self._stem is None:
                from whoosh.lang.porter import stem

                self._stem = stem
            stemmer: Callable[[str], str] = self._stem
            s = self._stem_cache[w] = stemmer(w)
        return s

    def _doc_words(self, doc: dict[str, Any]) -> tuple[list[str], set[str]]:
        """The words of a stored document and their stems (cached)."""
        got = self._doc_cache.get(doc["id"])
        if got is None:
            tw = words(doc.get("text", "")) + words(doc.get("title", ""))
            got = (tw, {self.stem_word(w) for w in tw if w not in STOP_WORDS})
            self._doc_cache[doc["id"]] = got
        return got

    def stored(self, id: str) -> dict[str, Any] | None:
        return self.docs.stored(id)

    def doc_frequency(self, stem: str) -> int:
        """In how many documents ``stem`` occurs in the text field."""
        return self.docs.doc_frequency(stem)

    def doc_count(self) -> int:
        return self.docs.doc_count()

    def idf(self, stem: str) -> float:
        """Whoosh's idf of ``stem`` in the text field (same formula, same numbers)."""
        return math.log(self.doc_count() / (self.doc_frequency(stem) + 1)) + 1

    def _backends(self) -> Iterator[FastBackend | WhooshBackend]:
        # Whoosh is opened only when the fast path cannot answer.
        if self.fast is not None:
            yield self.fast
        yield self.whoosh

    def candidates(self, pick: list[str], fields: dict[str, float], required: list[list[str]],
                   filters: dict[str, str], limit: int = CANDIDATES
                   ) -> list[tuple[dict[str, Any], float]]:
        """The top BM25F candidates from the first backend able to answer."""
        for backend in self._backends():
            got = backend.candidates(pick, fields, required, filters, limit)
            if got is not None:
                self.last_path = backend.name
                # Stored fields always come from ``docs``, so both backends
                # rank and show the very same text.
                return [(self.stored(d["id"]) or d, s) for d, s in got]
        return []

    def children(self, id: str) -> list[str]:
        """``id`` and the rules under it, in order (702.19 -> 702.19a, ...)."""
        return [i for i in self.ids if i == id or i.startswith(id) and numbers.contains(id, i)]

    # -- the search ---------------------------------------------------------------
    def search(self, text: str, limit: int = 10) -> SearchResult:
        if limit < 1:
            raise BadInput("--limit must be at least 1")
        q, suggestion = self.read(text)
        result = SearchResult(query=text, release=self.release, results=[])
        self._why = {}
        self._semantic_note = None
        self._together = []
        self._evidence = None
        self.last_features = {}
        self.last_path = "fast" if self.fast is not None else "whoosh"
        if q.bad_number:
            raise NotFound(f"{short(q.bad_number)!r} is not a rule in the {self.release} rules "
                           f"({q.bad_reason.split(': ', 1)[-1]})", self._near_ids(q.bad_number))
        if q.truncated:
            result.notes.append(f"the query was cut to its first {len(q.text)} characters")
        if suggestion:
            result.suggestion = suggestion
        ranked: dict[str, float] = {}

        stage = ["rule number"]

        def add(id: str, score: float) -> None:
            if id not in ranked and self._passes(id, q.filters):
                ranked[id] = score
                self._why.setdefault(id, {})["found_by"] = stage[0]

        # 1. Rule numbers (in a pasted passage they are citations, not the
        # rule asked for: they follow the passage's own rule instead).
        top = 1000.0
        cited: list[str] = []
        for span in (q.ids if not q.passage else ()):
            members = numbers.expand(span, self.id_set)
            if span.start == span.end and members and numbers.kind(span.start) in ("rule", "chapter") \
                    and q.spec_only:
                members = self.children(span.start) if numbers.kind(span.start) == "rule" \
                    else [span.start] + [i for i in self.ids if i.startswith(span.start + ".")
                                         and numbers.kind(i) == "rule"]
            for id in members:
                add(id, top)
                top -= 0.01
        if q.spec_only:
            if not ranked and not q.filters:
                missing = next((s.start for s in q.ids if not numbers.expand(s, self.id_set)),
                               q.ids[0].start)
                raise NotFound(f"there is no {numbers.kind(missing)} {missing} in the "
                               f"{self.release} rules", self._near_ids(missing))
            result.results = self._hits(list(ranked.items())[:limit], q)
            result.understood = {"question": False, "passage": False, "rule_numbers": True}
            return result

        # 2. Exact titles (the whole query, or quoted titles in a passage).
        stage[0] = "title"
        titles = self._title_matches(q)
        if q.passage:
            cited = [i for span in q.ids for i in numbers.expand(span, self.id_set)]
            if len(q.words) - sum(len(p.split()) for p in q.phrases) <= 3:
                # A short fragment ("See rule , “Combat Damage Step.”") is
                # mostly the title: the titled rule or chapter comes first.
                titles, cited = [], titles + cited
                for n, id in enumerate(cited):
                    add(id, 500.0 - n * 0.01)
                cited = []
        else:
            top = 500.0
            for id in titles:
                add(id, top)
                top -= 0.01
            # 2b. Two keywords or more: the rules where they meet.  A story
            # names keywords in passing ("I cast ..., they sacrifice ..."),
            # so there they are one more piece of evidence, weighed like a
            # topic, not the first results.
            stage[0] = "keywords together"
            together = self._interaction(q) if not q.phrases else []
            if is_long_question(q):
                self._together = together
            else:
                top = 300.0
                for id in together:
                    add(id, top)
                    top -= 0.01

        # 3. Full text.
        stage[0] = "words"
        if q.words or q.phrases:
            full = self._full_text(q)
            for n, (id, score) in enumerate(full):
                add(id, score)
                if n == 0 and q.passage:
                    # A title quoted in the passage names a rule whose number
                    # the page lost: show it right after the passage's rule.
                    for t in titles + cited:
                        add(t, score - 0.001)
        elif q.filters and not ranked:
            for id in self._filtered_all(q.filters, limit):
                add(id, 0.0)
        items = list(ranked.items())[:limit]
        result.results = self._hits(items, q)
        result.understood = {"question": q.question, "passage": q.passage,
                             "card_names": list(q.names),
                             "slang": [{"words": k, "rules": v} for k, v in q.slang],
                             "terms": q.terms, "semantic": self._semantic_note or "not used"}
        if self.vectors_problem and q.question:
            result.notes.append(f"semantic ranking off: {self.vectors_problem}")
        return result

    def read(self, text: str) -> tuple[ParsedQuery, str | None]:
        """The query as the search reads it (see ``query.Reader``)."""
        return self.reader.read(text)

    def meaning_words(self, text: str) -> list[str]:
        """The words of ``text`` whose embeddings make its vector (``query.Reader``)."""
        return self.reader.meaning_words(text)

    def _passes(self, id: str, filters: dict[str, str]) -> bool:
        if not filters:
            return True
        is_glossary = id.startswith(GLOSSARY_PREFIX)
        kind = "glossary" if is_glossary else numbers.kind(id)
        if "kind" in filters and filters["kind"] != kind:
            return False
        if "section" in filters and (is_glossary or id[0] != filters["section"]):
            return False
        return not ("chapter" in filters and (is_glossary or kind == "section"
                                              or id.split(".")[0] != filters["chapter"]))

    def _near_ids(self, text: str) -> list[str]:
        return did_you_mean(re.sub(r"[^0-9a-z.]", "", text.lower()), self.id_set)

    def _title_matches(self, q: ParsedQuery) -> list[str]:
        out: list[str] = []
        wanted = [(q.title_text, True)] if q.words and not q.passage else []
        if q.passage:
            # A quoted title in pasted text names a rule or chapter whose
            # number the page lost ("See rule , “Combat Damage Step.”").
            wanted += [(p, False) for p in q.phrases]
        for t, typed in wanted:
            for cand in title_variants(t):
                if cand in self.keywords:
                    out += self.children(self.keywords[cand]) if typed else [self.keywords[cand]]
                g = self.glossary.get(cand) if typed else None
                if g is not None:
                    out.append(g["id"])
                    out += self._glossary_targets(g)
                if cand in self.chapter_titles:
                    out.append(self.chapter_titles[cand])
                if out:
                    break
        return list(dict.fromkeys(out))

    def _keywords_named(self, q: ParsedQuery) -> list[str]:
        """Keyword rules whose names occur in the query's words, in order."""
        found: list[str] = []
        ws = q.words
        i = 0
        while i < len(ws):
            for n in (3, 2, 1):
                key = " ".join(ws[i:i + n])
                if len(ws[i:i + n]) == n and key in self.keywords and key not in STOP_WORDS:
                    if self.keywords[key] not in found:
                        found.append(self.keywords[key])
                    i += n
                    break
            else:
                i += 1
        return [k for k in found if is_keyword_id(k)]

    def _interaction(self, q: ParsedQuery) -> list[str]:
        """For "deathtouch trample": each keyword's subrules that speak of the
        other keyword, or share its rarest words, best first."""
        named = self._keywords_named(q)
        if len(named) < 2:
            return []
        texts = {k: [(i, self.stored(i) or {}) for i in self.children(k) if i != k]
                 for k in named}
        vocab = {k: set().union(*(self._doc_words(d)[1]
                                  for i, d in rows if d)) if rows else set()
                 for k, rows in texts.items()}
        names = {k: set(self.stems((self.stored(k) or {}).get("title", ""))) for k in named}
        scored = []
        for k, rows in texts.items():
            others = [o for o in named if o != k]
            for i, d in rows:
                if not d:
                    continue
                stems = self._doc_words(d)[1]
                s = 0.0
                for o in others:
                    if names[o] and names[o] <= stems:
                        s += 10.0
                    s += sum(self.idf(t) for t in stems & vocab[o]
                             if t not in names[k])
                scored.append((s, i))
        scored.sort(key=lambda t: -t[0])
        return [i for s, i in scored[:4] if s > 0]

    def _glossary_targets(self, g: dict[str, Any], depth: int = 0) -> list[str]:
        out = [t for t in g["targets"] if t in self.id_set]
        if g.get("see") and depth < 2:
            target = self.glossary.get(g["see"])
            if target is not None:
                out = [target["id"], *self._glossary_targets(target, depth + 1)]
        return out

    def _filtered_all(self, filters: dict[str, str], limit: int) -> list[str]:
        pool = [g["id"] for g in self.terms["glossary"]] if filters.get("kind") == "glossary" \
            else self.ids
        return [i for i in pool if self._passes(i, filters)][: limit]

    def _full_text(self, q: ParsedQuery) -> list[tuple[str, float]]:
        stems: list[str] = []
        for w in q.terms:
            for s in self.stems(w):
                if s not in stems:
                    stems.append(s)
        # Other wordings of the typed words ("tapped" -> "untapped", "dies"
        # -> "put into a graveyard from the battlefield") widen the search
        # and count as the word in the coverage below.
        alts: dict[str, list[set[str]]] = {}
        if not q.passage:
            for w in q.terms:
                ws = self.stems(w)
                if len(ws) != 1:
                    continue
                for alt in alternatives(w, self.vocab):
                    a = set(self.stems(" ".join(alt)))
                    if a and ws[0] not in a:
                        alts.setdefault(ws[0], []).append(a)
                        for s in a:
                            if s not in stems:
                                stems.append(s)
        phrase_stems = [self.stems(p) for p in q.phrases]
        for ps in phrase_stems:
            for s in ps:
                if s not in stems:
                    stems.append(s)
        if not stems:
            return []
        # One flat Or of field terms: nested groups and Whoosh's "scale"
        # (coordination) make it walk every posting in Python, 10x slower.
        # Coverage is rewarded in the re-ranking below instead.
        # Words in a fifth of all documents ("creature", "player") find
        # nothing on their own and cost most of the time: they only count
        # in the re-ranking, unless the query has nothing rarer.
        n = self.doc_count()
        df = {s: self.doc_frequency(s) for s in stems}
        if q.passage:
            # A passage is identified by its rarest words; the re-ranking
            # below compares its whole wording with each candidate.
            pick = sorted((s for s in stems if df[s]), key=lambda s: df[s])[:PASSAGE_TERMS]
            fields = {"text": 1.0, "name": 1.0}
        else:
            pick = [s for s in stems if df[s] <= COMMON * n] or stems
            fields = FIELD_BOOSTS
        long_question = is_long_question(q)
        hits = self.candidates(pick, fields, [] if q.passage else phrase_stems, q.filters,
                               QUESTION_CANDIDATES if long_question else CANDIDATES)
        if not hits:
            return []
        qbigrams = set(pairwise(q.words))
        plain = [w for w in q.words if w not in QUESTION_WORDS]
        pairs = set(pairwise(plain))
        named = set(self._keywords_named(q)) if not q.passage else set()
        stem_set = set(stems) - {s for v in alts.values() for a in v for s in a} | set(alts)
        weights = {s: self.idf(s) for s in stem_set}
        if q.question:
            # "copy", "leaves", "the stack": what the question is about.
            for s in self._situation_stems() & stem_set:
                weights[s] *= SITUATION_WEIGHT
        total_weight = sum(weights.values()) or 1.0
        question = not q.passage and any(w in QUESTION_WORDS for w in q.words)
        in_candidates: dict[str, int] = {}
        for doc, _ in hits:
            up = numbers.parent(doc["id"]) if doc["kind"] == "subrule" else None
            if up:
                in_candidates[up] = in_candidates.get(up, 0) + 1
        cited_by_query = {i for span in q.ids for i in (span.start, span.end)} if q.passage else set()
        best = hits[0][1] or 1.0
        scored = []
        # A long question keeps each part of the score for the learned fusion.
        evidence = self._evidence = {} if long_question else None
        for doc, hscore in hits:
            score = hscore / best
            e = Evidence(bm25=score, in_words=True)
            tw, tstems = self._doc_words(doc)
            if len(stem_set) > 1:
                # Coverage: every query word present matters more than tf.
                # Weighted by idf: "player" in a question says little.
                got = sum(weights[s] for s in stem_set if s in tstems
                          or any(a <= tstems for a in alts.get(s, ())))
                e.coverage = (got / total_weight) ** 2
                score += COVERAGE * e.coverage
            if question and in_candidates.get(doc["id"], 0) >= 3:
                # A rule whose subrules answer the question sums them up.
                e.parent = min(in_candidates[doc["id"]], PARENT_MAX)
                score += PARENT * e.parent
            tb = set(pairwise(tw))
            if q.passage and qbigrams:
                # A pasted passage: how much of its wording the rule has.
                score += PASSAGE * len(qbigrams & tb) / len(qbigrams)
            elif pairs:
                e.adjacent = len(pairs & tb) / len(pairs)
                score += ADJACENT * e.adjacent
            if cited_by_query and (doc["id"] in cited_by_query or any(
                    a in cited_by_query for a in _ancestors(doc["id"]))):
                # A passage does not cite itself: "first strike (see rule
                # 702.7)" comes from double strike's rule, not from 702.7.
                score -= 1.0
            if named and doc["kind"] == "subrule" and numbers.parent(doc["id"]) in named:
                e.named = 1.0
                score += NAMED
            if doc["kind"] == "glossary" and not q.passage and len(stem_set) > 1:
                e.glossary = 1.0
                score -= GLOSSARY_MULTI
            joined = f" {' '.join(tw)} "
            has_all = all(f" {p} " in joined for p in q.phrases)
            if q.phrases and has_all:
                score += 0.8
            if q.phrases and not q.passage and not has_all:
                continue  # a typed "quoted phrase" must appear as written
            if doc["kind"] in ("chapter", "section"):
                e.chapter = 1.0
                score -= 0.15
            if evidence is not None:
                evidence[doc["id"]] = e
            scored.append((doc["id"], score))
        if not q.passage:
            scored = self._with_topics(q, scored)
        scored.sort(key=lambda t: -t[1])
        if long_question:
            scored = self._fuse(q, scored)
        if long_question:
            scored = self.subrules_first(scored)
        return scored

    def _with_topics(self, q: ParsedQuery, scored: list[tuple[str, float]]
                     ) -> list[tuple[str, float]]:
        """The rules of the topics a question is about (``topics.TOPICS``)
        and of the rules-famous cards it names (``cards.RULES_CARDS``) move
        up, and join the candidates if the words missed them."""
        if self._cues is None:
            from crsearch.search.topics import Cues

            ready = self.fast.table("topics") if self.fast is not None else None
            self._cues = (Cues.from_parts(ready.part, ready.letters, self.stem_word) if ready
                          else Cues(self.stem_word, self.id_set.__contains__))
        found: list[tuple[str, str, float, tuple[str, ...]]] = [
            ("topic", cue, TOPIC, topic.rules)
            for cue, topic in self._cues.found(q.words + [w for _, v in q.slang for w in words(v)])]
        if q.question:
            if self._cards is None:
                from crsearch.search.cardtopics import CardTable, table

                cards = self.fast.table("cards") if self.fast is not None else None
                self._cards = (CardTable(cards.part, cards.info["longest"]) if cards
                               else CardTable.of(table()))
            found += [("card", name, CARD, tuple(rules))
                      for name, rules in self._cards.found_in(q.text)]
        if self._together:
            names = [(self.stored(k) or {}).get("title") or k for k in self._keywords_named(q)]
            found.append(("keywords", " + ".join(names), TOPIC, tuple(self._together)))
        given: dict[str, list[float]] = {}
        label: dict[str, tuple[float, str, str]] = {}  # the best bonus names the reason
        evidence = self._evidence
        for why, what, weight, rules in found:
            if weight <= 0:
                continue  # switched off (tests, bench)
            for n, id in enumerate(r for r in rules if r in self.id_set):
                step = max(0.0, 1.0 - TOPIC_STEP * n)
                b = weight * step
                if id not in given:
                    if not self._passes(id, q.filters):
                        continue
                    given[id] = []
                if id not in label or b > label[id][0]:
                    label[id] = (b, why, what)
                given[id].append(b)
                if evidence is not None:
                    e = evidence.setdefault(id, Evidence())
                    (e.cards if why == "card" else e.topics).append(step)
        if not given:
            return scored
        for id, (_, why, what) in label.items():
            self._why.setdefault(id, {})[why] = what
        # The best bonus, and a share of the others: more evidence, in any order.
        bonus = {id: max(bs) + AGAIN * (sum(bs) - max(bs)) for id, bs in given.items()}
        out = [(id, s + bonus.pop(id, 0.0)) for id, s in scored]
        if not q.phrases:  # a typed "quoted phrase" must appear as written
            # In rule order, so that ties rank alike here and on the site.
            order = self._rule_order()
            out.extend(sorted(bonus.items(), key=lambda t: order.get(t[0], 0)))
        return out

    def _situation_stems(self) -> set[str]:
        got = getattr(self, "_situation", None)
        if got is None:
            got = self._situation = {self.stem_word(w) for w in SITUATION}
        return got

    def _fuse(self, q: ParsedQuery, scored: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """The lexical ranking fused with the candidates' semantic similarity
        to the question (when the index has embeddings)."""
        vectors = self.vectors() if self.semantic else None
        if vectors is None:
            self._semantic_note = "off" if not self.semantic else f"off ({self.vectors_problem})"
            return scored
        vec = vectors.query(question_words(q))
        if vec is None:
            self._semantic_note = "no known words"
            return scored
        sims = {id: vectors.similarity(vec, id) for id, _ in scored}
        order = sorted((i for i in sims if sims[i] is not None), key=lambda i: -(sims[i] or 0.0))
        sem_rank = {id: n for n, id in enumerate(order, 1)}
        for id in sem_rank:
            self._why.setdefault(id, {})["semantic"] = {
                "similarity": round(sims[id] or 0.0, 3), "rank": sem_rank[id]}
        if self._evidence is not None:
            # What bench/learn_fusion.py learns from.  Only the citations
            # among the candidates count: a range ("702.19b-d") is looked
            # for in them alone, not in every rule.
            place = self._rule_order()
            pool = sorted((id for id, _ in scored if not id.startswith(GLOSSARY_PREFIX)),
                          key=lambda id: place.get(id, 0))
            asked = vectors.memory().evidence(vec, list(sims), self.asked_skip)
            for id, (count, sim, n) in asked.items():
                entry = vectors.asked[n]
                self._why.setdefault(id, {})["asked"] = {
                    "question": entry["question"], "source": entry.get("source", ""),
                    "similarity": round(sim, 3), "count": count}
            self.last_features = fusion.features(self._evidence, dict(scored), sims,
                                                 {id: self._cites(id, pool) for id in pool},
                                                 asked)
            if fusion.ready():
                learned = fusion.scores(self.last_features)
                self._semantic_note = f"fused with the lexical ranking by learned weights ({MODEL_NAME})"
                return sorted(learned.items(), key=lambda t: -t[1])
        top = scored[0][1] or 1.0
        fused = [(id, lex / top + SEMANTIC * (sims.get(id) or 0.0)) for id, lex in scored]
        fused.sort(key=lambda t: -t[1])
        self._semantic_note = f"fused with the lexical ranking ({MODEL_NAME})"
        return fused

    def _cites(self, id: str, among: list[str]) -> set[str]:
        """The ids of ``among`` (in rule order) that a rule's text cites."""
        from crsearch.rules.refs import references_in

        text = (self.stored(id) or {}).get("text", "")
        return {t for r in references_in(text, among, self.id_set) for t in r.targets} - {id}

    def _rule_order(self) -> dict[str, int]:
        """Each id's place in rule order."""
        if self._order is None:
            self._order = {id: n for n, id in enumerate(self.ids)}
        return self._order

    def _is_title_rule(self, id: str) -> bool:
        """A rule that is only a title ("702.15. Lifelink"): its subrules say it all."""
        return is_title_text((self.stored(id) or {}).get("text", ""))

    def subrules_first(self, scored: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """The most specific answer first: a title rule ranked just above one
        of its own subrules (within three places) goes below it."""
        ids = [id for id, _ in scored]
        moved: set[str] = set()
        i = 0
        while i < len(ids):
            id = ids[i]
            if id not in moved and not id.startswith(GLOSSARY_PREFIX) \
                    and numbers.kind(id) == "rule" and self._is_title_rule(id):
                for j in range(i + 1, min(i + 4, len(ids))):
                    if not ids[j].startswith(GLOSSARY_PREFIX) and numbers.parent(ids[j]) == id:
                        ids.insert(i, ids.pop(j))
                        moved.add(id)
                        break
            i += 1
        # The scores stay where they were, so the list stays sorted.
        return [(id, s) for id, (_, s) in zip(ids, scored)]

    # -- results -------------------------------------------------------------------
    def _hits(self, items: list[tuple[str, float]], q: ParsedQuery) -> list[Hit]:
        stems = set()
        for w in q.words + [w for p in q.phrases for w in p.split()]:
            if w not in STOP_WORDS:
                stems.update(self.stems(w))
        out = []
        for id, score in items:
            doc = self.stored(id)
            if doc is None:
                continue
            text = doc.get("text") or doc.get("title", "")
            snippet, marks = snippet_of(text, stems, self.stem_word)
            out.append(Hit(id=id, kind=doc["kind"], title=doc.get("title", ""),
                           snippet=snippet, score=score, parent=doc.get("parent", ""),
                           highlights=marks, why=self._explain(doc, q)))
        return out

    def _explain(self, doc: dict[str, Any], q: ParsedQuery) -> dict[str, Any]:
        """Which words, slang and meanings tie ``doc`` to the query."""
        why = dict(self._why.get(doc["id"], {}))
        _, dstems = self._doc_words(doc)
        name_stems = set(self.stems(doc.get("title", "")))
        typed = set(q.words)
        why["words"] = [w for w in q.terms if w in typed
                        and any(s in dstems or s in name_stems for s in self.stems(w))]
        why["slang"] = [{"words": k, "rules": [w for w in words(v) if w not in STOP_WORDS
                                               and w not in QUESTION_WORDS
                                               and any(s in dstems for s in self.stems(w))]}
                        for k, v in q.slang]
        why["slang"] = [s for s in why["slang"] if s["rules"]]
        if q.names:
            why["ignored_names"] = list(q.names)
        return why


def is_long_question(q: ParsedQuery) -> bool:
    """A question in a player's words, long enough for the question ranking
    (more candidates, meaning, keywords together as evidence)."""
    return q.question and len(q.terms) >= SEMANTIC_MIN_TERMS


def is_title_text(text: str) -> bool:
    """True for the text of a rule that is only a title ("Lifelink"): a
    question's ranking puts its subrules first (the site exports which)."""
    return len(words(text)) <= 4


def _ancestors(id: str) -> list[str]:
    return [] if id.startswith(GLOSSARY_PREFIX) else numbers.ancestors(id)


_WORD_SPAN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def snippet_of(text: str, stems: set[str], stemmer, size: int = SNIPPET_WORDS
               ) -> tuple[str, list[tuple[int, int]]]:
    """The window of ``text`` with the most matched words, and their spans."""
    text = " ".join(text.split())
    spans = [(m.start(), m.end()) for m in _WORD_SPAN.finditer(text)]
    matched = []
    for i, (a, b) in enumerate(spans):
        if stemmer(fold(text[a:b])) in stems:
            matched.append(i)
    if len(spans) <= size:
        start, end = 0, len(spans)
    else:
        best, start = -1, 0
        mset = set(matched)
        for s in range(len(spans) - size + 1):
            c = sum(1 for i in range(s, s + size) if i in mset) if matched else 0
            if c > best:
                best, start = c, s
            if not matched:
                break
        end = start + size
        if start:
            start = max(0, start - 3) if best > 0 else 0
            end = min(len(spans), start + size)
    if not spans:
        return text[:200], []
    a0 = spans[start][0] if start else 0
    b0 = spans[end - 1][1] if end < len(spans) else len(text)
    prefix = "…" if a0 else ""
    suffix = "…" if b0 < len(text) else ""
    snippet = prefix + text[a0:b0] + suffix
    shift = len(prefix) - a0
    marks = [(spans[i][0] + shift, spans[i][1] + shift) for i in matched if start <= i < end]
    return snippet, marks


# -- convenience ----------------------------------------------------------------

_ENGINES: dict[str, tuple[tuple[int, int], Engine]] = {}


def engine_for(stored) -> Engine:
    """An Engine for a StoredRelease, cached per index folder until the
    index is rebuilt (a rebuild publishes a new ``terms.json``)."""
    key = str(stored.index_dir)
    try:
        st = (Path(stored.index_dir) / TERMS).stat()
        stamp = (st.st_ino, st.st_mtime_ns)
    except OSError:
        stamp = (0, 0)
    got = _ENGINES.get(key)
    if got is None or got[0] != stamp:
        if got is not None:
            got[1].close()
        got = _ENGINES[key] = (stamp, Engine(stored.index_dir))
    return got[1]


def search(stored, query: str, limit: int = 10) -> SearchResult:
    """Search one stored release (see ``Engine.search``)."""
    return engine_for(stored).search(query, limit)
