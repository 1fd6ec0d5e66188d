"""The Whoosh-free files that answer common queries: writer and reader together.

Written next to the Whoosh index at build time, read by ``FastBackend``
(each ``.z`` file is a run of zlib-compressed JSON blocks, read one at a time):

- ``fast.json``: the document numbers' ids, each word's stem, each stem's
  document frequency in ``text``, and where the blocks below start;
- ``fast-postings.z``: for every stem that is not too common, every
  document that has it with its BM25F score, summed over the boosted fields
  exactly as the full-text query sums them;
- ``fast-docs.z``: the stored fields, one chapter per block; a rule's
  text is left out (null) when the index sits in a stored release whose
  chapter file holds that very text: it is read from there; a rule that
  cites others has what it cites ready (``FastBackend.cites``);
- ``fast-topics.z`` and ``fast-cards.z``: the judges' topics with
  their cues stemmed, and the cards table's matching data, their rule ids
  carried into this release (``tables.py``), one block per first letter (a
  query reads its words' letters only); ``fast.json`` says where each block
  starts and the checksum of the data files each came from (a stale or
  damaged copy is made again in memory, never trusted).

``FastBackend`` has the same small interface as ``backends.WhooshBackend``
(``stored``, ``doc_frequency``, ``doc_count``, ``candidates``), so the
ranking (``index.Index``) does not care which one answers.  JSON and the
standard library only: no Whoosh import on this path.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crsearch.rules.model import GLOSSARY_PREFIX
from crsearch.rules.text import STOP_WORDS, words
from crsearch.search.schema import FAST, FAST_DOCS, FAST_POSTINGS, FAST_TABLES, TERMS

if TYPE_CHECKING:
    from crsearch.search.tables import Carry
    from crsearch.store.datadir import ChaptersFile


def shard_of(id: str) -> str:
    """Which block of ``fast-docs.z`` holds the stored fields of ``id``."""
    if id.startswith(GLOSSARY_PREFIX):
        return "glossary"
    head = id.split(".", 1)[0]
    return head if "." in id else "heads"


def title_stems(terms: dict[str, Any], stem) -> list[str]:
    """The stems of every keyword, glossary term and chapter title."""
    titles = {*terms["keywords"], *terms["chapters"], *terms["sections"],
              *(n for g in terms["glossary"] for n in g["names"])}
    return sorted({stem(w) for t in titles for w in words(t) if w not in STOP_WORDS})


def ids_and_frequencies(searcher: Any) -> tuple[list[str], dict[str, int]]:
    """Of a Whoosh searcher: each document number's rule id, and each stem's
    document frequency in the text field (what BM25 scores are made of)."""
    reader = searcher.reader()
    docids = [""] * searcher.doc_count_all()
    for docnum, fields in reader.iter_docs():
        docids[docnum] = fields["id"]
    df = {t.decode("utf-8"): reader.doc_frequency("text", t) for t in reader.lexicon("text")}
    return docids, df


class FieldPostings:
    """Each boosted field's postings and lengths as the Whoosh index of the
    same documents holds them, gathered from the analyses the build hands
    Whoosh: the BM25F scores of ``write`` are then computed without reading
    the index back (the same numbers, in the same order)."""

    def __init__(self, fields: list[str]):
        self.fields = fields
        self.n = 0
        #: field -> term -> [(document number, weight)], in document order.
        self.terms: dict[str, dict[str, list[tuple[int, float]]]] = {f: {} for f in fields}
        #: field -> each document's length (tokens), and their sum.
        self.lengths: dict[str, list[int]] = {f: [] for f in fields}
        self.total: dict[str, int] = dict.fromkeys(fields, 0)

    @classmethod
    def gathered(cls, fields: list[str], n: int,
                 terms: dict[str, dict[bytes, list[tuple[int, float, bytes]]]],
                 lengths: dict[str, list[int]]) -> FieldPostings:
        """The postings of ``n`` documents, from those already gathered by
        term (field -> term bytes -> [(docnum, weight, value)], docnums
        ascending: ``whooshparts.Feed``) and each field's lengths."""
        got = cls(fields)
        got.n = n
        for field in fields:
            got.terms[field] = {t.decode("utf-8"): [(d, w) for d, w, _ in posts]
                                for t, posts in terms.get(field, {}).items()}
            lens = list(lengths.get(field, ()))
            lens.extend([0] * (n - len(lens)))
            got.lengths[field] = lens
            got.total[field] = sum(lens)
        return got

    def scores(self, b: float, k1: float) -> dict[str, dict[str, list[tuple[int, float]]]]:
        """field -> term -> [(document number, BM25F score)], as Whoosh's
        ``BM25F`` scores each posting: its idf, the weight as the postings
        keep it (float32), the length as the lengths column keeps it (a byte)."""
        from array import array
        from math import log

        from whoosh.scoring import bm25
        from whoosh.util.numeric import byte_to_length, length_to_byte

        out: dict[str, dict[str, list[tuple[int, float]]]] = {}
        n = self.n
        for field in self.fields:
            avg = self.total[field] / (n or 1) or 1
            lengths = [byte_to_length(length_to_byte(x)) for x in self.lengths[field]]
            got = out[field] = {}
            for term, posts in self.terms[field].items():
                idf = log(n / (len(posts) + 1)) + 1
                weights = array("f", [w for _, w in posts])
                got[term] = [(d, bm25(idf, w, lengths[d], avg, b, k1))
                             for (d, _), w in zip(posts, weights)]
        return out


