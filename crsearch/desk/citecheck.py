"""Check the rule citations in any text: an article, notes, code comments.

Citations rot as the rules are renumbered: "502.9b" (trample, 2003) is
702.19b today.  ``find`` locates citations in every form ``crsearch rule``
accepts (``CR 702.19c``, ``rule 702.19c``, ``§702.19c``, ``702.19 c``,
ranges such as ``601.2f-h`` and lists) using ``numbers.find_references``,
with extra care against numbers that only look like rules (prices, versions,
measures): a bare number without a subrule letter counts only when its
paragraph also speaks of rules.  ``check`` compares each cited id with the release in
effect when the text was written and follows it to today's number through
``history.trace_forward``; ``fix`` renumbers the moved ones and changes
nothing else.
"""

from __future__ import annotations

import os
import re
from typing import Any

from crsearch.errors import BadInput
from crsearch.rules import numbers

MAX_BYTES = 5_000_000

# Words that say a paragraph is about the rules, so a bare "601.2" there is a rule.
_CONTEXT = re.compile(r"\b(?:rules?|CR|comprehensive|subrules?|section)\b|§", re.IGNORECASE)
# "702.19 c": a subrule letter after a space, as judges sometimes write it.
_SPACED_LETTER = re.compile(r" ([b-km-np-z])(?=$|[\s.,;:)\]])")


class Citation:
    """One cited id, where it is written, and what became of it."""

    __slots__ = ("column", "end", "id", "line", "nearest", "now", "start", "status", "text")

    def __init__(self, text: str, start: int, end: int, line: int, column: int, id: str):
        self.text, self.start, self.end = text, start, end
        self.line, self.column, self.id = line, column, id
        self.status = "ok"
        self.now: str | None = None
        self.nearest: list[str] = []

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "line": self.line, "column": self.column,
                             "id": self.id, "status": self.status}
        if self.now is not None:
            d["now"] = self.now
        if self.nearest:
            d["nearest"] = self.nearest
        return d


