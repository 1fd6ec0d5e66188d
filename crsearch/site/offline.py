"""What makes the site work offline and installable on a phone's home screen.

- ``manifest.webmanifest`` with SVG and PNG icons (drawn here, no image
  library): the site can be added to a home screen and opens standalone;
- ``sw.js``, a service worker that keeps the latest release offline: it
  fetches the shell (style, scripts, icons: each with a content hash) when it
  installs, then a few bundles (``offline/*.json``, named by their content's
  hash) holding every page of the release but the rule pages, and its search
  data.  A rule page never fetched is made offline from its chapter's page
  (app.js).  A rebuild fetches only the shell files and bundles that changed.
  Every URL is relative to ``sw.js``, so the site works under any sub-path.

Older releases, rule pages and the JSON API are cached as they are visited.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from pathlib import Path

from crsearch.rules.model import Release

SW = "sw.js"
MANIFEST = "manifest.webmanifest"
ICON_SIZES = (192, 512)
ACCENT = (0x8A, 0x1C, 0x1C)
PAPER = (0xFD, 0xFD, 0xFB)


def _inside(x: float, y: float) -> bool:
    """The icon's glyph on a unit square: an open ring (a "C") and a bar."""
    dx, dy = x - 0.5, y - 0.5
    r2 = dx * dx + dy * dy
    ring = 0.22 ** 2 <= r2 <= 0.34 ** 2 and not (dx > 0.08 and abs(dy) < 0.13)
    bar = 0.62 <= x <= 0.72 and 0.42 <= y <= 0.58
    return ring or bar


def png_icon(size: int) -> bytes:
    """A square PNG icon: the glyph in paper colour on the accent colour."""
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter type 0 per scan line
        for i in range(size):
            row += bytes(PAPER if _inside((i + 0.5) / size, (j + 0.5) / size) else ACCENT)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def svg_icon() -> bytes:
    """The same icon as SVG (any size)."""
    accent = "#{:02x}{:02x}{:02x}".format(*ACCENT)
    paper = "#{:02x}{:02x}{:02x}".format(*PAPER)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" fill="{accent}"/>'
            f'<path d="M 58 37.5 A 28 28 0 1 0 58 62.5" fill="none" stroke="{paper}" '
            f'stroke-width="12"/>'
            f'<rect x="62" y="42" width="10" height="16" fill="{paper}"/></svg>\n').encode()


def manifest(release: Release) -> bytes:
    """The web app manifest; URLs relative to it, so any sub-path works."""
    data = {
        "name": "Comprehensive Rules",
        "short_name": "Rules",
        "description": f"Magic: The Gathering Comprehensive Rules, effective {release.effective_date}, "
                       "searchable offline.",
        "start_url": "./index.html",
        "scope": "./",
        "display": "standalone",
        "background_color": "#{:02x}{:02x}{:02x}".format(*PAPER),
        "theme_color": "#{:02x}{:02x}{:02x}".format(*ACCENT),
        "icons": [{"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
        + [{"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
            "purpose": "any maskable"} for n in ICON_SIZES],
    }
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def static_files(release: Release) -> dict[str, bytes]:
    """Manifest and icons, by path from the site root."""
    out = {MANIFEST: manifest(release), "icons/icon.svg": svg_icon()}
    for n in ICON_SIZES:
        out[f"icons/icon-{n}.png"] = png_icon(n)
    return out


def releases_script(dates: list[str]) -> bytes:
    """``releases.js``: the release switcher's list (newest first)."""
    return ("window.CRSEARCH_RELEASES=" + json.dumps(dates, separators=(",", ":")) + ";\n").encode()


#: Files of the latest release that are neither shell nor bundled.
NOT_PRECACHED = {SW, "crsearch-site.json"}
#: Where the bundles go, and about how much text each holds (before gzip).
BUNDLES = "offline"
BUNDLE_SIZE = 512 * 1024
_RULE_PAGE = re.compile(r"[1-9][0-9][0-9]\.[0-9]+[a-z]*\.html")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".json": "application/json"}


def is_rule_page(name: str) -> bool:
    """Whether ``name`` is the page of one rule ("702.19c.html"), not a chapter's."""
    return bool(_RULE_PAGE.fullmatch(name))


def shell(files: list[str]) -> list[str]:
    """The shell among the latest release's ``files``: what the worker fetches
    one by one when it installs (style, scripts, icons, the manifest): every
    file that is neither bundled nor a rule page."""
    return sorted(n for n in files
                  if not bundled(n) and not is_rule_page(n) and n not in NOT_PRECACHED)


def bundled(name: str) -> bool:
    """Whether a file of the latest release goes into the offline bundles:
    its pages but the rule pages (made offline from their chapter's page),
    its search data and the explain page's data."""
    if "/" in name:
        return name.startswith("search/")
    return (name.endswith(".html") and not is_rule_page(name)) or name == "explain-terms.js"


def _pack(files: list[tuple[str, bytes]]) -> bytes:
    rows = [[name, _TYPES[Path(name).suffix], data.decode("utf-8")] for name, data in files]
    return (json.dumps({"files": rows}, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def bundles(files: dict[str, bytes]) -> dict[str, bytes]:
    """The offline bundles of the latest release's ``files`` (by path from the
    site root), each named by a hash of its content: ``offline/pages-1.<hash>.json``.

    Pages and search data go into bundles of their own, files in name order,
    about :data:`BUNDLE_SIZE` each, so that a new release changes only the
    bundles whose files changed.
    """
    groups: dict[str, list[tuple[str, bytes]]] = {"pages": [], "search": []}
    for name in sorted(files):
        if bundled(name):
            groups["search" if name.startswith("search/") else "pages"].append((name, files[name]))
    out: dict[str, bytes] = {}
    for kind, members in groups.items():
        chunks: list[list[tuple[str, bytes]]] = []
        size = 0
        for name, data in members:
            if not chunks or (chunks[-1] and size + len(data) > BUNDLE_SIZE):
                chunks.append([])
                size = 0
            chunks[-1].append((name, data))
            size += len(data)
        for n, chunk in enumerate(chunks, 1):
            packed = _pack(chunk)
            out[f"{BUNDLES}/{kind}-{n}.{hashlib.sha256(packed).hexdigest()[:10]}.json"] = packed
    return out


def service_worker(folder: Path, release: str, shell_names: list[str],
                   bundle_names: list[str]) -> bytes:
    """``sw.js`` for the site in ``folder``: the template with its shell
    (each file with a hash of its content) and its bundles (with their sizes)."""
    from crsearch.paths import templates_dir

    first = [[name, hashlib.sha256((folder / name).read_bytes()).hexdigest()[:16]]
             for name in shell(shell_names)]
    packs = [[name, (folder / name).stat().st_size] for name in sorted(bundle_names)]
    version = hashlib.sha256(json.dumps([release, first, packs]).encode()).hexdigest()[:16]
    template = (templates_dir() / "sw.js").read_text(encoding="utf-8")
    return (template.replace("__VERSION__", version).replace("__RELEASE__", release)
            .replace("[/*SHELL*/]", json.dumps(first, separators=(",", ":")))
            .replace("[/*BUNDLES*/]", json.dumps(packs, separators=(",", ":")))).encode("utf-8")


__all__ = ["BUNDLES", "MANIFEST", "SW", "bundled", "bundles", "is_rule_page", "manifest",
           "png_icon", "releases_script", "service_worker", "shell", "static_files", "svg_icon"]
