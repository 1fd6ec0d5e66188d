"""Meanings, not just words: static word embeddings for questions.

The model is WordLlama ``l2_supercat_256`` (MIT licence, by Lee Miller): a
32,000 x 256 table of token vectors distilled from Llama 2's token
embeddings, shipped inside the ``wordllama`` wheel on PyPI, so ``pip
install`` brings it and nothing is ever downloaded.  A text's vector is the
normalised mean of its tokens' vectors.

At index build time (``build``, called by ``build.build_index``) the weight
and tokenizer files are checked against the SHA-256 pinned below, and two
files are written beside the index:

- ``embed.json``: the model, its hash, the ids of the embedded documents,
  the release's words in the order of the word table, and the questions
  asked before that hold for the release (``asked.py``);
- ``embed.bin``: one float32 scale per row, then the rows as int8 (a row is
  its int8 values times its scale): first one per document (the document's
  vector), then one per word (the sum of its tokens' vectors), then one per
  question asked before (its vector, made as a new question's is).

A query's vector is then the sum of its known words' rows: no tokenizer, no
numpy and no model file are needed to answer a question, only the standard
library.  A word the table lacks in the form typed takes the row of the
table's word of the same stem ("detained" reads as "detain", "killed" as
"kill": ``meaning_rows``); words the release never uses in any form (card
names above all) carry no meaning here, which is what a rules search wants.

Any problem (package missing, hash mismatch, a missing or damaged file)
means no embeddings: the search falls back to its lexical ranking and says
why in one line.

Why this model and not a transformer: docs/decisions/embedding-model.md.
"""

from __future__ import annotations

import contextlib
import json
import math
import mmap
import os
import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Sequence
from operator import add, mul
from pathlib import Path
from typing import Any

from crsearch.rules.text import words
from crsearch.search.asked import Memory, well_formed

MODEL = "wordllama l2_supercat_256"
#: How a search names the model (``--why``).
MODEL_NAME = "WordLlama l2_supercat_256"
PACKAGE = "wordllama"
WEIGHTS = "weights/l2_supercat_256.safetensors"
WEIGHTS_SHA256 = "64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
TOKENIZER_SHA256 = "93248f2a9ec36c7b35f700a033d5f36228aae48db61aee31007fa49062cdeb68"
DIM = 256
META = "embed.json"
DATA = "embed.bin"
#: Bump when the files' layout or what is embedded changes; older files
#: are then ignored (search says to run `crsearch index`).  4 keeps the rows
#: as int8 with a scale each.
FORMAT = 4


class EmbeddingsUnavailable(Exception):
    """No usable embeddings; the message is the one-line reason."""


def sha256_of(path: Path) -> str:
    # Imported here: hashlib costs about 4 ms, and a search never hashes.
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def model_files() -> tuple[Path, Path]:
    """The verified weight and tokenizer files of the installed package.

    Raises ``EmbeddingsUnavailable`` when the package is missing or a file's
    SHA-256 is not the pinned one.  Never downloads anything.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import importlib.util

    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingsUnavailable(f"the {PACKAGE} package is not installed")
    root = Path(list(spec.submodule_search_locations)[0])
    out = []
    for rel, want in ((WEIGHTS, WEIGHTS_SHA256), (TOKENIZER, TOKENIZER_SHA256)):
        path = root / rel
        if not path.is_file():
            raise EmbeddingsUnavailable(f"{path} is missing")
        if sha256_of(path) != want:
            raise EmbeddingsUnavailable(f"{path} is not the pinned model file (SHA-256 mismatch)")
        out.append(path)
    return out[0], out[1]


def missing(index_dir: Path) -> str | None:
    """Why the index in ``index_dir`` has no embeddings (one line), or None
    when it has them."""
    if (Path(index_dir) / META).exists():
        return None
    try:
        model_files()
    except EmbeddingsUnavailable as e:
        return str(e)
    return "see `crsearch search --why`"


def doc_text(doc: dict[str, Any]) -> str:
    """What is embedded of a document: its title, text and examples.

    The examples tell a story ("a player controls ... and casts ..."), the
    shape of a player's question (docs/decisions/embed-examples.md)."""
    return f"{doc.get('title', '')} {doc.get('text', '')} {doc.get('examples', '')}"


