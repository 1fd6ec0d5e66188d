"""One release's opened search index, as every ranking stage reads it.

``Index`` holds what does not change from one query to the next: the terms
(``terms.json``), the documents and their statistics from a backend (the
fast files, else Whoosh), the stems, the embeddings and the tables.  It
keeps no state of a query, so many threads may search it at once: what it
loads lazily (Whoosh, the embeddings, the tables) is loaded under a lock,
its caches only ever gain the same value for a key, and each thread asks
Whoosh through a searcher of its own (``backends.WhooshBackend``).
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Collection, Iterator
from collections.abc import Set as AbstractSet
from itertools import pairwise
from pathlib import Path
from typing import Any

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.rules.suggest import did_you_mean
from crsearch.rules.text import STOP_WORDS, fold, words
from crsearch.search.backends import WhooshBackend, open_terms
from crsearch.search.config import RankingConfig
from crsearch.search.fastindex import FastBackend
from crsearch.search.query import Reader
from crsearch.search.schema import BM25_B, BM25_K1, EMBEDDINGS_BUILT, INDEX_FORMAT
from crsearch.search.vocab import SITUATION

#: A document's stored fields (id, kind, title, text, parent).
Doc = dict[str, Any]


class Index:
    """An opened index of one release; share it between queries and threads.

    Common queries are answered by ``fastindex.FastBackend`` without
    importing Whoosh; the rest goes to ``backends.WhooshBackend``, opened
    on first use.  ``fast=False`` always uses Whoosh (the tests compare the
    two); so do BM25F parameters other than those the fast files hold.
    ``vectors`` replaces the index's embeddings (the bench compares models).
    """

    def __init__(self, index_dir: Path, config: RankingConfig, fast: bool = True,
                 vectors: Any = None, embed: Callable[[], str | None] | None = None):
        self.index_dir = Path(index_dir)
        self.terms = open_terms(self.index_dir)
        self._lock = threading.Lock()
        self._whoosh: WhooshBackend | None = None
        self._bm25 = (config.bm25_b, config.bm25_k1)
        files = FastBackend.open(self.index_dir, INDEX_FORMAT)
        self.fast = files if fast else None
        #: Where stored fields, frequencies and counts come from (Whoosh
        #: stores no texts: with the fast files missing it shows none).
        self.docs: FastBackend | WhooshBackend = files or self.whoosh
        #: Whether the fast files' BM25F scores are the ones asked for.
        self._fast_scores = self.fast is not None and self._bm25 == (BM25_B, BM25_K1)
        self.release: str = self.terms["effective_date"]
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
        self._stem: Callable[[str], str] | None = None
        self._stem_cache: dict[str, str] = dict(self.fast.stems) if self.fast else {}
        self._doc_cache: dict[str, tuple[list[str], set[str]]] = {}
        self._children: dict[str, list[str]] = {}
        self._title_rules: dict[tuple[str, int], bool] = {}
        self._name_stems: dict[str, frozenset[str]] = {}
        self._tokens: dict[str, tuple[str, list[tuple[int, int]], list[str]]] = {}
        self._cited: dict[str, tuple[frozenset[str], tuple[numbers.Span, ...],
                                     frozenset[str] | None]] = {}
        self._cited_again: set[str] = set()
        self._pairs: dict[str, set[tuple[str, str]]] = {}
        self._order: dict[str, int] | None = None
        self._situation: frozenset[str] | None = None
        self._vectors: Any = vectors
        #: Why the embeddings cannot be used (one line), once tried.
        self.vectors_problem: str | None = None
        #: Builds the embeddings an index was made without (``build.build_embeddings``);
        #: returns None or why it could not.
        self._embed = embed
        self._built: str | None = None
        self._tables: Any = None

    # -- backends ----------------------------------------------------------------
    @property
    def whoosh(self) -> WhooshBackend:
        """The Whoosh backend, opened on first use (a damaged index is
        reported when it is opened)."""
        if self._whoosh is None:
            with self._lock:
                if self._whoosh is None:
                    self._whoosh = WhooshBackend(self.index_dir, *self._bm25)
        return self._whoosh

    def close(self) -> None:
        if self._whoosh is not None:
            self._whoosh.close()

    def _backends(self) -> Iterator[FastBackend | WhooshBackend]:
        # Whoosh is opened only when the fast path cannot answer.
        if self.fast is not None and self._fast_scores:
            yield self.fast
        yield self.whoosh

    @property
    def first_path(self) -> str:
        """The backend a query tries first: "fast" or "whoosh"."""
        return "fast" if self.fast is not None and self._fast_scores else "whoosh"

    def candidates(self, pick: list[str], fields: dict[str, float], required: list[list[str]],
                   filters: dict[str, str], limit: int) -> tuple[list[tuple[Doc, float]], str]:
        """The top BM25F candidates from the first backend able to answer,
        and which one answered ("fast" or "whoosh")."""
        path = self.first_path
        for backend in self._backends():
            got = backend.candidates(pick, fields, required, filters, limit)
            if got is not None:
                if backend is self.docs:
                    return got, backend.name
                # Stored fields always come from ``docs``, so both backends
                # rank and show the very same text.
                return [(self.stored(d["id"]) or d, s) for d, s in got], backend.name
        return [], path

    def stored(self, id: str) -> Doc | None:
        return self.docs.stored(id)

    def doc_frequency(self, stem: str) -> int:
        """In how many documents ``stem`` occurs in the text field."""
        return self.docs.doc_frequency(stem)

    def doc_count(self) -> int:
        return self.docs.doc_count()

    def idf(self, stem: str) -> float:
        """Whoosh's idf of ``stem`` in the text field (same formula, same numbers)."""
        return math.log(self.doc_count() / (self.doc_frequency(stem) + 1)) + 1

    # -- words -------------------------------------------------------------------
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

    def doc_words(self, doc: Doc) -> tuple[list[str], set[str]]:
        """The words of a stored document and their stems (cached)."""
        got = self._doc_cache.get(doc["id"])
        if got is None:
            tw = words(doc.get("text", "")) + words(doc.get("title", ""))
            # Each distinct word stemmed once: a rule repeats its words.
            got = (tw, {self.stem_word(w) for w in set(tw).difference(STOP_WORDS)})
            self._doc_cache[doc["id"]] = got
        return got

    def doc_pairs(self, doc: Doc) -> set[tuple[str, str]]:
        """The word pairs side by side in a stored document (cached)."""
        got = self._pairs.get(doc["id"])
        if got is None:
            got = self._pairs[doc["id"]] = set(pairwise(self.doc_words(doc)[0]))
        return got

    def name_stems(self, doc: Doc) -> frozenset[str]:
        """The stems of a stored document's title (cached)."""
        got = self._name_stems.get(doc["id"])
        if got is None:
            got = self._name_stems[doc["id"]] = frozenset(self.stems(doc.get("title", "")))
        return got

    def doc_tokens(self, doc: Doc) -> tuple[str, list[tuple[int, int]], list[str]]:
        """A stored document's shown text (its text, else its title) with
        white space made single, each word's span in it and each word's
        stem (cached: a snippet's words are found and stemmed once)."""
        got = self._tokens.get(doc["id"])
        if got is None:
            got = self._tokens[doc["id"]] = tokens(doc.get("text") or doc.get("title", ""),
                                                   self.stem_word)
        return got

    def situation_stems(self) -> frozenset[str]:
        """The stems of the situation words (``vocab.SITUATION``)."""
        if self._situation is None:
            self._situation = frozenset(self.stem_word(w) for w in SITUATION)
        return self._situation

    # -- rules -------------------------------------------------------------------
    def children(self, id: str) -> list[str]:
        """``id`` and the rules under it, in order (702.19 -> 702.19a, ...);
        a new list each time (cached: a keyword's title query asks every time)."""
        got = self._children.get(id)
        if got is None:
            got = self._children[id] = [i for i in self.ids if i == id or i.startswith(id)
                                        and numbers.contains(id, i)]
        return list(got)

    def rule_order(self) -> dict[str, int]:
        """Each id's place in rule order."""
        if self._order is None:
            self._order = {id: n for n, id in enumerate(self.ids)}
        return self._order

    def near_ids(self, text: str) -> list[str]:
        """The rule numbers someone who typed ``text`` may have meant."""
        return did_you_mean(re.sub(r"[^0-9a-z.]", "", text.lower()), self.id_set)

    def is_title_rule(self, id: str, most_words: int) -> bool:
        """A rule that is only a title ("702.15. Lifelink"): its subrules say it all."""
        key = (id, most_words)
        got = self._title_rules.get(key)
        if got is None:
            # Asked of most candidates of every question: tokenised once.
            got = self._title_rules[key] = is_title_text((self.stored(id) or {}).get("text", ""),
                                                         most_words)
        return got

    def cites(self, id: str, among: Collection[str]) -> AbstractSet[str]:
        """The rules a rule's text cites: each one it names that exists, and
        of each range it names ("702.19b-d") the members in ``among``."""
        got = self._cited.get(id)
        if got is None:
            ready = self.docs.cites(id) if isinstance(self.docs, FastBackend) else None
            if ready is not None:
                # The index holds them ready (``fastindex.write``): no text parsed.
                got = self._cited[id] = (ready[0], (), ready[1])
        if got is None:
            from crsearch.rules.refs import cited_spans

            # What a text cites never changes: its spans are read once, and
            # the rules it names singly looked up once.
            spans = cited_spans((self.stored(id) or {}).get("text", ""))
            named = {s.start for s in spans if s.start == s.end and s.start in self.id_set}
            ranges = tuple(s for s in spans if s.start != s.end)
            got = self._cited[id] = (frozenset(named - {id}), ranges, None)
        single, ranges, members = got
        if members is not None:
            # Expanding among every id, then keeping the candidates, is
            # expanding among the candidates.
            return single | {t for t in members if t in among} if members else single
        if not ranges:
            return single  # most rules cite no range (and most cite nothing)
        if id not in self._cited_again:
            # A process that asks once (the CLI) expands the range among
            # the candidates only; the whole chapter's ids are read when
            # the rule comes back.
            self._cited_again.add(id)
            return single | {t for s in ranges for t in numbers.expand(s, among) if t != id}
        members = frozenset(t for s in ranges for t in numbers.expand(s, self.ids)) - {id}
        self._cited[id] = (single, ranges, members)
        return single | {t for t in members if t in among}

    def all_passing(self, filters: dict[str, str], limit: int) -> list[str]:
        """The first ``limit`` ids that pass ``filters``, in rule order."""
        pool = [g["id"] for g in self.terms["glossary"]] if filters.get("kind") == "glossary" \
            else self.ids
        return [i for i in pool if passes(i, filters)][: limit]

    # -- what is loaded on first use -----------------------------------------------
    def vectors(self) -> Any:
        """The index's embeddings (``semantic.Vectors``), loaded on the first
        question; None (and ``vectors_problem`` says why) when unusable."""
        if self._vectors is None and self.vectors_problem is None:
            with self._lock:
                if self._vectors is None and self.vectors_problem is None:
                    from crsearch.search import semantic

                    try:
                        self._vectors = semantic.Vectors(self.index_dir)
                        self._vectors.stem = self.stem_word  # its stems are kept
                    except semantic.EmbeddingsUnavailable as e:
                        self.vectors_problem = str(e)
                        if self._embed is not None and not (self.index_dir / semantic.META).exists():
                            self._build_vectors()
        return self._vectors

    def _build_vectors(self) -> None:
        """Build the embeddings this index was made without (under the lock)."""
        import time

        from crsearch.search import semantic

        assert self._embed is not None
        took = time.perf_counter()
        warning = self._embed()
        if warning is not None:
            self.vectors_problem = warning
            return
        try:
            self._vectors = semantic.Vectors(self.index_dir)
            self._vectors.stem = self.stem_word
        except semantic.EmbeddingsUnavailable as e:
            self.vectors_problem = str(e)
            return
        self.vectors_problem = None
        self._built = (f"{EMBEDDINGS_BUILT} {self.release} rules on first use "
                       f"({time.perf_counter() - took:.1f} s); later searches reuse them")

    def take_built_note(self) -> str | None:
        """Once: the line saying this index's embeddings were just built."""
        with self._lock:
            note, self._built = self._built, None
        return note

    @property
    def tables(self) -> Any:
        """The judges' topics and the rules-famous cards (``tables.Tables``)."""
        if self._tables is None:
            with self._lock:
                if self._tables is None:
                    from crsearch.search.boosts import Tables

                    self._tables = Tables(self.fast, self.stem_word, self.id_set.__contains__)
        return self._tables


def passes(id: str, filters: dict[str, str]) -> bool:
    """True when ``id`` passes the query's filters (``kind:``, ``section:``, ``chapter:``)."""
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


#: A word as a snippet shows it (curly apostrophes inside it too).
_WORD_SPAN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def tokens(text: str, stemmer: Callable[[str], str]) -> tuple[str, list[tuple[int, int]], list[str]]:
    """``text`` with white space made single, each word's span in it and
    each word's stem (what a snippet is cut from, ``present.snippet_of``)."""
    text = " ".join(text.split())
    spans = [(m.start(), m.end()) for m in _WORD_SPAN.finditer(text)]
    return text, spans, [stemmer(fold(text[a:b])) for a, b in spans]


def is_title_text(text: str, most_words: int) -> bool:
    """True for the text of a rule that is only a title ("Lifelink"): a
    question's ranking puts its subrules first (the site exports which)."""
    return len(words(text)) <= most_words
