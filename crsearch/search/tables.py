"""The shipped tables that name rules, carried into the release they are used with.

``data/topics.txt``, ``data/cards.txt`` and ``data/asked.json`` name rules by
number, in the numbering of one release that each says in its header
(``# numbering: 2026-08-07``; ``"numbering"`` in asked.json).  Numbers move
between releases: when chapter 722 was inserted, "Controlling Another
Player" went from 722.1 to 723.1, so 723.1 in an older release is another
rule.  One policy serves the three tables:

1. **Carry** each id through the lineage of rules (the pairing of the
   history engine) from the table's release to the release at hand.  The
   shipped map ``data/renumbering.txt`` (rule numbers and a few words, never
   rules text; written by ``tools/renumber_tables.py`` from the archive)
   says what each table id is numbered in every archived release.  A
   release the map does not know is reached through the data folder's
   lineage table from a release the map knows (``Via``), else read in the
   numbering of the nearest release the map knows.
2. **Check** the carried id by its words: the rule it lands on must hold
   the id's check words, a few of its rarest words in the table's release
   (``asked.check_words`` and ``asked.holds``).
3. **Drop** an id that cannot be carried or fails the check.

The index build, the site's search data and ``tools/renumber_tables.py``
read the tables through here; the query side reads the carried copies that
the index keeps ready.  Standard library only.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from crsearch.search.asked import holds

if TYPE_CHECKING:
    from crsearch.search.topics import Topic
    from crsearch.store.lineage import Link

MAP_FILE = "renumbering.txt"
#: The header line that says which release's numbering a table is written in.
NUMBERING = "# numbering:"


def numbering_of(text: str) -> str | None:
    """The release a table's text says it is numbered in (its header), or None."""
    for line in text.splitlines():
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        if line.startswith(NUMBERING):
            return line[len(NUMBERING):].strip() or None
    return None


class Renumbering:
    """The shipped map: each table id's number in every archived release, and
    its check words.

    ``chains[id]`` lists ``(release index, number)`` from the oldest release
    on, each number holding until the next entry; None where the lineage has
    no such rule.
    """

    def __init__(self, numbering: str, dates: list[str],
                 check: dict[str, list[str]], chains: dict[str, list[tuple[int, str | None]]]):
        self.numbering, self.dates = numbering, dates
        self.check, self.chains = check, chains
        self._index = {d: k for k, d in enumerate(dates)}
        self._starts: dict[str, list[int]] = {}  # each chain's release indexes

    @classmethod
    def parse(cls, text: str) -> Renumbering:
        """Read ``data/renumbering.txt`` (see ``tools/renumber_tables.py``)."""
        numbering, dates = numbering_of(text) or "", []
        check: dict[str, list[str]] = {}
        chains: dict[str, list[tuple[int, str | None]]] = {}
        for line in text.splitlines():
            if line.startswith("# releases:"):
                dates = line.split(":", 1)[1].split()
            if not line.strip() or line.startswith("#"):
                continue
            id, words, chain = (line.split("\t") + ["", ""])[:3]
            parts = chain.split()
            check[id] = words.split()
            chains[id] = [(int(k), None if n == "-" else n) for k, n in zip(parts[::2], parts[1::2])]
        return cls(numbering, dates, check, chains)

    def index(self, date: str) -> int | None:
        """The place of ``date`` among the map's releases, or None if it has no such release."""
        return self._index.get(date)

    def nearest(self, date: str) -> int:
        """The map's release in effect on ``date`` (the earliest if none was yet)."""
        return max(bisect.bisect_right(self.dates, date) - 1, 0)

    def number(self, id: str, k: int) -> str | None:
        """What the map's release ``k`` numbers table id ``id`` (None: no such rule)."""
        chain = self.chains.get(id)
        if not chain:
            return None
        starts = self._starts.get(id)
        if starts is None:
            starts = self._starts[id] = [c[0] for c in chain]
        at = bisect.bisect_right(starts, k) - 1
        return chain[at][1] if at >= 0 else None


def _read_map() -> Renumbering:
    from crsearch.paths import data_dir

    try:
        return Renumbering.parse((data_dir() / MAP_FILE).read_text(encoding="utf-8"))
    except OSError:
        # A broken install: every table id is read as numbered in its own
        # release only (the words check still guards it).
        return Renumbering("", [], {}, {})


@functools.cache
def renumbering() -> Renumbering:
    """The shipped map (read once)."""
    return _read_map()


class Via:
    """A data folder's links from a release the map knows (``start``) to the
    release at hand, oldest link first when ``forward``, newest first otherwise."""

    def __init__(self, start: str, links: Sequence[Link], forward: bool):
        self.start, self.links, self.forward = start, list(links), forward

    def follow(self, id: str) -> str | None:
        for link in self.links:
            got = link.forward(id)[0] if self.forward else link.backward(id)[0]
            if got is None:
                return None
            id = got
        return id


