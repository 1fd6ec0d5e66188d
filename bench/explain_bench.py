"""explain: precision and recall of the terms found, and whole-process time.

Run: python -m bench.explain_bench [--runs 15] [--only development] [--no-timing]

The cards in ``explain_cards.txt`` were written for this benchmark in the
style of real cards (keywords with parameters, counters, modal spells, sagas,
adventures, rooms, class levels, planeswalkers, vehicles, battles), each with
the terms a judge would want explained, annotated by hand.  The held-out
files (``explain_heldout.txt``, ``explain_heldout2.txt``) were never tuned
on.  ``explain_abilities.txt`` (development) and
``explain_abilities_heldout.txt`` (held out, written before the readings
were built) hold real cards' Oracle texts and a few texts that are not cards,
annotated for the abilities layer only.  ``explain_corpus.py`` scores a blind
sample of 30 real cards (``explain_abilities_corpus.txt``, texts read from an
installed corpus) and reads every card of that corpus.

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

The abilities layer (after "--- abilities" in a card, or the only layer of a
file marked "#! layers: abilities") annotates how each ability reads, as a
judge names it:

- triggered abilities: "When"/"Whenever"/"At" with the trigger condition, up
  to the comma that ends it, 603.1; "At the beginning of ..." 603.2b; "When
  you do" (reflexive) 603.12; a trigger for the next occurrence of a step
  ("at the beginning of the next end step", "At the beginning of your next
  upkeep") or "at end of combat" inside an effect is a delayed triggered
  ability, 603.7;
- activated abilities: the cost with its colon, 602.1; a mana ability (the
  cost, "Add" and the mana symbols right after it, no target) 605.1a; a
  loyalty ability's cost ("+1:") 606.3;
- restrictions: "Activate only as a sorcery" (and "[keyword] only as a
  sorcery", "only any time you could cast a sorcery") 602.5d, "... as an
  instant" 602.5e, any other "Activate only ..." to the end of its sentence
  602.5b; "as a sorcery" or "any time they could cast a sorcery" elsewhere
  307.5 (there "sorcery" is not the card type);
- replacement effects: the clause with "instead", from its "If" (else the
  sentence's start) to "instead", 614.1a; "skip ... step/turn/draw" 614.1b;
  "As [this] enters", "[this] enters with" or "enter as" 614.1c; "enters
  tapped" and other objects that "enter with" 614.1d; "can't be prevented"
  615.12 ("prevent" itself is a term: 615);
- durations: "until end of turn" and "this turn" where it says how long an
  effect lasts (not when something happened: "died this turn") 514.2; "for
  as long as ..." to the end of its clause 611.2b; "until your next turn"
  611.2a; "until end of combat" 500.5a; "until [something] leaves the
  battlefield" 610.3;
- "can't" (or "cannot") with the verb it forbids ("can't be countered",
  "can't attack") 101.2.

An ability inside a trigger condition is the event it names, not an effect
("Whenever a permanent enters tapped" is no replacement).  Texts that are not
cards (a proverb, a note) have no abilities.

A found term is right when a hand-made term with the same id overlaps it;
"exact" counts those whose span is also exactly the hand-made phrase (it
measures parameters: "ward {2}", "protection from red").  Times are medians
of whole ``crsearch explain`` processes next to ``python -c "import click"``,
run round-robin in the same loop.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import LATEST, interleaved, print_ratios, timed_install

CARDS = Path(__file__).resolve().parent / "explain_cards.txt"
HELDOUT = Path(__file__).resolve().parent / "explain_heldout.txt"
HELDOUT2 = Path(__file__).resolve().parent / "explain_heldout2.txt"
ABILITIES = Path(__file__).resolve().parent / "explain_abilities.txt"
ABILITIES_HELDOUT = Path(__file__).resolve().parent / "explain_abilities_heldout.txt"
#: Every bench file: (label, path).  The held-out ones are never tuned on.
FILES = (("development", CARDS), ("held-out", HELDOUT), ("second held-out", HELDOUT2),
         ("abilities development", ABILITIES), ("abilities held-out", ABILITIES_HELDOUT))


def load_cards(path: Path = CARDS) -> list[dict]:
    """Cards as dicts: name, text, the layers annotated, and gold per layer as
    (start, end, phrase, id): ``gold`` (terms) and ``abilities``."""
    import re

    raw = path.read_text(encoding="utf-8")
    directive = re.search(r"^#! layers: (.+)$", raw, re.MULTILINE)
    if directive:
        layers = set(directive.group(1).split())
    else:
        layers = {"terms", "abilities"} if "\n--- abilities\n" in raw else {"terms"}
    cards = []
    for block in raw.split("\n=== ")[1:]:
        head, rest = block.split("\n", 1)
        text, gold_lines = rest.split("\n---\n", 1)
        term_lines, _, ability_lines = gold_lines.partition("--- abilities\n")
        layer_gold = []
        for lines in (term_lines, ability_lines):
            # Each phrase is found at or after the previous one's start (a
            # duration can open a replacement clause), never twice the same
            # span, nor inside an earlier phrase with the same id.
            gold, pos, spans = [], 0, set()
            for line in lines.strip().splitlines():
                phrase, id = (part.strip() for part in line.rsplit("|", 1))
                pattern = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")
                m = pattern.search(text, pos)
                while m and ((m.start(), m.end()) in spans or any(
                        g[3] == id and g[0] <= m.start() and m.end() <= g[1] for g in gold)):
                    m = pattern.search(text, m.start() + 1)
                if m is None:
                    raise SystemExit(f"{head}: {phrase!r} not found in order in the card text")
                gold.append((m.start(), m.end(), phrase, id))
                spans.add((m.start(), m.end()))
                pos = m.start()
            layer_gold.append(gold)
        cards.append({"name": head.strip(), "text": text, "gold": layer_gold[0],
                      "abilities": layer_gold[1], "layers": layers})
    return cards


def _match(card: dict, gold: list, found: list[dict], misses: list[str], show: bool) -> tuple:
    """(right, recalled, exact) of ``found`` against ``gold``; misses listed."""
    used: set[int] = set()
    right = exact = 0
    for t in found:
        a, b = t["span"]
        match = next((k for k, g in enumerate(gold) if k not in used
                      and g[3] == t["id"] and g[0] < b and a < g[1]), None)
        if match is None:
            misses.append(f"  extra  {card['name']}: {t['text']!r} {t['id']}")
            continue
        used.add(match)
        right += 1
        g = gold[match]
        if (g[0], g[1]) == (a, b):
            exact += 1
        elif show:
            misses.append(f"  span   {card['name']}: {t['text']!r} vs {g[2]!r}")
    for k, g in enumerate(gold):
        if k not in used:
            misses.append(f"  missed {card['name']}: {g[2]!r} {g[3]}")
    return right, len(used), exact


def score(cards: list[dict], table: dict, show: bool = False, layer: str = "terms") -> dict:
    """Precision, recall and exact spans of one layer: "terms" (the words the
    rules name), "abilities" (the readings of abilities) or "all"."""
    from crsearch.desk import explain

    reading_kinds = set(getattr(explain, "READING_KINDS", ()))
    found_n = gold_n = right = recalled = exact = 0
    misses: list[str] = []
    for card in cards:
        found = explain.find(card["text"], table)
        if layer == "terms":
            found = [t for t in found if t["kind"] not in reading_kinds]
            gold = card["gold"]
        elif layer == "abilities":
            found = [t for t in found if t["kind"] in reading_kinds]
            gold = card["abilities"]
        else:
            gold = sorted(card["gold"] + card["abilities"])
        found_n += len(found)
        gold_n += len(gold)
        r, c, e = _match(card, gold, found, misses, show)
        right, recalled, exact = right + r, recalled + c, exact + e
    if show:
        print("\n".join(misses))
    return {"cards": len(cards), "gold": gold_n, "found": found_n,
            "precision": right / found_n if found_n else 0.0,
            "recall": recalled / gold_n if gold_n else 0.0,
            "exact_spans": exact / right if right else 0.0}


def layers_of(cards: list[dict]) -> list[str]:
    """The layers a file's annotation covers, and "all" when it covers both."""
    have = cards[0]["layers"] if cards else {"terms"}
    return [x for x in ("terms", "abilities") if x in have] + (
        ["all"] if {"terms", "abilities"} <= have else [])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--show", action="store_true", help="list every miss and extra term")
    ap.add_argument("--only", metavar="LABEL", help="score only the files whose label has LABEL "
                    "(\"development\" while tuning: the held-out files stay unseen)")
    ap.add_argument("--no-timing", action="store_true", help="skip the whole-process timings")
    args = ap.parse_args()
    from crsearch.desk import explain
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.store.datadir import Store

    release = release_from_bytes(LATEST.read_bytes(), LATEST.name)
    t = time.perf_counter()
    table = explain.build(release)
    build_s = time.perf_counter() - t
    cards = load_cards()
    for label, path in FILES:
        if args.only and args.only not in label or not path.exists():
            continue
        file_cards = load_cards(path)
        print(f"explain on {len(file_cards)} {label} cards ({path.name}), "
              f"release {release.effective_date}")
        for layer in layers_of(file_cards):
            s = score(file_cards, table, show=args.show, layer=layer)
            prec = f"{s['precision']:.3f}" if s["found"] else "  -  "
            print(f"  {layer:<9} precision {prec}   recall {s['recall']:.3f}   "
                  f"exact spans {s['exact_spans']:.3f}   ({s['gold']} annotated, "
                  f"{s['found']} found)")
    print(f"  term table: {len(table['meanings'])} meanings, {len(table['keys'])} keys, "
          f"built in {build_s * 1000:.0f} ms (cached per release)")
    if args.no_timing:
        return

    data_dir = Path(tempfile.mkdtemp(prefix="crsearch-explain-bench-"))
    env = {**os.environ, "CRSEARCH_DATA": str(data_dir)}
    Store(data_dir).save(release)
    _, script, _ = timed_install(data_dir, editable=True)  # compiled, as installed
    base = [script]
    seed = cards[0]["text"]
    subprocess.run(base + ["explain", seed], env=env, stdout=subprocess.DEVNULL, check=True)
    meds = interleaved({
        'python -c "import click"': [sys.executable, "-c", "import click"],
        "crsearch explain SEED": base + ["explain", seed],
        "crsearch explain SEED --json": base + ["explain", seed, "--json"],
    }, args.runs, env)
    print_ratios(meds, f"\nWhole process, medians of {args.runs} (round-robin):")


if __name__ == "__main__":
    main()
