"""Search speed: in-process queries, whole-process CLI runs, index builds.

    python -m bench.search_speed [--runs 20] [--releases 2026-08-07,2020-01-24,...]

Prints medians: one query in an opened Engine (goal: 10 ms or less) over the
development set; for a question in a player's words, the import, model-load
(the embeddings of the index) and query times apart; whole-process
``crsearch search`` runs for a keyword, a rule number, a pasted passage and
a question next to ``python -c "import click"`` (goals: 2x for the first
three, 3x for questions); and the time to build the index (embeddings
included) of each release named, wall and CPU (the CPU time does not grow
when other processes share the machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.search_quality import ARCHIVE, build_store, load_queries

ROOT = Path(__file__).resolve().parent.parent

#: CPU time (user + system) of the last timed_process's runs, median.
LAST_CPU = [0.0]


def timed_process(args: list[str], runs: int, env: dict[str, str]) -> float:
    """Median wall time of ``runs`` runs; their median CPU time goes to LAST_CPU."""
    import resource

    times, cpus = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    LAST_CPU[0] = statistics.median(cpus)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--releases", default="2026-08-07,2020-08-07,2012-02-01,2003-03-15",
                    help="comma-separated release dates whose index build is timed")
    args = ap.parse_args()

    stored, _release, _ = build_store("2026-08-07")
    # The parsed release is not needed to search; dropping it keeps the
    # garbage collector's walks as short as in the CLI, which never loads it.
    del _release
    import gc

    gc.collect()
    from crsearch.errors import CRSearchError
    from crsearch.search.engine import Engine

    engine = Engine(stored.index_dir)
    queries = [q["query"] for q in load_queries()]
    for q in queries:  # warm caches the way a long-lived process would
        try:
            engine.search(q, 10)
        except CRSearchError:
            pass
    # Wall time is what a user waits; CPU time is what the code costs (it
    # does not grow when other processes share the machine).
    for label, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
        per_query = []
        for _ in range(3):
            for q in queries:
                t = clock()
                try:
                    engine.search(q, 10)
                except CRSearchError:
                    pass
                per_query.append(clock() - t)
        per_query.sort()
        print(f"in-process query ({label}): median {statistics.median(per_query) * 1000:.1f} ms, "
              f"p90 {per_query[int(len(per_query) * 0.9)] * 1000:.1f} ms "
              f"over {len(per_query)} runs of {len(queries)} queries (goal <= 10 ms)")

    cold = []
    for q in ("trample", "deathtouch trample", "can a tapped creature block"):
        t = time.perf_counter()
        Engine(stored.index_dir).search(q, 10)
        cold.append(time.perf_counter() - t)
    print(f"open index + first query: median {statistics.median(cold) * 1000:.1f} ms")

    question = ("my opponent bounced my creature with Unsummon, do the +1/+1 counters "
                "stay on it?")
    code = ("import time, sys\n"
            "t0 = time.perf_counter()\n"
            "from crsearch.search.engine import Engine\n"
            "t1 = time.perf_counter()\n"
            "e = Engine(sys.argv[1])\n"
            "v = e.index.vectors()\n"
            "t2 = time.perf_counter()\n"
            "e.search(sys.argv[2], 10)\n"
            "t3 = time.perf_counter()\n"
            "print(t1 - t0, t2 - t1, t3 - t2, v is not None)\n")
    env_q = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "crsearch")], env=env_q,
                   check=True)
    parts = []
    for _ in range(max(5, args.runs // 2)):
        out = subprocess.run([sys.executable, "-c", code, str(stored.index_dir), question],
                             check=True, capture_output=True, text=True,
                             env=env_q).stdout.split()
        parts.append([float(x) for x in out[:3]])
        loaded = out[3] == "True"
    imp, load, query = (statistics.median(p[i] for p in parts) * 1000 for i in range(3))
    print(f"question in a fresh process (medians): import {imp:.0f} ms, open index + load "
          f"embeddings {load:.0f} ms{'' if loaded else ' (NO EMBEDDINGS)'}, query {query:.0f} ms")

    env = {**os.environ, "CRSEARCH_DATA": str(stored.path.parent.parent)}
    # As installed: modules compiled once (an environment that forbids
    # bytecode would time the compiling of crsearch's tables on every run).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "crsearch")], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    # click's byte code was compiled when it was installed; ours must be too,
    # or every run would time the compiler (PYTHONDONTWRITEBYTECODE is set
    # in some shells).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "crsearch")], env=env,
                   check=True)
    click_s = timed_process([sys.executable, "-c", "import click"], args.runs, env)
    click_cpu = LAST_CPU[0]
    passage = ("If at least one attacking or blocking creature has first strike or double "
               "strike as the combat damage step begins, the only creatures that assign")
    cases = [("keywords", "deathtouch trample", 2), ("number", "702.19c", 2),
             ("passage", passage, 2), ("question", question, 3)]
    print(f"whole process ({args.runs} runs, medians; wall, then CPU): python -c 'import click' "
          f"{click_s * 1000:.0f} ms, {click_cpu * 1000:.0f} ms CPU")
    for label, text, goal in cases:
        took = timed_process([sys.executable, "-m", "crsearch", "search", text], args.runs, env)
        cpu = LAST_CPU[0]
        print(f"  crsearch search ({label}) {took * 1000:.0f} ms = {took / click_s:.1f}x; "
              f"CPU {cpu * 1000:.0f} ms = {cpu / click_cpu:.1f}x "
              f"(goal <= {goal}x: {'met' if took / click_s <= goal else 'NOT met'})")
    rule_s = timed_process([sys.executable, "-m", "crsearch", "rule", "702.19c"], args.runs, env)
    print(f"  crsearch rule 702.19c {rule_s * 1000:.0f} ms = {rule_s / click_s:.1f}x; "
          f"CPU {LAST_CPU[0] / click_cpu:.1f}x")

    import tempfile

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.search.build import build_index

    for date in args.releases.split(","):
        path = ARCHIVE / f"{date.strip()}.txt"
        if not path.exists():
            print(f"index build {date}: no such release in the archive")
            continue
        rel = release_from_bytes(path.read_bytes(), path.name)
        with tempfile.TemporaryDirectory() as tmp:
            t, cpu = time.perf_counter(), time.process_time()
            warning = build_index(rel, Path(tmp) / "index")
            took, cpu = time.perf_counter() - t, time.process_time() - cpu
        c = rel.counts()
        print(f"index build {rel.effective_date} with embeddings: {took:.2f} s wall, "
              f"{cpu:.2f} s CPU ({c['rules'] + c['subrules'] + c['glossary']} documents; "
              f"goal <= 10 s){' ' + warning if warning else ''}")


if __name__ == "__main__":
    main()
