"""Cards that are rules topics: the names judges hear and the rules they answer with.

Questions name cards ("I cast Humility with two Opalescence out..."), and card
names are normally dropped from a question because their words match rules
words by accident.  Some cards, though, are famous *because* of a rule: Humility
and Opalescence mean layers and dependency, Mindslaver means controlling
another player, Blood Moon means rule 305.7.  This table maps such cards to the
rule ids that decide the questions about them, best first (numbered as the
release its header names; ``tables.py`` carries them into the others), so a
search can rank those rules when a question names the card.

The table is data (``data/cards.txt``, about 5,000 cards): names, rule ids and
nicknames, never card or rules text.  Only cards whose questions turn on a
general rule are listed, not cards whose answer is "read the card".  Names are
lowercase, as printed, with straight apostrophes.  A name with a comma
("Tomorrow, Azami's Familiar") is also found by the part before the comma, and
"The Gitrog Monster" without its article, unless that short form is an ordinary
word or is shared by two cards of the table.  One-word names and nicknames that
are also words ("Silence", "Fork") count only when capitalised.  Standard
library only: this module is imported on the query path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from crsearch.rules.text import fold, words

#: The table itself, a judge's cheat sheet of facts (no rules text):
#: ``data/cards.txt``, one card per line.
TABLE_FILE = "cards.txt"


def read_table(text: str) -> tuple[dict[str, tuple[str, ...]], dict[str, str],
                                    frozenset[str], frozenset[str]]:
    """Parse ``data/cards.txt``: ``name<TAB>ids<TAB>nicknames`` rows, and
    ``@plain`` / ``@ambiguous`` lines of words ("_" for a space)."""
    cards: dict[str, tuple[str, ...]] = {}
    aliases: dict[str, str] = {}
    lists: dict[str, set[str]] = {"@plain": set(), "@ambiguous": set()}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@"):
            tag, *items = line.split()
            lists.setdefault(tag, set()).update(i.replace("_", " ") for i in items)
            continue
        name, ids, *rest = line.split("\t") + [""]
        cards[name] = tuple(ids.split())
        for nick in (n.strip() for n in rest[0].split(",")):
            if nick:
                aliases[nick] = name
    return cards, aliases, frozenset(lists["@plain"]), frozenset(lists["@ambiguous"])


def _load() -> tuple[dict[str, tuple[str, ...]], dict[str, str], frozenset[str], frozenset[str]]:
    from crsearch.paths import read_data

    return read_table(read_data(TABLE_FILE))  # BrokenInstall when it is missing or damaged


def _key(name: str) -> str:
    """A typed name as the table compares it: folded words, one space apart."""
    return " ".join(words(name))


def _index(cards: dict[str, tuple[str, ...]], aliases: dict[str, str],
           ambiguous: frozenset[str]) -> dict[str, str]:
    """Every accepted spelling (folded) -> the table's name."""
    full = {_key(n): n for n in cards}
    short: dict[str, list[str]] = {}
    for name in cards:
        head, comma, _ = name.partition(",")
        if comma and _key(head) not in full and _key(head) not in ambiguous:
            short.setdefault(_key(head), []).append(name)
        # "Gitrog Monster" for "The Gitrog Monster": players drop the article.
        if name.startswith("the ") and len(name.split()) > 2:
            short.setdefault(_key(name[4:]), []).append(name)
    index = {k: v[0] for k, v in short.items() if len(v) == 1}  # ambiguous shorts dropped
    index.update({_key(a): n for a, n in aliases.items()})
    index.update(full)
    return index


_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


class CardTable:
    """Finds the cards a question names, from the table's matching data split
    by first letter (``table_by_letter``): ``part(letter)`` gives the part of
    one letter (None when there is none), so an index's ready copy is read
    only for the letters a question's words start with."""

    def __init__(self, part: Callable[[str], dict[str, Any] | None], longest: int):
        self.part = part
        self.longest = longest
        self._plain: dict[str, set[str]] = {}

    @classmethod
    def of(cls, table: dict[str, Any]) -> CardTable:
        """The whole table (``table()``'s shape) in memory."""
        parts = table_by_letter(table)
        return cls(parts.get, table["longest"])

    def _lookup(self, k: str) -> tuple[str, list[str]] | None:
        got = self.part(k[:1])
        if not got:
            return None
        name = got["index"].get(k, k if k in got["rules"] else None)
        return (name, got["rules"][name]) if name is not None else None

    def lookup(self, folded: str) -> tuple[str, list[str]] | None:
        """(name, rule ids) for a folded name, trying it without a possessive "'s"."""
        got = self._lookup(folded)
        if got is None and folded.endswith("'s"):
            got = self._lookup(folded[:-2])
        return got

    def _is_plain(self, word: str) -> bool:
        letter = word[:1]
        if letter not in self._plain:
            self._plain[letter] = set((self.part(letter) or {}).get("plain", ()))
        return word in self._plain[letter]

    def found_in(self, question: str) -> list[tuple[str, list[str]]]:
        """(name, rule ids) of the table's cards named in a free-text question,
        longest name first at each word; a name that is also an ordinary word
        counts only when capitalised."""
        tokens = _TOKEN.findall(question)
        folded = [fold(t) for t in tokens]
        found: list[tuple[str, list[str]]] = []
        i = 0
        while i < len(tokens):
            for n in range(min(self.longest, len(tokens) - i), 0, -1):
                typed = " ".join(folded[i:i + n])
                exact = self._lookup(typed)
                possessive = exact is None and typed.endswith("'s")
                got = self._lookup(typed[:-2]) if possessive else exact
                if got is None:
                    continue
                bare = typed[:-2] if possessive else typed
                if n == 1 and self._is_plain(bare) and not tokens[i][:1].isupper():
                    continue
                if all(got[0] != name for name, _ in found):
                    found.append(got)
                i += n - 1
                break
            i += 1
        return found

    def names_in(self, question: str) -> list[str]:
        """The names of the cards ``found_in`` the question."""
        return [name for name, _ in self.found_in(question)]


