"""Where `site build` stages its temporary files: a private folder per build.

Whoosh stages the search data's postings in a temporary storage.  With a
fixed name in the system temp folder, two builds at once removed each
other's files, and a symlink planted under that name by another user made a
build empty the folder it points to.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

from crsearch.search.schema import INDEX_NAME


@pytest.mark.slow
def test_parallel_builds_share_no_temp_file_and_follow_no_planted_symlink(tmp_path,
                                                                           mini_data_dir):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    precious = tmp_path / "precious"
    precious.mkdir()
    for n in range(3):
        (precious / f"keep{n}.txt").write_text(f"file {n}\n")
    # Every fixed name Whoosh derives a temporary storage from (ours, and its default).
    planted = [tmpdir / f"{INDEX_NAME}.tmp", tmpdir / "MAIN.tmp"]
    for link in planted:
        link.symlink_to(precious, target_is_directory=True)
    env = {**os.environ, "TMPDIR": str(tmpdir), "CRSEARCH_DATA": str(mini_data_dir)}
    outs = [tmp_path / f"site{n}" for n in range(4)]
    procs = [subprocess.Popen([sys.executable, "-m", "crsearch", "site", "build", str(out)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for out in outs]
    results = [(*p.communicate(timeout=300), p) for p in procs]
    for _, err, p in results:
        assert p.returncode == 0, err
        assert "Traceback" not in err
    assert sorted(p.name for p in precious.iterdir()) == ["keep0.txt", "keep1.txt", "keep2.txt"]
    assert all((precious / f"keep{n}.txt").read_text() == f"file {n}\n" for n in range(3))
    # Nothing left behind in the temp folder but what was planted there.
    assert sorted(tmpdir.iterdir()) == sorted(planted)
    for out in outs:
        assert any((out / "search").iterdir()), out

