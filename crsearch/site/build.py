"""Render one release as a static website: every reference a link, and search.

The build gathers before it writes (like mkdocs): every reference of every
rule, example and glossary definition is resolved to a URL first, every page
is rendered second, and the links that could not be resolved are counted, so
``--strict`` can fail on them.  Then ``site_search`` writes the search data.

Layout: all pages sit in one folder, so every link is a plain relative
``702.html#702.19c`` that works from ``file://`` and under any sub-path:

- ``index.html``: the contents as printed, linked; ``7`` etc. anchor sections;
- ``<chapter>.html`` (``702.html``): every rule and subrule, anchored at its id;
- ``glossary.html``, ``keywords.html`` (701 and 702), ``about.html`` (the
  introduction, credits, where the text came from, the parser's notes);
- ``search.html`` + ``text.js`` + ``rank.js`` + ``site.js`` + ``search/``:
  the CLI's ranking in the browser (``rank.js``, with its words in
  ``text.js``; ``site.js`` is the page around it), over the data
  ``site_search`` exports at build time;
- ``702.19c.html``: one page per rule and subrule, the rule in context;
- ``api/`` (``site_api``), ``sw.js`` and ``manifest.webmanifest``
  (``site_offline``); with ``--all`` (:func:`build_all`) older releases under
  ``<date>/``, ``changes.html`` per release (``site_changes``) and
  ``releases.html``.

``url_for`` (on :class:`Urls`) is the one place a URL is made: templates,
the search term index and the tests all use it.  The same release always gives
a byte-identical site: nothing depends on the clock, the file order of the
disk or hash seeds; with ``SOURCE_DATE_EPOCH`` set, file times are set to it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crsearch.errors import BadInput, CRSearchError
from crsearch.rules import numbers
from crsearch.rules.glossary import KEYWORD_CHAPTERS
from crsearch.rules.model import GLOSSARY_PREFIX, GlossaryEntry, Release, Rule
from crsearch.rules.text import first_words
from crsearch.urls import Urls, slug, url_for  # noqa: F401 (url_for: the site's API)
from crsearch.version import __version__

MARKER = "crsearch-site.json"
#: Files copied into every release's folder: site name -> path in templates/.
STATIC = {"site.css": "site.css", "text.js": "js/text.js", "rank.js": "js/rank.js",
          "site.js": "site.js", "explain.js": "explain.js", "app.js": "app.js"}
#: The static files older releases of an ``--all`` site take from the root.
SHARED = tuple(STATIC)
#: Where an ``--all`` site keeps the data files of its releases, each named
#: by its content and written once however many releases share it.
POOL = "search/"
SEARCH_PAGE = "search.html"

Segment = tuple[str, str, str]  # (kind, text, href-or-id): kind in text|link|missing


class SiteError(CRSearchError):
    """The site could not be built (bad output folder)."""

    exit_code = 2


# -- gathering: references to segments ---------------------------------------

_QUOTED = re.compile(r"[“\"][^”\"]*[”\"]")
_TOKEN = re.compile(r"(?P<dash>[\-\u2010-\u2015\u2212])?(?P<tok>[0-9]+(?:\.[0-9]+)?[a-z]*|(?<![\w’'])[a-z]{1,2}(?![\w’']))")


@dataclass
class LinkStats:
    """What gathering found: links made, and those that point nowhere."""

    links: int = 0
    dangling: list[tuple[str, str]] = field(default_factory=list)  # (from id, missing id)


def _id_tokens(printed: str) -> list[tuple[int, int, bool]]:
    """Positions of the ids and range ends in a printed reference."""
    blanked = _QUOTED.sub(lambda m: " " * len(m.group()), printed)
    out = []
    for m in _TOKEN.finditer(blanked):
        tok = m.group("tok")
        if tok.isalpha() and tok in ("and", "or", "to", "see", "cr"):
            continue
        out.append((m.start("tok"), m.end("tok"), m.group("dash") is not None))
    return out


def link_segments(text: str, urls: Urls, stats: LinkStats, source: str) -> list[Segment]:
    """Split ``text`` into plain text and links, one link per id printed.

    "rules 510.1c–d" becomes a link "rules 510.1c" to 510.1c, "–", and a link
    "d" to 510.1d: both ends of a range are links.
    """
    out: list[Segment] = []
    pos = 0
    for start, end, printed, spans in numbers.find_references(text):
        if start > pos:
            out.append(("text", text[pos:start], ""))
        ids: list[str] = []
        for span in spans:
            ids.append(span.start)
            if span.end != span.start:
                ids.append(span.end)
        tokens = _id_tokens(printed)
        if len(tokens) != len(ids):
            # Could not tell which number is which: link the whole reference
            # to its first id rather than guess.
            tokens, ids = [(0, len(printed), False)], ids[:1]
        cur = 0
        for n, ((ts, te, _dash), id) in enumerate(zip(tokens, ids)):
            ls = 0 if n == 0 else ts  # the first link takes "rule(s) " with it
            if ls > cur:
                out.append(("text", printed[cur:ls], ""))
            piece = printed[ls:te]
            if urls.exists(id):
                out.append(("link", piece, urls.url_for(id)))
                stats.links += 1
            else:
                out.append(("missing", piece, id))
                stats.dangling.append((source, id))
            cur = te
        if cur < len(printed):
            out.append(("text", printed[cur:], ""))
        pos = end
    if pos < len(text):
        out.append(("text", text[pos:], ""))
    return _merge(out)


def _merge(segs: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for s in segs:
        if s[0] == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + s[1], "")
        elif s[1]:
            merged.append(s)
    return merged


_SEE_TERM = re.compile(r"(?:^|(?<=[.)”] ))See (?P<term>[A-Z][^.“”]{1,60}?)\.$")


def glossary_see(segs: list[Segment], terms: dict[str, str]) -> list[Segment]:
    """Link a closing "See Exile." in a glossary definition to that entry."""
    if not segs or segs[-1][0] != "text":
        return segs
    last = segs[-1][1]
    m = _SEE_TERM.search(last)
    if not m or m.group("term").lower() not in terms:
        return segs
    href = terms[m.group("term").lower()]
    s, e = m.span("term")
    return segs[:-1] + [("text", last[:s], ""), ("link", last[s:e], href),
                        ("text", last[e:], "")]


# -- the gathered site --------------------------------------------------------

@dataclass
class RuleView:
    rule: Rule
    number: str                    # as printed: "702.19." or "702.19c"
    paragraphs: list[list[Segment]]
    examples: list[list[Segment]]
    cited_by: list[tuple[str, str]]  # (label, href)


@dataclass
class TermView:
    entry: GlossaryEntry
    anchor: str
    paragraphs: list[list[Segment]]
    examples: list[list[Segment]]
    cited_by: list[tuple[str, str]]


@dataclass
class Page:
    """One page to render: its file name, template and context."""

    name: str
    template: str
    context: dict[str, Any]


@dataclass
class BuildResult:
    """What a build made."""

    out: Path
    pages: int
    links: int
    dangling: list[tuple[str, str]]
    unplaced: int
    search: bool
    releases: int = 1
    files: int = 0
    bytes: int = 0
    #: The card files written (``site build --cards``), or None.
    cards: Any = None


@dataclass
class Edition:
    """Where one release's pages sit in a site of one or many releases.

    A single-release site is one edition at the root.  ``site build --all``
    puts the latest release at the root and each older one under its date;
    every edition then knows the others (release switcher), what changed in
    it (``changes``: rule id -> anchor on its ``changes.html``) and, at the
    root, each rule's history.
    """

    #: From this release's folder to the site root: "" or "../".
    root: str = ""
    #: Every release of the site, newest first.
    dates: list[str] = field(default_factory=list)
    #: Whether each rule and subrule gets a page of its own.
    rule_pages: bool = True
    #: The "what changed" page data for this release (site_changes), if any.
    changes: Any = None
    #: Rule id -> its history entries (oldest first), for the rule pages.
    history: dict[str, list[Any]] = field(default_factory=dict)
    #: Whether the pages load card lookup (``cards.js``, site_cards).
    cards: bool = False

    def release_url(self, date: str, page: str = "index.html") -> str:
        """The URL of ``page`` in the release ``date``, from this release's pages."""
        if not self.dates or date == self.dates[0]:
            return self.root + page
        return f"{self.root}{date}/{page}"


