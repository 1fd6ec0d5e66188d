"""History and diff benchmarks: whole processes over a data folder of the archive.

Run: python -m bench.history_bench [--data-dir DIR] [--runs 15] [--before-runs 3] [--against REV] [--skip-table-cost] [--editable]

Needs a data folder holding the 114 archived releases (``crsearch update
--from ../shared/cr/archive --no-index``); without ``--data-dir`` one is made
in a temporary folder first (minutes).  Prints, as medians of interleaved
runs next to the baselines of the same run (``python -c pass`` and
``python -c "import click"``), wall and CPU time (user + system of each
child; the steadier figure on a busy machine) and peak memory of:

- ``crsearch history 733.1``, read from the lineage table;
- the same without the table (a copy of the folder whose ``lineage.json`` is
  left out, so history pairs the releases as it reads them): ``--before-runs``;
- ``crsearch diff`` (2026-06-19 -> 2026-08-07, neighbouring releases), read
  through their link, and without the table (the whole releases paired).

``--against REV`` installs a git revision the same way and times its
``history`` and ``diff`` (with the table) in the same rounds: before and
after a change, from one run.

Then the cost of the table: its size, and the CPU time of working out every
link of the folder again (``Linker``, as an import does for each release;
a minute or more, left out with ``--skip-table-cost``).

Start-up is measured on a regular install (a wheel in a throwaway venv, see
``lookup_bench.py``) unless ``--editable``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import ARCHIVE, measure, regular_install, timed_install

GOAL_HISTORY, GOAL_DIFF = 3.0, 2.0


def interleaved(cmds: dict[str, tuple[list[str], int]], env: dict) -> dict[str, tuple[float, float, int]]:
    """Round-robin runs (name -> (command, runs)); medians of wall, cpu and peak memory."""
    samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in cmds}
    for n in range(max(r for _, r in cmds.values())):
        for name, (cmd, runs) in cmds.items():
            if n < runs:
                samples[name].append(measure(cmd, env))
    return {k: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v),
                int(statistics.median(s[2] for s in v))) for k, v in samples.items()}


def archive_store(where: Path) -> Path:
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import read_from
    from crsearch.store.datadir import Store

    t = time.process_time()
    results = import_sources(read_from(str(ARCHIVE)), Store(where), build_index=False, jobs=2)
    bad = [r.error for r in results if r.error]
    if bad:
        raise SystemExit(f"import failed: {bad[:3]}")
    print(f"(imported {len(results)} archived releases into {where}: "
          f"{time.process_time() - t:.0f} s CPU in this process)")
    return where


def link_cost(data: Path) -> None:
    from crsearch.changes.lineage import Linker, link
    from crsearch.store.datadir import Store
    from crsearch.store.lineage import FILE, Lineage

    table = data / FILE
    size = table.stat().st_size
    gz = len(gzip.compress(table.read_bytes()))
    stored = Store(data).releases()
    lineage = Lineage.read(data)
    print(f"\nLineage table: {len(lineage.links)} links for {len(stored)} releases, "
          f"{size / 1024:.0f} KiB ({gz / 1024:.0f} KiB gzipped)")
    linker = Linker()
    load = pair = 0.0
    for a, b in zip(stored, stored[1:]):
        t = time.process_time()
        old, new = linker.release(a), linker.release(b)
        t1 = time.process_time()
        link(old, new)
        t2 = time.process_time()
        load, pair = load + t1 - t, pair + t2 - t1
    n = len(stored) - 1
    print(f"Working out every link again: {pair:.1f} s CPU pairing ({pair / n * 1000:.0f} ms a "
          f"link), plus {load:.1f} s reading releases ({load / n * 1000:.0f} ms a link; an "
          "import has the new release in memory and reads one neighbour)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, help="a data folder holding the archive")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--before-runs", type=int, default=3,
                    help="runs of history without the table (tens of seconds each)")
    ap.add_argument("--against", metavar="REV",
                    help="also time git revision REV's history and diff (a regular install)")
    ap.add_argument("--skip-table-cost", action="store_true",
                    help="leave out working out every link again")
    ap.add_argument("--editable", action="store_true",
                    help="time the running interpreter's install instead of a regular one")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="crsearch-history-bench-"))
    try:
        data = args.data_dir or archive_store(tmp / "data")
        from crsearch.store.lineage import FILE

        if not (data / FILE).is_file():
            raise SystemExit(f"{data} has no {FILE}: run `crsearch --data-dir {data} repair`")
        # The same releases without the table (hard links: nothing is copied).
        before = tmp / "before"
        shutil.copytree(data, before, copy_function=os.link,
                        ignore=lambda d, names: [FILE] if Path(d) == data else [])
        python, script, where = timed_install(tmp / "install", args.editable)
        env = dict(os.environ)

        def crsearch(folder: Path, *words: str) -> list[str]:
            return [script, "--data-dir", str(folder), *words]

        subprocess.run(crsearch(data, "history", "733.1"), env=env, check=True,
                       stdout=subprocess.DEVNULL)  # warm the page cache
        cmds = {
            "python -c pass": ([python, "-c", "pass"], args.runs),
            'python -c "import click"': ([python, "-c", "import click"], args.runs),
            "history 733.1 (table)": (crsearch(data, "history", "733.1"), args.runs),
            "history 733.1 (no table)": (crsearch(before, "history", "733.1"), args.before_runs),
            "diff (neighbours)": (crsearch(data, "diff", "2026-06-19", "2026-08-07"), args.runs),
            "diff (no table)": (crsearch(before, "diff", "2026-06-19", "2026-08-07"), args.runs),
        }
        if args.against:
            _, old_script = regular_install(tmp / "against", args.against)
            for name, words in (("history 733.1", ["history", "733.1"]),
                                ("diff (neighbours)", ["diff", "2026-06-19", "2026-08-07"])):
                cmds[f"{name} @{args.against}"] = ([old_script, "--data-dir", str(data), *words],
                                                   args.runs)
        meds = interleaved(cmds, env)
        base_wall, base_cpu, _ = meds['python -c "import click"']
        print(f"Whole-process medians of interleaved runs ({args.runs}; history without the "
              f"table {args.before_runs}), {where}, {len(list((data / 'releases').iterdir()))} "
              "release folders:")
        width = max(len(name) for name in meds)
        print(f"  {'':<{width}} {'wall':>10} {'ratio':>7}   {'cpu':>10} {'ratio':>7}   {'peak':>8}")
        for name, (wall, cpu, peak) in meds.items():
            print(f"  {name:<{width}} {wall * 1000:7.0f} ms {wall / base_wall:6.2f}x   "
                  f"{cpu * 1000:7.0f} ms {cpu / base_cpu:6.2f}x   {peak / 2**20:5.0f} MiB")
        for name, goal in (("history 733.1 (table)", GOAL_HISTORY), ("diff (neighbours)", GOAL_DIFF)):
            wall, cpu, _ = meds[name]
            print(f"  goal: {name} <= {goal:.0f}x click import: wall {wall / base_wall:.2f}x, "
                  f"cpu {cpu / base_cpu:.2f}x -> "
                  f"{'met' if max(wall / base_wall, cpu / base_cpu) <= goal else 'NOT met'}")
        if not args.skip_table_cost:
            link_cost(data)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
