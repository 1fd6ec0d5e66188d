"""Questions asked before: rules questions that players asked in public,
with the rules that answered them and where.

``data/asked.json`` holds them (written by ``tools/learn_fusion.py``
from the development questions of ``bench/``, in the
project's own words, never a held-out question).  Their ids are numbered
as the release its ``numbering`` names; ``tables.py`` carries them into
other releases, as it does the topics and cards, and checks each by a few
of its text's rarest words (``check_words``, ``holds``): a release where a
number means something else leaves it out.

An index stores, beside its embeddings, the entries that hold for its
release and each one's question vector (``embed.build``).  A new question
then learns from the old ones like it: how many asked before were answered
by a candidate, and how close the closest of them is.  ``search --why``
shows that question and its source.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from crsearch.rules import numbers
from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.rules.text import words

FILE = "asked.json"
#: How many of an id's check words must be in a release's text for the id to hold.
CHECK_SHARE = 0.75


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def well_formed(entry: Any) -> bool:
    """An entry with a question, answer ids and a source, all text."""
    return isinstance(entry, dict) and isinstance(entry.get("question"), str) \
        and bool(entry["question"]) and _strings(entry.get("ids")) and bool(entry["ids"]) \
        and isinstance(entry.get("source", ""), str)


def _read() -> dict[str, Any]:
    from crsearch.errors import BrokenInstall
    from crsearch.paths import read_data

    try:
        data = json.loads(read_data(FILE))
    except (BrokenInstall, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load() -> list[dict[str, Any]]:
    """The shipped entries (``question``, ``ids``, ``source``), ids in the
    file's ``numbering``; a damaged entry is left out, and a missing or
    damaged file gives [] (questions then rank without them)."""
    entries = _read().get("questions")
    if not isinstance(entries, list):
        return []
    return [{"question": e["question"], "ids": list(e["ids"]), "source": e.get("source", "")}
            for e in entries if well_formed(e)]


def doc_texts(docs: list[dict[str, Any]]) -> dict[str, str]:
    """Each index document's words to check against (title and text), by id."""
    return {d["id"]: f"{d.get('title', '')} {d.get('text', '')}" for d in docs}


def check_words(text: str, df: dict[str, int], n: int = 4) -> list[str]:
    """The ``n`` rarest words of ``text`` (``df``: documents per word), the
    fingerprint that tells the same rule in another release."""
    seen = sorted(set(words(text)), key=lambda w: (df.get(w, 0), w))
    return seen[:n]


def holds(id: str, check: list[str], texts: Mapping[str, str],
          seen: dict[str, set[str]] | None = None) -> bool:
    """``id`` exists in the release of ``texts`` and says what it said.

    ``seen`` keeps each id's words between calls (a table names the same
    rules many times)."""
    text = texts.get(id)
    if text is None:
        return False
    if not check:
        return True
    have = seen.get(id) if seen is not None else None
    if have is None:
        have = set(words(text))
        if seen is not None:
            seen[id] = have
    return sum(w in have for w in check) >= math.ceil(CHECK_SHARE * len(check))


def _is_subrule(id: str) -> bool:
    # A canonical subrule id ends in its letters ("702.19c"); a glossary id
    # may end in a letter too.  Told by its last character, not parsed: a
    # question asks it of every answer and candidate (``numbers.kind``
    # parses each id once, some 10 M instructions for the entries).
    return id[-1:].isalpha() and not id.startswith(GLOSSARY_PREFIX)


def _rule(id: str) -> str:
    return id.rstrip(numbers.LETTERS) if _is_subrule(id) else id


class Memory:
    """The entries of one index and their question vectors."""

    def __init__(self, entries: list[dict[str, Any]],
                 similarity: Callable[[Sequence[float], int], float]) -> None:
        #: ``similarity(vec, n)``: ``vec`` times entry n's unit vector.
        self.entries = entries
        self._similarity = similarity
        # By rule: an answer and a result meet under the same rule (a
        # subrule's parent, else the id itself).
        self._by_rule: dict[str, list[tuple[int, str, bool]]] = {}
        for n, e in enumerate(entries):
            for a in e["ids"]:
                self._by_rule.setdefault(_rule(a), []).append((n, a, _is_subrule(a)))
        self._matches: dict[str, set[int]] = {}

    def _matching(self, candidate: str) -> set[int]:
        """The entries ``candidate`` answers as the bench scores a hit: the
        same id, the rule of a subrule that answered, or a subrule of a rule
        that answered (not a sibling subrule).  Cached (the same candidates
        come back question after question); not to be changed."""
        got = self._matches.get(candidate)
        if got is None:
            sub = _is_subrule(candidate)
            got = self._matches[candidate] = {
                n for n, a, a_sub in self._by_rule.get(_rule(candidate), ())
                if a == candidate or not (sub and a_sub)}
        return got

    def evidence(self, vec: Sequence[float], candidates: list[str],
                 skip: AbstractSet[str] = frozenset()) -> dict[str, tuple[int, float, int]]:
        """For each candidate answered before: how many asked, the best
        similarity to ``vec`` and that entry's number.  Entries whose source
        is in ``skip`` are left out (the bench leaves out the page a
        question came from)."""
        sims: dict[int, float] = {}
        out: dict[str, tuple[int, float, int]] = {}
        for c in candidates:
            matching = self._matching(c)
            if not matching:
                continue  # most candidates answered none
            got = [n for n in matching
                   if not skip or self.entries[n].get("source", "") not in skip]
            if not got:
                continue
            for n in got:
                if n not in sims:
                    sims[n] = self._similarity(vec, n)
            best = max(got, key=lambda n: sims[n])
            out[c] = (len(got), sims[best], best)
        return out
