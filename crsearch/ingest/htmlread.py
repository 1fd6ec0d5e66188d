"""Read a hyperlinked Comprehensive Rules website back into a Release.

Two readers:

- a site built by ``site.py`` (it carries ``crsearch-site.json``) is read
  from its markup: front matter, contents, sections, chapters, every rule
  and example, glossary entries, line numbers, and the about page's
  source, anomalies and unplaced lines come back as they were, so
  ``refs.resolve`` then gives the very release the site was built from;
- any other hyperlinked CR (one page or many, in any order) is read as the
  text of its innermost blocks, links' text included (the scraper that made
  ``../shared/seeds`` lost every rule number that sat inside a link).  A
  block whose number sits only in an ``id``/``name``/``data-rule``
  attribute, or in an empty anchor before it (``<p id="r702.19c">``,
  ``<a name="702-19c"></a>``), gets it back.  Sections, chapters and rules
  are then placed by number (the first copy of each id wins, so a table of
  contents adds nothing), the glossary is read from the lines after a
  "Glossary" heading or on a page named like "glossary", and the date from
  the "effective as of" line.  ``parse`` lends its line rules (examples,
  titles, glossary entries) but does not see these pages.

beautifulsoup4 is imported inside the functions: a rule lookup never pays
for it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from crsearch.errors import BadInput, NotACR
from crsearch.rules import numbers
from crsearch.rules.model import (
    Anomaly,
    Chapter,
    GlossaryEntry,
    Release,
    Rule,
    Section,
    SourceInfo,
    label,
)

MARKER = "crsearch-site.json"  # same as site.MARKER; site.py imports jinja2 lazily too
_BLOCKS = ("p", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "div", "td", "pre",
           "blockquote", "article", "section")


def _soup(path: Path):
    import warnings

    from bs4 import BeautifulSoup

    _reading.append(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror or e}") from None
    try:
        import lxml  # noqa: F401
        parser = "lxml"
    except ImportError:
        parser = "html.parser"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bs4's "looks like a file name" warnings
        return BeautifulSoup(data, parser)


def read_site(folder: Path) -> Release:
    """Read the website in ``folder`` (holding ``index.html``) into a Release.

    References and cited-by lists are left empty: ``refs.resolve`` fills them.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise BadInput(f"not a folder: {folder}")
    try:
        if (folder / MARKER).is_file():
            return _read_crsearch(folder)
        pages = _html_files(folder)
        if not pages:
            raise NotACR(f"no HTML pages in {folder}")
        return read_pages(pages)
    except RecursionError:
        # bs4 walks the tree recursively; a page nested thousands deep is
        # not a rules page anyway.
        raise BadInput(f"{_reading[-1] if _reading else folder}: the HTML is nested too "
                       "deeply to read") from None
    finally:
        _reading.clear()


_reading: list[Path] = []  # the page being read, for error messages


def _html_files(folder: Path) -> list[Path]:
    files = [p for p in folder.rglob("*.htm*") if p.is_file()
             and p.suffix.lower() in (".html", ".htm")
             and "pagefind" not in p.relative_to(folder).parts]
    return sorted(files, key=_page_order)


def _page_order(p: Path) -> tuple:
    # index first, then pages in rule-number order, the glossary and the rest last.
    m = re.search(r"(\d{3})", p.stem)
    stem = p.stem.lower()
    if stem in ("index", "default"):
        return (0, 0, str(p))
    if m:
        return (1, int(m.group(1)), str(p))
    if "gloss" in stem:
        return (2, 0, str(p))
    return (3, 0, str(p))


# -- our own sites ------------------------------------------------------------

def _text(el) -> str:
    return el.get_text() if el is not None else ""


def _line(el) -> int:
    try:
        return int(el.get("data-line", 0))
    except (TypeError, ValueError):
        return 0


