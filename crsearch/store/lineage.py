"""The lineage table: how the rules of each imported release link to the next one.

One file in the data folder, ``lineage.json``::

    {"format": 1,
     "links": [{"old": "<release folder>", "new": "<the next release's folder>",
                "moves": {...}, "gone": {...}, "came": {...}, "whole": {...},
                "text": [...], "examples": [...]}, ...]}

one link per pair of neighbouring releases of the catalog, in date order.
``changes/lineage.py`` works a link out (and says what each part means);
this module keeps the file and reads it.  A link names its releases by
folder, so a release imported again (a new folder) gets new links.

Importing a release links it to its neighbours (:func:`relink`, with a
callback that computes a link): links of pairs that are no longer
neighbours are dropped, missing ones computed.  The file is replaced in one
step after each link, so an interrupted import leaves the table as it was
or with some new links, never half-written; the links still missing are
computed by the next import or by ``crsearch repair``.  Readers that find a
link missing work it out themselves (``changes/history.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from crsearch.store.datadir import DIR_NAME, read_json, write_json_atomic

if TYPE_CHECKING:
    from crsearch.store.datadir import Store, StoredRelease

FILE = "lineage.json"
FORMAT = 1

#: Computes the link from one stored release to the next (``changes.lineage.link``).
Compute = Callable[["StoredRelease", "StoredRelease"], dict[str, Any]]


class Link:
    """One link read from the table: where each rule of ``old`` went in ``new``.

    A rule's place is read as the history reads it: its chapter's pairing
    first, the whole releases' pairing when the chapter left it alone
    (``whole`` in the answers says which one answered).
    """

    __slots__ = ("_back", "came", "data", "examples", "gone", "member_new", "member_old", "moves",
                 "new", "old", "repeat_new", "repeat_old", "repeat_trace", "text", "whole")

    def __init__(self, old: str, new: str, data: dict[str, Any]):
        #: The folders of the two releases.
        self.old, self.new = old, new
        self.data = data
        self.moves: dict[str, str] = data.get("moves") or {}
        self.whole: dict[str, str] = data.get("whole") or {}
        self.gone: dict[str, str | None] = data.get("gone") or {}
        self.came: dict[str, str | None] = data.get("came") or {}
        self.text = frozenset(data.get("text") or ())
        self.examples = frozenset(data.get("examples") or ())
        repeats = data.get("repeats") or {}
        self.repeat_old: dict[str, list[Any]] = repeats.get("old") or {}
        self.repeat_new: dict[str, list[Any]] = repeats.get("new") or {}
        self.repeat_trace: dict[str, list[Any]] = repeats.get("trace") or {}
        member = repeats.get("member") or {}
        self.member_old: dict[str, bool] = member.get("old") or {}
        self.member_new: dict[str, bool] = member.get("new") or {}
        self._back: dict[str, str] | None = None

    @property
    def back(self) -> dict[str, str]:
        """``moves`` the other way: new id -> old id."""
        if self._back is None:
            self._back = {n: o for o, n in self.moves.items()}
        return self._back

    def forward(self, id: str) -> tuple[str | None, bool]:
        """Where old rule ``id`` went: (its new id, or None if removed; whole?)."""
        got = self.step(id, True)
        return got[0], got[1]

    def backward(self, id: str) -> tuple[str | None, bool]:
        """Where new rule ``id`` came from: (its old id, or None if added; whole?)."""
        got = self.step(id, False)
        return got[0], got[1]

    def step(self, id: str, forward: bool) -> tuple[str | None, bool, int, int, bool]:
        """Rule ``id`` of one release (the old one when ``forward``) in the other:
        (its id there or None, found in the whole releases?, which copy of the
        old id, which copy of the new id, whether the two differ).  The copies
        are 0 unless a release repeats an id."""
        repeat = (self.repeat_old if forward else self.repeat_new).get(id)
        if repeat is not None:
            return repeat[0], bool(repeat[1]), int(repeat[2]), int(repeat[3]), bool(repeat[4])
        if forward:
            far = id in self.gone
            other = self.gone[id] if far else self.moves.get(id, id)
        else:
            far = id in self.came
            other = self.came[id] if far else self.back.get(id, id)
        differs = other is not None and (other != id or self.changed(id))
        return other, far, 0, 0, differs

    def in_old(self, id: str, in_new: bool) -> bool:
        """Whether the old release has ``id``, given whether the new one has it."""
        if id in self.member_old:
            return self.member_old[id]
        return id in self.moves or id in self.gone or (
            in_new and id not in self.back and id not in self.came)

    def in_new(self, id: str, in_old: bool) -> bool:
        """Whether the new release has ``id``, given whether the old one has it."""
        if id in self.member_new:
            return self.member_new[id]
        return id in self.back or id in self.came or (
            in_old and id not in self.moves and id not in self.gone)

    def trace(self, id: str) -> tuple[bool, str | None]:
        """Old rule ``id`` as ``trace_forward`` follows it: (it stays, as it
        keeps its number and text; else its new id, or None if removed)."""
        repeat = self.repeat_trace.get(id)
        if repeat is not None:
            return bool(repeat[0]), repeat[1] if repeat[1] is not None else repeat[2]
        if self.in_new(id, True) and id not in self.text:
            return True, id
        return False, self.forward(id)[0]

    def changed(self, id: str) -> bool:
        """Whether rule ``id``, in both releases, differs in text or examples."""
        return id in self.text or id in self.examples

    def renumbering(self, whole: bool, chapter: str) -> dict[str, str]:
        """The moves a change read through this link follows: the whole
        pairing's, or those of one chapter's pairing."""
        if whole:
            return self.whole
        return {o: n for o, n in self.moves.items() if o.split(".", 1)[0] == chapter}


def date_of(folder: str) -> str:
    """The effective date in a release folder's name."""
    m = DIR_NAME.fullmatch(folder)
    return m.group(1) if m else ""


