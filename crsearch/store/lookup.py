"""Rule lookup by number, reading only the chapters it needs.

This is the fast path behind ``crsearch rule``: it touches the catalog,
``meta.json`` and the chapter files of the ids asked for, and never imports
the search index, templates or HTML parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crsearch.errors import NotFound
from crsearch.rules import numbers
from crsearch.rules.model import Chapter, GlossaryEntry, Rule, Section
from crsearch.store.datadir import sections_and_chapters

if TYPE_CHECKING:
    from crsearch.store.datadir import StoredRelease


class Lookup:
    """What a lookup found: the items to show, in order, and their context.

    ``to_dict()`` is what ``crsearch rule --json`` prints.
    """

    # A plain class, not a dataclass: building a dataclass costs more at
    # import than the rest of a lookup.
    def __init__(self, release: str, items: list[Any] | None = None,
                 sections: dict[str, Section] | None = None,
                 chapters: dict[str, Chapter] | None = None,
                 rules: dict[str, Rule] | None = None):
        self.release = release
        self.items: list[Any] = items if items is not None else []
        self.sections: dict[str, Section] = sections if sections is not None else {}
        self.chapters: dict[str, Chapter] = chapters if chapters is not None else {}
        self.rules: dict[str, Rule] = rules if rules is not None else {}
        #: What was typed after a keyword's name ("from white" in "protection
        #: from white"): ``keyword`` sets it, the first item's dict shows it.
        self.parameter = ""

    def __iter__(self) -> Any:
        return iter(self.items)

    def to_dict(self) -> list[dict[str, Any]]:
        out = [item_dict(i, self.release) for i in self.items]
        if self.parameter and out:
            out[0]["parameter"] = self.parameter
        return out

    def __repr__(self) -> str:
        ids = ", ".join(i.id for i in self.items[:6]) + (", …" if len(self.items) > 6 else "")
        return f"<Lookup {self.release}: {len(self.items)} items ({ids})>"

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
        self._near: Any = None  # a suggest.NearIds, made on the first "did you mean"
        self._chapter_data: dict[str, list[dict[str, Any]]] = {}
        self._rules: dict[str, Rule] = {}

    def __repr__(self) -> str:
        return f"<Library {self.stored.effective_date}: {len(self.rule_ids)} rules and subrules>"

    @property
    def existing(self) -> list[str]:
        """Every id in rule order; built only when a range or suggestion needs it."""
        if self._existing is None:
            self._existing = sorted(self._exists, key=numbers.sort_key)
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
        if within is None:
            data = self._chapter(chapter)
        else:
            data = self._some(chapter, within, lambda id: _inside(within, id))
        return [self._rule(d) for d in data]

    def _some(self, chapter: str, first: str, keep: Any) -> list[dict[str, Any]]:
        # One rule and its subrules: the whole chapter is parsed only if it
        # was read already.
        if chapter in self._chapter_data:
            return [d for d in self._chapter_data[chapter] if keep(d["id"])]
        return self.stored.rule_dicts(chapter, first, keep)

    def exists(self, id: str) -> bool:
        return id in self._exists

    def suggestions(self, id: str, limit: int = 5) -> list[str]:
        """Existing ids near a missing one (see ``suggest.did_you_mean``)."""
        from crsearch.rules.suggest import NearIds, did_you_mean

        if self._near is None:  # sorted once, for callers that ask about many ids
            self._near = NearIds(self._exists)
        return did_you_mean(id, self._exists, limit, near=self._near)

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
                    for d in self._some(item.chapter, p, p.__eq__):
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
            return [self._rule(d) for d in self._some(chapter, id, id.__eq__)]
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


def item_dict(item: Any, release: str) -> dict[str, Any]:
    """The ``rule --json`` shape of one section, chapter, rule or glossary entry."""
    from crsearch.rules.refs import cited_ids

    if isinstance(item, (Section, Chapter)):
        return {"id": item.id, "kind": item.kind, "title": item.title, "text": "",
                "examples": [], "references": [], "cited_by": item.cited_by,
                "release": release}
    if isinstance(item, GlossaryEntry):
        return {"id": item.id, "kind": "glossary", "title": item.term, "text": item.text,
                "aliases": item.aliases, "obsolete": item.obsolete, "senses": item.senses,
                "examples": item.examples, "references": cited_ids(item),
                "cited_by": item.cited_by, "release": release}
    return {"id": item.id, "kind": item.kind, "title": item.title, "text": item.text,
            "examples": item.examples, "references": cited_ids(item),
            "cited_by": item.cited_by, "release": release}
