"""The data directory: imported releases on disk, written atomically, read fast.

Layout::

    DATA/catalog.json                 which releases exist and where
    DATA/releases/<date>.<hash>/      one imported release
        meta.json                     headings, counts, report: small
        chapters.z                    the rules, one zlib block per chapter
        release.json.gz               the whole release, compressed (export, index, site)
        index/                        the Whoosh index (see ``index.py``)

A rule lookup reads the catalog, ``meta.json`` and one chapter's block of
``chapters.z``, never the whole release (``read_chapter``).  Every file is read only when it is a regular file no larger
than its kind's limit (``LIMITS``, far above any real one): a FIFO, a device
or a huge file in its place is a damaged store, never a hang or a
MemoryError.  Every write goes to a temporary folder that is renamed into
place, and the catalog is replaced with ``os.replace``: an interrupted update
leaves the previous state as it was.  What such an interruption (or damage
from outside) leaves behind is found and fixed by ``repair.py``.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from typing import TYPE_CHECKING, Any, TypeVar

from crsearch.errors import BadInput, DamagedStore, KeptRelease, NoData, NotFound, StoreError, reason, short
from crsearch.rules.model import Chapter, Release, Rule, Section

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from crsearch.store.lineage import Compute
    from crsearch.store.repair import Cache, IndexHooks, RepairReport


def _path(*parts: str) -> Path:
    from pathlib import Path

    return Path(*parts)


def _json() -> Any:
    # A rule lookup never writes and reads with ``loads``: importing the json
    # package costs more than the files it reads.
    import json

    return json

CATALOG = "catalog.json"
MARKER = ".crsearch-store"  # says "this data dir was made by crsearch"
FORMAT = 1
STAGING = ".tmp-"
OWNER = ".crsearch-staging"  # inside a staging folder: the pid of the process writing it
RETIRED = ".retired"  # inside a release folder the catalog no longer lists
DAMAGED = ".damaged-"  # prefix of a release folder that repair could not save
FIRST_YEAR, LAST_YEAR = 1993, 2100  # the game began in 1993
DIR_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})\.([0-9a-f]{8})\.([0-9a-f]{6})")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_HEX = re.compile(r"[0-9a-f]+")
REPAIR = "run `crsearch repair`"
RELEASE_FILE = "release.json.gz"
#: The rules of every chapter: a JSON header line (each chapter's block:
#: offset after the header, length), then one zlib-compressed JSON list per
#: chapter.  Releases stored before it have ``chapters/<NNN>.json`` files:
#: still read, and packed by ``crsearch repair``.
CHAPTERS = "chapters.z"
CHAPTERS_FORMAT = 1

_MB = 1 << 20
#: The most bytes crsearch reads from each kind of file of the data folder.
#: Each is far above the largest real one over the 114 archived releases
#: (docs/decisions/store-file-limits.md has the figures); a larger file is
#: damaged, or not ours, and is refused before it fills the memory.
LIMITS = {
    "catalog": 16 * _MB,        # catalog.json
    "meta": 16 * _MB,           # meta.json
    "chapter": 32 * _MB,        # one chapter's rules, uncompressed (or an older chapters/<NNN>.json)
    "chapters": 64 * _MB,       # chapters.z as stored, compressed
    "release": 64 * _MB,        # release.json.gz as stored, compressed
    "release text": 256 * _MB,  # release.json.gz uncompressed, or an older release.json
    "cache": 64 * _MB,          # explain-terms.json, completion-terms.json beside a release
    "index": 64 * _MB,          # the JSON files of a search index (fast.json, its manifest)
    "lineage": 64 * _MB,        # lineage.json: how each rule continues between releases
}

T = TypeVar("T")


def default_data_dir() -> Path:
    """``CRSEARCH_DATA`` if set, else the platform's user data folder."""
    return _path(_default_root())


def _default_root() -> str:
    env = os.environ.get("CRSEARCH_DATA")
    if env:
        return os.path.expanduser(env)
    if sys.platform.startswith("linux"):
        # What platformdirs answers on Linux (XDG), without its import cost
        # on every lookup.
        base = os.environ.get("XDG_DATA_HOME", "").strip() or "~/.local/share"
        return os.path.join(os.path.expanduser(base), "crsearch")
    import platformdirs

    return str(platformdirs.user_data_dir("crsearch", appauthor=False))


def valid_date(text: object) -> str:
    """``text`` if it is a real calendar date YYYY-MM-DD in 1993..2100, else BadInput.

    Every effective date becomes part of a folder name, so nothing else may
    pass: no "banana", no "../..", no 2026-02-30.
    """
    import datetime

    if isinstance(text, str) and _ISO_DATE.fullmatch(text):
        try:
            day = datetime.date.fromisoformat(text)
        except ValueError:
            day = None
        if day is not None and FIRST_YEAR <= day.year <= LAST_YEAR:
            return text
    raise BadInput(f"{short(repr(text), 40)} is not a valid effective date "
                   f"(a real date YYYY-MM-DD between {FIRST_YEAR} and {LAST_YEAR})")


def _dumps(data: Any) -> str:
    """The text of every JSON file the store writes (sorted keys, no spaces)."""
    # json.dumps, not json.dump: only the one-shot form uses the C encoder,
    # which makes writing a release several times faster.
    return _json().dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _write_json(path: Path, data: Any, sync: bool = False) -> None:
    text = _dumps(data)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        if sync:
            f.flush()
            os.fsync(f.fileno())


