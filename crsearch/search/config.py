"""The knobs of the ranking, in one place: ``RankingConfig``.

The Python stages read them, ``site build`` exports them as they are to the
browser's ranking module, and tests and benchmarks change the ranking by
passing another config, never by patching modules.  The index build reads
the shipped config too (``DEFAULT``: field weights, BM25F parameters, what
is too common to retrieve with), through ``schema``.

A leaf (``records`` aside): standard library only, no I/O.  A plain class, not a dataclass:
every search imports it, and ``dataclasses`` making its 48 fields' methods
cost some 20 M instructions (~4 ms) of a search's start-up.
"""

from __future__ import annotations

from typing import Any

from crsearch.search.records import FrozenInstanceError

__all__ = ["DEFAULT", "FrozenInstanceError", "RankingConfig"]


class RankingConfig:
    """How the ranking weighs its evidence, stage by stage (see ``engine``).

    Every field is JSON data (``to_dict``); the names are what the site's
    ranking module reads, so they stay as they are.  Made with keywords
    (``RankingConfig(card=0.0)``, or the fields in order), compared field
    by field, never changed; the class attributes below are the defaults
    (a dict default is copied for each config).
    """

    # -- the exact layers (``exact``): each puts what it is sure of first --------
    #: Scores of the rule numbers named, the exact titles and the rules where
    #: two keywords meet; each further result of a layer ``tier_step`` less.
    number_tier: float = 1000.0
    title_tier: float = 500.0
    interaction_tier: float = 300.0
    tier_step: float = 0.01
    #: A title quoted in a pasted passage follows the passage's rule by this much.
    quoted_title_step: float = 0.001
    #: A pasted passage of at most this many words besides its quoted titles
    #: is mostly the title: the titled rule or chapter comes first.
    fragment_words: int = 3
    #: Keywords named together ("deathtouch trample"): a subrule of one that
    #: names the other gets ``interaction_name`` (plus the idf of the words
    #: they share); the ``interaction_top`` best are kept.
    interaction_name: float = 10.0
    interaction_top: int = 4

    # -- retrieve (``lexical``) ------------------------------------------------
    #: How many BM25 candidates are re-ranked (a question in a player's
    #: words re-ranks ``question_candidates``).
    candidates: int = 30
    question_candidates: int = 300
    #: Field weights of the BM25F query.
    field_boosts: dict[str, float] = {"name": 4.0, "text": 1.0, "context": 0.6, "examples": 0.3}
    #: Field weights of a pasted passage's query (its rarest words, any field).
    passage_fields: dict[str, float] = {"text": 1.0, "name": 1.0}
    #: How many of a passage's rarest words retrieve its candidates.
    passage_terms: int = 8
    #: BM25F parameters (the index's fast files hold scores computed with the
    #: shipped ones; other values send every full-text query to Whoosh).
    bm25_b: float = 0.75
    bm25_k1: float = 1.2
    #: Share of documents above which a word is too common to retrieve with.
    common: float = 0.15

    # -- features (``lexical``) --------------------------------------------------
    #: Weight of "the result contains every word of the query".
    coverage: float = 1.0
    #: Weight of a question's situation words ("copy", "leaves", "the stack")
    #: in that coverage.
    situation_weight: float = 1.5
    #: Weight of the share of a pasted passage's word pairs found in a rule.
    passage: float = 4.0
    #: Weight of the share of typed word pairs found side by side.
    adjacent: float = 0.5
    #: Bonus for the subrules of a keyword the query names ("ward counter spell").
    named: float = 0.4
    #: Bonus per subrule of a rule among a question's candidates (at most
    #: ``parent_max``), for a rule with at least ``parent_min`` of them
    #: ("when does a player lose the game": 104.3 over 104.3a, 104.3b ...).
    parent: float = 0.15
    parent_max: int = 4
    parent_min: int = 3
    #: Malus of glossary entries for questions of several words.
    glossary_multi: float = 0.5
    #: Bonus of a result that has every "quoted phrase" of the query.
    phrase: float = 0.8
    #: Malus of chapter and section headings among the full-text results.
    chapter: float = 0.15
    #: Malus of a rule that a pasted passage cites (a passage does not cite itself).
    cited: float = 1.0

    # -- tables (``tables``) -----------------------------------------------------
    #: Bonus of the rules a judge's topic names, each later rule ``topic_step`` less.
    topic: float = 1.0
    topic_step: float = 0.1
    #: Bonus of the rules a card that judges know as a rules topic decides.
    card: float = 0.8
    #: Share of a further topic's or card's bonus that a rule already lifted gets.
    again: float = 0.3

    # -- cards (``cardtext``; only with card data imported) -------------------
    #: Bonus of the rules the text of a card the question names uses, times
    #: each term's step for the question: ``card_text_telling`` for a reading
    #: few cards have (a replacement effect, a duration, a restriction,
    #: "can't") on its own rule, ``card_text_named`` for a term the question's
    #: words name; plus, for the term's rule and its subrules among the
    #: candidates, how well the question's words fit them (the lexical score
    #: over the best one's, to the power ``card_text_power``) times the
    #: kind's weight (1 for a keyword ability or a reading,
    #: ``card_text_other`` for a keyword action or a glossary term,
    #: ``card_text_weak`` for a type, zone or step), twice that when named.
    card_text: float = 0.3
    card_text_telling: float = 1.0
    card_text_named: float = 0.5
    card_text_other: float = 0.3
    card_text_weak: float = 0.1
    card_text_power: float = 2.0
    #: Share of those steps that the learned fusion reads as card evidence.
    card_text_fusion: float = 0.1
    #: At most this many cards of a question, and rules of a card, count.
    card_text_cards: int = 4
    card_text_rules: int = 8

    # -- fuse (``fusion``) -------------------------------------------------------
    #: Questions shorter than this many content words keep the lexical ranking alone.
    semantic_min_terms: int = 4
    #: Use the index's embeddings for those questions (else the lexical ranking alone).
    embeddings: bool = True
    #: Use the learned fusion weights (``data/fusion.json``); else the hand-set
    #: fusion: the lexical score over the best one's plus ``semantic`` times
    #: the cosine similarity.
    learned_fusion: bool = True
    semantic: float = 1.0
    #: A rule that is only a title (at most ``title_rule_words`` words) ranked
    #: at most ``subrules_window`` places above one of its subrules goes below it.
    title_rule_words: int = 4
    subrules_window: int = 3

    # -- present (``present``) -----------------------------------------------------
    #: Words in a result's snippet.
    snippet_words: int = 28

    def __init__(self, *args: Any, **knobs: Any) -> None:
        if len(args) > len(_KNOBS):
            raise TypeError(f"RankingConfig() takes at most {len(_KNOBS)} positional "
                            f"arguments ({len(args)} given)")
        given = dict(zip(_KNOBS, args))
        for name, value in knobs.items():
            if name not in _DEFAULTS:
                raise TypeError(f"RankingConfig() got an unexpected keyword argument {name!r}")
            if name in given:
                raise TypeError(f"RankingConfig() got multiple values for argument {name!r}")
            given[name] = value
        own = self.__dict__
        for name, default in _DEFAULTS.items():   # in field order: to_dict keeps it
            if name in given:
                own[name] = given[name]
            else:
                own[name] = dict(default) if type(default) is dict else default

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.__dict__ == other.__dict__

    #: Not hashable: configs hold dicts (``key`` is their stable text).
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RankingConfig({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    def to_dict(self) -> dict[str, Any]:
        """The knobs as JSON data (what the site's ranking module reads), in field order."""
        return {k: dict(v) if type(v) is dict else v for k, v in self.__dict__.items()}

    def but(self, **changes: Any) -> RankingConfig:
        """A copy with some knobs changed: ``DEFAULT.but(topic=0)``."""
        return RankingConfig(**{**self.__dict__, **changes})

    def key(self) -> str:
        """A stable text of every knob (configs are not hashable: they hold dicts)."""
        import json

        return json.dumps(self.to_dict(), sort_keys=True)


#: The knobs in field order, and their defaults.
_KNOBS: tuple[str, ...] = tuple(RankingConfig.__annotations__)
_DEFAULTS: dict[str, Any] = {name: getattr(RankingConfig, name) for name in _KNOBS}

#: The ranking crsearch ships.
DEFAULT = RankingConfig()