def write(postings: FieldPostings, docs: list[dict[str, Any]], terms: dict[str, Any],
          path: Path, carry: Carry | None = None) -> None:
    """Precompute what common queries need, so they are answered without Whoosh.

    ``postings`` are those of the Whoosh index of ``docs`` (built beside);
    ``carry`` brings the shipped tables' rule ids into this release
    (``tables.Carry``; by default from the shipped map and the words check).
    """
    from whoosh.lang.porter import stem

    from crsearch.search.schema import (
        BM25_B,
        BM25_K1,
        COMMON,
        FIELD_BOOSTS,
        INDEX_FORMAT,
        text_words,
    )

    fields = list(FIELD_BOOSTS)
    scored = postings.scores(BM25_B, BM25_K1)
    docids = [d["id"] for d in docs]
    n = len(docids)
    in_text = postings.terms["text"]
    # In the lexicon's order (UTF-8 bytes sort as code points).
    df = {t: len(in_text[t]) for t in sorted(in_text)}
    offsets: dict[str, list[int]] = {}
    # Every stem of every boosted field, so that questions in a player's
    # words (not only titles) are answered without Whoosh.
    every = set(title_stems(terms, stem))
    for field in fields:
        every.update(scored[field])
    with open(path / FAST_POSTINGS, "wb") as f:
        for st in sorted(every):
            if df.get(st, 0) > COMMON * n:
                continue  # common words retrieve nothing: Whoosh does those
            # One BM25 score per field: any field weights can be summed
            # at query time (typed words and pasted passages weigh the
            # fields differently).
            per: dict[int, list[float]] = {}
            for k, field in enumerate(fields):
                for num, score in scored[field].get(st, ()):
                    per.setdefault(num, [0.0] * len(fields))[k] = score
            line = pack([list(per), *zip(*per.values())])
            offsets[st] = [f.tell(), len(line)]
            f.write(line)
    stems: dict[str, str] = {}
    shards: dict[str, list[list[Any]]] = {}
    # The judges' topic cues too: a question matches them without loading
    # the stemmer (a word missing here is stemmed at query time).
    stem = _stemmer(stem)
    for w in _cue_words():
        stems[w] = stem(w)
    chapter_texts = _chapter_texts(path)
    texts: dict[str, str] = {}
    cited = _citations(terms["ids"])
    for d in docs:
        for w in (*text_words(d.get("text", "")), *text_words(d.get("title", ""))):
            if w not in stems:
                stems[w] = stem(w)
        key = shard_of(d["id"])
        text: str | None = d.get("text", "")
        if text and d["kind"] in ("rule", "subrule") \
                and chapter_texts(d.get("chapter", "")).get(d["id"]) == text:
            # The release's chapters file holds it: not stored twice.
            texts[key] = d["chapter"]
            text = None
        row = [d["id"], d["kind"], d.get("title", ""), text, d.get("parent", "")]
        cites = cited(d)
        if cites is None:
            row.append(None)  # not ready: a question reads the text
        elif cites[0] or cites[1]:
            row += cites
        shards.setdefault(key, []).append(row)
    blocks: dict[str, list[int]] = {}
    with open(path / FAST_DOCS, "wb") as f:
        for key, rows in shards.items():
            line = pack(rows)
            blocks[key] = [f.tell(), len(line)]
            f.write(line)
    from crsearch.paths import data_digest

    # The topics and cards ready for a query, their ids carried into this
    # release, so that a search neither stems a cue nor indexes a card name
    # (docs/decisions/fast-tables.md).
    if carry is None:
        carry = default_carry(terms["effective_date"], docs)
    ready, longest = ready_tables(carry, stem, keep_cues=True)
    tables: dict[str, Any] = {}
    for what, (name, sources) in FAST_TABLES.items():
        parts: dict[str, list[int]] = {}
        with open(path / name, "wb") as f:
            for letter, part in ready[what].items():
                line = pack(part)
                parts[letter] = [f.tell(), len(line)]
                f.write(line)
            size = f.tell()
        tables[what] = {"digest": data_digest(*sources), "parts": parts, "size": size}
    tables["cards"]["longest"] = longest
    from crsearch.store.datadir import packed_json

    with open(path / FAST, "wb") as f:
        f.write(packed_json({"format": INDEX_FORMAT, "n": n, "docids": docids, "df": df,
                             "stems": stems, "postings": offsets, "docs": blocks, "texts": texts,
                             "every_stem": True, "tables": tables}))


