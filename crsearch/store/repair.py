"""Repairing a data directory: what ``crsearch repair`` checks and fixes.

``store.py`` writes atomically, so an interrupted run never leaves a
half-written file in view.  What it can leave behind is a staging folder of
a dead process, a replaced release folder past its grace period or an index
swap killed between its two renames; and files can be damaged from outside.
This module finds and fixes those.  The store calls :func:`catalog_or_rebuild`
and :func:`sweep` under its lock before it publishes a release;
``Store.repair`` runs everything (:func:`repair_store`).  A rule lookup never
imports it.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crsearch.errors import BadInput, DamagedStore, StoreError, reason
from crsearch.files import write_atomic
from crsearch.rules.model import Release
from crsearch.store.datadir import (
    CATALOG,
    CHAPTERS,
    DAMAGED,
    DIR_NAME,
    MANIFEST,
    OWNER,
    REPAIR,
    RETIRED,
    STAGING,
    StoredRelease,
    by_chapter,
    catalog_entry,
    chapter_ids,
    file_digest,
    loads,
    meta_of,
    pack_chapters,
    read_chapter,
    read_json,
    read_release_text,
    retire,
    valid_date,
    write_json_atomic,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from crsearch.store.datadir import Store
    from crsearch.store.lineage import Compute

STAGING_GRACE = 3600  # seconds a staging folder of a live process is left alone
RETIRE_GRACE = 600  # seconds a replaced release stays for readers that still hold it


@dataclass(frozen=True)
class IndexHooks:
    """What repair needs from the search index, handed in by the caller so
    that the store never imports the search: whether an index folder can be
    read, and how to build one for a release into an empty folder."""

    readable: Callable[[Path], bool]
    build: Callable[[Release, Path], object]


@dataclass(frozen=True)
class Cache:
    """A cache file beside each release that repair checks and rebuilds: what
    is wrong with it (None: nothing, or no cache yet) and how to write it."""

    name: str
    problem: Callable[[StoredRelease], str | None]
    write: Callable[[StoredRelease, Release], object]


def _store_caches() -> tuple[Cache, ...]:
    from crsearch.store import caches

    return (Cache(caches.CACHE_NAME, caches.cache_problem, caches.write_cache),)


class RepairReport:
    """What :meth:`Store.repair` found and did, one line per fact."""

    def __init__(self) -> None:
        self.releases = 0
        self.fixed: list[str] = []
        self.dropped: list[str] = []
        self.removed: list[str] = []
        #: The card data found in good order ("card data 2026-11-30 (35,033 cards)"), if any.
        self.cards: str | None = None

    def lines(self) -> list[str]:
        return [*self.fixed, *self.dropped, *self.removed]

    def __repr__(self) -> str:
        return (f"<RepairReport: {self.releases} releases, {len(self.fixed)} fixed, "
                f"{len(self.dropped)} set aside, {len(self.removed)} removed>")


def repair_store(store: Store, index: IndexHooks | None = None,
                 caches: tuple[Cache, ...] = (), links: Compute | None = None) -> RepairReport:
    """Check every release folder, fix what can be fixed, rebuild the catalog.

    Chapter files and ``meta.json`` are rewritten from ``release.json``; a
    release whose ``release.json`` is damaged is set aside (renamed
    ``.damaged-…``) and must be imported again.  A damaged search index is
    rebuilt when ``index`` says how; the lineage table is completed (or
    rebuilt, when damaged) when ``links`` says how to compute a link.
    """
    from crsearch.store.lineage import relink_locked

    report = RepairReport()
    with store.lock():
        store.check_ours()
        rebuild_catalog(store, report, index, caches)
        sweep(store, report)
        if links is not None:
            done = relink_locked(store, links)
            if done:
                report.fixed.append(f"linked {len(done)} pair{'s' if len(done) != 1 else ''} of "
                                    "neighbouring releases in the lineage table")
    return report


def catalog_or_rebuild(store: Store) -> list[dict[str, Any]]:
    """The catalog; rebuilt first if it is damaged, or missing beside releases.

    The caller holds the store's lock.
    """
    try:
        entries = store.catalog()
    except DamagedStore:
        entries = None
    if entries is None or (not (store.root / CATALOG).exists() and _has_releases(store)):
        rebuild_catalog(store, RepairReport())
        entries = store.catalog()
    return entries


def _has_releases(store: Store) -> bool:
    try:
        return any(DIR_NAME.fullmatch(p.name) for p in store.releases_dir.iterdir())
    except OSError:
        return False


def sweep(store: Store, report: RepairReport | None = None) -> None:
    """Remove what crsearch left behind, and nothing else.

    Only two kinds of folder are ever deleted: a staging folder whose
    writer is gone, and one of our release folders that the catalog has
    not listed for RETIRE_GRACE seconds.  Unknown folders are left alone.
    The caller holds the store's lock.
    """
    rel = store.releases_dir
    if not rel.is_dir():
        return
    known = {r["dir"] for r in store.catalog()}
    now = time.time()
    for p in rel.iterdir():
        name = p.name
        if name in known or not p.is_dir():
            continue
        gone = False
        if name.startswith(STAGING):
            gone = abandoned(p)
        elif DIR_NAME.fullmatch(name) and (p / "meta.json").is_file():
            try:
                since = float((p / RETIRED).read_text(encoding="ascii"))
            except FileNotFoundError:
                # Renamed into place but never listed (a killed import), or
                # listed by a catalog since lost: start its grace period
                # now; repair can still bring it back until it ends.
                retire(p)
                continue
            except (OSError, ValueError):
                since = 0.0
            gone = now - since > RETIRE_GRACE
        if gone:
            shutil.rmtree(p, ignore_errors=True)
            if report is not None:
                report.removed.append(f"removed the leftover folder releases/{name}")
    for p in store.root.glob(".catalog-*"):
        p.unlink(missing_ok=True)
    for name in known:
        recover_index(rel / name)


def rebuild_catalog(store: Store, report: RepairReport, index: IndexHooks | None = None,
                    caches: tuple[Cache, ...] = ()) -> None:
    """Check every release folder and write the catalog of those that are whole.

    The caller holds the store's lock.
    """
    rel = store.releases_dir
    try:
        entries = store.catalog()
    except DamagedStore as e:
        report.fixed.append(f"rebuilt the damaged catalog from the release folders ({e})"
                            .replace(f"; {REPAIR}", ""))
        entries = []
    listed = {r["dir"] for r in entries}
    candidates: dict[str, list[tuple[int, float, Path]]] = {}
    if rel.is_dir():
        for p in rel.iterdir():
            m = DIR_NAME.fullmatch(p.name)
            if not m or not p.is_dir():
                continue
            # Prefer what the catalog listed, then live over retired, then newest.
            rank = 2 if p.name in listed else (0 if (p / RETIRED).exists() else 1)
            try:
                mtime = (p / "meta.json").stat().st_mtime
            except OSError:
                mtime = 0.0
            candidates.setdefault(m.group(1), []).append((rank, mtime, p))
    fresh: list[dict[str, Any]] = []
    for date in sorted(candidates):
        try:
            valid_date(date)
        except BadInput:
            continue
        for _, _, p in sorted(candidates[date], reverse=True):
            entry = _check_release(store, p, date, report, index, caches)
            if entry is None:
                continue
            fresh.append(entry)
            (p / RETIRED).unlink(missing_ok=True)
            for _, _, other in candidates[date]:
                if other != p and other.exists() and not (other / RETIRED).exists():
                    retire(other)
            break
    kept = {e["effective_date"] for e in fresh}
    for old_entry in entries:
        day = old_entry["effective_date"]
        if day not in kept and not any(
                line.startswith(f"release {day}:") for line in report.dropped):
            report.dropped.append(f"release {day}: its folder is gone; import "
                                  "it again with `crsearch update --from FILE`")
    report.releases = len(fresh)
    if fresh != entries or not (store.root / CATALOG).exists():
        if fresh or entries or (store.root / CATALOG).exists():
            store.write_catalog(fresh)


def _check_release(store: Store, folder: Path, date: str, report: RepairReport,
                   hooks: IndexHooks | None = None,
                   caches: tuple[Cache, ...] = ()) -> dict[str, Any] | None:
    """The catalog entry of one release folder, fixing its small files."""
    try:
        name = StoredRelease(date, folder, {}).release_name
        data = json.loads(read_release_text(folder / name))
        release = Release.from_dict(data)
        if release.effective_date != date or not release.rules:
            raise ValueError("not the release its folder names")
    except Exception as e:  # noqa: BLE001 - any damage means the same thing here
        damaged = folder.with_name(DAMAGED + folder.name)
        try:
            os.replace(folder, damaged)
        except OSError:
            pass
        report.dropped.append(
            f"release {date}: the release file is damaged ({reason(e)}); set aside as "
            f"releases/{damaged.name}: import it again with `crsearch update --from FILE`")
        return None
    stored = StoredRelease(date, folder, {})
    try:
        meta = stored.meta()
        if meta != meta_of(release):
            raise ValueError("out of date")
    except (StoreError, ValueError):
        _rewrite(folder / "meta.json", date, report,
                 functools.partial(write_json_atomic, folder / "meta.json", meta_of(release)))
        report.fixed.append(f"release {date}: rewrote meta.json")
    _check_chapters(folder, date, by_chapter(release), report)
    _check_caches(stored, release, report, _store_caches() + caches)
    recover_index(folder)
    index = folder / "index"
    if hooks is not None and index.exists() and not _index_ok(index, hooks):
        store.replace_index_locked(StoredRelease(date, folder, {}),
                                   lambda path: hooks.build(release, path))
        report.fixed.append(f"release {date}: rebuilt the search index")
    return catalog_entry(release, folder.name)


def _check_chapters(folder: Path, date: str, chapters: dict[str, list[dict[str, Any]]],
                    report: RepairReport) -> None:
    """Rewrite ``chapters.z`` unless it holds exactly ``chapters``; pack the
    chapter files of an older layout into it."""
    pack = folder / CHAPTERS
    try:
        ok = chapter_ids(pack) == list(chapters) and all(
            loads(read_chapter(pack, c) or "null") == rules for c, rules in chapters.items())
    except (OSError, ValueError):
        ok = False
    old = folder / "chapters"
    if not ok:
        _rewrite(pack, date, report, functools.partial(write_atomic, pack,
                                                        pack_chapters(chapters), sync=True))
        report.fixed.append(f"release {date}: " + (
            f"packed the chapter files into {CHAPTERS} (the layout of this version)"
            if old.is_dir() and not old.is_symlink() else f"rewrote {CHAPTERS}"))
    if old.is_symlink() or old.exists() and not old.is_dir():
        _set_aside(old, "not a folder", date, report)
    elif old.is_dir():
        shutil.rmtree(old, ignore_errors=True)  # ours, and now in chapters.z


def _check_caches(stored: StoredRelease, release: Release, report: RepairReport,
                  caches: tuple[Cache, ...]) -> None:
    """Rebuild the damaged caches beside a release (a missing one is built on first use)."""
    for cache in caches:
        problem = cache.problem(stored)
        if problem:
            _rewrite(stored.path / cache.name, stored.effective_date, report,
                     functools.partial(cache.write, stored, release))
            report.fixed.append(f"release {stored.effective_date}: rebuilt {cache.name} ({problem})")


def _rewrite(path: Path, date: str, report: RepairReport, write: Callable[[], object]) -> None:
    """Write a damaged file ``path`` of a release anew with ``write()``.

    Whatever is in its place is replaced, except a folder: that is set
    aside, not deleted.  A write that fails names the file in full.
    """
    if path.is_dir() and not path.is_symlink():
        _set_aside(path, "a folder", date, report)
    try:
        path.parent.mkdir(exist_ok=True)
        write()
    except OSError as e:
        raise StoreError(f"release {date}: cannot rewrite {path}: {e.strerror or e}") from None


def _set_aside(path: Path, what: str, date: str, report: RepairReport) -> None:
    """Rename what stands where a file or folder of ours belongs: ``.damaged-NAME-XXXXXX`` beside it."""
    aside = path.with_name(f"{DAMAGED}{path.name}-{os.urandom(3).hex()}")
    try:
        os.replace(path, aside)
    except OSError as e:
        raise StoreError(f"release {date}: cannot set aside {path}: {e.strerror or e}") from None
    report.fixed.append(f"release {date}: set aside {path} ({what}) as {aside.name}")


def recover_index(folder: Path) -> None:
    """Finish an index swap that was killed between its two renames."""
    index, old = folder / "index", folder / ".index-old"
    try:
        if not index.exists() and old.is_dir():
            os.replace(old, index)
    except OSError:
        return
    _clean_index_leftovers(folder)


def _clean_index_leftovers(folder: Path) -> None:
    try:
        leftovers = [p for p in folder.glob(".index-*") if p.is_dir()]
    except OSError:
        return
    for p in leftovers:
        if p.name == ".index-old":
            if (folder / "index").exists():
                shutil.rmtree(p, ignore_errors=True)
        elif not (p / OWNER).exists() or abandoned(p):
            # Called only under the store's lock: an unmarked .index-* folder
            # is a killed run's (or an older crsearch's), a marked one is
            # removed once its writer is gone.
            shutil.rmtree(p, ignore_errors=True)


def _index_ok(index: Path, hooks: IndexHooks) -> bool:
    try:
        if not hooks.readable(index):
            return False
        if (index / MANIFEST).is_file():
            want = read_json(index / MANIFEST, "index")
            return all(file_digest(index / name) == list(v) for name, v in want.items())
        if (index / "fast.json").exists():
            read_json(index / "fast.json", "index")
    except Exception:  # noqa: BLE001 - damaged, whatever the kind
        return False
    return True


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


def abandoned(folder: Path, grace: float = STAGING_GRACE) -> bool:
    """True for our own temporary folder whose writer is gone (or very old)."""
    try:
        text = (folder / OWNER).read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return False  # not ours (or not yet marked): never delete it
    try:
        age = time.time() - folder.stat().st_mtime
    except OSError:
        return False
    if age > grace:
        return True
    # An empty or garbled mark is one being written (by an older crsearch
    # that did not write it in one step), not a dead writer's.
    return text.isdigit() and not _pid_alive(int(text))