def _read_crsearch(folder: Path) -> Release:
    from crsearch.ingest.parse import add_definition_line, glossary_entry, set_aliases

    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadInput(f"{folder / MARKER} is damaged: {e}") from None
    if not (folder / "index.html").is_file():
        raise BadInput(f"{folder} holds no index.html")
    home = _soup(folder / "index.html")
    meta = home.find("meta", attrs={"name": "crsearch-effective-date"})
    date = str(meta["content"]) if meta else marker.get("effective_date", "")
    rel = Release(effective_date=date)
    h1 = home.select_one(".home h1")
    rel.title = _text(h1)
    rel.front_matter = [_text(p) for p in home.select(".front-matter p.fm")]
    rel.contents = [_text(li) for li in home.select("ul.contents > li")]
    rel.sections = [Section(str(s["data-section"]), _text(s), _line(s))
                    for s in home.select(".release-sections [data-section]")]

    chapter_files = sorted((p for p in folder.glob("*.html") if re.fullmatch(r"\d{3}", p.stem)),
                           key=lambda p: int(p.stem))
    for path in chapter_files:
        soup = _soup(path)
        box = soup.select_one("div.chapter[data-chapter]")
        if box is None:
            # Dropping the chapter would import a release with a hole in it.
            raise BadInput(f"{path} holds no chapter: the site is damaged")
        title = _text(box.select_one("h1 .chapter-title"))
        rel.chapters.append(Chapter(str(box["data-chapter"]), title, str(box["data-section"]),
                                    _line(box)))
        for art in box.select("article.rule"):
            head = art.find(class_="num")
            id = str(head["id"])
            kind = "subrule" if "subrule" in art["class"] else "rule"
            body = art.find("div", class_="body")
            paras = [_text(p) for p in body.find_all("p", class_="t", recursive=False)]
            title_el = head.find(class_="rule-title")
            rule_title = _text(title_el) if title_el is not None else None
            if rule_title is not None:
                paras = [rule_title, *paras]
            examples = [_text(ex.find(class_="t")) for ex in body.find_all("aside", class_="example")]
            rel.rules.append(Rule(id, kind, "\n".join(paras), examples, rule_title, _line(art)))

    gloss_path = folder / "glossary.html"
    if gloss_path.is_file():
        soup = _soup(gloss_path)
        for div in soup.select("div.terms > div.term"):
            entry = glossary_entry(_text(div.find("h2")), _line(div))
            d = div.find("div", class_="def")
            for p in d.find_all("p", class_="t", recursive=False):
                add_definition_line(entry, _text(p))
            entry.examples = [_text(ex.find(class_="t"))
                              for ex in d.find_all("aside", class_="example")]
            rel.glossary.append(entry)
        set_aliases(rel.glossary)

    about_path = folder / "about.html"
    if about_path.is_file():
        soup = _soup(about_path)
        box = soup.select_one("div.about")
        rel.complete = box is None or box.get("data-complete") != "no"
        rel.introduction = [_text(p) for p in soup.select(".introduction > p")]
        rel.credits = [_text(p) for p in soup.select(".credits > p")]
        f = {str(dd["data-field"]): _text(dd) for dd in soup.select("dl.source dd[data-field]")}
        try:
            size = int(f.get("size") or 0)
        except ValueError:
            size = 0
        rel.source = SourceInfo(f.get("name", ""), f.get("sha256", ""), size,
                                f.get("encoding", ""), f.get("bom") == "yes",
                                f.get("line_endings", "").split())
        for tr in soup.select("table.anomalies tbody tr"):
            rel.anomalies.append(Anomaly(_text(tr.find(class_="a-kind")),
                                         int(_text(tr.find(class_="a-line")) or 0),
                                         _text(tr.find(class_="a-text")),
                                         _text(tr.find(class_="a-message"))))
        rel.unplaced = [(_line(li), _text(li)) for li in soup.select("ul.unplaced > li")]
    if not rel.rules:
        raise NotACR(f"{folder} is a crsearch site without rules")
    return rel


# -- other hyperlinked CR layouts -----------------------------------------------

_NUM_IN_ATTR = re.compile(
    r"(?<![0-9])(?P<ch>[1-9][0-9]{2})(?:[._-](?P<rule>[0-9]+)(?P<let>[a-km-np-z]{1,2})?)?$",
    re.ASCII)
_STARTS_WITH_NUMBER = re.compile(r"^(?:[1-9]\.|[1-9][0-9]{2}\.|[1-9][0-9]{2}\.[0-9]+[a-z]*\.?)(?:\s|$)")
_DATE_LINE = re.compile(r"(?:effective|current) as of", re.IGNORECASE)


def _id_from_attr(value: str) -> str | None:
    """The rule id an ``id``/``name`` attribute holds ("r702.19c", "702-19c", "cr702_19")."""
    m = _NUM_IN_ATTR.search(value.strip().lower())
    if m is None:
        return None
    id = m["ch"] + (f".{int(m['rule'])}{m['let'] or ''}" if m["rule"] else "")
    try:
        return numbers.normalize(id)
    except BadInput:
        return None


def _attr_id(el) -> str | None:
    """A rule id carried by ``el`` or by an empty anchor at its very start."""
    for attr in ("id", "name", "data-rule", "data-id"):
        v = el.get(attr)
        if v:
            found = _id_from_attr(str(v))
            if found:
                return found
    first = next((c for c in el.children if getattr(c, "name", None) or str(c).strip()), None)
    if first is not None and getattr(first, "name", None) == "a" and not first.get_text(strip=True):
        for attr in ("id", "name"):
            v = first.get(attr)
            if v:
                return _id_from_attr(str(v))
    return None


