"""Explain a card's text: find the rules terms it uses, with their rules.

A judge at the table pastes a card's rules text and wants the rules behind
its words.  The terms come from the stored release, never from a list typed
here: the keyword actions and abilities are the titles of 701.x and 702.x,
card types, zones, steps and game concepts are the chapter titles of
sections 1, 3, 4 and 5, subtypes and supertypes are read from the lists in
205.3 and 205.4a, ability words from 207.2c, and every other term from the
glossary.  The definitions are the glossary's (the sense that cites the
term's rule) or the first sentence of the rule.  What is written by hand is
small: how English inflects (``lemma``), a few aliases the rules spell
another way ("upkeep" is the upkeep step), the words too general to explain
(``GENERIC``), and how to tell apart meanings that share a word ("a quest
counter" is a marker, "counter target spell" the keyword action).

Besides the words, ``find`` reads the abilities (``abilities``): triggered,
activated, mana and loyalty abilities, replacement effects, restrictions,
durations and "can't", each with the rule it follows.

Some terms are everyday words too ("world", "basic", "book").  They count
only where a card would use them: a supertype is printed directly before a
type (205.4a), so it counts before a card type, subtype, supertype or a word
for a typed object ("legendary creature", "basic land", "snow permanent"),
or said of an object ("it's legendary"); a subtype is a proper noun on cards,
so it counts only capitalized ("a Food token", not "food").  "Hello world"
has no terms.

The term table is built once per release and cached next to it
(``explain-terms.json``); ``export`` gives the same table to the site, whose
``explain.js`` runs the same matching in the browser.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from crsearch.desk import abilities
from crsearch.desk.abilities import READING_KINDS
from crsearch.rules.glossary import KEYWORD_CHAPTERS, is_keyword_id
from crsearch.store.caches import ReleaseCache

#: Bump when the table's shape or the hand-written tables below change, so
#: cached tables are rebuilt.
FORMAT = 9
CACHE_NAME = "explain-terms.json"
MAX_TEXT = 20_000  # characters: a card's text is a few hundred

#: Glossary names too general to be worth a pop-up on a card: every card has
#: them, and their definitions teach nothing at the table.
GENERIC = frozenset([
    "you", "your", "if", "unless", "instead", "card", "object", "player", "effect", "spell",
    "ability", "name", "type", "color", "move", "event", "option", "status", "pile", "match",
    "step", "phase", "team", "mana", "deal", "pay", "cost", "owner", "control", "controller",
    "opponent", "number", "general", "becomes", "rules text", "text box", "wall", "y",
    "abilities", "spells", "cards", "players", "objects", "colors", "costs", "lock",
])

#: Phrases the rules spell another way: surface form -> the term's name as
#: the release has it (a chapter title, rule title or glossary term).
ALIASES = {
    "upkeep": "Upkeep Step",
    "beginning of combat": "Beginning of Combat Step",
    "end of combat": "End of Combat Step",
    "combat": "Combat Phase",
    "first main phase": "Precombat Main Phase",
    "second main phase": "Postcombat Main Phase",
    "phase out": "Phasing",
    "phase in": "Phasing",
    "phased out": "Phasing",
    "phased in": "Phasing",
    "double faced": "Double-Faced Cards",
    "double faced card": "Double-Faced Cards",
    "the ring tempts you": "The Ring Tempts You",
    "venture into the dungeon": "Venture into the Dungeon",
    "{T}": "Tap Symbol",
    "{Q}": "Untap Symbol",
    "{E}": "Energy Symbol",
}

#: Irregular forms, to their base word.
IRREGULAR = {
    "dies": "die", "died": "die", "dying": "die", "drew": "draw", "drawn": "draw",
    "fought": "fight", "paid": "pay", "dealt": "deal", "chose": "choose", "chosen": "choose",
    "lost": "lose", "won": "win", "left": "leave", "began": "begin", "begun": "begin",
    "took": "take", "taken": "take", "gave": "give", "given": "give", "cast": "cast",
    "casts": "cast", "countered": "counter", "this": "this", "was": "was", "has": "has",
    "is": "is", "its": "its", "his": "his", "as": "as", "us": "us", "less": "less",
    "unless": "unless", "status": "status", "bonus": "bonus", "plus": "plus",
    "exiled": "exile", "cards": "card", "surveilled": "surveil", "surveilling": "surveil",
}

#: Words after "counter" that make it the keyword action, not a marker.
COUNTER_VERB_NEXT = frozenset([
    "target", "that", "it", "them", "those", "all", "each", "up", "the", "this", "any",
    "another", "spell", "spells", "ability", "abilities", "noncreature", "creature",
    "instant", "sorcery", "enchantment", "artifact", "activated", "triggered", "x",
])
COUNTER_VERB_PREV = frozenset(["may", "to", "can't", "cannot", "then", "and", "or", "can",
                               "you", "don't", "doesn't", "would"])
#: The kinds of the types a card's type line holds, and of subtypes.
SUBTYPE_KINDS = frozenset(["artifact type", "enchantment type", "land type", "spell type",
                           "battle type"])
TYPE_KINDS = SUBTYPE_KINDS | {"card type", "supertype"}
#: Words for typed objects a supertype may stand before ("snow permanent").
TYPED_NOUNS = ("permanent", "card", "spell", "token", "source", "object", "mana")
#: Words before a supertype said of an object ("if it's legendary").
PREDICATES = frozenset(["is", "are", "isn't", "aren't", "it's", "that's", "was", "were",
                        "becomes", "become", "isn’t", "aren’t", "it’s", "that’s"])
#: Words before "exile" that make it the zone, not the keyword action.
EXILE_ZONE_PREV = frozenset(["in", "from", "into", "to", "the", "of"])
#: Words before "counter" that are not the counter's kind ("a counter").
NOT_A_KIND = frozenset([
    "a", "an", "the", "that", "no", "each", "all", "any", "of", "x", "additional", "another",
    "more", "those", "its", "his", "her", "their", "these", "this", "those", "many", "one",
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twice", "and",
    "or", "with", "put", "remove", "number", "kind", "kinds", "type", "same", "less", "fewer",
    "put", "on", "from", "for", "then", "may", "target", "twenty", "half", "single",
])

_TOKEN = re.compile(
    r"\{[^{}\s]{1,8}\}"                     # a symbol: {T}, {2}, {G/U}
    r"|[+\-\u2212]?[0-9X]+/[+\-\u2212]?[0-9X]+"  # +1/+1, -1/-1, 2/2
    r"|[^\W_]+(?:['\u2019][^\W_]+)*"        # a word, with inner apostrophes
    r"|[\u2014\u2013]"                       # an em or en dash
)


# -- words ------------------------------------------------------------------

def lemma(word: str) -> str:
    """A word's key: the same for its inflections ("sacrifices", "sacrificed",
    "sacrificing" and "sacrifice" all give "sacrific")."""
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    suffix = False
    if w in IRREGULAR:
        w = IRREGULAR[w]
    elif len(w) > 3 and w.isalpha():
        if w.endswith(("ies", "ied")) and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        elif w.endswith("ing") and len(w) > 5:
            w, suffix = w[:-3], True
        elif w.endswith("ed") and len(w) > 4:
            w, suffix = w[:-2], True
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    # "tapped" is tap, but "milled" stays mill and "roll" is not "role".
    if suffix and len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeioulsz":
        w = w[:-1]
    return w


def tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, key) of each word or symbol of ``text``."""
    out = []
    for m in _TOKEN.finditer(text):
        t = m.group()
        key = t.upper() if t.startswith("{") else lemma(t) if t[0].isalpha() else t
        out.append((m.start(), m.end(), key))
    return out


