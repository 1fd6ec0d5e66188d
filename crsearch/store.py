"""The data directory: imported releases on disk, written atomically, read fast.

Layout::

    DATA/catalog.json                 which releases exist and where
    DATA/releases/<date>.<hash>/      one imported release
        meta.json                     headings, counts, report: small
        chapters/<NNN>.json           the rules of one chapter
        release.json                  the whole release (export, index, site)
        index/                        the Whoosh index (see ``index.py``)

A rule lookup reads the catalog, ``meta.json`` and one chapter file, never the
whole release; that path works on plain ``os.path`` strings, since importing
``pathlib`` costs a lookup more than reading its chapter.  Every write goes to a temporary folder that is renamed into
place, and the catalog is replaced with ``os.replace``: an interrupted update
leaves the previous state as it was.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any

from crsearch.errors import BadInput, NotFound, StoreError
from crsearch.model import Chapter, Release, Rule, Section

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


def _path(*parts: str) -> Path:
    from pathlib import Path

    return Path(*parts)

CATALOG = "catalog.json"
FORMAT = 1
_STAGING = ".tmp-"
STAGING_GRACE = 3600  # seconds a staging folder is assumed to be in use


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


def _write_json(path: Path, data: Any, sync: bool = False) -> None:
    import json

    # json.dumps, not json.dump: only the one-shot form uses the C encoder,
    # which makes writing a release several times faster.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        if sync:
            f.flush()
            os.fsync(f.fileno())


def _sync_tree(folder: Path) -> None:
    """Flush a freshly written folder to disk before it is renamed into place."""
    for p in folder.rglob("*"):
        if p.is_file():
            fd = os.open(p, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _read_json(path: str | Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return loads(f.read())


class _Plain:
    """What the C scanner asks of a JSON decoder: plain dicts, lists and numbers."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = float  # "NaN", "Infinity", "-Infinity"

    def __init__(self) -> None:
        self.memo: dict[str, str] = {}


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
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
    scan = _scanner()
    if scan is not None:
        start = len(text) - len(text.lstrip(" \t\n\r"))
        try:
            value, end = scan(text, start)
        except (StopIteration, ValueError):
            pass
        else:
            if not text[end:].strip(" \t\n\r"):
                return value
    import json

    return json.loads(text)