#: Shorter words are never read as another form ("im", "ok").
FORM_MIN_LETTERS = 4


def base_forms(known: Iterable[str], stem: Callable[[str], str]) -> dict[str, str]:
    """Per stem, the known word that stands for its forms: the shortest, then
    the first in alphabetical order ("di": "died"; "decid": "decide")."""
    out: dict[str, str] = {}
    for w in sorted(known, key=lambda w: (len(w), w)):
        out.setdefault(stem(w), w)
    return out


def meaning_rows(text_words: Iterable[str], index: dict[str, int],
                 base: Callable[[], dict[str, str]], stem: Callable[[str], str]) -> list[int]:
    """The word-table rows of ``text_words``: a word's own, else (for a word
    of letters, ``FORM_MIN_LETTERS`` or more) the row of the known word of its
    stem (``base()``, asked for only then), else none.  The old spelling
    corrector rewrote "detained" to "detain" and so gave it a meaning by
    chance; a word typed right must not lose it."""
    rows = []
    for w in text_words:
        i = index.get(w)
        if i is None and len(w) >= FORM_MIN_LETTERS and w.isalpha():
            other = base().get(stem(w))
            i = index.get(other) if other is not None else None
        if i is not None:
            rows.append(i)
    return rows


def porter() -> Callable[[str], str]:
    """The index's stemmer (Porter, as Whoosh's analyser stems)."""
    from whoosh.lang.porter import stem

    return stem


def _porter_stem(word: str) -> str:
    return porter()(word)


def build(docs: list[dict[str, Any]], extra_words: list[str], path: Path,
          asked: list[dict[str, Any]] | None = None,
          meaning_words: Callable[[str], list[str]] | None = None,
          text_words: Callable[[str], list[str]] = words) -> str | None:
    """Write the embeddings of ``docs`` beside the index in ``path``.

    Returns None, or a one-line warning when no embeddings could be built
    (the index then works lexically).  ``extra_words`` are words a question
    may use that the release does not (the slang table's words); ``asked``
    the questions asked before that hold for the release (``asked.for_release``),
    whose words ``meaning_words`` gives as a search reads them
    (``query.Reader.meaning_words``); ``text_words`` gives a text's words
    (``words``, or a copy the build keeps).
    """
    try:
        weights, tokenizer = model_files()
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except EmbeddingsUnavailable as e:
        return f"no embeddings: {e}; questions use the lexical ranking"
    except ImportError as e:
        return f"no embeddings: {e.name or e} is not installed; questions use the lexical ranking"
    table = load_file(str(weights))["embedding.weight"]
    tok = Tokenizer.from_file(str(tokenizer))
    tok.no_padding()
    tok.no_truncation()
    doc_words = [doc_words_of(d, text_words) for d in docs]
    vocab = sorted({w for ws in doc_words for w in ws} | {w for x in extra_words for w in words(x)})
    index = {w: i for i, w in enumerate(vocab)}
    # A word's vector is the sum of its tokens' rows, all words at once.
    token_ids = [enc.ids for enc in tok.encode_batch(vocab, add_special_tokens=False)]
    used = np.unique(np.fromiter((t for ids in token_ids for t in ids), np.int64))
    # Only the rows used are widened to float32 (the same values).
    rows = np.zeros((int(used[-1]) + 1 if len(used) else 0, DIM), np.float32)
    rows[used] = table[used, :DIM].astype(np.float32)
    word_vecs = sums(rows, token_ids)
    doc_vecs = np.zeros((len(docs), DIM), np.float32)
    for i, ws in enumerate(doc_words):
        if ws:
            v = word_vecs[[index[w] for w in ws]].sum(0)
            doc_vecs[i] = v / (np.linalg.norm(v) or 1.0)
    read = [(e, meaning_words(e["question"])) for e in asked] if asked and meaning_words else []
    asked = [e for e, _ in read]
    # As a new question's vector is made (Vectors.query): the stored rows
    # of its known words, summed.
    word_q, word_scale = quantize(word_vecs)
    stored_rows = word_q.astype(np.float64) * word_scale.astype(np.float64)[:, None]
    asked_vecs = np.zeros((len(read), DIM), np.float32)
    stem = porter()
    base = base_forms(vocab, stem)
    for i, (_, question_words) in enumerate(read):
        known = meaning_rows(question_words, index, lambda: base, stem)
        if known:
            v = stored_rows[known].sum(0)
            asked_vecs[i] = v / (np.linalg.norm(v) or 1.0)
    meta = {"format": FORMAT, "model": MODEL, "sha256": WEIGHTS_SHA256, "dim": DIM,
            "ids": [d["id"] for d in docs], "words": vocab, "asked": asked}
    doc_q, doc_scale = quantize(doc_vecs)
    asked_q, asked_scale = quantize(asked_vecs)
    data = b"".join(a.tobytes() for a in (doc_scale, word_scale, asked_scale,
                                         doc_q, word_q, asked_q))
    # Each file is written under a temporary name and renamed into place,
    # DATA before META: a reader that finds META finds its whole data, and
    # an interrupted build leaves no file a reader takes for one.
    write_atomic(path / DATA, data)
    write_atomic(path / META, json.dumps(meta, ensure_ascii=False,
                                         separators=(",", ":")).encode("utf-8"))
    return None


