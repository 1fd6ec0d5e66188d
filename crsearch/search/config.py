"""The knobs of the ranking, in one place: ``RankingConfig``.

The Python stages read them, ``site build`` exports them as they are to the
browser's ranking module, and tests and benchmarks change the ranking by
passing another config, never by patching modules.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class RankingConfig:
    """How the lexical ranking weighs its evidence (see ``engine``)."""

    #: How many BM25 candidates are re-ranked (a question in a player's
    #: words re-ranks ``question_candidates``).
    candidates: int = 30
    question_candidates: int = 300
    #: Field weights of the BM25F query.
    field_boosts: dict[str, float] = field(default_factory=lambda: {
        "name": 4.0, "text": 1.0, "context": 0.6, "examples": 0.3})
    #: Share of documents above which a word is too common to retrieve with.
    common: float = 0.15
    #: Weight of "the result contains every word of the query".
    coverage: float = 1.0
    #: Weight of the share of a pasted passage's word pairs found in a rule.
    passage: float = 4.0
    #: How many of a passage's rarest words retrieve its candidates.
    passage_terms: int = 8
    #: Weight of the share of typed word pairs found side by side.
    adjacent: float = 0.5
    #: Bonus for the subrules of a keyword the query names.
    named: float = 0.4
    #: Bonus per subrule of a rule among the candidates (at most ``parent_max``),
    #: for a rule with at least ``parent_min`` of them.
    parent: float = 0.15
    parent_max: int = 4
    parent_min: int = 3
    #: Bonus of a result that has every "quoted phrase" of the query.
    phrase: float = 0.8
    #: Malus of a rule a pasted passage cites (the passage comes from another).
    cited: float = 1.0
    #: Malus of chapter and section headings among the word matches.
    chapter: float = 0.15
    #: Keywords named together ("deathtouch trample"): a subrule of one that
    #: names the other gets ``interaction_name``; the ``interaction_top`` best.
    interaction_name: float = 10.0
    interaction_top: int = 4
    #: How many places below a title rule one of its subrules may stand to
    #: move above it in a question's ranking.
    subrules_window: int = 3
    #: Malus of glossary entries for questions of several words.
    glossary_multi: float = 0.5
    #: Bonus of the rules a judge's topic names, each later rule a step less.
    topic: float = 1.0
    topic_step: float = 0.1
    #: Bonus of the rules a card that judges know as a rules topic decides.
    card: float = 0.8
    #: Share of a further topic's or card's bonus that a rule already lifted gets.
    again: float = 0.3
    #: Weight of a question's situation words ("copy", "leaves", "the stack").
    situation_weight: float = 1.5
    #: Questions shorter than this many content words keep the lexical ranking alone.
    semantic_min_terms: int = 4
    #: Weight of the cosine similarity when no learned fusion is used.
    semantic: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        """The knobs as JSON data (what the site's ranking module reads)."""
        return asdict(self)

    def but(self, **changes: Any) -> RankingConfig:
        """A copy with some knobs changed: ``DEFAULT.but(topic=0)``."""
        return replace(self, **changes)


#: The ranking crsearch ships.
DEFAULT = RankingConfig()