def key_of(name: str) -> str:
    """The lookup key of a term's name: its words' lemmas, space-separated."""
    return " ".join(k for _, _, k in tokens(name))


# -- building the term table --------------------------------------------------

# The patterns of building the table are compiled when a table is built: a
# card or question explained from the cached table never needs them.


@functools.cache
def _see() -> re.Pattern[str]:
    """A definition's pointers ("See rule 701.21, “Sacrifice.”") and what
    follows them: not meaning."""
    return re.compile(r"\s*\bSee (?:also )?(?:rules?\b|sections?\b|“).*$", re.DOTALL)


def short_definition(text: str, limit: int = 240) -> str:
    """The first sentences of a definition, without "See rule ..." pointers."""
    text = _see().sub("", text.replace("\n", " ")).strip()
    text = re.sub(r"\s+", " ", text)
    if len(text) <= limit:
        return text
    out = ""
    for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z“\"(])", text):
        if out and len(out) + len(sent) + 1 > limit:
            break
        out = f"{out} {sent}".strip()
    if len(out) > limit:
        out = out[: limit - 1].rstrip() + "…"
    return out


#: An item of such a list: its name, and the rule it points to.
_LIST_ITEM = r"^(?P<name>[^(]+?)\s*(?:\(see rules? (?P<rule>[0-9][0-9.a-z]*)\))?$"


def _list_after(text: str, marker: str) -> list[tuple[str, str | None]]:
    """The items of a list "The X types are A, B (see rule N), and C." in 205.3."""
    pos = text.find(marker)
    if pos < 0:
        return []
    body = text[pos + len(marker):]
    body = body.split(". ", 1)[0].rstrip(".")
    items = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", body):
        part = part.strip()
        m = re.match(_LIST_ITEM, part)
        if m and m["name"] and len(m["name"]) < 40:
            items.append((m["name"].strip(), m["rule"]))
    return items