def write_json_atomic(path: Path, data: Any) -> None:
    """Replace the JSON file ``path`` in one step (repair rewrites small files so)."""
    from crsearch.files import write_atomic

    write_atomic(path, _dumps(data).encode("utf-8"), sync=True)


def _sync_tree(folder: Path) -> None:
    """Flush a freshly written folder to disk before it is renamed into place."""
    for p in folder.rglob("*"):
        if p.is_file():
            fd = os.open(p, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def read_bytes(path: str | Path, kind: str) -> bytes:
    """The bytes of a file of the data folder, of a kind of ``LIMITS``.

    ``files.NotAFile`` (an OSError) for a FIFO, a folder or a device in its
    place, ``files.TooLarge`` for a file above its kind's limit.
    """
    from crsearch.files import read_regular

    return read_regular(path, LIMITS[kind])


def read_release_text(path: str | Path) -> str:
    """The text of a release file, gzip or plain; ValueError when the gzip data is damaged.

    A gzip file is uncompressed only up to the limit of a release's text: a
    small file that would uncompress to gigabytes is refused (``TooLarge``).
    """
    from crsearch.files import inflate

    if not os.fspath(path).endswith(".gz"):
        return read_bytes(path, "release text").decode("utf-8")
    return inflate(read_bytes(path, "release"), LIMITS["release text"], path, "the release file",
                   gzip=True).decode("utf-8")


def _read_ahead(path: str, read: Callable[[bytes], T | None]) -> T | None:
    """``read`` of the start of a ``release.json.gz``, uncompressing only as
    far as it needs.

    ``read`` gets the bytes uncompressed so far and returns None while that
    is not enough.  The keys are sorted, so the glossary comes before the
    rules (four fifths of the text): ``diff`` reads the glossaries of two
    releases, and uncompressing them whole cost more than the rest of a
    neighbours' diff.  The first chunk holds the glossary of every archived
    release (the longest ends at 288 KB); a longer one takes more chunks.
    None when the file does not read so (damaged, or not as expected): the
    caller reads it whole, which says why.  The gzip checksum covers the
    whole file, so it is not checked here: a damaged glossary still fails
    to uncompress or to parse.
    """
    import zlib

    data = read_bytes(path, "release")
    unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
    head, chunk = b"", 5 << 16
    try:
        while len(head) < LIMITS["release text"]:
            head += unzip.decompress(unzip.unconsumed_tail or data, chunk)
            data = b""
            if b'"glossary":[' not in head:
                return None  # not a release as this store writes it
            got = read(head)
            if got is not None or unzip.eof or not unzip.unconsumed_tail:
                return got
            chunk *= 2
    except zlib.error:
        return None
    return None


_ENTRY_START = b'{"aliases":'
_GLOSSARY_END = b'],"introduction":'  # the release's next key, sorted


def _glossary_pieces(text: bytes) -> list[bytes] | None:
    """Each glossary entry's JSON text (UTF-8), unparsed, or None when
    ``text`` is cut short (or not as this store writes a release)."""
    at = text.find(b'"glossary":[') + len(b'"glossary":')
    end = text.find(_GLOSSARY_END, at)
    if end < 0:
        return None
    inner = text[at + 1:end]
    if not inner:
        return []
    if not (inner.startswith(_ENTRY_START) and inner.endswith(b"}")):
        return None
    # No JSON string holds an unescaped quote (and no UTF-8 sequence an
    # ASCII byte), so the split falls only between entries; every entry has
    # one "term", so as many terms as pieces means one entry a piece.
    pieces = [_ENTRY_START + p + b"}" for p in inner[len(_ENTRY_START):-1].split(b"}," + _ENTRY_START)]
    return pieces if inner.count(b'"term":"') == len(pieces) else None


def read_json(path: str | Path, kind: str) -> Any:
    """A JSON file this store wrote, of a kind of ``LIMITS``, read with :func:`loads`.

    The index's larger JSON files (``terms.json``, ``fast.json``) are
    written zlib-compressed (``packed_json``): a file that begins with a zlib
    header (which no JSON object or list does) is inflated first, never past
    its kind's limit.
    """
    data = read_bytes(path, kind)
    if _zlib_header(data):
        from crsearch.files import inflate

        data = inflate(data, LIMITS[kind], path)
    return loads(data.decode("utf-8"))


def _zlib_header(data: bytes) -> bool:
    """True when ``data`` begins as a zlib stream does: deflate, a window of
    at most 32 KB, and the header's check (its first byte is never ``{``,
    ``[``, a quote or white space)."""
    return len(data) >= 2 and data[0] & 0x0F == 8 and data[0] >> 4 <= 7 \
        and (data[0] << 8 | data[1]) % 31 == 0


def packed_json(data: Any) -> bytes:
    """``data`` as compact JSON, zlib-compressed: what ``read_json`` reads back."""
    from crsearch.files import deflate

    return deflate(_json().dumps(data, ensure_ascii=False, separators=(",", ":"),
                                 sort_keys=True).encode("utf-8"), 6)


def read_chapter(path: str | Path, chapter: str) -> str | None:
    """The JSON text of one chapter's rules in the ``chapters.z`` at ``path``,
    None when it holds no such chapter.  Only the header and that chapter's
    block are read; ValueError (or an OSError) when the file is damaged.
    A reader of many chapters of one file keeps a ``ChaptersFile``.
    """
    from crsearch.files import open_regular

    with open_regular(path, LIMITS["chapters"]) as f:
        head, blocks = _chapters_head(f)
        where = _block_of(blocks, chapter)
        if where is None:
            return None
        f.seek(len(head) + where[0])
        raw = f.read(where[1])
    return _chapter_text(raw, where, path, chapter)


def _block_of(blocks: dict[str, Any], chapter: str) -> list[int] | None:
    """Where ``chapter``'s block is ([offset after the header, length]), None
    when the file holds no such chapter; ValueError when that is damaged."""
    where = blocks.get(chapter)
    if where is None:
        return None
    if not (isinstance(where, list) and len(where) == 2
            and all(isinstance(x, int) and x >= 0 for x in where)):
        raise ValueError("not a chapters file")
    return where


def _chapter_text(raw: bytes, where: list[int], path: str | Path, chapter: str) -> str:
    from crsearch.files import inflate

    if len(raw) != where[1]:
        raise ValueError(f"the block of chapter {chapter} is cut short")
    return inflate(raw, LIMITS["chapter"], path, f"chapter {chapter}").decode("utf-8")


class ChaptersFile:
    """One ``chapters.z`` opened and checked once (as ``read_chapter`` checks
    it: a regular file within its limits, its header whole), then read
    chapter by chapter with ``os.pread`` on the kept descriptor: no shared
    offset, so many threads may read at once.  A question reads the rules
    of some 80 chapters: one open, not 80.  The descriptor is closed when
    the reader is freed (by then no thread reads through it)."""

    def __init__(self, path: str | Path):
        import weakref

        from crsearch.files import open_regular

        self.path = path
        with open_regular(path, LIMITS["chapters"]) as f:
            self._head, self._blocks = _chapters_head(f)
            self._fd = os.dup(f.fileno())
        weakref.finalize(self, os.close, self._fd)

    def read(self, chapter: str) -> str | None:
        """``read_chapter`` of this file: the JSON text of ``chapter``'s rules,
        None when it holds no such chapter; ValueError when damaged."""
        where = _block_of(self._blocks, chapter)
        if where is None:
            return None
        raw = os.pread(self._fd, where[1], len(self._head) + where[0])
        return _chapter_text(raw, where, self.path, chapter)


def _chapters_head(f: Any) -> tuple[bytes, dict[str, Any]]:
    """The header line of an open ``chapters.z`` and its blocks by chapter."""
    head = f.readline(LIMITS["meta"])
    try:
        index = _scan(head.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ValueError(f"not a chapters file ({e.reason})") from None
    blocks = index.get("chapters") if isinstance(index, dict) else None
    if not isinstance(blocks, dict) or index.get("format") != CHAPTERS_FORMAT:
        raise ValueError("not a chapters file")
    # The size it was written with: a file cut short (or grown) anywhere is
    # damaged, whichever chapter is read.
    if os.fstat(f.fileno()).st_size != len(head) + index.get("size", -1):
        raise ValueError("cut short" if head.endswith(b"\n") else "not a chapters file")
    return head, blocks


def chapter_ids(path: str | Path) -> list[str]:
    """The chapters a ``chapters.z`` holds, in its order; ValueError when damaged."""
    from crsearch.files import open_regular

    with open_regular(path, LIMITS["chapters"]) as f:
        return list(_chapters_head(f)[1])


#: Each chapter's packed block by its JSON text: this pack's, and the one's before.
_packed: dict[str, bytes] = {}
_packed_before: dict[str, bytes] = {}


def forget_packs() -> None:
    """Drop the chapters' blocks kept for the next pack."""
    _packed.clear()
    _packed_before.clear()


def pack_chapters(chapters: dict[str, list[dict[str, Any]]]) -> bytes:
    """The bytes of ``chapters.z`` for the rules of each chapter (``by_chapter``)."""
    from crsearch.files import deflate

    blocks, index, at = [], {}, 0
    global _packed, _packed_before
    _packed_before, _packed = _packed, {}
    for chapter, rules in chapters.items():
        text = _dumps(rules)
        # A batch import packs the same chapters release after release.
        block = _packed.get(text) or _packed_before.get(text) or deflate(text.encode("utf-8"), 6)
        _packed[text] = block
        index[chapter] = [at, len(block)]
        at += len(block)
        blocks.append(block)
    head = _dumps({"format": CHAPTERS_FORMAT, "chapters": index, "size": at}).encode("utf-8") + b"\n"
    return head + b"".join(blocks)


class _Plain:
    """What the C scanner asks of a JSON decoder: plain dicts, lists and numbers."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = float  # "NaN", "Infinity", "-Infinity"

    def __init__(self) -> None:
        self.memo: dict[str, str] = {}


def json_scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    """The C JSON scanner (one value at an offset, as plain dicts), or None
    where the interpreter lacks it: lets readers decode part of a large file."""
    try:
        import _json
    except ImportError:  # an interpreter without the C accelerator
        return None
    return _json.make_scanner(_Plain())  # type: ignore[arg-type]


def loads(text: str) -> Any:
    """``json.loads`` for the files this store writes.

    A rule lookup reads three small JSON files; importing the ``json``
    package costs more than parsing them, so the C scanner behind it
    (``_json``, a single extension module) is used directly.  Anything it
    does not read to the end goes to ``json.loads`` for the same result or
    its usual error.
    """
    return _scan(text)


def _scan(text: str) -> Any:
    # ``loads`` itself (the lookup test replaces ``loads`` to catch a whole
    # chapter parsed; a chapters file's header line is not one).
    scan = json_scanner()
    if scan is not None:
        start = len(text) - len(text.lstrip(" \t\n\r"))
        try:
            value, end = scan(text, start)
        except (StopIteration, ValueError, SystemError):
            # SystemError: on a cut file, the scanner fails so instead of
            # raising its error while the json package is not loaded yet
            # (a fresh lookup); json.loads says what is wrong.
            pass
        else:
            if not text[end:].strip(" \t\n\r"):
                return value
    import json

    return json.loads(text)


def mark_owner(folder: Path, pid: int | None = None) -> None:
    """Write the marker that makes ``folder`` a staging folder of process ``pid``.

    Written in one step: a sweep in another process that read the file
    between its creation and its write took an empty marker for a dead
    writer's and deleted a batch import's staging folder.
    """
    from crsearch.files import write_atomic

    write_atomic(folder / OWNER, str(pid or os.getpid()).encode("ascii"))


class StoredRelease:
    """One entry of the catalog: a release on disk.

    Reads that find a file gone (a concurrent import replaced this release)
    look the release up again in the catalog and retry once; a file that is
    damaged raises :class:`DamagedStore` naming the release and the fix.
    """

    def __init__(self, effective_date: str, path: str | Path, info: dict[str, Any],
                 store: Store | None = None):
        self.effective_date = effective_date
        self.dir = os.fspath(path)  # a string: the lookup path never imports pathlib
        self.info = info
        self._store = store
        self._chapters: dict[str, tuple[str, str | None]] = {}

    def __repr__(self) -> str:
        return f"<StoredRelease {self.effective_date} {self.dir}>"

    @property
    def path(self) -> Path:
        """The release's folder."""
        return _path(self.dir)

    def _damaged(self, what: str, why: str) -> DamagedStore:
        return DamagedStore(f"release {self.effective_date}: {what} is {why}; {REPAIR}")

    def _read(self, name: str, read: Callable[[str], T]) -> T:
        for attempt in (1, 2):
            p = os.path.join(self.dir, name)
            try:
                return read(p)
            except FileNotFoundError:
                if attempt == 1 and self._refresh():
                    continue
                raise self._damaged(name, "missing") from None
            except (OSError, ValueError, EOFError) as e:
                raise self._damaged(name, f"damaged ({reason(e)})") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _refresh(self) -> bool:
        """Follow the catalog to this date's current folder; True if it moved."""
        if self._store is None:
            return False
        try:
            entry = next((r for r in self._store.catalog()
                          if r["effective_date"] == self.effective_date), None)
        except StoreError:
            return False
        if entry is None:
            return False
        path = os.path.join(self._store.dir, "releases", entry["dir"])
        if path == self.dir:
            return False
        self.dir, self.info = path, entry
        return True

    def meta(self) -> dict[str, Any]:
        meta = self._read("meta.json", lambda p: read_json(p, "meta"))
        if not isinstance(meta, dict) or not all(
                isinstance(meta.get(k), list) for k in ("sections", "chapters", "rule_ids")):
            raise self._damaged("meta.json", "damaged (not a release summary)")
        return meta

    def chapter_dicts(self, chapter: str) -> list[dict[str, Any]]:
        """The rules of one chapter as stored (plain dicts, document order)."""
        name, text = self._chapter_text(chapter)
        if text is None:
            return []
        try:
            rules = loads(text)
        except ValueError as e:
            raise self._damaged(name, f"damaged ({reason(e)})") from None
        if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
            raise self._damaged(name, "damaged (not a list of rules)")
        return rules

    def _chapter_text(self, chapter: str) -> tuple[str, str | None]:
        """The file a chapter's rules are read from, and their JSON text
        (None when the release has no such chapter)."""
        got = self._chapters.get(chapter)
        if got is None:
            if not os.path.exists(os.path.join(self.dir, CHAPTERS)) \
                    and os.path.isdir(os.path.join(self.dir, "chapters")):
                # Stored before chapters.z: one file per chapter (`crsearch repair` packs them).
                name = f"chapters/{chapter}.json"
                if not os.path.exists(os.path.join(self.dir, name)):
                    return name, None
                return name, self._read(name, lambda p: read_bytes(p, "chapter").decode("utf-8"))
            # Kept: a lookup reads a rule and then its parent, from one inflated block.
            got = self._chapters[chapter] = (
                CHAPTERS, self._read(CHAPTERS, lambda p: read_chapter(p, chapter)))
        return got

    def rule_dicts(self, chapter: str, first: str,
                   keep: Callable[[str], bool]) -> list[dict[str, Any]]:
        """The stored rules of ``chapter`` whose ids ``keep`` accepts, in order:
        ``first`` and the rules under it (every kept id starts with ``first``).

        Equal to filtering ``chapter_dicts``, but a lookup of one rule in a
        long chapter (702 holds over a thousand) parses only the rules it
        keeps: see ``_run_of``.
        """
        name, text = self._chapter_text(chapter)
        if text is None:
            return []
        run = _run_of(text, first, keep)
        if run is None:
            rules = self.chapter_dicts(chapter)
            if not all("id" in r for r in rules):
                raise self._damaged(name, "damaged (not a list of rules)")
            run = [d for d in rules if keep(d["id"])]
        return run

    def chapter_rules(self, chapter: str) -> list[Rule]:
        return [Rule.from_dict(d) for d in self.chapter_dicts(chapter)]

    @property
    def release_name(self) -> str:
        """The file holding the whole release: ``release.json.gz`` (older stores: ``.json``)."""
        return RELEASE_FILE if os.path.exists(os.path.join(self.dir, RELEASE_FILE)) or \
            not os.path.exists(os.path.join(self.dir, "release.json")) else "release.json"

    def glossary_dicts(self) -> list[dict[str, Any]]:
        """The stored glossary entries (plain dicts), read without the rest of
        the release where the C scanner can start at them (``diff`` needs no
        more than the glossary and the changed rules)."""
        text = self._read(self.release_name, read_release_text)
        scan = json_scanner()
        # The file has sorted keys: the top-level "glossary" is the first such
        # key, and no JSON string holds an unescaped quote.
        at = text.find('"glossary":[')
        if scan is not None and at >= 0:
            try:
                got, _ = scan(text, at + len('"glossary":'))
            except (StopIteration, ValueError):
                got = None
            if isinstance(got, list) and all(isinstance(g, dict) for g in got):
                return got
        try:
            data = loads(text)
        except ValueError as e:
            raise self._damaged(self.release_name, f"damaged ({reason(e)})") from None
        got = data.get("glossary") if isinstance(data, dict) else None
        if not isinstance(got, list):
            raise self._damaged(self.release_name, "damaged (not a release)")
        return got

    def glossary_texts(self) -> list[bytes] | None:
        """Each stored glossary entry's JSON text (UTF-8), in order, unparsed
        (``loads(text.decode())`` reads one); None when the release is not
        stored so that they can be told apart unparsed (read ``glossary_dicts``).

        ``diff`` compares the entries of two releases as text and parses
        only those that differ.
        """
        if self.release_name != RELEASE_FILE:
            return None
        return self._read(RELEASE_FILE, lambda p: _read_ahead(p, _glossary_pieces))

    def release_text(self) -> str:
        """The whole release as JSON text, checked to be whole (for export)."""
        text = self._read(self.release_name, read_release_text)
        try:
            data = _json().loads(text)
        except ValueError as e:
            raise self._damaged(self.release_name, f"damaged ({reason(e)})") from None
        if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
            raise self._damaged(self.release_name, "damaged (not a release)")
        return text

    def release(self) -> Release:
        data = self._read(self.release_name, lambda p: _json().loads(read_release_text(p)))
        try:
            if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
                raise ValueError("not a release")
            return Release.from_dict(data)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise self._damaged(self.release_name, f"damaged ({reason(e)})") from None

    @property
    def index_dir(self) -> Path:
        return self.path / "index"


class Store:
    """Imported releases in one data directory."""

    def __init__(self, root: Path | str | None = None):
        self.dir = os.fspath(root) if root is not None else _default_root()

    @property
    def root(self) -> Path:
        """The data folder."""
        return _path(self.dir)

    @property
    def releases_dir(self) -> Path:
        return self.root / "releases"

    # -- reading -----------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        """The catalog's entries, checked; a damaged catalog raises DamagedStore."""
        p = os.path.join(self.dir, CATALOG)
        try:
            data = read_json(p, "catalog")
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as e:
            if isinstance(e, NotADirectoryError):
                self.check_folder()
            raise DamagedStore(f"the catalog {p} is damaged ({reason(e)}); {REPAIR}") from None
        problem = _catalog_problem(data)
        if problem:
            raise DamagedStore(f"the catalog {p} is damaged ({problem}); {REPAIR}")
        return sorted(data["releases"], key=lambda r: r["effective_date"])

    def releases(self) -> list[StoredRelease]:
        return [StoredRelease(r["effective_date"], os.path.join(self.dir, "releases", r["dir"]), r, self)
                for r in self.catalog()]

    def pick(self, date: str | None = None,
             stored: list[StoredRelease] | None = None) -> StoredRelease:
        """The release in effect on ``date`` (YYYY-MM-DD), or the latest; of
        ``stored`` (what ``releases`` returned) when given, so that picking
        two releases reads the catalog once."""
        if stored is None:
            stored = self.releases()
        if not stored:
            raise NoData(f"no releases imported yet in {short(self.dir)}: run `crsearch update` "
                         "(or `crsearch update --from FILE`)")
        if date is None or date == "latest":
            return stored[-1]
        date = normalize_date(date)
        eligible = [s for s in stored if s.effective_date <= date]
        if not eligible:
            raise NotFound(f"no imported release was in effect on {date}; the earliest is "
                           f"{stored[0].effective_date}", [stored[0].effective_date])
        return eligible[-1]

    def find_source(self, sha256: str) -> dict[str, Any] | None:
        """The catalog entry imported from exactly these bytes, if any."""
        if not sha256:
            return None
        try:
            entries = self.catalog()
        except StoreError:
            return None
        return next((r for r in entries
                     if isinstance(r.get("source"), dict) and r["source"].get("sha256") == sha256
                     and (self.releases_dir / r["dir"] / "meta.json").is_file()), None)

    # -- writing -----------------------------------------------------------
    def save(self, release: Release,
             extra: Callable[[Release, Path], None] | None = None,
             force: bool = False) -> StoredRelease:
        """Write ``release`` and make it visible in one atomic step.

        ``extra`` may add files (the search index) to the new folder before it
        is published; if it fails, nothing is published.
        """
        return self.publish(release, self.stage(release, extra), force=force)

    def check_folder(self) -> None:
        """Refuse a data dir path that names something else than a folder (a FIFO, a file)."""
        import stat

        try:
            mode = os.stat(self.dir).st_mode
        except OSError:
            return  # absent: made on the first import
        if not stat.S_ISDIR(mode):
            from crsearch.files import kind_of

            raise StoreError(f"the data folder {short(self.dir)} is {kind_of(mode)}, not a folder; "
                             "choose another with --data-dir or CRSEARCH_DATA")

    def check_ours(self) -> None:
        """Refuse a data dir whose ``releases/`` folder crsearch did not make.

        Our folders carry ``.crsearch-store``; stores made before the marker
        existed are recognised by their catalog or folder names, and marked.
        """
        self.check_folder()
        if (self.root / MARKER).is_file():
            return
        rel = self.releases_dir
        if rel.exists():
            ours = True
            try:
                fmt = read_json(self.root / CATALOG, "catalog").get("format")
                ours = fmt == FORMAT
            except Exception:  # noqa: BLE001 - absent or damaged: judge by the folders
                try:
                    ours = rel.is_dir() and all(_is_our_name(p.name) for p in rel.iterdir())
                except OSError:
                    ours = False
            if not ours:
                raise StoreError(
                    f"{short(self.root)} holds a releases/ folder that crsearch did not make; "
                    "choose an empty or crsearch data dir with --data-dir")
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / MARKER).write_text(_json().dumps({"format": FORMAT}) + "\n", encoding="utf-8")

    def stage(self, release: Release,
              extra: Callable[[Release, Path], None] | None = None,
              owner: int | None = None) -> Path:
        """Write a release into a private folder, not yet visible to readers.

        Several processes may stage at once (``update --jobs``); only
        :meth:`publish` touches what readers see.  ``owner`` is the pid whose
        death makes the folder garbage (default: this process).
        """
        import shutil
        import tempfile

        date = valid_date(release.effective_date)
        self.check_ours()
        self.releases_dir.mkdir(parents=True, exist_ok=True)
        tmp = _path(tempfile.mkdtemp(prefix=f"{STAGING}{date}-", dir=self.releases_dir))
        try:
            mark_owner(tmp, owner)
            write_release_files(release, tmp)
            if extra is not None:
                extra(release, tmp)
            if (tmp / "index").is_dir():
                write_manifest(tmp / "index")
            _sync_tree(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return tmp

    def publish(self, release: Release, staged: Path, force: bool = False) -> StoredRelease:
        """Rename a staged folder into place and replace the catalog entry.

        A stored release of the same date that is complete, or has more rules,
        is kept (``KeptRelease``) unless ``force``.  The replaced folder stays
        on disk for ``repair.RETIRE_GRACE`` seconds, for readers still using it.
        """
        import shutil

        from crsearch.store.repair import catalog_or_rebuild, sweep

        date = valid_date(release.effective_date)
        try:
            with self.lock():
                self.check_ours()
                entries = catalog_or_rebuild(self)
                sweep(self)
                old = [r for r in entries if r["effective_date"] == date]
                if old and not force:
                    refusal = _worse(release, old[0])
                    if refusal:
                        raise KeptRelease(refusal)
                key = (release.source.sha256 or "")[:8]
                if len(key) != 8 or not _HEX.fullmatch(key):
                    key = os.urandom(4).hex()
                final_name = f"{date}.{key}.{os.urandom(3).hex()}"
                final = self._inside(self.releases_dir / final_name)
                (staged / OWNER).unlink(missing_ok=True)
                os.replace(staged, final)
                entries = [r for r in entries if r["effective_date"] != date]
                entry = catalog_entry(release, final_name)
                entries.append(entry)
                self.write_catalog(entries)
                for r in old:
                    retire(self.releases_dir / r["dir"])
        finally:
            if staged.exists():
                shutil.rmtree(staged, ignore_errors=True)
        return StoredRelease(date, final, entry, self)

    def _inside(self, path: Path) -> Path:
        """``path``, checked to lie inside ``releases/`` (never follow a crafted name out)."""
        base = self.releases_dir.resolve()
        real = path.resolve()
        if real.parent != base:
            raise BadInput(f"refusing to write outside the data dir: {short(path)}")
        return path

    def replace_index(self, stored: StoredRelease,
                      build: Callable[[Path], object]) -> None:
        """Build a new index next to the old one and swap it in."""
        with self.lock():
            self.replace_index_locked(stored, build)

    def replace_index_locked(self, stored: StoredRelease,
                             build: Callable[[Path], object]) -> None:
        """:meth:`replace_index` for a caller that holds :meth:`lock` (repair)."""
        import shutil
        import tempfile

        from crsearch.store.repair import recover_index

        recover_index(stored.path)
        tmp = _path(tempfile.mkdtemp(prefix=".index-", dir=stored.path))
        try:
            mark_owner(tmp)
            build(tmp)
            (tmp / OWNER).unlink(missing_ok=True)
            write_manifest(tmp)
            old = stored.path / ".index-old"
            if stored.index_dir.exists():
                os.replace(stored.index_dir, old)
            # Killed here, there is no index/ but .index-old/ holds the last one:
            # recover_index() puts it back on the next run.
            os.replace(tmp, stored.index_dir)
            shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """One writer at a time, so sweeping never removes another's work."""
        try:
            import fcntl
        except ImportError:  # Windows: writers are rare; go without.
            yield
            return
        self.check_folder()
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def write_catalog(self, entries: list[dict[str, Any]]) -> None:
        """Replace the catalog with ``entries`` in one step (the caller holds :meth:`lock`)."""
        import tempfile

        entries = sorted(entries, key=lambda r: r["effective_date"])
        fd, tmp = tempfile.mkstemp(prefix=".catalog-", dir=self.root)
        os.close(fd)
        try:
            _write_json(_path(tmp), {"format": FORMAT, "releases": entries}, sync=True)
            os.replace(tmp, self.root / CATALOG)
        except BaseException:
            _path(tmp).unlink(missing_ok=True)
            raise

    # -- repairing (crsearch/repair.py) --------------------------------------
    def repair(self, index: IndexHooks | None = None, caches: tuple[Cache, ...] = (),
               links: Compute | None = None) -> RepairReport:
        """Check every release folder, fix what can be fixed, rebuild the catalog
        and complete the lineage table (see :func:`crsearch.store.repair.repair_store`)."""
        from crsearch.store.repair import repair_store

        return repair_store(self, index, caches, links)


def retire(folder: Path) -> None:
    """Mark a replaced release folder; the sweep deletes it after ``repair.RETIRE_GRACE``."""
    from crsearch.files import write_atomic

    try:  # in one step, as mark_owner: a half-written mark reads as long expired
        write_atomic(folder / RETIRED, repr(time.time()).encode("ascii"))
    except OSError:
        pass


MANIFEST = ".manifest.json"


def file_digest(path: Path) -> list[Any]:
    """``[size, sha256]`` of a file: one entry of an index's manifest."""
    import hashlib

    from crsearch.files import open_regular

    h = hashlib.sha256()
    with open_regular(path) as f:  # a FIFO would block repair's check for good
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return [path.stat().st_size, h.hexdigest()]


def write_manifest(folder: Path) -> None:
    """Record the size and hash of every file of an index, so repair can spot damage."""
    files = {p.name: file_digest(p) for p in sorted(folder.iterdir())
             if p.is_file() and p.name != MANIFEST and not p.name.endswith("WRITELOCK")}
    _write_json(folder / MANIFEST, files)


def _is_our_name(name: str) -> bool:
    return (bool(DIR_NAME.fullmatch(name)) or name.startswith((STAGING, DAMAGED)))


def _catalog_problem(data: Any) -> str | None:
    """What is wrong with a catalog's content, or None."""
    if not isinstance(data, dict):
        return f"a {type(data).__name__}, not a catalog"
    entries = data.get("releases")
    if not isinstance(entries, list):
        return "no list of releases"
    for n, r in enumerate(entries, 1):
        if not isinstance(r, dict):
            return f"entry {n} is not an object"
        try:
            valid_date(r.get("effective_date"))
        except BadInput:
            return f"entry {n} has no valid effective date"
        m = DIR_NAME.fullmatch(str(r.get("dir", "")))
        if not isinstance(r.get("dir"), str) or not m or m.group(1) != r["effective_date"]:
            return f"entry {n} ({r['effective_date']}) has no valid folder"
        counts = r.get("counts")
        if not isinstance(counts, dict) or not all(
                isinstance(counts.get(k), int) for k in ("rules", "subrules", "glossary")):
            return f"entry {n} ({r['effective_date']}) has no counts"
    return None


def _rule_count(counts: Any) -> int:
    if not isinstance(counts, dict):
        return 0
    return sum(int(counts.get(k) or 0) for k in ("rules", "subrules"))


def _worse(new: Release, old: dict[str, Any]) -> str | None:
    """Why ``new`` must not replace the stored entry ``old`` (None: it may)."""
    date = new.effective_date
    have, got = _rule_count(old.get("counts")), _rule_count(new.counts())
    kept = f"kept the stored {date} release ({have:,} rules and subrules" + \
        (", complete)" if old.get("complete", True) else ", incomplete)")
    name = short((new.source.name or "the new copy"), 60)
    if old.get("complete", True) and not new.complete:
        return f"{kept}: {name} is incomplete ({got:,} rules and subrules); use --force to replace it"
    if got < have:
        return f"{kept}: {name} has fewer ({got:,}); use --force to replace it"
    return None


# A chapter file is a list of ``Rule.to_dict()`` objects written by
# ``_write_json`` (sorted keys, no spaces), so each rule object starts with
# '{"cited_by":' and holds '"id":"<id>","kind":'.  Neither can occur inside
# a JSON string, where every quote is escaped.
_RULE_START = '{"cited_by":'
_ID = '"id":"'


def _rule_at(text: str, id: str, last: bool = False) -> tuple[int, int]:
    """Where rule ``id``'s ``"id"`` key (the first or ``last`` one) and the
    object holding it start in a chapter file's ``text``; -1 when not there."""
    key = f'{_ID}{id}","kind":'
    at = text.rfind(key) if last else text.find(key)
    return at, (text.rfind(_RULE_START, 0, at) if at >= 0 else -1)


def _run_of(text: str, first: str,
            keep: Callable[[str], bool]) -> list[dict[str, Any]] | None:
    """The rules ``keep`` accepts, parsed from the object of rule ``first`` on,
    when they stand together in ``text``; None when that cannot be shown
    (another format, a kept rule elsewhere, no C scanner): parse it all then."""
    scan = json_scanner()
    at, start = _rule_at(text, first)
    if scan is None or start < 0 or not _ends_whole(text, scan):
        return None
    out: list[dict[str, Any]] = []
    end = start
    try:
        while True:
            obj, after = scan(text, start)
            if not keep(obj["id"]):
                break
            out.append(obj)
            end = after
            if text[after:after + 1] != ",":
                if text[after:after + 1] != "]":
                    return None
                break
            start = after + 1
    except (StopIteration, ValueError, KeyError, TypeError, SystemError):
        # SystemError: how the scanner fails on a cut file before json is loaded.
        return None
    if not out or out[0]["id"] != first:
        return None
    # Kept rules outside the run (a repeated id, an odd order): parse it all.
    i = text.find(_ID + first)
    while i >= 0:
        j = text.find('"', i + len(_ID))
        if (i < at or i >= end) and keep(text[i + len(_ID):j]):
            return None
        i = text.find(_ID + first, j)
    return out


def rule_keys(text: str) -> dict[str, int]:
    """Where the last ``"id"`` key of each rule stands in a chapter file's
    ``text``: ``_rule_at(text, id, last=True)[0]`` of every id, in one pass
    (a reader of many rules of one chapter searches it once, not per rule)."""
    import re

    return {m[1]: m.start() for m in re.finditer(r'"id":"([^"]*)","kind":', text)}


def last_rule_of(text: str, id: str, keys: dict[str, int] | None = None) -> dict[str, Any] | None:
    """The last object of rule ``id`` in a chapter file's ``text`` (what parsing
    it all and keeping the last rule of each id gives), parsed alone; None
    when that cannot be shown (another format, a cut file, no C scanner):
    parse it all then.  A search reads a few rules of many chapters.
    ``keys``: the text's ``rule_keys``, when the caller keeps them."""
    scan = json_scanner()
    if keys is None:
        start = _rule_at(text, id, last=True)[1]
    else:
        at = keys.get(id, -1)
        start = text.rfind(_RULE_START, 0, at) if at >= 0 else -1
    if scan is None or start < 0:
        return None
    try:
        obj, _ = scan(text, start)
    except (StopIteration, ValueError, SystemError):
        return None
    return obj if isinstance(obj, dict) and obj.get("id") == id else None


def chapter_whole(text: str) -> bool:
    """True when a chapter file's text ends with a whole rule that closes the list
    (a cut file does not, wherever it was cut)."""
    scan = json_scanner()
    return scan is not None and _ends_whole(text, scan)


def _ends_whole(text: str, scan: Callable[[str, int], tuple[Any, int]]) -> bool:
    """True when the last rule object of a chapter's text is whole and closes the list.

    A cut file fails this wherever it was cut (its last object is open, or
    the list is), so a lookup that parses only its own rules still notices.
    """
    tail = text.rstrip(" \t\n\r")
    last = tail.rfind(_RULE_START)
    if not tail.endswith("]") or last < 0:
        return False
    try:
        _, end = scan(tail, last)
    except (StopIteration, ValueError, SystemError):
        return False
    return end == len(tail) - 1


def catalog_entry(release: Release, dirname: str) -> dict[str, Any]:
    return {
        "effective_date": release.effective_date,
        "dir": dirname,
        "counts": release.counts(),
        "complete": release.complete,
        "unplaced_lines": len(release.unplaced),
        "source": release.source.to_dict(),
    }


def by_chapter(release: Release, rules: list[dict[str, Any]] | None = None
               ) -> dict[str, list[dict[str, Any]]]:
    """What each chapter file of ``release`` holds, by chapter id (``rules``:
    its rules' ``to_dict()``, when already made)."""
    by_chapter: dict[str, list[dict[str, Any]]] = {c.id: [] for c in release.chapters}
    dicts = rules if rules is not None else [r.to_dict() for r in release.rules]
    for r, d in zip(release.rules, dicts):
        by_chapter.setdefault(r.chapter, []).append(d)
    return by_chapter


def write_release_files(release: Release, folder: Path) -> None:
    """Write the files of one release into ``folder``."""
    import gzip

    # The whole release repeats the chapters; only export, the index and
    # the site read it, so it is kept compressed (about a fifth of the size).
    data = release.to_dict()
    text = _dumps(data)
    with open(folder / RELEASE_FILE, "wb") as f:
        f.write(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    # One file, not one per chapter: 147 small files took 1.5 MB on disk
    # (a block each at least), the pack 0.3 MB.
    with open(folder / CHAPTERS, "wb") as f:
        f.write(pack_chapters(by_chapter(release, data["rules"])))
    _write_json(folder / "meta.json", meta_of(release))


def meta_of(release: Release) -> dict[str, Any]:
    """The small part of a release that every lookup needs."""
    return {
        "effective_date": release.effective_date,
        "title": release.title,
        "complete": release.complete,
        "sections": [s.to_dict() for s in release.sections],
        "chapters": [c.to_dict() for c in release.chapters],
        "rule_ids": [r.id for r in release.rules],
        "counts": release.counts(),
    }


def sections_and_chapters(meta: dict[str, Any]) -> tuple[list[Section], list[Chapter]]:
    return ([Section.from_dict(s) for s in meta["sections"]],
            [Chapter.from_dict(c) for c in meta["chapters"]])


def normalize_date(text: str) -> str:
    """Accept YYYY-MM-DD (or YYYY-MM, YYYY); return a comparable date string."""
    import re

    t = text.strip()
    m = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", t)
    if not m:
        raise BadInput(f"'{short(text, 40)}' is not a date: use YYYY-MM-DD")
    y, mo, d = m.group(1), m.group(2), m.group(3)
    if mo is None:
        return f"{y}-12-31"
    if not 1 <= int(mo) <= 12 or (d is not None and not 1 <= int(d) <= 31):
        raise BadInput(f"'{short(text, 40)}' is not a date: use YYYY-MM-DD")
    if d is None:
        return f"{y}-{int(mo):02d}-31"
    return f"{y}-{int(mo):02d}-{int(d):02d}"
