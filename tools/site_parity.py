"""The site's ranking against the CLI's, on every bench query: 0 differences.

    python -m tools.site_parity [--release 2026-08-07] [--sample N] [--verbose]
                                [--index DIR --site DIR]

Builds the release's search index (what ``crsearch search`` reads) and its
site search data (what the site's ``templates/js/rank.js`` reads) from
``../shared/cr/archive/<release>.txt``, then ranks every query of
``bench/queries.json`` (pasted passages read from ``../shared/seeds``) and
every question of every ``bench/real_questions*.json`` twice: with the
CLI's lexical ranking (``Engine`` with ``DEFAULT.but(embeddings=False)``,
what the site runs) and with ``rank.js`` under node
(``tools/site_parity.mjs``, one process for all queries).  The first ten
ids of each must be the same, in the same order.

Prints the queries compared, the differences (a held-out question by its
number only) and the time each part took; exits 1 on any difference or
error.  The CLI side runs with ``PYTHONHASHSEED=0`` (the script starts
itself again with it): the CLI sums some scores in the order of Python
sets, so a few near-ties among 860 queries fall one way or the other from
one process to the next; with the seed fixed, the CLI's ranking is one.
``--sample N`` compares N queries spread over the sets, for a quick
test; ``--index`` and ``--site`` reuse an index and a built site of the
release instead of building them.  Needs ``node`` (20 or later) on the PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARCHIVE = SHARED / "cr" / "archive"
SEEDS = SHARED / "seeds"
BENCH = ROOT / "bench"
NODE_SCRIPT = ROOT / "tools" / "site_parity.mjs"
LIMIT = 10


def bench_queries() -> list[dict]:
    """Every bench query and real question, as ``{"query", "held_out"}``."""
    out = []
    for q in json.loads((BENCH / "queries.json").read_text(encoding="utf-8")):
        text = q.get("query")
        if "seed" in q:
            # Pasted passages are stored by reference: the rules text stays out.
            line = (SEEDS / q["seed"]).read_text(encoding="utf-8").splitlines()[q["line"] - 1]
            text = " ".join(line.split()[: q["words"]]) if q.get("words") else line
        out.append({"query": text, "held_out": bool(q.get("heldout"))})
    for path in sorted(BENCH.glob("real_questions*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for q in data["questions"] if isinstance(data, dict) else data:
            out.append({"query": q["query"], "held_out": bool(q.get("holdout"))})
    return out


def cli_ranks(index_dir: Path, queries: list[str]) -> list[list[str]]:
    """The CLI's lexical ranking (embeddings off) of each query: its first ids."""
    from crsearch.errors import CRSearchError
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    engine = Engine(index_dir, config=DEFAULT.but(embeddings=False))
    out = []
    for q in queries:
        try:
            out.append([h.id for h in engine.search(q, LIMIT).results])
        except CRSearchError:
            out.append([])
    engine.close()
    return out


def site_ranks(site: Path, meta: str, keys: str, queries: list[str], work: Path,
               node: str = "node") -> list:
    """``rank.js``'s ranking of each query, under node (one process)."""
    qfile, ofile = work / "queries.json", work / "site-ranks.json"
    qfile.write_text(json.dumps(queries), encoding="utf-8")
    subprocess.run([node, str(NODE_SCRIPT), str(site), meta, keys, str(qfile), str(ofile)],
                   check=True)
    return json.loads(ofile.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # One order for the CLI's sets, hence one ranking to compare with.
        # sys.orig_argv keeps ``-m tools.site_parity``: it starts as a module again.
        again = sys.orig_argv if argv is None else [sys.executable, __file__, *argv]
        os.execve(sys.executable, again, {**os.environ, "PYTHONHASHSEED": "0"})
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--sample", type=int, default=0, help="compare only N queries, evenly spread")
    ap.add_argument("--verbose", "-v", action="store_true", help="show every difference in full")
    ap.add_argument("--node", default="node", help="the node executable")
    ap.add_argument("--index", type=Path, help="the release's search index, already built")
    ap.add_argument("--site", type=Path, help="the release's site (its search/ folder), already built")
    args = ap.parse_args(argv)

    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.search.build import build_index
    from crsearch.site import searchdata
    from crsearch.urls import Urls

    if shutil.which(args.node) is None:
        print(f"{args.node} is not on the PATH: the site's ranking runs under node", file=sys.stderr)
        return 2
    queries = bench_queries()
    if args.sample and args.sample < len(queries):
        step = len(queries) / args.sample
        queries = [queries[int(i * step)] for i in range(args.sample)]
    texts = [q["query"] for q in queries]
    clock: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="crsearch-parity-") as tmp:
        work = Path(tmp)
        t = time.perf_counter()
        release = None
        if args.index is None or args.site is None:
            source = ARCHIVE / f"{args.release}.txt"
            release = release_from_bytes(source.read_bytes(), source.name)
        index = args.index
        if index is None:
            index = work / "index"
            build_index(release, index)
            clock["index"] = time.perf_counter() - t
        t = time.perf_counter()
        site = args.site
        if site is None:
            site = work / "site"
            for name, data in searchdata.build(release, Urls(release, rule_pages=True).url_for).items():
                (site / name).parent.mkdir(parents=True, exist_ok=True)
                (site / name).write_bytes(data)
            clock["site data"] = time.perf_counter() - t
        meta, keys = (next(site.glob(f"{searchdata.FOLDER}/{stem}.*.js")).relative_to(site).as_posix()
                      for stem in (searchdata.META, searchdata.KEYS))
        t = time.perf_counter()
        cli = cli_ranks(index, texts)
        clock["CLI"] = time.perf_counter() - t
        t = time.perf_counter()
        ours = site_ranks(site, meta, keys, texts, work, args.node)
        clock["node"] = time.perf_counter() - t
    differ = 0
    for n, (q, got, theirs) in enumerate(zip(queries, ours, cli)):
        if got == theirs:
            continue
        differ += 1
        what = f"held-out query #{n}" if q["held_out"] else repr(q["query"][:100])
        if isinstance(got, dict):
            print(f"differs: {what}: rank.js failed: {got['error'].splitlines()[0]}")
            if args.verbose:
                print(got["error"])
            continue
        print(f"differs: {what}")
        if args.verbose or not q["held_out"]:
            print(f"  site {got}\n  CLI  {theirs}")
    times = ", ".join(f"{k} {v:.1f} s" for k, v in clock.items())
    print(f"site vs CLI lexical ranking, release {args.release}: {len(queries)} queries "
          f"compared (top {LIMIT}), {differ} differ ({times})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
