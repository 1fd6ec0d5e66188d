"""The glossary and the keyword chapters: ``define``, ``keyword``, ``keywords``.

Exact look-ups by name, forgiving what a judge types (case, plurals, a
dropped "Order", small typos), beside the model they read rather than
inside the search engine.  Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crsearch.errors import BadInput, NotFound, short
from crsearch.rules.suggest import did_you_mean, ranked
from crsearch.rules.text import norm_title

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from crsearch.rules.model import GlossaryEntry, Release, Rule

#: The chapters whose titled rules are keywords, and what each holds.
KEYWORD_CHAPTERS = {"701": "action", "702": "ability"}
#: How many "See X." steps ``see_chain`` follows (they never chain further).
SEE_STEPS = 3


def is_keyword_id(id: str) -> bool:
    """True for ids inside the keyword chapters (701.x, 702.x)."""
    return id.split(".", 1)[0] in KEYWORD_CHAPTERS and "." in id


def title_variants(typed: str) -> list[str]:
    """A typed title and its likely intended forms: plural dropped, "order" added."""
    t = norm_title(typed)
    out = [t]
    if t.endswith("s") and len(t) > 3:
        out.append(t[:-1])
    if t.endswith("es") and len(t) > 4:
        out.append(t[:-2])
    out.append(t + " order")       # "APNAP" -> "APNAP Order"
    return out


def define(release: Release, term: str,
           expand: Callable[[str], Sequence[str]] | None = None) -> GlossaryEntry:
    """The glossary entry for ``term`` (forgiving case, plural, typos).

    ``expand`` gives what a judge's shorthand stands for ("lki" -> "last
    known information"): tried after the term as typed, before typos.
    Raises ``BadInput`` for an empty term and ``NotFound`` (with the closest
    terms as suggestions) when nothing is close enough to be sure.
    """
    key = norm_title(term)
    if not key:
        raise BadInput("the term is empty: type a glossary term such as 'lethal damage'")
    table: dict[str, GlossaryEntry] = {}
    for g in release.glossary:
        for name in [g.term, *g.aliases]:
            table.setdefault(norm_title(name), g)
    for typed in [key, *(norm_title(x) for x in (expand(key) if expand else ()))]:
        for cand in title_variants(typed):
            if cand in table:
                return table[cand]
    unique = {g.id: g for n, g in table.items() if n.startswith(key)}
    if len(unique) == 1:
        return next(iter(unique.values()))
    close = ranked(key, table, cutoff=0.75)
    if close and (len(close) == 1 or close[0][1] >= 0.9):
        return table[close[0][0]]
    names = [table[c].term for c, _ in close] or [g.term for g in list(unique.values())[:5]]
    raise NotFound(f"{short(term)!r} is not in the glossary of the {release.effective_date} rules",
                   list(dict.fromkeys(names)))


def see_chain(release: Release, entry: GlossaryEntry) -> list[GlossaryEntry]:
    """``entry`` and the entries its "See X." definitions lead to, in order.

    "APNAP Order: See Active Player, Nonactive Player Order." gives both.
    """
    chain = [entry]
    while len(chain) < SEE_STEPS and chain[-1].see is not None:
        try:
            nxt = define(release, chain[-1].see or "")
        except (BadInput, NotFound):
            break
        if nxt in chain:
            break
        chain.append(nxt)
    return chain


def keyword_rule(rules: Iterable[Rule], name: str) -> Rule:
    """The keyword rule (701.x or 702.x) called ``name``, forgiving spelling.

    ``rules`` are the rules of the keyword chapters (``KEYWORD_CHAPTERS``).
    """
    return keyword_match(rules, name)[0]


def keyword_match(rules: Iterable[Rule], name: str) -> tuple[Rule, str]:
    """The keyword rule called ``name`` and the parameter typed after its
    name ("protection from white" -> 702.16 and "from white", "ward 2" ->
    ward and "2"; "" for none).  Each half of a title such as "Tap and
    Untap" names its rule too.  Raises ``NotFound`` with the closest
    titles as suggestions.
    """
    key = norm_title(name)
    if not key:
        raise BadInput("the keyword is empty: type one such as 'trample'")
    table: dict[str, Rule] = {}
    for r in rules:
        if r.kind == "rule" and r.title:
            title = norm_title(r.title)
            table.setdefault(title, r)
    halves = {half: r for t, r in table.items() if " and " in t for half in t.split(" and ")}
    for cand in title_variants(key):
        if cand in table:
            return table[cand], ""
        if cand in halves:
            return halves[cand], ""
    # The longest title the typed words start with: its parameter follows.
    for title in sorted(table, key=len, reverse=True):
        if key.startswith(title + " "):
            return table[title], " ".join(key.split()[len(title.split()):])
    close = ranked(key, table, cutoff=0.7)
    if close and close[0][1] >= 0.8:
        return table[close[0][0]], ""
    raise NotFound(f"{short(name)!r} is not a keyword ability or action",
                   [table[c].title or c for c in did_you_mean(key, table, cutoff=0.7)])


def keywords(rules: Iterable[Rule]) -> list[tuple[str, str]]:
    """(id, title) of every keyword action (701) and ability (702), in order."""
    return [(r.id, r.title) for r in rules if r.kind == "rule" and r.title]
