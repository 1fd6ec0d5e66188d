"""The site's "what changed" pages and each rule's history, from the diff engine.

``site build --all`` compares each release with the one before it once
(``diff.diff_releases``: word diffs, renumbering shown as moves) and reuses
those comparisons twice: for each release's ``changes.html``, and for the
history of every rule of the latest release, which follows the chain of
comparisons back (through renumberings) to the rule's first appearance.  The
history entries are ``history.HistoryEntry`` objects, as ``crsearch history``
gives them.
"""

from __future__ import annotations

import re
from typing import Any

from crsearch.changes.diff import Change, ReleaseDiff, diff_releases, group_moves
from crsearch.changes.history import HistoryEntry
from crsearch.rules import numbers
from crsearch.rules.model import Release

#: Ops a judge wants to see on a rule: the text or number really changed.
SHOWN_OPS = ("added", "changed", "moved")


def term_of(c: Change) -> str:
    """The glossary term a change is about (its new name when renamed)."""
    v = c.new or c.old
    return (v.term or "") if v is not None else ""


def change_anchor(c: Change) -> str:
    """The HTML id of a change on its ``changes.html``."""
    if c.kind == "glossary":
        term = term_of(c)
        return "c-g-" + (re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "term")
    return f"c-{c.id}"


class ChangeSet:
    """What changed from one release to the next, ready for a page.

    ``anchors`` maps each rule id of the newer release that really changed
    (added, reworded or renumbered; not only typography) to its anchor on
    ``changes.html``.
    """

    def __init__(self, diff: ReleaseDiff):
        self.diff = diff
        self.old_date, self.new_date = diff.old_date, diff.new_date
        self.groups = group_moves(diff.changes)
        self.anchors: dict[str, str] = {}
        for c, carried in self.groups:
            if c.noise and c.op in ("changed", "retitled"):
                continue
            if c.kind in ("rule", "subrule") and c.op in SHOWN_OPS and c.new_id:
                self.anchors[c.new_id] = change_anchor(c)
                for x in carried:
                    if x.new_id:
                        self.anchors.setdefault(x.new_id, change_anchor(c))

    @property
    def shown(self) -> list[tuple[Change, list[Change]]]:
        """The changes a reader sees in full, with the moves they carry."""
        return [(c, carried) for c, carried in self.groups
                if not (c.noise and c.op in ("changed", "retitled"))]

    def quiet(self, which: str) -> list[Change]:
        """Changes only in typography (``which="typography"``) or in
        references to renumbered rules (``"renumbering"``)."""
        return [c for c, _ in self.groups if c.noise and c.op in ("changed", "retitled")
                and (c.cosmetic if which == "typography" else c.renumbering)]

    def summary(self) -> list[tuple[str, int]]:
        """("added rules", 3) ... for every non-zero count."""
        names = {"section": ("section", "sections"), "chapter": ("chapter", "chapters"),
                 "rule": ("rule", "rules"), "subrule": ("subrule", "subrules"),
                 "glossary": ("glossary entry", "glossary entries")}
        verbs = {"added": "added", "removed": "removed", "changed": "changed",
                 "moved": "renumbered", "retitled": "retitled"}
        out = []
        for op, counts in _by_op(self.diff).items():
            for kind, n in counts.items():
                if n:
                    out.append((f"{names[kind][n != 1]} {verbs[op]}", n))
        return out


def _by_op(diff: ReleaseDiff) -> dict[str, dict[str, int]]:
    counts = diff.counts()
    ops: dict[str, dict[str, int]] = {}
    for kind, per in counts.items():
        for op, n in per.items():
            ops.setdefault(op, {})[kind] = n
    return ops


def compare_all(releases: list[Release]) -> list[ChangeSet]:
    """Each release against the one before it (``releases`` oldest first)."""
    ordered = sorted(releases, key=lambda r: r.effective_date)
    return [ChangeSet(diff_releases(a, b)) for a, b in zip(ordered, ordered[1:])]


def histories(chain: list[ChangeSet], latest: Release) -> dict[str, list[HistoryEntry]]:
    """The history of every rule of ``latest``, oldest first, from ``chain``.

    A rule absent from a comparison's changes was the same rule, with the same
    number and text, in both releases; a move switches to the old number.
    """
    steps = sorted(chain, key=lambda c: c.new_date)
    by_new: list[dict[str, Change]] = []
    for cs in steps:
        table: dict[str, Change] = {}
        for c in cs.diff.changes:
            if c.kind in ("rule", "subrule") and c.new_id and c.op in SHOWN_OPS:
                table[c.new_id] = c
        by_new.append(table)
    first = steps[0].old_date if steps else latest.effective_date
    out: dict[str, list[HistoryEntry]] = {}
    for rule in latest.rules:
        entries: list[HistoryEntry] = []
        current = rule.id
        for k in range(len(steps) - 1, -1, -1):
            hit = by_new[k].get(current)
            if hit is None:
                continue
            date = steps[k].new_date
            new = hit.new
            text = new.text if new is not None else None
            examples = new.examples if new is not None else None
            if hit.op == "added":
                start = HistoryEntry(date, "added", current, text=text, examples=examples)
                break
            entries.append(HistoryEntry(date, hit.op, current,
                                        hit.old_id if hit.op == "moved" else None,
                                        text, examples, hit.fields, hit.cosmetic, hit.renumbering))
            if hit.op == "moved" and hit.old_id:
                current = hit.old_id
        else:
            start = HistoryEntry(first, "present", current)
        entries.append(start)
        entries.reverse()
        out[rule.id] = entries
    return out


