"""The rules topics a judge recognises in a player's question.

A hand-kept "hot topics" index: the situations players ask about again and
again, in the words players use, each mapped to the rule ids that answer it,
best answer first, numbered as the release its header names (``tables.py``
carries them into the others).  A topic matches a question when
all the words of any one of its cues occur in the question, in any order,
compared after stemming (``matching``); a search can then rank the topic's
rules first.

Cues are 1-4 plain lowercase words.  A one-word cue is used only for a word
that names the topic by itself ("humility", "mulligan"); common words always
come in pairs or threes ("counters bounce", "dies same time").  Word forms the
Porter stemmer keeps apart ("dies"/"die", "sacrifice"/"sacrificed") get a
cue each.  A cue's stop words and "'s" are dropped, as the question's are.
A cue written with a leading "=" ("=bounce") matches only a query that is
that cue and nothing more (its words' stems, any order and form: "bounced"
too): a word that alone means one situation but in a longer question is
only a detail of it.

The table is data, ``data/topics.txt`` (about 1,600 topics and 4,900 cues),
written from judges' experience of what players ask, never from the
evaluation questions in ``bench/``.  Standard library only (the caller
passes its stemmer): this module is imported on the query path.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from crsearch.rules.text import STOP_WORDS, words
from crsearch.search.records import FrozenInstanceError, Record


class Topic(Record):
    """One question topic: the words that reveal it and the rules that answer it.

    ``cues``: each cue is 1-4 lowercase words; the topic matches a question
    when all the words of any cue occur in it (any order, compared after
    stemming).  ``rules``: rule ids, best answer first (the table's
    numbering, or carried by ``tables.py``).  Never changed; hashable.
    """

    __slots__ = ("cues", "rules")
    _FIELDS = __slots__
    cues: tuple[str, ...]
    rules: tuple[str, ...]

    def __init__(self, cues: tuple[str, ...], rules: tuple[str, ...]) -> None:
        object.__setattr__(self, "cues", cues)
        object.__setattr__(self, "rules", rules)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash((self.cues, self.rules))


#: The table itself (facts, no rules text): ``data/topics.txt``, one topic a line.
TABLE_FILE = "topics.txt"


def read_table(text: str) -> tuple[Topic, ...]:
    """Parse ``data/topics.txt``: ``cue; cue<TAB>rule ids`` lines, ``#`` comments."""
    topics = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cues, _, rules = line.partition("\t")
        topics.append(Topic(tuple(c.strip() for c in cues.split(";") if c.strip()),
                            tuple(rules.split())))
    return tuple(topics)


def _load() -> tuple[Topic, ...]:
    from crsearch.paths import read_data

    return read_table(read_data(TABLE_FILE))  # BrokenInstall when it is missing or damaged


@functools.cache
def _all() -> tuple[Topic, ...]:
    return _load()


def __getattr__(name: str) -> Any:
    # TOPICS is read on first use, not on import: a search whose index keeps
    # the cues ready (``Cues.to_parts``) never parses the table.
    if name == "TOPICS":
        return _all()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Every topic, in the table's order (read lazily from ``data/topics.txt``).
TOPICS: tuple[Topic, ...]


def cue_words() -> set[str]:
    """Every word of every cue (the index keeps their stems ready)."""
    return {w for t in _all() for c in t.cues for w in words(c)}


def question_stems(question_words: list[str], stem: Callable[[str], str]) -> set[str]:
    """The stems a question's words offer to the cues ("opponent's" meets
    the cue word "opponent")."""
    return {stem(w[:-2] if w.endswith("'s") else w) for w in question_words if w not in STOP_WORDS}


#: What starts a cue that must be the whole query ("=bounce").
WHOLE = "="


def whole_stem(query_words: list[str], stem: Callable[[str], str]) -> str:
    """One stem that stands for a whole query's words ("=bounc" for
    "bounced"): a cue written "=bounce" has it as its only stem, and a query
    offers it besides its words' stems, so that such a cue matches by the
    same set test as the others (here and in the site's rank.js)."""
    return WHOLE + "_".join(sorted(question_stems(query_words, stem)))


def cue_stems(cue: str, stem: Callable[[str], str]) -> frozenset[str]:
    """A cue's stems as a question's words are read ("=cue": its whole stem)."""
    if cue.startswith(WHOLE):
        return frozenset([whole_stem(words(cue[len(WHOLE):]), stem)])
    return frozenset(question_stems(words(cue), stem))


#: How many first letters of a cue's smallest stem name its part (``Cues.to_parts``).
PART_PREFIX = 2