def _label(id: str, release: Release) -> str:
    item = release.get(id)
    if isinstance(item, GlossaryEntry):
        return f"{item.term} (glossary)"
    return id


def gather(release: Release, edition: Edition | None = None) -> tuple[list[Page], LinkStats]:
    """Resolve every link of ``release`` and lay out its pages (no I/O)."""
    edition = edition or Edition(dates=[release.effective_date])
    urls = Urls(release, rule_pages=edition.rule_pages)
    stats = LinkStats()
    date = release.effective_date
    term_urls: dict[str, str] = {}
    for g in release.glossary:
        for name in [g.term, *g.aliases]:
            term_urls.setdefault(name.lower(), urls.url_for(g.id))

    def cited(item: Any) -> list[tuple[str, str]]:
        ids = sorted(set(item.cited_by), key=lambda i: (
            (1, (0, 0, 0, 0), i) if i.startswith("glossary:") else (0, numbers.sort_key(i), "")))
        return [(_label(i, release), urls.url_for(i)) for i in ids if urls.exists(i)]

    def segs(text: str, source: str) -> list[list[Segment]]:
        return [link_segments(p, urls, stats, source) for p in text.split("\n")]

    chapters = release.chapters
    rules_by_chapter: dict[str, list[RuleView]] = {c.id: [] for c in chapters}
    rule_views: list[RuleView] = []
    for r in release.rules:
        view = RuleView(r, r.label, segs(r.text, r.id),
                        [link_segments(e, urls, stats, r.id) for e in r.examples], cited(r))
        rules_by_chapter.setdefault(r.chapter, []).append(view)
        rule_views.append(view)

    terms: list[TermView] = []
    seen: set[str] = set()
    for g in release.glossary:
        paragraphs = [glossary_see(p, term_urls) for p in segs(g.text, g.id)]
        anchor = urls.anchor(g.id) if g.id not in seen else f"{urls.anchor(g.id)}-dup"
        seen.add(g.id)
        terms.append(TermView(g, anchor, paragraphs,
                              [link_segments(e, urls, stats, g.id) for e in g.examples],
                              cited(g)))

    sections = {s.id: s for s in release.sections}
    changed = edition.changes.anchors if edition.changes is not None else {}
    common = {"release": release, "date": date, "version": __version__,
              "built": _built_date(), "root": edition.root, "edition": edition,
              "changed": changed, "has_changes": edition.changes is not None}
    pages: list[Page] = []

    # The contents as printed, each line linked to what it names.
    toc: list[dict[str, Any]] = []
    anchored: set[str] = set()
    for line in release.contents:
        m = re.match(r"^(\d{1,3})\.\s+(.*)$", line)
        entry: dict[str, Any] = {"text": line, "href": None, "id": None, "kind": "other"}
        if m and urls.exists(m.group(1)):
            id = m.group(1)
            entry.update(href=urls.url_for(id), kind=numbers.kind(id))
            if entry["kind"] == "section" and id not in anchored:
                entry["id"] = id
                anchored.add(id)
        elif line.strip().lower() == "glossary":
            entry.update(href=urls.page("glossary"), kind="section")
        elif line.strip().lower() == "credits":
            entry.update(href=urls.page("about") + "#credits", kind="section")
        toc.append(entry)
    # Sections the printed contents leaves out still need their anchor.
    extra_sections = [s for s in release.sections if s.id not in anchored]
    pages.append(Page("index.html", "index.html", {
        **common, "toc": toc, "extra_sections": extra_sections,
        "chapters_of": {s.id: [c for c in chapters if c.section == s.id] for s in release.sections},
        "page_title": release.title or "Comprehensive Rules"}))

    for n, c in enumerate(chapters):
        prev = chapters[n - 1] if n > 0 else None
        nxt = chapters[n + 1] if n + 1 < len(chapters) else None
        pages.append(Page(urls.chapter_page(c.id), "chapter.html", {
            **common, "chapter": c, "section": sections.get(c.section),
            "rules": rules_by_chapter.get(c.id, []), "prev": prev, "next": nxt,
            "cited_by": cited(c),
            "page_title": f"{c.id}. {c.title}"}))

    pages.append(Page("glossary.html", "glossary.html", {
        **common, "terms": terms, "page_title": "Glossary",
        **glossary_letters([t.entry.term for t in terms])}))

    keywords = []
    for chapter in KEYWORD_CHAPTERS:
        found = next((x for x in chapters if x.id == chapter), None)
        if found is None:
            continue
        c = found
        rows = [(r.rule.id, r.rule.title or first_words(r.rule.text, 8), urls.url_for(r.rule.id))
                for r in rules_by_chapter.get(chapter, []) if r.rule.kind == "rule"]
        keywords.append((c, sorted(rows, key=lambda row: row[1].lower())))
    pages.append(Page("keywords.html", "keywords.html", {
        **common, "groups": keywords, "page_title": "Keyword actions and abilities"}))

    pages.append(Page("about.html", "about.html", {
        **common, "page_title": "About this release"}))
    pages.append(Page(SEARCH_PAGE, "search.html", {**common, "page_title": "Search"}))
    pages.append(Page("explain.html", "explain.html", {**common, "page_title": "Explain a card"}))
    # Not "404.html": that is the page of chapter 404.
    pages.append(Page("not-found.html", "not_found.html", {**common, "page_title": "Not found"}))

    if edition.rule_pages:
        pages += _rule_pages(release, urls, rule_views, sections, common)
    if edition.changes is not None:
        from crsearch.site import changes as site_changes

        cs = edition.changes

        def new_url(id: str) -> str | None:
            return urls.permalink(id) if urls.exists(id) else None

        def old_url(id: str) -> str:
            if id.startswith(GLOSSARY_PREFIX):
                return edition.release_url(cs.old_date, "glossary.html#g-" + slug(id[len(GLOSSARY_PREFIX):]))
            if numbers.kind(id) == "section":
                return edition.release_url(cs.old_date, f"index.html#{id}")
            chapter = id.split(".", 1)[0]
            return edition.release_url(cs.old_date, f"{chapter}.html" + (f"#{id}" if "." in id else ""))

        def quiet(c: Any) -> tuple[str, str | None]:
            if c.kind == "glossary":
                term = site_changes.term_of(c)
                return term, new_url(GLOSSARY_PREFIX + term)
            return c.id, new_url(c.id)

        pages.append(Page("changes.html", "changes.html", {
            **common, "cs": cs, "items": site_changes.page_items(cs, new_url, old_url),
            "quiet_typography": [quiet(c) for c in cs.quiet("typography")],
            "quiet_renumbering": [quiet(c) for c in cs.quiet("renumbering")],
            "old_release_url": edition.release_url(cs.old_date),
            "page_title": f"What changed on {date}"}))
    if len(edition.dates) > 1 and not edition.root:
        pages.append(Page("releases.html", "releases.html", {
            **common, "page_title": "Every release"}))
    subrules = [r.id for r in release.rules if r.kind == "subrule"]
    candidates = ["702.19c"] if "702.19c" in urls.rules else subrules or [r.id for r in release.rules]
    example = candidates[0] if candidates else None
    pages.append(Page("api.html", "api.html", {**common, "example": example,
                                               "page_title": "JSON API"}))

    return pages, stats


