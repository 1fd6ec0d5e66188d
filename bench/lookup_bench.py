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
its lookup in the same interleaved runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
LATEST = ARCHIVE / "2026-08-07.txt"


def median_run(cmd: list[str], runs: int, env: dict | None = None) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def regular_install(tmp: Path, rev: str | None = None) -> tuple[str, str]:
    """A venv in ``tmp`` with this checkout (or git revision ``rev`` of it)
    installed from a wheel: (python, crsearch)."""
    import venv

    import click

    source = ROOT
    if rev is not None:
        source = tmp / "source"
        source.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    wheels = tmp / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels),
                    str(source)], check=True)
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    wheel = next(wheels.glob("crsearch-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # click (and nothing crsearch needs for a lookup besides) from this interpreter.
    Path(site, "_bench_deps.pth").write_text(str(Path(click.__file__).parent.parent) + "\n")
    return str(py), str(env_dir / "bin" / "crsearch")


def interleaved(cmds: dict[str, list[str]], runs: int, env: dict) -> dict[str, tuple[float, float]]:
    """Run the commands round-robin so that machine noise hits all of them alike.

    Returns (wall, cpu) medians per command; CPU time (user + system of the
    child) is what a shared, busy machine distorts least.
    """
    import resource

    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           check=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            samples[name].append((wall, cpu))
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
            for k, v in samples.items()}


def instructions(cmd: list[str], env: dict) -> int:
    """Instructions one run executes, counted by valgrind: unlike time, the
    count does not move with the load of a shared machine."""
    import re

    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         capture_output=True, text=True, env=env, check=True).stderr
    m = re.search(r"Collected : (\d+)", out)
    if m is None:
        raise SystemExit(f"valgrind printed no count:\n{out[-500:]}")
    return int(m.group(1))


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
        if args.editable:
            import compileall
            import sysconfig

            # An editable checkout would otherwise recompile every module on
            # every run and measure the compiler, not crsearch.
            compileall.compile_dir(str(ROOT / "crsearch"), quiet=1)
            python = sys.executable
            script = str(Path(sysconfig.get_path("scripts")) / "crsearch")
            where = "this interpreter's (editable?) install"
        else:
            python, script = regular_install(data_dir / "install")
            where = "a regular install from a wheel, in a throwaway venv"
        # The console script itself, not a shell shim (pyenv) in front of it.
        rule_cmd = [script, "rule", "702.19c"]
        subprocess.run(rule_cmd, env=env, check=True, stdout=subprocess.DEVNULL)  # warm up
        cmds = {
            "python -c pass": [python, "-c", "pass"],
            'python -c "import click"': [python, "-c", "import click"],
            "crsearch rule 702.19c": rule_cmd,
        }
        if args.against:
            _, old_script = regular_install(data_dir / "against", args.against)
            cmds[f"  ... as of {args.against}"] = [old_script, "rule", "702.19c"]
        meds = interleaved(cmds, args.runs, env)
        base_wall, base_cpu = meds['python -c "import click"']
        print(f"Whole-process medians over {args.runs} interleaved runs, {where}:")
        print(f"  {'':<28} {'wall':>9} {'ratio':>6}   {'cpu':>9} {'ratio':>6}")
        for name, (wall, cpu) in meds.items():
            print(f"  {name:<28} {wall * 1000:6.1f} ms {wall / base_wall:5.2f}x   "
                  f"{cpu * 1000:6.1f} ms {cpu / base_cpu:5.2f}x")
        ratio = meds["crsearch rule 702.19c"][0] / base_wall
        print(f"  goal: crsearch rule within 1.30x of click import (wall) -> "
              f"{'met' if ratio <= 1.3 else 'NOT met'} ({ratio:.2f}x)")
        if args.instructions:
            counts = {name: instructions(cmd, env) for name, cmd in cmds.items()
                      if name != "python -c pass"}
            base = counts['python -c "import click"']
            print("Instructions (valgrind), one run each:")
            for name, n in counts.items():
                print(f"  {name:<28} {n / 1e6:7.1f} M  {n / base:5.2f}x click import")

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
