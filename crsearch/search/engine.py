"""Ranked search over one release: the stages, wired.

A query goes through these stages, each a function of its own module with
typed input and output; what they learn about a query travels in the
values they return, never on the engine:

1. read the query (``query.Reader``): rule numbers, words, phrases,
   filters, a question or a pasted passage; typos corrected;
2. the exact layers (``exact``): rule numbers, exact titles, keywords
   together, each at a tier of scores above the full text;
3. retrieve (``lexical.retrieve``): BM25F candidates from the index;
4. features (``lexical.score``, ``boosts.lift``): each candidate's lexical
   evidence, the judges' topics and the cards the question names (the
   rules-famous cards table, and with card data imported what the cards'
   texts say: ``cardtext``);
5. fuse (``fusion.fuse``): a long question's lexical ranking with its
   meaning (embeddings, questions asked before), by learned weights;
6. present (``present``): results with snippets and why they were found.

``RankingConfig`` (``config``) holds every knob; ``Index`` (``index``) the
opened index, which many threads may search at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence, Set
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crsearch.errors import BadInput, NotFound, short
from crsearch.rules import numbers
from crsearch.rules.text import words
from crsearch.search import exact, fusion, lexical, present
from crsearch.search.config import DEFAULT, RankingConfig
from crsearch.search.index import Index, passes
from crsearch.search.present import Hit, SearchResult
from crsearch.search.query import ParsedQuery
from crsearch.search.schema import TERMS

if TYPE_CHECKING:
    # Imported where used: a pasted passage needs neither the tables nor the cards.
    from crsearch.search import boosts, cardtext

__all__ = ["Engine", "Hit", "SearchResult", "engine_for", "is_long_question", "search"]


class Trace:
    """What the stages noted about one query, in the order they ran: per id
    why it was found (``Hit.why``), how the meaning was used, which backend
    answered and the learned fusion's feature rows."""

    __slots__ = ("why", "semantic", "backend", "features")

    def __init__(self, backend: str):
        self.why: dict[str, dict[str, Any]] = {}
        self.semantic: str | None = None
        self.backend = backend
        self.features: dict[str, list[float]] = {}

    def note(self, notes: dict[str, dict[str, Any]]) -> None:
        for id, got in notes.items():
            self.why.setdefault(id, {}).update(got)


class Ranking:
    """The results of the layers in order: the first layer to place an id
    (that passes the query's filters) keeps it there."""

    def __init__(self, filters: dict[str, str], trace: Trace):
        self.scores: dict[str, float] = {}
        self._filters = filters
        self._trace = trace

    def add(self, id: str, score: float, found_by: str) -> None:
        if id not in self.scores and (not self._filters or passes(id, self._filters)):
            self.scores[id] = score
            self._trace.why.setdefault(id, {})["found_by"] = found_by

    def top(self, limit: int) -> list[tuple[str, float]]:
        return list(self.scores.items())[:limit]


def is_long_question(q: ParsedQuery, config: RankingConfig) -> bool:
    """A question in a player's words, long enough for the question ranking
    (more candidates, meaning, keywords together as evidence)."""
    return q.question and len(q.terms) >= config.semantic_min_terms


