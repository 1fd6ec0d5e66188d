"""The data files that ship with crsearch (data/): when one is damaged, the
message blames the installation and says to reinstall, not the user's store.

Each command runs in a child process whose ``paths.data_dir`` is a damaged
copy of data/ (the real one is never touched), with a deadline: a FIFO there
must not hang a search.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

from crsearch.paths import data_dir

#: ``crsearch ARGS`` with the shipped data read from another folder.
WITH_DATA = """
import sys
from pathlib import Path
from crsearch import paths
shipped = Path(sys.argv[1])
paths.data_dir = lambda: shipped
from crsearch.cli.main import main
sys.argv = ["crsearch", *sys.argv[2:]]
main()
"""

QUESTION = "how does zap work on a widget lever handle"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> Path:
    """A data dir holding the synthetic release with its search index."""
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    root = tmp_path_factory.mktemp("indexed") / "data"
    results = import_sources([Source("mini_cr.txt", (FIXTURES / "mini_cr.txt").read_bytes())], Store(root))
    assert results[0].error is None, results[0].error
    return root


def crsearch_with(shipped: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-c", WITH_DATA, str(shipped), *args],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"crsearch {' '.join(args)} hangs", pytrace=False)


def _damage(path: Path, how: str) -> None:
    path.unlink()
    if how == "not UTF-8":
        path.write_bytes(b"\xff\xfe\x00garbage\tzap\n")
    elif how == "a FIFO":
        os.mkfifo(path)
    elif how == "a device":
        path.symlink_to("/dev/zero")


@pytest.mark.slow
@pytest.mark.parametrize("how, said", [("not UTF-8", "is not UTF-8 text"),
                                       ("a FIFO", "is a FIFO, not a regular file"),
                                       ("a device", "is a character device, not a regular file"),
                                       ("missing", "is missing")])
@pytest.mark.parametrize("name", ["cards.txt", "topics.txt"])
def test_a_damaged_shipped_table_blames_the_installation(tmp_path, indexed, name, how, said):
    shipped = tmp_path / "shipped"
    shutil.copytree(data_dir(), shipped)
    _damage(shipped / name, how)
    r = crsearch_with(shipped, "--data-dir", str(indexed), "search", QUESTION)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.startswith("Error:")]
    assert lines == [f"Error: the crsearch installation is damaged: {shipped / name} {said}; "
                     "reinstall crsearch (pip install --force-reinstall crsearch)"], r.stderr
    assert "crsearch repair" not in r.stderr


@pytest.mark.slow
def test_the_shipped_tables_read_as_before(tmp_path, indexed):
    shipped = tmp_path / "shipped"
    shutil.copytree(data_dir(), shipped)
    r = crsearch_with(shipped, "--data-dir", str(indexed), "search", QUESTION)
    assert r.returncode == 0 and "201.1" in r.stdout, r.stdout + r.stderr
