"""The cards stage: what the cards a question names say, as evidence for the rules.

A judge's question turns on what its cards do: "Vedalken Shackles" means a
duration ("for as long as"), "Notion Thief" a replacement effect and drawing.
With card data imported (``crsearch.cards``), a :class:`CardLens` finds the
cards a question names (full names, possessives, faces, telling parts of
names: ``mentions.find``) and reads each card's Oracle text into rules terms
through a callback (the desk's ``explain``: keywords, keyword actions,
types, zones, counters, glossary terms and the kinds of ability, each with
its rule), so that this layer needs nothing above it.

:func:`evidence` weighs each term by the situation the question describes:
by its kind (a keyword says more than a card type), by whether the
question's own words name it ("protection"), and by how well the question's
words fit the term's rule or its subrules among the candidates.  What comes
out is one ``boosts.Named`` per card, which the boosts stage adds beside the
topics, the rules-famous cards table and the keywords a question names; the
learned fusion reads it as card evidence.  Without card data, or for a
question that names no card, nothing here runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.rules.text import words
from crsearch.search.boosts import Named
from crsearch.search.config import RankingConfig
from crsearch.search.query import ParsedQuery

#: The kinds of term that say little about a question: every card has one.
_WEAK_KINDS = frozenset(["card type", "supertype", "artifact type", "enchantment type",
                         "land type", "spell type", "battle type", "zone", "turn structure",
                         "game concept", "ability word"])
#: Readings of how an ability works that few cards have: each points to the
#: very rule that decides it ("for as long as" -> 611.2b), whatever words
#: the question uses.
_TELLING_KINDS = frozenset(["replacement effect", "duration", "restriction", "can't"])


class NamedCard(NamedTuple):
    """A card the question names, and the rules terms of its text."""

    name: str
    #: The words of the question that named it.
    typed: str
    text: str
    #: explain's terms of ``text``: span, text, term, id, kind.
    terms: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The ``cards`` entry of ``search --json``."""
        return {"name": self.name, "typed": self.typed, "text": self.text,
                "terms": [{k: t.get(k) for k in ("span", "text", "term", "id", "kind")}
                          for t in self.terms]}


class CardLens:
    """The imported card data as the search reads it.

    :param find: the mentions of cards in a text (``CardData.find_in_text``).
    :param terms: the rules terms of a card's text (the desk's explain terms).
    """

    def __init__(self, find: Callable[[str], list[Any]], terms: Callable[[str], list[dict[str, Any]]]):
        self._find = find
        self._terms = terms

    def named(self, text: str, config: RankingConfig) -> list[NamedCard]:
        """The cards ``text`` surely names (``Mention.strong``), each once, at most
        ``config.card_text_cards`` of them, with the terms of their text.  A
        later mention made of words of a card named before ("Shackles" after
        "Vedalken Shackles") is that card again."""
        out: list[NamedCard] = []
        for m in self._find(text):
            if not m.strong or m.card is None or any(c.name == m.name for c in out):
                continue
            typed = set(words(m.text))
            if any(typed <= set(words(c.name)) for c in out):
                continue
            body = m.card.text or ""
            out.append(NamedCard(m.name, m.text, body, self._terms(body) if body.strip() else []))
            if len(out) >= config.card_text_cards:
                break
        return out


def _weights(kind: str, config: RankingConfig) -> tuple[float, float]:
    """(how much a term of ``kind`` counts by itself, how much by the
    question's fit to its rule)."""
    if kind in _TELLING_KINDS:
        return config.card_text_telling, 1.0
    if kind == "keyword ability":
        return 0.0, 1.0
    if kind in _WEAK_KINDS:
        return 0.0, config.card_text_weak
    return 0.0, config.card_text_other


def _around(id: str) -> frozenset[str]:
    """``id`` and every rule, chapter and section it lies under (a glossary
    entry only itself)."""
    if id.startswith(GLOSSARY_PREFIX):
        return frozenset([id])
    try:
        return frozenset([id, *numbers.ancestors(id)])
    except ValueError:
        return frozenset([id])


def evidence(cards: list[NamedCard], q: ParsedQuery, scored: list[tuple[str, float]],
             stems: Callable[[str], list[str]], config: RankingConfig,
             known: Callable[[str], bool] = lambda name: False) -> list[Named]:
    """One ``Named`` per card: the rules its terms point to, each with a step
    (its weight for this question) and the card's words that led to it.

    A term's rule and its subrules among the candidates (``scored``: the
    lexical scores) count by how well the question's words fit them; a term
    the question's words name counts ``card_text_named`` times more.
    """
    if not cards or config.card_text <= 0:
        return []
    top = max((s for _, s in scored), default=0.0) or 1.0
    fit = {id: max(0.0, s) / top for id, s in scored}
    under: dict[str, list[str]] = {}  # rule -> the candidates that lie under it
    for id in fit:
        for outer in _around(id):
            under.setdefault(outer, []).append(id)
    asked = {s for w in q.terms for s in stems(w)}
    out = []
    for card in cards:
        if known(card.name):
            continue  # the rules-famous cards table names its rules
        steps: dict[str, tuple[float, str]] = {}
        for t in card.terms:
            rule = str(t.get("id") or "").split("#", 1)[0]
            if not rule:
                continue
            alone, by_fit = _weights(str(t.get("kind", "")), config)
            said = str(t.get("text") or t.get("term") or "")
            if asked and by_fit >= 1.0 and any(s in asked for w in said.lower().split() for s in stems(w)):
                alone, by_fit = max(alone, config.card_text_named), by_fit * 2
            targets = [(id, fit[id]) for id in under.get(rule, ())]
            if not any(id == rule for id, _ in targets):
                targets.append((rule, 0.0))
            for id, f in targets:
                step = (alone if id == rule else 0.0) + by_fit * f ** config.card_text_power
                if step > 0 and (id not in steps or step > steps[id][0]):
                    steps[id] = (step, said)
        if steps:
            best = sorted(steps.items(), key=lambda kv: -kv[1][0])[:config.card_text_rules]
            out.append(Named("card_text", card.name, config.card_text, tuple(id for id, _ in best),
                             steps=tuple(s for _, (s, _) in best),
                             says=tuple(w for _, (_, w) in best)))
    return out


__all__ = ["CardLens", "NamedCard", "evidence"]