class Lineage:
    """The links of one data folder, by (old folder, new folder)."""

    def __init__(self, links: Iterable[Link] = (), damaged: bool = False):
        self.links: dict[tuple[str, str], Link] = {(k.old, k.new): k for k in links}
        #: The file exists but could not be read (it is written again).
        self.damaged = damaged

    @classmethod
    def read(cls, root: str | os.PathLike[str]) -> Lineage:
        """The table of the data folder ``root``; empty when it is missing or
        damaged (the links are then worked out again where they are needed)."""
        try:
            data = read_json(os.path.join(os.fspath(root), FILE), "lineage")
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError):
            return cls(damaged=True)
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or not isinstance(data.get("links"), list):
            return cls(damaged=True)
        out = []
        for d in data["links"]:
            if isinstance(d, dict) and isinstance(d.get("old"), str) and isinstance(d.get("new"), str):
                out.append(Link(d["old"], d["new"], d))
        return cls(out)

    @classmethod
    def read_link(cls, root: str | os.PathLike[str], old: str, new: str) -> Link | None:
        """``read(root).get(old, new)``, parsing only that link.

        ``diff`` of two neighbours needs one link of the hundred a full
        archive holds; reading them all costs more than the rest of its
        reading.  The file has sorted keys, so a link is the object that
        starts with ``{"came":`` before its ``"new":...,"old":...``; anything
        unexpected (an older or damaged file) reads the whole table.
        """
        from crsearch.store.datadir import json_scanner, read_bytes

        scan = json_scanner()
        try:
            text = read_bytes(os.path.join(os.fspath(root), FILE), "lineage").decode("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            text = ""
        names_plain = DIR_NAME.fullmatch(old) and DIR_NAME.fullmatch(new)
        if scan is not None and names_plain and text.startswith(f'{{"format":{FORMAT},"links":[') \
                and text.endswith("]}"):
            at = text.find(f'"new":"{new}","old":"{old}"')
            start = text.rfind('{"came":', 0, at) if at >= 0 else -1
            if start >= 0:
                try:
                    got, _ = scan(text, start)
                except (StopIteration, ValueError):
                    got = None
                if isinstance(got, dict) and got.get("old") == old and got.get("new") == new:
                    return Link(old, new, got)
        return cls.read(root).get(old, new)

    def get(self, old: str, new: str) -> Link | None:
        return self.links.get((old, new))

    def missing(self, folders: list[str]) -> list[tuple[str, str]]:
        """The neighbouring pairs of ``folders`` (date order) that have no link."""
        return [(a, b) for a, b in zip(folders, folders[1:]) if (a, b) not in self.links]

    def to_dict(self, folders: list[str]) -> dict[str, Any]:
        """The file's content for the catalog's ``folders`` (date order)."""
        pairs = list(zip(folders, folders[1:]))
        return {"format": FORMAT,
                "links": [{**{k: v for k, v in self.links[p].data.items() if k not in ("old", "new")},
                           "old": p[0], "new": p[1]} for p in pairs if p in self.links]}


def write(root: str | os.PathLike[str], lineage: Lineage, folders: list[str]) -> None:
    """Replace the table with the links of the neighbouring ``folders``, in one step."""
    from pathlib import Path

    write_json_atomic(Path(root, FILE), lineage.to_dict(folders))


def relink(store: Store, compute: Compute,
           progress: Callable[[str, str], None] | None = None) -> list[tuple[str, str]]:
    """Bring the table in line with the catalog: drop the links between
    releases that are no longer neighbours, compute the missing ones.

    Takes the store's lock; writes the file after each new link.  Returns
    the (old date, new date) of each link computed.
    """
    with store.lock():
        return relink_locked(store, compute, progress)


def relink_locked(store: Store, compute: Compute,
                  progress: Callable[[str, str], None] | None = None) -> list[tuple[str, str]]:
    """:func:`relink` for a caller that holds the store's lock (repair)."""
    done: list[tuple[str, str]] = []
    stored = store.releases()
    folders = [os.path.basename(s.dir) for s in stored]
    by_folder = {os.path.basename(s.dir): s for s in stored}
    lineage = Lineage.read(store.dir)
    wanted = set(zip(folders, folders[1:]))
    stale = [p for p in lineage.links if p not in wanted]
    for p in stale:
        del lineage.links[p]
    todo = lineage.missing(folders)
    if (stale or lineage.damaged) and not todo:
        write(store.dir, lineage, folders)
    for old, new in todo:
        if progress is not None:
            progress(date_of(old), date_of(new))
        data = compute(by_folder[old], by_folder[new])
        lineage.links[(old, new)] = Link(old, new, data)
        write(store.dir, lineage, folders)
        done.append((date_of(old), date_of(new)))
    return done


__all__ = ["FILE", "Lineage", "Link", "date_of", "relink", "relink_locked", "write"]