def glossary_letters(terms: list[str]) -> dict[str, Any]:
    """Where each letter of the glossary starts: ``letters`` (sorted) and
    ``letter_at`` (term index -> letter), one anchor per letter.

    The printed glossary files a few terms out of order ("Job Select" among
    the H's, "The Ring" among the R's); such a run does not start a letter:
    a letter starts at its first run that sits in alphabetical order
    between its neighbours.
    """
    runs: list[tuple[str, int]] = []  # (letter, first index)
    for i, term in enumerate(terms):
        first = term[:1].upper()
        if not first.isalpha():
            continue
        if not runs or runs[-1][0] != first:
            runs.append((first, i))
    at: dict[int, str] = {}
    placed: set[str] = set()
    for n, (letter, i) in enumerate(runs):
        before = runs[n - 1][0] if n else ""
        after = runs[n + 1][0] if n + 1 < len(runs) else "\uffff"
        if letter not in placed and before <= letter <= after:
            at[i] = letter
            placed.add(letter)
    for letter, i in runs:  # a letter with no run in order keeps its first
        if letter not in placed:
            at[i] = letter
            placed.add(letter)
    return {"letters": sorted(placed), "letter_at": at}


def title_of(id: str, release: Release) -> str:
    """A few words naming an id: a heading, a rule's title or first words, a term."""
    item = release.get(id)
    if item is None:
        return ""
    if isinstance(item, GlossaryEntry):
        return item.term
    if isinstance(item, Rule):
        return item.title or first_words(item.text, 10)
    return str(item.title)


