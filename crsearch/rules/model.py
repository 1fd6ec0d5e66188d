"""The parsed, cross-referenced model of one Comprehensive Rules release.

Plain record classes and no I/O: the parser builds them, ``refs`` fills in the
references, ``store`` writes and reads them, and the CLI, index and site read
them.  Ids follow one scheme everywhere:

- ``"7"``: section 7; ``"702"``: chapter 702;
- ``"702.19"``: a rule; ``"702.19c"``: a subrule;
- ``"glossary:Trample"``: a glossary entry (its term as printed, without the
  "(Obsolete)" mark).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

GLOSSARY_PREFIX = "glossary:"


def label(id: str) -> str:
    """A section, chapter or rule number as the rules print it: "7.", "702.",
    "702.19." with a period, a subrule ("702.19c") without."""
    return id if id[-1:].isalpha() else id + "."


class _Record:
    """A small record class: fields in ``__slots__`` order, equality by value.

    The model is imported on every rule lookup; ``dataclasses`` costs about
    2 ms per class to build at import time, which is most of a lookup's
    budget, so the few methods dataclasses would generate are written here.
    """

    __slots__: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self.__slots__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes at most {len(names)} arguments")
        for name, value in zip(names, args):
            setattr(self, name, value)
        for name in names[len(args):]:
            if name in kwargs:
                setattr(self, name, kwargs.pop(name))
            elif name in self._defaults:
                default = self._defaults[name]
                setattr(self, name, default() if callable(default) else default)
            else:
                raise TypeError(f"{type(self).__name__} is missing {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__} got unexpected {sorted(kwargs)}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.__slots__ if not n.startswith("_"))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined, unused-ignore]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__ if not n.startswith("_"))
        return f"{type(self).__name__}({inner})"


class Reference(_Record):
    """A cross-reference as printed, and what it points at.

    ``targets`` are existing ids (rules, chapters, sections); ``missing`` are
    ids the text names that this release does not have.
    """

    __slots__ = ("text", "targets", "missing")
    _defaults = {"targets": list, "missing": list}
    text: str
    targets: list[str]
    missing: list[str]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "targets": self.targets}
        if self.missing:
            d["missing"] = self.missing
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reference:
        return cls(d["text"], list(d.get("targets", ())), list(d.get("missing", ())))


class Section(_Record):
    """One of the nine numbered sections ("7. Additional Rules")."""

    __slots__ = ("id", "title", "line", "cited_by", "kind")
    _defaults = {"line": 0, "cited_by": list, "kind": "section"}
    id: str
    title: str
    line: int
    cited_by: list[str]
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "line": self.line,
                "cited_by": self.cited_by}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Section:
        return cls(d["id"], d["title"], d.get("line", 0), list(d.get("cited_by", ())))


class Chapter(_Record):
    """A three-digit heading such as "702. Keyword Abilities"."""

    __slots__ = ("id", "title", "section", "line", "cited_by", "kind")
    _defaults = {"line": 0, "cited_by": list, "kind": "chapter"}
    id: str
    title: str
    section: str
    line: int
    cited_by: list[str]
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "section": self.section,
                "line": self.line, "cited_by": self.cited_by}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chapter:
        return cls(d["id"], d["title"], d["section"], d.get("line", 0),
                   list(d.get("cited_by", ())))


class Rule(_Record):
    """A numbered rule (``kind="rule"``, "702.19.") or subrule ("702.19c").

    ``text`` holds the rule's paragraphs joined by newlines (a few rules go on
    in an indented paragraph of their own); ``examples`` holds each example's
    text without its "Example: " label.  ``title`` is set for rules whose text
    is a heading, such as the keyword rules "702.19. Trample".
    """

    __slots__ = ("id", "kind", "text", "examples", "title", "line", "references", "cited_by")
    _defaults = {"examples": list, "title": None, "line": 0, "references": list, "cited_by": list}
    id: str
    kind: str
    text: str
    examples: list[str]
    title: str | None
    line: int
    references: list[Reference]
    cited_by: list[str]

    @property
    def label(self) -> str:
        """The number as printed: "702.19." for a rule, "702.19c" for a subrule."""
        return label(self.id)

    @property
    def chapter(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def section(self) -> str:
        return self.id[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "title": self.title,
            "text": self.text, "examples": self.examples, "line": self.line,
            "references": [r.to_dict() for r in self.references],
            "cited_by": self.cited_by,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rule:
        return cls(
            d["id"], d["kind"], d["text"], list(d.get("examples", ())),
            d.get("title"), d.get("line", 0),
            [Reference.from_dict(r) for r in d.get("references", ())],
            list(d.get("cited_by", ())),
        )


class GlossaryEntry(_Record):
    """One glossary entry.

    ``heading`` is the term line as printed; ``term`` drops the "(Obsolete)"
    mark; ``aliases`` lists every name when the heading gives several
    ("You, Your").  ``senses`` holds numbered senses ("1. ...", "2. ...")
    when the definition has them; ``text`` always holds the whole definition.
    """

    __slots__ = ("term", "heading", "text", "aliases", "obsolete", "senses", "examples", "line", "references", "cited_by", "kind")
    _defaults = {"aliases": list, "obsolete": False, "senses": list, "examples": list, "line": 0, "references": list, "cited_by": list, "kind": "glossary"}
    term: str
    heading: str
    text: str
    aliases: list[str]
    obsolete: bool
    senses: list[str]
    examples: list[str]
    line: int
    references: list[Reference]
    cited_by: list[str]
    kind: str

    @property
    def id(self) -> str:
        return GLOSSARY_PREFIX + self.term

    @property
    def see(self) -> str | None:
        """The term a definition that only reads "See X." sends the reader to."""
        # A definition that only sends the reader elsewhere:
        # "See Active Player, Nonactive Player Order."
        text = self.text.strip()
        if not text.startswith("See "):
            return None
        target = text[4:].removesuffix(".")
        return target if target and "." not in target else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "term": self.term, "heading": self.heading, "aliases": self.aliases,
            "obsolete": self.obsolete, "text": self.text, "senses": self.senses,
            "examples": self.examples, "line": self.line,
            "references": [r.to_dict() for r in self.references],
            "cited_by": self.cited_by,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GlossaryEntry:
        return cls(
            d["term"], d["heading"], d["text"], list(d.get("aliases", ())),
            d.get("obsolete", False), list(d.get("senses", ())),
            list(d.get("examples", ())), d.get("line", 0),
            [Reference.from_dict(r) for r in d.get("references", ())],
            list(d.get("cited_by", ())),
        )


class Anomaly(_Record):
    """Something irregular in the source that the parser noticed and handled."""

    __slots__ = ("kind", "line", "text", "message")
    _defaults: dict[str, Any] = {}
    kind: str
    line: int
    text: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self.line, "text": self.text,
                "message": self.message}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Anomaly:
        return cls(d["kind"], d["line"], d["text"], d["message"])


class SourceInfo(_Record):
    """Where the text came from and how its bytes were decoded."""

    __slots__ = ("name", "sha256", "size", "encoding", "bom", "line_endings")
    _defaults = {"name": "", "sha256": "", "size": 0, "encoding": "", "bom": False, "line_endings": list}
    name: str
    sha256: str
    size: int
    encoding: str
    bom: bool
    line_endings: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "sha256": self.sha256, "size": self.size,
                "encoding": self.encoding, "bom": self.bom,
                "line_endings": self.line_endings}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SourceInfo:
        return cls(d.get("name", ""), d.get("sha256", ""), d.get("size", 0),
                   d.get("encoding", ""), d.get("bom", False),
                   list(d.get("line_endings", ())))


class Release(_Record):
    """One release of the Comprehensive Rules, parsed.

    Every non-blank source line is in exactly one place: ``front_matter``
    (title and effective-date lines, stray text before the title),
    ``introduction``, ``contents`` (the table of contents), a section or
    chapter heading, a rule, a glossary entry, ``credits``, or ``unplaced``
    (which the parser keeps empty for every archived release).
    """

    __slots__ = ("effective_date", "title", "front_matter", "introduction", "contents", "sections", "chapters", "rules", "glossary", "credits", "anomalies", "unplaced", "complete", "source", "_by_id")
    _defaults = {"title": "", "front_matter": list, "introduction": list, "contents": list, "sections": list, "chapters": list, "rules": list, "glossary": list, "credits": list, "anomalies": list, "unplaced": list, "complete": True, "source": lambda: SourceInfo(), "_by_id": None}
    effective_date: str
    title: str
    front_matter: list[str]
    introduction: list[str]
    contents: list[str]
    sections: list[Section]
    chapters: list[Chapter]
    rules: list[Rule]
    glossary: list[GlossaryEntry]
    credits: list[str]
    anomalies: list[Anomaly]
    unplaced: list[tuple[int, str]]
    complete: bool
    source: SourceInfo
    _by_id: dict[str, Any] | None

    # -- lookups -----------------------------------------------------------
    def by_id(self) -> dict[str, Any]:
        """Every section, chapter, rule and glossary entry keyed by its id."""
        if self._by_id is None:
            table: dict[str, Any] = {}
            for s in self.sections:
                table[s.id] = s
            for c in self.chapters:
                table[c.id] = c
            for r in self.rules:
                table[r.id] = r
            for g in self.glossary:
                table.setdefault(g.id, g)
            self._by_id = table
        return self._by_id

    def get(self, id: str) -> Any | None:
        return self.by_id().get(id)

    def invalidate(self) -> None:
        """Forget cached lookups after the lists were changed."""
        self._by_id = None

    def items(self) -> Iterator[Any]:
        """Sections, chapters, rules and glossary entries in document order."""
        chapters_by_section: dict[str, list[Chapter]] = {}
        for c in self.chapters:
            chapters_by_section.setdefault(c.section, []).append(c)
        rules_by_chapter: dict[str, list[Rule]] = {}
        for r in self.rules:
            rules_by_chapter.setdefault(r.chapter, []).append(r)
        for s in self.sections:
            yield s
            for c in chapters_by_section.get(s.id, ()):
                yield c
                yield from rules_by_chapter.get(c.id, ())
        yield from self.glossary

    def counts(self) -> dict[str, int]:
        return {
            "sections": len(self.sections),
            "chapters": len(self.chapters),
            "rules": sum(1 for r in self.rules if r.kind == "rule"),
            "subrules": sum(1 for r in self.rules if r.kind == "subrule"),
            "examples": sum(len(r.examples) for r in self.rules),
            "glossary": len(self.glossary),
        }

    # -- serialisation -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "effective_date": self.effective_date,
            "title": self.title,
            "complete": self.complete,
            "source": self.source.to_dict(),
            "front_matter": self.front_matter,
            "introduction": self.introduction,
            "contents": self.contents,
            "sections": [s.to_dict() for s in self.sections],
            "chapters": [c.to_dict() for c in self.chapters],
            "rules": [r.to_dict() for r in self.rules],
            "glossary": [g.to_dict() for g in self.glossary],
            "credits": self.credits,
            "anomalies": [a.to_dict() for a in self.anomalies],
            "unplaced": [list(u) for u in self.unplaced],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Release:
        return cls(
            effective_date=d["effective_date"],
            title=d.get("title", ""),
            front_matter=list(d.get("front_matter", ())),
            introduction=list(d.get("introduction", ())),
            contents=list(d.get("contents", ())),
            sections=[Section.from_dict(x) for x in d.get("sections", ())],
            chapters=[Chapter.from_dict(x) for x in d.get("chapters", ())],
            rules=[Rule.from_dict(x) for x in d.get("rules", ())],
            glossary=[GlossaryEntry.from_dict(x) for x in d.get("glossary", ())],
            credits=list(d.get("credits", ())),
            anomalies=[Anomaly.from_dict(x) for x in d.get("anomalies", ())],
            unplaced=[(int(a), str(b)) for a, b in d.get("unplaced", ())],
            complete=d.get("complete", True),
            source=SourceInfo.from_dict(d.get("source", {})),
        )