class _Table:
    """Collects meanings under their keys while the table is built."""

    def __init__(self) -> None:
        self.meanings: dict[str, dict[str, Any]] = {}  # id -> meaning
        self.sources: dict[str, str] = {}  # definition -> where it was read
        self.keys: dict[str, list[str]] = {}           # key -> ids, best first

    def add(self, name: str, id: str, kind: str, definition: str, *, surface: str | None = None,
            params: str = "", front: bool = False) -> None:
        key = surface if surface is not None else key_of(name)
        if not key or name.lower() in GENERIC or key in GENERIC:
            return
        if id in self.meanings and self.meanings[id]["term"].lower() != name.lower():
            # Another name of the same rule ("Untap" in 701.26 "Tap and Untap"):
            # its own entry, with its own definition.
            id = f"{id}#{key}"
        m = self.meanings.setdefault(id, {"id": id, "term": name, "kind": kind,
                                          "definition": definition, "params": params,
                                          "source": self.sources.get(definition, id)})
        if definition and not m["definition"]:
            m["definition"] = definition
        if params and not m["params"]:
            m["params"] = params
        ids = self.keys.setdefault(key, [])
        if id not in ids:
            ids.insert(0, id) if front else ids.append(id)


def _param_shape(rule_id: str, title: str, subrules: list[Any]) -> str:
    """How a keyword's parameters are written, read from its rule's quoted forms.

    Returns letters: "n" (a number), "c" (a cost), "d" (a dash and text),
    "f"/"o"/"w"/"a"/"e" (words after "from", "for"/"onto", "with", "a"/"an",
    or the rest of the line for Enchant).
    """
    shape = ""
    name = re.escape(title.split(" (")[0])
    pat = re.compile(rf"\b{name}\s*((?:N|X)\b[^”]*|\[cost\][^”]*|—[^”]*|"
                     r"(?:from|for|onto|with|an?) \[[^”]*|\[(?:object|quality)[^”]*)",
                     re.IGNORECASE)
    for r in subrules:
        for m in pat.finditer(r.text):
            rest = m.group(1)
            if re.match(r"(?:N|X)\b", rest):
                shape += "n"
            if "[cost]" in rest.lower():
                shape += "c"
            if rest.startswith("—") or re.match(r"(?:N|X)—", rest):
                shape += "d"
            for word, letter in (("from", "f"), ("for", "o"), ("onto", "o"), ("with", "w"),
                                 ("a", "a"), ("an", "a")):
                if re.match(rf"{word} \[", rest):
                    shape += letter
            if rest.startswith("[object"):
                shape += "e"
    return "".join(sorted(set(shape)))


