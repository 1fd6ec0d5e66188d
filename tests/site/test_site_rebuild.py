"""Building a site over an earlier one, or beside files that are not ours.

A build records the files it wrote (``WRITTEN``, with their hashes); a
rebuild replaces or removes only those, and only while they are still what
the build wrote.  Everything else in the folder stays: a gh-pages checkout's
``.git``, a ``CNAME``, notes.  A file the build would have to overwrite that
no build recorded stops the build with one line, and nothing is changed.  A
killed build's staging folder beside the site is removed by the next build,
and nothing else is.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, run

from crsearch.site import build as site
from crsearch.site.publish import WRITTEN
from crsearch.store.datadir import OWNER

USER_FILES = {
    ".git/HEAD": "ref: refs/heads/gh-pages\n",
    ".git/objects/ab/cdef0123": "a git object\n",
    "CNAME": "rules.example.org\n",
    "notes.txt": "my notes\n",
    "drafts/idea.md": "# an idea\n",
    "api/mine.json": "{\"mine\": true}\n",  # a file of mine inside a folder the build writes
}


def build(out: Path | str, data_dir: Path, *extra: str):
    """``crsearch site build OUT --no-search`` from DATA_DIR."""
    return run(data_dir, "site", "build", str(out), "--no-search", *extra)


def plant(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def contents(folder: Path, files: dict[str, str]) -> dict[str, str | None]:
    return {name: (folder / name).read_text() if (folder / name).is_file() else None
            for name in files}


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def one_error(result) -> str:
    """The error line of a failed command, which says it all in one line."""
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if not line.startswith("Warning: ")]
    assert len(errors) == 1 and errors[0].startswith("Error: "), result.output
    return errors[0]


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# -- what a rebuild keeps ---------------------------------------------------------------

@pytest.mark.slow
def test_a_rebuild_keeps_a_git_checkout_cname_and_notes(tmp_path, mini_data_dir):
    out = tmp_path / "public"
    r = build(out, mini_data_dir)
    assert r.exit_code == 0, r.output
    plant(out, USER_FILES)
    r = build(out, mini_data_dir)
    assert r.exit_code == 0, r.output
    assert contents(out, USER_FILES) == USER_FILES
    assert (out / "index.html").is_file() and (out / "api" / "releases.json").is_file()


@pytest.mark.slow
def test_a_build_beside_foreign_files_keeps_them_and_a_rebuild_too(tmp_path, mini_data_dir):
    out = tmp_path / "gh-pages"
    plant(out, USER_FILES)
    for _ in range(2):
        r = build(out, mini_data_dir)
        assert r.exit_code == 0, r.output
        assert contents(out, USER_FILES) == USER_FILES
        assert (out / "index.html").is_file() and (out / "100.html").is_file()


@pytest.mark.slow
def test_building_into_the_current_folder_keeps_what_is_not_the_sites(tmp_path, mini_data_dir,
                                                                      monkeypatch):
    out = tmp_path / "checkout"
    plant(out, USER_FILES)
    monkeypatch.chdir(out)
    for _ in range(2):
        r = build(".", mini_data_dir)
        assert r.exit_code == 0, r.output
        assert contents(out, USER_FILES) == USER_FILES
        assert (out / "index.html").is_file()


@pytest.mark.slow
def test_a_rebuild_removes_what_the_earlier_build_wrote_and_this_one_does_not(tmp_path,
                                                                            mini_data_dir):
    out = tmp_path / "public"
    r = run(mini_data_dir, "site", "build", str(out))
    assert r.exit_code == 0, r.output
    searched = sorted(p.name for p in (out / "search").iterdir())
    assert searched
    (out / "search" / "mine.txt").write_text("mine\n")
    r = build(out, mini_data_dir)  # --no-search
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (out / "search").iterdir()) == ["mine.txt"]
    (out / "search" / "mine.txt").unlink()
    r = build(out, mini_data_dir)
    assert r.exit_code == 0, r.output
    assert (out / "search").is_dir()  # a folder a build did not write is left, empty or not


@pytest.mark.slow
def test_a_rebuild_gives_the_same_site_as_a_fresh_build(tmp_path, mini_data_dir, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    fresh, again = tmp_path / "fresh", tmp_path / "again"
    assert build(fresh, mini_data_dir).exit_code == 0
    plant(again, {"CNAME": "x\n"})
    for _ in range(2):
        assert build(again, mini_data_dir).exit_code == 0
    got = tree(again)
    assert got.pop("CNAME") == b"x\n"
    assert got == tree(fresh)


# -- what a build refuses to overwrite ----------------------------------------------------

@pytest.mark.parametrize("marker", ["anything", json.dumps({"generator": "crsearch"})])
def test_a_marker_file_alone_does_not_make_a_folder_ours(tmp_path, mini_data_dir, marker):
    out = tmp_path / "folder"
    mine = {site.MARKER: marker, "notes.txt": "my notes\n", "sub/deep.txt": "deep\n"}
    plant(out, mine)
    r = build(out, mini_data_dir)
    assert r.exit_code == 2, r.output
    assert one_error(r) and site.MARKER in one_error(r)
    assert tree(out) == {name: text.encode() for name, text in mine.items()}


@pytest.mark.slow
def test_a_page_changed_since_the_build_is_not_overwritten(tmp_path, mini_data_dir):
    out = tmp_path / "public"
    assert build(out, mini_data_dir).exit_code == 0
    (out / "100.html").write_text("<p>my own edit</p>\n")
    before = tree(out)
    r = build(out, mini_data_dir)
    assert r.exit_code == 2 and "100.html" in one_error(r), r.output
    assert tree(out) == before


def test_a_site_of_foreign_pages_is_not_overwritten(tmp_path, mini_data_dir):
    out = tmp_path / "blog"
    mine = {"index.html": "<h1>my blog</h1>\n", "about.html": "me\n", "CNAME": "blog\n"}
    plant(out, mine)
    r = build(out, mini_data_dir)
    assert r.exit_code == 2, r.output
    assert "index.html" in one_error(r) and "about.html" in one_error(r)
    assert tree(out) == {name: text.encode() for name, text in mine.items()}


@pytest.mark.slow
def test_a_symlink_in_the_site_is_never_written_through(tmp_path, mini_data_dir):
    out, elsewhere = tmp_path / "public", tmp_path / "elsewhere"
    plant(elsewhere, {"index.json": "theirs\n"})
    assert build(out, mini_data_dir).exit_code == 0
    for p in sorted((out / "api").rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    (out / "api").rmdir()
    (out / "api").symlink_to(elsewhere, target_is_directory=True)
    r = build(out, mini_data_dir)
    assert r.exit_code == 2 and "api" in one_error(r), r.output
    assert tree(elsewhere) == {"index.json": b"theirs\n"}


def test_a_forged_list_of_written_files_removes_nothing_outside_or_unlisted(tmp_path,
                                                                           mini_data_dir):
    import hashlib

    out = tmp_path / "public"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    digest = hashlib.sha256(victim.read_bytes()).hexdigest()
    plant(out, {"notes.txt": "my notes\n", WRITTEN: json.dumps({
        "generator": "crsearch", "files": {"../victim.txt": [digest], str(victim): [digest],
                                           "notes.txt": ["0" * 64]}})})
    r = build(out, mini_data_dir)
    assert r.exit_code in (0, 2), r.output
    assert victim.read_text() == "precious\n"
    assert (out / "notes.txt").read_text() == "my notes\n"


# -- staging folders of killed builds -----------------------------------------------------

def _staging(out: Path) -> list[Path]:
    return sorted(p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}-"))


@pytest.mark.slow
def test_a_killed_build_leaves_its_staging_folder_only_until_the_next_build(tmp_path,
                                                                          mini_data_dir):
    out = tmp_path / "public"
    p = subprocess.Popen([sys.executable, "-m", "crsearch", "--data-dir", str(mini_data_dir),
                          "site", "build", str(out)], cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not _staging(out) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    p.send_signal(signal.SIGKILL)
    p.wait()
    left = _staging(out)
    assert left, "the build ended before it could be killed"
    r = build(out, mini_data_dir)
    assert r.exit_code == 0, r.output
    assert _staging(out) == []
    assert (out / "index.html").is_file()


@pytest.mark.slow
def test_a_build_removes_no_folder_but_a_dead_builds_staging(tmp_path, mini_data_dir):
    out = tmp_path / "public"
    dead, live, mine = tmp_path / ".public-dead", tmp_path / ".public-live", tmp_path / ".public-mine"
    for folder, pid in ((dead, dead_pid()), (live, os.getpid()), (mine, None)):
        plant(folder, {"page.html": "x\n"})
        if pid is not None:
            (folder / OWNER).write_text(str(pid))
    # A symlink to a folder marked as a dead build's: the link may go, the folder stays.
    target = tmp_path / "target"
    plant(target, {"keep.txt": "keep\n", OWNER: str(dead_pid())})
    (tmp_path / ".public-link").symlink_to(target, target_is_directory=True)
    other = tmp_path / ".other-dead"
    plant(other, {"page.html": "x\n", OWNER: str(dead_pid())})
    (tmp_path / ".public-file").write_text("a file\n")
    r = build(out, mini_data_dir)
    assert r.exit_code == 0, r.output
    assert not dead.exists()
    assert (live / "page.html").is_file() and (mine / "page.html").is_file()
    assert (target / "keep.txt").read_text() == "keep\n"
    assert (other / "page.html").is_file()
    assert (tmp_path / ".public-file").read_text() == "a file\n"
