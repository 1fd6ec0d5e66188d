"""The judges' and players' wording, and how it maps to the rules' wording.

One source of truth: the CLI's query parser reads these tables and the static
site exports them at build time (``tables()``), so the browser's search never
keeps a second hand-written copy.
"""

from __future__ import annotations

import functools
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


#: Player slang -> the rules' wording.  One table for the CLI and the site
#: (``tables()["slang"]``).  Keys are folded words (one or more); when a
#: question contains a key, the value's words join the query (they widen
#: the search and steer its meaning; the typed words stay).
SLANG = {
    "deck out": "draw a card from a library with no cards in it loses the game",
    "decked": "draw a card from a library with no cards in it loses the game",
    "decking": "draw a card from a library with no cards in it loses the game",
    "decks out": "draw a card from a library with no cards in it loses the game",
    "empty library": "library with no cards draw loses the game",
    "fizzle": "doesn't resolve all its targets illegal",
    "fizzles": "doesn't resolve all its targets illegal",
    "fizzled": "doesn't resolve all its targets illegal",
    "bounce": "return to its owner's hand",
    "bounced": "return to its owner's hand",
    "bounces": "return to its owner's hand",
    "blink": "exile return to the battlefield new object",
    "blinked": "exile return to the battlefield new object",
    "blinks": "exile return to the battlefield new object",
    "flicker": "exile return to the battlefield new object",
    "flickered": "exile return to the battlefield new object",
    "dies to": "put into a graveyard from the battlefield",
    "died to": "put into a graveyard from the battlefield",
    "yard": "graveyard",
    "gy": "graveyard",
    "goes to the yard": "put into a graveyard",
    "goes to the graveyard": "put into a graveyard",
    "on the stack": "stack spell ability",
    "in response": "respond priority stack",
    "respond": "priority stack",
    "priority pass": "players pass priority in succession",
    "another priority pass": "players pass priority in succession",
    "counters stay": "counters new object zone",
    "counter stay": "counters new object zone",
    "keep the counters": "counters new object zone",
    "mill": "put cards from the top of library into graveyard",
    "milled": "put cards from the top of library into graveyard",
    "milling": "put cards from the top of library into graveyard",
    "tutor": "search library for a card",
    "tutors": "search library for a card",
    "tutored": "search library for a card",
    "etb": "enters the battlefield",
    "etbs": "enters the battlefield",
    "ltb": "leaves the battlefield",
    "sac": "sacrifice",
    "sacs": "sacrifice",
    "sacced": "sacrifice",
    "saccing": "sacrifice",
    "pump": "gets +1/+1 until end of turn",
    "pumps": "gets +1/+1 until end of turn",
    "pumped": "gets +1/+1 until end of turn",
    "wrath": "destroy all creatures",
    "board wipe": "destroy all creatures",
    "boardwipe": "destroy all creatures",
    "sweeper": "destroy all creatures",
    "trample over": "trample assign excess damage player",
    "tramples over": "trample assign excess damage player",
    "chump": "block blocking creature",
    "chump block": "block blocking creature",
    "chump blocks": "block blocking creature",
    "steal": "gain control",
    "stole": "gain control",
    "stolen": "gain control",
    "summoning sick": "summoning sickness control continuously since most recent turn",
    "summoning sickness": "control continuously since most recent turn",
    "proc": "trigger",
    "procs": "trigger",
    "lifegain": "gain life",
    "concede": "concedes leaves the game",
    "concedes": "concedes leaves the game",
    "free for all": "multiplayer",
    "ffa": "multiplayer",
    "copy": "copy copiable values",
    "clone": "copy copiable values",
    "wears off": "effect ends duration",
    "falls off": "aura attached illegal state-based action",
    "go first": "starting player",
    "goes first": "starting player",
    "on the play": "starting player",
    "x spell": "x mana cost value",
    "commander tax": "commander cast from command zone additional {2}",
    "extra turn": "extra turn",
    "loop": "loop mandatory actions",
    "infinite": "loop",
    # Attacking, blocking and damage in players' words.
    "swing": "attack attacking creature",
    "swings": "attack attacking creature",
    "swung": "attack attacking creature",
    "swinging": "attack attacking creature",
    "go face": "attack player",
    "goes face": "attack player",
    "ping": "deals 1 damage",
    "pings": "deals 1 damage",
    "pinged": "deals 1 damage",
    "pinger": "deals 1 damage",
    "burn": "deals damage",
    "unblockable": "can't be blocked",
    "double block": "blocked by two creatures damage assignment",
    "double blocked": "blocked by two creatures damage assignment",
    "double blocks": "blocked by two creatures damage assignment",
    "gang block": "blocked by two creatures damage assignment",
    "combat trick": "instant during combat",
    "buff": "gets +1/+1",
    "debuff": "gets -1/-1",
    "removal": "destroy exile",
    "kill spell": "destroy target creature",
    # Casting, mana and lands.
    "flash in": "flash cast any time you could cast an instant",
    "flashed in": "flash cast any time you could cast an instant",
    "flashes in": "flash cast any time you could cast an instant",
    "tapped out": "untapped lands mana",
    "recast": "cast again new object",
    "dork": "creature mana ability",
    "mana dork": "creature mana ability",
    "ramp": "search library for a land put onto the battlefield",
    "fetch": "search library for a land sacrifice",
    "fetches": "search library for a land sacrifice",
    "fetchland": "search library for a land sacrifice",
    "fetch land": "search library for a land sacrifice",
    "shockland": "enters tapped pay 2 life",
    "shock land": "enters tapped pay 2 life",
    "topdeck": "top of library",
    "top deck": "top of library",
    "tuck": "put on the bottom of its owner's library",
    "tucked": "put on the bottom of its owner's library",
    # Older rules' words that players still type.
    "in play": "on the battlefield",
    "comes into play": "enters the battlefield",
    "came into play": "enters the battlefield",
    "come into play": "enters the battlefield",
    "put into play": "put onto the battlefield",
    "cip": "enters the battlefield",
    "removed from the game": "exile",
    "remove from the game": "exile",
    "rfg": "exile",
    "eot": "end step until end of turn",
    # Permanents and players.
    "legend rule": "two or more legendary permanents same name state-based action",
    "walker": "planeswalker",
    "walkers": "planeswalker",
    "pw": "planeswalker",
    "leaves play": "leaves the battlefield",
    "left play": "leaves the battlefield",
    "leave play": "leaves the battlefield",
    "opp": "opponent",
    "opps": "opponents",
    "unequip": "unattached equipment",
    "unequipped": "unattached equipment",
    "land drop": "play a land special action",
    "land drops": "play a land special action",
    "mull": "mulligan",
    "hard cast": "cast paying its mana cost",
    "hardcast": "cast paying its mana cost",
    "for free": "without paying its mana cost",
    "cast for free": "cast without paying its mana cost",
    "alt cost": "alternative cost",
    "cost reduction": "costs less to cast total cost",
    "cost reducer": "costs less to cast total cost",
    "colour": "color",
    "colours": "colors",
    "colourless": "colorless",
    "wipe": "destroy all creatures",
    "scoop": "concedes leaves the game",
    "scoops": "concedes leaves the game",
    "scooped": "concedes leaves the game",
}
#: Words that describe the situation a question is about: they weigh more
#: than the question's other words when ranking (``RankingConfig.situation_weight``).
SITUATION = frozenset([
    "copy", "copies", "copied", "leaves", "leave", "replacement", "replace", "counters",
    "counter", "stack", "response", "respond", "priority", "control", "controller", "owner",
    "zone", "exile", "exiled", "graveyard", "token", "tokens", "sacrifice", "cost", "costs",
    "target", "targets", "trigger", "triggers", "triggered", "resolve", "resolves", "layer",
    "layers", "timestamp", "dependency", "object", "face", "transform", "loses", "lose",
    "multiplayer", "simultaneously", "same", "order", "illegal", "prevent", "damage",
    "state", "loyalty", "commander", "mana", "value", "library", "draw", "cast"])
