"""The history of one rule across releases, following it when renumbered.

Built on the pairing in ``diff.py``: each neighbouring pair of releases is
compared one chapter at a time, and the whole releases only for a rule
that seems to appear or vanish.  A data folder keeps those pairings, worked
out once at import, in its lineage table (``lineage.py``,
``store/lineage.py``): a history then reads the table and the few versions
of the rule that differ.  Releases given as a list, or a data folder whose
table lacks more than ``MAX_MISSING`` links, are paired here as they are read.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from crsearch.changes.diff import Change, Segment, Version, describe, pair_headings, pair_rules
from crsearch.errors import BadInput, NotFound
from crsearch.rules import numbers
from crsearch.rules.model import Release, Rule
from crsearch.rules.suggest import did_you_mean

if TYPE_CHECKING:
    from crsearch.store.lineage import Lineage, Link


class History:
    """A rule's history: ``entries`` oldest first, across ``releases`` (dates).

    ``to_dict()`` is what ``crsearch history --json`` prints.
    """

    def __init__(self, id: str, releases: list[str], entries: list[HistoryEntry]):
        self.id, self.releases, self.entries = id, releases, entries

    def __iter__(self) -> Any:
        return iter(self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "releases": self.releases,
                "history": [e.to_dict() for e in self.entries]}

    def __repr__(self) -> str:
        n = len(self.entries)
        dates = sorted({self.entries[0].date, self.entries[-1].date}) if self.entries else []
        span = f" ({' .. '.join(dates)})" if dates else ""
        return f"<History {self.id}: {n} event{'s' if n != 1 else ''}{span} in {len(self.releases)} releases>"

class HistoryEntry:
    """One event in a rule's life: first seen, changed, moved, or removed.

    ``id`` is the rule's id from this release on (the old id for removals);
    ``text`` and ``examples`` are the version in effect from ``date``.
    """

    __slots__ = (
        "cosmetic",
        "date",
        "event",
        "examples",
        "fields",
        "id",
        "old_id",
        "renumbering",
        "text",
    )

    def __init__(self, date: str, event: str, id: str, old_id: str | None = None,
                 text: str | None = None, examples: list[str] | None = None,
                 fields: dict[str, list[Segment]] | None = None,
                 cosmetic: bool = False, renumbering: bool = False):
        self.date, self.event, self.id, self.old_id = date, event, id, old_id
        self.text, self.examples = text, list(examples or [])
        self.fields = fields or {}
        self.cosmetic, self.renumbering = cosmetic, renumbering

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date, "event": self.event, "id": self.id, "old_id": self.old_id,
                "text": self.text, "examples": self.examples,
                "diff": {k: [list(s) for s in v] for k, v in self.fields.items()},
                "cosmetic": self.cosmetic, "renumbering": self.renumbering}

    def __repr__(self) -> str:
        return f"<HistoryEntry {self.date} {self.event} {self.old_id or ''}->{self.id}>"


class _Version:
    """A release as history reads it: one chapter at a time when it is stored."""

    def __init__(self, source: Any):
        self.source = source
        self.date: str = source.effective_date
        self._full: Release | None = source if isinstance(source, Release) else None
        self._ids: set[str] | None = None
        self._chapters: dict[str, list[Rule]] = {}

    def ids(self) -> set[str]:
        if self._ids is None:
            if self._full is not None:
                self._ids = {r.id for r in self._full.rules}
            else:
                self._ids = set(self.source.meta()["rule_ids"])
        return self._ids

    def chapter(self, ch: str) -> list[Rule]:
        if ch not in self._chapters:
            if self._full is not None:
                self._chapters[ch] = [r for r in self._full.rules if r.chapter == ch]
            else:
                self._chapters[ch] = self.source.chapter_rules(ch)
        return self._chapters[ch]

    def full(self) -> Release:
        if self._full is None:
            self._full = self.source.release()
        return self._full

    def forget(self) -> None:
        """Drop what was read of a stored release (it can be read again)."""
        if not isinstance(self.source, Release):
            self._full, self._chapters = None, {}


def _step(old: _Version, new: _Version, id: str,
          forward: bool) -> tuple[Rule | None, Rule | None, Change | None]:
    """Pair ``id`` (in ``new`` going back, in ``old`` going forward) across one step.

    Returns (old rule, new rule, change); the change is None when nothing
    differs.  One chapter is compared first; the whole release only when
    the rule seems to appear or vanish (it may have moved to another chapter).
    """
    ch = id.split(".", 1)[0]
    for whole in (False, True):
        if whole:
            o_rel, n_rel = old.full(), new.full()
            _, cmap = pair_headings(o_rel.chapters, n_rel.chapters, "chapter")
            pairs = pair_rules(o_rel.rules, n_rel.rules, cmap)
        else:
            pairs = pair_rules(old.chapter(ch), new.chapter(ch), {ch: ch})
        hit = next(((o, n, s) for o, n, s in pairs
                    if getattr(o if forward else n, "id", None) == id), None)
        if hit is None or (hit[1] if forward else hit[0]) is None:
            if not whole:
                continue
            return (hit[0], hit[1], None) if hit else (None, None, None)
        o_rule, n_rule, s = hit
        assert o_rule is not None and n_rule is not None
        if o_rule.id == n_rule.id and (o_rule.text, o_rule.examples) == (n_rule.text, n_rule.examples):
            return o_rule, n_rule, None
        idmap = {a.id: b.id for a, b, _ in pairs if a and b and a.id != b.id}
        op = "moved" if o_rule.id != n_rule.id else "changed"
        return o_rule, n_rule, describe(n_rule.kind, op, Version.of_rule(o_rule),
                                        Version.of_rule(n_rule), s, idmap)
    return None, None, None


def rule_history(releases: Any, id: str, at: str | None = None) -> list[HistoryEntry]:
    """The versions of one rule across releases, oldest first, following moves.

    :param releases: a ``Store``, or a list of ``StoredRelease`` or ``Release``.
    :param id: a rule or subrule number, as typed.
    :param at: read ``id`` as numbered in the release in effect on this date
        (default: the latest release that has it).
    Raises NotFound (with suggestions) if no release has the rule.
    """
    chain = _Chain.of(releases)
    if chain is not None:
        return _table_history(chain, _target(id), at)
    if hasattr(releases, "releases") and callable(releases.releases):
        releases = releases.releases()
    versions = sorted((_Version(r) for r in releases), key=lambda v: v.date)
    if not versions:
        raise NotFound("no releases to read the history from")
    target = _target(id)
    if at is not None:
        from crsearch.store.datadir import normalize_date

        day = normalize_date(at)
        upto = [k for k, v in enumerate(versions) if v.date <= day]
        if not upto:
            raise NotFound(f"no release was in effect on {day}; the earliest is "
                           f"{versions[0].date}", [versions[0].date])
        anchor = upto[-1]
        if target not in versions[anchor].ids():
            raise NotFound(f"there is no rule {target} in the {versions[anchor].date} rules",
                           did_you_mean(target, versions[anchor].ids()))
    else:
        having = [k for k, v in enumerate(versions) if target in v.ids()]
        if not having:
            raise NotFound(f"no imported release has a rule {target}",
                           did_you_mean(target, versions[-1].ids()))
        anchor = having[-1]
    entries: list[HistoryEntry] = []
    # Backwards from the anchor to the rule's first appearance.
    current = target
    first_rule = next(r for r in versions[anchor].chapter(current.split(".")[0]) if r.id == current)
    k = anchor
    while k > 0:
        o_rule, n_rule, change = _step(versions[k - 1], versions[k], current, forward=False)
        if o_rule is None:
            break
        if change is not None:
            entries.append(_entry(versions[k].date, change, n_rule))  # type: ignore[arg-type]
        current, first_rule, k = o_rule.id, o_rule, k - 1
    entries.append(HistoryEntry(versions[k].date, "added" if k > 0 else "present", first_rule.id,
                                text=first_rule.text, examples=first_rule.examples))
    entries.reverse()
    # Forwards from the anchor to the latest release (or the rule's removal).
    current = target
    for k in range(anchor + 1, len(versions)):
        o_rule, n_rule, change = _step(versions[k - 1], versions[k], current, forward=True)
        if n_rule is None:
            entries.append(HistoryEntry(versions[k].date, "removed", current))
            break
        if change is not None:
            entries.append(_entry(versions[k].date, change, n_rule))
        current = n_rule.id
    return entries


def _target(id: str) -> str:
    target = numbers.normalize(id)
    if numbers.kind(target) not in ("rule", "subrule"):
        raise BadInput(f"{target} is a {numbers.kind(target)}; history follows one rule "
                       f"or subrule, such as 702.19 or 702.19c")
    return target


#: Links a data folder's table may lack for a history to read it (they are
#: worked out on the spot); with more, the releases are paired as they are read.
MAX_MISSING = 2


class _Chain:
    """A data folder's releases in date order and the links between them."""

    def __init__(self, stored: list[Any], lineage: Lineage):
        self.stored = stored
        self.dates: list[str] = [s.effective_date for s in stored]
        self.folders = [os.path.basename(s.dir) for s in stored]
        self.lineage = lineage
        self._ids: dict[int, set[str]] = {}
        self._links: dict[int, Link] = {}

    @classmethod
    def of(cls, releases: Any) -> _Chain | None:
        """The chain of a ``Store`` whose table is (nearly) whole, else None."""
        if not (hasattr(releases, "releases") and callable(releases.releases)
                and hasattr(releases, "dir")):
            return None
        from crsearch.store.lineage import Lineage

        lineage = Lineage.read(releases.dir)
        chain = cls(releases.releases(), lineage)
        if not chain.stored:
            raise NotFound("no releases to read the history from")
        if len(lineage.missing(chain.folders)) > MAX_MISSING:
            return None
        return chain

    def link(self, k: int) -> Link:
        """The link from release ``k - 1`` to release ``k``."""
        got = self._links.get(k)
        if got is None:
            got = self.lineage.get(self.folders[k - 1], self.folders[k])
            if got is None:
                from crsearch.changes.lineage import link
                from crsearch.store.lineage import Link

                data = link(self.stored[k - 1].release(), self.stored[k].release())
                got = Link(self.folders[k - 1], self.folders[k], data)
            self._links[k] = got
        return got

    def ids(self, k: int) -> set[str]:
        if k not in self._ids:
            self._ids[k] = set(self.stored[k].meta()["rule_ids"])
        return self._ids[k]

    def rule(self, k: int, id: str, copy: int = 0) -> Rule:
        """Rule ``id`` as release ``k`` has it (which copy, if it repeats the id)."""
        got = self.stored[k].rule_dicts(id.split(".", 1)[0], id, lambda i: i == id)
        if len(got) <= copy:
            from crsearch.errors import DamagedStore

            raise DamagedStore(f"release {self.dates[k]} lacks rule {id}, which its lineage "
                               "table names; run `crsearch repair`")
        return Rule.from_dict(got[copy])

    def anchor(self, target: str, at: str | None) -> int:
        """The release ``target`` is read in (see ``rule_history``)."""
        if at is not None:
            from crsearch.store.datadir import normalize_date

            day = normalize_date(at)
            upto = [k for k, d in enumerate(self.dates) if d <= day]
            if not upto:
                raise NotFound(f"no release was in effect on {day}; the earliest is "
                               f"{self.dates[0]}", [self.dates[0]])
            if target not in self.ids(upto[-1]):
                raise NotFound(f"there is no rule {target} in the {self.dates[upto[-1]]} rules",
                               did_you_mean(target, self.ids(upto[-1])))
            return upto[-1]
        k = len(self.stored) - 1
        has = target in self.ids(k)
        while not has and k > 0:
            has = self.link(k).in_old(target, has)
            k -= 1
        if not has:
            raise NotFound(f"no imported release has a rule {target}",
                           did_you_mean(target, self.ids(len(self.stored) - 1)))
        return k


