"""Putting a built site into its folder without losing anything that is not the site's.

A build is staged in a hidden folder beside OUT (``.OUT-xxxxxxxx``, made
with ``mkdtemp`` and marked with the builder's pid like the store's staging
folders) and published at the end.  The site lists every file it wrote,
with its SHA-256, in :data:`WRITTEN`; a later build replaces or removes a
file only when that list names it and the file is still what was written.
Anything else in OUT (a gh-pages checkout's ``.git``, a ``CNAME``, notes, a
page edited by hand) stays, and a new file that would overwrite one of them
stops the build before anything changes.  A marker file such as
``crsearch-site.json`` proves nothing: it is a file like the others.

Publishing: when OUT holds nothing but the earlier build's files, the staged
folder takes its place in two renames (readers see the old site or the new
one, as before); otherwise (other files beside the site, or OUT is the
current folder or a mount point) the new files are moved in one at a time,
each replacing its old version atomically, and the old build's leftovers
are removed after.  Throughout, the list in OUT names every file of either
build, so a build killed half-way leaves nothing a later one cannot tell
apart.  The next build removes a killed build's staging folder once its
writer is gone, and nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from crsearch.errors import BadInput
from crsearch.files import write_atomic

#: The files a build wrote, each with the SHA-256 of what it wrote.
WRITTEN = ".crsearch-site-files.json"
#: No real list comes near this (a site of every release: about 30 MB).
MAX_WRITTEN = 256 * 2**20
_HEX64 = re.compile(r"[0-9a-f]{64}")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

#: Path inside the site ("api/rules/702.19c.json") -> the digests it may have.
Written = dict[str, list[str]]


# -- the list of written files ------------------------------------------------

def _valid_name(name: object) -> bool:
    """A relative path with "/" between plain parts: no "..", no "/x", no "a//b"."""
    if not isinstance(name, str) or not name or "\x00" in name or "\\" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def _open_regular(path: Path) -> int | None:
    """A descriptor of the regular file ``path`` (never through a final symlink,
    never blocking on a FIFO), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def _digest(path: Path) -> str | None:
    """The SHA-256 of a regular file, or None when it is anything else."""
    fd = _open_regular(path)
    if fd is None:
        return None
    h = hashlib.sha256()
    with os.fdopen(fd, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def read_written(folder: Path) -> Written | None:
    """The list of written files in ``folder``; None when it has none that
    crsearch could have written.  Names that could point outside the folder
    are dropped."""
    fd = _open_regular(folder / WRITTEN)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_WRITTEN + 1)
    try:
        doc = json.loads(data) if len(data) <= MAX_WRITTEN else None
    except ValueError:
        return None
    if not isinstance(doc, dict) or doc.get("generator") != "crsearch" \
            or not isinstance(doc.get("files"), dict):
        return None
    return {name: [d for d in digests if isinstance(d, str) and _HEX64.fullmatch(d)]
            for name, digests in doc["files"].items()
            if _valid_name(name) and name != WRITTEN and isinstance(digests, list)}


def _dump(written: Written) -> bytes:
    return (json.dumps({"generator": "crsearch", "files": written}, sort_keys=True, indent=0)
            + "\n").encode("utf-8")


def record(staged: Path) -> tuple[int, int]:
    """Write the list of the files in ``staged`` (but its staging mark);
    returns how many files the site has and their bytes, the list included."""
    from crsearch.store.datadir import OWNER

    written: Written = {}
    size = 0
    for dirpath, dirnames, filenames in os.walk(staged):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath, name)
            rel = path.relative_to(staged).as_posix()
            if rel in (OWNER, WRITTEN):
                continue
            written[rel] = [hashlib.sha256(path.read_bytes()).hexdigest()]
            size += path.stat().st_size
    data = _dump(written)
    (staged / WRITTEN).write_bytes(data)
    return len(written) + 1, size + len(data)


# -- what in a folder is the site's --------------------------------------------------

def _ancestors(name: str) -> list[str]:
    """"a/b/c.html" -> ["a", "a/b"]."""
    parts = name.split("/")[:-1]
    return ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]