class Engine:
    """An opened index and a ranking; reuse it for many queries, from many
    threads at once (it keeps nothing of a query)."""

    def __init__(self, index_dir: Path, config: RankingConfig = DEFAULT, fast: bool = True,
                 vectors: Any = None, embed: Callable[[], str | None] | None = None):
        self.index_dir = Path(index_dir)
        self.config = config
        # ``embed`` builds the embeddings of an index made without them, on
        # the first question that needs them (``Index.vectors``).
        self.index = Index(self.index_dir, config, fast=fast, vectors=vectors, embed=embed)
        self.release = self.index.release

    def close(self) -> None:
        self.index.close()

    def search(self, text: str, limit: int = 10, *, asked_skip: Set[str] = frozenset(),
               features: bool = False, cards: cardtext.CardLens | None = None) -> SearchResult:
        """The ``limit`` best results for ``text``.

        ``asked_skip``: pages whose questions asked before are left out (the
        bench leaves out the page a question came from); ``features``: keep
        the learned fusion's feature rows in ``SearchResult.features``;
        ``cards``: the imported card data (the cards the query names go to
        ``SearchResult.cards`` and their texts rank the rules).
        """
        if limit < 1:
            raise BadInput("--limit must be at least 1")
        q, suggestion = self.index.reader.read(text)
        if q.bad_number:
            raise NotFound(f"{short(q.bad_number)!r} is not a rule in the {self.release} rules "
                           f"({q.bad_reason.split(': ', 1)[-1]})", self.index.near_ids(q.bad_number))
        trace = Trace(backend=self.index.first_path)
        result = SearchResult(query=text, release=self.release, results=[], suggestion=suggestion)
        if q.truncated:
            result.notes.append(f"the query was cut to its first {len(q.text)} characters")
        ranking = Ranking(q.filters, trace)
        if q.spec_only:
            if cards is not None:
                result.cards = []  # rule numbers name no card
            self._numbers_only(q, ranking)
            result.understood = {"question": False, "passage": False, "rule_numbers": True}
        else:
            named = self._cards(text, q, cards, result)
            self._layers(q, ranking, trace, limit, asked_skip, named)
            result.understood = present.understood(q, trace.semantic)
            if result.cards is not None:
                result.understood["cards"] = [c.name for c in result.cards]
            if self.index.vectors_problem and q.question:
                result.notes.append(f"semantic ranking off: {self.index.vectors_problem}")
            built = self.index.take_built_note()
            if built:
                result.notes.append(built)
        result.results = present.hits(self.index, ranking.top(limit), q, trace.why,
                                      self.config.snippet_words)
        result.backend = trace.backend
        if features:
            result.features = trace.features
        return result

    def _numbers_only(self, q: ParsedQuery, ranking: Ranking) -> None:
        """A query of rule numbers only: those rules (a rule or chapter with
        what is under it), or NotFound."""
        for id, score in exact.numbered(self.index, q, self.config):
            ranking.add(id, score, "rule number")
        if not ranking.scores and not q.filters:
            missing = exact.missing_number(self.index, q)
            raise NotFound(f"there is no {numbers.kind(missing)} {missing} in the "
                           f"{self.release} rules", self.index.near_ids(missing))

    def _cards(self, text: str, q: ParsedQuery, cards: cardtext.CardLens | None,
               result: SearchResult) -> list[cardtext.NamedCard]:
        """The cards the query names (none for a pasted passage; ``result.cards``
        stays None without card data)."""
        if cards is None:
            return []
        result.cards = []
        if q.passage or self.config.card_text_cards < 1:
            return []
        from crsearch.errors import DamagedStore

        try:
            result.cards = cards.named(text, self.config)
        except DamagedStore as e:
            result.notes.append(f"cards left out: {e}")
        return result.cards

    def _layers(self, q: ParsedQuery, ranking: Ranking, trace: Trace, limit: int,
                asked_skip: Set[str], cards: Sequence[cardtext.NamedCard] = ()) -> None:
        """The exact layers, then the full text below them."""
        long_question = is_long_question(q, self.config)
        found = exact.find(self.index, q, long_question, self.config)
        for id, score, by in found.placed:
            ranking.add(id, score, by)
        if q.words or q.phrases:
            # How deep in the full-text ranking a shown result can lie: the
            # ids the layers placed are passed over, and with filters any.
            deepest = None if q.filters else limit + len(ranking.scores)
            full = self._full_text(q, found.together, long_question, trace, asked_skip, cards,
                                   deepest)
            for n, (id, score) in enumerate(full):
                ranking.add(id, score, "words")
                if n == 0:
                    # A title quoted in a passage names a rule whose number
                    # the page lost: right after the passage's rule.
                    for t in found.after_first:
                        ranking.add(t, score - self.config.quoted_title_step, "words")
        elif q.filters and not ranking.scores:
            for id in self.index.all_passing(q.filters, limit):
                ranking.add(id, 0.0, "words")

    def _full_text(self, q: ParsedQuery, together: Sequence[str], long_question: bool,
                   trace: Trace, asked_skip: Set[str], cards: Sequence[cardtext.NamedCard] = (),
                   deepest: int | None = None) -> list[tuple[str, float]]:
        """Retrieve, features, tables and (for a long question) fuse;
        ``deepest``: only the first so many can be shown (None: any)."""
        index, config = self.index, self.config
        terms = lexical.terms_of(index, q)
        if not terms.stems:
            return []
        got = lexical.retrieve(index, q, terms, long_question, config)
        trace.backend = got.path
        if not got.hits:
            return []
        named = exact.keywords_named(index, q) if not q.passage else []
        scored = lexical.score(index, q, terms, got.hits, named, config)
        ranked, steps = scored.scores, {}
        if not q.passage:
            from crsearch.search import boosts

            found = boosts.named(index.tables, q, together,
                                 exact.keyword_titles(index, q) if together else [], config)
            if cards:
                found += self._card_evidence(q, cards, ranked, found)
            lifted = boosts.lift(q, ranked, found, index.id_set.__contains__, index.rule_order(),
                                 config)
            trace.note(lifted.why)
            ranked, steps = lifted.scores, lifted.steps
        # Best first; ties keep their order (a reversed sort is stable too).
        ranked = sorted(ranked, key=itemgetter(1), reverse=True)
        if not long_question:
            return ranked
        from crsearch.search import boosts

        # Putting subrules first moves a result up by subrules_window places at most.
        ranked = self._fuse(q, ranked, boosts.with_steps(scored.evidence, steps), trace, asked_skip,
                            None if deepest is None else deepest + config.subrules_window)
        return fusion.subrules_first(
            ranked, lambda id: index.is_title_rule(id, config.title_rule_words), config.subrules_window)

    def _card_evidence(self, q: ParsedQuery, cards: Sequence[cardtext.NamedCard],
                       ranked: list[tuple[str, float]], found: list[boosts.Named]) -> list[boosts.Named]:
        """What the cards the query names add: the rules-famous cards table's
        rules for those its own matching missed (a lower-case or partial
        name), and what the texts of the others say."""
        from crsearch.search import boosts, cardtext

        table, config = self.index.tables.cards(), self.config

        def famous(name: str) -> tuple[str, list[str]] | None:
            for face in name.split(" // "):
                got = table.lookup(" ".join(words(face)))
                if got is not None:
                    return got
            return None

        seen = {n.what for n in found if n.why == "card"}
        out = []
        if q.question:
            for card in cards:
                got = famous(card.name)
                if got is not None and got[0] not in seen:
                    seen.add(got[0])
                    out.append(boosts.Named("card", got[0], config.card, tuple(got[1])))
        return out + cardtext.evidence(list(cards), q, ranked, self.index.stems, config,
                                       lambda name: famous(name) is not None)

    def _fuse(self, q: ParsedQuery, ranked: list[tuple[str, float]],
              evidence: dict[str, fusion.Evidence], trace: Trace,
              asked_skip: Set[str], shown: int | None = None) -> list[tuple[str, float]]:
        vectors = self.index.vectors() if self.config.embeddings else None
        if vectors is None:
            trace.semantic = "off" if not self.config.embeddings \
                else f"off ({self.index.vectors_problem})"
            return ranked
        fused = fusion.fuse(q, ranked, evidence, vectors, self.config, self.index.cites, asked_skip,
                            shown)
        trace.note(fused.why)
        trace.semantic = fused.note
        trace.features = fused.features
        return fused.scores