def _citations(ids: list[str]) -> Callable[[dict[str, Any]], list[list[str]] | None]:
    """What a rule's text cites, as a question's fusion reads it
    (``index.Index.cites``), ready so that no query parses a reference:
    [the rules it names singly that exist, every member of each range it
    names], itself left out; None for a glossary entry or a text whose
    ranges cannot be expanded (the query then reads the text)."""
    from crsearch.errors import BadInput
    from crsearch.rules import numbers
    from crsearch.rules.refs import cited_spans

    known = set(ids)

    def cites(doc: dict[str, Any]) -> list[list[str]] | None:
        id = doc["id"]
        if id.startswith(GLOSSARY_PREFIX):
            return None
        spans = cited_spans(doc.get("text", ""))
        single = {s.start for s in spans if s.start == s.end and s.start in known} - {id}
        try:
            members = {t for s in spans if s.start != s.end for t in numbers.expand(s, ids)} - {id}
        except BadInput:
            return None
        return [sorted(single), sorted(members)]

    return cites


def _stemmer(stem: Callable[[str], str]) -> Callable[[str], str]:
    """``stem``, each word's stem kept for the next build (``schema.stems``)."""
    from crsearch.search.schema import stems

    def kept(word: str) -> str:
        got = stems.get(word)
        if got is None:
            got = stems[word] = stem(word)
        return got

    return kept


def chapters_of(index_dir: Path) -> Path:
    """The chapters file of the stored release an index belongs to."""
    from crsearch.store.datadir import CHAPTERS

    return Path(index_dir).parent / CHAPTERS


def chapter_texts(index_dir: Path, chapter: str) -> dict[str, str]:
    """Each rule's text by id in one chapter, as the chapters file beside the
    index holds it (none when the index is not in a stored release of this
    layout, or the file is damaged: ``crsearch repair`` restores it)."""
    from crsearch.store.datadir import read_chapter

    try:
        text = read_chapter(chapters_of(index_dir), chapter)
        return {r["id"]: r.get("text", "") for r in json.loads(text)} if text else {}
    except (OSError, ValueError, TypeError, KeyError):
        return {}


