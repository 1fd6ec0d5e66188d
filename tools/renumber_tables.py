"""Renumber the shipped tables to a new release, and write the map that
carries them into every archived release.

    python -m tools.renumber_tables [--data-dir DIR] [--to DATE] [--check]

``data/topics.txt``, ``data/cards.txt`` and ``data/asked.json`` name rules in
the numbering of one release, which their headers name.  This tool:

1. with ``--to DATE``, carries every id of the three tables from their
   release to DATE's, through the lineage of rules (the history engine's
   pairing, link by link) and the words check of ``crsearch/search/tables.py``
   (one policy: the index build uses the same), and rewrites the tables in
   DATE's numbering.  It prints what moved and what it could not place: a
   topic left without rules is kept as a comment marked ``#unplaced``, a card
   keeps its name without rules, a question asked before is left out.
2. writes ``data/renumbering.txt``: for every id of the tables, its check
   words (its four rarest words in the tables' release, ``asked.check_words``)
   and its number in every archived release.  Rule numbers and single words
   only, never rules text.

``--check`` writes nothing and exits 1 when the tables or the map are not
what it would write (CI runs it).  The archive (``../shared/cr/archive``) is
read through a data folder: ``--data-dir`` reuses one that holds every
archived release (its lineage table complete, see ``crsearch repair``),
otherwise one is made in a temporary folder (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
DATA = ROOT / "data"
HEADER = """\
# The rule ids of the shipped tables (topics.txt, cards.txt, asked.json) as each
# archived release numbers them, and the words that tell each rule: written by
# tools/renumber_tables.py from the archive and the lineage the history engine
# works out (crsearch/changes/lineage.py).  Rule numbers and single words only.
# Read by crsearch/search/tables.py, which carries the tables into each release.
# One id a line: id<TAB>its check words (its rarest words in the tables' release;
# three of four must be in a rule's text)<TAB>its number from each release on,
# oldest first, as "<release index> <number>" pairs ("-": no such rule).
"""


def _words(text: str) -> set[str]:
    from crsearch.rules.text import words

    return set(words(text))


class Archive:
    """The archived releases of a data folder and the lineage between them."""

    def __init__(self, store: Any):
        from crsearch.store.lineage import Lineage

        self.store = store
        self.stored = store.releases()
        self.dates = [s.effective_date for s in self.stored]
        self.folders = [os.path.basename(s.dir) for s in self.stored]
        lineage = Lineage.read(store.dir)
        missing = lineage.missing(self.folders)
        if missing:
            sys.exit(f"{store.dir}: the lineage table lacks {len(missing)} links; "
                     f"run `crsearch --data-dir {store.dir} repair`")
        self.links = [lineage.get(a, b) for a, b in zip(self.folders, self.folders[1:])]
        self._texts: dict[int, dict[str, str]] = {}

    def texts(self, k: int) -> dict[str, str]:
        """Release ``k``'s ids -> their words to check (as the index build reads them)."""
        if k not in self._texts:
            from crsearch.search.asked import doc_texts
            from crsearch.search.build import documents

            self._texts[k] = doc_texts(documents(self.stored[k].release()))
        return self._texts[k]

    def chain(self, id: str, at: int) -> list[tuple[int, str | None]]:
        """What each release numbers the rule ``id`` of release ``at``, as
        ``(first release index, number)`` runs, oldest first."""
        numbers: list[str | None] = [None] * len(self.dates)
        numbers[at] = id
        cur: str | None = id
        for k in range(at, 0, -1):
            cur = self.links[k - 1].backward(cur)[0] if cur is not None else None  # type: ignore[union-attr]
            numbers[k - 1] = cur
        cur = id
        for k in range(at + 1, len(self.dates)):
            cur = self.links[k - 1].forward(cur)[0] if cur is not None else None  # type: ignore[union-attr]
            numbers[k] = cur
        runs: list[tuple[int, str | None]] = []
        for k, n in enumerate(numbers):
            if not runs or runs[-1][1] != n:
                runs.append((k, n))
        return runs


