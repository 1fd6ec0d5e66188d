"""The import pipeline: sources -> decode -> parse -> refs -> store (+ index).

Each release is stored in one atomic step; a source that fails (not a CR,
undecodable, truncated download) is reported and leaves the store untouched.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crsearch.errors import CRSearchError, KeptRelease, NotACR, short
from crsearch.rules.model import Release
from crsearch.store.datadir import Store, StoredRelease

if TYPE_CHECKING:
    from crsearch.search.tables import Via

Progress = Callable[[int, int, str], None]


@dataclass
class ImportResult:
    """What happened to one source."""

    name: str
    release: Release | None = None
    stored: StoredRelease | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    staged: Path | None = None
    unchanged: str | None = None  # the stored date, when these bytes were already imported
    kept: bool = False  # refused: the stored release of that date is better


def release_from_bytes(data: bytes, name: str = "") -> Release:
    """Decode, parse and cross-reference the bytes of a TXT release."""
    from crsearch.ingest.parse import parse_bytes
    from crsearch.rules import refs

    release = parse_bytes(data, name)
    return refs.resolve(release)


def release_from_site(folder: str | Path) -> Release:
    """Read a built crsearch site (or another hyperlinked CR) back into a Release."""
    from crsearch.ingest import htmlread
    from crsearch.ingest.parse import scrub
    from crsearch.rules import refs

    try:
        release = scrub(htmlread.read_site(Path(folder)))
    except (KeyError, TypeError, AttributeError, IndexError) as e:
        # A page that lacks what our own sites always carry: damaged or crafted.
        raise NotACR(f"{short(folder)}: the site is damaged ({type(e).__name__}: "
                     f"{short(e, 40)})") from None
    return refs.resolve(release)


def _index_builder(store_root: str, newest: bool = False) -> Callable[[Release, Path], None]:
    def build_index(release: Release, folder: Path) -> None:
        from crsearch.search import build

        # Embeddings only for the newest release: a single import newer than
        # every stored release gets them now, a batch's newest once the
        # batch is stored (``embed_newest``); the others build theirs on
        # first use.
        store = Store(store_root)
        embeddings = newest and all(s.effective_date < release.effective_date
                                    for s in store.releases())
        build.build_index(release, folder / "index", _via(store, release),
                          embeddings=embeddings)

    return build_index


def _via(store: Store, release: Release, folder: str | None = None) -> Via | None:
    # A data folder that cannot be read leaves the tables to the shipped map
    # and the words check; it never stops an import.
    try:
        return via(store, release, folder)
    except (CRSearchError, OSError, ValueError):
        return None


def via(store: Store, release: Release, folder: str | None = None) -> Via | None:
    """How the shipped tables reach ``release`` when the shipped map does not
    know it: the data folder's lineage from the nearest release the map knows
    (the one before it, else the one after), the last link worked out here
    when ``release`` is not stored yet (``folder``: its folder when it is).
    None when the map knows the release or the data folder has no way there.
    """
    from crsearch.changes.lineage import Linker, link
    from crsearch.search.tables import Via, renumbering
    from crsearch.store.lineage import Lineage, Link

    known = renumbering()
    date = release.effective_date
    if not known.dates or known.index(date) is not None:
        return None
    stored = [s for s in store.releases() if s.effective_date != date]
    names = [os.path.basename(s.dir) for s in stored]
    mapped = [k for k, s in enumerate(stored) if known.index(s.effective_date) is not None]
    if not mapped:
        return None
    lineage, linker = Lineage.read(store.dir), Linker()

    def between(a: int | None, b: int | None) -> Link:
        """The link from ``a`` to ``b``: places in ``stored``, None for ``release``."""
        old = names[a] if a is not None else folder or ""
        new = names[b] if b is not None else folder or ""
        got = lineage.get(old, new)
        if got is None:
            got = Link(old, new, link(release if a is None else linker.release(stored[a]),
                                      release if b is None else linker.release(stored[b])))
        return got

    before = [k for k in mapped if stored[k].effective_date < date]
    if before:
        last = max(k for k, s in enumerate(stored) if s.effective_date < date)
        links = [between(k, k + 1) for k in range(before[-1], last)] + [between(last, None)]
        return Via(stored[before[-1]].effective_date, links, forward=True)
    first = min(k for k, s in enumerate(stored) if s.effective_date > date)
    links = [between(k - 1, k) for k in range(mapped[0], first, -1)] + [between(None, first)]
    return Via(stored[mapped[0]].effective_date, links, forward=False)


def warnings_for(release: Release) -> list[str]:
    out = []
    if not release.complete:
        out.append(f"release {release.effective_date} is incomplete: "
                   + next((a.message for a in release.anomalies if a.kind == "truncated"),
                          "the text stops early"))
    if release.unplaced:
        out.append(f"{len(release.unplaced)} lines could not be placed")
    return out


#: The collector's thresholds while a release is imported: young objects
#: are still collected, the whole heap almost never (see ``gc_eased``).
GC_THRESHOLDS = (50_000, 20, 100)


@contextlib.contextmanager
def gc_eased() -> Iterator[None]:
    """Few garbage collections inside: parsing and indexing a release make
    millions of objects that live until its index is written, and with the
    default thresholds the collector walks the whole heap again and again
    (about a sixth of an import's CPU).  Cycles among young objects are
    still collected; the default thresholds come back when the block ends."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _stage(src: Any, store_root: str, build_index: bool, owner: int | None = None,
           force: bool = False, alone: bool = False) -> ImportResult:
    """Parse one source and stage it in the store (runs in a worker process).

    A download whose text stops early (no Credits) is taken for a broken
    connection, not a release, unless ``force``.
    """
    with gc_eased():
        return _stage_now(src, store_root, build_index, owner, force, alone)