class Carry:
    """The table ids carried into one release: ``carry(id)`` is the id there,
    or None when it cannot be carried or its words do not hold.

    :param date: the release's effective date.
    :param texts: each of the release's ids -> its words to check (title and
        text, ``asked.doc_texts``).
    :param via: links from a release the map knows, for a release it does not.
    """

    def __init__(self, date: str, texts: Mapping[str, str], via: Via | None = None,
                 table: Renumbering | None = None):
        self.date, self.texts, self.via = date, texts, via
        self._words: dict[str, set[str]] = {}  # each id's words, once (``holds``)
        self._carried: dict[str, str | None] = {}  # the tables name the same rules often
        self.table = table if table is not None else renumbering()
        t = self.table
        known = t.index(date)
        if known is not None:
            self.via = None
            self.base: int | None = known
        elif via is not None and t.index(via.start) is not None:
            self.base = t.index(via.start)
        else:
            self.via = None
            self.base = t.nearest(date) if t.dates else None

    def __call__(self, id: str) -> str | None:
        try:
            return self._carried[id]
        except KeyError:
            got = self._carried[id] = self._carry(id)
            return got

    def _carry(self, id: str) -> str | None:
        t = self.table
        check = t.check.get(id)
        if check is None or self.base is None:
            # Not in the map: only its own release can read the id.
            return id if self.date == t.numbering and id in self.texts else None
        now = t.number(id, self.base)
        if now is not None and self.via is not None:
            now = self.via.follow(now)
        if now is None or not holds(now, check, self.texts, self._words):
            return None
        return now

    def ids(self, ids: Iterable[str]) -> tuple[str, ...]:
        """``ids`` carried, in order, each once, those that cannot be left out."""
        out = (self(i) for i in ids)
        return tuple(dict.fromkeys(i for i in out if i is not None))


# -- the three tables, carried ---------------------------------------------------

def topics(carry: Carry, table: tuple[Topic, ...] | None = None) -> tuple[Topic, ...]:
    """The judges' topics (``topics.TOPICS`` unless given) with their rules
    carried; a topic left without rules is left out."""
    from crsearch.search.topics import TOPICS, Topic

    out = []
    for topic in TOPICS if table is None else table:
        rules = carry.ids(topic.rules)
        if rules:
            out.append(Topic(topic.cues, rules))
    return tuple(out)


def cards(carry: Carry, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The cards table's matching data (``cardtopics.table()`` unless given)
    with each card's rules carried.  A card whose rules all drop keeps its
    name (a question still names it) with no rules."""
    from crsearch.search.cardtopics import table as cards_table

    got = cards_table() if table is None else table
    return {**got, "rules": {name: list(carry.ids(rules)) for name, rules in got["rules"].items()}}


def asked(carry: Carry, entries: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The questions asked before (``asked.load()`` unless given) with their
    answers carried; a question left without answers is left out."""
    from crsearch.search import asked as memory

    out = []
    for e in memory.load() if entries is None else entries:
        ids = list(carry.ids(e["ids"]))
        if ids:
            out.append({"question": e["question"], "ids": ids, "source": e.get("source", "")})
    return out


def table_ids_of(texts: Mapping[str, str]) -> dict[str, list[str]]:
    """Every rule id each table names, in its own numbering (each once), from
    the tables' texts by name ("topics", "cards", "asked")."""
    import json

    from crsearch.search import cardtopics, topics
    from crsearch.search.asked import well_formed

    questions = json.loads(texts["asked"]).get("questions") or []
    return {
        "topics": list(dict.fromkeys(r for t in topics.read_table(texts["topics"]) for r in t.rules)),
        "cards": list(dict.fromkeys(r for rules in cardtopics.read_table(texts["cards"])[0].values()
                                    for r in rules)),
        "asked": list(dict.fromkeys(i for e in questions if well_formed(e) for i in e["ids"])),
    }


def table_ids() -> dict[str, list[str]]:
    """Every rule id each shipped table names, in its own numbering (each once)."""
    return table_ids_of(_texts())


def _texts() -> dict[str, str]:
    from crsearch.paths import data_dir
    from crsearch.search.asked import FILE as ASKED
    from crsearch.search.cardtopics import TABLE_FILE as CARDS
    from crsearch.search.topics import TABLE_FILE as TOPICS

    out = {}
    for what, name in (("topics", TOPICS), ("cards", CARDS), ("asked", ASKED)):
        try:
            out[what] = (data_dir() / name).read_text(encoding="utf-8")
        except OSError:
            out[what] = "{}" if what == "asked" else ""
    return out


def numberings() -> dict[str, str | None]:
    """The release each shipped table says it is numbered in."""
    import json

    texts = _texts()
    try:
        asked_numbering = json.loads(texts["asked"]).get("numbering")
    except (ValueError, AttributeError):
        asked_numbering = None
    return {"topics": numbering_of(texts["topics"]), "cards": numbering_of(texts["cards"]),
            "asked": asked_numbering if isinstance(asked_numbering, str) else None}


__all__ = ["MAP_FILE", "NUMBERING", "Carry", "Renumbering", "Via", "asked", "cards",
           "numbering_of", "numberings", "renumbering", "table_ids", "table_ids_of", "topics"]
