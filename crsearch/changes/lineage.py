"""The links between the rules of two neighbouring releases, worked out once.

``crsearch history`` follows one rule from release to release, and
``cite-check --as-of`` follows many.  Both ask the same question of each
pair of neighbouring releases: where did this rule go, and did its text
change?  :func:`link` answers it for every rule at once, when a release is
imported, as plain data that ``store/lineage.py`` keeps in the data folder.

The answer is the pairing of ``diff.py``, taken the way a history reads it:
the rules of one chapter are paired with the same chapter of the other
release first, and a rule left without a partner there is looked up in the
pairing of the whole releases (it may have moved to another chapter).
A link (see ``store.lineage.Link`` for how it is read) holds:

- ``moves``: old id -> new id, every pair of the chapter pairings whose
  ids differ (any other old id that has a chapter partner keeps its number);
- ``gone``: old id -> its partner in the whole pairing, or None when it was
  removed, for every old id its chapter pairing left alone;
- ``came``: new id -> its partner in the whole pairing, or None when it
  was added, for every new id its chapter pairing left alone;
- ``whole``: old id -> new id, every pair of the whole pairing whose ids
  differ (the renumbering that a change read through it follows);
- ``text``: ids in both releases whose text differs; ``examples``: ids whose
  text is the same but whose examples differ;
- ``first`` (only when a release repeats an id): the chapter partner of an
  id's first copy where ``moves`` would say otherwise, by old id (``old``)
  and by new id (``new``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crsearch.changes.diff import pair_headings, pair_rules
from crsearch.rules.model import Release, Rule

Pairs = list[tuple[Rule | None, Rule | None, float]]


def _by_chapter(rules: Sequence[Rule]) -> dict[str, list[Rule]]:
    out: dict[str, list[Rule]] = {}
    for r in rules:
        out.setdefault(r.id.split(".", 1)[0], []).append(r)
    return out


def _same(a: list[Rule], b: list[Rule]) -> bool:
    return len(a) == len(b) and all(
        x.id == y.id and x.text == y.text and x.examples == y.examples for x, y in zip(a, b))


def _first(pairs: Pairs, side: int) -> dict[str, tuple[Rule | None, Rule | None, float]]:
    """Each id's first pair on one side (0 old, 1 new): what the history finds."""
    out: dict[str, tuple[Rule | None, Rule | None, float]] = {}
    for p in pairs:
        r = p[0] if side == 0 else p[1]
        if r is not None and r.id not in out:
            out[r.id] = p
    return out


def chapter_pairs(old: Release, new: Release) -> Pairs:
    """Each chapter's rules paired with the same chapter of ``new``, chapter by chapter.

    A chapter whose rules are the same in both (ids, texts and examples, in
    order) pairs each rule with itself, as the matcher would.
    """
    a, b = _by_chapter(old.rules), _by_chapter(new.rules)
    out: Pairs = []
    for ch in sorted(set(a) | set(b)):
        olds, news = a.get(ch, []), b.get(ch, [])
        if _same(olds, news):
            out += [(x, y, 1.0) for x, y in zip(olds, news)]
        else:
            out += pair_rules(olds, news, {ch: ch})
    return out


def whole_pairs(old: Release, new: Release) -> Pairs:
    """The rules of the two whole releases paired, chapters paired by heading first."""
    _, chapter_map = pair_headings(old.chapters, new.chapters, "chapter")
    return pair_rules(old.rules, new.rules, chapter_map)


def link(old: Release, new: Release) -> dict[str, Any]:
    """The link from ``old`` to the next release ``new`` (see the module docstring)."""
    local, whole = chapter_pairs(old, new), whole_pairs(old, new)
    w_old, w_new = _first(whole, 0), _first(whole, 1)
    gone: dict[str, str | None] = {}
    for x, (_, n, _s) in _first(local, 0).items():
        if n is None:
            hit = w_old.get(x)
            gone[x] = hit[1].id if hit is not None and hit[1] is not None else None
    came: dict[str, str | None] = {}
    for y, (o, _n, _s) in _first(local, 1).items():
        if o is None:
            hit = w_new.get(y)
            came[y] = hit[0].id if hit is not None and hit[0] is not None else None
    moves = {o.id: n.id for o, n, _ in local if o and n and o.id != n.id}
    back = {n: o for o, n in moves.items()}
    # A release that repeats an id (a handful do) may pair its first copy
    # otherwise than the moves say: the history follows the first copy.
    fwd = {x: n.id for x, (_, n, _s) in _first(local, 0).items()
           if n is not None and n.id != moves.get(x, x)}
    bwd = {y: o.id for y, (o, _n, _s) in _first(local, 1).items()
           if o is not None and o.id != back.get(y, y)}
    before: dict[str, Rule] = {}
    for r in old.rules:
        before.setdefault(r.id, r)
    text: set[str] = set()
    examples: set[str] = set()
    seen: set[str] = set()
    for r in new.rules:
        o = before.get(r.id)
        if o is None or r.id in seen:
            continue
        seen.add(r.id)
        if o.text != r.text:
            text.add(r.id)
        elif o.examples != r.examples:
            examples.add(r.id)
    out: dict[str, Any] = {
        "moves": moves,
        "whole": {o.id: n.id for o, n, _ in whole if o and n and o.id != n.id},
        "gone": gone,
        "came": came,
        "text": sorted(text),
        "examples": sorted(examples),
    }
    if fwd or bwd:
        out["first"] = {"old": fwd, "new": bwd}
    return out


class Linker:
    """Computes links between stored releases (the callback ``store.lineage.relink``
    takes), reading each release once.

    ``known`` holds releases already in memory by folder name (those an import
    just parsed); the others are read from the data folder, the last two kept.
    """

    def __init__(self, known: dict[str, Release] | None = None):
        self.known = dict(known or {})
        self._read: dict[str, Release] = {}

    def release(self, stored: Any) -> Release:
        import os

        folder = os.path.basename(stored.dir)
        got = self.known.get(folder) or self._read.get(folder)
        if got is None:
            got = stored.release()
            if len(self._read) >= 2:
                self._read.pop(next(iter(self._read)))
            self._read[folder] = got
        return got

    def __call__(self, old: Any, new: Any) -> dict[str, Any]:
        return link(self.release(old), self.release(new))


__all__ = ["Linker", "chapter_pairs", "link", "whole_pairs"]
