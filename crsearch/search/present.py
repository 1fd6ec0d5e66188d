"""The present stage: ranked ids become results with a title, a snippet,
the matched words' spans and why each was found (``--why``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crsearch.rules.text import STOP_WORDS, words
from crsearch.search.index import Doc, Index, tokens
from crsearch.search.query import ParsedQuery
from crsearch.search.records import Record
from crsearch.search.vocab import QUESTION_WORDS


class Hit(Record):
    """One search result: ``highlights`` are the (start, end) character spans
    of matched words in ``snippet``; ``why`` says why it matched
    (``explain``), in ``to_dict`` only when asked."""

    __slots__ = ("id", "kind", "title", "snippet", "score", "parent", "highlights", "why")
    _FIELDS = __slots__

    def __init__(self, id: str, kind: str, title: str, snippet: str, score: float,
                 parent: str = "", highlights: list[tuple[int, int]] | None = None,
                 why: dict[str, Any] | None = None) -> None:
        self.id = id
        self.kind = kind
        self.title = title
        self.snippet = snippet
        self.score = score
        self.parent = parent
        self.highlights: list[tuple[int, int]] = [] if highlights is None else highlights
        self.why: dict[str, Any] = {} if why is None else why

    def to_dict(self, why: bool = False) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind, "title": self.title,
               "snippet": self.snippet, "score": round(self.score, 3),
               "parent": self.parent or None}
        if why:
            out["why"] = self.why
        return out


class SearchResult(Record):
    """What a search found, and how it read the query.

    ``understood``: what the query was understood as (``--why``): question,
    card names left out, slang read as rules wording, semantic ranking used
    or not.  ``backend``: where the full-text candidates came from, "fast"
    (the fast files) or "whoosh"; not part of ``to_dict``.  ``cards``: the
    cards the query names, with the rules terms of their text
    (``cardtext.NamedCard``); None when no card data was consulted (none
    imported), and then ``to_dict`` has no ``cards``.  ``features``: with
    ``Engine.search(..., features=True)``, the learned fusion's feature row
    of each candidate of a long question (``fusion.FEATURES``), by id; else
    empty; not part of ``to_dict``.
    """

    __slots__ = ("query", "release", "results", "suggestion", "notes", "understood", "backend",
                 "cards", "features")
    _FIELDS = __slots__

    def __init__(self, query: str, release: str, results: list[Hit], suggestion: str | None = None,
                 notes: list[str] | None = None, understood: dict[str, Any] | None = None,
                 backend: str = "", cards: list[Any] | None = None,
                 features: dict[str, list[float]] | None = None) -> None:
        self.query = query
        self.release = release
        self.results = results
        self.suggestion = suggestion
        self.notes: list[str] = [] if notes is None else notes
        self.understood: dict[str, Any] = {} if understood is None else understood
        self.backend = backend
        self.cards = cards
        self.features: dict[str, list[float]] = {} if features is None else features

    def to_dict(self, why: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"query": self.query, "release": self.release,
                               "results": [h.to_dict(why) for h in self.results],
                               "suggestion": self.suggestion}
        if self.cards is not None:
            out["cards"] = [c.to_dict() for c in self.cards]
        if why:
            out["understood"] = self.understood
        return out


def hits(index: Index, items: list[tuple[str, float]], q: ParsedQuery,
         why: dict[str, dict[str, Any]], snippet_words: int) -> list[Hit]:
    """The results of the ranked ``items``, ``why`` holding what the stages
    noted about each id."""
    stems = set()
    for w in q.words + [w for p in q.phrases for w in p.split()]:
        if w not in STOP_WORDS:
            stems.update(index.stems(w))
    typed = set(q.words)
    # The query's words stemmed once, not once per result.
    terms = [(w, index.stems(w)) for w in q.terms if w in typed]
    slang = [(k, [(w, index.stems(w)) for w in words(v) if w not in STOP_WORDS
                  and w not in QUESTION_WORDS]) for k, v in q.slang]
    out = []
    for id, score in items:
        doc = index.stored(id)
        if doc is None:
            continue
        snippet, marks = snippet_from(index.doc_tokens(doc), stems, snippet_words)
        out.append(Hit(id=id, kind=doc["kind"], title=doc.get("title", ""),
                       snippet=snippet, score=score, parent=doc.get("parent", ""),
                       highlights=marks, why=explain(index, doc, q, why.get(id, {}),
                                                     terms, slang)))
    return out


def explain(index: Index, doc: Doc, q: ParsedQuery, noted: dict[str, Any],
            terms: list[tuple[str, list[str]]],
            slang: list[tuple[str, list[tuple[str, list[str]]]]]) -> dict[str, Any]:
    """Which words, slang and meanings tie ``doc`` to the query, after what
    the stages ``noted`` (found by, topic, card, semantic, asked).
    ``terms``: the query's typed terms with their stems; ``slang``: each
    slang's rules words with theirs (``hits`` stems them once)."""
    why = dict(noted)
    _, dstems = index.doc_words(doc)
    name_stems = index.name_stems(doc)
    why["words"] = [w for w, ss in terms if any(s in dstems or s in name_stems for s in ss)]
    why["slang"] = [{"words": k, "rules": [w for w, ss in rules if any(s in dstems for s in ss)]}
                    for k, rules in slang]
    why["slang"] = [s for s in why["slang"] if s["rules"]]
    if q.names:
        why["ignored_names"] = list(q.names)
    return why


