"""Read a card's abilities the way a judge does: which rule each one follows.

``explain`` finds the words the rules name ("sacrifice", "battlefield"); this
module finds how the abilities read.  "Whenever you cast a creature spell," is
a triggered ability with its trigger condition (603.1); "{T}: Add {G}" a mana
ability (605.1a); "If ... would ..., ... instead" a replacement effect
(614.1a); "Activate only as a sorcery" the timing rule 602.5d, where "sorcery"
is not the card type; "until end of turn" a duration that ends in the cleanup
step (514.2); "can't" the rule that "can't" beats "can" (101.2).

What is written here is the English of abilities: a pattern per reading and
the rule it follows.  The rule is not written here: each reading names its
chapter and a phrase of that rule's text ("Activate only as a sorcery"), and
``build`` finds that rule in the release, with its number and first sentences
as the definition.  A release that has no such rule has no such reading.

The patterns are plain data that Python and the site's ``explain.js`` run
alike: regular expressions in the subset both engines read the same way (no
``\\w``, ``\\s``, ``^``, ``$`` or ``.``; ASCII classes; fixed-width
lookbehind; ``{`` always escaped), compiled with re.M | re.A in Python and
"gmu" in JavaScript.  The span of a reading is the pattern's first group,
which always ends the match.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

#: The kinds of term that are readings of abilities, not words of the rules.
READING_KINDS = ("triggered ability", "activated ability", "mana ability", "loyalty ability",
                 "restriction", "replacement effect", "duration", "can't")

# -- the pieces patterns are made of -----------------------------------------

_NOT_LETTER_BEFORE = "(?<![A-Za-z])"
_NOT_LETTER_AFTER = "(?![A-Za-z])"
# Where an ability or a sentence starts: a line's start, after a sentence's
# end, after an opening parenthesis or quote (reminder text, a granted
# ability), or after a bullet or an ability word's dash.
_START = "(?:(?<![^\\n])|(?<=[.!?)] )|(?<=[(\"“])|(?<=[•—–] )|(?<=[•—–]))"
_WORD = "[^,.;:\\n\"“” \\t]+"
# Text of a clause: no sentence end, colon, quote or line break.
_CLAUSE = "[^,.;:\\n\"“”()]"
_SYMBOL = "\\{[^{} \\t\\n]{1,8}\\}"
#: Words a cost can start with, besides a symbol: costs are imperatives.
COST_VERBS = ("Sacrifice", "Discard", "Pay", "Exile", "Remove", "Tap", "Untap", "Return", "Put",
              "Reveal", "Mill", "Collect", "Forage", "Exert", "Blight")
_COST = ("(?:" + _SYMBOL + "|(?:" + "|".join(COST_VERBS) + ")" + _NOT_LETTER_AFTER + ")"
         "[^:.\\n\"“”()]{0,150}?:")
_LIST_COMMA = (",(?= (?:or|and|and/or) )"
               "|,(?= " + _WORD + "(?: " + _WORD + ")?, (?:or|and|and/or) )")
# A trigger condition: up to the comma that ends it.  It names an event, so it
# has a word in lower case; commas before that word belong to a name ("When
# Kozilek, Butcher of Truth is put ..."), and a list's commas ("an instant,
# sorcery, or Wizard spell") do not end it.  Every part is bounded, so a long
# text without the comma costs time in proportion to its length.
_CONDITION = ("(?:[^ a-z,.;:\\n\"“”()][^ ,.;:\\n\"“”()]*,? ){0,6}(?<![A-Za-z'’])[a-z](?:" + _CLAUSE + "|"
              + _LIST_COMMA + "|\\([^()\\n]{0,80}\\)){0,300}?(?=,)(?!" + _LIST_COMMA + ")")
_STEP = "(?:step|upkeep|phase|combat|turn)"
_CANT = "[Cc](?:an['’]t|annot)"
# Words that make "this turn" a duration: a modal or an effect's verb before
# it, with no relative or conditional clause between ("died this turn" and
# "creatures that attacked this turn" say when, not how long).
_MODAL = ("(?:can['’]t|cannot|can|may|must|would|gets?|gains?|loses?|don['’]t|doesn['’]t)")
_NO_CLAUSE = ("(?:(?!\\b(?:if|If|who|which|whose|when|whenever|unless|as long as)\\b"
              "|\\bthat (?=[a-z]+ed\\b))"
              "[^.;,\\n]){0,150}?")

#: Stands in a pattern for the names of the keywords that are activated
#: abilities ("Equip only as a sorcery"), which ``build`` reads from the release.
ACTIVATED_KEYWORDS = "<activated keywords>"

#: The readings: (group, term, kind, (chapter, phrase of its rule), pattern,
#: words inside it that are not the terms they look like).  Within a group the
#: first reading to match a stretch of text wins; readings of different groups
#: may nest.
READINGS: tuple[tuple[str, str, str, tuple[str, str], str, tuple[str, ...]], ...] = (
    # Triggered abilities.
    ("trigger", "Delayed triggered ability", "triggered ability",
     ("603", "may create a delayed triggered ability"),
     "(" + _NOT_LETTER_BEFORE + "[Aa]t the beginning of (?:" + _WORD + " ){0,3}?next (?:"
     + _WORD + " ){0,3}?" + _STEP + ")" + _NOT_LETTER_AFTER, ()),
    ("trigger", "Delayed triggered ability", "triggered ability",
     ("603", "may create a delayed triggered ability"),
     "(" + _NOT_LETTER_BEFORE + "at (?:the )?end of combat)" + _NOT_LETTER_AFTER, ()),
    ("trigger", "Reflexive triggered ability", "triggered ability",
     ("603", "when [a player] [does"),
     "(" + _NOT_LETTER_BEFORE + "When (?:you|they|that player) (?:do|does|don['’]t|doesn['’]t))"
     "(?=,)", ()),
    ("trigger", "Triggered ability (at the beginning of)", "triggered ability",
     ("603", "“at the beginning of”"),
     "(" + _NOT_LETTER_BEFORE + "At the beginning of " + _CLAUSE + "{1,200}?)(?=,)", ()),
    ("trigger", "Triggered ability (at the beginning of)", "triggered ability",
     ("603", "“at the beginning of”"),
     "(" + _NOT_LETTER_BEFORE + "at the beginning of (?:" + _WORD + " ){0,4}?" + _STEP + ")"
     + _NOT_LETTER_AFTER, ()),
    ("trigger", "Triggered ability", "triggered ability", ("603", "[When/Whenever/At]"),
     "(" + _NOT_LETTER_BEFORE + "At (?:the )?end of (?:combat|turn))(?=,)", ()),
    ("trigger", "Triggered ability", "triggered ability", ("603", "[When/Whenever/At]"),
     "(" + _NOT_LETTER_BEFORE + "When(?:ever)? " + _CONDITION + ")", ()),
    # Activated abilities: mana and loyalty abilities first.
    ("activated", "Loyalty ability", "loyalty ability", ("606", "activate a loyalty ability"),
     "((?<![^\\n])(?:\\[[+−\\-]?(?:[0-9]+|X)\\]|[+−\\-]?(?:[0-9]+|X)):)(?= )", ()),
    ("activated", "Mana ability", "mana ability", ("605", "is a mana ability if"),
     _START + "(" + _COST + " Add(?: ?" + _SYMBOL + ")*)(?![^.\\n]*\\btarget\\b)", ()),
    ("activated", "Activated ability", "activated ability", ("602", "[Cost]: [Effect"),
     _START + "(" + _COST + ")(?= )", ()),
    # Restrictions on activating, and sorcery timing.
    ("restriction", "Activate only as a sorcery", "restriction",
     ("602", "“Activate only as a sorcery”"),
     "((?:Activate|" + ACTIVATED_KEYWORDS + ") (?:this ability )?only (?:as a sorcery|any time "
     "you could cast a sorcery))" + _NOT_LETTER_AFTER, ("sorcery",)),
    ("restriction", "Activate only as an instant", "restriction",
     ("602", "“Activate only as an instant”"),
     "(Activate (?:this ability )?only as an instant)" + _NOT_LETTER_AFTER, ("instant",)),
    ("restriction", "Activation restriction", "restriction",
     ("602", "restriction on its use"),
     "(Activate (?:this ability )?(?:only|no more than)" + _NOT_LETTER_AFTER + "[^.\\n]{0,250})",
     ()),
    ("restriction", "Sorcery timing", "restriction", ("307", "“only as a sorcery"),
     "(" + _NOT_LETTER_BEFORE + "(?:[Aa]s a sorcery|any time (?:you|they|that player) could "
     "cast a sorcery))" + _NOT_LETTER_AFTER, ("sorcery",)),
    # Replacement effects.
    ("replacement", "Replacement effect (instead)", "replacement effect",
     ("614", "the word “instead”"),
     "(" + _NOT_LETTER_BEFORE + "[Ii]f (?:(?!\\b[Ii]f\\b)[^.;\\n]){0,300}?\\binstead\\b)", ()),
    ("replacement", "Replacement effect (instead)", "replacement effect",
     ("614", "the word “instead”"),
     _START + "((?!\\b[Ii]f\\b)[^ .;\\n](?:(?!\\b[Ii]f\\b)[^.;\\n]){0,300}?\\binstead\\b)",
     ()),
    ("replacement", "Replacement effect (skip)", "replacement effect",
     ("614", "the word “skip”"),
     "(" + _NOT_LETTER_BEFORE + "[Ss]kip(?:s|ped)? (?:" + _WORD + " ){0,5}?(?:steps?|phases?|"
     "turns?|draws?|combat))" + _NOT_LETTER_AFTER, ()),
    ("replacement", "Replacement effect (as it enters)", "replacement effect",
     ("614", "enters with"),
     "(" + _NOT_LETTER_BEFORE + "As (?:" + _WORD + " ){1,5}?enters?)" + _NOT_LETTER_AFTER, ()),
    ("replacement", "Replacement effect (as it enters)", "replacement effect",
     ("614", "enters with"),
     "(?:" + _NOT_LETTER_BEFORE + "[Tt]his [a-z]+ |" + _NOT_LETTER_BEFORE
     + "(?:[Ii]t|[A-Z][A-Za-z'’-]*) )(enters? (?:with|as))" + _NOT_LETTER_AFTER, ()),
    ("replacement", "Replacement effect (enters)", "replacement effect",
     ("614", "[Objects] enter"),
     "(" + _NOT_LETTER_BEFORE + "enters? (?:the battlefield )?(?:tapped|with|as))"
     + _NOT_LETTER_AFTER, ()),
    # Durations.
    ("duration", "Until your next turn", "duration", ("611", "lasts as long as stated"),
     "(" + _NOT_LETTER_BEFORE + "[Uu]ntil (?:the end of |end of )?your next turn)"
     + _NOT_LETTER_AFTER, ()),
    ("duration", "Until end of combat", "duration", ("500", "“until end of combat”"),
     "(" + _NOT_LETTER_BEFORE + "[Uu]ntil end of combat)" + _NOT_LETTER_AFTER, ()),
    ("duration", "Until end of turn", "duration", ("514", "“until end of turn”"),
     "(" + _NOT_LETTER_BEFORE + "[Uu]ntil (?:the )?end of turn)" + _NOT_LETTER_AFTER, ()),
    ("duration", "For as long as", "duration", ("611", "“for as long as"),
     "(" + _NOT_LETTER_BEFORE + "[Ff]or as long as [^,.;:\\n]{1,200})", ()),
    ("duration", "Until it leaves the battlefield", "duration", ("610", "“until”"),
     "(" + _NOT_LETTER_BEFORE + "[Uu]ntil (?:" + _WORD + " ){1,6}?leaves the battlefield)"
     + _NOT_LETTER_AFTER, ()),
    ("duration", "This turn", "duration", ("514", "“this turn”"),
     _NOT_LETTER_BEFORE + _MODAL + _NOT_LETTER_AFTER + _NO_CLAUSE + "(this turn)"
     + _NOT_LETTER_AFTER, ()),
    # "Can't" beats "can".
    ("cant", "Can't be prevented", "can't", ("615", "“can’t be prevented.”"),
     "(" + _NOT_LETTER_BEFORE + _CANT + " be prevented)" + _NOT_LETTER_AFTER, ()),
    ("cant", "Can't", "can't", ("101", "“can’t” effect takes precedence"),
     "(" + _NOT_LETTER_BEFORE + _CANT + "(?: be [a-z]+(?:ed|en)" + _NOT_LETTER_AFTER
     + "| (?!be )[a-z]+(?![A-Za-z'’]))?)", ()),
)


#: Words one of which each match of a reading holds, in lower case with
#: straight apostrophes, by the reading's term: a face without any of them is
#: not run through the reading's pattern, nor is the pattern compiled (the
#: compiling is most of what reading one card costs a fresh process).
#: tests/desk/test_abilities.py checks each against its pattern.
CUES: dict[str, tuple[str, ...]] = {
    "Delayed triggered ability": ("beginning", "end of combat"),
    "Reflexive triggered ability": ("when",),
    "Triggered ability (at the beginning of)": ("beginning",),
    "Triggered ability": ("end of", "when"),
    "Loyalty ability": (":",),
    "Mana ability": ("add",),
    "Activated ability": (":",),
    "Activate only as a sorcery": ("sorcery",),
    "Activate only as an instant": ("instant",),
    "Activation restriction": ("activate",),
    "Sorcery timing": ("sorcery",),
    "Replacement effect (instead)": ("instead",),
    "Replacement effect (skip)": ("skip",),
    "Replacement effect (as it enters)": ("enter",),
    "Replacement effect (enters)": ("enter",),
    "Until your next turn": ("until",),
    "Until end of combat": ("until",),
    "Until end of turn": ("until",),
    "For as long as": ("for as long as",),
    "Until it leaves the battlefield": ("until",),
    "This turn": ("this turn",),
    "Can't be prevented": ("can't", "cannot"),
    "Can't": ("can't", "cannot"),
}


def _plain(text: str) -> str:
    return text.replace("’", "'").replace("“", '"').replace("”", '"').lower()


def _escape(text: str) -> str:
    """``text`` as a pattern both engines read alike (re.escape's "\\-" is an
    error in a JavaScript "u" pattern)."""
    return re.sub(r"([.^$*+?()[\]{}|\\/])", r"\\\1", text)


def activated_keywords(release: Any) -> list[str]:
    """Names of the keyword abilities that are activated abilities ("Equip",
    "Level up"), as reminder text writes them: their rule's first subrule says so."""
    names = []
    for r in release.rules:
        if (r.kind == "subrule" and r.chapter == "702" and r.id.endswith("a")
                and re.search(r"\b(?:is|represents) (?:an|two) activated abilit", r.text)):
            name = r.text.split(" is ", 1)[0].split(" represents ", 1)[0]
            if 0 < len(name) < 30 and name[0].isupper():
                names.append(name[0] + name[1:].lower())
    return sorted(set(names), key=lambda n: (-len(n), n))


