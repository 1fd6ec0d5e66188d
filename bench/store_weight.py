"""The store's weight: disk size and import CPU, one release and the archive.

    python -m bench.store_weight [--archive] [--jobs 2]

Imports 2026-08-07 (with its search index and embeddings) into an empty data
folder and prints its size on disk (``du``: what the files take, blocks
included), file by file for the index, and the CPU time of the import
(goals: 6 MB or less, 1.5 s CPU or less).  With ``--archive``, imports every
release of ``../shared/cr/archive`` the way ``crsearch update --from`` does
(indexes built, embeddings for the newest only) and prints the total size
and CPU time, this process's and its workers' (goals: 400 MB or less, 120 s
CPU or less).
"""

from __future__ import annotations

import argparse
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
    from crsearch.store.datadir import Store

    # Imported once first so that module imports and the model's first
    # read are not counted against the release.
    warm = Path(tempfile.mkdtemp(prefix="crsearch-weight-"))
    latest = ARCHIVE / "2026-08-07.txt"
    import_sources([Source(latest.name, latest.read_bytes(), path=str(latest))], Store(warm))
    shutil.rmtree(warm)

    root = Path(tempfile.mkdtemp(prefix="crsearch-weight-"))
    try:
        c, t = cpu(), time.perf_counter()
        r = import_sources([Source(latest.name, latest.read_bytes(), path=str(latest))], Store(root))
        c, t = cpu() - c, time.perf_counter() - t
        assert r[0].error is None, r[0].error
        folder = Store(root).pick().path
        print(f"one release (2026-08-07): {du(folder) / 1e6:.1f} MB on disk, import {c:.2f} s CPU "
              f"({t:.1f} s wall); goals <= 6 MB, <= 1.5 s CPU")
        for p in sorted((folder / "index").iterdir(), key=lambda p: -p.stat().st_size):
            print(f"    index/{p.name:<34} {p.stat().st_size / 1e3:8.0f} kB")
        print(f"    chapters/ {du(folder / 'chapters') / 1e3:.0f} kB, release.json.gz "
              f"{(folder / 'release.json.gz').stat().st_size / 1e3:.0f} kB")
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
            releases = Store(root).releases_dir
            embeds = sum(1 for p in releases.glob("*/index/embed.json"))
            print(f"archive: {ok} of {len(sources)} releases imported, {du(root) / 1e6:.0f} MB on disk "
                  f"(indexes {sum(du(p) for p in releases.glob('*/index')) / 1e6:.0f} MB; "
                  f"{embeds} with embeddings), {c:.0f} s CPU ({t:.0f} s wall, {args.jobs} jobs); "
                  f"goals <= 400 MB, <= 120 s CPU")
        finally:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