# -- convenience ----------------------------------------------------------------

_ENGINES: dict[tuple[str, str], tuple[tuple[int, int], Engine]] = {}
_ENGINES_LOCK = threading.Lock()


def engine_for(stored: Any, config: RankingConfig = DEFAULT,
               embed: Callable[[], str | None] | None = None) -> Engine:
    """An Engine for a StoredRelease and a ranking, cached per index folder
    until the index is rebuilt (a rebuild publishes a new ``terms.json``).
    ``embed`` builds the index's embeddings if it was made without them."""
    key = (str(stored.index_dir), "" if config is DEFAULT else config.key())
    try:
        st = (Path(stored.index_dir) / TERMS).stat()
        stamp = (st.st_ino, st.st_mtime_ns)
    except OSError:
        stamp = (0, 0)
    with _ENGINES_LOCK:
        got = _ENGINES.get(key)
        if got is None or got[0] != stamp:
            if got is not None:
                got[1].close()
            got = _ENGINES[key] = (stamp, Engine(stored.index_dir, config, embed=embed))
        return got[1]


def search(stored: Any, query: str, limit: int = 10, config: RankingConfig = DEFAULT) -> SearchResult:
    """Search one stored release (see ``Engine.search``)."""
    return engine_for(stored, config).search(query, limit)