def build(release: Any) -> dict[str, Any]:
    """The term table of a release: meanings by id, and ids by lookup key.

    Plain JSON-able data (the cache and the site's ``explain-terms.js``).
    """
    from crsearch.rules.refs import cited_ids

    t = _Table()
    rules = {r.id: r for r in release.rules}
    children: dict[str, list[Any]] = {}
    for r in release.rules:
        if r.kind == "subrule":
            children.setdefault(r.id.rstrip("abcdefghijkmnpqrstuvwxyz"), []).append(r)
    glossary: dict[str, Any] = {}
    for g in release.glossary:
        if g.obsolete:
            continue
        for name in [g.term, *g.aliases]:
            glossary.setdefault(key_of(name), g)

    def gloss_def(key: str, id: str) -> str:
        g = glossary.get(key)
        if g is None:
            return ""
        if g.senses:
            for sense in g.senses:
                if re.search(rf"\b(?:rules?|section) {re.escape(id)}\b", sense):
                    return cite(short_definition(sense), g.id)
            return ""
        return cite(short_definition(g.text), g.id)

    def cite(text: str, source: str) -> str:
        t.sources.setdefault(text, source)
        return text

    def rule_def(id: str) -> str:
        first = children.get(id, [])
        for r in first:
            text = short_definition(r.text)
            if not re.fullmatch(r"[\w\s’'-]+ is an? (?:static|triggered|activated|"
                                r"spell|keyword)[^.]*\.", text):
                return cite(text, r.id)
        r = rules.get(id)
        return cite(short_definition(r.text), id) if r is not None and not r.title else ""

    # Keyword actions and abilities: the titles of 701.x and 702.x.
    for r in release.rules:
        if r.kind != "rule" or r.chapter not in KEYWORD_CHAPTERS or not r.title:
            continue
        kind = "keyword action" if r.chapter == "701" else "keyword ability"
        title = r.title.split(" (")[0]
        names = [n.strip() for n in re.split(r"\band\b", title)] if " and " in title and \
            r.chapter == "702" else [title]
        if title == "Tap and Untap":
            names = ["Tap", "Untap"]
        shape = _param_shape(r.id, title, children.get(r.id, []))
        if not shape and r.chapter == "702":
            shape = "b"  # a mana cost right after it ("Foretell {1}{U}")
        for name in names:
            key = key_of(name)
            if not key:
                continue
            t.add(name, r.id, kind, gloss_def(key, r.id) or rule_def(r.id), params=shape)

    # Card types, zones, steps and phases, game concepts: chapter titles.
    kinds = {"1": "game concept", "3": "card type", "4": "zone", "5": "turn structure"}
    for c in release.chapters:
        if c.section not in kinds or c.title.lower() == "general":
            continue
        key = key_of(c.title)
        # Named as the glossary names it: "Target", not the chapter's "Targets".
        name = glossary[key].term if key in glossary else c.title
        definition = gloss_def(key, c.id)
        if not definition:
            first = rules.get(f"{c.id}.1")
            definition = cite(short_definition(first.text), first.id) if first is not None else ""
        t.add(name, c.id, "counter" if key == "counter" else kinds[c.section], definition)

    # Supertypes and subtypes: the lists in 205.4a and 205.3.
    for rid, marker, kind in (("205.4a", "The supertypes are ", "supertype"),
                              ("205.3g", "The artifact types are ", "artifact type"),
                              ("205.3h", "The enchantment types are ", "enchantment type"),
                              ("205.3i", "The land types are ", "land type"),
                              ("205.3k", "The spell types are ", "spell type"),
                              ("205.3q", "That battle type is ", "battle type")):
        r = rules.get(rid)
        if r is None:
            continue
        for name, see in _list_after(r.text, marker):
            key = key_of(name)
            # The rule the list points to, else the glossary's one rule, else the list.
            cited = cited_ids(glossary[key]) if key in glossary else []
            target = (see if see is not None and see in rules
                      else cited[0] if len(cited) == 1 else rid)
            definition = gloss_def(key, target) or (
                cite(short_definition(glossary[key].text), glossary[key].id)
                if key in glossary else "")
            t.add(name[0].upper() + name[1:], target, kind, definition or short_definition(r.text))
    # The counters whose kind the rules name: +X/+Y counters and keyword counters.
    for r in children.get("122.1", []):
        if "+X/+Y counter" in r.text:
            t.add("+X/+Y counter", r.id, "counter", short_definition(r.text), surface="+N/+N counter")
        if "keyword counter" in r.text:
            t.add("keyword counter", r.id, "counter", short_definition(r.text),
                  surface="KEYWORD counter")
    # Ability words (207.2c): only before a dash, where they are printed.
    aw = rules.get("207.2c")
    if aw is not None:
        words = _list_after(aw.text, "The ability words are ")
        defn = gloss_def(key_of("Ability Word"), "207.2c") or short_definition(aw.text)
        for name, _ in words:
            if not re.search(r"\d", name):
                t.add(name, "207.2c#" + key_of(name), "ability word", defn,
                      surface=key_of(name) + " —")

    # Everything else: the glossary.
    pointers: list[tuple[str, str]] = []
    for g in release.glossary:
        if g.obsolete:
            continue
        pointer = re.fullmatch(r"See “?([^.”]+)\.?”?\.?", g.text.strip())
        if pointer:  # "Swampwalk: See Landwalk." is landwalk
            pointers += [(name, pointer.group(1)) for name in [g.term, *g.aliases]]
            continue
        targets = cited_ids(g)
        for name in dict.fromkeys([g.term, *g.aliases]):
            key = key_of(name)
            if not key or name.lower() in GENERIC:
                continue
            known = [i for i in t.keys.get(key, []) if not i.startswith("glossary:")]
            if known:
                continue  # a keyword, chapter or subtype already has this name
            id = targets[0] if len(targets) == 1 else "glossary:" + g.term
            surface = None
            if " " not in name and name.lower().endswith("ed") and lemma(name) != name.lower():
                # "Constructed" (a format) must not catch "Construct" (a creature
                # type): participles match only as written.
                surface = "=" + name.lower()
            t.add(name, id, "glossary term", cite(short_definition(g.text), g.id),
                  surface=surface)
    for name, target in pointers:
        ids = t.keys.get(key_of(target))
        key = key_of(name)
        if ids and key and name.lower() not in GENERIC:
            t.keys.setdefault(key, []).append(ids[0])

    # Aliases: surface forms the rules spell another way.
    by_name: dict[str, str] = {}
    for m in t.meanings.values():
        by_name.setdefault(m["term"].lower(), m["id"])
    for g in release.glossary:
        by_name.setdefault(g.term.lower(), "glossary:" + g.term)
    for r in release.rules:
        if r.chapter in KEYWORD_CHAPTERS and r.kind == "rule" and r.title:
            by_name.setdefault(r.title.lower(), r.id)
    for c in release.chapters:
        by_name.setdefault(c.title.lower(), c.id)
    for surface, name in ALIASES.items():
        id = by_name.get(name.lower())
        if id is None:
            continue
        if id not in t.meanings:
            g = next((g for g in release.glossary if g.term.lower() == name.lower()), None)
            defn = cite(short_definition(g.text), g.id) if g is not None else rule_def(id)
            t.add(name, id, "glossary term", defn,
                  surface=surface if surface.startswith("{") else key_of(surface))
        else:
            key = surface if surface.startswith("{") else key_of(surface)
            ids = t.keys.setdefault(key, [])
            if id not in ids:
                ids.insert(0, id)
    type_words = {k for k, ids in t.keys.items() if " " not in k
                  and any(t.meanings[x]["kind"] in TYPE_KINDS for x in ids)}
    type_words |= {key_of(n) for n in TYPED_NOUNS}
    land_types = sorted({key_of(n) for n, _ in _list_after(
        rules["205.3i"].text, "The land types are ")} if "205.3i" in rules else set())
    landwalk = next((m["id"] for m in t.meanings.values() if m["term"] == "Landwalk"), None)
    cycling = next((m["id"] for m in t.meanings.values() if m["term"] == "Cycling"), None)
    return {
        "format": FORMAT,
        "release": release.effective_date,
        "meanings": dict(sorted(t.meanings.items())),
        "keys": dict(sorted(t.keys.items())),
        "land_types": land_types,
        "landwalk": landwalk,
        "cycling": cycling,
        "max_words": max((len(k.split(" ")) for k in t.keys), default=1),
        "type_words": sorted(type_words),
        "readings": abilities.build(release, short_definition),
        "face_break": abilities.FACE_BREAK,
    }