class Cues:
    """Every cue of the topics (all of ``TOPICS`` unless given) stemmed once,
    for matching many questions.

    ``keep`` says which rule ids to keep: a topic none of whose rules is kept
    is left out.  ``stems_of`` gives a cue's ``cue_stems`` with ``stem``
    (one that keeps them between index builds).  Give the topics carried into a release
    (``tables.topics``) for any release but the table's own.
    """

    def __init__(self, stem: Callable[[str], str], keep: Callable[[str], bool] = lambda id: True,
                 topics: tuple[Topic, ...] | None = None,
                 stems_of: Callable[[str], frozenset[str]] | None = None):
        self.stem = stem
        self._part: Callable[[str], dict[str, Any] | None] | None = None
        self._letters: list[str] = []
        self._topics: dict[int, Topic] = {}
        self._cues: list[tuple[frozenset[str], str, Topic]] | None = []
        for topic in _all() if topics is None else topics:
            rules = tuple(r for r in topic.rules if keep(r))
            if rules:
                kept = Topic(topic.cues, rules)
                # Cue words are read as question words are: a cue keeps no
                # stop word or "'s" that the question side drops.
                self._cues.extend((stems_of(c) if stems_of else cue_stems(c, stem), c, kept)
                                  for c in topic.cues)

    def to_parts(self) -> dict[str, dict[str, Any]]:
        """The stemmed cues as JSON-able values, by the first ``PART_PREFIX``
        letters of a stem (what an index keeps ready, see ``from_parts``).  A
        cue goes with its smallest stem's first letters: a question that has
        the cue has that stem (two letters, not one: a question reads a
        fraction of the table, not half of it).  A part has its cues
        (``[number, stems, cue, topic]``), the topics they name, and which of
        its cues each stem starts."""
        parts: dict[str, dict[str, Any]] = {}
        numbers: dict[int, int] = {}
        for n, (stems, cue, topic) in enumerate(self.cues):
            t = numbers.setdefault(id(topic), len(numbers))
            ordered = sorted(stems)
            key = ordered[0] if ordered else ""
            part = parts.setdefault(key[:PART_PREFIX], {"cues": [], "topics": {}, "first": {}})
            part["first"].setdefault(key, []).append(len(part["cues"]))
            part["cues"].append([n, ordered, cue, t])
            part["topics"][str(t)] = [list(topic.cues), list(topic.rules)]
        return dict(sorted(parts.items()))

    @classmethod
    def from_parts(cls, part: Callable[[str], dict[str, Any] | None], letters: list[str],
                   stem: Callable[[str], str]) -> Cues:
        """The cues ``to_parts`` wrote, without stemming them again: ``part(letter)``
        gives one part (None when it cannot), ``letters`` says which exist."""
        self = cls.__new__(cls)
        self.stem = stem
        self._part = part
        self._letters = letters
        self._topics = {}
        self._cues = None
        return self

    @property
    def cues(self) -> list[tuple[frozenset[str], str, Topic]]:
        """Every cue: ``(stems, cue, topic)``, in table order."""
        if self._cues is None:
            assert self._part is not None
            rows = [(n, frozenset(st), c, self._topic(t, part))
                    for part in filter(None, map(self._part, self._letters))
                    for n, st, c, t in part["cues"]]
            self._cues = [(st, c, t) for _, st, c, t in sorted(rows, key=lambda r: r[0])]
        return self._cues

    def _topic(self, n: int, part: dict[str, Any]) -> Topic:
        got = self._topics.get(n)
        if got is None:
            cues, rules = part["topics"][str(n)]
            got = self._topics[n] = Topic(tuple(cues), tuple(rules))
        return got

    def question_stems(self, question_words: list[str]) -> set[str]:
        """``question_stems`` with this table's stemmer."""
        return question_stems(question_words, self.stem)

    def found(self, question_words: list[str],
              typed: list[str] | None = None) -> list[tuple[str, Topic]]:
        """``(cue, topic)`` for every cue all of whose words the question has,
        in table order; ``typed``: the query's own words (without the slang's
        rules wording), which a whole-query cue ("=bounce") must be."""
        have = question_stems(question_words, self.stem)
        if typed is not None:
            have.add(whole_stem(typed, self.stem))
        if self._part is None:
            return [(c, t) for stems, c, t in self.cues if stems <= have]
        hits: list[tuple[int, str, Topic]] = []
        for letter in sorted({s[:PART_PREFIX] for s in have} | {""}):
            part = self._part(letter) if letter in self._letters else None
            if not part:
                continue
            first, cues = part["first"], part["cues"]
            for i in sorted({i for s in have for i in first.get(s, ())}):
                n, stems, cue, t = cues[i]
                if all(s in have for s in stems):
                    hits.append((n, cue, self._topic(t, part)))
        return [(c, t) for _, c, t in sorted(hits, key=lambda h: h[0])]


def matching(question: str, stem: Callable[[str], str],
             topics: tuple[Topic, ...] | None = None) -> list[Topic]:
    """The topics (all of ``TOPICS`` unless given) whose cues all occur in
    ``question``, in table order.

    ``stem`` is the search's own stemmer (Porter), so cue and question words
    are compared the way the index compares them.
    """
    typed = words(question)
    return list(dict.fromkeys(t for _, t in Cues(stem, topics=topics).found(typed, typed)))
