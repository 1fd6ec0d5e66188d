"""Cards that are rules topics: the names judges hear and the rules they answer with.

Questions name cards ("I cast Humility with two Opalescence out..."), and card
names are normally dropped from a question because their words match rules
words by accident.  Some cards, though, are famous *because* of a rule: Humility
and Opalescence mean layers and dependency, Mindslaver means controlling
another player, Blood Moon means rule 305.7.  This table maps such cards to the
rule ids (2026-08-07 numbering) that decide the questions about them, best
first, so a search can rank those rules when a question names the card.

The table is data (``data/cards.txt``, about 1,900 cards): names, rule ids and
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

import re

from crsearch.text import fold, words

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
    from crsearch.paths import data_dir

    path = data_dir() / TABLE_FILE
    try:
        return read_table(path.read_text(encoding="utf-8"))
    except OSError:
        # A broken install loses the card hints, not the search.
        return {}, {}, frozenset(), frozenset()


#: Card name (lowercase, as printed, straight apostrophes) -> rule ids, best first.
#: What players call some cards instead of their names (nickname -> name).
#: Names and nicknames that are ordinary English or rules words: ``cards_in``
#: finds them only when the question capitalises them.
#: Short names (the part before a comma) left out: ordinary words, or names
#: many printed cards share ("Teferi", "Jace"), so typed alone they don't say
#: which card is meant.
RULES_CARDS, ALIASES, PLAIN_WORDS, AMBIGUOUS_SHORT = _load()


def _key(name: str) -> str:
    """A typed name as the table compares it: folded words, one space apart."""
    return " ".join(words(name))


def _index() -> dict[str, str]:
    """Every accepted spelling (folded) -> the table's name."""
    full = {_key(n): n for n in RULES_CARDS}
    short: dict[str, list[str]] = {}
    for name in RULES_CARDS:
        head, comma, _ = name.partition(",")
        if comma and _key(head) not in full and _key(head) not in AMBIGUOUS_SHORT:
            short.setdefault(_key(head), []).append(name)
        # "Gitrog Monster" for "The Gitrog Monster": players drop the article.
        if name.startswith("the ") and len(name.split()) > 2:
            short.setdefault(_key(name[4:]), []).append(name)
    index = {k: v[0] for k, v in short.items() if len(v) == 1}  # ambiguous shorts dropped
    index.update({_key(a): n for a, n in ALIASES.items()})
    index.update(full)
    return index


_INDEX = _index()
_LONGEST = max((len(k.split()) for k in _INDEX), default=1)


def _lookup(folded: str) -> str | None:
    """The table name for a folded name, trying it without a possessive "'s"."""
    if folded in _INDEX:
        return _INDEX[folded]
    if folded.endswith("'s") and folded[:-2] in _INDEX:
        return _INDEX[folded[:-2]]
    return None


def rules_of(names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """For card names typed in a question (any case, curly or straight apostrophes,
    with or without the part after a comma, "Garruk, Unleashed" vs "Garruk"), the
    (name, rule ids) of those in the table, in the order given, each once."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for typed in names:
        name = _lookup(_key(typed))
        if name is not None and all(name != n for n, _ in found):
            found.append((name, RULES_CARDS[name]))
    return found


_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def cards_in(question: str) -> list[str]:
    """The table's cards named in a free-text question, longest name first at each
    word; a name that is also an ordinary word counts only when capitalised."""
    tokens = _TOKEN.findall(question)
    folded = [fold(t) for t in tokens]
    found: list[str] = []
    i = 0
    while i < len(tokens):
        for n in range(min(_LONGEST, len(tokens) - i), 0, -1):
            typed = " ".join(folded[i:i + n])
            name = _lookup(typed)
            if name is None:
                continue
            bare = typed[:-2] if typed.endswith("'s") and typed not in _INDEX else typed
            if n == 1 and bare in PLAIN_WORDS and not tokens[i][:1].isupper():
                continue
            if name not in found:
                found.append(name)
            i += n - 1
            break
        i += 1
    return found


def table() -> dict[str, object]:
    """The matching data as plain JSON-able values, for the site's search
    (which ports ``cards_in``): every accepted spelling, the plain-word
    names, the rules of each card and the longest name in words."""
    # A name that is its own spelling is found in "rules": "index" holds the rest.
    return {"index": {k: n for k, n in sorted(_INDEX.items()) if k != n},
            "plain": sorted(PLAIN_WORDS),
            "rules": {n: list(r) for n, r in sorted(RULES_CARDS.items())}, "longest": _LONGEST}