def _plain_folders(folder: Path, name: str) -> bool:
    """Whether every folder on the way to ``name`` is a real folder (no symlink)."""
    for up in _ancestors(name):
        try:
            if not stat.S_ISDIR(os.lstat(folder / up).st_mode):
                return False
        except OSError:
            return False
    return True


def _is_ours(folder: Path, name: str, written: Written) -> bool:
    """Whether ``folder/name`` is a file a build wrote there and still what it wrote."""
    digests = written.get(name) or []
    return bool(digests) and _plain_folders(folder, name) and _digest(folder / name) in digests


def _same_bytes(a: Path, b: Path) -> bool:
    try:
        if os.lstat(a).st_size != os.lstat(b).st_size:
            return False
    except OSError:
        return False
    return _digest(a) == _digest(b) is not None


def _conflicts(out: Path, staged: Path, new: Written, old: Written | None,
               ours: set[str]) -> list[str]:
    """The paths of ``out`` the new files would overwrite that are not ours."""
    bad: set[str] = set()
    folders: dict[str, bool] = {}
    for name in new:
        blocked = False
        for up in _ancestors(name):
            if up not in folders:
                try:
                    folders[up] = stat.S_ISDIR(os.lstat(out / up).st_mode)
                except FileNotFoundError:
                    folders[up] = True  # made by the build
                except OSError:
                    folders[up] = False
            if not folders[up]:
                bad.add(up)
                blocked = True
                break
        if blocked or name in ours or not os.path.lexists(out / name):
            continue
        if not _same_bytes(out / name, staged / name):
            bad.add(name)
    if old is None and os.path.lexists(out / WRITTEN):
        bad.add(WRITTEN)
    return sorted(bad)


def _only_ours(out: Path, ours: set[str], has_list: bool) -> bool:
    """Whether ``out`` holds nothing but the files in ``ours`` (and their folders)."""
    folders = {up for name in ours for up in _ancestors(name)}
    for dirpath, dirnames, filenames in os.walk(out):
        base = Path(dirpath).relative_to(out)
        for d in dirnames:
            rel = (base / d).as_posix()
            if rel not in folders or os.path.islink(os.path.join(dirpath, d)):
                return False
        for f in filenames:
            rel = (base / f).as_posix()
            if rel not in ours and not (rel == WRITTEN and has_list):
                return False
    return True


def remove_ours(folder: Path, written: Written, keep: frozenset[str] = frozenset()) -> None:
    """Remove the files of ``written`` that are still what a build wrote (but
    those in ``keep``), then their folders that are left empty."""
    emptied: set[str] = set()
    for name in sorted(written):
        if name not in keep and _is_ours(folder, name, written):
            (folder / name).unlink()
            emptied.update(_ancestors(name))
    for up in sorted(emptied, key=lambda u: (-u.count("/"), u)):
        try:
            (folder / up).rmdir()
        except OSError:
            pass  # holds something else


# -- staging -------------------------------------------------------------------------

def stage(out: Path) -> Path:
    """A new staging folder beside ``out``, marked with this process's pid."""
    from crsearch.store.datadir import mark_owner

    staged = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    mark_owner(staged)
    return staged


def sweep(out: Path) -> None:
    """Remove the staging folders beside ``out`` that a dead build left.

    Only folders of this user, named for ``out`` and marked by a build of
    crsearch whose process is gone (or that is stuck for an hour), as the
    store's staging folders are; never through a symlink.
    """
    from crsearch.store.datadir import OWNER
    from crsearch.store.repair import abandoned

    prefix = f".{out.name}-"
    try:
        entries = list(os.scandir(out.parent))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        folder = Path(entry.path)
        try:
            st = os.lstat(folder)
            marked = stat.S_ISREG(os.lstat(folder / OWNER).st_mode)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or not marked:
            continue
        if not abandoned(folder):
            continue
        written = read_written(folder)
        if entry.name.startswith(f"{prefix}old-") and written is not None:
            # A site moved aside: remove only what the build wrote.
            remove_ours(folder, written)
            for name in (WRITTEN, OWNER):
                (folder / name).unlink(missing_ok=True)
            try:
                folder.rmdir()
            except OSError:
                pass
        else:
            shutil.rmtree(folder, ignore_errors=True)


