"""Site build benchmark: time to build one release (search data included),
number of pages, total size and the heaviest page.  Prints medians.

    PYTHONPATH=. python bench/site_bench.py [--runs 5] [TXT]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "cr" / "archive" / "2026-08-07.txt"


def main() -> None:
    from crsearch import site
    from crsearch.update import release_from_bytes

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("txt", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    release = release_from_bytes(Path(args.txt).read_bytes(), Path(args.txt).name)
    total, render_only = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            t = time.perf_counter()
            site.render(release)
            render_only.append(time.perf_counter() - t)
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
    print(f"release            {release.effective_date} ({args.runs} runs)")
    print(f"build, median      {statistics.median(total):.2f} s (goal <= 10 s, search data included)")
    print(f"render, median     {statistics.median(render_only):.2f} s (HTML only)")
    print(f"pages              {len(pages)}")
    print(f"total size         {size / 1e6:.2f} MB in {len(files)} files "
          f"(HTML {html / 1e6:.2f} MB, search data {index / 1e6:.2f} MB in {len(search)} files)")
    print(f"heaviest page      {heaviest.name} {heavy_kb:.0f} kB")


if __name__ == "__main__":
    main()
