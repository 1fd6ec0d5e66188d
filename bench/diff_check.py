"""Same diff output as another revision: ``crsearch diff`` of archived pairs, byte for byte.

Run: python -m bench.diff_check --data-dir DIR [--against main] [--pairs 20]

Needs a data folder holding the archive (``crsearch update --from
../shared/cr/archive --no-index``; ``history_bench`` makes one too).  Runs
``crsearch diff`` of this checkout and of git revision ``--against`` (its
tree, run from a temporary folder) on ``--pairs`` neighbouring pairs spread
over the archive, plus the bench pair (2026-06-19 -> 2026-08-07) and two
pairs years apart (read without the lineage table), each as text, as
``--json`` and as ``--kind rules --no-cosmetic --json``.  Prints each pair
that differs (or fails), and the number that matched; exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT

FORMS = ([], ["--json"], ["--kind", "rules", "--no-cosmetic", "--json"])


def tree_of(rev: str, where: Path) -> Path:
    """The package tree of git revision ``rev`` (what ``PYTHONPATH`` points at)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "crsearch"],
                             capture_output=True, check=True).stdout
    where.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def run(tree: Path, data: Path, words: list[str]) -> tuple[int, bytes, bytes]:
    import sysconfig

    # -S: no site, so no editable install's finder answers "crsearch" before
    # the tree; the site-packages folder (click) is put on the path by hand.
    path = os.pathsep.join([str(tree), sysconfig.get_path("purelib")])
    env = {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1", "COLUMNS": "100"}
    got = subprocess.run([sys.executable, "-S", "-c", "from crsearch.cli.main import cli; cli()",
                          "--data-dir", str(data), "diff", *words],
                         capture_output=True, env=env, cwd=str(tree))
    return got.returncode, got.stdout, got.stderr


def pairs(data: Path, n: int) -> list[tuple[str, str]]:
    dates = sorted(p.name.split(".", 1)[0] for p in (data / "releases").iterdir()
                   if not p.name.startswith("."))
    step = max((len(dates) - 1) / max(n, 1), 1.0)
    picked = sorted({min(int(k * step), len(dates) - 2) for k in range(n)})
    out = [(dates[k], dates[k + 1]) for k in picked]
    for extra in (("2026-06-19", "2026-08-07"), (dates[0], dates[-1]), ("2015-01-23", "2016-04-08")):
        if extra not in out and all(d in dates for d in extra):
            out.append(extra)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--against", default="main", help="git revision to compare with")
    ap.add_argument("--pairs", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="crsearch-diff-check-") as tmp:
        base = tree_of(args.against, Path(tmp) / "base")
        differ = same = 0
        for old, new in pairs(args.data_dir, args.pairs):
            for form in FORMS:
                words = [old, new, *form]
                a, b = run(base, args.data_dir, words), run(ROOT, args.data_dir, words)
                if a == b and a[0] == 0 and a[1]:
                    same += 1
                else:
                    differ += 1
                    print(f"DIFFERS (or failed): diff {' '.join(words)} (exit {a[0]} vs {b[0]}, "
                          f"{len(a[1])} vs {len(b[1])} bytes)")
        print(f"{same} outputs the same as {args.against}, {differ} differ")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
