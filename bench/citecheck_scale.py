"""cite-check on a large text: whole-process time and peak memory.

Run: python -m bench.citecheck_scale [--mb 5] [--runs 3] [--code DIR]

Writes a text of ``--mb`` megabytes full of citations (ids of today's
rules, numbers of 2003 that moved since, and numbers that never existed,
each written in the forms ``crsearch rule`` accepts: CR 702.19c, rule
502.9b, §601.2f, 601.2f-h, lists) between prose, prices, versions, links
and code, in two shapes: "lines" (short paragraphs) and "paragraph" (no
blank line at all, the worst case for the paragraph tests); and "repeat",
one line "See CR 702.19c." again and again, as the report in issue 22 had.  Then runs
``python -m crsearch cite-check FILE`` (text and ``--json``) and ``python
-c pass`` round-robin in the same loop, against a data folder with every
archived release (shared with ``citecheck_bench.py``), and prints each
command's median time and peak RSS (from ``wait4``, so the child's own).

Where each old number went is traced through the releases once and kept
in ``cite-check-cache.json``; that costs the same for a 1 KB text citing
the same numbers, so by default it is done before the timed runs, as on
any check after the first.  ``--cold`` removes the cache before every run
instead: each run is a first check (tracing the text's 400-odd distinct
numbers of 2003 through 114 releases takes about a minute on its own).

``--code DIR`` runs the crsearch package found in DIR (a checkout of
another commit, say) instead of this one.  The package is byte-compiled
first, as an installed one is.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

from bench.citecheck_bench import DATA, archive_store
from bench.common import ROOT, measure

PROSE = [
    "The judge called it at the table.", "It costs $120.50 at the shop.",
    "Version 2.0.1 fixed the bug.", "A 100.5 km drive to the event.",
    "See https://cr.example/702.html?rule=702.19c#702.19c for the page.",
    "Type `crsearch rule 601.2f` to read it.", "Nobody remembered the old numbers.",
]
FORMS = ["CR {a}", "rule {a}", "§{a}", "({a})", "rules {a} and {b}", "{a}", "CR {a}, {b} and {c}"]


def make_text(size: int, shape: str, today: list[str], old: list[str], seed: int = 22) -> str:
    """About ``size`` characters of citations and prose; ``shape`` is "lines" or "paragraph"."""
    if shape == "repeat":
        line = "See CR 702.19c.\n"
        return (line * (size // len(line) + 1))[:size]
    rng = random.Random(seed)
    subrules = [i for i in today if i[-1].isalpha()]
    invented = [f"{rng.randint(100, 999)}.{rng.randint(1, 400)}{rng.choice('abcdefgh')}"
                for _ in range(20_000)]
    out, n, line = [], 0, 0
    while n < size:
        pool = rng.choice((subrules, subrules, old, invented))
        ids = {k: rng.choice(pool) for k in "abc"}
        sentence = rng.choice(FORMS).format(**ids)
        piece = f"{rng.choice(PROSE)} Per the rules, {sentence} applies. "
        line += 1
        if shape == "lines":
            piece += "\n\n" if line % 4 == 0 else "\n"
        out.append(piece)
        n += len(piece)
    return "".join(out)[:size]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--mb", type=float, default=5.0, help="size of the text in MB (10^6 bytes)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shape", choices=["lines", "paragraph", "repeat", "all"], default="all")
    ap.add_argument("--data", type=Path, default=DATA,
                    help="data folder with the whole archive (imported if short)")
    ap.add_argument("--cold", action="store_true",
                    help="remove the trace cache before every run (each run a first check)")
    ap.add_argument("--code", type=Path, default=ROOT,
                    help="folder holding the crsearch package to run (default: this checkout)")
    args = ap.parse_args()
    store = archive_store(args.data)
    # As an installed package is: compiled once (PYTHONDONTWRITEBYTECODE
    # would otherwise make every run compile every module again).
    import compileall

    compileall.compile_dir(str(args.code / "crsearch"), quiet=1)
    today = store.pick().meta()["rule_ids"]
    old = sorted(set(store.releases()[0].meta()["rule_ids"]) - set(today))
    cache = store.pick().path / "cite-check-cache.json"
    env = {**os.environ, "PYTHONPATH": str(args.code), "CRSEARCH_DATA": str(args.data)}
    size = int(args.mb * 1_000_000)
    shapes = ["lines", "paragraph", "repeat"] if args.shape == "all" else [args.shape]
    with tempfile.TemporaryDirectory(prefix="crsearch-scale-") as tmp:
        cmds: dict[str, list[str]] = {"python -c pass": [sys.executable, "-c", "pass"]}
        for shape in shapes:
            path = Path(tmp) / f"{shape}.md"
            # At most ``size`` bytes ("§" takes two): cite-check reads up to 5,000,000.
            data = make_text(size, shape, today, old).encode("utf-8")[:size]
            path.write_bytes(data.decode("utf-8", errors="ignore").encode("utf-8"))
            base = [sys.executable, "-m", "crsearch", "cite-check", str(path)]
            cmds[f"cite-check {shape}"] = base
            cmds[f"cite-check {shape} --json"] = base + ["--json"]
        print(f"{args.mb:g} MB texts, {args.runs} runs round-robin, "
              f"{'cold' if args.cold else 'traces cached'}, code from {args.code}, "
              f"data {args.data} ({len(store.catalog())} releases)")
        samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in cmds}
        if not args.cold:
            cache.unlink(missing_ok=True)
            for cmd in cmds.values():  # trace every number once, untimed
                measure(cmd, env, ok=(0, 1))  # 1: the text cites rules that moved
        for _ in range(args.runs):
            for name, cmd in cmds.items():
                if args.cold:
                    cache.unlink(missing_ok=True)
                samples[name].append(measure(cmd, env, ok=(0, 1)))
    # On a shared machine the wall time counts the waits for a CPU too: the
    # CPU time (user + system) is what the command itself costs.
    print(f"{'command':<32} {'median s':>9} {'median CPU s':>13} {'peak RSS MB':>12}")
    for name, runs in samples.items():
        sec = statistics.median(t for t, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        rss = max(m for _, _, m in runs) / 1e6
        print(f"{name:<32} {sec:9.2f} {cpu:13.2f} {rss:12.0f}")


if __name__ == "__main__":
    main()
