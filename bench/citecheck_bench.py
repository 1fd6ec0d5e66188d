"""cite-check: precision and recall on hand-written texts, and whole-process time.

Run: python -m bench.citecheck_bench [--runs 7]

``cite/article_2015.md`` (read as of 2015-06-01) and ``cite/notes_2003.txt``
(as of 2003-06-01) hold 30 citations written by hand: some still fine, some
renumbered since (real moves, such as 502.9b -> 702.19b and 601.2f ->
601.2g; each was checked by reading the old and new rule texts), some that
never existed, plus numbers that are not citations (prices, versions,
distances, dates).  ``cite/gold.json`` says what each one is.

Figures:
- finding: precision and recall of the citations found (line and id);
- problems: precision and recall of the citations flagged (moved or
  missing) against those that are wrong, with the right status;
- renumbering: of the moved citations, how many got today's number right.

Times are medians of whole ``crsearch cite-check`` processes next to
``python -c "import click"`` run round-robin in the same loop, against a
data folder with every archived release (imported once into /tmp, or
``--data DIR``): "cold" follows every cited rule through the releases and
reads each release's words anew, "cached" answers from
``cite-check-cache.json`` and ``cite-words.json`` as a second run does.
The article says its date in its heading; its "undated copy" (the
heading left out) is read by its numbers and the words around them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
CITE = Path(__file__).resolve().parent / "cite"
DATA = Path("/tmp/crsearch-citecheck-bench")


def archive_store(folder: Path):
    """The data folder ``folder`` with every archived release (imported first if short)."""
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import read_from
    from crsearch.store.datadir import Store

    store = Store(folder)
    if len(store.catalog()) < len(list(ARCHIVE.glob("*.txt"))):
        t = time.perf_counter()
        import_sources(read_from(str(ARCHIVE)), store, build_index=False, jobs=2)
        print(f"imported the archive into {folder} in {time.perf_counter() - t:.0f} s")
    return store


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--data", type=Path, default=DATA,
                    help="data folder with the whole archive (imported if empty)")
    args = ap.parse_args()
    from crsearch.desk import citecheck

    store = archive_store(args.data)

    gold = json.loads((CITE / "gold.json").read_text(encoding="utf-8"))
    found_n = gold_n = right = 0
    flagged = real_problems = flagged_right = 0
    moved_gold = moved_right = 0
    (store.pick().path / "cite-check-cache.json").unlink(missing_ok=True)
    for doc in gold["documents"]:
        text = (CITE / doc["file"]).read_text(encoding="utf-8")
        t = time.perf_counter()
        result = citecheck.check(store, text, doc["as_of"])
        took = time.perf_counter() - t
        got = {(c["line"], c["id"]): c for c in result["citations"]}
        want = {(c["line"], c["id"]): c for c in doc["citations"]}
        found_n += len(got)
        gold_n += len(want)
        right += len(got.keys() & want.keys())
        for key, c in got.items():
            if c["status"] != "ok":
                flagged += 1
                g = want.get(key)
                if g is not None and g["status"] == c["status"] and g.get("now") == c.get("now"):
                    flagged_right += 1
        for key, g in want.items():
            if g["status"] != "ok":
                real_problems += 1
            if g["status"] == "moved":
                moved_gold += 1
                if got.get(key, {}).get("now") == g["now"]:
                    moved_right += 1
        wrong = [f"{k}: got {got[k]['status']} {got[k].get('now', '')}, want "
                 f"{want[k]['status']} {want[k].get('now', '')}"
                 for k in got.keys() & want.keys()
                 if (got[k]["status"], got[k].get("now")) != (want[k]["status"], want[k].get("now"))]
        extra = sorted(got.keys() - want.keys())
        missed = sorted(want.keys() - got.keys())
        print(f"{doc['file']} (as of {doc['as_of']}, release {result['release']}): "
              f"{len(got)} found, {len(want)} written; checked in {took:.1f} s")
        for line in wrong + [f"{k}: not a citation" for k in extra] + \
                [f"{k}: missed" for k in missed]:
            print(f"  {line}")
    prf = (lambda a, b: a / b if b else 0.0)
    print(f"\nfinding citations   precision {prf(right, found_n):.3f}  recall {prf(right, gold_n):.3f}"
          f"  ({right} of {gold_n} written, {found_n} found)")
    print(f"flagging problems   precision {prf(flagged_right, flagged):.3f}  recall "
          f"{prf(flagged_right, real_problems):.3f}  ({real_problems} real problems)")
    print(f"renumbering         {moved_right} of {moved_gold} moved citations got today's number")

    import compileall
    import sysconfig

    compileall.compile_dir(str(ROOT / "crsearch"), quiet=1)
    script = Path(sysconfig.get_path("scripts")) / "crsearch"
    base = [str(script)] if script.exists() else [sys.executable, "-m", "crsearch"]
    # The processes import this tree's crsearch, whichever is installed.
    env = {**os.environ, "CRSEARCH_DATA": str(args.data), "PYTHONPATH": str(ROOT)}
    article = str(CITE / "article_2015.md")
    # The same article without its dated heading: read by its numbers and words.
    undated = Path(tempfile.mkdtemp(prefix="citecheck-bench-")) / "undated.md"
    undated.write_text(Path(article).read_text(encoding="utf-8").split("\n", 1)[1],
                       encoding="utf-8")
    as_of = base + ["cite-check", article, "--as-of", "2015-06-01"]
    cmds = {
        'python -c "import click"': [sys.executable, "-c", "import click"],
        "cite-check (no --as-of, cached)": base + ["cite-check", article],
        "cite-check --as-of 2015, cold": as_of,
        "cite-check --as-of 2015, cached": as_of,
        "cite-check undated copy, cold": base + ["cite-check", str(undated)],
        "cite-check undated copy, cached": base + ["cite-check", str(undated)],
    }
    # What a first check works out and keeps: where rules went
    # (cite-check-cache.json) and each release's words (cite-words.json).
    kept = [store.pick().path / "cite-check-cache.json",
            *(s.path / "cite-words.json" for s in store.releases())]
    for cmd in cmds.values():  # warm up the caches for the cached runs
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(args.runs):
        for name, cmd in cmds.items():
            cold = [p for p in kept if p.exists()] if name.endswith("cold") else []
            for p in cold:  # work everything out again, then put the warm caches back
                p.rename(p.with_suffix(".warm"))
            t = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            samples[name].append(time.perf_counter() - t)
            for p in cold:
                p.with_suffix(".warm").replace(p)
    meds = {k: statistics.median(v) for k, v in samples.items()}
    click_s = meds['python -c "import click"']
    print(f"\nWhole process, median of {args.runs} (round-robin):")
    for name, sec in meds.items():
        print(f"  {name:<32} {sec * 1000:8.1f} ms   {sec / click_s:6.2f}x import click")


if __name__ == "__main__":
    main()