def _chapter_texts(index_dir: Path) -> Callable[[str], dict[str, str]]:
    """``chapter_texts`` of ``index_dir``, each chapter read once."""
    got: dict[str, dict[str, str]] = {}

    def texts(chapter: str) -> dict[str, str]:
        if chapter not in got:
            got[chapter] = chapter_texts(index_dir, chapter)
        return got[chapter]

    return texts


def default_carry(date: str, docs: list[dict[str, Any]]) -> Carry:
    """The shipped tables carried into the release of ``docs`` by the shipped map."""
    from crsearch.search.asked import doc_texts
    from crsearch.search.tables import Carry

    return Carry(date, doc_texts(docs))


#: Each topic cue's stems (Porter's, as ``write`` stems): the same for every
#: build of a batch import.
_cue_stems: dict[str, frozenset[str]] = {}
#: The last build's ready tables, and what decided them: the id each rule
#: the tables name is carried to (neighbouring releases mostly agree).
_last_ready: dict[tuple[str | None, ...], tuple[dict[str, dict[str, Any]], int]] = {}


def forget() -> None:
    """Drop what builds keep for the next one here (cues' stems, ready tables)."""
    _cue_stems.clear()
    _last_ready.clear()


@functools.cache
def _cue_words() -> frozenset[str]:
    from crsearch.search.topics import cue_words

    return frozenset(cue_words())


@functools.cache
def _table_ids() -> tuple[str, ...]:
    """Every rule id the topics and the cards table name, each once."""
    from crsearch.search.cardtopics import table
    from crsearch.search.topics import TOPICS

    ids = [i for t in TOPICS for i in t.rules]
    ids += [i for rules in table()["rules"].values() for i in rules]
    return tuple(dict.fromkeys(ids))


def ready_tables(carry: Carry, stem: Callable[[str], str], keep_cues: bool = False
                 ) -> tuple[dict[str, dict[str, Any]], int]:
    """The topics (cues stemmed) and cards (by first letter) with their ids
    carried, as an index keeps them ready; and the longest card name in words.
    ``keep_cues``: ``stem`` is Porter's; what is made is kept for the next
    build (the cues' stems, and the tables while they carry the same ids).
    The result is shared: never change it."""
    if keep_cues:
        key = tuple(carry(i) for i in _table_ids())
        got = _last_ready.get(key)
        if got is None:
            got = _ready_tables(carry, stem, keep_cues)
            _last_ready.clear()
            _last_ready[key] = got
        return got
    return _ready_tables(carry, stem, keep_cues)


def _ready_tables(carry: Carry, stem: Callable[[str], str], keep_cues: bool
                  ) -> tuple[dict[str, dict[str, Any]], int]:
    from crsearch.search import tables
    from crsearch.search.cardtopics import table_by_letter
    from crsearch.search.topics import Cues, cue_stems

    def stems_of(cue: str) -> frozenset[str]:
        got = _cue_stems.get(cue)
        if got is None:
            got = _cue_stems[cue] = cue_stems(cue, stem)
        return got

    cards = tables.cards(carry)
    return ({"topics": Cues(stem, topics=tables.topics(carry),
                            stems_of=stems_of if keep_cues else None).to_parts(),
             "cards": table_by_letter(cards)}, cards["longest"])


def pack(data: Any) -> bytes:
    """One block of a fast file: compact JSON, zlib-compressed (a block is
    read on its own, and JSON of scores and texts shrinks to a quarter)."""
    from crsearch.files import deflate

    return deflate(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), 6)


def read_block(path: Path, where: list[int], fd: int | None = None) -> Any:
    """The block at ``where`` ([offset, length]); ValueError when damaged or
    cut short, ``TooLarge`` when it would inflate past an index file's limit.
    ``fd``: the file kept open (``KeptFiles``), else it is opened for this block."""
    from crsearch.files import inflate
    from crsearch.store.datadir import LIMITS

    # os.pread, not open(): a question reads a hundred blocks, and a file
    # object costs some 40,000 instructions to make, seek, read and close.
    ok = where[0] >= 0 and where[1] >= 0
    if fd is not None:
        raw = os.pread(fd, where[1], where[0]) if ok else b""
    else:
        fd = os.open(path, os.O_RDONLY)
        try:
            raw = os.pread(fd, where[1], where[0]) if ok else b""
        finally:
            os.close(fd)
    if len(raw) != where[1]:
        raise ValueError(f"a block of {path.name} is cut short")
    return json.loads(inflate(raw, LIMITS["index"], path, f"a block of {path.name}"))