# -- the table for a stored release --------------------------------------------

# The table is checked against the stored release it sits beside.
_CACHE = ReleaseCache(CACHE_NAME, lambda release: build(release),
                      lambda data, stored: table_problem(data, stored.effective_date))


def table_for(stored: Any) -> dict[str, Any]:
    """The term table of a stored release, from its cache (built on first use,
    and again when the cache is damaged)."""
    return _CACHE.get(stored)


def cache_problem(stored: Any) -> str | None:
    """What is wrong with the cached term table beside ``stored`` (None: nothing,
    or no cache yet): what ``crsearch repair`` rebuilds it for."""
    return _CACHE.problem(stored)


def write_cache(stored: Any, release: Any) -> None:
    """Build the term table of ``release`` and cache it beside ``stored`` (OSError when it cannot)."""
    _CACHE.write(stored, release)


_MEANING_FIELDS = ("id", "term", "kind", "definition", "params", "source")
_READING_FIELDS = ("group", "term", "kind", "id", "definition", "pattern")


def table_problem(data: Any, release: str) -> str | None:
    """What makes ``data`` unusable as the term table of ``release`` (None: nothing).

    Every field that :func:`find` reads is checked, so that a cache of
    another shape is rebuilt instead of failing in the middle of a search.
    """
    if not isinstance(data, dict):
        return f"a {type(data).__name__}, not a term table"
    if data.get("format") != FORMAT:
        return "made by another version of crsearch"
    if data.get("release") != release:
        return "not the table of this release"
    meanings, keys = data.get("meanings"), data.get("keys")
    if not isinstance(meanings, dict) or not all(
            isinstance(m, dict) and m.get("id") == id and all(isinstance(m.get(f), str) for f in _MEANING_FIELDS)
            for id, m in meanings.items()):
        return "damaged meanings"
    if not isinstance(keys, dict) or not all(
            isinstance(k, str) and isinstance(ids, list) and ids and all(
                isinstance(i, str) and i in meanings for i in ids)
            for k, ids in keys.items()):
        return "damaged keys"
    land_types, max_words = data.get("land_types"), data.get("max_words")
    if not isinstance(land_types, list) or not all(isinstance(t, str) for t in land_types):
        return "damaged land types"
    if any(data.get(k) is not None and data.get(k) not in meanings for k in ("landwalk", "cycling")):
        return "damaged keyword ids"
    if type(max_words) is not int or max_words < 1:
        return "damaged word count"
    type_words = data.get("type_words")
    if not isinstance(type_words, list) or not all(isinstance(w, str) for w in type_words):
        return "damaged type words"
    readings = data.get("readings")
    if not isinstance(readings, list) or not all(
            isinstance(r, dict) and all(isinstance(r.get(f), str) for f in _READING_FIELDS)
            and isinstance(r.get("drop"), list) for r in readings):
        return "damaged readings"
    if not isinstance(data.get("face_break"), str):
        return "damaged face break"
    return None