def _rule_pages(release: Release, urls: Urls, views: list[RuleView],
                sections: dict[str, Any], common: dict[str, Any]) -> list[Page]:
    """One page per rule and subrule: the rule in context (see ``rule.html``)."""
    from crsearch.rules.refs import cited_ids

    chapters = {c.id: c for c in release.chapters}
    children: dict[str, list[RuleView]] = {}
    for v in views:
        if v.rule.kind == "subrule":
            up = numbers.parent(v.rule.id)
            if up:
                children.setdefault(up, []).append(v)
    by_id = {v.rule.id: v for v in views}
    edition: Edition = common["edition"]
    history = edition.history

    def entry(id: str) -> tuple[str, str, str]:
        """(label, title, href) for a list of related rules."""
        item = release.get(id)
        if isinstance(item, GlossaryEntry):
            return ("Glossary", item.term, urls.url_for(id))
        if isinstance(item, Rule):
            return (item.label, title_of(id, release), urls.permalink(id))
        return (f"{id}.", title_of(id, release), urls.url_for(id))

    def order(i: str) -> tuple:
        return (1, (0, 0, 0, 0), i) if i.startswith("glossary:") else (0, numbers.sort_key(i), "")

    pages = []
    for n, v in enumerate(views):
        r = v.rule
        chapter = chapters.get(r.chapter)
        section = sections.get(r.section)
        trail: list[tuple[str, str | None]] = [("Contents", urls.page("index"))]
        if section is not None:
            trail.append((f"{section.id}. {section.title}", urls.url_for(section.id)))
        if chapter is not None:
            trail.append((f"{chapter.id}. {chapter.title}", urls.url_for(chapter.id)))
        parent = numbers.parent(r.id) if r.kind == "subrule" else None
        parent_view = by_id.get(parent) if parent else None
        if parent_view is not None:
            above = parent_view.rule
            trail.append((f"{parent_view.number} {above.title or first_words(above.text, 5)}",
                          urls.rule_page(above.id)))
        trail.append((v.number, None))
        shown = [v, *children.get(r.id, [])]
        cites = [entry(i) for i in cited_ids(r) if urls.exists(i) and i != r.id]
        cited_by = [entry(i) for i in sorted(set(r.cited_by), key=order) if urls.exists(i)]
        prev = views[n - 1].rule if n > 0 else None
        nxt = views[n + 1].rule if n + 1 < len(views) else None
        pages.append(Page(urls.rule_page(r.id), "rule.html", {
            **common, "view": v, "shown": shown, "trail": trail, "chapter": chapter,
            "parent": parent_view, "cites": cites, "cited_by_full": cited_by,
            "history": history.get(r.id), "prev_rule": prev, "next_rule": nxt,
            "parent_title": title_of(parent_view.rule.id, release) if parent_view else "",
            "page_title": f"{v.number} {title_of(r.id, release)}".strip()}))
    return pages


