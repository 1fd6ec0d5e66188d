"""The store's weight: disk size and import CPU, one release and the archive.

    python -m bench.store_weight [--archive] [--jobs 2]

Imports 2026-08-07 (with its search index and embeddings) into an empty data
folder, as ``crsearch update --from FILE`` does, and prints its size on disk
(``du``: what the files take, blocks included), file by file for the index,
and the CPU time of the import.  Another import runs first so that module
imports and the model's first read are not counted, and what index builds
keep for the next one (each text's analysis, each word's stem) is then
forgotten: the figure is a single import's, from cold.  With ``--archive``,
imports every release of ``../shared/cr/archive`` the way ``crsearch update
--from`` does (indexes built, embeddings for the newest only, the lineage
table) and prints the total size and CPU time, this process's and its
workers'.

The last lines are the goals of issue #25, each met or not: one release
<= 6 MB and <= 1.5 s CPU; the archive <= 400 MB and <= 120 s CPU.  CPU time
on a shared machine grows with its load: the load average is printed beside.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"


def du(path: Path) -> int:
    """Bytes on disk under ``path`` (as ``du`` counts them)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0]) * 1024


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--archive", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source, read_from
    from crsearch.search.build import forget
    from crsearch.store.datadir import Store

    # Imported once first so that module imports and the model's first
    # read are not counted against the release.
    warm = Path(tempfile.mkdtemp(prefix="crsearch-weight-"))
    latest = ARCHIVE / "2026-08-07.txt"
    import_sources([Source(latest.name, latest.read_bytes(), path=str(latest))], Store(warm))
    shutil.rmtree(warm)
    forget()  # a single import starts with nothing kept from another build

    goals = []
    root = Path(tempfile.mkdtemp(prefix="crsearch-weight-"))
    try:
        load = os.getloadavg()[0]
        c, t = cpu(), time.perf_counter()
        r = import_sources([Source(latest.name, latest.read_bytes(), path=str(latest))], Store(root))
        c, t = cpu() - c, time.perf_counter() - t
        assert r[0].error is None, r[0].error
        folder = Store(root).pick().path
        size = du(folder)
        print(f"one release (2026-08-07): {size / 1e6:.1f} MB on disk, import {c:.2f} s CPU "
              f"({t:.1f} s wall, load average {load:.1f})")
        for p in sorted((folder / "index").iterdir(), key=lambda p: -p.stat().st_size):
            print(f"    index/{p.name:<34} {p.stat().st_size / 1e3:8.0f} kB")
        for p in sorted(folder.iterdir(), key=lambda p: p.name):
            if p.is_file():
                print(f"    {p.name:<40} {p.stat().st_size / 1e3:8.0f} kB")
        goals += [("one release on disk", size / 1e6, 6, "MB"), ("one release, import CPU", c, 1.5, "s")]
    finally:
        shutil.rmtree(root, ignore_errors=True)

    if args.archive:
        root = Path(tempfile.mkdtemp(prefix="crsearch-weight-"))
        try:
            sources = read_from(str(ARCHIVE))
            c, t = cpu(), time.perf_counter()
            results = import_sources(sources, Store(root), jobs=args.jobs)
            c, t = cpu() - c, time.perf_counter() - t
            ok = sum(1 for r in results if r.error is None)
            for r in results:
                if r.error is not None:
                    print(f"  not imported: {r.name}: {r.error}")
            releases = Store(root).releases_dir
            embeds = sum(1 for p in releases.glob("*/index/embed.json"))
            size = du(root)
            print(f"archive: {ok} of {len(sources)} releases imported, {size / 1e6:.0f} MB on disk "
                  f"(indexes {sum(du(p) for p in releases.glob('*/index')) / 1e6:.0f} MB, "
                  f"chapters {sum(du(p) for p in releases.glob('*/chapters.z')) / 1e6:.0f} MB, "
                  f"release files {sum(du(p) for p in releases.glob('*/release.json.gz')) / 1e6:.0f} MB; "
                  f"{embeds} with embeddings), {c:.0f} s CPU ({t:.0f} s wall, {args.jobs} jobs, "
                  f"load average {os.getloadavg()[0]:.1f} at the end)")
            goals += [("archive on disk", size / 1e6, 400, "MB"), ("archive, import CPU", c, 120, "s")]
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print("\ngoals (#25):")
    for what, got, goal, unit in goals:
        print(f"  {what:<26} {got:7.2f} {unit:<2} goal <= {goal} {unit}: "
              f"{'met' if got <= goal else 'NOT met'}")


if __name__ == "__main__":
    main()