class ChapterTexts:
    """The rules' texts of one chapter file, each parsed when first asked for.

    Equal to parsing the whole file and keeping each id's last text ("" for
    an id it does not hold, and for every id of a damaged file): a rule is
    parsed alone where the file's format allows (``datadir.last_rule_of``),
    else the whole file is, once.
    """

    def __init__(self, text: str):
        from crsearch.store.datadir import chapter_whole

        self._text = text
        self._all: dict[str, str] | None = None if text and chapter_whole(text) else self._parse()
        #: Where each rule's key stands (``datadir.rule_keys``), once a few
        #: rules of this chapter were asked for: then one pass over the
        #: text finds them all, cheaper than a search of it per rule.
        self._keys: dict[str, int] | None = None
        self._asked = 0

    def _parse(self) -> dict[str, str]:
        try:
            return {r["id"]: r.get("text", "") for r in json.loads(self._text)}
        except (ValueError, TypeError, KeyError):
            return {}

    def get(self, id: str) -> str:
        if self._all is None:
            from crsearch.store.datadir import last_rule_of, rule_keys

            self._asked += 1
            if self._keys is None and self._asked > 3:
                self._keys = rule_keys(self._text)
            rule = last_rule_of(self._text, id, self._keys)
            if rule is not None:
                return rule.get("text", "")
            self._all = self._parse()  # not found alone: an id it lacks, another format
        return self._all.get(id, "")


class KeptFiles:
    """The fast files of one index, each opened on its first read and kept
    open: a question reads some 120 blocks of four files, and ``os.pread``
    on a kept descriptor needs no open or close per block and shares no
    offset between threads.  The descriptors are closed when this is freed
    (so never while a thread still reads through them)."""

    def __init__(self) -> None:
        import threading
        import weakref

        self._fds: dict[str, int] = {}
        self._lock = threading.Lock()
        weakref.finalize(self, _close_all, self._fds)

    def fd(self, path: Path) -> int:
        key = os.fspath(path)
        got = self._fds.get(key)
        if got is None:
            with self._lock:
                got = self._fds.get(key)
                if got is None:
                    got = self._fds[key] = os.open(key, os.O_RDONLY)
        return got


def _close_all(fds: dict[str, int]) -> None:
    for fd in fds.values():
        os.close(fd)
    fds.clear()