def _change(chain: _Chain, k: int, old: tuple[str, int], new: tuple[str, int], whole: bool,
            chapter: str) -> tuple[Change, Rule]:
    """The change of link ``k`` from rule ``old`` to rule ``new`` (id, copy),
    and the new rule."""
    o_rule, n_rule = chain.rule(k - 1, *old), chain.rule(k, *new)
    op = "moved" if o_rule.id != n_rule.id else "changed"
    return describe(n_rule.kind, op, Version.of_rule(o_rule), Version.of_rule(n_rule), 1.0,
                    chain.link(k).renumbering(whole, chapter)), n_rule


def _table_history(chain: _Chain, target: str, at: str | None) -> list[HistoryEntry]:
    """``rule_history`` read from a data folder's lineage table."""
    anchor = chain.anchor(target, at)
    entries: list[HistoryEntry] = []
    current, copy, k = target, 0, anchor
    while k > 0:
        before, whole, old_copy, new_copy, differs = chain.link(k).step(current, False)
        if before is None:
            break
        if differs:
            change, rule = _change(chain, k, (before, old_copy), (current, new_copy), whole,
                                   current.split(".", 1)[0])
            entries.append(_entry(chain.dates[k], change, rule))
        current, copy, k = before, old_copy, k - 1
    first = chain.rule(k, current, copy)
    entries.append(HistoryEntry(chain.dates[k], "added" if k > 0 else "present", first.id,
                                text=first.text, examples=first.examples))
    entries.reverse()
    current = target
    for k in range(anchor + 1, len(chain.stored)):
        after, whole, old_copy, new_copy, differs = chain.link(k).step(current, True)
        if after is None:
            entries.append(HistoryEntry(chain.dates[k], "removed", current))
            break
        if differs:
            change, rule = _change(chain, k, (current, old_copy), (after, new_copy), whole,
                                   current.split(".", 1)[0])
            entries.append(_entry(chain.dates[k], change, rule))
        current = after
    return entries


