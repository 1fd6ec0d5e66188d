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
- ``wgone`` and ``wcame``: the old and new ids the whole pairing leaves
  alone (removed and added, as ``diff`` reports them) besides those that
  ``gone`` and ``came`` map to None, and ``scores``: the similarity of each
  pair of the whole pairing that differs, unless 1.0;
- ``repeats`` (only when a release repeats an id, a handful do): what the
  history and ``trace_forward`` find for those ids, and every id of both
  releases (see ``_repeats``).
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
    # What the history finds for each id: its chapter partner, else its
    # partner in the whole releases (None when it has none there either).
    ahead: dict[str, tuple[Rule | None, Rule | None, bool]] = {}
    for x, (o, n, _s) in _first(local, 0).items():
        if n is not None:
            ahead[x] = (o, n, False)
        else:
            hit = w_old.get(x)
            ahead[x] = (hit[0], hit[1], True) if hit else (o, None, True)
    behind: dict[str, tuple[Rule | None, Rule | None, bool]] = {}
    for y, (o, n, _s) in _first(local, 1).items():
        if o is not None:
            behind[y] = (o, n, False)
        else:
            hit = w_new.get(y)
            behind[y] = (hit[0], hit[1], True) if hit else (None, n, True)
    out: dict[str, Any] = {
        "moves": {o.id: n.id for o, n, _ in local if o and n and o.id != n.id},
        "whole": {o.id: n.id for o, n, _ in whole if o and n and o.id != n.id},
        "gone": {x: n.id if n else None for x, (_, n, far) in ahead.items() if far},
        "came": {y: o.id if o else None for y, (o, _, far) in behind.items() if far},
    }
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
    out["text"], out["examples"] = sorted(text), sorted(examples)
    # The whole pairing in full, for ``diff``: what it leaves alone, and the
    # similarity of each pair that differs (1.0 unless given).
    out["wgone"] = [o.id for o, n, _ in whole if o is not None and n is None
                    and not (o.id in out["gone"] and out["gone"][o.id] is None)]
    out["wcame"] = [n.id for o, n, _ in whole if o is None and n is not None
                    and not (n.id in out["came"] and out["came"][n.id] is None)]
    out["scores"] = {o.id: s for o, n, s in whole if o is not None and n is not None and s != 1.0
                     and (o.id != n.id or (o.text, o.examples) != (n.text, n.examples))}
    repeats = _repeats(old, new, ahead, behind, local, whole)
    if repeats:
        out["repeats"] = repeats
        repeats["member"] = _membership(out, old, new)
    return out


def _repeats(old: Release, new: Release, ahead: dict[str, Any], behind: dict[str, Any],
             local: Pairs, whole: Pairs) -> dict[str, Any]:
    """What the history finds for ids that a release repeats (a handful do):
    by old id (``old``) and by new id (``new``), ``[partner id or None, found
    in the whole releases?, which copy of the old id, which copy of the new
    id, whether the pair differs]``, the copies counted from 0 in rule order.

    ``trace``: what ``trace_forward`` finds for such an old id, which reads
    each id's last copy: ``[stays (in both, its text the same), its chapter
    partner, its partner in the whole releases]`` (None where it has none).
    ``member``: by release (``old``, ``new``), the ids whose presence the
    moves alone would tell wrong, and whether that release has them."""
    copy: dict[int, int] = {}
    repeated: set[str] = set()
    for rules in (old.rules, new.rules):
        seen: dict[str, int] = {}
        for r in rules:
            copy[id(r)] = seen.get(r.id, 0)
            seen[r.id] = copy[id(r)] + 1
        repeated |= {i for i, n in seen.items() if n > 1}
    if not repeated:
        return {}

    def row(o: Rule | None, n: Rule | None, far: bool, other: Rule | None) -> list[Any]:
        differs = o is not None and n is not None and (
            o.id != n.id or (o.text, o.examples) != (n.text, n.examples))
        return [other.id if other else None, far, copy[id(o)] if o else 0,
                copy[id(n)] if n else 0, differs]

    out: dict[str, Any] = {"old": {}, "new": {}, "trace": {}}
    for x, (o, n, far) in ahead.items():
        if x in repeated or (n is not None and n.id in repeated):
            out["old"][x] = row(o, n, far, n)
    for y, (o, n, far) in behind.items():
        if y in repeated or (o is not None and o.id in repeated):
            out["new"][y] = row(o, n, far, o)
    last_old = {r.id: r.text for r in old.rules}
    last_new = {r.id: r.text for r in new.rules}
    near = {o.id: n.id for o, n, _ in local if o is not None and n is not None}
    far_ = {o.id: n.id for o, n, _ in whole if o is not None and n is not None}
    for x in sorted(repeated & set(last_old)):
        out["trace"][x] = [x in last_new and last_old[x] == last_new[x], near.get(x), far_.get(x)]
    return out


def _membership(link: dict[str, Any], old: Release, new: Release) -> dict[str, dict[str, bool]]:
    """The ids whose presence in each release ``Link.in_old`` and ``in_new``
    would tell wrong from the moves alone (only where a release repeats an
    id), with the right answer."""
    from crsearch.store.lineage import Link

    read = Link("", "", link)
    olds, news = {r.id for r in old.rules}, {r.id for r in new.rules}
    return {"old": {i: i in olds for i in sorted(olds | news) if read.in_old(i, i in news) != (i in olds)},
            "new": {i: i in news for i in sorted(olds | news) if read.in_new(i, i in olds) != (i in news)}}


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
