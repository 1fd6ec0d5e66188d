"""explain: precision and recall of the terms found, and whole-process time.

Run: python bench/explain_bench.py [--runs 15]

The cards in ``explain_cards.txt`` were written for this benchmark in the
style of real cards (keywords with parameters, counters, modal spells, sagas,
adventures, rooms, class levels, planeswalkers, vehicles, battles), each with
the terms a judge would want explained, annotated by hand.

What counts as a term (the annotation policy): a keyword action or ability
(701.x, 702.x; inflected forms too, "Equipped" is equip); a card type, zone,
step or phase, or game concept named by a chapter title in sections 1, 3, 4
and 5; a supertype or subtype from the lists in 205.4a and 205.3 (artifact,
enchantment, land, spell and battle types; creature and planeswalker types
are left out); a counter with its kind ("quest counter"); an ability word
before its dash; and any glossary term except the general words in
``explain.GENERIC`` (you, card, spell, player, mana, control, ...).  The id
is the keyword's rule, the chapter, the rule the 205 list points to, else
the glossary's one cited rule, else ``glossary:<Term>``.

A found term is right when a hand-made term with the same id overlaps it;
"exact" counts those whose span is also exactly the hand-made phrase (it
measures parameters: "ward {2}", "protection from red").  Times are medians
of whole ``crsearch explain`` processes next to ``python -c "import click"``,
run round-robin in the same loop.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
LATEST = ARCHIVE / "2026-08-07.txt"
CARDS = Path(__file__).resolve().parent / "explain_cards.txt"
HELDOUT = Path(__file__).resolve().parent / "explain_heldout.txt"
HELDOUT2 = Path(__file__).resolve().parent / "explain_heldout2.txt"


def load_cards(path: Path = CARDS) -> list[dict]:
    """Cards as dicts: name, text, and gold terms as (start, end, phrase, id)."""
    cards = []
    for block in path.read_text(encoding="utf-8").split("\n=== ")[1:]:
        head, rest = block.split("\n", 1)
        text, gold_lines = rest.split("\n---\n", 1)
        gold, pos = [], 0
        for line in gold_lines.strip().splitlines():
            phrase, id = (part.strip() for part in line.rsplit("|", 1))
            import re

            m = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)").search(text, pos)
            start = m.start() if m else -1
            if start < 0:
                raise SystemExit(f"{head}: {phrase!r} not found in order in the card text")
            gold.append((start, start + len(phrase), phrase, id))
            pos = start + 1
        cards.append({"name": head.strip(), "text": text, "gold": gold})
    return cards


def score(cards: list[dict], table: dict, show: bool = False) -> dict:
    from crsearch.desk import explain

    found_n = gold_n = right = recalled = exact = 0
    misses: list[str] = []
    for card in cards:
        found = explain.find(card["text"], table)
        used: set[int] = set()
        found_n += len(found)
        gold_n += len(card["gold"])
        for t in found:
            a, b = t["span"]
            match = next((k for k, g in enumerate(card["gold"]) if k not in used
                          and g[3] == t["id"] and g[0] < b and a < g[1]), None)
            if match is None:
                misses.append(f"  extra  {card['name']}: {t['text']!r} {t['id']}")
                continue
            used.add(match)
            right += 1
            g = card["gold"][match]
            if (g[0], g[1]) == (a, b):
                exact += 1
            elif show:
                misses.append(f"  span   {card['name']}: {t['text']!r} vs {g[2]!r}")
        recalled += len(used)
        for k, g in enumerate(card["gold"]):
            if k not in used:
                misses.append(f"  missed {card['name']}: {g[2]!r} {g[3]}")
    if show:
        print("\n".join(misses))
    return {"cards": len(cards), "gold": gold_n, "found": found_n,
            "precision": right / found_n if found_n else 0.0,
            "recall": recalled / gold_n if gold_n else 0.0,
            "exact_spans": exact / right if right else 0.0}


def interleaved(cmds: dict[str, list[str]], runs: int, env: dict) -> dict[str, float]:
    samples: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           check=False)
            samples[name].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in samples.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--show", action="store_true", help="list every miss and extra term")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from crsearch.desk import explain
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.store.datadir import Store

    release = release_from_bytes(LATEST.read_bytes(), LATEST.name)
    t = time.perf_counter()
    table = explain.build(release)
    build_s = time.perf_counter() - t
    cards = load_cards()
    for label, path in (("development", CARDS), ("held-out", HELDOUT),
                        ("second held-out", HELDOUT2)):
        s = score(load_cards(path), table, show=args.show)
        print(f"explain on {s['cards']} {label} cards ({s['gold']} hand-annotated terms, "
              f"{s['found']} found), release {release.effective_date}")
        print(f"  precision {s['precision']:.3f}   recall {s['recall']:.3f}   "
              f"exact spans {s['exact_spans']:.3f}")
    print(f"  term table: {len(table['meanings'])} meanings, {len(table['keys'])} keys, "
          f"built in {build_s * 1000:.0f} ms (cached per release)")

    data_dir = Path(tempfile.mkdtemp(prefix="crsearch-explain-bench-"))
    env = {**os.environ, "CRSEARCH_DATA": str(data_dir)}
    Store(data_dir).save(release)
    import compileall
    import sysconfig

    compileall.compile_dir(str(ROOT / "crsearch"), quiet=1)
    script = Path(sysconfig.get_path("scripts")) / "crsearch"
    base = [str(script)] if script.exists() else [sys.executable, "-m", "crsearch"]
    seed = cards[0]["text"]
    subprocess.run(base + ["explain", seed], env=env, stdout=subprocess.DEVNULL, check=True)
    meds = interleaved({
        'python -c "import click"': [sys.executable, "-c", "import click"],
        "crsearch explain SEED": base + ["explain", seed],
        "crsearch explain SEED --json": base + ["explain", seed, "--json"],
    }, args.runs, env)
    click_s = meds['python -c "import click"']
    print(f"\nWhole process, median of {args.runs} (round-robin):")
    for name, sec in meds.items():
        print(f"  {name:<32} {sec * 1000:7.1f} ms   {sec / click_s:5.2f}x import click")


if __name__ == "__main__":
    main()