def _built_date() -> str | None:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return None
    import datetime as dt

    try:
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).strftime("%Y-%m-%d")
    except (ValueError, OverflowError, OSError):
        raise BadInput(f"SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds") from None


# -- rendering ----------------------------------------------------------------

def environment(urls: Urls):
    """The jinja2 environment, with ``url_for`` as a global."""
    import jinja2

    from crsearch.paths import templates_dir

    # A build renders each template thousands of times and a site of every
    # release makes an environment per release: templates are not looked
    # at again once loaded, and their compiled code is kept for the process.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
        auto_reload=False, bytecode_cache=_compiled())
    env.globals["url_for"] = urls.url_for
    env.globals["page_url"] = urls.page
    env.globals["anchor"] = urls.anchor
    env.globals["permalink"] = urls.permalink
    env.globals["alias"] = anchor_alias
    env.globals["inline_script"] = inline_script
    from crsearch.site.changes import elide

    env.filters["elide"] = elide
    return env


@functools.cache
def _compiled() -> Any:
    """The templates' compiled code, in memory, keyed by name and source
    (jinja2 checks the source's checksum), for every environment."""
    import jinja2

    class Memory(jinja2.BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, bytes] = {}

        def load_bytecode(self, bucket: Any) -> None:
            if bucket.key in self.code:
                bucket.bytecode_from_string(self.code[bucket.key])

        def dump_bytecode(self, bucket: Any) -> None:
            self.code[bucket.key] = bucket.bytecode_to_string()

    return Memory()