def table_by_letter(table: dict[str, Any], width: int = 1) -> dict[str, dict[str, Any]]:
    """``table()`` split by the first letter of each spelling: a name is looked
    up from the question word it starts with.  Each part has the spellings of
    its letter that are not the name itself (``index``), the rules of every
    name those lead to (``rules``), and its plain words.  ``width`` 2: by the
    first two letters of a spelling's first word (one for a one-letter word)."""
    out: dict[str, dict[str, Any]] = {}

    def part(key: str) -> dict[str, Any]:
        return out.setdefault(key.split(" ")[0][:width], {"index": {}, "plain": [], "rules": {}})

    spellings = {**{n: n for n in table["rules"]}, **table["index"]}
    for key, name in sorted(spellings.items()):
        got = part(key)
        if key != name:
            got["index"][key] = name
        got["rules"][name] = table["rules"][name]
    for word in table["plain"]:
        part(word)["plain"].append(word)
    return dict(sorted(out.items()))


@functools.cache
def _tables() -> tuple[dict[str, tuple[str, ...]], dict[str, str], frozenset[str],
                       frozenset[str], dict[str, str]]:
    cards, aliases, plain, ambiguous = _load()
    return cards, aliases, plain, ambiguous, _index(cards, aliases, ambiguous)


@functools.cache
def _default() -> CardTable:
    return CardTable.of(table())


def __getattr__(name: str) -> Any:
    # The table is read on first use, not on import: a search that names no
    # card (or reads the index's ready copy) never parses it.
    lazy = {"RULES_CARDS": 0, "ALIASES": 1, "PLAIN_WORDS": 2, "AMBIGUOUS_SHORT": 3}
    if name in lazy:
        return _tables()[lazy[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: (read lazily from ``data/cards.txt``)
#: RULES_CARDS: card name (lowercase, as printed, straight apostrophes) -> rule ids, best first.
#: ALIASES: what players call some cards instead of their names (nickname -> name).
#: PLAIN_WORDS: names and nicknames that are ordinary English or rules words:
#: ``cards_in`` finds them only when the question capitalises them.
#: AMBIGUOUS_SHORT: short names (the part before a comma) left out: ordinary
#: words, or names many printed cards share ("Teferi", "Jace").
RULES_CARDS: dict[str, tuple[str, ...]]
ALIASES: dict[str, str]
PLAIN_WORDS: frozenset[str]
AMBIGUOUS_SHORT: frozenset[str]


@functools.cache
def name_words() -> frozenset[str]:
    """Every word of the table's card names and nicknames (folded): a
    spelling corrector must not take "Humility" or "Ixidron" for a typo."""
    cards, aliases, *_ = _tables()
    return frozenset(w for name in [*cards, *aliases] for w in words(name))


def rules_of(names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """For card names typed in a question (any case, curly or straight apostrophes,
    with or without the part after a comma, "Garruk, Unleashed" vs "Garruk"), the
    (name, rule ids) of those in the table, in the order given, each once."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for typed in names:
        got = _default().lookup(_key(typed))
        if got is not None and all(got[0] != n for n, _ in found):
            found.append((got[0], tuple(got[1])))
    return found


def cards_in(question: str) -> list[str]:
    """The table's cards named in a free-text question (``CardTable.names_in``)."""
    return _default().names_in(question)


def table() -> dict[str, Any]:
    """The matching data as plain JSON-able values, for the index and the site's
    search (which ports ``cards_in``): every accepted spelling, the plain-word
    names, the rules of each card and the longest name in words."""
    cards, _, plain, _, index = _tables()
    # A name that is its own spelling is found in "rules": "index" holds the rest.
    return {"index": {k: n for k, n in sorted(index.items()) if k != n},
            "plain": sorted(plain),
            "rules": {n: list(r) for n, r in sorted(cards.items())},
            "longest": max((len(k.split()) for k in index), default=1)}