class StoredRelease:
    """One entry of the catalog: a release on disk."""

    def __init__(self, effective_date: str, path: str | Path, info: dict[str, Any]):
        self.effective_date = effective_date
        self.dir = os.fspath(path)
        self.info = info

    @property
    def path(self) -> Path:
        """The release's folder."""
        return _path(self.dir)

    def meta(self) -> dict[str, Any]:
        return _read_json(os.path.join(self.dir, "meta.json"))

    def chapter_dicts(self, chapter: str) -> list[dict[str, Any]]:
        """The rules of one chapter as stored (plain dicts, document order)."""
        p = os.path.join(self.dir, "chapters", f"{chapter}.json")
        if not os.path.exists(p):
            return []
        return _read_json(p)

    def rule_dicts(self, chapter: str, first: str,
                   keep: Callable[[str], bool]) -> list[dict[str, Any]]:
        """The stored rules of ``chapter`` whose ids ``keep`` accepts, in order:
        ``first`` and the rules under it (every kept id starts with ``first``).

        Equal to filtering ``chapter_dicts``, but a lookup of one rule in a
        long chapter (702 holds over a thousand) parses only the rules it
        keeps: see ``_run_of``.
        """
        p = os.path.join(self.dir, "chapters", f"{chapter}.json")
        if not os.path.exists(p):
            return []
        with open(p, encoding="utf-8") as f:
            text = f.read()
        run = _run_of(text, first, keep)
        if run is None:
            run = [d for d in loads(text) if keep(d["id"])]
        return run

    def chapter_rules(self, chapter: str) -> list[Rule]:
        return [Rule.from_dict(d) for d in self.chapter_dicts(chapter)]

    def release(self) -> Release:
        return Release.from_dict(_read_json(self.path / "release.json"))

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

    # -- reading -----------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        p = os.path.join(self.dir, CATALOG)
        if not os.path.exists(p):
            return []
        try:
            data = _read_json(p)
        except (OSError, ValueError) as e:
            raise StoreError(f"the catalog {p} is damaged ({e}); run `crsearch update` again") from None
        return sorted(data.get("releases", []), key=lambda r: r["effective_date"])

    def releases(self) -> list[StoredRelease]:
        return [StoredRelease(r["effective_date"], os.path.join(self.dir, "releases", r["dir"]), r)
                for r in self.catalog()]

    def pick(self, date: str | None = None) -> StoredRelease:
        """The release in effect on ``date`` (YYYY-MM-DD), or the latest."""
        stored = self.releases()
        if not stored:
            raise StoreError(
                f"no releases imported in {self.dir}; run `crsearch update` "
                "(or `crsearch update --from FILE`) first")
        if date is None or date == "latest":
            return stored[-1]
        date = normalize_date(date)
        eligible = [s for s in stored if s.effective_date <= date]
        if not eligible:
            raise NotFound(f"no imported release was in effect on {date}; the earliest is "
                           f"{stored[0].effective_date}", [stored[0].effective_date])
        return eligible[-1]

    # -- writing -----------------------------------------------------------
    def save(self, release: Release,
             extra: Callable[[Release, Path], None] | None = None) -> StoredRelease:
        """Write ``release`` and make it visible in one atomic step.

        ``extra`` may add files (the search index) to the new folder before it
        is published; if it fails, nothing is published.
        """
        return self.publish(release, self.stage(release, extra))

    def stage(self, release: Release,
              extra: Callable[[Release, Path], None] | None = None) -> Path:
        """Write a release into a private folder, not yet visible to readers.

        Several processes may stage at once (``update --jobs``); only
        :meth:`publish` touches what readers see.
        """
        import shutil
        import tempfile

        releases_dir = self.root / "releases"
        releases_dir.mkdir(parents=True, exist_ok=True)
        tmp = _path(tempfile.mkdtemp(prefix=f"{_STAGING}{release.effective_date}-", dir=releases_dir))
        try:
            write_release_files(release, tmp)
            if extra is not None:
                extra(release, tmp)
            _sync_tree(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return tmp

    def publish(self, release: Release, staged: Path) -> StoredRelease:
        """Rename a staged folder into place and replace the catalog entry."""
        import shutil

        releases_dir = self.root / "releases"
        try:
            with self._lock():
                self._sweep(releases_dir)
                key = release.source.sha256[:8] or os.urandom(4).hex()
                final_name = f"{release.effective_date}.{key}.{os.urandom(3).hex()}"
                final = releases_dir / final_name
                os.replace(staged, final)
                catalog = self.catalog()
                old = [r for r in catalog if r["effective_date"] == release.effective_date]
                entries = [r for r in catalog if r["effective_date"] != release.effective_date]
                entries.append(catalog_entry(release, final_name))
                self._write_catalog(entries)
                for r in old:
                    shutil.rmtree(releases_dir / r["dir"], ignore_errors=True)
        finally:
            if staged.exists():
                shutil.rmtree(staged, ignore_errors=True)
        return StoredRelease(release.effective_date, final, entries[-1])

    def replace_index(self, stored: StoredRelease,
                      build: Callable[[Path], None]) -> None:
        """Build a new index next to the old one and swap it in."""
        with self._lock():
            self._replace_index_locked(stored, build)

    def _replace_index_locked(self, stored: StoredRelease,
                              build: Callable[[Path], None]) -> None:
        import shutil
        import tempfile

        tmp = _path(tempfile.mkdtemp(prefix=".index-", dir=stored.path))
        try:
            build(tmp)
            old = stored.path / ".index-old"
            if stored.index_dir.exists():
                os.replace(stored.index_dir, old)
            os.replace(tmp, stored.index_dir)
            shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """One writer at a time, so sweeping never removes another's work."""
        try:
            import fcntl
        except ImportError:  # Windows: writers are rare; go without.
            yield
            return
        with open(self.root / ".lock", "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def _write_catalog(self, entries: list[dict[str, Any]]) -> None:
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

    def _sweep(self, releases_dir: Path) -> None:
        """Remove leftovers of interrupted writes and unreferenced folders.

        A staging folder is left alone while it is fresh: another process
        may still be writing it.
        """
        import shutil
        import time

        known = {r["dir"] for r in self.catalog()}
        for p in releases_dir.iterdir():
            if p.name in known:
                continue
            if p.name.startswith(_STAGING) and time.time() - p.stat().st_mtime < STAGING_GRACE:
                continue
            shutil.rmtree(p, ignore_errors=True)
        for p in self.root.glob(".catalog-*"):
            p.unlink(missing_ok=True)


# A chapter file is a list of ``Rule.to_dict()`` objects written by
# ``_write_json`` (sorted keys, no spaces), so each rule object starts with
# '{"cited_by":' and holds '"id":"<id>","kind":'.  Neither can occur inside
# a JSON string, where every quote is escaped.
_RULE_START = '{"cited_by":'
_ID = '"id":"'


def _run_of(text: str, first: str,
            keep: Callable[[str], bool]) -> list[dict[str, Any]] | None:
    """The rules ``keep`` accepts, parsed from the object of rule ``first`` on,
    when they stand together in ``text``; None when that cannot be shown
    (another format, a kept rule elsewhere, no C scanner): parse it all then."""
    scan = _scanner()
    at = text.find(f'{_ID}{first}","kind":')
    start = text.rfind(_RULE_START, 0, at) if at >= 0 else -1
    if scan is None or start < 0:
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
                break
            start = after + 1
    except (StopIteration, ValueError, KeyError, TypeError):
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


def catalog_entry(release: Release, dirname: str) -> dict[str, Any]:
    return {
        "effective_date": release.effective_date,
        "dir": dirname,
        "counts": release.counts(),
        "complete": release.complete,
        "unplaced_lines": len(release.unplaced),
        "source": release.source.to_dict(),
    }


def write_release_files(release: Release, folder: Path) -> None:
    """Write the files of one release into ``folder``."""
    (folder / "chapters").mkdir(parents=True, exist_ok=True)
    _write_json(folder / "release.json", release.to_dict())
    by_chapter: dict[str, list[dict[str, Any]]] = {c.id: [] for c in release.chapters}
    for r in release.rules:
        by_chapter.setdefault(r.chapter, []).append(r.to_dict())
    for chapter, rules in by_chapter.items():
        _write_json(folder / "chapters" / f"{chapter}.json", rules)
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
        raise BadInput(f"'{text}' is not a date: use YYYY-MM-DD")
    y, mo, d = m.group(1), m.group(2), m.group(3)
    if mo is None:
        return f"{y}-12-31"
    if not 1 <= int(mo) <= 12 or (d is not None and not 1 <= int(d) <= 31):
        raise BadInput(f"'{text}' is not a date: use YYYY-MM-DD")
    if d is None:
        return f"{y}-{int(mo):02d}-31"
    return f"{y}-{int(mo):02d}-{int(d):02d}"
