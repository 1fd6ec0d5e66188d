"""Diff benchmarks: two neighbouring releases, and 23 years apart.

Run: python -m bench.diff_bench [--runs 7]

Parsing is done once, outside the timing; the figures are medians of
``diff_releases`` alone, plus a short summary of what each diff found.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"

PAIRS = [("2026-06-19", "2026-08-07"), ("2003-03-15", "2026-08-07")]


def main() -> None:
    from crsearch.changes.diff import diff_releases
    from crsearch.ingest.pipeline import release_from_bytes

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()

    releases = {}
    for date in sorted({d for pair in PAIRS for d in pair}):
        path = ARCHIVE / f"{date}.txt"
        releases[date] = release_from_bytes(path.read_bytes(), path.name)

    for old, new in PAIRS:
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            diff = diff_releases(releases[old], releases[new])
            times.append(time.perf_counter() - started)
        counts = diff.counts()
        print(f"{old} -> {new}: median {statistics.median(times) * 1000:.0f} ms "
              f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, {args.runs} runs)")
        for kind, ops in counts.items():
            found = ", ".join(f"{n} {op}" for op, n in ops.items() if n)
            if found:
                print(f"    {kind:<9} {found}")
        noise = sum(1 for c in diff.changes if c.noise)
        print(f"    {len(diff.changes)} changes, {noise} only typography or renumbered references")


if __name__ == "__main__":
    main()