def _stage_now(src: Any, store_root: str, build_index: bool, owner: int | None,
               force: bool, alone: bool) -> ImportResult:
    result = ImportResult(src.name)
    if getattr(src, "error", None):
        result.error = src.error
        return result
    try:
        if getattr(src, "kind", "txt") == "site":
            release = release_from_site(src.path)
        else:
            release = release_from_bytes(src.data, src.name)
        if getattr(src, "url", None) and not release.complete and not force:
            reason = next((a.message for a in release.anomalies if a.kind == "truncated"),
                          "the text stops early")
            result.error = (f"the download looks cut short ({reason}); nothing was stored; "
                            "use --force to import it anyway")
            return result
        result.release = release
        result.warnings = warnings_for(release)
        result.staged = Store(store_root).stage(
            release, _index_builder(store_root, alone) if build_index else None, owner=owner)
    except CRSearchError as e:
        result.error = str(e)
    except (UnicodeError, ValueError) as e:
        result.error = str(NotACR(f"{short(src.name)}: {e}"))
    except RecursionError:
        result.error = f"{short(src.name)}: the HTML is nested too deeply to read"
    except OSError as e:
        result.error = write_error(e, store_root)
    return result


def write_error(e: OSError, root: str | Path) -> str:
    """One line for a failed write in the data dir: which file, and the errno text."""
    where = short(e.filename or root)
    return f"cannot write {where}: {e.strerror or e}"


class ImportInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during an import: ``stored`` lists what was published."""

    def __init__(self, stored: list[str], total: int):
        super().__init__()
        self.stored = stored
        self.total = total

    def message(self) -> str:
        n = len(self.stored)
        if not n:
            return f"Interrupted: stored 0 of {self.total} releases; nothing changed."
        shown = ", ".join(self.stored[:10]) + (", …" if n > 10 else "")
        return (f"Interrupted: stored {n} of {self.total} releases: {shown}; "
                "nothing else changed.")


def _worker_init(parent: int) -> None:
    """Make a worker die with the process that started it.

    Linux kills it at once (PR_SET_PDEATHSIG); elsewhere a thread notices
    the new parent within a second.  Either way `out=$(crsearch update ...)`
    returns when the main process is killed.
    """
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() must just stop us
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the prctl
        os._exit(1)

    def watch() -> None:
        import time

        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()


def _stage_args(args: tuple) -> ImportResult:
    return _stage(*args)


#: The most neighbouring releases a worker of a batch import takes at once.
CHUNK = 8


def import_sources(sources: list, store: Store, *, build_index: bool = True,
                   progress: Progress | None = None, jobs: int = 1,
                   force: bool = False) -> list[ImportResult]:
    """Import every source (``sources.Source``) into ``store``.

    With ``jobs`` > 1, releases are parsed and indexed in worker processes;
    each is still published on its own, atomically, in the order given.
    A source whose exact bytes are already stored is skipped ("already up to
    date").  Ctrl-C raises :class:`ImportInterrupted`, which lists what was
    stored.
    """
    results: list[ImportResult] = []
    total = len(sources)
    root = str(store.root)
    me = os.getpid()
    todo = []
    for n, src in enumerate(sources):
        same = None if force else _unchanged(store, src, build_index)
        if same is not None:
            results.append(ImportResult(src.name, unchanged=same))
        else:
            results.append(ImportResult(src.name))
            todo.append(n)
    stored: list[str] = []

    linker: Any = None

    def publish(n: int, staged: ImportResult) -> None:
        nonlocal linker
        done = results[n] = _publish(store, staged, force)
        if done.stored is not None:
            stored.append(done.stored.effective_date)
            with gc_eased():
                linker = _relink(store, done, linker)
        if progress:
            progress(n + 1, total, staged.name)

    restore = _sigterm_raises()
    try:
        if jobs > 1 and len(todo) > 1:
            import multiprocessing

            workers = min(jobs, len(todo))
            pool = multiprocessing.get_context("fork").Pool(
                workers, initializer=_worker_init, initargs=(me,))
            try:
                args = [(sources[n], root, build_index, me, force) for n in todo]
                # Each worker takes a run of neighbouring releases: an index
                # build reuses what the one before it made of the texts they
                # share (``search.build``), most of them between neighbours.
                chunk = max(1, min(CHUNK, len(todo) // (2 * workers)))
                for n, staged in zip(todo, pool.imap(_stage_args, args, chunksize=chunk)):
                    publish(n, staged)
                pool.close()
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
        else:
            for n in todo:
                publish(n, _stage(sources[n], root, build_index, None, force, len(todo) == 1))
        if build_index and stored:
            embed_newest(store, results)
    except KeyboardInterrupt:
        raise ImportInterrupted(stored, total) from None
    finally:
        restore()
    return results


def embedder(store: Store, stored: StoredRelease) -> Callable[[], str | None]:
    """What builds the embeddings of a stored release's index made without
    them (on first use): returns None, or why they could not be built."""

    def embed() -> str | None:
        from crsearch.search import build

        try:
            release = stored.release()
        except CRSearchError as e:
            return f"no embeddings: {e}"
        through = _via(store, release, os.path.basename(stored.dir))
        try:
            return build.build_embeddings(release, stored.index_dir, through)
        except OSError as e:
            return f"no embeddings: {write_error(e, store.root)}"

    return embed


def embed_newest(store: Store, results: list[ImportResult]) -> None:
    """Give the newest stored release its embeddings if its index lacks
    them: a question on today's rules never waits for them."""
    from crsearch.search import semantic

    try:
        newest = store.pick()
    except CRSearchError:
        return
    index = newest.index_dir
    if not (index / "terms.json").exists() or (index / semantic.META).exists():
        return
    with gc_eased():
        warning = embedder(store, newest)()
    if warning:
        for r in results:
            if r.stored is not None and r.stored.dir == newest.dir:
                r.warnings.append(warning)


def _relink(store: Store, done: ImportResult, linker: Any) -> Any:
    """Link a release just published to its neighbours in the lineage table.

    A failure leaves the table without those links (history then pairs
    them itself) and says so; the next import or ``crsearch repair`` adds
    them.  Returns the linker, which keeps the releases this run parsed.
    """
    from crsearch.changes.lineage import Linker
    from crsearch.store.lineage import relink

    assert done.stored is not None and done.release is not None
    if linker is None:
        linker = Linker()
    # The release just parsed and the one before it are all a batch in date
    # order needs: keep those in memory, read any other from the store.
    folder = os.path.basename(done.stored.dir)
    linker.known = {**dict(list(linker.known.items())[-1:]), folder: done.release}
    try:
        relink(store, linker)
    except (CRSearchError, OSError, ValueError) as e:
        done.warnings.append(f"the lineage table was not updated ({short(e)}); "
                             "run `crsearch repair` to complete it")
    return linker


def _sigterm_raises() -> Callable[[], None]:
    """Turn SIGTERM into KeyboardInterrupt (so workers are stopped); return the undo."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError):
        return lambda: None
    def undo() -> None:
        signal.signal(signal.SIGTERM, before)

    return undo


def _unchanged(store: Store, src: Any, build_index: bool) -> str | None:
    """The stored date when exactly these bytes are already imported (and indexed)."""
    if getattr(src, "kind", "txt") != "txt" or not src.data or getattr(src, "error", None):
        return None
    import hashlib

    entry = store.find_source(hashlib.sha256(src.data).hexdigest())
    if entry is None:
        return None
    if build_index and not (store.releases_dir / entry["dir"] / "index").is_dir():
        return None
    return str(entry["effective_date"])


def _publish(store: Store, result: ImportResult, force: bool = False) -> ImportResult:
    if result.staged is not None and result.release is not None:
        try:
            result.stored = store.publish(result.release, result.staged, force=force)
        except KeptRelease as e:
            result.error = str(e)
            result.kept = True
        except CRSearchError as e:
            result.error = str(e)
        except OSError as e:
            result.error = write_error(e, store.root)
        result.staged = None
    return result


def reindex(store: Store, stored: StoredRelease) -> None:
    """Rebuild the search index of one stored release, atomically."""
    from crsearch.search import build

    release = stored.release()
    through = _via(store, release, os.path.basename(stored.dir))
    # As an import does: embeddings now for the newest release only.
    newest = stored.effective_date == store.pick().effective_date
    with gc_eased():
        store.replace_index(stored, lambda path: build.build_index(release, path, through,
                                                                   embeddings=newest))
