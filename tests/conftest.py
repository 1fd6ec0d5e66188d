"""Shared fixtures.

Archive-wide and real-release fixtures read ``../shared/cr/archive`` (the rules
text is never copied into this repository); everything else uses the small
synthetic fixtures in ``tests/fixtures``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from local_server import closed_port, server  # noqa: F401  (fixtures for the download tests)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
LATEST = ARCHIVE / "2026-08-07.txt"
#: The browser tests drive Debian's Chromium (never a downloaded browser).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = ROOT / "test-output" / "screenshots"


ARCHIVE_SIZE = 114


# -- markers: slow, browser, archive ([tool.pytest.ini_options] markers) ---------
#
# ``browser`` and ``archive`` follow from the fixtures a test uses, so that a new
# test cannot forget them: only the ``browser`` fixture starts Chromium, and the
# data dirs below import releases other than 2026-08-07.  A test that reads such a
# release itself carries ``@pytest.mark.archive``; a check below fails any test
# that reads one without it.  ``slow`` follows from the fixtures that take many
# seconds to make (Chromium, the whole 2026-08-07 site, the whole archive) and is
# otherwise written on each test that takes seconds of its own.

#: Session fixtures that import archived releases besides 2026-08-07.
ARCHIVE_FIXTURES = {"latest_data_dir", "cite_data_dir", "archive_data_dir"}
#: Fixtures that the fast loop (``-m "not slow"``) never makes.
SLOW_FIXTURES = {"browser", "latest_site", "archive_data_dir", "cards_site", "trio"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if names & ARCHIVE_FIXTURES:
            item.add_marker(pytest.mark.archive)
        if names & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)


#: Archived releases (other than 2026-08-07) opened while the current test ran.
_archive_reads: list[str] = []
_ARCHIVE_REAL = os.path.realpath(ARCHIVE)


def _note_archive_reads(event: str, args: tuple) -> None:
    if event != "open" or not isinstance(args[0], (str, os.PathLike)):
        return
    path = os.fspath(args[0])
    # ARCHIVE may be reached through a symbolic link (a worktree's ../shared).
    if "archive" in path and os.path.dirname(os.path.realpath(path)) == _ARCHIVE_REAL \
            and os.path.basename(path) != LATEST.name:
        _archive_reads.append(os.path.basename(path))


sys.addaudithook(_note_archive_reads)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _archive_reads.clear()  # from here on, the session fixtures this test sets up count


@pytest.fixture(autouse=True)
def _archive_marker_is_true(request):
    """Fail a test that reads an archived release but is not marked ``archive``."""
    yield
    if _archive_reads and request.node.get_closest_marker("archive") is None:
        read = sorted(set(_archive_reads))
        pytest.fail(f"reads {ARCHIVE} ({', '.join(read[:3])}{' ...' if len(read) > 3 else ''}) "
                    "but is not marked @pytest.mark.archive", pytrace=False)


# -- the command line, in this process ------------------------------------------

def run(data_dir: Path | str | None, *args: str, **kwargs: Any):
    """``crsearch --data-dir DATA_DIR ARGS...`` through click's ``CliRunner``.

    ``data_dir=None`` leaves ``--data-dir`` out (the environment decides).  An
    exception that the CLI does not turn into an exit code fails the test with its
    traceback, so a crash never passes for exit code 1.  Keyword arguments go to
    ``CliRunner.invoke`` (``input``, ``env``, ``color``).
    """
    from click.testing import CliRunner

    from crsearch.cli.main import cli

    head = [] if data_dir is None else ["--data-dir", str(data_dir)]
    return CliRunner().invoke(cli, [*head, *args], catch_exceptions=False, **kwargs)


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
    from crsearch.ingest.pipeline import release_from_bytes

    return release_from_bytes(mini_bytes, "mini_cr.txt")


@pytest.fixture(scope="session")
def latest_release():
    """The 2026-08-07 release, parsed and cross-referenced (read-only!)."""
    from crsearch.ingest.pipeline import release_from_bytes

    return release_from_bytes(LATEST.read_bytes(), LATEST.name)


def _store_with(tmp_path_factory, name: str, paths: list[Path], build_index: bool):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

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


@pytest.fixture(scope="session")
def latest_indexed_data_dir(tmp_path_factory, latest_data_dir, indexed_data_dir) -> Path:
    """``latest_data_dir`` (2026-06-19 and 2026-08-07) with 2026-08-07's search
    index: the one ``indexed_data_dir`` built for the same release (read-only!)."""
    import shutil

    from crsearch.store.datadir import Store

    root = tmp_path_factory.mktemp("data-latest-indexed") / "data"
    shutil.copytree(latest_data_dir, root)
    store = Store(root)
    built = Store(indexed_data_dir).pick().index_dir
    store.replace_index(store.pick(), lambda path: shutil.copytree(built, path, dirs_exist_ok=True))
    return root


@pytest.fixture(scope="session")
def engine(indexed_data_dir):
    """The search engine over 2026-08-07's index (read-only: never patch or rebuild it)."""
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    return Engine(Store(indexed_data_dir).pick().index_dir)