def doc_words_of(doc: dict[str, Any], text_words: Callable[[str], list[str]] = words
                 ) -> list[str]:
    """``words(doc_text(doc))``, from the words of its parts (``text_words``:
    ``words`` or a kept copy of it).  Words never span the spaces between the
    parts, and folding leaves spaces alone: the same list."""
    return [*text_words(doc.get("title", "")), *text_words(doc.get("text", "")),
            *text_words(doc.get("examples", ""))]


#: ``rows.sum(0)`` adds fewer rows than this one after another (numpy sums
#: longer runs pairwise, in another order).
PAIRWISE = 8


def sums(rows: Any, groups: list[list[int]]) -> Any:
    """Per group (a list of row numbers of ``rows``), the sum of those rows
    exactly as ``rows[group].sum(0)`` makes it (zeros for an empty group):
    the groups of fewer than ``PAIRWISE`` rows all at once (``np.add.reduceat``
    adds row after row too), the others one by one."""
    import numpy as np

    out = np.zeros((len(groups), rows.shape[1]), rows.dtype)
    short = [k for k, g in enumerate(groups) if 0 < len(g) < PAIRWISE]
    if short:
        flat = np.fromiter((i for k in short for i in groups[k]), np.int64)
        bounds = np.cumsum([0] + [len(groups[k]) for k in short[:-1]])
        out[short] = np.add.reduceat(rows[flat], bounds, axis=0)
    for k, g in enumerate(groups):
        if len(g) >= PAIRWISE:
            out[k] = rows[g].sum(0)
    return out


