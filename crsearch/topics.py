"""The rules topics a judge recognises in a player's question.

A hand-kept "hot topics" index: the situations players ask about again and
again, in the words players use, each mapped to the rule ids (2026-08-07
numbering) that answer it, best answer first.  A topic matches a question when
all the words of any one of its cues occur in the question, in any order,
compared after stemming (``matching``); a search can then rank the topic's
rules first.

Cues are 1-4 plain lowercase words.  A one-word cue is used only for a word
that names the topic by itself ("humility", "mulligan"); common words always
come in pairs or threes ("counters bounce", "dies same time").  Word forms the
Porter stemmer keeps apart ("dies"/"die", "sacrifice"/"sacrificed") get a
cue each.  A cue's stop words and "'s" are dropped, as the question's are.

The table is data, ``data/topics.txt`` (about 1,450 topics and 4,250 cues),
written from judges' experience of what players ask, never from the
evaluation questions in ``bench/``.  Standard library only (the caller
passes its stemmer): this module is imported on the query path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crsearch.text import STOP_WORDS, words


@dataclass(frozen=True)
class Topic:
    """One question topic: the words that reveal it and the rules that answer it."""

    #: Each cue is 1-4 lowercase words; the topic matches a question when all
    #: the words of any cue occur in it (any order, compared after stemming).
    cues: tuple[str, ...]
    #: Rule ids (2026-08-07 numbering), best answer first.
    rules: tuple[str, ...]


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
    from crsearch.paths import data_dir

    try:
        return read_table((data_dir() / TABLE_FILE).read_text(encoding="utf-8"))
    except OSError:
        # A broken install loses the topic hints, not the search.
        return ()


#: Every topic, in the table's order.
TOPICS: tuple[Topic, ...] = _load()


def cue_words() -> set[str]:
    """Every word of every cue (the index keeps their stems ready)."""
    return {w for t in TOPICS for c in t.cues for w in words(c)}


def question_stems(question_words: list[str], stem: Callable[[str], str]) -> set[str]:
    """The stems a question's words offer to the cues ("opponent's" meets
    the cue word "opponent")."""
    return {stem(w[:-2] if w.endswith("'s") else w) for w in question_words if w not in STOP_WORDS}


class Cues:
    """Every cue of ``TOPICS`` stemmed once, for matching many questions.

    ``keep`` says which rule ids exist (an older release numbers rules
    otherwise): a topic none of whose rules is kept is left out.
    """

    def __init__(self, stem: Callable[[str], str], keep: Callable[[str], bool] = lambda id: True):
        self.stem = stem
        self.cues: list[tuple[frozenset[str], str, Topic]] = []
        for topic in TOPICS:
            rules = tuple(r for r in topic.rules if keep(r))
            if rules:
                kept = Topic(topic.cues, rules)
                # Cue words are read as question words are: a cue keeps no
                # stop word or "'s" that the question side drops.
                self.cues.extend((frozenset(question_stems(words(c), stem)), c, kept)
                                 for c in topic.cues)

    def found(self, question_words: list[str]) -> list[tuple[str, Topic]]:
        """``(cue, topic)`` for every cue all of whose words the question has."""
        have = question_stems(question_words, self.stem)
        return [(c, t) for stems, c, t in self.cues if stems <= have]


def matching(question: str, stem: Callable[[str], str]) -> list[Topic]:
    """The topics whose cues all occur in ``question``, in table order.

    ``stem`` is the search's own stemmer (Porter), so cue and question words
    are compared the way the index compares them.
    """
    return list(dict.fromkeys(t for _, t in Cues(stem).found(words(question))))