CARDS = FIXTURES / "cards"
#: The small card fixtures: MTGJSON's AtomicCards, Scryfall's oracle-cards and rulings.
ATOMIC = CARDS / "AtomicCards.json"
ORACLE = CARDS / "oracle-cards-20261125100000.json"
RULINGS = CARDS / "rulings-20261125100000.json"


@pytest.fixture(scope="session")
def cards_data_dir(tmp_path_factory) -> Path:
    """A data dir holding 2026-08-07 (no search index) and the AtomicCards fixture (read-only!)."""
    from crsearch.cards.build import import_file
    from crsearch.store.datadir import Store

    root = _store_with(tmp_path_factory, "data-cards", [LATEST], build_index=False)
    import_file(Store(root), str(ATOMIC))
    return root


@pytest.fixture
def cards_only_dir(tmp_path) -> Path:
    """A fresh, writable data dir holding only the AtomicCards fixture (no rules)."""
    from crsearch.cards.build import import_file
    from crsearch.store.datadir import Store

    import_file(Store(tmp_path), str(ATOMIC))
    return tmp_path


@pytest.fixture(scope="session")
def cite_data_dir(tmp_path_factory) -> Path:
    """A data dir with the first (2003-03-15) and the latest release, for
    cite-check: "rule 502.9b" (trample in 2003) has moved to 702.19b (read-only!)."""
    return _store_with(tmp_path_factory, "data-cite",
                       [ARCHIVE / "2003-03-15.txt", LATEST], build_index=False)


@pytest.fixture
def mini_data_dir(tmp_path, mini_bytes) -> Path:
    """A fresh, writable data dir holding only the synthetic release."""
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    results = import_sources([Source("mini_cr.txt", mini_bytes)], Store(tmp_path),
                             build_index=False)
    assert results[0].error is None, results[0].error
    return tmp_path


@pytest.fixture(scope="session")
def latest_site(tmp_path_factory, latest_release) -> Path:
    """The 2026-08-07 site, built once with its search data (read-only!)."""
    from crsearch.site import build as site

    out = tmp_path_factory.mktemp("site-latest") / "site"
    site.build(latest_release, out)
    return out


@pytest.fixture(scope="session")
def axe_violations():
    """A function: axe-core's violations of a Playwright page at the given
    impacts (critical and serious by default), as axe reports them.

    axe.min.js comes from the axe-playwright-python package ([test] extra),
    injected into the page, so nothing is fetched from the network.
    """
    import axe_playwright_python

    script = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")

    def run(page, impacts: tuple[str, ...] = ("critical", "serious")) -> list[dict]:
        page.evaluate(script)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        return [v for v in result["violations"] if v["impact"] in impacts]

    return run


def require_chromium() -> None:
    """Browser tests are never skipped: one that cannot run fails, in CI and locally."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium "
                    "(sudo apt-get install chromium); .ci/run does this", pytrace=False)


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium, driven by Playwright, for the whole session."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def base_url(latest_site):
    """``site serve`` of the 2026-08-07 site, in a thread, on a free loopback port."""
    import threading

    from crsearch.site import build as site

    server = site.make_server(latest_site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser, base_url):
    """A fresh page on the served 2026-08-07 site that fails the test on a
    JavaScript error or on any request that leaves the site."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base_url) else None)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert outside == [], "requests left the site"
    assert errors == [], "JavaScript errors"


#: A phone's screen, for ``browser.new_context(**PHONE, ...)``.
PHONE = {"viewport": {"width": 375, "height": 740}, "device_scale_factor": 2}


def wait_for_service_worker(pg, timeout: int = 60_000) -> None:
    """Wait until a service worker controls the page (after a first visit)."""
    pg.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                         timeout=timeout)