def build(release: Any, short_definition: Any) -> list[dict[str, Any]]:
    """The readings a release has rules for, each with its rule and definition.

    :param short_definition: how a rule's text is cut to a definition
        (``explain.short_definition``).
    """
    keywords = "|".join(_escape(n) for n in activated_keywords(release))
    by_chapter: dict[str, list[Any]] = {}
    for r in release.rules:
        if r.chapter:
            by_chapter.setdefault(r.chapter, []).append(r)
    out = []
    for group, term, kind, (chapter, phrase), pattern, drop in READINGS:
        wanted = _plain(phrase)
        rule = next((r for r in by_chapter.get(chapter, []) if wanted in _plain(r.text)), None)
        if rule is None:
            continue  # this release has no rule for it (an older wording)
        pattern = pattern.replace(ACTIVATED_KEYWORDS, keywords or "(?!)")
        out.append({"group": group, "term": term, "kind": kind, "id": rule.id,
                    "definition": short_definition(rule.text), "pattern": pattern,
                    "drop": list(drop)})
    return out


# -- reading a text ----------------------------------------------------------------

#: Where one face of a multi-face text ends and the next begins: " // ", or
#: "//" at the start of a line.
FACE_BREAK = "(?:(?<![^\\n])|[ \\t]+)//(?:[ \\t]+|(?=\\n)|(?![\\s\\S]))"