class FastBackend:
    """The fast files of one index, read lazily block by block."""

    name = "fast"

    def __init__(self, index_dir: Path, meta: dict[str, Any]):
        self.index_dir = Path(index_dir)
        self.meta = meta
        #: word -> stem for every word of the release (saves the stemmer).
        self.stems: dict[str, str] = meta["stems"]
        self._shards: dict[str, dict[str, list[Any]]] = {}
        self._docs: dict[str, dict[str, Any]] = {}
        self._chapters: dict[str, ChapterTexts] = {}
        #: The fast files and the release's chapters file, each opened once.
        self._files = KeptFiles()
        self._chapters_file: ChaptersFile | None = None
        self._postings: dict[str, tuple[list[int], list[list[float]]]] = {}
        self._weights: dict[tuple[str, tuple[tuple[int, float], ...]], list[tuple[int, float]]] = {}
        self._again: tuple[dict[str, dict[str, dict[str, Any]]], int] | None = None

    @classmethod
    def open(cls, index_dir: Path, fmt: int) -> FastBackend | None:
        """The fast files of ``index_dir``, or None when absent, damaged or old."""
        from crsearch.store.datadir import read_json

        try:
            meta = read_json(Path(index_dir) / FAST, "index")
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("format") != fmt:
            return None
        return cls(index_dir, meta)

    def table(self, what: str) -> TableParts | ReadyParts | None:
        """The ready copy of the topics or cards (``FAST_TABLES``).  A copy that
        is missing, damaged or made from other data files than the installed
        ones is made again in memory (its ids carried into this release);
        None when that cannot be done either."""
        from crsearch.paths import data_digest

        name, sources = FAST_TABLES[what]
        info = (self.meta.get("tables") or {}).get(what)
        try:
            if isinstance(info, dict) and info.get("digest") == data_digest(*sources) \
                    and (self.index_dir / name).stat().st_size == info.get("size"):
                return TableParts(self.index_dir / name, info, self._files)
        except OSError:
            pass
        return self._ready_again(what)

    def _ready_again(self, what: str) -> ReadyParts | None:
        if self._again is None:
            try:
                from crsearch.store.datadir import read_json

                date = read_json(self.index_dir / TERMS, "index")["effective_date"]
                ids = [r[0] for where in self.meta["docs"].values()
                       for r in read_block(self.index_dir / FAST_DOCS, where)]
                docs = [{"id": d["id"], "title": d["title"], "text": d["text"]}
                        for d in map(self.stored, ids) if d is not None]
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                return None
            from crsearch.search.schema import load_whoosh

            load_whoosh()
            from whoosh.lang.porter import stem

            ready, longest = ready_tables(default_carry(date, docs),
                                          lambda w: self.stems.get(w) or stem(w))
            self._again = (ready, longest)
        ready, longest = self._again
        return ReadyParts(ready[what], {"longest": longest})

    def stored(self, id: str) -> dict[str, Any] | None:
        doc = self._docs.get(id)
        if doc is not None:
            return doc
        key = shard_of(id)
        shard = self._shards.get(key)
        if shard is None:
            where = self.meta["docs"].get(key)
            path = self.index_dir / FAST_DOCS
            rows = read_block(path, where, self._files.fd(path)) if where else []
            shard = self._shards[key] = {r[0]: r for r in rows}
        r = shard.get(id)
        if r is None:
            return None
        # A rule's text comes from the chapter file, read when first asked
        # for: a question's candidates are a few rules of many chapters.
        text = self._texts(key).get(r[0]) if r[3] is None else r[3]
        doc = self._docs[id] = {"id": r[0], "kind": r[1], "title": r[2], "text": text,
                                "parent": r[4]}
        return doc

    def cites(self, id: str) -> tuple[frozenset[str], frozenset[str]] | None:
        """What the text of ``id`` cites, as the index holds it ready: (the
        rules it names singly, the members of the ranges it names); None
        when the index does not have it (the text is read then)."""
        if id.startswith(GLOSSARY_PREFIX) or self.stored(id) is None:
            return None
        r = self._shards[shard_of(id)][id]
        if len(r) == 5:
            return _NO_CITES
        if len(r) != 7 or not all(isinstance(x, list) for x in r[5:]):
            return None
        return frozenset(r[5]), frozenset(r[6])

    def _texts(self, key: str) -> ChapterTexts:
        """The rules' texts of one block, from the release's chapters file."""
        got = self._chapters.get(key)
        if got is None:
            chapter = (self.meta.get("texts") or {}).get(key)
            try:
                # ChaptersFile checks the file (regular, within its limits).
                text = (self._chapter_file().read(chapter) or "") if isinstance(chapter, str) else ""
            except (OSError, ValueError):
                text = ""  # a damaged chapters file: `crsearch repair` restores it
            got = self._chapters[key] = ChapterTexts(text)
        return got

    def _chapter_file(self) -> ChaptersFile:
        """The release's chapters file, opened and its header read once
        (OSError or ValueError, each time asked, when that fails)."""
        got = self._chapters_file
        if got is None:
            from crsearch.store.datadir import ChaptersFile

            got = ChaptersFile(chapters_of(self.index_dir))
            # Two threads may both open it: one keeps its reader, the other's is freed.
            self._chapters_file = got
        return got

    def doc_frequency(self, stem: str) -> int:
        return self.meta["df"].get(stem, 0)

    def doc_count(self) -> int:
        return self.meta["n"]

    def postings(self, stem: str) -> tuple[list[int], list[list[float]]] | None:
        """(docnums, one list of BM25 scores per field of ``FIELD_BOOSTS``)
        for ``stem``, or None when the fast files do not have it."""
        got = self._postings.get(stem)
        if got is None:
            where = self.meta["postings"].get(stem)
            if where is None:
                if self.meta.get("every_stem") and stem not in self.meta["df"]:
                    return [], []   # in no document at all
                return None
            try:
                path = self.index_dir / FAST_POSTINGS
                row = read_block(path, where, self._files.fd(path))
            except (OSError, ValueError):
                return None  # damaged: Whoosh answers (``crsearch repair`` rebuilds)
            got = self._postings[stem] = (row[0], row[1:])
        return got

    def _weighted(self, stem: str, boosts: tuple[tuple[int, float], ...]
                  ) -> list[tuple[int, float]] | None:
        """(docnum, score) of ``stem`` for one weighting of the fields (cached:
        a query's few weightings come back for every query)."""
        key = (stem, boosts)
        got = self._weights.get(key)
        if got is None:
            p = self.postings(stem)
            if p is None:
                return None
            docs, scores = p
            got = []
            for i, d in enumerate(docs):
                # Summed field by field in FIELD_BOOSTS order, as Whoosh does.
                v = 0.0
                for k, b in boosts:
                    v += scores[k][i] * b
                got.append((d, v))
            self._weights[key] = got
        return got

    def candidates(self, pick: list[str], fields: dict[str, float], required: list[list[str]],
                   filters: dict[str, str], limit: int) -> list[tuple[dict[str, Any], float]] | None:
        """The top BM25F candidates, ranked as Whoosh ranks them (score, then
        document number); None when this backend cannot answer (phrases,
        filters, a stem not precomputed)."""
        from crsearch.search.schema import FIELD_BOOSTS

        if required or filters or not set(fields) <= set(FIELD_BOOSTS):
            return None
        boosts = tuple((k, fields[f]) for k, f in enumerate(FIELD_BOOSTS) if f in fields)
        total: dict[int, float] = {}
        get = total.get
        for s in pick:
            weighted = self._weighted(s, boosts)
            if weighted is None:
                return None
            if not total:
                total.update(weighted)  # 0.0 + v is v: the first stem's in C
                continue
            for d, v in weighted:
                total[d] = get(d, 0.0) + v
        # Best score first, then document number, as Whoosh ranks them.
        top = sorted([(-v, d) for d, v in total.items()])[:limit]
        docids = self.meta["docids"]
        out = []
        for neg, d in top:
            v = -neg
            doc = self.stored(docids[d])
            if doc is not None:
                out.append((doc, v))
        return out

    def close(self) -> None:
        """Nothing to do: the kept files close when the backend is freed,
        never under a thread that still searches with it."""


