"""HTTP for ``crsearch site serve``: gzip and cache headers.

A phone on a slow network gets chapter 702 as 62 kB instead of 355 kB, and a
second visit asks only "has it changed?" (``ETag``/``Last-Modified``, answered
with 304) or nothing at all, over connections kept open (HTTP/1.1):

- pages: ``Cache-Control: no-cache`` (always revalidated, so a rebuilt site
  shows at once);
- search data files, whose names hold a hash of their content (the pages
  name the metadata file, which names the others): cached for a year;
- everything else (style, script, icons): cached for ten minutes.

Only regular files whose real path lies inside the site folder are sent:
a symlink out of the site, a folder without ``index.html`` (folders are never
listed) and anything that is not a regular file (a FIFO would block the
server) are "not found"; a path that is not UTF-8 text (``%00``, a lone
surrogate) is a 400.

Standard library only.
"""

from __future__ import annotations

import gzip
import http.server
import io
import os
import re
import stat
import threading
import urllib.parse
from email.utils import formatdate, parsedate_to_datetime
from typing import Any

#: Types worth compressing (images and fonts are compressed already).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json",
                "image/svg+xml", "application/xml")
#: Smaller bodies are sent as they are: gzip would barely help.
MIN_GZIP = 512
HASHED = re.compile(r"\.[0-9a-f]{8,10}\.[a-z]+$")
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
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        if not _is_text(url_path):
            self.send_error(400, "The path is not UTF-8 text")
            return None
        root = os.path.realpath(self.directory)
        real = inside(root, self.translate_path(self.path))
        if real is not None and os.path.isdir(real):
            if not url_path.endswith("/"):
                return self._redirect_to_folder()
            real = inside(root, os.path.join(real, "index.html"))
        elif url_path.endswith("/"):
            real = None  # "page.html/" names no folder
        opened = open_regular(real) if real is not None else None
        if opened is None:
            # Missing, outside the site (a symlink out of it), a folder with
            # no index.html (never listed) or not a regular file (a FIFO
            # would block the server): all "not found".
            self.send_error(404, "File not found")
            return None
        f, st = opened
        try:
            return self._send_file(f, st, real, root)  # type: ignore[arg-type]
        except BaseException:
            f.close()
            raise

    def _send_file(self, f: Any, st: os.stat_result, path: str, root: str) -> Any:
        ctype = self.guess_type(path)
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        zipped = (st.st_size >= MIN_GZIP and ctype.startswith(COMPRESSIBLE)
                  and _accepts_gzip(self.headers.get("Accept-Encoding", "")))
        etag = f'"{st.st_size:x}-{st.st_mtime_ns:x}{"-gz" if zipped else ""}"'
        modified = formatdate(st.st_mtime, usegmt=True)
        if _not_modified(self.headers, etag, st.st_mtime):
            f.close()
            self.send_response(304)
            self._cache_headers(rel, etag, modified)
            self.end_headers()
            return None
        if zipped:
            body = self._gzipped(f, path, st)
            f.close()
            f = io.BytesIO(body)
            length = len(body)
        else:
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
        return f  # closed by do_GET/do_HEAD

    def _redirect_to_folder(self) -> None:
        """301 from "folder" to "folder/", so the index page's relative links work."""
        parts = urllib.parse.urlsplit(self.path)
        self.send_response(301)
        self.send_header("Location", urllib.parse.urlunsplit(
            (parts[0], parts[1], parts[2] + "/", parts[3], parts[4])))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def list_directory(self, path: Any) -> None:
        """Folders are never listed."""
        self.send_error(404, "File not found")

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

    def _gzipped(self, f: Any, path: str, st: os.stat_result) -> bytes:
        key = (path, st.st_mtime_ns, st.st_size)
        with self._gz_lock:
            got = self._gz_cache.get(key)
        if got is None:
            # mtime=0: the same file always gives the same bytes.
            got = gzip.compress(f.read(), compresslevel=6, mtime=0)
            with self._gz_lock:
                if len(self._gz_cache) > 2000:
                    self._gz_cache.clear()
                self._gz_cache[key] = got
        return got


def _is_text(url_path: str) -> bool:
    """Whether a request's path decodes to UTF-8 text without NUL (a lone
    surrogate such as ``%ED%A0%80`` is not UTF-8)."""
    try:
        text = urllib.parse.unquote_to_bytes(url_path).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return "\x00" not in text


def inside(root: str, path: str) -> str | None:
    """The real path of ``path`` when it lies inside the real folder ``root``, else None."""
    real = os.path.realpath(path)
    return real if real == root or real.startswith(root.rstrip(os.sep) + os.sep) else None


def open_regular(path: str) -> tuple[Any, os.stat_result] | None:
    """A regular file opened for reading, with its stat, or None.

    Checked before opening and again on the open file, and opened
    non-blocking: a FIFO (or a device) put in its place never blocks the
    reader.  ``path`` is a real path (:func:`inside`): its last part is not
    followed if it became a symlink since.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            return None
        return os.fdopen(fd, "rb"), st
    except BaseException:
        os.close(fd)
        raise


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