def _block_lines(soup) -> list[str]:
    """Text of every innermost block of a page, links' text included."""
    from bs4 import NavigableString, Tag

    for bad in soup.find_all(["script", "style", "nav", "noscript", "template"]):
        bad.decompose()
    root = soup.body or soup
    out: list[str] = []

    def has_block_child(el: Tag) -> bool:
        return any(isinstance(c, Tag) and c.name in _BLOCKS for c in el.find_all(recursive=False))

    def walk(el: Tag) -> None:
        for child in el.children:
            if isinstance(child, NavigableString):
                continue
            if not isinstance(child, Tag):
                continue
            if child.name in _BLOCKS and not has_block_child(child):
                text = " ".join(child.get_text().split())
                if not text:
                    continue
                id = _attr_id(child)
                if id and not _STARTS_WITH_NUMBER.match(text):
                    text = f"{label(id)} {text}"
                out.append(text)
            elif child.name == "br":
                continue
            else:
                walk(child)

    walk(root)
    return out


def read_pages(pages: list[Path]) -> Release:
    """Read hyperlinked-CR pages (any layout, one chapter or all) into a Release.

    Pages may come in any order and repeat headings (a table of contents):
    rules are placed by number, the first copy of each id is kept.
    """
    from crsearch.ingest.parse import parse_date

    date: str | None = None
    front: list[str] = []
    body: list[str] = []
    glossary: list[str] = []
    for path in pages:
        soup = _soup(path)
        in_glossary = "gloss" in path.stem.lower()
        for line in _block_lines(soup):
            if date is None and _DATE_LINE.search(line):
                date = parse_date(line)
                front.append(line)
                continue
            low = line.lower()
            if low == "glossary":
                in_glossary = True
                continue
            if low == "credits":
                in_glossary = False
                continue
            if in_glossary:
                if _looks_like_term(line) and glossary and glossary[-1] != "":
                    glossary.append("")
                glossary.append(line)
            elif re.match(r"^(?:[1-9]|[1-9][0-9]{2})\.(?:[0-9]+[a-z]*\.?)?\s|^Examples?:", line):
                body.append(line)
    if date is None:
        raise NotACR("no “effective as of” date in these pages: is this the Comprehensive Rules?")
    rel = Release(effective_date=date, title="Magic: The Gathering Comprehensive Rules",
                  front_matter=front)
    _place_body(rel, body)
    _place_glossary(rel, glossary)
    if not rel.rules:
        raise NotACR("no numbered rules in these pages: is this the Comprehensive Rules?")
    rel.invalidate()
    return rel


_HEAD_ID = re.compile(r"^([1-9][0-9]{2}\.[0-9]+[a-z]*|[1-9][0-9]{2}|[1-9])\.?\s+(.*)$")


def _place_body(rel: Release, lines: list[str]) -> None:
    """Sections, chapters and rules from their lines, in number order."""
    from crsearch.ingest.parse import example_text, is_heading_text

    blocks: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    for line in lines:
        example = example_text(line)
        if example is not None:
            if current is not None:
                blocks[current][1].append(example)
            continue
        m = _HEAD_ID.match(line)
        if not m:
            continue
        try:
            id = numbers.normalize(m.group(1))
        except BadInput:
            continue
        if id in blocks:
            current = None  # a second copy (a table of contents): keep the first
            continue
        blocks[id] = (m.group(2).strip(), [])
        current = id
    # Section 7, then its chapters and rules: sort_key alone puts sections first.
    ordered = sorted(blocks, key=lambda i: (int(i[0]), numbers.sort_key(i)))
    sections = {i for i in ordered if numbers.kind(i) == "section"}
    chapters = {i for i in ordered if numbers.kind(i) == "chapter"}
    for id in ordered:
        text, examples = blocks[id]
        kind = numbers.kind(id)
        if kind == "section":
            rel.sections.append(Section(id, text))
            continue
        if id[0] not in sections:  # a page of one chapter: its section is implied
            sections.add(id[0])
            rel.sections.append(Section(id[0], ""))
        if kind == "chapter":
            rel.chapters.append(Chapter(id, text, id[0]))
            continue
        chapter = id.split(".", 1)[0]
        if chapter not in chapters:
            chapters.add(chapter)
            rel.chapters.append(Chapter(chapter, "", id[0]))
        rule = Rule(id, kind, text, examples)
        if kind == "rule" and is_heading_text(text):
            rule.title = text
        rel.rules.append(rule)


def _place_glossary(rel: Release, lines: list[str]) -> None:
    from crsearch.ingest.parse import add_definition_line, glossary_entry, set_aliases

    entry: GlossaryEntry | None = None
    for line in [*lines, ""]:
        if not line:
            entry = None
        elif entry is None:
            entry = glossary_entry(line)
            rel.glossary.append(entry)
        else:
            add_definition_line(entry, line)
    set_aliases(rel.glossary)


def _looks_like_term(line: str) -> bool:
    return len(line) <= 80 and not line.endswith((".", ":", ";")) and not re.match(r"^\d", line)