#: A text that cites nothing.
_NO_CITES: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


class ReadyParts:
    """A ready table made in memory, read like ``TableParts``."""

    def __init__(self, parts: dict[str, dict[str, Any]], info: dict[str, Any]):
        self.parts, self.info = parts, info
        self.letters: list[str] = sorted(parts)

    def part(self, letter: str) -> dict[str, Any] | None:
        return self.parts.get(letter)


class TableParts:
    """One ready table of an index, read a letter at a time (``FAST_TABLES``)."""

    def __init__(self, path: Path, info: dict[str, Any], files: KeptFiles | None = None):
        self.path = path
        self.info = info
        self._files = files
        self.letters: list[str] = sorted(info.get("parts") or {})
        self._read: dict[str, Any] = {}

    @property
    def letters_read(self) -> set[str]:
        """The letters whose parts were asked for so far."""
        return set(self._read)

    def part(self, letter: str) -> dict[str, Any] | None:
        """The part of one first letter (None when there is none or it is unreadable)."""
        if letter not in self._read:
            where = self.info["parts"].get(letter)
            try:
                fd = self._files.fd(self.path) if self._files is not None and where else None
                got = read_block(self.path, where, fd) if where else None
            except (OSError, ValueError):
                got = None  # damaged since it was checked: that letter's hints are lost
            self._read[letter] = got if isinstance(got, dict) else None
        return self._read[letter]
