"""The parsed, cross-referenced model of one Comprehensive Rules release.

Plain dataclasses and no I/O: the parser builds them, ``refs`` fills in the
references, ``store`` writes and reads them, and the CLI, index and site read
them.  Ids follow one scheme everywhere:

- ``"7"``: section 7; ``"702"``: chapter 702;
- ``"702.19"``: a rule; ``"702.19c"``: a subrule;
- ``"glossary:Trample"``: a glossary entry (its term as printed, without the
  "(Obsolete)" mark).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

GLOSSARY_PREFIX = "glossary:"


@dataclass
class Reference:
    """A cross-reference as printed, and what it points at.

    ``targets`` are existing ids (rules, chapters, sections); ``missing`` are
    ids the text names that this release does not have.
    """

    text: str
    targets: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "targets": self.targets}
        if self.missing:
            d["missing"] = self.missing
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Reference":
        return cls(d["text"], list(d.get("targets", ())), list(d.get("missing", ())))


@dataclass
class Section:
    """One of the nine numbered sections ("7. Additional Rules")."""

    id: str
    title: str
    line: int = 0
    cited_by: list[str] = field(default_factory=list)
    kind: str = "section"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "line": self.line,
                "cited_by": self.cited_by}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Section":
        return cls(d["id"], d["title"], d.get("line", 0), list(d.get("cited_by", ())))


@dataclass
class Chapter:
    """A three-digit heading such as "702. Keyword Abilities"."""

    id: str
    title: str
    section: str
    line: int = 0
    cited_by: list[str] = field(default_factory=list)
    kind: str = "chapter"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "section": self.section,
                "line": self.line, "cited_by": self.cited_by}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Chapter":
        return cls(d["id"], d["title"], d["section"], d.get("line", 0),
                   list(d.get("cited_by", ())))


@dataclass
class Rule:
    """A numbered rule (``kind="rule"``, "702.19.") or subrule ("702.19c").

    ``text`` holds the rule's paragraphs joined by newlines (a few rules go on
    in an indented paragraph of their own); ``examples`` holds each example's
    text without its "Example: " label.  ``title`` is set for rules whose text
    is a heading, such as the keyword rules "702.19. Trample".
    """

    id: str
    kind: str
    text: str
    examples: list[str] = field(default_factory=list)
    title: str | None = None
    line: int = 0
    references: list[Reference] = field(default_factory=list)
    cited_by: list[str] = field(default_factory=list)

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
    def from_dict(cls, d: dict[str, Any]) -> "Rule":
        return cls(
            d["id"], d["kind"], d["text"], list(d.get("examples", ())),
            d.get("title"), d.get("line", 0),
            [Reference.from_dict(r) for r in d.get("references", ())],
            list(d.get("cited_by", ())),
        )


@dataclass
class GlossaryEntry:
    """One glossary entry.

    ``heading`` is the term line as printed; ``term`` drops the "(Obsolete)"
    mark; ``aliases`` lists every name when the heading gives several
    ("You, Your").  ``senses`` holds numbered senses ("1. ...", "2. ...")
    when the definition has them; ``text`` always holds the whole definition.
    """

    term: str
    heading: str
    text: str
    aliases: list[str] = field(default_factory=list)
    obsolete: bool = False
    senses: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    line: int = 0
    references: list[Reference] = field(default_factory=list)
    cited_by: list[str] = field(default_factory=list)
    kind: str = "glossary"

    @property
    def id(self) -> str:
        return GLOSSARY_PREFIX + self.term

    def to_dict(self) -> dict[str, Any]:
        return {
            "term": self.term, "heading": self.heading, "aliases": self.aliases,
            "obsolete": self.obsolete, "text": self.text, "senses": self.senses,
            "examples": self.examples, "line": self.line,
            "references": [r.to_dict() for r in self.references],
            "cited_by": self.cited_by,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GlossaryEntry":
        return cls(
            d["term"], d["heading"], d["text"], list(d.get("aliases", ())),
            d.get("obsolete", False), list(d.get("senses", ())),
            list(d.get("examples", ())), d.get("line", 0),
            [Reference.from_dict(r) for r in d.get("references", ())],
            list(d.get("cited_by", ())),
        )


@dataclass
class Anomaly:
    """Something irregular in the source that the parser noticed and handled."""

    kind: str
    line: int
    text: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self.line, "text": self.text,
                "message": self.message}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Anomaly":
        return cls(d["kind"], d["line"], d["text"], d["message"])


@dataclass
class SourceInfo:
    """Where the text came from and how its bytes were decoded."""

    name: str = ""
    sha256: str = ""
    size: int = 0
    encoding: str = ""
    bom: bool = False
    line_endings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "sha256": self.sha256, "size": self.size,
                "encoding": self.encoding, "bom": self.bom,
                "line_endings": self.line_endings}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SourceInfo":
        return cls(d.get("name", ""), d.get("sha256", ""), d.get("size", 0),
                   d.get("encoding", ""), d.get("bom", False),
                   list(d.get("line_endings", ())))


Item = "Section | Chapter | Rule | GlossaryEntry"


@dataclass
class Release:
    """One release of the Comprehensive Rules, parsed.

    Every non-blank source line is in exactly one place: ``front_matter``
    (title and effective-date lines, stray text before the title),
    ``introduction``, ``contents`` (the table of contents), a section or
    chapter heading, a rule, a glossary entry, ``credits``, or ``unplaced``
    (which the parser keeps empty for every archived release).
    """

    effective_date: str
    title: str = ""
    front_matter: list[str] = field(default_factory=list)
    introduction: list[str] = field(default_factory=list)
    contents: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    credits: list[str] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    unplaced: list[tuple[int, str]] = field(default_factory=list)
    complete: bool = True
    source: SourceInfo = field(default_factory=SourceInfo)
    _by_id: dict[str, Any] | None = field(default=None, repr=False, compare=False)

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
    def from_dict(cls, d: dict[str, Any]) -> "Release":
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
