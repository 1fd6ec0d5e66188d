"""Every URL of the static site, made in one place (``Urls.url_for``).

A leaf module: the site's pages, its search data, and the judge's desk
(``cite``, ``explain``) all link into the same layout, so none of them has
to import the site builder.  All pages sit in one folder, so every link is a
plain relative ``702.html#702.19c`` that works from ``file://`` and under
any sub-path.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crsearch.rules.model import Release


def slug(term: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")
    return s or "term"


class Urls:
    """Every URL of the site, made in one place.

    All pages share one folder, so a URL is the same from every page.
    """

    def __init__(self, release: Release, rule_pages: bool = False):
        #: Whether every rule and subrule has a page of its own ("702.19c.html").
        self.rule_pages = rule_pages
        self.sections = {s.id for s in release.sections}
        self.chapters = {c.id for c in release.chapters}
        self.rules = {r.id for r in release.rules}
        self.glossary_anchor: dict[str, str] = {}
        used: set[str] = set()
        for g in release.glossary:
            if g.id in self.glossary_anchor:
                continue
            base = "g-" + slug(g.term)
            anchor, n = base, 2
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            self.glossary_anchor[g.id] = anchor

    def page(self, name: str) -> str:
        """The URL of a page that is not about one id: "index", "glossary", ..."""
        return f"{name}.html"

    def chapter_page(self, chapter: str) -> str:
        return f"{chapter}.html"

    def exists(self, id: str) -> bool:
        return (id in self.rules or id in self.chapters or id in self.sections
                or id in self.glossary_anchor)

    def anchor(self, id: str) -> str:
        """The HTML id an item is anchored at (its own id for rules)."""
        if id in self.glossary_anchor:
            return self.glossary_anchor[id]
        return id

    def url_for(self, id: str) -> str:
        """The relative URL of a section, chapter, rule or glossary id."""
        if id in self.glossary_anchor:
            return f"glossary.html#{self.glossary_anchor[id]}"
        if id in self.sections:
            return f"index.html#{id}"
        if id in self.chapters:
            return self.chapter_page(id)
        if id in self.rules:
            return f"{self.chapter_page(id.split('.', 1)[0])}#{id}"
        raise KeyError(id)


    def rule_page(self, id: str) -> str:
        """The page of one rule or subrule: "702.19c.html", beside the chapters.

        Chapter pages are "702.html", so a dotted name never collides.
        """
        return f"{id}.html"

    def permalink(self, id: str) -> str:
        """A rule's own page when the site has rule pages, else ``url_for``."""
        if self.rule_pages and id in self.rules:
            return self.rule_page(id)
        return self.url_for(id)


def url_for(id: str, release: Release) -> str:
    """The relative URL of ``id`` in the site built from ``release``."""
    return Urls(release).url_for(id)