def elide(segments: list[tuple[str, str]], context: int = 12,
          long: int = 60) -> list[tuple[str, str]]:
    """A word diff with long unchanged runs cut to the words next to the changes.

    205.3m (the creature types) changes in almost every set; its history
    would otherwise repeat hundreds of unchanged words per release.
    """
    out = []
    last = len(segments) - 1
    for k, (op, text) in enumerate(segments):
        words = text.split(" ")
        if op != "equal" or len(words) <= long or "\n" in text or last == 0:
            out.append((op, text))
            continue
        head = " ".join(words[:context]) + " … " if k > 0 else "… "
        tail = " ".join(words[-context:]) if k < last else ""
        out.append((op, (head + tail) if k < last else head.rstrip()))
    return out


def span(ids: list[str]) -> str:
    """"310.8b–g" for a run of sibling subrules, else the ids joined."""
    if len(ids) > 2 and len({numbers.parent(i) for i in ids}) == 1 and all(
            numbers.kind(i) == "subrule" for i in ids):
        stem = numbers.parent(ids[0]) or ""
        return f"{ids[0]}–{ids[-1][len(stem):]}"
    return ", ".join(ids)


def page_items(cs: ChangeSet, url: Any, old_url: Any) -> list[dict[str, Any]]:
    """One dict per shown change for ``changes.html``.

    ``url(id)`` links an id of the newer release, ``old_url(id)`` one of the
    older release (for removals).
    """
    items = []
    for c, carried in cs.shown:
        item: dict[str, Any] = {"change": c, "anchor": change_anchor(c), "carried": carried,
                                "carried_label": None}
        if c.kind == "glossary":
            old = c.old.term if c.old is not None else None
            new = c.new.term if c.new is not None else None
            item["label"] = f"“{old}” → “{new}”" if c.op == "moved" else f"“{new or old}”"
        elif c.op == "moved":
            item["label"] = f"{c.old_id} → {c.new_id}"
        else:
            item["label"] = c.id
        verb = {"moved": "renumbered"}.get(c.op, c.op)
        if c.kind == "glossary" and c.op == "moved":
            verb = "renamed"
        elif c.op == "moved" and set(c.fields) - {"heading"}:
            verb += (", typography changed" if c.cosmetic else
                     ", references renumbered" if c.renumbering else " and changed")
        item["verb"] = verb
        if carried:
            item["carried_label"] = (f"with {span([x.old_id for x in carried if x.old_id])} → "
                                     f"{span([x.new_id for x in carried if x.new_id])}")
        if c.kind == "glossary":
            old_term = c.old.term if c.old is not None else None
            new_term = c.new.term if c.new is not None else None
            item["href"] = url("glossary:" + new_term) if new_term else None
            item["old_href"] = old_url("glossary:" + old_term) if old_term else None
        else:
            item["href"] = url(c.new_id) if c.new_id else None
            item["old_href"] = old_url(c.old_id) if c.old_id else None
        item["fields"] = [(name, segs) for name, segs in c.fields.items()]
        items.append(item)
    return items


__all__ = ["ChangeSet", "change_anchor", "term_of", "compare_all", "elide", "histories", "page_items", "span"]


def numbers_then(history: dict[str, list[HistoryEntry]], release: Release) -> dict[str, list[str]]:
    """For an older ``release``: each rule number of the latest release (the
    keys of ``history``, from :func:`histories`) that ``release`` lacks, with
    the number its rule had then and that rule's title ("" for none):
    ``{"702.19": ["502.9", "Trample"]}`` in 2003.  What ``Rules.number_then``
    tells the CLI, for the site's search box."""
    date = release.effective_date
    rules = {r.id: r for r in release.rules}
    out: dict[str, list[str]] = {}
    for id, entries in history.items():
        if id in rules:
            continue
        then = None
        for entry in entries:
            if entry.date <= date:
                then = None if entry.event == "removed" else entry.id
        if then is not None and then != id and then in rules:
            out[id] = [then, rules[then].title or ""]
    return dict(sorted(out.items(), key=lambda kv: numbers.sort_key(kv[0])))
