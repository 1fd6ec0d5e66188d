"""The import pipeline: sources -> decode -> parse -> refs -> store (+ index).

Each release is stored in one atomic step; a source that fails (not a CR,
undecodable, truncated download) is reported and leaves the store untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from crsearch.errors import CRSearchError, NotACR
from crsearch.model import Release
from crsearch.store import Store, StoredRelease

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


def release_from_bytes(data: bytes, name: str = "") -> Release:
    """Decode, parse and cross-reference the bytes of a TXT release."""
    from crsearch import refs
    from crsearch.parse import parse_bytes

    release = parse_bytes(data, name)
    return refs.resolve(release)


def release_from_site(folder: str | Path) -> Release:
    """Read a built crsearch site (or another hyperlinked CR) back into a Release."""
    from crsearch import htmlread, refs
    from crsearch.parse import scrub

    release = scrub(htmlread.read_site(Path(folder)))
    return refs.resolve(release)


def _index_builder(release: Release, folder: Path) -> None:
    from crsearch import index

    index.build_index(release, folder / "index")


def warnings_for(release: Release) -> list[str]:
    out = []
    if not release.complete:
        out.append(f"release {release.effective_date} is incomplete: "
                   + next((a.message for a in release.anomalies if a.kind == "truncated"),
                          "the text stops early"))
    if release.unplaced:
        out.append(f"{len(release.unplaced)} lines could not be placed")
    return out


def _stage(src: Any, store_root: str, build_index: bool) -> ImportResult:
    """Parse one source and stage it in the store (runs in a worker process)."""
    result = ImportResult(src.name)
    try:
        if getattr(src, "kind", "txt") == "site":
            release = release_from_site(src.path)
        else:
            release = release_from_bytes(src.data, src.name)
        result.release = release
        result.warnings = warnings_for(release)
        result.staged = Store(store_root).stage(release, _index_builder if build_index else None)
    except CRSearchError as e:
        result.error = str(e)
    except (UnicodeError, ValueError) as e:
        result.error = str(NotACR(f"{src.name}: {e}"))
    return result


def import_sources(sources: list, store: Store, *, build_index: bool = True,
                   progress: Progress | None = None, jobs: int = 1) -> list[ImportResult]:
    """Import every source (``sources.Source``) into ``store``.

    With ``jobs`` > 1, releases are parsed and indexed in worker processes;
    each is still published on its own, atomically, in the order given.
    """
    results: list[ImportResult] = []
    total = len(sources)
    root = str(store.root)
    if jobs > 1 and total > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            staged = pool.map(_stage, sources, [root] * total, [build_index] * total)
            for n, result in enumerate(staged, 1):
                results.append(_publish(store, result))
                if progress:
                    progress(n, total, result.name)
        return results
    for n, src in enumerate(sources, 1):
        results.append(_publish(store, _stage(src, root, build_index)))
        if progress:
            progress(n, total, src.name)
    return results


def _publish(store: Store, result: ImportResult) -> ImportResult:
    if result.staged is not None and result.release is not None:
        try:
            result.stored = store.publish(result.release, result.staged)
        except CRSearchError as e:
            result.error = str(e)
        result.staged = None
    return result


def reindex(store: Store, stored: StoredRelease) -> None:
    """Rebuild the search index of one stored release, atomically."""
    from crsearch import index

    release = stored.release()
    store.replace_index(stored, lambda path: index.build_index(release, path))
