"""Foundation benchmarks: rule lookup start-up, parse time, importing the archive.

Run: python -m bench.lookup_bench [--runs 30] [--skip-archive] [--against main] [--editable]

Whole-process times are medians over many runs, printed next to baselines
measured in the same run (`python -c pass`, `python -c "import click"`), since
these small machines are noisy: the ratio is the figure to quote.

The start-up figures are measured on a regular (non-editable) install: the
bench builds a wheel of this checkout and installs it, without dependencies,
into a throwaway venv in a temp folder whose only other import path is the
running interpreter's site-packages folder holding click (a ``.pth`` line, so
that folder's own ``.pth`` files, the editable finder among them, do not
run).  An editable install's finder adds about 10 ms to every start-up in
its venv and hides crsearch's own cost.  ``--editable`` measures the running
interpreter as it is instead.  CPU time (user + system of each child) is
printed beside wall time: on a shared, busy machine it is the steadier
figure.  ``--against REV`` installs a git revision the same way and times
its lookup in the same interleaved runs, in a data folder that revision
imported (the store's layout may differ between them).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import (
    ARCHIVE,
    LATEST,
    interleaved,
    print_instructions,
    print_ratios,
    regular_install,
    timed_install,
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--skip-archive", action="store_true")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for the archive import")
    ap.add_argument("--against", metavar="REV",
                    help="also time `crsearch rule` as of this git revision (e.g. main), installed alike")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with valgrind (steady on a busy machine)")
    ap.add_argument("--editable", action="store_true",
                    help="time the running interpreter's install instead of a regular one")
    ap.add_argument("--with-index", action="store_true",
                    help="also build every release's search index (minutes)")
    args = ap.parse_args()
    from crsearch.ingest.parse import parse_bytes
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import read_from
    from crsearch.rules.refs import resolve
    from crsearch.store.datadir import Store

    data_dir = Path(tempfile.mkdtemp(prefix="crsearch-bench-"))
    env = {**os.environ, "CRSEARCH_DATA": str(data_dir / "data")}
    try:
        Store(data_dir / "data").save(resolve(parse_bytes(LATEST.read_bytes(), LATEST.name)))
        python, script, where = timed_install(data_dir / "install", args.editable)
        rule_cmd = [script, "rule", "702.19c"]
        subprocess.run(rule_cmd, env=env, check=True, stdout=subprocess.DEVNULL)  # warm up
        cmds = {
            "python -c pass": [python, "-c", "pass"],
            'python -c "import click"': [python, "-c", "import click"],
            "crsearch rule 702.19c": rule_cmd,
        }
        if args.against:
            _, old_script = regular_install(data_dir / "against", args.against)
            # Its own data folder, imported by that revision: the layout may differ.
            old_data = data_dir / "against-data"
            subprocess.run([old_script, "--data-dir", str(old_data), "update", "--from", str(LATEST),
                            "--no-index"], env=env, check=True, stdout=subprocess.DEVNULL)
            cmds[f"  ... as of {args.against}"] = [old_script, "--data-dir", str(old_data),
                                                   "rule", "702.19c"]
        meds = interleaved(cmds, args.runs, env)
        print_ratios(meds, f"Whole-process medians over {args.runs} interleaved runs, {where}:")
        ratio = meds["crsearch rule 702.19c"][0] / meds['python -c "import click"'][0]
        print(f"  goal: crsearch rule within 1.30x of click import (wall) -> "
              f"{'met' if ratio <= 1.3 else 'NOT met'} ({ratio:.2f}x)")
        if args.instructions:
            print_instructions(cmds, env)

        data = LATEST.read_bytes()
        parse_times, resolve_times = [], []
        for _ in range(15):
            t = time.perf_counter()
            release = parse_bytes(data, LATEST.name)
            parse_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            resolve(release)
            resolve_times.append(time.perf_counter() - t)
        print(f"\nParse 2026-08-07 (decode + parse): median {statistics.median(parse_times) * 1000:.0f} ms;"
              f" cross-references: median {statistics.median(resolve_times) * 1000:.0f} ms")

        if not args.skip_archive:
            bulk = Path(tempfile.mkdtemp(prefix="crsearch-bulk-"))
            try:
                sources = read_from(str(ARCHIVE))
                for jobs in sorted({1, args.jobs}):
                    shutil.rmtree(bulk, ignore_errors=True)
                    t = time.perf_counter()
                    results = import_sources(sources, Store(bulk), build_index=args.with_index,
                                             jobs=jobs)
                    took = time.perf_counter() - t
                    ok = sum(1 for r in results if r.error is None)
                    what = "with search indexes" if args.with_index else "no index"
                    print(f"Import all {len(sources)} archived releases ({what}, {jobs} job"
                          f"{'s' if jobs > 1 else ''}): {took:.1f} s ({ok} stored, "
                          f"{took / len(sources) * 1000:.0f} ms each)")
            finally:
                shutil.rmtree(bulk, ignore_errors=True)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
