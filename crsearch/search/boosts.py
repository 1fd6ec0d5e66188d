"""The boosts stage: the judges' topics and the rules-famous cards a question
names lift the rules they point to.

``topics`` holds the topics (``data/topics.txt``) and ``cardtopics`` the
cards (``data/cards.txt``); an index keeps both ready (``fastindex``).  A
question whose cue words or card names match gets a bonus for each of
their rules (``RankingConfig.topic``, ``card``), and so do the rules where
the keywords a long question names meet (``exact.keywords_together``); rules the
words missed join the candidates.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from crsearch.rules.text import words
from crsearch.search.config import RankingConfig
from crsearch.search.fusion import Evidence
from crsearch.search.index import passes
from crsearch.search.query import ParsedQuery


class Tables:
    """The topics' cues and the cards table of one index, read on first use
    (from the index's ready copies when they are sound, else from data/)."""

    def __init__(self, fast: Any, stem: Callable[[str], str], has_id: Callable[[str], bool]):
        self._fast = fast
        self._stem = stem
        self._has_id = has_id
        self._lock = threading.Lock()
        self._cues: Any = None
        self._cards: Any = None
        #: The ready copies read (``fastindex.TableParts``), None when not used.
        self.topic_parts: Any = None
        self.card_parts: Any = None

    def cues(self) -> Any:
        """The topics' cues, stemmed (``topics.Cues``)."""
        if self._cues is None:
            with self._lock:
                if self._cues is None:
                    from crsearch.search.topics import Cues

                    ready = self._fast.table("topics") if self._fast is not None else None
                    self.topic_parts = ready
                    self._cues = (Cues.from_parts(ready.part, ready.letters, self._stem) if ready
                                  else Cues(self._stem, self._has_id))
        return self._cues

    def cards(self) -> Any:
        """The cards table (``cardtopics.CardTable``)."""
        if self._cards is None:
            with self._lock:
                if self._cards is None:
                    from crsearch.search.cardtopics import CardTable, table

                    ready = self._fast.table("cards") if self._fast is not None else None
                    self.card_parts = ready
                    self._cards = (CardTable(ready.part, ready.info["longest"]) if ready
                                   else CardTable.of(table()))
        return self._cards


class Named(NamedTuple):
    """One thing the question names that a table knows: a topic's cue, a card,
    or the keywords a long question names together, and the rules it points to;
    or a card the question names, with the rules its text uses (``cardtext``)."""

    why: str        # "topic", "card", "keywords" or "card_text"
    what: str       # the cue, the card's name, "deathtouch + trample"
    weight: float
    rules: tuple[str, ...]
    #: Each rule's share of ``weight``; empty: 1 for the first rule, each
    #: later one ``topic_step`` less.
    steps: tuple[float, ...] = ()
    #: For "card_text": the words of the card's text that led to each rule.
    says: tuple[str, ...] = ()


def named(tables: Tables, q: ParsedQuery, together: Sequence[str], keyword_titles: list[str],
          config: RankingConfig) -> list[Named]:
    """What the tables find in the query, in order: topics, then cards (for a
    question), then the keywords named together (``together``: the rules
    where they meet; ``keyword_titles``: their names)."""
    cues = tables.cues()
    seen = q.words + [w for _, v in q.slang for w in words(v)]
    hits = cues.found(seen, q.words)
    cards = tables.cards().found_in(q.text) if q.question else []
    if len(cards) >= 2:
        hits += _cards_together(cues, [name for name, _ in cards], hits)
    found = [Named("topic", cue, config.topic, topic.rules) for cue, topic in hits]
    found += [Named("card", name, config.card, tuple(rules)) for name, rules in cards]
    if together:
        found.append(Named("keywords", " + ".join(keyword_titles), config.topic, tuple(together)))
    return found


def _cards_together(cues: Any, names: list[str],
                    hits: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The topics, not among ``hits``, whose cue is the names of two or more
    of the rules-famous cards a question names ("humility opalescence":
    their interaction), though card names are no words of the question; a
    cue of one card's name is left to the cards table."""
    from crsearch.search.topics import cue_stems

    each = [cues.question_stems(words(name)) for name in names]
    return [(cue, topic) for cue, topic in cues.found([w for name in names for w in words(name)])
            if (cue, topic) not in hits
            and not any(cue_stems(cue, cues.stem) <= one for one in each)]


class Lifted(NamedTuple):
    """The boosts stage's output."""

    #: (id, score): the lexical scores with the bonuses, and the rules only
    #: the tables found after them.
    scores: list[tuple[str, float]]
    #: Per id, why its best bonus was given: {"topic": cue}, {"card": name},
    #: {"card_text": {"card": name, "words": "for as long as"}} ...
    why: dict[str, dict[str, Any]]
    #: Per id, the steps of its topics' and cards' bonuses (for the learned fusion).
    steps: dict[str, tuple[list[float], list[float]]]


def lift(q: ParsedQuery, scored: list[tuple[str, float]], found: list[Named], has_id: Callable[[str], bool],
         order: dict[str, int], config: RankingConfig) -> Lifted:
    """Each rule of what was ``found`` gets its bonus (a rule's later ones a
    share, ``again``); rules the words missed follow in rule order (``order``),
    unless the query has a "quoted phrase" (it must appear as written)."""
    given: dict[str, list[float]] = {}
    label: dict[str, tuple[float, str, Any]] = {}  # the best bonus names the reason
    steps: dict[str, tuple[list[float], list[float]]] = {}
    for hit in found:
        if hit.weight <= 0:
            continue  # switched off
        kept = [(n, r) for n, r in enumerate(hit.rules) if has_id(r)]
        for n, (at, id) in enumerate(kept):
            step = hit.steps[at] if hit.steps else max(0.0, 1.0 - config.topic_step * n)
            b = hit.weight * step
            if id not in given:
                if not passes(id, q.filters):
                    continue
                given[id] = []
            if id not in label or b > label[id][0]:
                what: Any = {"card": hit.what, "words": hit.says[at]} if hit.says else hit.what
                label[id] = (b, hit.why, what)
            given[id].append(b)
            if hit.why == "card_text":
                # Noisier than the table's cards: a share of the step.
                step *= config.card_text_fusion
                if step <= 0:
                    continue
            topics, cards = steps.setdefault(id, ([], []))
            (cards if hit.why in ("card", "card_text") else topics).append(step)
    if not given:
        return Lifted(scored, {}, {})
    # The best bonus, and a share of the others: more evidence, in any order.
    bonus = {id: max(bs) + config.again * (sum(bs) - max(bs)) for id, bs in given.items()}
    out = [(id, s + bonus.pop(id, 0.0)) for id, s in scored]
    if not q.phrases:  # a typed "quoted phrase" must appear as written
        # In rule order, so that ties rank alike here and on the site.
        out.extend(sorted(bonus.items(), key=lambda t: order.get(t[0], 0)))
    return Lifted(out, {id: {why: what} for id, (_, why, what) in label.items()}, steps)


def with_steps(evidence: dict[str, Evidence], steps: dict[str, tuple[list[float], list[float]]]
               ) -> dict[str, Evidence]:
    """The lexical evidence with the tables' bonus steps (a rule the words
    missed gets evidence of its own)."""
    out = dict(evidence)
    for id, (topics, cards) in steps.items():
        e = out.get(id) or Evidence()
        out[id] = e.replace(topics=[*e.topics, *topics], cards=[*e.cards, *cards])
    return out
