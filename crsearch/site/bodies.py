"""Older releases' chapter and glossary text, shared between releases.

In a site of every release (``site build --all``) the older releases'
chapter and glossary pages were most of the site, though most of their
rules read the same from one release to the next.  Each such page keeps
its own header, navigation and footer, but the text inside its ``<main>``
is cut into runs of rules, and each run is a script in the root's
``search/`` named by its content (``b.<hash>.js``) that writes its HTML
where it stands (``document.write``): a run that did not change is one
file for every release that has it.

Written while the page is read, the text is part of the page before its
other scripts run and before the browser looks for the URL's ``#anchor``,
from ``file://`` as over HTTP; links are relative and every older release
sits one folder down, so a run's links work in each of them.  A run ends
where its last rule's id says, not at a count, so a rule added early in a
chapter changes the run that holds it, not the runs after it.  The line
numbers of the source (``data-line``), which shift with every earlier
change and which nothing reads, are left out.  The latest release (the
root) keeps whole static pages.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Callable

#: Where the runs sit inside the site (the shared data folder).
PREFIX = "search/b."
#: Runs hold about this many bytes of HTML (half to twice).
RUN_BYTES = 4_000
MAIN_OPEN = '<main id="main" tabindex="-1">'
MAIN_CLOSE = "</main>"
_LINE = re.compile(r' data-line="\d+"')
# Before each rule and each glossary entry (their ids end runs).
_ITEM = re.compile(r'(?=<article |<div class="term)')
_ID = re.compile(r'\bid="([^"]*)"')
_RUN = re.compile(r'<script src="([^"]*search/b\.[0-9a-f]{10}\.js)"></script>\n')


def _ends_run(piece: str, size: int) -> bool:
    if size >= 2 * RUN_BYTES:
        return True
    m = _ID.search(piece)
    key = m.group(1) if m else ""
    return size >= RUN_BYTES // 2 and zlib.crc32(key.encode()) % 4 == 0


def _script(html: str) -> bytes:
    # "</" could end a <script>; escaped, the string is the same.
    body = json.dumps(html, ensure_ascii=False).replace("</", "<\\/")
    return f"document.write({body});\n".encode()


def runs(html: str) -> list[str]:
    """The runs of rules the text of a page's ``<main>`` is cut into."""
    out: list[str] = []
    run = ""
    for piece in _ITEM.split(_LINE.sub("", html)):
        run += piece
        if run and _ends_run(piece, len(run)):
            out.append(run)
            run = ""
    if run:
        out.append(run)
    return out


def share(page: bytes, root: str, fallback: str) -> tuple[bytes, dict[str, bytes]]:
    """``page`` with the text of its ``<main>`` replaced by the scripts of
    its runs, and those scripts by path from the site root.  ``root``: from
    the page's folder to the site root; ``fallback``: what to link to when
    scripts do not run (the release's JSON)."""
    text = page.decode("utf-8")
    start = text.index(MAIN_OPEN) + len(MAIN_OPEN)
    end = text.rindex(MAIN_CLOSE)
    files: dict[str, bytes] = {}
    tags = []
    for run in runs(text[start:end]):
        name = f"{PREFIX}{hashlib.sha256(run.encode()).hexdigest()[:10]}.js"
        files[name] = _script(run)
        tags.append(f'<script src="{root}{name}"></script>\n')
    note = ('<noscript><p>This page is written by JavaScript. The same rules are in '
            f'<a href="{fallback}">this release\'s JSON</a>.</p></noscript>\n')
    html = text[:start] + "\n" + note + "".join(tags) + text[end:]
    return html.encode("utf-8"), files


def inline(page: bytes, read: Callable[[str], bytes]) -> bytes:
    """A page as the browser sees it once its runs are written: each run's
    script replaced by its HTML (``read``: a file by its URL from the
    page).  For tests and tools that read pages without a browser."""

    def text_of(m: re.Match[str]) -> str:
        script = read(m.group(1)).decode("utf-8")
        body = script[len("document.write("):-len(");\n")]
        return str(json.loads(body))

    return _RUN.sub(text_of, page.decode("utf-8")).encode("utf-8")


__all__ = ["PREFIX", "RUN_BYTES", "inline", "runs", "share"]
