"""Site build benchmark: time to build one release (search data included),
number of pages, total size and the heaviest page.  Prints medians.

    python -m bench.site_bench [--runs 5] [TXT]
    python -m bench.site_bench --all 114     # every release, one run
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "cr" / "archive" / "2026-08-07.txt"


def main() -> None:
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("txt", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--all", type=int, metavar="N", default=0,
                    help="instead, build the N latest archived releases with build_all (--all)")
    args = ap.parse_args()
    if args.all:
        build_all_bench(args.all)
        return
    release = release_from_bytes(Path(args.txt).read_bytes(), Path(args.txt).name)
    total, render_only, chapters_only = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            t = time.perf_counter()
            site.render(release)
            render_only.append(time.perf_counter() - t)
            # Baseline: the same release without its rule pages (chapters only).
            t = time.perf_counter()
            site.render(release, site.Edition(dates=[release.effective_date], rule_pages=False))
            chapters_only.append(time.perf_counter() - t)
            t = time.perf_counter()
            site.build(release, Path(tmp) / f"site{n}")
            total.append(time.perf_counter() - t)
        out = Path(tmp) / "site0"
        files = [p for p in out.rglob("*") if p.is_file()]
        pages = [p for p in files if p.suffix == ".html"]
        heaviest = max(pages, key=lambda p: p.stat().st_size)
        heavy_kb = heaviest.stat().st_size / 1e3
        size = sum(p.stat().st_size for p in files)
        html = sum(p.stat().st_size for p in pages)
        search = [p for p in files if "search" in p.relative_to(out).parts[:1]]
        index = sum(p.stat().st_size for p in search)
        rule_pages = [p for p in pages if p.parent == out and "." in p.stem]
        rule_bytes = sum(p.stat().st_size for p in rule_pages)
        api = sum(p.stat().st_size for p in files if p.relative_to(out).parts[0] == "api")
        precache, precache_gz = precache_bytes(out), precache_bytes(out, gzip=True)
    print(f"release            {release.effective_date} ({args.runs} runs)")
    print(f"build, median      {statistics.median(total):.2f} s (goal <= 10 s, search data included)")
    print(f"render, median     {statistics.median(render_only):.2f} s (HTML only)")
    print(f"pages              {len(pages)}")
    print(f"total size         {size / 1e6:.2f} MB in {len(files)} files "
          f"(HTML {html / 1e6:.2f} MB, search data {index / 1e6:.2f} MB in {len(search)} files)")
    print(f"heaviest page      {heaviest.name} {heavy_kb:.0f} kB")
    ratio = statistics.median(render_only) / statistics.median(chapters_only)
    print(f"render, no rule pages {statistics.median(chapters_only):.2f} s (baseline; "
          f"rule pages make rendering {ratio:.1f}x)")
    print(f"rule pages         {len(rule_pages)} ({rule_bytes / 1e6:.2f} MB)")
    print(f"JSON API           {api / 1e6:.2f} MB")
    print(f"offline precache   {precache / 1e6:.2f} MB ({precache_gz / 1e6:.2f} MB gzipped)")


def precache_bytes(out: Path, gzip: bool = False) -> int:
    """Bytes the service worker fetches to be offline (bench/site_offline.py)."""
    import zlib

    from site_offline import precache

    total = 0
    for url in precache(out):
        data = (out / url).read_bytes()
        total += len(zlib.compress(data, 6)) if gzip else len(data)
    return total


def build_all_bench(n: int) -> None:
    """One ``--all`` build of the ``n`` latest archived releases (one run: it is long)."""
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site

    paths = sorted(DEFAULT.parent.glob("*.txt"))[-n:]
    t = time.perf_counter()
    releases = [release_from_bytes(p.read_bytes(), p.name) for p in paths]
    parse = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        t = time.perf_counter()
        cpu = time.process_time()
        result = site.build_all(releases, out)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        files = [p for p in out.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        # What the disk holds: whole blocks (``du``), many small files cost more.
        disk = sum(p.stat().st_blocks * 512 for p in out.rglob("*"))
        api = sum(p.stat().st_size for p in files if p.relative_to(out).parts[0] == "api")
        older = sum(p.stat().st_size for p in files
                    if p.relative_to(out).parts[0][:2] in ("19", "20") and len(p.relative_to(out).parts) > 1)
        search = [p for p in files if "search" in p.relative_to(out).parts[:2]]
        print(f"releases           {len(releases)} ({releases[0].effective_date} .. {releases[-1].effective_date})")
        print(f"parse              {parse:.1f} s")
        print(f"build --all        {took:.1f} s wall, {cpu:.1f} s CPU in this process "
              f"({took / len(releases):.2f} s a release)")
        print(f"pages              {result.pages}")
        print(f"total size         {size / 1e6:.1f} MB in {len(files)} files "
              f"(JSON API {api / 1e6:.1f} MB, older releases' folders {older / 1e6:.1f} MB, search "
              f"data {sum(p.stat().st_size for p in search) / 1e6:.1f} MB in {len(search)} files, "
              "the shared folder of every release's included)")
        print(f"on disk            {disk / 1e6:.1f} MB in blocks (du), load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"offline precache   {precache_bytes(out) / 1e6:.2f} MB "
              f"({precache_bytes(out, gzip=True) / 1e6:.2f} MB gzipped)")


if __name__ == "__main__":
    main()