def faces(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each face of a multi-face text ("Fire ... // Ice ...")."""
    out, start = [], 0
    for m in _compiled(FACE_BREAK).finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


@lru_cache(maxsize=128)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.MULTILINE | re.ASCII)


def _crosses(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when two spans overlap without one holding the other."""
    return a[0] < b[1] and b[0] < a[1] and not (
        (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1]))


def _around_terms(span: tuple[int, int],
                  terms: list[dict[str, Any]]) -> tuple[int, int] | None:
    """``span`` widened to the end of each term it cuts ("can't lose" to "can't
    lose the game"), or None when it starts inside a term."""
    start, end = span
    widened = True
    while widened:
        widened = False
        for t in terms:
            ts, te = t["span"]
            if ts < start < te:
                return None
            if start <= ts < end < te:
                end, widened = te, True
    return start, end


def read(text: str, readings: list[dict[str, Any]],
         terms: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[int]]:
    """The readings of ``text``'s abilities, and the indexes of ``terms`` they
    show to be other words ("sorcery" in "Activate only as a sorcery").

    A face is read only when it has a term: text with no rules term in it is
    not a card, whatever its "when" and "if".
    """
    found: list[dict[str, Any]] = []
    dropped: set[int] = set()
    for face_start, face_end in faces(text):
        if not any(face_start <= t["span"][0] < face_end for t in terms):
            continue
        face = text[face_start:face_end]
        plain = face.lower().replace("\u2019", "'")
        taken: list[tuple[int, int, str, dict[str, Any]]] = []
        for r in readings:
            cues = CUES.get(r["term"])
            if cues is not None and not any(c in plain for c in cues):
                continue
            for m in _compiled(r["pattern"]).finditer(face):
                end = m.end()
                start = end - len(m.group(1))
                if start == end:
                    continue
                span = _around_terms((face_start + start, face_start + end), terms)
                if span is None or any(
                        g == r["group"] and s < span[1] and span[0] < e or _crosses(span, (s, e))
                        for s, e, g, _ in taken):
                    continue
                taken.append((span[0], span[1], r["group"], r))
        # A trigger condition names an event: what it says is not an effect.
        conditions = [(s, e) for s, e, g, _ in taken if g == "trigger"]
        for s, e, g, r in taken:
            if g != "trigger" and any(cs <= s and e <= ce for cs, ce in conditions):
                continue
            found.append({"span": [s, e], "text": text[s:e], "term": r["term"], "id": r["id"],
                          "kind": r["kind"], "definition": r["definition"], "source": r["id"]})
            for k, t in enumerate(terms):
                if (r["drop"] and s <= t["span"][0] and t["span"][1] <= e
                        and text[t["span"][0]:t["span"][1]].lower() in r["drop"]):
                    dropped.add(k)
    found.sort(key=lambda t: (t["span"][0], -t["span"][1]))
    return found, dropped


__all__ = ["ACTIVATED_KEYWORDS", "COST_VERBS", "CUES", "FACE_BREAK", "READINGS", "READING_KINDS", "activated_keywords", "build", "faces", "read"]