def inline_script(name: str) -> Any:
    """A script of ``templates/`` to write inside a page's ``<script>``: the
    search page runs ``js/text.js`` before anything has loaded."""
    from markupsafe import Markup

    from crsearch.paths import templates_dir
    from crsearch.site.slim import slim

    code = slim((templates_dir() / name).read_text(encoding="utf-8"))
    if "</" in code:
        raise SiteError(f"{name} holds '</', which would end the page's <script>")
    return Markup(code)


def anchor_alias(id: str) -> str:
    """The anchor the community links to for a rule: "R70219c" for 702.19c.

    Yawgatog's hyperlinked rules (and the sites and posts that copied its
    links) anchor each rule at "R" and its number without dots.
    """
    return "R" + id.replace(".", "")


def render(release: Release, edition: Edition | None = None,
           search_meta: str = "", search_keys: str = "") -> tuple[dict[str, bytes], LinkStats]:
    """Every file of one release's folder (but the search data, whose
    metadata file ``search_meta`` and word-file names ``search_keys`` it
    names to the pages), by name."""
    from crsearch.desk.explain import site_files

    edition = edition or Edition(dates=[release.effective_date])
    pages, stats = gather(release, edition)
    env = environment(Urls(release, rule_pages=edition.rule_pages))
    explain_data = site_files(release)
    explain_src = "explain-terms.js"
    if edition.root:
        # An older release of an --all site: the explain page's data is
        # often the same as a neighbour's, so it joins the shared folder.
        data = explain_data.pop("explain-terms.js")
        name = f"{POOL}explain-terms.{hashlib.sha256(data).hexdigest()[:10]}.js"
        explain_data[name] = data
        explain_src = edition.root + name
    files: dict[str, bytes] = {}
    for page in pages:
        html = env.get_template(page.template).render(
            page=page.name, page_kind=page.template[:-5], search_meta=search_meta,
            search_keys=search_keys, explain_src=explain_src, **page.context)
        files[page.name] = html.encode("utf-8")
    from crsearch.paths import templates_dir
    from crsearch.site.slim import slim

    for name, source in STATIC.items():
        raw = (templates_dir() / source).read_bytes()
        files[name] = slim(raw.decode("utf-8")).encode("utf-8") if name.endswith(".js") else raw
    files.update(explain_data)
    files[MARKER] = (json.dumps({"generator": "crsearch", "version": __version__,
                                 "effective_date": release.effective_date},
                                sort_keys=True, indent=1) + "\n").encode("utf-8")
    return dict(sorted(files.items())), stats


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BadInput(f"{out} exists and is not a folder")


def _problems(stats: LinkStats, release: Release) -> list[str]:
    problems = []
    if stats.dangling:
        problems.append(f"{len(stats.dangling)} references point at rules this release "
                        "does not have: " + ", ".join(f"{a}→{b}" for a, b in stats.dangling[:5])
                        + (" …" if len(stats.dangling) > 5 else ""))
    if release.unplaced:
        problems.append(f"{len(release.unplaced)} source lines could not be placed")
    return problems


def build(release: Release, out: Path | str, *, search: bool = True,
          strict: bool = False, warn: Callable[[str], None] | None = None,
          cards: Any = None) -> BuildResult:
    """Build the site of ``release`` into ``out``, replacing a previous build.

    The site is written to a temporary folder beside ``out`` and put in place
    at the end, so a failed build leaves the old site as it was.  Only the
    files an earlier build wrote are replaced or removed; anything else in
    ``out`` stays, and a file that would be overwritten but is not the
    site's stops the build (:mod:`crsearch.site.publish`).  ``strict``
    turns dangling references and unplaced lines into an error.  Besides the
    pages, the site holds a page per rule, the JSON API (``api/``) and what
    it needs to work offline (``sw.js``, ``manifest.webmanifest``); with
    ``cards`` (a store's ``CardData``), card lookup (:mod:`crsearch.site.cards`).
    """
    return build_all([release], out, search=search, strict=strict, warn=warn, cards=cards)


