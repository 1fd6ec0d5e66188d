"""The site's ranking module ranks as the CLI does (``tools/site_parity.py``).

The module (``templates/js/rank.js``) runs under node over the 2026-08-07
site's search data; the CLI's lexical ranking over the same release's index.
A sample of the bench queries here (every one takes about three minutes on
a busy two-core machine: ``.ci/run`` runs them all).
"""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def parity(indexed_data_dir, latest_site, *args: str) -> subprocess.CompletedProcess:
    from crsearch.store.datadir import Store

    index = Store(indexed_data_dir).pick().index_dir
    return subprocess.run([sys.executable, str(ROOT / "tools" / "site_parity.py"), "--index", str(index),
                           "--site", str(latest_site), *args], capture_output=True, text=True, cwd=ROOT)


def test_the_site_ranks_a_sample_of_bench_queries_as_the_cli(indexed_data_dir, latest_site):
    got = parity(indexed_data_dir, latest_site, "--sample", "60")
    assert got.returncode == 0, got.stdout + got.stderr
    assert "60 queries compared (top 10), 0 differ" in got.stdout


def test_a_difference_fails_the_check(indexed_data_dir, latest_site, tmp_path):
    """A site whose ranking weighs otherwise is caught: the check is not
    blind (here a copy of the search data with the coverage weight doubled)."""
    import re
    import shutil

    site = tmp_path / "site"
    shutil.copytree(latest_site / "search", site / "search")
    meta = next((site / "search").glob("meta.*.js"))
    text = meta.read_text(encoding="utf-8")
    meta.write_text(re.sub(r'"coverage":1\.0', '"coverage":2.0', text), encoding="utf-8")
    got = parity(indexed_data_dir, site, "--sample", "40")
    assert got.returncode == 1 and re.search(r"40 queries compared \(top 10\), [1-9][0-9]* differ", got.stdout), got.stdout
