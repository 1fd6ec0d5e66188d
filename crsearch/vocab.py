"""The judges' and players' wording, and how it maps to the rules' wording.

One source of truth: the CLI's query parser reads these tables and the static
site exports them at build time (``tables()``), so the browser's search never
keeps a second hand-written copy.
"""

from __future__ import annotations

from typing import Any

#: Judges' shorthand the rules never spell out, expanded before searching.
JARGON = {
    "lki": "last known information",
    "sba": "state-based actions",
    "sbas": "state-based actions",
    "etb": "enters",
    "etbs": "enters",
    "ltb": "leaves the battlefield",
    "cmc": "mana value",
    "mv": "mana value",
    "pt": "power toughness",
    "edh": "commander",
    "2hg": "two-headed giant",
    "apnap": "apnap order",
    "cda": "characteristic-defining ability",
    "ftk": "first strike",
}
#: Plain words a judge types for what the rules say another way.  Each adds
#: alternative wordings (all of whose words a rule must have) to the query
#: word; they widen the search, they never replace what was typed.
SYNONYMS = {
    "die": ["put into a graveyard from the battlefield"],
    "dies": ["put into a graveyard from the battlefield"],
    "died": ["put into a graveyard from the battlefield"],
    "dying": ["put into a graveyard from the battlefield"],
    "empty": ["no cards"],
    "kill": ["destroy"],
    "killed": ["destroyed"],
    "lose": ["loses"],
    "first": ["active player"],
    "simultaneously": ["same time"],
    "flip": ["transform"],
    "bounce": ["return to its owner's hand"],
    "mill": ["put from library into graveyard"],
    "summon": ["cast"],
}


#: Words that make a question a question; they find nothing in the rules.
QUESTION_WORDS = frozenset(
    ["what", "whats", "when", "where", "which", "who", "whom", "why", "how", "does", "do", "did", "can", "could", "should", "would", "happens", "happen", "happened", "many", "much", "i", "my", "me", "we", "you", "your", "yours", "it", "its", "there"])


def tables() -> dict[str, Any]:
    """Every wording table as plain JSON-able data (for the site's search)."""
    from crsearch.text import STOP_WORDS

    return {
        "jargon": dict(sorted(JARGON.items())),
        "synonyms": {k: list(v) for k, v in sorted(SYNONYMS.items())},
        "question_words": sorted(QUESTION_WORDS),
        "stop_words": sorted(STOP_WORDS),
    }
