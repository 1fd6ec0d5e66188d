"""Where the bytes of a Comprehensive Rules release come from.

This module only *gets* bytes: from the official rules page, from a URL, from
a local file or from a directory of files.  Decoding and parsing happen
elsewhere.  Networking uses the standard library (``urllib.request``); the
rules page is read with beautifulsoup4, imported only inside
:func:`find_txt_url` so that looking a rule up never pays for it.

Every failure is one of the library's own errors: :class:`SourceError` for
network, HTTP and page problems, :class:`BadInput` for a local path the user
got wrong.  No ``urllib``/``socket``/``http.client`` exception escapes.
"""

from __future__ import annotations

import datetime as _dt
import http.client
import json
import re
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from crsearch.errors import BadInput, SourceError, StoreError, short
from crsearch.version import __version__

RULES_PAGE = "https://magic.wizards.com/en/rules"
USER_AGENT = f"Mozilla/5.0 (compatible; crsearch/{__version__})"
CHUNK_SIZE = 64 * 1024
# A release is about 1 MB and the rules page well under that: 64 MiB and ten
# minutes leave room for slow links while bounding a hostile server.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_DEADLINE = 600.0
MAX_REDIRECTS = 10

Progress = Callable[[int, "int | None"], None]


@dataclass
class Source:
    """The raw bytes of one release and where they came from.

    ``name`` is a file name ("MagicCompRules 20260807.txt", or the local file's
    name).  ``kind`` is ``"txt"`` for rules text, or ``"site"`` for a directory
    holding a built website (then ``data`` is empty and ``path`` is the
    directory).
    """

    name: str
    data: bytes
    url: str | None = None
    path: str | None = None
    kind: str = "txt"
    error: str | None = None  # set when this file of a folder could not be read


# --------------------------------------------------------------------------
# Finding the TXT link on the rules page

_DATE_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d\d)[-_ ]?(\d\d)[-_ ]?(\d\d)(?!\d)")
_OTHER_DOCS = ("tournament", "mtr", "ipg", "infraction", "judg")
# Fallback for pages that only carry their links inside scripts / JSON.
_URL_IN_TEXT = re.compile(r"""(?:https?:)?//[^\s"'<>()\\]+?\.txt\b""", re.I)


def _quote_url(url: str) -> str:
    """Percent-encode spaces and other unsafe characters, keeping existing escapes."""
    parts = urllib.parse.urlsplit(url.strip())
    safe = "/%:@!$&'()*+,;=-._~"
    return urllib.parse.urlunsplit(parts._replace(
        path=urllib.parse.quote(parts.path, safe=safe),
        query=urllib.parse.quote(parts.query, safe=safe + "?"),
        fragment="",
    ))


def _file_name(url: str) -> str:
    path = urllib.parse.urlsplit(url).path
    return urllib.parse.unquote(path.rsplit("/", 1)[-1])


def _is_txt(url: str) -> bool:
    return urllib.parse.urlsplit(url).path.lower().endswith(".txt")