# -- publishing ------------------------------------------------------------------------

def _in_use(out: Path) -> bool:
    """True when ``out`` itself cannot be moved: the current folder or a mount point."""
    cwd = Path.cwd().resolve()
    return out == cwd or out in cwd.parents or os.path.ismount(out)


def _unmark(staged: Path) -> None:
    from crsearch.store.datadir import OWNER

    (staged / OWNER).unlink(missing_ok=True)


def publish(staged: Path, out: Path, warn: Callable[[str], None] | None = None) -> None:
    """Put the site staged in ``staged`` (with its list, :func:`record`) at ``out``.

    Raises :class:`BadInput`, with nothing changed, when a new file would
    overwrite one that no build of crsearch wrote there (or that was changed
    since); ``staged`` is removed either way.
    """
    new = read_written(staged)
    assert new is not None, "record() first"
    try:
        if not out.exists():
            _unmark(staged)
            os.replace(staged, out)
            return
        old = read_written(out)
        ours = {name for name in (old or {}) if _is_ours(out, name, old or {})}
        bad = _conflicts(out, staged, new, old, ours)
        if bad:
            raise BadInput(
                f"{out} holds {_files(len(bad))} this build would overwrite that no crsearch "
                f"build wrote there or that changed since: {', '.join(bad[:5])}"
                + (" …" if len(bad) > 5 else "")
                + f"; move {'it' if len(bad) == 1 else 'them'} away or build into another folder")
        if not _in_use(out) and _only_ours(out, ours, old is not None):
            _swap(staged, out, old or {}, warn)
        else:
            _move_in(staged, out, new, old or {}, ours)
    finally:
        if staged.exists():
            shutil.rmtree(staged, ignore_errors=True)


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def _swap(staged: Path, out: Path, old: Written, warn: Callable[[str], None] | None) -> None:
    """Replace ``out`` (holding only the earlier build) by ``staged`` in two renames."""
    from crsearch.store.datadir import OWNER, mark_owner

    _unmark(staged)
    aside = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
    try:
        os.replace(out, aside)  # onto the empty folder mkdtemp made
    except BaseException:
        aside.rmdir()
        raise
    try:
        mark_owner(aside)
    except OSError:
        pass
    try:
        os.replace(staged, out)
    except BaseException:
        os.replace(aside, out)
        (out / OWNER).unlink(missing_ok=True)
        raise
    # Only what the earlier build wrote goes: a file that appeared in OUT
    # since it was looked at stays, and so does the folder holding it.
    remove_ours(aside, old)
    if read_written(aside) is not None:
        (aside / WRITTEN).unlink()
    (aside / OWNER).unlink(missing_ok=True)
    try:
        aside.rmdir()
    except OSError:
        if warn:
            warn(f"kept {aside}: files appeared in {out} while the site was built")


def _move_in(staged: Path, out: Path, new: Written, old: Written, ours: set[str]) -> None:
    """Move the new files into ``out`` one at a time, then remove the old build's leftovers."""
    both: Written = {name: list(old[name]) for name in ours}
    for name, digests in new.items():
        both[name] = sorted(set(both.get(name, [])) | set(digests))
    write_atomic(out / WRITTEN, _dump(both))
    # Search data and style first, the pages that name them after: a reader
    # meanwhile may get an old page or a new one, and its files are there.
    order = sorted(new, key=lambda n: (n.endswith(".html") or n == "sw.js", n))
    for name in order:
        for up in _ancestors(name):
            try:
                os.mkdir(out / up)
            except FileExistsError:
                pass
        os.replace(staged / name, out / name)
    remove_ours(out, {name: old[name] for name in ours}, keep=frozenset(new))
    os.replace(staged / WRITTEN, out / WRITTEN)


__all__ = ["WRITTEN", "publish", "read_written", "record", "remove_ours", "stage", "sweep"]
