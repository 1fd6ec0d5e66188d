"""The present stage: ranked ids become results with a title, a snippet,
the matched words' spans and why each was found (``--why``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crsearch.rules.text import STOP_WORDS, fold, words
from crsearch.search.index import Doc, Index
from crsearch.search.query import ParsedQuery
from crsearch.search.vocab import QUESTION_WORDS


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
    #: Why it matched (``explain``): in ``to_dict`` only when asked.
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
    """What a search found, and how it read the query."""

    query: str
    release: str
    results: list[Hit]
    suggestion: str | None = None
    notes: list[str] = field(default_factory=list)

    #: What the query was understood as (``--why``): question, card names
    #: left out, slang read as rules wording, semantic ranking used or not.
    understood: dict[str, Any] = field(default_factory=dict)
    #: Where the full-text candidates came from: "fast" (the fast files) or
    #: "whoosh".  Not part of ``to_dict``.
    backend: str = ""
    #: The cards the query names, with the rules terms of their text
    #: (``cardtext.NamedCard``); None when no card data was consulted (none
    #: imported), and then ``to_dict`` has no ``cards``.
    cards: list[Any] | None = None
    #: With ``Engine.search(..., features=True)``: the learned fusion's
    #: feature row of each candidate of a long question (``fusion.FEATURES``),
    #: by id; else empty.  Not part of ``to_dict``.
    features: dict[str, list[float]] = field(default_factory=dict)

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
    out = []
    for id, score in items:
        doc = index.stored(id)
        if doc is None:
            continue
        text = doc.get("text") or doc.get("title", "")
        snippet, marks = snippet_of(text, stems, index.stem_word, snippet_words)
        out.append(Hit(id=id, kind=doc["kind"], title=doc.get("title", ""),
                       snippet=snippet, score=score, parent=doc.get("parent", ""),
                       highlights=marks, why=explain(index, doc, q, why.get(id, {}))))
    return out


def explain(index: Index, doc: Doc, q: ParsedQuery, noted: dict[str, Any]) -> dict[str, Any]:
    """Which words, slang and meanings tie ``doc`` to the query, after what
    the stages ``noted`` (found by, topic, card, semantic, asked)."""
    why = dict(noted)
    _, dstems = index.doc_words(doc)
    name_stems = set(index.stems(doc.get("title", "")))
    typed = set(q.words)
    why["words"] = [w for w in q.terms if w in typed
                    and any(s in dstems or s in name_stems for s in index.stems(w))]
    why["slang"] = [{"words": k, "rules": [w for w in words(v) if w not in STOP_WORDS
                                           and w not in QUESTION_WORDS
                                           and any(s in dstems for s in index.stems(w))]}
                    for k, v in q.slang]
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


_WORD_SPAN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


@functools.lru_cache(maxsize=1 << 16)
def _folded(word: str) -> str:
    # The same few thousand words come back in every result list.
    return fold(word)


def snippet_of(text: str, stems: set[str], stemmer: Callable[[str], str], size: int
               ) -> tuple[str, list[tuple[int, int]]]:
    """The window of ``size`` words of ``text`` with the most matched words,
    and their spans."""
    text = " ".join(text.split())
    spans = [(m.start(), m.end()) for m in _WORD_SPAN.finditer(text)]
    matched = [i for i, (a, b) in enumerate(spans) if stemmer(_folded(text[a:b])) in stems]
    if not spans:
        return text[:200], []
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