def build_all(releases: list[Release], out: Path | str, *, search: bool = True,
              strict: bool = False, warn: Callable[[str], None] | None = None,
              progress: Callable[[str], None] | None = None, cards: Any = None) -> BuildResult:
    """Build one site of several releases: the latest at the root of ``out``,
    each older one under ``out/<date>/``, with "what changed" pages between
    neighbours and each rule's history on its page.

    Older releases are lighter: their chapters hold every rule (anchored as
    at the root), but rules have no pages of their own and no JSON per rule.
    They use the root's style and scripts (:data:`SHARED`), and their search
    and explain data files, named by their content, sit in the root's
    ``search/`` (:data:`POOL`): a file that several releases share (runs of
    unchanged rules, most of all) is written once.  So is the text of their
    chapter and glossary pages, in runs of rules (:mod:`crsearch.site.bodies`).
    Card lookup (``cards``) is the root release's.
    """
    from crsearch.site import api as site_api
    from crsearch.site import bodies as site_bodies
    from crsearch.site import offline as site_offline
    from crsearch.site import publish

    out = Path(out)
    _check_out(out)
    out = out.resolve()  # "." has no name to swap; its real path has
    if not releases:
        raise BadInput("no releases to build")
    ordered = sorted(releases, key=lambda r: r.effective_date, reverse=True)
    dates = [r.effective_date for r in ordered]
    if len(set(dates)) != len(dates):
        raise BadInput("two releases share one effective date")
    from crsearch.site import changes as site_changes

    changes: dict[str, Any] = {}
    history: dict[str, list[Any]] = {}
    if len(ordered) > 1:

        if progress:
            progress(f"comparing {len(ordered)} releases")
        chain = site_changes.compare_all(list(reversed(ordered)))
        changes = {c.new_date: c for c in chain}
        history = site_changes.histories(chain, ordered[0])
    total_links = 0
    dangling: list[tuple[str, str]] = []
    pages = 0
    bundles: dict[str, bytes] = {}
    latest: list[str] = []
    pooled: dict[str, bytes] = {}  # a data file in search/ -> its SHA-256
    written: set[str] = set()
    from crsearch.site import cards as site_cards

    card_files = site_cards.files(cards, ordered[0]) if cards is not None else None
    kept = None
    kept_all: set[str] | None = None
    if search and len(ordered) > 1:
        from crsearch.search.build import terms_of
        from crsearch.site import searchdata as site_search

        # The known words near each release's words, found once for all.
        kept = site_search.KeptWords(terms_of(r)["vocab"] for r in ordered)
        kept_all = kept.every()
    out.parent.mkdir(parents=True, exist_ok=True)
    publish.sweep(out)
    tmp = publish.stage(out)

    def write(files: dict[str, bytes], prefix: str = "") -> None:
        for name, data in sorted(files.items()):
            path = tmp / (prefix + name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)

    try:
        # One release at a time, written as rendered: 114 releases do not fit
        # in memory as bytes.
        for k, release in enumerate(ordered):
            if progress and k:
                progress(f"rendering {release.effective_date}")
            edition = Edition(root="" if k == 0 else "../", dates=dates, rule_pages=k == 0,
                              changes=changes.get(release.effective_date),
                              history=history if k == 0 else {},
                              cards=card_files is not None and k == 0)
            search_files: dict[str, bytes] = {}
            if search:
                from crsearch.site import searchdata as site_search

                search_files = site_search.build(
                    release, Urls(release, rule_pages=edition.rule_pages).url_for, kept=kept,
                    then=site_changes.numbers_then(history, release) if k else None,
                    kept_all=kept_all if k else None)
            release_files, stats = render(
                release, edition,
                edition.root + site_search.meta_name(search_files) if search else "",
                edition.root + site_search.keys_name(search_files) if search else "")
            if k == 0:
                release_files.update(search_files)
                bundles = site_offline.bundles(release_files)
                write(bundles)
                latest = list(release_files)
                pooled.update((n, hashlib.sha256(d).digest()) for n, d in release_files.items()
                              if n.startswith(POOL))
                written.update(pooled)
            else:
                # Older releases share the root's style and scripts, and put
                # their data files (named by their content) in the root's
                # search/, where a file of several releases is written once.
                for name in SHARED:
                    del release_files[name]
                release_files.update(search_files)
                # Their chapters' and glossary's text, in runs shared by the
                # releases that read the same (crsearch.site.bodies).
                urls = Urls(release, rule_pages=False)
                for name in [urls.chapter_page(c.id) for c in release.chapters] + [urls.page("glossary")]:
                    if name in release_files:
                        release_files[name], runs = site_bodies.share(
                            release_files[name], edition.root,
                            f"{edition.root}{site_api.API}/{release.effective_date}/release.json")
                        release_files.update(runs)
                shared = {n: release_files.pop(n) for n in list(release_files) if n.startswith(POOL)}
                for name, data in list(shared.items()):
                    digest = hashlib.sha256(data).digest()
                    if pooled.setdefault(name, digest) != digest:
                        raise SiteError(f"two data files of different content are both named {name}")
                    if name in written:
                        del shared[name]
                written.update(shared)
                write(shared)
            if k == 0:
                total_links, dangling = stats.links, stats.dangling
                problems = _problems(stats, release)
                if strict and problems:
                    raise SiteError("strict: " + "; ".join(problems))
                for p in problems:
                    if warn:
                        warn(p)
            pages += sum(1 for n in release_files if n.endswith(".html"))
            write(release_files, "" if k == 0 else release.effective_date + "/")
            write(site_api.files(release, per_rule=k == 0))
            os.utime(tmp)  # still being written: not a dead build's (publish.sweep)
        write(site_api.index_files(ordered))
        shared = site_offline.static_files(ordered[0])
        if len(ordered) > 1:
            shared["releases.js"] = site_offline.releases_script(dates)
        write(shared)
        write(card_files.files if card_files is not None else {})
        # The card script joins the shell; its letter files load on demand.
        card_shell = [n for n in (card_files.files if card_files is not None else {})
                      if "/" not in n]
        (tmp / site_offline.SW).write_bytes(
            site_offline.service_worker(
                tmp, dates[0], latest + list(shared) + card_shell, list(bundles)))
        files, size = publish.record(tmp)
        _set_times(tmp)
        os.chmod(tmp, 0o755)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    publish.publish(tmp, out, warn)
    return BuildResult(out, pages, total_links, dangling, len(ordered[0].unplaced), search,
                       releases=len(ordered), files=files, bytes=size, cards=card_files)