def _table_trace(chain: _Chain, ids: list[str], at: str) -> dict[str, tuple[str | None, str]]:
    """``trace_forward`` read from a data folder's lineage table."""
    from crsearch.store.datadir import normalize_date

    day = normalize_date(at)
    upto = [k for k, d in enumerate(chain.dates) if d <= day]
    if not upto:
        raise NotFound(f"no release was in effect on {day}; the earliest is "
                       f"{chain.dates[0]}", [chain.dates[0]])
    anchor = upto[-1]
    have = chain.ids(anchor)
    current = {i: i for i in ids if i in have}
    out: dict[str, tuple[str | None, str]] = {}
    for k in range(anchor + 1, len(chain.stored)):
        link = chain.link(k)
        for start, cur in list(current.items()):
            stays, after = link.trace(cur)
            if stays:
                continue
            if after is None:
                out[start] = (None, chain.dates[k])
                del current[start]
            else:
                current[start] = after
    for start, cur in current.items():
        out[start] = (cur, chain.dates[-1])
    return out


def _entry(date: str, change: Change, rule: Rule) -> HistoryEntry:
    event = "moved" if change.op == "moved" else "changed"
    return HistoryEntry(date, event, rule.id, change.old_id if change.op == "moved" else None,
                        rule.text, rule.examples, change.fields, change.cosmetic,
                        change.renumbering)