def read_text(data: bytes, name: str) -> tuple[str, str]:
    """Decode a file to check: (text, encoding), or BadInput for binary or huge input.

    The encoding is one that gives back the same bytes, so ``--fix`` changes
    nothing but the citations (a UTF-8 BOM is kept).
    """
    if len(data) > MAX_BYTES:
        raise BadInput(f"{name} is too large ({len(data):,} bytes; at most {MAX_BYTES:,})")
    if b"\x00" in data[:65536]:
        raise BadInput(f"{name} is binary, not text")
    for encoding in ("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8", "cp1252",
                     "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise BadInput(f"{name} is not text")  # unreachable: latin-1 decodes anything


def find(text: str) -> list[Citation]:
    """Every citation in ``text``, one per id (a range gives both its ends).

    ``text`` of a citation is the id as written; line and column are 1-based.
    """
    out: list[Citation] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    import bisect

    def where(pos: int) -> tuple[int, int]:
        n = bisect.bisect_right(line_starts, pos) - 1
        return n + 1, pos - line_starts[n] + 1

    bounds = _paragraphs(text)
    for start, _end, printed, spans in numbers.find_references(text):
        keyword = bool(re.match(r"(?i)(?:sub)?rules?|sections?|cr|§", printed))
        # The positions of the printed numbers, in order.
        marks = list(re.finditer(r"[0-9]+(?:\.[0-9]+)?[a-z]*|(?<![\w.])[a-z](?![\w])", printed))
        ids: list[tuple[str, int, int]] = []
        k = 0
        for span in spans:
            for id in ([span.start] if span.start == span.end else [span.start, span.end]):
                # Find the printed token for this id.
                while k < len(marks):
                    m = marks[k]
                    k += 1
                    tok = m.group()
                    if tok == id or id.endswith(tok) or (tok[0].isdigit() and _same(tok, id)):
                        ids.append((id, start + m.start(), start + m.end()))
                        break
        for id, a, b in ids:
            kind = numbers.kind(id)
            if not keyword:
                # A bare number: only a subrule, or a rule on a line that speaks
                # of rules, in its paragraph ("$120.50" and "100.5 km" are not).
                if kind in ("section", "chapter"):
                    continue
                if (kind == "rule" and not _CONTEXT.search(_paragraph(text, a, bounds))
                        and not _parenthesised(text, a, b)):
                    continue
            # "702.19 c": a spaced subrule letter.
            if kind == "rule":
                spaced = _SPACED_LETTER.match(text, b)
                if spaced and not re.match(r" [a-z]\w", text[b:b + 3]):
                    try:
                        id = numbers.normalize(id + spaced.group(1))
                        b = spaced.end()
                    except BadInput:
                        pass
            ln, col = where(a)
            out.append(Citation(text[a:b], a, b, ln, col, id))
    return out


def _same(tok: str, id: str) -> bool:
    try:
        return numbers.normalize(tok) == id
    except BadInput:
        return False


_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")


def _paragraphs(text: str) -> tuple[list[int], list[int]]:
    """Where paragraphs start and end (between blank lines), for ``_paragraph``."""
    starts, ends = [0], []
    for m in _BLANK_LINE.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    return starts, ends


def _paragraph(text: str, pos: int, bounds: tuple[list[int], list[int]]) -> str:
    """The paragraph around ``pos``."""
    import bisect

    k = max(0, bisect.bisect_right(bounds[0], pos) - 1)
    return text[bounds[0][k]:bounds[1][k]]


def _parenthesised(text: str, a: int, b: int) -> bool:
    return text[max(0, a - 1):a] == "(" and text[b:b + 1] == ")"


def check(store: Any, text: str, as_of: str | None = None) -> dict[str, Any]:
    """Find and check every citation; the ``cite-check --json`` contract.

    Against the release in effect on ``as_of`` (default: the latest): an id
    it lacks is ``missing`` (with the nearest ids); one renumbered since is
    ``moved`` (``now`` is today's number); one removed since is ``missing``
    (``removed`` gives the date).  Without ``as_of``, an id that today's
    rules lack but an older release has is followed from that release.
    """
    from crsearch.store.lookup import Library

    latest = store.pick(None)
    base = store.pick(as_of) if as_of else latest
    cites = find(text)
    lib_base = Library(base)
    lib_now = Library(latest) if base is not latest else lib_base
    follow: dict[str, list[Citation]] = {}
    orphans: list[Citation] = []
    for c in cites:
        if not lib_base.exists(c.id):
            if as_of:
                c.status, c.nearest = "missing", lib_base.suggestions(c.id)
            else:
                orphans.append(c)
        elif base is not latest:
            follow.setdefault(c.id, []).append(c)
    removed: dict[str, str] = {}
    cache = _TraceCache(store, latest)
    if follow:
        traced = cache.trace(sorted(follow), base.effective_date)
        for id, group in follow.items():
            now, date = traced.get(id, (id, latest.effective_date))
            for c in group:
                _settle(c, now, date, lib_now, removed)
    if orphans:
        # Not in today's rules: maybe a number from an older release, the
        # newest that has it.  Each release's id list is read once.
        homes: dict[str, str] = {}
        wanted = set()
        for c in orphans:
            known = cache.data.get(f"home|{c.id}")
            if known is None:
                wanted.add(c.id)
            elif known[1]:
                homes[c.id] = known[1]
        asked = set(wanted)
        for s in reversed(store.releases()[:-1]):
            if not wanted:
                break
            have = wanted & set(s.meta()["rule_ids"])
            for id in have:
                homes[id] = s.effective_date
            wanted -= have
        for id in asked:  # remembered, found or not
            cache.data[f"home|{id}"] = [id, homes.get(id, "")]
            cache.dirty = True
        by_home: dict[str, list[str]] = {}
        for id, date in homes.items():
            by_home.setdefault(date, []).append(id)
        traced_old: dict[str, tuple[str | None, str]] = {}
        for date, group_ids in by_home.items():
            traced_old.update(cache.trace(group_ids, date))
        for c in orphans:
            if c.id not in traced_old:
                c.status, c.nearest = "missing", lib_now.suggestions(c.id)
            else:
                _settle(c, *traced_old[c.id], lib_now, removed)
    cache.save()
    problems = sum(1 for c in cites if c.status != "ok")
    return {"release": base.effective_date, "latest": latest.effective_date,
            "citations": [c.to_dict() for c in cites], "problems": problems,
            "removed": removed}


class _TraceCache:
    """Where rules went, remembered next to the latest release.

    Following a rule through a hundred releases takes a while; a text checked
    again (in CI, say) asks the same questions.  The answers hold as long as
    the same releases are imported, so the cache keeps the catalog's folder
    names and is dropped when they change.  Written atomically; a read-only
    data folder just goes without.
    """

    NAME = "cite-check-cache.json"

    def __init__(self, store: Any, latest: Any):
        import json

        self.store, self.path = store, latest.path / self.NAME
        self.signature = [r["dir"] for r in store.catalog()]
        self.data: dict[str, list[Any]] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as f:
                saved = json.load(f)
            if saved.get("releases") == self.signature:
                self.data = saved.get("traced", {})
        except (OSError, ValueError, AttributeError):
            pass

    def trace(self, ids: list[str], at: str) -> dict[str, tuple[str | None, str]]:
        from crsearch.changes.history import trace_forward

        out: dict[str, tuple[str | None, str]] = {}
        todo = []
        for id in ids:
            hit = self.data.get(f"{at}|{id}")
            if hit is None:
                todo.append(id)
            elif hit[1]:  # [now, date]; an empty date marks "not in that release"
                out[id] = (hit[0], hit[1])
        if todo:
            traced = trace_forward(self.store, todo, at)
            for id in todo:
                now, date = traced.get(id, (None, ""))
                self.data[f"{at}|{id}"] = [now, date]
                if date:
                    out[id] = (now, date)
            self.dirty = True
        return out

    def save(self) -> None:
        if not self.dirty:
            return
        import json
        import tempfile

        try:
            fd, tmp = tempfile.mkstemp(prefix=".cite-check-", dir=self.path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"releases": self.signature, "traced": self.data}, f, sort_keys=True)
            os.chmod(tmp, 0o644)
            os.replace(tmp, self.path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _settle(c: Citation, now: str | None, date: str, lib_now: Any,
            removed: dict[str, str]) -> None:
    if now is None:
        c.status, c.nearest = "missing", []
        removed[c.id] = date
    elif now != c.id:
        c.status, c.now = "moved", now
    elif not lib_now.exists(now):
        c.status, c.nearest = "missing", lib_now.suggestions(now)


def fixed_text(text: str, citations: list[dict[str, Any]], found: list[Citation]) -> str:
    """``text`` with each moved citation renumbered; nothing else changes."""
    by_pos = {(c.line, c.column): c for c in found}
    out, last = [], 0
    for d in citations:
        if d["status"] != "moved":
            continue
        c = by_pos[(d["line"], d["column"])]
        out.append(text[last:c.start])
        out.append(d["now"])
        last = c.end
    out.append(text[last:])
    return "".join(out)


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically, keeping its permissions:
    an interruption leaves the old file whole."""
    from crsearch.files import write_atomic as write

    write(path, text.encode(encoding), mode=os.stat(path).st_mode & 0o7777, sync=True)


__all__ = ["Citation", "check", "find", "fixed_text", "read_text", "write_atomic"]
