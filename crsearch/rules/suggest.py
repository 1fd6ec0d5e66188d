"""Every "did you mean": rule numbers near a missing one, names near a typo.

One home for the choice, so ``rule``, ``toc``, ``history``, ``search``,
``define`` and ``keyword`` suggest alike.  Rule numbers are suggested by
what a judge mistypes (swapped or doubled characters) and by their
neighbours in rule order under the nearest existing parent; anything else
by spelling (``difflib``).  Standard library only; ``difflib`` is imported
only when a name is misspelt, never on a lookup that succeeds.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Sequence

from crsearch.errors import BadInput
from crsearch.rules import numbers

#: Spelling similarity below which a name is not suggested at all.
CUTOFF = 0.6


def did_you_mean(typed: str, candidates: Iterable[str], limit: int = 5,
                 cutoff: float = CUTOFF, near: NearIds | None = None) -> list[str]:
    """The candidates a user who typed ``typed`` most likely meant, best first.

    A rule number is matched against rule numbers (typo fixes first, then
    its neighbours in rule order); anything else, or a number that cannot
    be read, by spelling with at least ``cutoff`` similarity.  ``near`` is
    a ``NearIds`` of ``candidates`` made before, for a caller that asks often.
    """
    pool = candidates if isinstance(candidates, Collection) else list(candidates)
    try:
        id = numbers.normalize(typed)
    except BadInput:
        id = ""
    if id and any(c[:1].isdigit() for c in pool):
        return near(id, limit) if near is not None else _near_ids(id, pool, limit)
    return [name for name, _ in ranked(typed, pool, limit, cutoff)]


def ranked(typed: str, candidates: Iterable[str], limit: int = 5,
           cutoff: float = CUTOFF) -> list[tuple[str, float]]:
    """``(candidate, similarity)`` for the closest spellings, best first."""
    import difflib

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(typed)
    scored = []
    for cand in candidates:
        matcher.set_seq1(cand)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            r = matcher.ratio()
            if r >= cutoff:
                scored.append((r, cand))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(cand, r) for r, cand in scored[:limit]]


def edit_distance(a: str, b: str, most: int = 3) -> int:
    """Typing mistakes between ``a`` and ``b``: letters added, dropped,
    changed or swapped with a neighbour (optimal string alignment); counting
    stops past ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > most:
            return most + 1
        prev2, prev = prev, cur
    return prev[-1]


def close_enough(typed: str, known: str) -> bool:
    """True when ``known`` is a likely typing of ``typed``: one mistake in a
    word of up to five letters, two in a longer one."""
    return edit_distance(typed, known, 2) <= (1 if len(typed) <= 5 else 2)


def _near_ids(id: str, pool: Collection[str], limit: int) -> list[str]:
    return NearIds(pool)(id, limit)


class NearIds:
    """Rule numbers near a missing one, from a pool of existing ids.

    Sorting the pool and finding each rule's subrules is done once, so a
    caller asking about many ids (``cite-check`` on a long text) pays a
    bisection per id, not a pass over the pool.
    """

    def __init__(self, pool: Iterable[str]):
        self.known = pool if isinstance(pool, (set, frozenset, dict)) else set(pool)
        self.existing = _in_order(self.known)
        self.keys = [numbers.sort_key(i) for i in self.existing]
        # Every id's descendants, in rule order (sorted order is kept).
        self.inside: dict[str, list[str]] = {}
        for i in self.existing:
            for up in numbers.ancestors(i):
                self.inside.setdefault(up, []).append(i)
        self.inside_keys = {up: [numbers.sort_key(i) for i in ids]
                            for up, ids in self.inside.items()}

    def __call__(self, id: str, limit: int = 5) -> list[str]:
        """Typo fixes first (transposed characters), then the siblings around
        where ``id`` would stand under its nearest existing parent (or its
        neighbours in rule order when no parent exists)."""
        known = self.known
        out: list[str] = []
        # Transposed characters ("702.91c" for "702.19c").
        for i in range(len(id) - 1):
            swapped = id[:i] + id[i + 1] + id[i] + id[i + 2:]
            if swapped != id and swapped in known and swapped not in out:
                out.append(swapped)
        parent = numbers.parent(id)
        while parent and parent not in known:
            parent = numbers.parent(parent)
        key = numbers.sort_key(id)
        pos = bisect.bisect_left(self.keys, key)
        near: Sequence[str] = self.existing[max(0, pos - 3):pos + 3]
        if parent:
            inside = self.inside.get(parent, [])
            # The siblings just around where the missing id would stand.
            at = bisect.bisect_left(self.inside_keys.get(parent, []), key)
            near = inside[max(0, at - 3):at + 3] or [parent]
        for n in near:
            if n not in out:
                out.append(n)
        return out[:limit]


def _in_order(ids: Iterable[str]) -> list[str]:
    out = []
    for i in ids:
        try:
            numbers.sort_key(i)
        except BadInput:
            continue  # glossary ids and the like
        out.append(i)
    return sorted(out, key=numbers.sort_key)