def export(release: Any) -> dict[str, Any]:
    """The site's offline explain page data (``explain-terms.js``): the term
    table with the readings' patterns, each meaning's and reading's URL on the
    site, and the hand-written tables that ``explain.js`` needs to match
    exactly as ``find`` does."""
    from crsearch.urls import Urls

    table = build(release)
    urls = Urls(release)
    link: dict[str, str] = {}
    for m in table["meanings"].values():
        id = m["id"].split("#", 1)[0]
        if urls.exists(id):
            link[m["id"]] = urls.url_for(id)
    for r in table["readings"]:
        if urls.exists(r["id"]):
            link[r["id"]] = urls.url_for(r["id"])
    return {**table, "urls": link, "irregular": IRREGULAR,
            "counter_verb_next": sorted(COUNTER_VERB_NEXT),
            "counter_verb_prev": sorted(COUNTER_VERB_PREV),
            "exile_zone_prev": sorted(EXILE_ZONE_PREV), "not_a_kind": sorted(NOT_A_KIND),
            "subtype_kinds": sorted(SUBTYPE_KINDS), "predicates": sorted(PREDICATES),
            "reading_kinds": list(READING_KINDS)}


def site_files(release: Any) -> dict[str, bytes]:
    """The explain page's data file for ``site.render`` (the page itself is a template)."""
    data = json.dumps(export(release), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return {"explain-terms.js": f"window.CRSEARCH_EXPLAIN={data};\n".encode()}


# -- finding terms ----------------------------------------------------------------

# A keyword's parameters, by shape; each pattern is compiled when a text
# first has a keyword of its shape (``_param``).
_PARAM_N = r"[ \u00a0]+(?:[0-9]+|X)\b"
_PARAM_COST = r"[ \u00a0]*(?:\{[^{}\s]{1,8}\})+"
_PARAM_DASH = r"[ \u00a0]*[\u2014\u2013][ \u00a0]*[^.:\r\n(]+"
_PARAM_WORDS = {
    "f": r"[ \u00a0]+from [^,.;:\n(]+?(?:(?: and|,)(?: from)? [^,.;:\n(]+?)*(?=$|[,.;:\n(]| and [a-z]+ )",
    "o": r"[ \u00a0]+(?:for|onto) [\w’'-]+",
    "w": r"[ \u00a0]+with [^{\n.,(]+?(?= ?[{(]|$|[\n.,])",
    "a": r"[ \u00a0]+an? [\w’'-]+(?: [\w’'-]+)?(?=$|[,.;:\n(])",
    "e": r"[ \u00a0]+[^.\r\n(]+",
}


@functools.cache
def _param(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _params(text: str, end: int, shape: str) -> int:
    """Where a keyword's parameters end ("ward {2}", "protection from red")."""
    for letter in "fowae":
        if letter in shape:
            m = _param(_PARAM_WORDS[letter]).match(text, end)
            if m:
                end = m.end()
                break
    if "n" in shape:
        m = _param(_PARAM_N).match(text, end)
        if m:
            end = m.end()
    if shape == "b":
        m = _param(_PARAM_COST).match(text, end)
        return m.end() if m else end
    if "c" in shape or "d" in shape:
        m = _param(_PARAM_COST).match(text, end)
        if m:
            end = m.end()
        elif "d" in shape or "c" in shape:
            m = _param(_PARAM_DASH).match(text, end)
            if m:
                end = m.end()
                end = len(text[:end].rstrip())
    return end


def find(text: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules terms of a card's text, in reading order.

    This is the function other commands use to read a card (``card`` shows
    its result beside the card): give it the text and the table of
    ``table_for``/``build``.  Each term is a dict with ``span`` ([start, end)
    in ``text``), ``text`` (the words as written), ``term`` (the name the
    rules give it), ``id`` (its rule, chapter or ``glossary:<Term>``),
    ``kind``, ``definition`` and ``source`` (where the definition is quoted
    from).  Two sorts of term come back together:

    - words the rules name: keywords with their parameters ("ward {2}",
      "protection from white"), keyword actions in any form, types, zones,
      steps, counters, ability words, glossary terms;
    - readings of abilities (``kind`` in ``READING_KINDS``): a triggered
      ability's condition, an activated ability's cost, a replacement
      effect's clause, a restriction, a duration, a "can't".  Their spans
      may hold terms of the first sort ("Whenever you cast a creature spell"
      holds "cast" and "creature"); spans nest and never cross.

    A multi-face text ("Fire ... // Ice ...") is read face by face.  Terms
    are sorted by start, the longer first.
    """
    terms = _words(text, table)
    readings, dropped = abilities.read(text, table.get("readings", []), terms)
    kept = [(t["span"][0], -t["span"][1], 1, k, t) for k, t in enumerate(terms) if k not in dropped]
    kept += [(t["span"][0], -t["span"][1], 0, k, t) for k, t in enumerate(readings)]
    return [row[4] for row in sorted(kept, key=lambda row: row[:4])]


def _words(text: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    """The words of ``text`` that the rules name, in reading order.

    Longest phrase first; a meaning that shares a word with another is chosen
    by the words around it.
    """
    toks = tokens(text)
    type_words = set(table.get("type_words", ()))
    keys: dict[str, list[str]] = table["keys"]
    meanings: dict[str, dict[str, Any]] = table["meanings"]
    land_types = set(table.get("land_types", ()))
    max_words = int(table.get("max_words", 6))
    found: list[dict[str, Any]] = []
    i = 0
    while i < len(toks):
        hit: tuple[int, list[str], str | None] | None = None
        for n in range(min(max_words, len(toks) - i), 0, -1):
            words = [k for _, _, k in toks[i:i + n]]
            key = " ".join(words)
            ids = keys.get(key)
            # A phrase the table does not hold needs no adjacency check: most
            # runs of words are none (the site reads every card this way).
            if n > 1 and (not ids or not _adjacent(text, toks[i:i + n])):
                continue
            if n == 1:
                ids = keys.get("=" + text[toks[i][0]:toks[i][1]].lower()) or ids
            if ids and words[-1] == "—":
                # Ability words count only where printed: before a dash.
                hit = (n - 1, ids, "ability word")
                break
            if ids:
                hit = (n, ids, None)
                break
        start, _, word = toks[i]
        if hit is None:
            special = _special(text, toks, i, table, land_types)
            if special is not None:
                found.append(special[0])
                i = special[1]
                continue
            i += 1
            continue
        n, ids, _ = hit
        end = toks[i + n - 1][1]
        id = _choose(ids, toks, i, n, text, meanings)
        if id is None:
            i += 1
            continue
        m = meanings[id]
        if not _as_a_card_writes_it(text, toks, i, n, m, type_words):
            i += 1
            continue
        if word == "counter" and n == 1 and m["kind"] == "counter":
            start, id = _counter_kind(text, toks, i, start, keys, meanings, id)
            m = meanings[id]
            if found and found[-1]["span"][1] > start:
                found.pop()  # "flying counter": the counter's kind, not the keyword
        base = meanings.get(m["id"].split("#", 1)[0], m)
        params = m.get("params") or (base.get("params") if is_keyword_id(base["id"]) else "")
        # Parameters follow the keyword as printed ("Equip {1}"), not an
        # inflected form ("Equipped creature").
        if params and _as_printed(text[start:end], m, base):
            if start > 0 and text[start - 1] != "\n":
                # The rest of the line ("Enchant creature you control") is a
                # parameter only where the keyword starts its line.
                params = params.replace("e", "")
            end = _params(text, end, params)
        if n == 1 and word == "die" and i > 0 and text[toks[i - 1][0]:toks[i - 1][1]].lower() in (
                "a", "sided", "the", "six", "twenty", "that"):  # "roll a six-sided die"
            i += 1
            continue
        found.append(_term(text, start, end, m))
        i += n
        while i < len(toks) and toks[i][0] < end:
            i += 1
    return found


def _as_a_card_writes_it(text: str, toks: list[tuple[int, int, str]], i: int, n: int,
                         m: dict[str, Any], type_words: set[str]) -> bool:
    """False for a type word used as an everyday word ("Hello world", "a book").

    A supertype stands before a type or typed object, or is said of an object;
    a subtype is capitalized.
    """
    if m["kind"] == "supertype":
        nxt = toks[i + n][2] if i + n < len(toks) else ""
        prev = text[toks[i - 1][0]:toks[i - 1][1]].lower() if i > 0 else ""
        return nxt in type_words or prev in PREDICATES
    if m["kind"] in SUBTYPE_KINDS:
        return text[toks[i][0]].isupper()
    return True


def _as_printed(surface: str, m: dict[str, Any], base: dict[str, Any]) -> bool:
    s = " ".join(surface.lower().split())
    return s == m["term"].lower() or s == base["term"].lower() or s.endswith("cycling")


def _adjacent(text: str, toks: list[tuple[int, int, str]]) -> bool:
    """True when the tokens are separated only by spaces or hyphens."""
    for (_, e, _), (s, _, _) in zip(toks, toks[1:]):
        gap = text[e:s]
        if gap not in (" ", "-", "\u00a0", "- ", " -") and not (gap == "" and text[s] in "—–"):
            if not (gap.strip() == "" and len(gap) <= 2 and "\n" not in gap):
                return False
    return True


def _term(text: str, start: int, end: int, m: dict[str, Any]) -> dict[str, Any]:
    id = m["id"].split("#", 1)[0]
    return {"span": [start, end], "text": text[start:end], "term": m["term"], "id": id,
            "kind": m["kind"], "definition": m["definition"],
            "source": m.get("source", id).split("#", 1)[0]}


def _choose(ids: list[str], toks: list[tuple[int, int, str]], i: int, n: int, text: str,
            meanings: dict[str, dict[str, Any]]) -> str | None:
    """Pick one meaning among those that share the words."""
    if len(ids) == 1 or n > 1:
        return ids[0]
    word = toks[i][2]
    raw = text[toks[i][0]:toks[i][1]].lower()
    prev = toks[i - 1][2] if i > 0 else ""
    nxt = toks[i + 1][2] if i + 1 < len(toks) else ""
    by_kind = {meanings[x]["kind"]: x for x in reversed(ids)}
    if word == "counter":
        verb = (raw in ("countered", "countering")
                or (raw in ("counter",) and (nxt in COUNTER_VERB_NEXT or prev in COUNTER_VERB_PREV)))
        if verb and "keyword action" in by_kind:
            return by_kind["keyword action"]
        return by_kind.get("counter", ids[0])
    if word == "exil":
        if (prev in EXILE_ZONE_PREV or nxt == "zone") and raw == "exile" and "zone" in by_kind:
            return by_kind["zone"]
        return by_kind.get("keyword action", ids[0])
    # The meaning whose own name is the word as written ("tapped" is Tapped).
    for x in ids:
        if meanings[x]["term"].lower() == raw:
            return x
    return ids[0]


def _counter_kind(text: str, toks: list[tuple[int, int, str]], i: int, start: int,
                  keys: dict[str, list[str]], meanings: dict[str, dict[str, Any]],
                  id: str) -> tuple[int, str]:
    """Widen "counter" (the marker) to its kind: "quest counter", "+1/+1 counter"."""
    if i == 0:
        return start, id
    ps, pe, pk = toks[i - 1]
    gap = text[pe:start]
    if gap not in (" ", "\u00a0"):
        return start, id
    if re.fullmatch(r"[+\-\u2212][0-9X]+/[+\-\u2212][0-9X]+", pk):
        ids = keys.get("+N/+N counter")
        return ps, ids[0] if ids else id
    if pk in NOT_A_KIND or not pk.isalpha():
        return start, id
    kw = keys.get(pk, [])
    if any(meanings[x]["kind"] == "keyword ability" for x in kw):
        ids = keys.get("KEYWORD counter")
        return ps, ids[0] if ids else id
    return ps, id


def _special(text: str, toks: list[tuple[int, int, str]], i: int, table: dict[str, Any],
             land_types: set[str]) -> tuple[dict[str, Any], int] | None:
    """Words made of a land type and a keyword: "swampwalk", "forestcycling"."""
    word = text[toks[i][0]:toks[i][1]].lower()
    meanings = table["meanings"]
    for suffix, key in (("walk", "landwalk"), ("cycling", "cycling")):
        id = table.get(key)
        if id and word.endswith(suffix) and len(word) > len(suffix):
            prefix = word[: -len(suffix)]
            if key == "landwalk" and lemma(prefix) not in land_types and prefix not in (
                    "land", "nonbasic land"):
                continue
            m = meanings[id]
            end = _params(text, toks[i][1], m.get("params", "")) if key == "cycling" else toks[i][1]
            return _term(text, toks[i][0], end, m), i + 1
    return None


# -- input -----------------------------------------------------------------------

def check_text(text: str) -> str:
    """The text to explain, or BadInput saying why it cannot be."""
    from crsearch.errors import BadInput

    if not text.strip():
        raise BadInput("the card text is empty: paste a card's rules text, or use - for stdin")
    if "\x00" in text:
        raise BadInput("the input is binary, not text: paste a card's rules text")
    if len(text) > MAX_TEXT:
        raise BadInput(f"the text is too long ({len(text):,} characters; at most "
                       f"{MAX_TEXT:,}): explain one card at a time")
    return text


def explain(stored: Any, text: str) -> dict[str, Any]:
    """The ``explain --json`` contract: the text and its terms in reading order."""
    text = check_text(text)
    table = table_for(stored)
    return {"text": text, "release": table["release"], "terms": find(text, table)}


__all__ = ["ALIASES", "GENERIC", "READING_KINDS", "build", "cache_problem", "check_text", "explain",
           "export", "find", "key_of", "lemma", "short_definition", "site_files", "table_for",
           "table_problem", "tokens", "write_cache"]
