"""Rule lookup by number, reading only the chapters it needs.

This is the fast path behind ``crsearch rule``: it touches the catalog,
``meta.json`` and the chapter files of the ids asked for, and never imports
the search index, templates or HTML parser.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from crsearch import numbers
from crsearch.errors import NotFound
from crsearch.model import Chapter, Rule, Section
from crsearch.store import StoredRelease, sections_and_chapters


@dataclass
class Lookup:
    """What a lookup found: the items to show, in order, and their context."""

    release: str
    items: list[Any] = field(default_factory=list)
    sections: dict[str, Section] = field(default_factory=dict)
    chapters: dict[str, Chapter] = field(default_factory=dict)
    rules: dict[str, Rule] = field(default_factory=dict)

    def title_of(self, id: str) -> str | None:
        """The heading text of a section, chapter or titled rule."""
        if id in self.sections:
            return self.sections[id].title
        if id in self.chapters:
            return self.chapters[id].title
        r = self.rules.get(id)
        return r.title if r is not None else None

    def context(self, id: str) -> list[tuple[str, str]]:
        """Ancestors of ``id`` (farthest first) with their headings."""
        out = []
        for a in reversed(numbers.ancestors(id)):
            title = self.title_of(a)
            if title is None and a in self.rules:
                title = _short(self.rules[a].text)
            out.append((a, title or ""))
        return out


class Library:
    """Loads the parts of one stored release that lookups need, once each."""

    def __init__(self, stored: StoredRelease):
        self.stored = stored
        meta = stored.meta()
        self.meta = meta
        sections, chapters = sections_and_chapters(meta)
        self.sections = {s.id: s for s in sections}
        self.chapters = {c.id: c for c in chapters}
        self.rule_ids: list[str] = meta["rule_ids"]
        self._exists = {*self.sections, *self.chapters, *self.rule_ids}
        self._existing: list[str] | None = None
        self._keys: list[tuple] | None = None
        self._chapter_data: dict[str, list[dict[str, Any]]] = {}
        self._rules: dict[str, Rule] = {}

    @property
    def existing(self) -> list[str]:
        """Every id in rule order; built only when a range or suggestion needs it."""
        if self._existing is None:
            self._existing = sorted(self._exists, key=numbers.sort_key)
            self._keys = [numbers.sort_key(i) for i in self._existing]
        return self._existing

    def _rule(self, d: dict[str, Any]) -> Rule:
        # Only the rules shown are turned into objects; a chapter file holds
        # hundreds (702 has over a thousand).
        key = f"{d['id']}@{d.get('line', 0)}"
        if key not in self._rules:
            self._rules[key] = Rule.from_dict(d)
        return self._rules[key]

    def _chapter(self, chapter: str) -> list[dict[str, Any]]:
        if chapter not in self._chapter_data:
            self._chapter_data[chapter] = self.stored.chapter_dicts(chapter)
        return self._chapter_data[chapter]

    def chapter_rules(self, chapter: str, within: str | None = None) -> list[Rule]:
        """The rules of a chapter (only those inside ``within``, if given)."""
        data = self._chapter(chapter)
        if within is not None:
            data = [d for d in data if _inside(within, d["id"])]
        return [self._rule(d) for d in data]

    def exists(self, id: str) -> bool:
        return id in self._exists

    def suggestions(self, id: str, limit: int = 5) -> list[str]:
        """Existing ids near a missing one: typo fixes first, then neighbours."""
        out: list[str] = []
        # Transposed or doubled characters ("702.91c" for "702.19c").
        for i in range(len(id) - 1):
            swapped = id[:i] + id[i + 1] + id[i] + id[i + 2:]
            if swapped != id and swapped in self._exists and swapped not in out:
                out.append(swapped)
        parent = numbers.parent(id)
        while parent and not self.exists(parent):
            parent = numbers.parent(parent)
        existing = self.existing
        assert self._keys is not None
        pos = bisect.bisect_left(self._keys, numbers.sort_key(id))
        near = existing[max(0, pos - 3):pos + 3]
        if parent:
            near = [n for n in near if numbers.contains(parent, n) and n != parent] or [parent]
        for n in near:
            if n not in out:
                out.append(n)
        return out[:limit]

    def lookup(self, specs: list[str], children: bool = True) -> Lookup:
        """Resolve rule numbers, ranges and lists to the items to show.

        ``702.19`` shows the rule and its subrules (unless ``children`` is
        false), ``702`` a chapter and its rules, ``7`` a section and its
        chapter headings; a range shows exactly the members that exist.
        Raises NotFound (with suggestions) for ids that do not exist.
        """
        result = Lookup(self.meta["effective_date"], sections=self.sections,
                        chapters=self.chapters)
        wanted: list[str] = []
        for spec in specs:
            for span in numbers.parse_spec(spec):
                if span.start == span.end:
                    members = [span.start] if span.start in self._exists else []
                else:
                    members = numbers.expand(span, self.existing)
                if span.start == span.end:
                    if not members:
                        raise NotFound(
                            f"there is no {numbers.kind(span.start)} {span.start} in the "
                            f"{self.meta['effective_date']} rules",
                            self.suggestions(span.start))
                    wanted.extend(members)
                    continue
                for endpoint in (span.start, span.end):
                    if not self.exists(endpoint):
                        raise NotFound(
                            f"the range {span.start}–{span.end} names {endpoint}, which does "
                            f"not exist in the {self.meta['effective_date']} rules",
                            self.suggestions(endpoint))
                wanted.extend(members)
        shown: set[str] = set()
        for id in wanted:
            for item in self._items_for(id, children):
                key = item.id
                if key not in shown:
                    shown.add(key)
                    result.items.append(item)
        for item in result.items:
            if isinstance(item, Rule):
                result.rules[item.id] = item
        # Parent rules give the context line of subrules shown alone.
        for item in list(result.items):
            if isinstance(item, Rule) and item.kind == "subrule":
                p = numbers.parent(item.id)
                if p and p not in result.rules:
                    for d in self._chapter(item.chapter):
                        if d["id"] == p:
                            result.rules[p] = self._rule(d)
        return result

    def _items_for(self, id: str, children: bool) -> list[Any]:
        kind = numbers.kind(id)
        if kind == "section":
            items: list[Any] = [self.sections[id]]
            if children:
                items += [c for c in self.chapters.values() if c.section == id]
            return items
        if kind == "chapter":
            items = [self.chapters[id]]
            if children:
                items += self.chapter_rules(id)
            return items
        chapter = id.split(".")[0]
        if not children:
            return [self._rule(d) for d in self._chapter(chapter) if d["id"] == id]
        return self.chapter_rules(chapter, within=id)


def _inside(within: str, id: str) -> bool:
    """``numbers.contains`` for ids of one chapter, without parsing each id.

    A chapter file holds hundreds of rules; this keeps a lookup in 702 fast.
    """
    if id == within:
        return True
    if not id.startswith(within):
        return False
    rest = id[len(within):]
    if "." not in within:  # a chapter holds everything that follows its "."
        return rest[0] == "."
    return rest.isalpha()  # a rule holds its lettered subrules, not 702.1 -> 702.10


def _short(text: str, width: int = 60) -> str:
    first = text.split("\n", 1)[0]
    return first if len(first) <= width else first[: width - 1].rstrip() + "…"
