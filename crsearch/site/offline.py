"""What makes the site work offline and installable on a phone's home screen.

- ``manifest.webmanifest`` with SVG and PNG icons (drawn here, no image
  library): the site can be added to a home screen and opens standalone;
- ``sw.js``, a service worker whose precache list is made at build time from
  the files actually written, each with a content hash.  A rebuild changes the
  list, so browsers update their cache, fetching only the files whose hash
  changed.  Every URL is relative to ``sw.js``, so the site works under any
  sub-path of a host.

The root release is precached on the first visit (pages, rule pages, glossary,
search data); older releases and the JSON API are cached as they are visited.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path

from crsearch.rules.model import Release

SW = "sw.js"
MANIFEST = "manifest.webmanifest"
ICON_SIZES = (192, 512)
ACCENT = (0x8A, 0x1C, 0x1C)
PAPER = (0xFD, 0xFD, 0xFB)
#: Files never precached: the worker itself and the site marker.
NOT_PRECACHED = {SW, "crsearch-site.json"}


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


def precache_list(folder: Path, skip: set[str]) -> list[tuple[str, str]]:
    """(URL, content hash) of every file to precache, in a stable order.

    ``skip`` names top-level folders left out (older releases, ``api``).
    """
    out = []
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        if rel in NOT_PRECACHED or rel.split("/", 1)[0] in skip or rel.startswith("."):
            continue
        out.append((rel, hashlib.sha256(p.read_bytes()).hexdigest()[:16]))
    return out


def service_worker(folder: Path, skip: set[str]) -> bytes:
    """``sw.js`` for the site in ``folder``: the template with its precache list."""
    from crsearch.paths import templates_dir

    entries = precache_list(folder, skip)
    version = hashlib.sha256(json.dumps(entries).encode()).hexdigest()[:16]
    template = (templates_dir() / "sw.js").read_text(encoding="utf-8")
    listing = json.dumps([list(e) for e in entries], separators=(",", ":"))
    return (template.replace("__VERSION__", version)
            .replace("[/*PRECACHE*/]", listing)).encode("utf-8")


__all__ = ["MANIFEST", "SW", "manifest", "png_icon", "precache_list", "releases_script",
           "service_worker", "static_files", "svg_icon"]
