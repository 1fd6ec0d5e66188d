"""Decoded text of one release to a :class:`~crsearch.rules.model.Release`.

The text format, as Wizards has written it since 2003:

    [stray text]  Magic: The Gathering Comprehensive Rules
    These rules are effective as of <date>.     ("current as of" in 2003)
    Introduction / paragraphs
    Contents / a table of contents that repeats every heading, ending with
               "Glossary" and "Credits"
    1. Section            100. Chapter
    100.1. Rule text      100.1a Subrule text      Example: ...
         indented continuation paragraph
    Glossary / entries: a term line, definition lines, a blank line
    Credits / names, then legal lines to the end

The parser never drops a line: each non-blank line lands in the model or in
``Release.unplaced``, and irregularities it repairs (official typos, a
truncated file) are listed in ``Release.anomalies``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from crsearch.errors import NotACR
from crsearch.rules.model import (
    Anomaly,
    Chapter,
    GlossaryEntry,
    Reference,
    Release,
    Rule,
    Section,
    SourceInfo,
)

_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october "
    "november december".split(), 1)}

_DATE = re.compile(
    r"(?:effective|current)\s+as\s+of\s+([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})",
    re.I)
_SECTION = re.compile(r"^([1-9])\.\s+(\S.*)$")
_CHAPTER = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# A rule is "NNN.N." and a subrule "NNN.Na"; the official text has typos in
# both directions ("119.1d." and "606.5"), so the period is optional here and
# its presence or absence is reported as an anomaly instead.
_RULE = re.compile(r"^(\d{3})\.( ?)(\d+)([a-z]*)(\.?)(?:\s+(.*)|(?<=\.)([A-Z].*))?$")
_LOST_NUMBER = re.compile(r"^(\d{3})\.([a-z])\s+(.*)$")
_EXAMPLE = re.compile(r"^Examples?:\s*(.*)$")
_SENSE = re.compile(r"^(\d+)\.\s+(.*)$")
_OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$", re.I)
# "Ability1. Text on an object..." (2021-06-18): a term glued to its first
# numbered sense, with no line break between them.
_GLUED_TERM = re.compile(r"^(\S.*?[A-Za-z)])(1\.\s+\S.*)$")


def _plausible_number(chapter: str, number: str, letters: str) -> bool:
    """Whether ``chapter.number letters`` is a rule id numbers.py accepts."""
    from crsearch.errors import BadInput
    from crsearch.rules import numbers

    try:
        numbers.sort_key(f"{chapter}.{int(number)}{letters}")
    except BadInput:
        return False
    return True


def _clean(line: str) -> str:
    return line.strip().replace("\u00a0", " ")


def parse_date(text: str) -> str | None:
    """The ISO date in an "effective as of Month D, YYYY" line, if any."""
    m = _DATE.search(text)
    if not m:
        return None
    month = _MONTHS.get(m.group(1).lower())
    if not month:
        return None
    return f"{int(m.group(3)):04d}-{month:02d}-{int(m.group(2)):02d}"


def is_title(line: str) -> bool:
    return "comprehensive rules" in line.lower() and len(line) < 80


@dataclass
class _Landmarks:
    title: int
    intro: int | None
    contents: int | None
    body: int
    glossary: int | None
    credits: int | None


def _find_landmarks(lines: list[str]) -> _Landmarks:
    n = len(lines)
    title = next((i for i, l in enumerate(lines) if is_title(_clean(l).strip("_*"))), None)
    if title is None:
        raise NotACR("no “Comprehensive Rules” title line: this is not a Comprehensive Rules text")
    stripped = [_clean(l) for l in lines]
    contents = next((i for i in range(title, n) if stripped[i] == "Contents"), None)
    intro = next((i for i in range(title, contents or n) if stripped[i] == "Introduction"), None)
    # The body starts at the section heading just above the first numbered
    # rule: the table of contents holds no rules, and its headings do not
    # always match the body's (2009-07-11 lists "1. Game Concepts" but the
    # body says "1. The Game").
    start = (contents if contents is not None else title) + 1
    first_rule = next((i for i in range(start, n) if _RULE.match(stripped[i])), None)
    if first_rule is None:
        raise NotACR("no numbered rules found: this is not a Comprehensive Rules text")
    body = next((i for i in range(first_rule, start - 1, -1) if _SECTION.match(stripped[i])), None)
    if body is None:
        raise NotACR("no numbered section headings: this is not a Comprehensive Rules text")
    glossary = next((i for i in range(body, n) if stripped[i] == "Glossary"), None)
    credits = next((i for i in range(glossary or body, n) if stripped[i] == "Credits"), None)
    return _Landmarks(title, intro, contents, body, glossary, credits)


class _Parser:
    def __init__(self, lines: list[str], source: SourceInfo | None):
        self.raw = lines
        self.lines = [_clean(l) for l in lines]
        self.release = Release(effective_date="", source=source or SourceInfo())
        self.wrapped = False

    # -- helpers -----------------------------------------------------------
    def anomaly(self, kind: str, i: int, message: str) -> None:
        self.release.anomalies.append(Anomaly(kind, i + 1, self.lines[i], message))

    def unplaced(self, i: int) -> None:
        self.release.unplaced.append((i + 1, self.lines[i]))

    def nonblank(self, a: int, b: int):
        for i in range(a, b):
            if self.lines[i]:
                yield i, self.lines[i]

    # -- whole document ----------------------------------------------------
    def run(self) -> Release:
        rel = self.release
        marks = _find_landmarks(self.raw)
        n = len(self.lines)
        for i, line in self.nonblank(0, marks.title):
            rel.front_matter.append(line)
            self.anomaly("stray-preamble", i, "text before the title line")
        rel.title = self.lines[marks.title].strip("_*").strip()
        rel.front_matter.append(self.lines[marks.title])
        head_end = marks.intro if marks.intro is not None else (
            marks.contents if marks.contents is not None else marks.body)
        for _i, line in self.nonblank(marks.title + 1, head_end):
            rel.front_matter.append(line)
            date = parse_date(line)
            if date and not rel.effective_date:
                rel.effective_date = date
        if marks.intro is not None:
            end = marks.contents if marks.contents is not None else marks.body
            for _i, line in self.nonblank(marks.intro + 1, end):
                rel.introduction.append(line)
        if marks.contents is not None:
            for _i, line in self.nonblank(marks.contents + 1, marks.body):
                rel.contents.append(line)
        body_end = marks.glossary if marks.glossary is not None else n
        self.parse_body(marks.body, body_end)
        if marks.glossary is not None:
            gloss_end = marks.credits if marks.credits is not None else n
            self.parse_glossary(marks.glossary + 1, gloss_end)
        if marks.credits is not None:
            for _i, line in self.nonblank(marks.credits + 1, n):
                rel.credits.append(line)
                date = parse_date(line)
                if date and not rel.effective_date:
                    rel.effective_date = date
        else:
            rel.complete = False
            last = max((i for i in range(n) if self.lines[i]), default=0)
            if rel.glossary:
                where = f"the glossary, after “{rel.glossary[-1].term}”"
            elif rel.rules:
                where = f"the rules, after {rel.rules[-1].id}"
            else:
                where = "the front matter"
            self.anomaly("truncated", last, f"the text stops in {where}, and there are no Credits")
        if not rel.effective_date:
            raise NotACR("no “effective as of <date>” line: this is not a Comprehensive Rules text")
        if not rel.rules:
            raise NotACR("no numbered rules found: this is not a Comprehensive Rules text")
        rel.invalidate()
        return rel

    # -- numbered rules ----------------------------------------------------
    def parse_body(self, start: int, end: int) -> None:
        rel = self.release
        section: Section | None = None
        chapter: Chapter | None = None
        rule: Rule | None = None
        last_example = False
        seen: set[str] = set()
        wrapped = self.wrapped = self.hard_wrapped(start, end)
        if wrapped:
            self.anomaly("hard-wrapped", start,
                         "paragraphs are broken into short lines; they are joined again")
        for i in range(start, end):
            line = self.lines[i]
            if not line:
                continue
            raw = self.raw[i]
            indented = raw[:1] in (" ", "\t")
            m = _RULE.match(line)
            if m and not indented and rule is not None and self.lines[i - 1] \
                    and _ends_mid_reference(self.lines[i - 1]):
                # Hard-wrapped releases (2003-2004) break "See rule" from its
                # number: "...See rule" / "419.8 "Sources of Damage."".
                m = None
            if m and not indented and not _plausible_number(m.group(1), m.group(3), m.group(4)):
                # "100.10000." is no rule number the CR could print: keep the
                # line as text and say so, rather than reject the release.
                self.anomaly("bad-number", i, f"{m.group(1)}.{m.group(3)}{m.group(4)} is not a "
                             "possible rule number; kept as text")
                m = None
            if m and not indented:
                chap, space, num, letters, period, text, glued = m.groups()
                text = text or glued or ""
                if glued:
                    # "901.4.All plane ..." (2022-2025): no space after the number.
                    self.anomaly("missing-space", i, f"no space after the number {chap}.{num}{letters}.")
                if space:
                    # "606. 8b" (2005-2007): a stray space inside the number.
                    self.anomaly("space-in-number", i,
                                 f"a space inside the number {chap}.{num}{letters}")
                if letters:
                    rid = f"{chap}.{int(num)}{letters}"
                    kind = "subrule"
                    if period:
                        # 119.1d. in the 2026 releases: a subrule never
                        # carries a period, so this is the subrule itself.
                        self.anomaly("subrule-with-period", i,
                                     f"subrule {rid} is printed with a period; read as subrule {rid}")
                else:
                    rid = f"{chap}.{int(num)}"
                    kind = "rule"
                    if not period:
                        # 606.5 in the 2026 releases: the rule's period is missing.
                        self.anomaly("rule-without-period", i,
                                     f"rule {rid} is printed without its period; read as rule {rid}")
                if chapter is not None and chap != chapter.id:
                    fixed = chapter.id + rid[3:]
                    if fixed not in seen:
                        # "501.2." under 510, "432.2b" under 423: a misprinted
                        # chapter number; the rule is where it stands.
                        self.anomaly("misnumbered", i,
                                     f"{rid} is printed under chapter {chapter.id}; read as {fixed}")
                        rid = fixed
                    else:
                        self.anomaly("rule-outside-chapter", i,
                                     f"rule {rid} does not belong to the chapter above it")
                elif chapter is None:
                    self.anomaly("rule-outside-chapter", i, f"rule {rid} comes before any chapter")
                if rid in seen:
                    self.anomaly("duplicate-id", i, f"{rid} appears twice; the second is kept as printed")
                seen.add(rid)
                rule = Rule(rid, kind, text.strip(), line=i + 1)
                if kind == "rule" and is_heading_text(rule.text):
                    rule.title = rule.text
                rel.rules.append(rule)
                last_example = False
                continue
            m = _LOST_NUMBER.match(line)
            if m and not indented and rule is not None and rule.chapter == m.group(1):
                # "306.b" (2008-10-01): the rule number between chapter and
                # letter is missing; it is the next subrule of the rule above.
                base = rule.id.rstrip("abcdefghijkmnpqrstuvwxyz")
                rid = base + m.group(2)
                self.anomaly("missing-rule-number", i, f"printed as {m.group(1)}.{m.group(2)}; read as {rid}")
                rule = Rule(rid, "subrule", m.group(3).strip(), line=i + 1)
                rel.rules.append(rule)
                seen.add(rid)
                last_example = False
                continue
            m = _CHAPTER.match(line)
            if m and not indented and section is not None and m.group(1)[0] == section.id:
                chapter = Chapter(m.group(1), m.group(2).strip(), section.id, line=i + 1)
                rel.chapters.append(chapter)
                rule = None
                continue
            m = _SECTION.match(line)
            if m and not indented and _next_section(section, m.group(1)):
                section = Section(m.group(1), m.group(2).strip(), line=i + 1)
                rel.sections.append(section)
                chapter = None
                rule = None
                continue
            m = _EXAMPLE.match(line)
            if m and rule is not None:
                rule.examples.append(m.group(1).strip())
                last_example = True
                continue
            if rule is not None and (indented or not _looks_like_heading(line)):
                # A continuation paragraph (205.4c, 509.1b) or, in old
                # releases, a paragraph of a rule or example broken onto a
                # new line.
                sep = " " if wrapped and not indented else "\n"
                if last_example and wrapped and not indented:
                    # A hard-wrapped example goes on; elsewhere a loose line
                    # after an example is another paragraph of the rule.
                    rule.examples[-1] += sep + line
                else:
                    rule.text = (rule.text + sep + line) if rule.text else line
                continue
            self.unplaced(i)

    def hard_wrapped(self, start: int, end: int) -> bool:
        """Whether paragraphs are broken into lines (2003-10 to 2004-02).

        Such releases have hundreds of lines that start neither a rule nor an
        example nor an indented paragraph.
        """
        loose = 0
        for i in range(start, end):
            line = self.lines[i]
            if line and self.raw[i][:1] not in (" ", "\t") and not (
                    _RULE.match(line) or _EXAMPLE.match(line) or _looks_like_heading(line)):
                loose += 1
        return loose > 100

    # -- glossary ----------------------------------------------------------
    def parse_glossary(self, start: int, end: int) -> None:
        blocks: list[list[int]] = []
        current: list[int] = []
        for i in range(start, end):
            if self.lines[i]:
                current.append(i)
            elif current:
                blocks.append(current)
                current = []
        if current:
            blocks.append(current)
        entries = self.release.glossary
        for block in blocks:
            first = self.lines[block[0]]
            glued = _glued_term(first, self.lines[block[1]] if len(block) > 1 else "")
            if glued:
                term, sense = glued
                self.anomaly("glued-glossary-term", block[0],
                             f"the term “{term}” is printed on the line of its first sense; "
                             "read as a term followed by “1.”")
                entry = self._new_entry(term, block[0])
                self._add_line(entry, block[0], sense)
                self._add_definition(entry, block[1:])
                continue
            if entries and (not _is_term(first) or len(block) == 1 and _is_definition(first)):
                # A paragraph separated from its entry by a blank line.
                self._add_definition(entries[-1], block)
                continue
            if not _is_term(first):
                for i in block:
                    self.unplaced(i)
                continue
            entry = self._new_entry(first, block[0])
            self._add_definition(entry, block[1:])
        set_aliases(entries)

    def _new_entry(self, heading: str, i: int) -> GlossaryEntry:
        entry = glossary_entry(heading, line=i + 1)
        self.release.glossary.append(entry)
        return entry

    def _add_definition(self, entry: GlossaryEntry, idx: list[int]) -> None:
        for i in idx:
            self._add_line(entry, i, self.lines[i])

    def _add_line(self, entry: GlossaryEntry, i: int, line: str) -> None:
        sep = " " if self.wrapped and self.raw[i][:1] not in (" ", "\t") else "\n"
        add_definition_line(entry, line, sep)


# -- glossary entries (``htmlread`` builds them the same way) -----------------

def glossary_entry(heading: str, line: int = 0) -> GlossaryEntry:
    """A new, empty entry for a term line ("Bury (Obsolete)" is obsolete "Bury")."""
    term = _OBSOLETE.sub("", heading).strip()
    return GlossaryEntry(term=term, heading=heading, text="", obsolete=term != heading, line=line)


def add_definition_line(entry: GlossaryEntry, line: str, sep: str = "\n") -> None:
    """Add one line of a definition: an example, or text (a numbered sense too)."""
    example = example_text(line)
    if example is not None:
        entry.examples.append(example)
        return
    s = _SENSE.match(line)
    if s and (int(s.group(1)) == len(entry.senses) + 1):
        entry.senses.append(s.group(2).strip())
    entry.text = (entry.text + sep + line) if entry.text else line


def set_aliases(entries: list[GlossaryEntry]) -> None:
    """Fill in the names of headings that list several ("You, Your")."""
    known = {e.term.lower() for e in entries}
    for e in entries:
        e.aliases = _aliases(e.term, known)


def example_text(line: str) -> str | None:
    """The text of an "Example: ..." line, or None for any other line."""
    m = _EXAMPLE.match(line)
    return m.group(1).strip() if m else None


_WRAP_WORDS = {"rule", "rules", "see", "and", "or", "section", "to", "in", "of", "under"}


def _ends_mid_reference(previous: str) -> bool:
    """Whether a line ends where a rule number must follow ("See rule")."""
    words = previous.rsplit(None, 1)
    return bool(words) and (words[-1].lower() in _WRAP_WORDS or previous.endswith(","))


def _next_section(current: Section | None, number: str) -> bool:
    expected = 1 if current is None else int(current.id) + 1
    return int(number) == expected


def is_heading_text(text: str) -> bool:
    """Whether a rule's whole text is a title ("702.19. Trample")."""
    return bool(text) and len(text) < 70 and "\n" not in text and text[-1] not in ".:;)\"”’"


