"""Paste-ready quotes of rules: ``CR 702.19c (effective 2026-08-07): …``.

Plain text for a chat or a ruling, or Markdown with a link to the rule on a
site built by ``crsearch site build``.  Markdown quotes escape the text
(Markdown and HTML alike), so a release can put no link, image or markup of
its own into a post; the site's URL must be http(s).  Links follow the
site's layout:
``<chapter>.html#<id>`` for rules, ``<chapter>.html`` for chapters,
``index.html#<section>`` for sections and ``glossary.html#<anchor>`` for
glossary entries, under a base URL given by ``--site-url`` or the
``CRSEARCH_SITE_URL`` environment variable (relative links without one).
"""

from __future__ import annotations

import os
import re
from typing import Any

FORMATS = ("plain", "md")
SITE_URL_ENV = "CRSEARCH_SITE_URL"


def site_url(option: str | None = None) -> str:
    """The base URL of the rules site: the option, else the environment, else "".

    Only an http(s) URL with a host is accepted (``BadInput`` for anything
    else, naming where it came from); characters that could end a Markdown
    link are percent-encoded.
    """
    from urllib.parse import quote, urlsplit

    from crsearch.errors import BadInput, short

    base = option if option is not None else os.environ.get(SITE_URL_ENV, "")
    if not base:
        return ""
    try:
        parts = urlsplit(base)
        ok = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
    except ValueError:  # a malformed port or IPv6 address
        ok = False
    if not ok:
        where = "--site-url" if option is not None else SITE_URL_ENV
        raise BadInput(f"{where} must be an http:// or https:// URL with a host, "
                       f"not {short(base)!r}")
    return quote(base.rstrip("/"), safe=_URL_SAFE) + "/"


# What a URL keeps as it is; everything else (spaces, brackets, parentheses,
# quotes, backslashes, control characters) is percent-encoded.
_URL_SAFE = "!#$%&*+,-./:;=?@_~"
# The characters that start Markdown or HTML inside a line (links, images,
# tags, entities, code, emphasis, strike-through, table cells), escaped in
# quoted text.  "(", "!" and "#" need none: they mean something only after
# "]", before "[" or at the start of a line, which a quote never gives them.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&~|])")
# What Markdown sites turn into links by themselves: "https:", "www.".
_AUTOLINK = re.compile(r"(?i)\b(https?|ftp|mailto|file|www)([:.])")


def markdown_text(text: str) -> str:
    """``text`` as Markdown that shows exactly ``text``: no link, image, HTML,
    entity, code or emphasis of its own."""
    return _AUTOLINK.sub(r"\1\\\2", _MD_SPECIAL.sub(r"\\\1", text))


def link(id: str, base: str = "", glossary_anchor: str | None = None) -> str:
    """The URL of a rule, chapter, section or glossary entry on the site."""
    if id.startswith("glossary:"):
        return f"{base}glossary.html#{glossary_anchor or ''}"
    if "." in id:
        return f"{base}{id.split('.', 1)[0]}.html#{id}"
    if len(id) == 3:
        return f"{base}{id}.html"
    return f"{base}index.html#{id}"


def label(id: str, title: str | None = None) -> str:
    """How a citation names the item: "CR 702.19c", "CR glossary, “Trample”"."""
    if id.startswith("glossary:"):
        return f"CR glossary, “{title or id.split(':', 1)[1]}”"
    return f"CR {id}"


def quote(id: str, text: str, effective: str, fmt: str = "plain", *, base: str = "",
          title: str | None = None, glossary_anchor: str | None = None) -> str:
    """One paste-ready quote of an item's text, plain or Markdown."""
    if fmt not in FORMATS:
        from crsearch.errors import short

        raise ValueError(f"unknown citation format {short(str(fmt))!r}")
    body = " ".join(text.split())
    name = label(id, title)
    if fmt == "md":
        from urllib.parse import quote

        url = quote(link(id, base, glossary_anchor), safe=_URL_SAFE)
        return (f"> [{markdown_text(name)}]({url}) (effective {effective}): "
                f"{markdown_text(body)}")
    return f"{name} (effective {effective}): {body}"


def quote_item(item: Any, effective: str, fmt: str = "plain", base: str = "",
               anchors: dict[str, str] | None = None) -> str:
    """Quote a Rule, Chapter, Section or GlossaryEntry."""
    if getattr(item, "kind", "") == "glossary":
        return quote(item.id, item.text, effective, fmt, base=base, title=item.term,
                     glossary_anchor=(anchors or {}).get(item.id))
    text = getattr(item, "text", "") or getattr(item, "title", "")
    if getattr(item, "kind", "") in ("section", "chapter"):
        text = item.title
    return quote(item.id, text, effective, fmt, base=base)


def cite_hits(stored: Any, hits: list[Any], fmt: str, site_url_option: str | None = None) -> str:
    """Quotes of search results: each rule's whole text, each glossary entry's definition."""
    from crsearch.store.lookup import Library

    base = site_url(site_url_option)
    lib = Library(stored)
    release = None
    out = []
    for hit in hits:
        if hit.kind == "glossary":
            if release is None:
                release = stored.release()
            entry = release.get(hit.id)
            if entry is not None:
                out.append(quote_item(entry, stored.effective_date, fmt, base,
                                      glossary_anchors(release) if fmt == "md" else None))
            continue
        for item in lib.lookup([hit.id], children=False).items:
            out.append(quote_item(item, stored.effective_date, fmt, base))
    return "\n".join(out)


def glossary_anchors(release: Any) -> dict[str, str]:
    """The site's anchor of each glossary entry (made by ``urls.Urls``)."""
    from crsearch.urls import Urls

    return dict(Urls(release).glossary_anchor)


__all__ = ["FORMATS", "SITE_URL_ENV", "cite_hits", "glossary_anchors", "label", "link",
           "markdown_text", "quote", "quote_item", "site_url"]