def make_map(archive: Archive, numbering: str, ids: list[str]) -> tuple[str, list[str]]:
    """The text of ``data/renumbering.txt`` for table ids in ``numbering``,
    and the ids that release does not have."""
    from crsearch.search.asked import check_words

    at = archive.dates.index(numbering)
    texts = archive.texts(at)
    df: Counter[str] = Counter()
    for text in texts.values():
        df.update(_words(text))
    lines, absent = [], []
    for id in sorted(set(ids), key=_order):
        if id not in texts:
            absent.append(id)
            continue
        runs = archive.chain(id, at)
        chain = " ".join(f"{k} {n or '-'}" for k, n in runs)
        lines.append(f"{id}\t{' '.join(check_words(texts[id], dict(df)))}\t{chain}")
    head = HEADER + f"# numbering: {numbering}\n# releases: {' '.join(archive.dates)}\n"
    return head + "\n".join(lines) + "\n", absent


def _order(id: str) -> tuple:
    from crsearch.rules import numbers

    try:
        return (0, numbers.sort_key(id))
    except Exception:  # noqa: BLE001 - a glossary id sorts after the rules
        return (1, id)


# -- renumbering the tables ------------------------------------------------------

class Moves:
    """What renumbering did to one table."""

    def __init__(self, name: str):
        self.name = name
        self.total = 0
        self.moved: dict[str, str] = {}
        self.unplaced: dict[str, list[str]] = {}

    def carry(self, ids: list[str], carry: Any, where: str) -> list[str]:
        out = []
        for id in ids:
            self.total += 1
            now = carry(id)
            if now is None:
                self.unplaced.setdefault(id, []).append(where)
            else:
                if now != id:
                    self.moved[id] = now
                out.append(now)
        return list(dict.fromkeys(out))

    def lines(self) -> list[str]:
        out = [f"{self.name}: {self.total} ids, {len(self.moved)} moved, "
               f"{len(self.unplaced)} could not be placed"]
        out += [f"  moved {a} -> {b}" for a, b in sorted(self.moved.items(), key=lambda kv: _order(kv[0]))]
        out += [f"  unplaced {a} ({'; '.join(w[:3])}{', ...' if len(w) > 3 else ''})"
                for a, w in sorted(self.unplaced.items(), key=lambda kv: _order(kv[0]))]
        return out


def _set_numbering(text: str, date: str) -> str:
    from crsearch.search.tables import NUMBERING

    return "".join(f"{NUMBERING} {date}\n" if line.startswith(NUMBERING) else line
                   for line in text.splitlines(keepends=True))


def renumber_topics(text: str, carry: Any, date: str, moves: Moves) -> str:
    out = []
    for line in _set_numbering(text, date).splitlines(keepends=True):
        if line.startswith("#") or "\t" not in line:
            out.append(line)
            continue
        cues, _, rules = line.rstrip("\n").partition("\t")
        kept = moves.carry(rules.split(), carry, cues.split(";")[0])
        out.append(f"{cues}\t{' '.join(kept)}\n" if kept else f"#unplaced in {date}: {line}")
    return "".join(out)


def renumber_cards(text: str, carry: Any, date: str, moves: Moves) -> str:
    out = []
    for line in _set_numbering(text, date).splitlines(keepends=True):
        if line.startswith(("#", "@")) or "\t" not in line:
            out.append(line)
            continue
        name, ids, *rest = line.rstrip("\n").split("\t")
        kept = moves.carry(ids.split(), carry, name)
        out.append("\t".join([name, " ".join(kept), *rest]) + "\n")
    return "".join(out)


