"""HTTP for ``crsearch site serve``: gzip and cache headers.

A phone on a slow network gets chapter 702 as 62 kB instead of 355 kB, and a
second visit asks only "has it changed?" (``ETag``/``Last-Modified``, answered
with 304) or nothing at all, over connections kept open (HTTP/1.1):

- pages: ``Cache-Control: no-cache`` (always revalidated, so a rebuilt site
  shows at once);
- search data files, whose names hold a hash of their content (the pages
  name the metadata file, which names the others): cached for a year;
- everything else (style, script, icons): cached for ten minutes.

Standard library only.
"""

from __future__ import annotations

import gzip
import http.server
import io
import os
import re
import threading
from email.utils import formatdate, parsedate_to_datetime
from typing import Any

#: Types worth compressing (images and fonts are compressed already).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json",
                "image/svg+xml", "application/xml")
#: Smaller bodies are sent as they are: gzip would barely help.
MIN_GZIP = 512
HASHED = re.compile(r"\.[0-9a-f]{10}\.[a-z]+$")
REVALIDATE = ("sw.js", "service-worker.js")


def cache_control(rel: str) -> str:
    """The Cache-Control header for a file of the site, by its path."""
    if HASHED.search(rel):
        return "public, max-age=31536000, immutable"
    if rel.endswith((".html", ".json", ".webmanifest")) or rel in REVALIDATE or rel == "":
        return "no-cache"
    return "public, max-age=600"


class CachingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with ETag/Last-Modified, 304s, Cache-Control and gzip."""

    # Keep-alive: on a phone's 400 ms round trip, a new connection for each
    # of a search's files would cost a round trip more per file.  Every
    # answer says its length; a connection idle for a minute is closed.
    protocol_version = "HTTP/1.1"
    timeout = 60

    _gz_cache: dict[tuple[str, int, int], bytes] = {}
    _gz_lock = threading.Lock()

    def send_head(self) -> Any:  # noqa: C901 - one request, told in order
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
                return super().send_head()  # the redirect to "folder/"
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()  # 404 (our not-found page)
        try:
            st = os.stat(path)
        except OSError:
            return super().send_head()
        ctype = self.guess_type(path)
        root = os.path.realpath(self.directory)
        rel = os.path.relpath(os.path.realpath(path), root).replace(os.sep, "/")
        zipped = (st.st_size >= MIN_GZIP and ctype.startswith(COMPRESSIBLE)
                  and _accepts_gzip(self.headers.get("Accept-Encoding", "")))
        etag = f'"{st.st_size:x}-{st.st_mtime_ns:x}{"-gz" if zipped else ""}"'
        modified = formatdate(st.st_mtime, usegmt=True)
        if _not_modified(self.headers, etag, st.st_mtime):
            self.send_response(304)
            self._cache_headers(rel, etag, modified)
            self.end_headers()
            return None
        if zipped:
            body = self._gzipped(path, st)
            f: Any = io.BytesIO(body)
            length = len(body)
        else:
            f = open(path, "rb")  # noqa: SIM115 - closed by do_GET/do_HEAD
            length = st.st_size
        self.send_response(200)
        self.send_header("Content-Type", ctype + ("; charset=utf-8" if ctype.startswith("text/")
                                                  and "charset" not in ctype else ""))
        self.send_header("Content-Length", str(length))
        if zipped:
            self.send_header("Content-Encoding", "gzip")
        if ctype.startswith("text/html") and os.path.isfile(os.path.join(root, "site.css")):
            # The style sheet blocks the first paint: ask for it with the
            # page's headers, not after the page's head has arrived.
            up = "../" * rel.count("/")
            self.send_header("Link", f"<{up}site.css>; rel=preload; as=style")
        self._cache_headers(rel, etag, modified)
        self.end_headers()
        return f

    def copyfile(self, source: Any, outputfile: Any) -> None:
        try:
            super().copyfile(source, outputfile)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went elsewhere before the body was sent

    def _cache_headers(self, rel: str, etag: str, modified: str) -> None:
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.send_header("Cache-Control", cache_control(rel))
        self.send_header("Vary", "Accept-Encoding")

    def _gzipped(self, path: str, st: os.stat_result) -> bytes:
        key = (path, st.st_mtime_ns, st.st_size)
        with self._gz_lock:
            got = self._gz_cache.get(key)
        if got is None:
            with open(path, "rb") as f:
                # mtime=0: the same file always gives the same bytes.
                got = gzip.compress(f.read(), compresslevel=6, mtime=0)
            with self._gz_lock:
                if len(self._gz_cache) > 2000:
                    self._gz_cache.clear()
                self._gz_cache[key] = got
        return got


def _accepts_gzip(header: str) -> bool:
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def _not_modified(headers: Any, etag: str, mtime: float) -> bool:
    inm = headers.get("If-None-Match")
    if inm is not None:
        tags = [t.strip() for t in inm.split(",")]
        return etag in tags or "*" in tags or f"W/{etag}" in tags
    ims = headers.get("If-Modified-Since")
    if ims:
        try:
            since = parsedate_to_datetime(ims).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return int(mtime) <= since
    return False
