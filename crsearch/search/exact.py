"""The exact layers: what a query names for certain comes first.

1. rule numbers named in the query (``CR 702.19c``, ``510.1c-d``);
2. exact titles: a keyword (``trample`` -> 702.19 and its subrules), a
   glossary term (``lethal damage`` -> the entry, then the rules it cites),
   a chapter title, or a quoted title in a pasted passage;
3. two keywords or more: the rules where they meet ("deathtouch trample").

Each layer places its results at a tier of scores (``RankingConfig``'s
``number_tier``, ``title_tier``, ``interaction_tier``) above every full-text
score, in its own order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from crsearch.rules import numbers
from crsearch.rules.glossary import is_keyword_id, title_variants
from crsearch.rules.text import STOP_WORDS
from crsearch.search.config import RankingConfig
from crsearch.search.index import Index
from crsearch.search.query import ParsedQuery


def tier(top: float, step: float, ids: list[str]) -> Iterator[tuple[str, float]]:
    """``ids`` with falling scores from ``top``, ``step`` apart."""
    for id in ids:
        yield id, top
        top -= step


class Exact(NamedTuple):
    """The exact layers' results for a query that is not only rule numbers."""

    #: (id, score, found_by) in the order the layers place them.
    placed: list[tuple[str, float, str]]
    #: A passage's quoted titles and cited rules: shown right after the
    #: passage's own rule (their numbers were lost, or they are citations).
    after_first: tuple[str, ...] = ()
    #: The rules where the keywords a long question names meet: evidence
    #: for the boosts stage, not first places.
    together: tuple[str, ...] = ()


def numbered(index: Index, q: ParsedQuery, config: RankingConfig) -> list[tuple[str, float]]:
    """The rules the query names by number, scored from ``number_tier`` down.
    A pasted passage's numbers are citations: none."""
    out: list[tuple[str, float]] = []
    top = config.number_tier
    for span in (q.ids if not q.passage else ()):
        members = numbers.expand(span, index.id_set)
        if span.start == span.end and members and numbers.kind(span.start) in ("rule", "chapter") \
                and q.spec_only:
            members = index.children(span.start) if numbers.kind(span.start) == "rule" \
                else [span.start] + [i for i in index.ids if i.startswith(span.start + ".")
                                     and numbers.kind(i) == "rule"]
        for id in members:
            out.append((id, top))
            top -= config.tier_step
    return out


def missing_number(index: Index, q: ParsedQuery) -> str:
    """The first number of a rule-numbers query that names no rule."""
    return next((s.start for s in q.ids if not numbers.expand(s, index.id_set)), q.ids[0].start)


def find(index: Index, q: ParsedQuery, long_question: bool, config: RankingConfig) -> Exact:
    """The exact layers of a query (rule numbers, titles, keywords together)."""
    placed = [(id, s, "rule number") for id, s in numbered(index, q, config)]
    titles = title_matches(index, q)
    if q.passage:
        cited = [i for span in q.ids for i in numbers.expand(span, index.id_set)]
        if len(q.words) - sum(len(p.split()) for p in q.phrases) > config.fragment_words:
            return Exact(placed, tuple(titles + cited))
        # A short fragment ("See rule , “Combat Damage Step.”") is mostly
        # the title: the titled rule or chapter comes first.
        placed += [(id, config.title_tier - n * config.tier_step, "title")
                   for n, id in enumerate(titles + cited)]
        return Exact(placed)
    placed += [(id, s, "title") for id, s in tier(config.title_tier, config.tier_step, titles)]
    # Two keywords or more: the rules where they meet.  A story names
    # keywords in passing ("I cast ..., they sacrifice ..."), so there they
    # are one more piece of evidence, weighed like a topic, not the first results.
    together = keywords_together(index, q, config) if not q.phrases else []
    if long_question:
        return Exact(placed, (), tuple(together))
    placed += [(id, s, "keywords together")
               for id, s in tier(config.interaction_tier, config.tier_step, together)]
    return Exact(placed)


def title_matches(index: Index, q: ParsedQuery) -> list[str]:
    """The rules the query names by title: the whole query, or the quoted
    titles of a pasted passage."""
    out: list[str] = []
    wanted = [(q.title_text, True)] if q.words and not q.passage else []
    if q.passage:
        # A quoted title in pasted text names a rule or chapter whose
        # number the page lost ("See rule , “Combat Damage Step.”").
        wanted += [(p, False) for p in q.phrases]
    for t, typed in wanted:
        for cand in title_variants(t):
            if cand in index.keywords:
                out += index.children(index.keywords[cand]) if typed else [index.keywords[cand]]
            g = index.glossary.get(cand) if typed else None
            if g is not None:
                out.append(g["id"])
                out += glossary_targets(index, g)
            if cand in index.chapter_titles:
                out.append(index.chapter_titles[cand])
            if out:
                break
    return list(dict.fromkeys(out))


def glossary_targets(index: Index, g: dict[str, Any], depth: int = 0) -> list[str]:
    """The rules a glossary entry cites, following "See X" twice at most."""
    out = [t for t in g["targets"] if t in index.id_set]
    if g.get("see") and depth < 2:
        target = index.glossary.get(g["see"])
        if target is not None:
            out = [target["id"], *glossary_targets(index, target, depth + 1)]
    return out


def keywords_named(index: Index, q: ParsedQuery) -> list[str]:
    """Keyword rules whose names occur in the query's words, in order."""
    found: list[str] = []
    ws = q.words
    i = 0
    while i < len(ws):
        for n in (3, 2, 1):
            key = " ".join(ws[i:i + n])
            if len(ws[i:i + n]) == n and key in index.keywords and key not in STOP_WORDS:
                if index.keywords[key] not in found:
                    found.append(index.keywords[key])
                i += n
                break
        else:
            i += 1
    return [k for k in found if is_keyword_id(k)]


def keyword_titles(index: Index, q: ParsedQuery) -> list[str]:
    """The titles of the keywords the query names ("Deathtouch", "Trample")."""
    return [(index.stored(k) or {}).get("title") or k for k in keywords_named(index, q)]


def keywords_together(index: Index, q: ParsedQuery, config: RankingConfig) -> list[str]:
    """For "deathtouch trample": each keyword's subrules that speak of the
    other keyword, or share its rarest words, best first."""
    named = keywords_named(index, q)
    if len(named) < 2:
        return []
    texts = {k: [(i, index.stored(i) or {}) for i in index.children(k) if i != k]
             for k in named}
    vocab = {k: set().union(*(index.doc_words(d)[1]
                              for i, d in rows if d)) if rows else set()
             for k, rows in texts.items()}
    names = {k: set(index.stems((index.stored(k) or {}).get("title", ""))) for k in named}
    scored = []
    for k, rows in texts.items():
        others = [o for o in named if o != k]
        for i, d in rows:
            if not d:
                continue
            stems = index.doc_words(d)[1]
            s = 0.0
            for o in others:
                if names[o] and names[o] <= stems:
                    s += config.interaction_name
                s += sum(index.idf(t) for t in stems & vocab[o]
                         if t not in names[k])
            scored.append((s, i))
    scored.sort(key=lambda t: -t[0])
    return [i for s, i in scored[:config.interaction_top] if s > 0]