#: Words a player adds that say nothing about the rules ("my friend says").
FILLER = frozenset([
    "friend", "friends", "buddy", "says", "say", "said", "think", "thought", "thinks",
    "know", "right", "wrong", "really", "actually", "just", "mtg", "arena", "magic",
    "question", "wondering", "confused", "someone", "guy", "claims", "claim", "arguing",
    "keep", "still", "even", "though", "like", "get", "gets", "got", "also", "then",
    "now", "immediately", "way", "work", "works", "matter", "matters", "happen",
    "exactly", "something", "anything", "thing", "things", "ok", "okay", "please",
    "e", "g", "eg", "etc", "vs", "he", "she", "they", "them", "his", "her", "their", "him",
    "someone's", "big", "about", "use", "using", "used"])
#: First-person words: a query with them is a question, not a pasted rule.
FIRST_PERSON = frozenset(["i", "i'm", "im", "i've", "ive", "my", "me", "mine", "we", "our", "us"])


#: Words that make a question a question; they find nothing in the rules.
QUESTION_WORDS = frozenset(
    ["what", "whats", "when", "where", "which", "who", "whom", "why", "how", "does", "do", "did", "can", "could", "should", "would", "happens", "happen", "happened", "many", "much", "i", "my", "me", "we", "you", "your", "yours", "it", "its", "there"])


def known_words() -> frozenset[str]:
    """Every word the wording tables know as typed (slang, jargon, synonyms,
    question and filler words): the spelling corrector leaves them alone."""
    out = set(JARGON) | set(SYNONYMS) | FIRST_PERSON | QUESTION_WORDS | FILLER
    out.update(w for k in SLANG for w in k.split())
    return frozenset(out)


@functools.cache
def english_words() -> frozenset[str]:
    """An English word list (pyspellchecker's, MIT, some 160,000 words with
    their inflections), read on first use: only when the spelling corrector
    has a correction in mind for a word the rules do not use.  Empty when
    the package is missing (then only the rules' and the tables' words count)."""
    import gzip
    import json
    from importlib import resources

    try:
        data = resources.files("spellchecker").joinpath("resources/en.json.gz").read_bytes()
        return frozenset(json.loads(gzip.decompress(data)))
    except (ImportError, OSError, ValueError):
        return frozenset()


def slang_words() -> list[str]:
    """Every word the slang table knows, both sides (for the embeddings)."""
    return sorted({w for k, v in SLANG.items() for w in (*k.split(), *v.split())})


def tables() -> dict[str, Any]:
    """Every wording table as plain JSON-able data (for the site's search)."""
    from crsearch.rules.text import STOP_WORDS
    from crsearch.search.config import DEFAULT

    return {
        "jargon": dict(sorted(JARGON.items())),
        "synonyms": {k: list(v) for k, v in sorted(SYNONYMS.items())},
        "question_words": sorted(QUESTION_WORDS),
        "stop_words": sorted(STOP_WORDS),
        "slang": dict(sorted(SLANG.items())),
        "situation_words": sorted(SITUATION),
        "situation_weight": DEFAULT.situation_weight,
        "filler_words": sorted(FILLER),
        "first_person": sorted(FIRST_PERSON),
    }