def understood(q: ParsedQuery, semantic: str | None) -> dict[str, Any]:
    """How the query was read (``--why``), ``semantic`` saying how its meaning was used."""
    return {"question": q.question, "passage": q.passage,
            "card_names": list(q.names),
            "slang": [{"words": k, "rules": v} for k, v in q.slang],
            "terms": q.terms, "semantic": semantic or "not used"}


def snippet_of(text: str, stems: set[str], stemmer: Callable[[str], str], size: int
               ) -> tuple[str, list[tuple[int, int]]]:
    """The window of ``size`` words of ``text`` with the most matched words,
    and their spans."""
    return snippet_from(tokens(text, stemmer), stems, size)


def snippet_from(tok: tuple[str, list[tuple[int, int]], list[str]], stems: set[str] | frozenset[str],
                 size: int) -> tuple[str, list[tuple[int, int]]]:
    """``snippet_of`` a text already cut into words (``index.tokens``)."""
    text, spans, word_stems = tok
    if not spans:
        return text[:200], []
    matched = [i for i, s in enumerate(word_stems) if s in stems]
    start, end = _window(len(spans), matched, size)
    a0 = spans[start][0] if start else 0
    b0 = spans[end - 1][1] if end < len(spans) else len(text)
    prefix = "…" if a0 else ""
    suffix = "…" if b0 < len(text) else ""
    snippet = prefix + text[a0:b0] + suffix
    shift = len(prefix) - a0
    marks = [(spans[i][0] + shift, spans[i][1] + shift) for i in matched if start <= i < end]
    return snippet, marks


def _window(n: int, matched: list[int], size: int) -> tuple[int, int]:
    """The first and last (excluded) word of the best window of ``size`` of
    ``n`` words: the most ``matched`` words, starting a little before the first."""
    if n <= size:
        return 0, n
    best, start = -1, 0
    # before[i]: how many matched words come before word i.
    before = [0] * (n + 1)
    for i in matched:
        before[i + 1] = 1
    for i in range(n):
        before[i + 1] += before[i]
    for s in range(n - size + 1):
        c = before[s + size] - before[s]
        if c > best:
            best, start = c, s
        if not matched:
            break
    end = start + size
    if start:
        start = max(0, start - 3) if best > 0 else 0
        end = min(n, start + size)
    return start, end