def trace_forward(releases: Any, ids: list[str], at: str) -> dict[str, tuple[str | None, str]]:
    """Follow rule ids written on date ``at`` to the latest release, in one pass.

    Returns ``{id: (id_now_or_None, date)}``: today's number (None when the
    rule was removed, ``date`` then being the release that removed it).  Ids
    the release in effect on ``at`` does not have are left out.  A step where
    a rule keeps its number and its text costs a dictionary lookup; the
    others pair each chapter once per step (as ``rule_history`` does), and
    the whole release only for rules that seem to vanish.  A data folder's
    lineage table answers without pairing anything.
    """
    chain = _Chain.of(releases)
    if chain is not None:
        return _table_trace(chain, ids, at)
    if hasattr(releases, "releases") and callable(releases.releases):
        releases = releases.releases()
    versions = sorted((_Version(r) for r in releases), key=lambda v: v.date)
    from crsearch.store.datadir import normalize_date

    day = normalize_date(at)
    upto = [k for k, v in enumerate(versions) if v.date <= day]
    if not upto:
        raise NotFound(f"no release was in effect on {day}; the earliest is "
                       f"{versions[0].date if versions else 'none'}",
                       [versions[0].date] if versions else [])
    anchor = upto[-1]
    current = {i: i for i in ids if i in versions[anchor].ids()}
    out: dict[str, tuple[str | None, str]] = {}
    texts: dict[tuple[int, str], dict[str, str]] = {}

    def text_of(k: int, id: str) -> str | None:
        ch = id.split(".", 1)[0]
        if (k, ch) not in texts:
            v = versions[k]
            if hasattr(v.source, "chapter_dicts") and ch not in v._chapters:
                # The stored dicts: no need to build a thousand Rule objects.
                texts[(k, ch)] = {d["id"]: d["text"] for d in v.source.chapter_dicts(ch)}
            else:
                texts[(k, ch)] = {r.id: r.text for r in v.chapter(ch)}
        return texts[(k, ch)].get(id)

    for k in range(anchor + 1, len(versions)):
        old, new = versions[k - 1], versions[k]
        pending: dict[str, list[str]] = {}
        for start, cur in current.items():
            if cur in new.ids() and text_of(k - 1, cur) == text_of(k, cur):
                continue
            pending.setdefault(cur.split(".", 1)[0], []).append(start)
        whole: dict[str, str] | None = None
        for ch, starts in pending.items():
            pairs = pair_rules(old.chapter(ch), new.chapter(ch), {ch: ch})
            moved = {o.id: n.id for o, n, _ in pairs if o is not None and n is not None}
            for start in starts:
                cur = current[start]
                if cur in moved:
                    current[start] = moved[cur]
                    continue
                # Gone from its chapter: it may have moved to another one.  The
                # whole releases are paired once per step, for all such rules.
                if whole is None:
                    o_rel, n_rel = old.full(), new.full()
                    _, cmap = pair_headings(o_rel.chapters, n_rel.chapters, "chapter")
                    whole = {o.id: n.id for o, n, _ in pair_rules(o_rel.rules, n_rel.rules, cmap)
                             if o is not None and n is not None}
                if cur in whole:
                    current[start] = whole[cur]
                else:
                    out[start] = (None, new.date)
        for start in out:
            current.pop(start, None)
        # The older release of this step is not read again: let it go, so
        # memory holds two releases at a time, not every one on the way.
        old.forget()
        for key in [key for key in texts if key[0] == k - 1]:
            del texts[key]
    for start, cur in current.items():
        out[start] = (cur, versions[-1].date)
    return out


__all__ = ["History", "HistoryEntry", "rule_history", "trace_forward"]
