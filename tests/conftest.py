"""Shared fixtures.

Archive-wide and real-release fixtures read ``../shared/cr/archive`` (the rules
text is never copied into this repository); everything else uses the small
synthetic fixtures in ``tests/fixtures``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
LATEST = ARCHIVE / "2026-08-07.txt"


ARCHIVE_SIZE = 114


def archive_files() -> list[Path]:
    """The archived releases; fails (never skips) when the archive is missing or short."""
    files = sorted(ARCHIVE.glob("*.txt"))
    assert len(files) >= ARCHIVE_SIZE, (
        f"{ARCHIVE} holds {len(files)} releases, not {ARCHIVE_SIZE}: the archive-wide "
        "tests need the official rules archive in ../shared/cr/archive")
    return files


@pytest.fixture(scope="session")
def mini_bytes() -> bytes:
    return (FIXTURES / "mini_cr.txt").read_bytes()


@pytest.fixture(scope="session")
def mini_release(mini_bytes):
    from crsearch.update import release_from_bytes

    return release_from_bytes(mini_bytes, "mini_cr.txt")


@pytest.fixture(scope="session")
def latest_release():
    """The 2026-08-07 release, parsed and cross-referenced (read-only!)."""
    from crsearch.update import release_from_bytes

    return release_from_bytes(LATEST.read_bytes(), LATEST.name)


def _store_with(tmp_path_factory, name: str, paths: list[Path], build_index: bool):
    from crsearch.sources import Source
    from crsearch.store import Store
    from crsearch.update import import_sources

    root = tmp_path_factory.mktemp(name)
    store = Store(root)
    results = import_sources([Source(p.name, p.read_bytes(), path=str(p)) for p in paths],
                             store, build_index=build_index)
    assert all(r.error is None for r in results), [r.error for r in results]
    return root


@pytest.fixture(scope="session")
def latest_data_dir(tmp_path_factory) -> Path:
    """A data dir holding 2026-08-07 and 2026-06-19, without search indexes."""
    return _store_with(tmp_path_factory, "data-noindex",
                       [ARCHIVE / "2026-06-19.txt", LATEST], build_index=False)


@pytest.fixture(scope="session")
def indexed_data_dir(tmp_path_factory) -> Path:
    """A data dir holding 2026-08-07 with its search index (read-only!)."""
    return _store_with(tmp_path_factory, "data-indexed", [LATEST], build_index=True)


@pytest.fixture
def mini_data_dir(tmp_path, mini_bytes) -> Path:
    """A fresh, writable data dir holding only the synthetic release."""
    from crsearch.sources import Source
    from crsearch.store import Store
    from crsearch.update import import_sources

    results = import_sources([Source("mini_cr.txt", mini_bytes)], Store(tmp_path),
                             build_index=False)
    assert results[0].error is None, results[0].error
    return tmp_path


@pytest.fixture(scope="session")
def latest_site(tmp_path_factory, latest_release) -> Path:
    """The 2026-08-07 site, built once with its Pagefind index (read-only!)."""
    from crsearch import site

    out = tmp_path_factory.mktemp("site-latest") / "site"
    site.build(latest_release, out)
    return out