def _looks_like_heading(line: str) -> bool:
    return bool(_SECTION.match(line) or _CHAPTER.match(line)
                or line in ("Glossary", "Credits"))


def _is_term(line: str) -> bool:
    """A glossary term line: short, no sentence punctuation at its end."""
    if len(line) > 80 or _SENSE.match(line) or _EXAMPLE.match(line):
        return False
    return not line.endswith((".", ":", ";")) or line.endswith(("etc.", "(Obsolete)"))


def _glued_term(line: str, second: str) -> tuple[str, str] | None:
    """``(term, "1. sense")`` for a term glued to its first sense, else None.

    Only when the next line is sense "2.", so an ordinary definition that
    happens to hold "...1. " is never cut.
    """
    m = _GLUED_TERM.match(line)
    if not m or not second.startswith("2. ") or not _is_term(m.group(1)):
        return None
    return m.group(1), m.group(2)


def _is_definition(line: str) -> bool:
    return line.startswith("See ") or line.endswith(".")


def _aliases(term: str, known: set[str]) -> list[str]:
    """The names a heading lists ("You, Your"), or [] for a single term.

    "Active Player, Nonactive Player Order" is one term even though it holds a
    comma: its first part is a glossary term of its own.
    """
    if "," not in term:
        return []
    # American punctuation puts the comma inside the quotes: “Partner—[text],”
    normal = term.replace(",”", "”,").replace(',"', '",')
    parts = [p.strip().strip("\"“” ") for p in normal.split(",")]
    if not all(parts):
        return []
    if parts[0].lower() in known and len(parts) == 2 and len(parts[1].split()) > 2:
        return []
    return parts


