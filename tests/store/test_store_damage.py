"""Damaged data-folder files: one line naming the file and the fix, never a hang,
a MemoryError or a traceback; `crsearch repair` fixes what it can.

Things that are not files (a FIFO, ``/dev/zero``) and huge files run the
command in a child process, with a deadline and a memory limit, so that a
regression fails the test instead of hanging or swapping the machine.
"""

from __future__ import annotations

import json
import os
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from conftest import run

from crsearch.store import datadir as store
from crsearch.store.datadir import Store

MEMORY = 1 << 30  # the child's address space: 1 GiB


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def child(data_dir: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``crsearch --data-dir DATA ARGS`` in a child process with a deadline and 1 GiB."""
    try:
        return subprocess.run([sys.executable, "-m", "crsearch", "--data-dir", str(data_dir), *args],
                              capture_output=True, text=True, timeout=timeout,
                              preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"crsearch {' '.join(args)} still ran after {timeout} s (it hangs)", pytrace=False)


def one_line(out: str) -> str:
    """The one error line of a command's output (and nothing like a traceback)."""
    assert "Traceback" not in out and "MemoryError" not in out, out
    lines = [x for x in out.splitlines() if x.startswith("Error:")]
    assert len(lines) == 1, out
    return lines[0]


def release_dir(data_dir: Path) -> Path:
    return Store(data_dir).pick().path


def target(data_dir: Path, name: str) -> Path:
    return data_dir / name if name == "catalog.json" else release_dir(data_dir) / name


#: Each store file, and the command that reads it.
READERS = {"meta.json": ["rule", "201.1"], "chapters.z": ["rule", "201.1"],
           "catalog.json": ["rule", "201.1"], "release.json.gz": ["export", "--json"]}


def _check_repaired(data_dir: Path, name: str) -> None:
    r = child(data_dir, "repair")
    assert "Traceback" not in r.stderr, r.stderr
    if name == "release.json.gz":
        # Nothing to rebuild the release from: set aside, to be imported again.
        assert r.returncode == 2 and "update --from" in r.stdout, r.stdout + r.stderr
        assert child(data_dir, "rule", "201.1").returncode == 3
    else:
        assert r.returncode == 0, r.stdout + r.stderr
        r = child(data_dir, "rule", "201.1")
        assert r.returncode == 0 and "Zap" in r.stdout, r.stdout + r.stderr


# -- things that are not files ---------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", list(READERS))
def test_a_fifo_in_place_of_a_store_file_is_one_line_not_a_hang(mini_data_dir, name):
    path = target(mini_data_dir, name)
    path.unlink()
    os.mkfifo(path)
    r = child(mini_data_dir, *READERS[name], timeout=30)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert Path(name).name in line and "a FIFO" in line and "crsearch repair" in line
    _check_repaired(mini_data_dir, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(READERS))
def test_a_store_file_that_points_at_dev_zero_is_one_line(mini_data_dir, name):
    path = target(mini_data_dir, name)
    path.unlink()
    path.symlink_to("/dev/zero")
    r = child(mini_data_dir, *READERS[name])
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert Path(name).name in line and "a character device" in line and "crsearch repair" in line
    _check_repaired(mini_data_dir, name)


@pytest.mark.parametrize("name, kind", [("meta.json", "meta"), ("chapters.z", "chapters"),
                                        ("catalog.json", "catalog")])
def test_a_store_file_above_its_limit_is_refused_unread(mini_data_dir, name, kind):
    path = target(mini_data_dir, name)
    with open(path, "r+b") as f:
        f.truncate(store.LIMITS[kind] + 1)  # sparse: no disk space, no time
    r = run(mini_data_dir, "rule", "201.1")
    assert r.exit_code == 2, r.output
    line = one_line(r.output)
    assert Path(name).name in line and "larger than" in line and "crsearch repair" in line


@pytest.fixture(scope="module")
def gzip_bomb(tmp_path_factory) -> Path:
    """A gzip file of 1.5 MB that holds 1.5 GB of zeros (more than the child may use)."""
    path = tmp_path_factory.mktemp("bomb") / "release.json.gz"
    mb = 1536
    block = b"\0" * (1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    # After a full flush the compressor starts afresh, so every further block of
    # zeros compresses to the same bytes: deflate 2 MB, not 1.5 GB.
    first = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    more = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(mb):
        crc = zlib.crc32(block, crc)
    with open(path, "wb") as f:
        f.write(first)
        for _ in range(mb - 1):
            f.write(more)
        # An empty last block, then the trailer: CRC-32 and length (mod 2**32).
        f.write(b"\x03\x00" + struct.pack("<II", crc, (mb << 20) & 0xFFFFFFFF))
    return path


@pytest.mark.slow
def test_a_gzip_bomb_in_place_of_the_release_file_is_one_line(mini_data_dir, gzip_bomb):
    path = target(mini_data_dir, "release.json.gz")
    path.write_bytes(gzip_bomb.read_bytes())
    r = child(mini_data_dir, "export", "--json")
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert "release.json.gz" in line and "larger than" in line and "crsearch repair" in line
    _check_repaired(mini_data_dir, "release.json.gz")


# -- cut files ---------------------------------------------------------------------------

#: Runs `crsearch rule 201.1` once per cut of a file, in one process, each time as
#: a fresh lookup does: without the json package (a lookup reads with the C
#: scanner alone, which failed with SystemError on a cut file then).
CUTS = """
import sys
from pathlib import Path
from click.testing import CliRunner
from crsearch.cli.main import cli

data, path = sys.argv[1], Path(sys.argv[2])
whole = path.read_bytes()
for n in range(len(whole)):
    for name in [m for m in sys.modules if m == "json" or m.startswith("json.")]:
        del sys.modules[name]
    path.write_bytes(whole[:n])
    r = CliRunner().invoke(cli, ["--data-dir", data, "rule", "201.1"])
    crash = "" if r.exception is None or isinstance(r.exception, SystemExit) else repr(r.exception)
    print(n, r.exit_code, repr(r.output.strip()), crash, sep="\\t")
path.write_bytes(whole)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["meta.json", "chapters.z", "catalog.json"])
def test_a_file_cut_anywhere_is_one_line_with_the_fix(mini_data_dir, name):
    path = target(mini_data_dir, name)
    out = subprocess.run([sys.executable, "-c", CUTS, str(mini_data_dir), str(path)],
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(path.read_bytes())
    for line in lines:
        n, code, output, crash = line.split("\t")
        assert code == "2" and not crash, line
        assert output.count("Error:") == 1 and "crsearch repair" in output and "Traceback" not in output, line
        assert name == "catalog.json" or Path(name).name in output, line
    path.write_bytes(path.read_bytes()[:len(lines) // 3])
    assert run(mini_data_dir, "repair").exit_code == 0
    assert run(mini_data_dir, "rule", "201.1").exit_code == 0


# -- caches beside a release -------------------------------------------------------------

def _valid_table(data_dir: Path) -> bool:
    from crsearch.desk import explain

    path = release_dir(data_dir) / explain.CACHE_NAME
    return explain.table_problem(json.loads(path.read_text("utf-8")), "2031-03-03") is None


def _bad_tables() -> dict[str, object]:
    from crsearch.desk import explain

    good = {"format": explain.FORMAT, "release": "2031-03-03", "meanings": {}, "keys": {},
            "land_types": [], "landwalk": None, "cycling": None, "max_words": 2}
    return {"a list": [], "null": None, "format only": {"format": explain.FORMAT},
            "meanings a list": {**good, "meanings": []},
            "a meaning not an object": {**good, "meanings": {"201.1": "Zap"}},
            "a key to nothing": {**good, "keys": {"zap": ["201.1"]}},
            "keys a string": {**good, "keys": "zap"},
            "another release": {**good, "release": "2020-01-01"},
            "land types a number": {**good, "land_types": 3}, "max words text": {**good, "max_words": "2"}}


@pytest.mark.parametrize("shape", list(_bad_tables()))
def test_a_wrong_shape_explain_cache_is_rebuilt_when_read(mini_data_dir, shape):
    from crsearch.desk import explain

    assert run(mini_data_dir, "explain", "Zap target widget.").exit_code == 0
    cache = release_dir(mini_data_dir) / explain.CACHE_NAME
    cache.write_text(json.dumps(_bad_tables()[shape]), encoding="utf-8")
    r = run(mini_data_dir, "explain", "Zap target widget.")
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    assert "201.1" in r.output and "101" in r.output
    assert _valid_table(mini_data_dir)


@pytest.mark.parametrize("content", ['{"glossary": 3, "keywords": []}', "[]", "null",
                                     '{"glossary": ["Widget", 3], "keywords": []}', '{"glossary": []}',
                                     '{"glossary": {"Widget": 1}, "keywords": []}', "{", "\udcff"])
def test_a_wrong_shape_completion_cache_is_rebuilt_when_read(mini_data_dir, content):
    from crsearch.store import caches as completion

    cache = release_dir(mini_data_dir) / completion.CACHE_NAME
    cache.write_bytes(content.encode("utf-8", "surrogateescape"))
    env = {"_CRSEARCH_COMPLETE": "bash_complete", "COMP_WORDS": "crsearch define Wid", "COMP_CWORD": "2",
           "CRSEARCH_DATA": str(mini_data_dir)}
    r = run(None, env=env, prog_name="crsearch")
    assert "plain,Widget" in r.output.splitlines(), r.output
    assert completion.cache_problem(Store(mini_data_dir).pick()) is None
    assert "Widget" in json.loads(cache.read_text("utf-8"))["glossary"]


@pytest.mark.slow
@pytest.mark.parametrize("what", ["wrong shape", "FIFO", "folder"])
def test_repair_rebuilds_damaged_caches(mini_data_dir, what):
    from crsearch.desk import explain
    from crsearch.store import caches as completion

    assert run(mini_data_dir, "explain", "Zap").exit_code == 0
    folder = release_dir(mini_data_dir)
    for name in (explain.CACHE_NAME, completion.CACHE_NAME):
        path = folder / name
        path.unlink(missing_ok=True)
        if what == "FIFO":
            os.mkfifo(path)
        elif what == "folder":
            path.mkdir()
            (path / "kept.txt").write_text("mine")
        else:
            path.write_text(json.dumps({"format": explain.FORMAT, "glossary": 3}), encoding="utf-8")
    r = child(mini_data_dir, "repair")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nothing to repair" not in r.stdout
    for name in (explain.CACHE_NAME, completion.CACHE_NAME):
        assert f"release 2031-03-03: rebuilt {name}" in r.stdout
    stored = Store(mini_data_dir).pick()
    assert explain.cache_problem(stored) is None and completion.cache_problem(stored) is None
    assert _valid_table(mini_data_dir)
    if what == "folder":  # set aside, never deleted
        assert sorted(p.read_text() for p in folder.glob(".damaged-*/kept.txt")) == ["mine", "mine"]
    r = child(mini_data_dir, "repair")
    assert r.returncode == 0 and "nothing to repair" in r.stdout, r.stdout


# -- what is not a damaged release -------------------------------------------------------

@pytest.mark.slow
def test_a_data_folder_that_is_a_fifo_is_named_for_what_it_is(tmp_path):
    fifo = tmp_path / "data"
    os.mkfifo(fifo)
    for args in (["rule", "201.1"], ["repair"], ["releases"]):
        r = child(fifo, *args, timeout=30)
        assert r.returncode == 2, r.stdout + r.stderr
        line = one_line(r.stderr)
        assert f"the data folder {fifo} is a FIFO, not a folder" in line, line
        assert "catalog" not in line and "repair" not in line


def test_repair_sets_aside_a_folder_in_place_of_the_chapters_file(tmp_path, mini_release):
    # A long path: repair names it whole, never cut.
    root = tmp_path / ("a-long-folder-name-" * 6) / "data"
    Store(root).save(mini_release)
    chapters = release_dir(root) / "chapters.z"
    chapters.unlink()
    chapters.mkdir()
    (chapters / "notes.txt").write_text("mine")
    r = run(root, "rule", "201.1")
    assert r.exit_code == 2 and "crsearch repair" in one_line(r.output)
    r = run(root, "repair")
    assert r.exit_code == 0, r.output
    assert f"set aside {chapters} (a folder) as .damaged-chapters.z-" in r.output
    assert "release 2031-03-03: rewrote chapters.z" in r.output
    assert run(root, "rule", "201.1").exit_code == 0
    assert [p.read_text() for p in chapters.parent.glob(".damaged-chapters.z-*/notes.txt")] == ["mine"]


def test_repair_that_cannot_write_names_the_file_in_full(tmp_path, mini_release, monkeypatch):
    import errno

    from crsearch.store import repair

    root = tmp_path / ("a-long-folder-name-" * 6) / "data"
    Store(root).save(mini_release)
    chapter = release_dir(root) / "chapters.z"
    chapter.write_text("[")

    def refuse(path, data, sync=False):
        raise OSError(errno.EROFS, "Read-only file system", str(path.parent / ".chapters.z-x.tmp"))

    monkeypatch.setattr(repair, "write_atomic", refuse)
    r = run(root, "repair")
    assert r.exit_code == 2
    assert one_line(r.output) == (f"Error: release 2031-03-03: cannot rewrite {chapter}: "
                                  "Read-only file system")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["terms.json", "fast.json", "fast-docs.z", "segment"])
def test_a_fifo_in_the_search_index_is_one_line_and_repair_rebuilds_it(tmp_path, mini_bytes, name):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source

    data = tmp_path / "data"
    assert import_sources([Source("mini_cr.txt", mini_bytes)], Store(data))[0].error is None
    index = Store(data).pick().index_dir
    path = next(index.glob("*.seg")) if name == "segment" else index / name
    path.unlink()
    os.mkfifo(path)
    r = child(data, "search", "widget lever", timeout=30)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert path.name in line and "a FIFO" in line and "crsearch index" in line
    r = child(data, "repair", timeout=60)
    assert r.returncode == 0 and "rebuilt the search index" in r.stdout, r.stdout + r.stderr
    r = child(data, "search", "widget lever")
    assert r.returncode == 0 and "101.2" in r.stdout, r.stdout + r.stderr