def renumber_asked(text: str, carry: Any, date: str, moves: Moves) -> str:
    data = json.loads(text)
    questions = []
    for q in data["questions"]:
        kept = moves.carry(q["ids"], carry, q["question"][:40])
        if kept:
            questions.append({**q, "ids": kept})
    about = data.get("about", "").replace(f"as in {data.get('numbering')}", f"as in {date}")
    return json.dumps({**data, "about": about, "numbering": date, "questions": questions},
                      ensure_ascii=False, indent=0) + "\n"


# -- main ------------------------------------------------------------------------

def archive_store(where: Path) -> Any:
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import read_from
    from crsearch.store.datadir import Store

    print(f"importing {ARCHIVE} into {where} ...", file=sys.stderr)
    results = import_sources(read_from(str(ARCHIVE)), Store(where), build_index=False,
                             jobs=os.cpu_count() or 1)
    bad = [r.error for r in results if r.error]
    if bad:
        sys.exit(f"import failed: {bad[:3]}")
    return Store(where)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, help="a data folder holding the archive")
    ap.add_argument("--to", metavar="DATE", help="renumber the tables to this release first")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if the files are not current")
    ap.add_argument("--data", type=Path, default=DATA, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    from crsearch.search import tables
    from crsearch.search.cardtopics import TABLE_FILE as CARDS
    from crsearch.search.topics import TABLE_FILE as TOPICS
    from crsearch.store.datadir import Store

    files = {"topics": args.data / TOPICS, "cards": args.data / CARDS, "asked": args.data / "asked.json"}
    texts = {k: p.read_text(encoding="utf-8") for k, p in files.items()}
    numbering = {"topics": tables.numbering_of(texts["topics"]),
                 "cards": tables.numbering_of(texts["cards"]),
                 "asked": json.loads(texts["asked"]).get("numbering")}
    if len(set(numbering.values())) != 1 or None in numbering.values():
        sys.exit(f"the tables must name one numbering in their headers: {numbering}")
    current = str(numbering["topics"])
    tmp = None
    try:
        if args.data_dir is not None:
            store = Store(args.data_dir)
        else:
            tmp = Path(tempfile.mkdtemp(prefix="crsearch-renumber-"))
            store = archive_store(tmp / "data")
        archive = Archive(store)
        for date in filter(None, (current, args.to)):
            if date not in archive.dates:
                sys.exit(f"{store.dir} has no release {date}")
        new = dict(texts)
        if args.to and args.to != current:
            ids = tables.table_ids_of(texts)
            old_map, _ = make_map(archive, current, [i for v in ids.values() for i in v])
            k = archive.dates.index(args.to)
            carry = tables.Carry(args.to, archive.texts(k), table=tables.Renumbering.parse(old_map))
            report = {k: Moves(k) for k in files}
            new["topics"] = renumber_topics(texts["topics"], carry, args.to, report["topics"])
            new["cards"] = renumber_cards(texts["cards"], carry, args.to, report["cards"])
            new["asked"] = renumber_asked(texts["asked"], carry, args.to, report["asked"])
            print(f"Renumbered the tables from {current} to {args.to}:")
            for moves in report.values():
                print("\n".join(moves.lines()))
            current = args.to
        ids = tables.table_ids_of(new)
        new_map, absent = make_map(archive, current, [i for v in ids.values() for i in v])
        if absent:
            print(f"not in the {current} rules (left out of the map): {' '.join(absent)}")
        outputs = {**{k: (files[k], new[k]) for k in files},
                   "map": (args.data / tables.MAP_FILE, new_map)}
        stale = [str(p) for p, text in outputs.values()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        if args.check:
            if stale:
                print(f"not current: {', '.join(stale)} (run tools/renumber_tables.py)")
                return 1
            print("the tables and the map are current")
            return 0
        for path, text in outputs.values():
            if str(path) in stale:
                path.write_text(text, encoding="utf-8")
        covered = len({i for v in ids.values() for i in v}) - len(absent)
        print(f"wrote {', '.join(stale) or 'nothing (all current)'}; the map covers "
              f"{covered} table ids over {len(archive.dates)} releases")
        return 0
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