def shot(pg, name: str, full: bool = False) -> None:
    """A screenshot in test-output/screenshots (its path is printed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=full)
    print(f"screenshot: {path}")


#: Seven rules in our own words, the base of the synthetic releases that the
#: diff and lineage tests change (copy before changing).
BASE_RULES = {
    "100.1": "A match is played between two or more players.",
    "100.1a": "Each player brings a stack of cards of their own choosing to the table.",
    "100.1b": "A player who runs out of cards to draw does not win the match.",
    "100.1c": "The umbrella rule for team play is found in rule 100.2.",
    "100.2": "Teams share a turn and a pool of points, but never a hand of cards.",
    "101.1": "Whenever a card and these rules disagree, the card wins the argument.",
    "101.2": "When one effect says something can happen and another says it can't, it can't.",
}


def make_release(date: str, rules: dict[str, str], glossary: dict[str, str] | None = None,
                 chapters: dict[str, str] | None = None, sections: dict[str, str] | None = None,
                 examples: dict[str, list[str]] | None = None):
    """A small synthetic release, in our own words: rules by id, in rule order."""
    from crsearch.rules import numbers
    from crsearch.rules.model import Chapter, GlossaryEntry, Release, Rule, Section

    chapters = chapters or {"100": "Playing", "101": "Golden Rules"}
    sections = sections or {"1": "Basics"}
    examples = examples or {}
    rules_list = [Rule(i, numbers.kind(i), t, list(examples.get(i, ())))
                  for i, t in sorted(rules.items(), key=lambda kv: numbers.sort_key(kv[0]))]
    return Release(
        effective_date=date,
        sections=[Section(i, t) for i, t in sections.items()],
        chapters=[Chapter(i, t, i[0]) for i, t in chapters.items()],
        rules=rules_list,
        glossary=[GlossaryEntry(term, term, text) for term, text in (glossary or {}).items()],
    )


@pytest.fixture(scope="session")
def archive_data_dir(tmp_path_factory) -> Path:
    """A data dir holding all the archived releases (no search indexes), imported
    as ``crsearch update --from`` does, lineage table included (read-only!).
    Minutes to make: for ``slow`` tests only."""
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    root = tmp_path_factory.mktemp("data-archive")
    results = import_sources([Source(p.name, p.read_bytes(), path=str(p)) for p in archive_files()],
                             Store(root), build_index=False, jobs=2)
    assert all(r.error is None for r in results), [r.error for r in results if r.error]
    return root


@pytest.fixture(scope="session")
def cite_pair_dir(tmp_path_factory) -> Path:
    """A data dir with two synthetic releases (read-only!): 2012-01-10, and
    2026-06-05 where the "heirloom rule" moved from 104.5k to 104.5j (104.5k
    is the "crown rule" now) and a new keyword moved Stomp from 201.2 to 201.3."""
    return _store_with(tmp_path_factory, "cite-pair",
                       [FIXTURES / "cite_2012.txt", FIXTURES / "cite_2026.txt"], build_index=False)


#: A card made to break pages: markup and quotes in its name and text, and control
#: characters the import must strip (``site build --cards`` escaping tests).
MARKUP_CARD_NAME = '<img src=x onerror="alert(1)"> & Co\u0007'
MARKUP_CARD = [{"name": MARKUP_CARD_NAME, "layout": "normal", "manaCost": "{1}<b>{U}</b>",
                "type": "Creature \u2014 <i>Rogue</i>", "power": "1", "toughness": "1",
                "text": "Flash\n</script><script>alert(2)</script>\u001b[31m draw a card.\u0000"}]


@pytest.fixture(scope="session")
def markup_cards_dir(tmp_path_factory) -> Path:
    """A data dir holding 2026-08-07 (no search index) and the AtomicCards fixture
    with :data:`MARKUP_CARD` added (read-only!)."""
    import json

    from crsearch.cards.build import import_file
    from crsearch.store.datadir import Store

    root = _store_with(tmp_path_factory, "data-markup-cards", [LATEST], build_index=False)
    atomic = json.loads(ATOMIC.read_text(encoding="utf-8"))
    atomic["data"][MARKUP_CARD_NAME] = MARKUP_CARD
    path = tmp_path_factory.mktemp("markup-cards") / "AtomicCards.json"
    path.write_text(json.dumps(atomic), encoding="utf-8")
    import_file(Store(root), str(path))
    return root


@pytest.fixture(scope="session")
def cards_site(tmp_path_factory, markup_cards_dir):
    """``site build --cards`` of 2026-08-07 with the fixture cards and the markup
    card, search included (``Rules.build_site``'s result; read-only!)."""
    from crsearch.api import Rules

    out = tmp_path_factory.mktemp("site-cards") / "site"
    return Rules.open(markup_cards_dir).build_site(out, cards=True)


def copy_index(index_dir: Path, to: Path) -> Path:
    """A copy of a stored release's search index, with the release's files it
    reads its rules' texts from (the chapter files): the copy's index folder."""
    import shutil

    shutil.copytree(Path(index_dir).parent, to / "release")
    return to / "release" / "index"