def parse_lines(lines: list[str], source: SourceInfo | None = None) -> Release:
    """Parse the decoded lines of one release."""
    return _Parser(lines, source).run()


def parse_bytes(data: bytes, name: str = "") -> Release:
    """Decode and parse the bytes of a TXT release."""
    import hashlib

    from crsearch.ingest.decode import decode
    from crsearch.rules.safetext import printable

    decoded = decode(data)
    # The name can come from a server (a redirect target) or a hostile file
    # name; it is shown by `report` and the site, so it is kept printable.
    source = SourceInfo(name=printable(name), sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                        encoding=decoded.encoding, bom=decoded.bom,
                        line_endings=decoded.line_endings)
    release = parse_lines(decoded.lines, source)
    for repair in decoded.repairs:
        release.anomalies.append(Anomaly("encoding-repair", 0, repair,
                                         "a letter in another code page inside a Windows-1252 text"))
    for i, found in decoded.controls:
        release.anomalies.append(Anomaly("control-characters", i + 1, _clean(decoded.lines[i]),
                                         f"removed control or format characters: {found}"))
    return release


def scrub(release: Release) -> Release:
    """Remove control and format characters from every text of a release.

    For releases read from HTML (a site folder), which never pass through
    :func:`crsearch.ingest.decode.decode`; each cleaned item is reported as a
    ``control-characters`` anomaly.
    """
    from crsearch.rules.safetext import describe, strip_controls

    def clean(value: Any, found: list[str]) -> Any:
        if isinstance(value, str):
            cleaned, removed = strip_controls(value)
            if removed:
                found.append(describe(value))
            return cleaned
        if isinstance(value, list):
            return [clean(v, found) for v in value]
        if isinstance(value, tuple):
            return tuple(clean(v, found) for v in value)
        if isinstance(value, Reference):
            value.text = clean(value.text, found)
        return value

    top: list[str] = []
    for name in ("effective_date", "title", "front_matter", "introduction", "contents",
                 "credits", "unplaced"):
        setattr(release, name, clean(getattr(release, name), top))
    if top:
        release.anomalies.append(Anomaly("control-characters", 0, release.title,
                                         f"removed control or format characters: {', '.join(top)}"))
    for item in [*release.sections, *release.chapters, *release.rules, *release.glossary]:
        found: list[str] = []
        for name in item.__slots__:
            if name not in ("line", "obsolete", "kind", "cited_by"):
                setattr(item, name, clean(getattr(item, name), found))
        if found:
            label = getattr(item, "term", None) or getattr(item, "id", "")
            release.anomalies.append(Anomaly("control-characters", getattr(item, "line", 0), label,
                                             f"removed control or format characters: {', '.join(found)}"))
    release.invalidate()
    return release