def quantize(rows: Any) -> tuple[Any, Any]:
    """``rows`` (a numpy matrix) as int8 rows and one little-endian float32
    scale per row: row ~= int8 values * scale."""
    import numpy as np

    scale = (np.abs(rows).max(1) / 127.0).astype("<f4") if len(rows) else np.zeros(0, "<f4")
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(rows / scale[:, None].astype(np.float64)), -127, 127).astype(np.int8)
    return q, scale


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class Vectors:
    """The embeddings of one index, read with the standard library only."""

    def __init__(self, index_dir: Path):
        index_dir = Path(index_dir)
        try:
            with open(index_dir / META, encoding="utf-8") as f:
                meta = json.load(f)
            with open(index_dir / DATA, "rb") as f:
                # Mapped, not read: a question touches a few hundred rows.
                raw: Any = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) \
                    if os.fstat(f.fileno()).st_size else b""
        except FileNotFoundError:
            raise EmbeddingsUnavailable("the index has no embeddings (run `crsearch index` "
                                        "to build them)") from None
        except (OSError, ValueError) as e:
            raise EmbeddingsUnavailable(f"the embeddings cannot be read ({e.__class__.__name__})"
                                        ) from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT \
                or meta.get("sha256") != WEIGHTS_SHA256 or meta.get("dim") != DIM:
            raise EmbeddingsUnavailable("the embeddings were built with another model or "
                                        "version (run `crsearch index` to rebuild them)")
        self.ids: list[str] = meta["ids"]
        self.row_of: dict[str, int] = {id: i for i, id in enumerate(self.ids)}
        self.words: dict[str, int] = {w: i for i, w in enumerate(meta["words"])}
        self.asked: list[dict[str, Any]] = meta.get("asked") or []
        if not isinstance(self.asked, list) or not all(
                well_formed(e) and all(i in self.row_of for i in e["ids"]) for e in self.asked):
            raise EmbeddingsUnavailable("the embeddings file is damaged (questions asked before)")
        rows = len(self.ids) + len(self.words) + len(self.asked)
        if len(raw) != rows * (DIM + 4):
            raise EmbeddingsUnavailable("the embeddings file is damaged (wrong size)")
        self._raw = raw
        self._scales = array("f")
        self._scales.frombytes(raw[:rows * 4])
        if sys.byteorder == "big":  # pragma: no cover - stored little-endian
            self._scales.byteswap()
        self._start = rows * 4
        self._memory: Memory | None = None
        self._base: dict[str, str] | None = None
        #: The stemmer for words the table lacks (the index's, when it sets it).
        self.stem: Callable[[str], str] | None = None
        self._rows: dict[int, array] = {}
        self._unpack = struct.Struct(f"{DIM}b").unpack_from

    def _ints(self, n: int) -> tuple[int, ...]:
        return self._unpack(self._raw, self._start + n * DIM)

    def _row(self, n: int) -> array:
        got = self._rows.get(n)
        if got is None:
            # Kept: the same words and questions asked before come back.
            got = self._rows[n] = array("d", map(self._scales[n].__mul__, self._ints(n)))
        return got

    def query(self, text_words: list[str]) -> list[float] | None:
        """The normalised vector of the known words, or None if none is known."""
        acc = [0.0] * DIM
        n = 0
        base = len(self.ids)
        stem = self.stem or _porter_stem
        for i in meaning_rows(text_words, self.words, lambda: self._forms(stem), stem):
            n += 1
            acc = list(map(add, acc, self._row(base + i)))
        norm = math.sqrt(sum(a * a for a in acc))
        if not n or not norm:
            return None
        return [a / norm for a in acc]

    def _forms(self, stem: Callable[[str], str]) -> dict[str, str]:
        """``base_forms`` of the word table, worked out once (about 20 ms)."""
        if self._base is None:
            self._base = base_forms(self.words, stem)
        return self._base

    def memory(self) -> Memory:
        """The questions asked before (``asked.Memory``), with their vectors."""
        if self._memory is None:
            base = len(self.ids) + len(self.words)
            self._memory = Memory(self.asked, lambda vec, n: self._dot(vec, base + n))
        return self._memory

    def similarity(self, vec: list[float], id: str) -> float | None:
        """Cosine similarity of ``vec`` with the document ``id`` (None if not embedded)."""
        n = self.row_of.get(id)
        if n is None:
            return None
        return self._dot(vec, n)

    def _dot(self, vec: Sequence[float], n: int) -> float:
        """``vec`` times row ``n``: its int8 values, then its scale.  A float
        times an int is the same product as times the int as a float, and
        reading the ints from a view of the mapped bytes makes no list or
        tuple: a question takes some 400 of these (its candidates and the
        questions asked before they answered)."""
        start = self._start + n * DIM
        with memoryview(self._raw) as raw, raw[start:start + DIM].cast("b") as ints:
            return sum(map(mul, vec, ints)) * self._scales[n]