def _squash(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _looks_like_cr(url: str, link_text: str = "") -> bool:
    name = _squash(_file_name(url))
    if any(word in name for word in _OTHER_DOCS):
        return False
    if "comprules" in name or "comprehensiverules" in name:
        return True
    return "comprehensiverules" in _squash(link_text)


def _name_date(url: str) -> _dt.date | None:
    for m in _DATE_IN_NAME.finditer(_file_name(url)):
        try:
            return _dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            continue
    return None


def _pick_newest(candidates: list[str]) -> str:
    # max() keeps the first of equal keys: the earliest link in the page wins
    # a tie, and any dated link beats an undated one.
    return max(candidates, key=lambda u: _name_date(u) or _dt.date.min)


def find_txt_url(html: str | bytes, base_url: str) -> str:
    """Return the absolute URL of the Comprehensive Rules TXT linked from ``html``.

    ``html`` is the official rules page (or any page like it); relative links
    are resolved against ``base_url``.  PDF/DOCX versions and other TXT
    documents (tournament rules, ...) are ignored; of several CR TXT links the
    one with the newest date in its file name wins.  Raises
    :class:`SourceError` when there is no such link.
    """
    try:
        from bs4 import BeautifulSoup
    except ImportError as e:  # pragma: no cover - a declared dependency
        raise SourceError(f"beautifulsoup4 is needed to read the rules page: {e}") from None
    import warnings

    with warnings.catch_warnings():
        # bs4 warns about markup that "looks like a URL/file name"; the
        # project turns warnings into errors, and here they mean nothing.
        warnings.simplefilter("ignore")
        soup = BeautifulSoup(html, "html.parser")

    base = base_url
    base_tag = soup.find("base", href=True)
    if base_tag is not None:
        base = urllib.parse.urljoin(base_url, str(base_tag["href"]).strip())

    candidates: list[str] = []
    for tag in soup.find_all(["a", "area", "link"], href=True):
        href = str(tag["href"]).strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        url = urllib.parse.urljoin(base, href)
        if _is_txt(url) and _looks_like_cr(url, tag.get_text(" ", strip=True)):
            candidates.append(url)

    if not candidates:
        # The link may live only inside a script (JSON with "\/" escapes).
        text = soup.decode() if not isinstance(html, str) else html
        text = text.replace("\\/", "/").replace("\\u002F", "/").replace("\\u002f", "/")
        for m in _URL_IN_TEXT.finditer(text):
            url = urllib.parse.urljoin(base, m.group(0))
            if _looks_like_cr(url):
                candidates.append(url)

    if not candidates:
        raise SourceError(f"no Comprehensive Rules TXT link found on {base_url}")
    return _quote_url(_pick_newest(candidates))


# --------------------------------------------------------------------------
# Downloading


@dataclass
class _Download:
    data: bytes
    url: str  # after redirects
    content_type: str


def _one_line(s: object) -> str:
    return " ".join(str(s).split())


def _reason(err: BaseException) -> str:
    """A short human reason for a low-level error."""
    if isinstance(err, urllib.error.URLError) and not isinstance(err, urllib.error.HTTPError):
        inner = err.reason
        if isinstance(inner, BaseException):
            return _reason(inner)
        return _one_line(inner)
    if isinstance(err, OSError) and err.strerror:
        return _one_line(err.strerror)
    text = _one_line(err)
    return text or type(err).__name__


def _is_timeout(err: BaseException) -> bool:
    if isinstance(err, (TimeoutError, socket.timeout)):
        return True
    if isinstance(err, urllib.error.URLError) and isinstance(err.reason, BaseException):
        return _is_timeout(err.reason)
    return False


def _content_length(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        n = int(value.strip())
    except ValueError:
        return None
    return n if n >= 0 else None


class _SafeRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http(s) only, and at most MAX_REDIRECTS of them."""

    max_redirections = MAX_REDIRECTS

    def _check(self, base: str, target: str | None) -> None:
        newurl = urllib.parse.urljoin(base, target or "")
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise SourceError(f"refusing a redirect from {short(base)} to a "
                              f"non-http(s) URL: {short(newurl)}")

    def http_error_302(self, req, fp, code, msg, headers):
        # Checked before urllib's own rules, which would allow ftp://.
        self._check(req.full_url, headers.get("location") or headers.get("uri"))
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        self._check(req.full_url, newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener() -> urllib.request.OpenerDirector:
    # build_opener keeps the default handlers but swaps in ours for redirects;
    # no FTP/file/data handler is reachable through a redirect any more.
    return urllib.request.build_opener(_SafeRedirects)


def _download(
    url: str,
    *,
    timeout: float,
    progress: Progress | None,
    user_agent: str,
    quiet_for_html: bool = False,
    deadline: float | None = None,
    max_bytes: int | None = None,
    sink: Callable[[bytes], object] | None = None,
) -> _Download:
    """Download ``url``; with ``sink``, each chunk goes to it and nothing is kept."""
    import time

    deadline = DEFAULT_DEADLINE if deadline is None else deadline
    max_bytes = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    stop_at = time.monotonic() + deadline
    timeout = min(timeout, deadline)
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
    except ValueError as e:
        raise SourceError(f"invalid URL {short(url)}: {_one_line(e)}") from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise SourceError(f"not an http(s) URL: {short(url)}")
    try:
        request = urllib.request.Request(_quote_url(url), headers={"User-Agent": user_agent})
    except ValueError as e:
        raise SourceError(f"invalid URL {short(url)}: {_one_line(e)}") from None

    try:
        response = _opener().open(request, timeout=timeout)
    except SourceError:
        raise
    except urllib.error.HTTPError as e:
        e.close()
        if 300 <= e.code < 400:
            raise SourceError(f"too many redirects (more than {MAX_REDIRECTS}, or a loop) "
                              f"from {short(url)}") from None
        raise SourceError(f"HTTP {e.code} for {short(url)}") from None
    except Exception as e:  # URLError, OSError, HTTPException, ValueError...
        if _is_timeout(e):
            raise SourceError(f"timed out after {timeout:g} s waiting for {host}") from None
        if isinstance(e, (ValueError, http.client.InvalidURL)):
            raise SourceError(f"invalid URL {short(url)}: {_one_line(e)}") from None
        raise SourceError(f"cannot reach {host}: {_reason(e)}") from None

    with response:
        final_url = response.geturl() or url
        status = getattr(response, "status", 200) or 200
        if status >= 400:  # pragma: no cover - urllib raises HTTPError first
            raise SourceError(f"HTTP {status} for {short(url)}")
        if 300 <= status < 400:
            raise SourceError(f"HTTP {status} without a usable Location from {short(url)}")
        content_type = response.headers.get("Content-Type", "") or ""
        total = _content_length(response.headers.get("Content-Length"))
        if total is not None and total > max_bytes:
            raise SourceError(f"{short(url)} is {total:,} bytes, over the limit of "
                              f"{max_bytes:,} (--max-bytes)")
        if quiet_for_html and _is_html_type(content_type):
            progress = None

        read = getattr(response, "read1", None) or response.read
        chunks: list[bytes] = []
        done = 0
        if progress is not None:
            progress(0, total)
        try:
            while True:
                want = CHUNK_SIZE if total is None else max(1, min(CHUNK_SIZE, total - done))
                # read1: return what has arrived rather than wait for a full chunk
                chunk = read(want)
                if not chunk:
                    break
                if sink is not None:
                    sink(chunk)
                else:
                    chunks.append(chunk)
                done += len(chunk)
                if done > max_bytes:
                    raise SourceError(f"{short(url)} sent more than the limit of "
                                      f"{max_bytes:,} bytes (--max-bytes); stopped")
                if time.monotonic() > stop_at:
                    raise SourceError(f"{short(url)} took longer than {_seconds(deadline)} s "
                                      f"(--timeout); stopped after {done:,} bytes")
                if progress is not None:
                    progress(done, total)
                if total is not None and done >= total:
                    break
        except SourceError:
            raise
        except http.client.IncompleteRead as e:
            done += len(e.partial or b"")
            raise SourceError(_truncated(done, total, url)) from None
        except Exception as e:
            if _is_timeout(e):
                raise SourceError(
                    f"timed out after {timeout:g} s reading {short(url)} (got {done} bytes)"
                ) from None
            if isinstance(e, (OSError, http.client.HTTPException, ValueError)):
                raise SourceError(f"{_truncated(done, total, url)} ({_reason(e)})") from None
            raise
        if total is not None and done < total:
            raise SourceError(_truncated(done, total, url))
    return _Download(b"".join(chunks), final_url, content_type)


def _seconds(t: float) -> str:
    import math

    return f"{math.ceil(t * 10) / 10:g}"


def _truncated(done: int, total: int | None, url: str) -> str:
    of = f" of {total}" if total is not None else ""
    return f"download truncated: got {done}{of} bytes from {short(url)}"


def fetch(
    url: str,
    *,
    timeout: float = 30,
    progress: Progress | None = None,
    user_agent: str = USER_AGENT,
    deadline: float | None = None,
    max_bytes: int | None = None,
) -> bytes:
    """Download ``url`` and return its bytes.

    ``timeout`` bounds connecting and each read; ``deadline`` (seconds,
    default :data:`DEFAULT_DEADLINE`) bounds the whole download and
    ``max_bytes`` (default :data:`DEFAULT_MAX_BYTES`) its size.
    ``progress(done, total)`` is called once with ``done == 0`` and then after
    every chunk; ``total`` is the Content-Length, or ``None`` if unknown.
    Every failure (unreachable host, HTTP status >= 400, timeout, truncated
    body, redirect to another scheme, too big, too slow...) raises a one-line
    :class:`SourceError`.
    """
    return _download(url, timeout=timeout, progress=progress, user_agent=user_agent,
                     deadline=deadline, max_bytes=max_bytes).data


def fetch_to(
    url: str,
    out: BinaryIO,
    *,
    timeout: float = 30,
    progress: Progress | None = None,
    user_agent: str = USER_AGENT,
    deadline: float | None = None,
    max_bytes: int | None = None,
) -> str:
    """Download ``url`` into the open binary file ``out``, chunk by chunk, and
    return the URL it came from after redirects.

    The rules of :func:`fetch` hold (http(s) only, ``deadline``,
    ``max_bytes``, ``progress``, one-line :class:`SourceError`), but nothing
    is held in memory: for files far larger than a release (card data).
    """
    d = _download(url, timeout=timeout, progress=progress, user_agent=user_agent,
                  deadline=deadline, max_bytes=max_bytes, sink=out.write)
    return d.url


def _source_from_download(d: _Download) -> Source:
    return Source(name=_file_name(d.url) or d.url, data=d.data, url=d.url)


class Budget:
    """What is left of one overall deadline across several downloads."""

    def __init__(self, deadline: float | None):
        import time

        self.total = DEFAULT_DEADLINE if deadline is None else deadline
        self.stop_at = time.monotonic() + self.total

    def left(self) -> float:
        import time

        left = self.stop_at - time.monotonic()
        if left <= 0:
            raise SourceError(f"took longer than {_seconds(self.total)} s (--timeout); stopped")
        return left


def fetch_latest(page_url: str = RULES_PAGE, **kw: Any) -> Source:
    """Fetch the rules page, find the current CR TXT link, and download it.

    Keyword arguments go to :func:`fetch` (``timeout``, ``progress``,
    ``user_agent``, ``deadline``, ``max_bytes``); ``progress`` reports only
    the TXT download; ``deadline`` covers both downloads.
    """
    progress = kw.pop("progress", None)
    budget = Budget(kw.pop("deadline", None))
    page = _download(page_url, timeout=kw.get("timeout", 30), progress=None,
                     user_agent=kw.get("user_agent", USER_AGENT), deadline=budget.left(),
                     max_bytes=kw.get("max_bytes"))
    txt_url = find_txt_url(page.data, page.url)
    return _fetch_txt(txt_url, progress=progress, deadline=budget.left(), **kw)


def _fetch_txt(url: str, *, timeout: float = 30, progress: Progress | None = None,
               user_agent: str = USER_AGENT, deadline: float | None = None,
               max_bytes: int | None = None) -> Source:
    d = _download(url, timeout=timeout, progress=progress, user_agent=user_agent,
                  deadline=deadline, max_bytes=max_bytes)
    if _is_html(d):
        raise SourceError(f"expected a rules TXT but got an HTML page from {short(url)}")
    return _source_from_download(d)


def _is_html_type(content_type: str) -> bool:
    mime = content_type.split(";", 1)[0].strip().lower()
    return mime in ("text/html", "application/xhtml+xml")


def _is_html(d: _Download) -> bool:
    if _is_html_type(d.content_type):
        return True
    head = d.data[:512]
    for bom in (b"\xef\xbb\xbf",):
        if head.startswith(bom):
            head = head[len(bom):]
    head = head.lstrip().lower()
    return head.startswith((b"<!doctype", b"<html"))


# --------------------------------------------------------------------------
# The "from" argument: URL, file or directory

_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def read_from(spec: str, *, progress: Progress | None = None,
              timeout: float = 30, deadline: float | None = None,
              max_bytes: int | None = None) -> list[Source]:
    """Read the release(s) named by ``spec``.

    - an http(s) URL: a TXT gives one Source; an HTML page is taken for a
      rules page and its CR TXT link is followed (``deadline`` and
      ``max_bytes`` as in :func:`fetch`);
    - a local file: one Source;
    - a directory: one Source per ``*.txt`` file in it, sorted by name (a
      file that cannot be read gets ``error`` set, the others still come);
      but a directory holding ``index.html`` is a built website, returned as
      a single ``Source(kind="site", data=b"", path=<dir>)``.

    An empty or missing path, or a directory without TXT files, raises
    :class:`BadInput`; network problems raise :class:`SourceError`.
    """
    if not spec.strip():
        raise BadInput("--from needs a file, a folder or a URL (got an empty string)")
    shown = short(display_name(spec))
    if _URL_SCHEME.match(spec):
        scheme = spec.split(":", 1)[0].lower()
        if scheme not in ("http", "https"):
            raise BadInput(f"unsupported URL scheme {short(scheme)!r}: {shown}")
        budget = Budget(deadline)
        d = _download(spec, timeout=timeout, progress=progress,
                      user_agent=USER_AGENT, quiet_for_html=True, deadline=budget.left(),
                      max_bytes=max_bytes)
        if _is_html(d):
            txt_url = find_txt_url(d.data, d.url)
            return [_fetch_txt(txt_url, timeout=timeout, progress=progress,
                               deadline=budget.left(), max_bytes=max_bytes)]
        return [_source_from_download(d)]

    path = Path(spec).expanduser()
    try:
        if path.is_dir():
            return _read_dir(path, shown)
        if path.is_file():
            return [Source(name=display_name(path.name), data=path.read_bytes(), path=str(path))]
    except OSError as e:
        raise BadInput(f"cannot read {shown}: {_reason(e)}") from None
    if path.exists():
        raise BadInput(f"not a file or directory: {shown}")
    raise BadInput(f"no such file or directory: {shown}")


def display_name(name: str) -> str:
    """A file name fit for messages: undecodable bytes become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _read_dir(path: Path, spec: str) -> list[Source]:
    if (path / "index.html").is_file():
        name = display_name(path.resolve().name or str(path.resolve()))
        return [Source(name=name, data=b"", path=str(path), kind="site")]
    files = sorted(
        (p for p in path.iterdir() if p.suffix.lower() == ".txt" and p.is_file()),
        key=lambda p: p.name,
    )
    if not files:
        raise BadInput(f"no .txt files in directory: {spec}")
    out = []
    for p in files:
        name = display_name(p.name)
        try:
            out.append(Source(name=name, data=p.read_bytes(), path=str(p)))
        except OSError as e:
            out.append(Source(name=name, data=b"", path=str(p),
                              error=f"cannot read {name}: {_reason(e)}"))
    return out


# --------------------------------------------------------------------------
# Known releases


def known_releases() -> list[dict]:
    """The known official releases (``data/releases.json``), oldest first.

    Each entry has ``file_date``, ``effective_date`` (as printed inside the
    file), ``url``, ``sha256`` and ``size``.
    """
    from crsearch.paths import data_dir

    path = data_dir() / "releases.json"
    try:
        with open(path, encoding="utf-8") as f:
            releases = json.load(f)
    except FileNotFoundError:
        raise StoreError(f"missing known-releases file: {path}") from None
    except (OSError, ValueError) as e:
        raise StoreError(f"cannot read {path}: {_one_line(e)}") from None
    if not isinstance(releases, list):
        raise StoreError(f"damaged known-releases file: {path}")
    return releases