def _set_times(folder: Path) -> None:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return
    t = int(epoch)
    # Not the staging folder itself: its time tells that its build is alive.
    for p in sorted(folder.rglob("*"), reverse=True):
        os.utime(p, (t, t))


# -- serving ------------------------------------------------------------------

def make_server(folder: Path | str, port: int = 8000, host: str = "127.0.0.1"):
    """An HTTP server for a built site, bound to ``host`` (loopback) only.

    Call ``serve_forever()`` on the result; ``port=0`` picks a free port
    (``server.server_address[1]``).
    """
    import functools
    import http.server

    root = Path(folder)
    if not (root / "index.html").is_file():
        raise BadInput(f"{folder} holds no built site (no index.html); run `crsearch site build` first")

    from crsearch.site.serve import CachingHandler, inside, open_regular

    class Handler(CachingHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript",
                          ".json": "application/json"}

        def log_message(self, format: str, *args: Any) -> None:  # quiet by default
            pass

        def send_error(self, code: int, message: str | None = None,
                       explain: str | None = None) -> None:
            page = None
            if code == 404:
                real = inside(os.path.realpath(root), str(root / "not-found.html"))
                page = open_regular(real) if real else None
            if page is not None:
                with page[0] as f:
                    body = f.read()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return
            super().send_error(code, message, explain)

    handler = functools.partial(Handler, directory=str(folder))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as e:
        raise BadInput(f"cannot serve on {host}:{port}: {e.strerror or e}") from None
