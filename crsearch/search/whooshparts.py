# Whoosh is untyped: the attributes our subclasses use come from its classes.
# mypy: disable-error-code="has-type,attr-defined"
"""Our pieces of Whoosh: a text field that keeps its analyses, a leaner codec,
a cheaper way in.

Imported only where Whoosh is loaded anyway (``schema.schema()``, and by
name when Whoosh unpickles an index's schema and segments).  They change
how an index is built and stored, never what a query finds: the same
postings, weights and field lengths, fewer bytes and less CPU.

- ``Text``: Whoosh's ``TEXT`` field, each text analysed by ``analyse``
  (the analyzer's steps in one function, the same tokens) and the analysis
  kept (``schema.analysed``): a batch import meets most rules' texts again
  in the next release, and they are not analysed twice.
- ``Codec``: Whoosh's ``W3Codec`` writing the same segment files, but a
  term with few postings keeps them inline in the term table (Whoosh's
  own writer has that option broken: it calls a method that does not
  exist), a block is compressed only when that makes it smaller (and with
  zlib state sized to it, ``files.deflate``), and the postings writer reads
  each document's field length from a list instead of the lengths column,
  one posting at a time.
- ``Feed``: adds documents to Whoosh's segment writer without its pool of
  posting tuples: each field's postings are gathered by term as the
  documents come, and the field writer takes them term by term at commit
  (the same calls in the same order as from the sorted pool, with a block
  of postings at a time), so a build neither sorts ~100,000 tuples nor
  makes a call per posting.
"""

from __future__ import annotations

import re
from pickle import dumps
from typing import Any

from crsearch.files import deflate
from crsearch.rules.text import FOLD, STOP_WORDS
from crsearch.search.schema import TOKEN, analysed, load_whoosh, stems

load_whoosh()

from whoosh.codec import whoosh3  # noqa: E402 - after load_whoosh
from whoosh.fields import TEXT  # noqa: E402
from whoosh.lang.porter import stem  # noqa: E402
from whoosh.system import pack_uint  # noqa: E402
from whoosh.util.numeric import byte_to_length, length_to_byte  # noqa: E402

#: Postings lists this short are kept in the term table (one fewer block
#: each, with its header and zlib frame): 4 is the smallest index of the
#: sizes tried (docs/decisions/store-layout.md).
INLINE = 4


_token = re.compile(TOKEN)
_fold = dict(FOLD)
def analyse(text: str) -> tuple[tuple[bytes, int, float, bytes], ...]:
    """What ``Text.index`` yields for ``text`` through ``schema.analyzer()``
    and the ``Frequency`` format: each stem once (first seen first), as UTF-8,
    its count, its weight and its count packed.

    The same steps as the analyzer's chain, without a Token object going
    through five generators per word: the tokenizer's matches, lowercased,
    quotes folded, stop words dropped, Porter-stemmed (each word once per
    process).  tests/search/test_whooshparts.py checks it against Whoosh's
    own analysis on whole releases.
    """
    counts: dict[str, int] = {}
    for word in _token.findall(text):
        word = word.lower()
        if not word.isascii():
            word = word.translate(_fold)
        if word in STOP_WORDS:
            continue
        got = stems.get(word)
        if got is None:
            got = stems[word] = stem(word)
        counts[got] = counts.get(got, 0) + 1
    return tuple((w.encode("utf-8"), n, float(n), pack_uint(n)) for w, n in counts.items())


class Text(TEXT):
    """Whoosh's ``TEXT``, each text's analysis made by ``analyse`` and kept
    (``schema.analysed``).

    Every text field of ``schema.schema()`` has the same analyzer
    (``schema.analyzer()``) and format, so a text's analysis is the same in
    any of them.
    """

    def index(self, value: Any, **kwargs: Any) -> Any:
        if kwargs or not isinstance(value, str):
            return super().index(value, **kwargs)
        return analysed(value, lambda: analyse(value))


class _Postings(whoosh3.W3PostingsWriter):
    def add_many(self, posts: list[tuple[int, float, bytes]], lengths: list[int | None] | None
                 ) -> None:
        """``add_posting`` for each of ``posts`` ((docnum, weight, value),
        docnums ascending), a block at a time; ``lengths`` are the documents'
        field lengths as the lengths column keeps them (None: not scored)."""
        limit = self._blocklimit
        start, end = 0, len(posts)
        while start < end:
            if len(self._ids) >= limit:
                self._write_block()
            stop = min(end, start + limit - len(self._ids))
            chunk = posts[start:stop]
            start = stop
            ids = [p[0] for p in chunk]
            weights = [p[1] for p in chunk]
            self._ids.extend(ids)
            self._weights.extend(weights)
            top = max(weights)
            if top > self._maxweight:
                self._maxweight = top
            self._values.extend([p[2] for p in chunk if p[2]])
            if lengths is not None:
                got = [x for x in map(lengths.__getitem__, ids) if x]
                if got:
                    low, high = min(got), max(got)
                    if self._minlength is None or low < self._minlength:
                        self._minlength = low
                    if high > self._maxlength:
                        self._maxlength = high

    def add_posting(self, id_: int, weight: float, vbytes: bytes, length: int | None = None) -> None:
        # W3PostingsWriter.add_posting without its type assertions: the
        # postings come from Whoosh's own pool.
        if len(self._ids) >= self._blocklimit:
            self._write_block()
        self._ids.append(id_)
        self._weights.append(weight)
        if weight > self._maxweight:
            self._maxweight = weight
        if vbytes:
            self._values.append(vbytes)
        if length:
            if self._minlength is None or length < self._minlength:
                self._minlength = length
            if length > self._maxlength:
                self._maxlength = length

    def finish_postings(self) -> Any:
        terminfo = self._terminfo
        if not self.written() and len(self) <= self._inlinelimit:
            terminfo.add_block(self)
            terminfo.set_inlined(self._ids, self._weights, self._values)
        else:
            if self._ids:
                self._write_block(last=True)
            terminfo.set_extent(self._startoffset, self._postfile.tell() - self._startoffset)
        self._terminfo = None
        return terminfo

    def _write_block(self, last: bool = False) -> None:
        # As W3PostingsWriter._write_block, but a block that zlib does not
        # make smaller is stored as it is (its info says so: level 0).
        if not self._blockcount:
            self._postfile.write(whoosh3.WHOOSH3_HEADER_MAGIC)
        self._terminfo.add_block(self)
        data = dumps((self._mini_ids(), self._mini_weights(), self._mini_values()), 2)
        comp = self._compression
        if comp:
            packed = deflate(data, comp)
            if len(packed) < len(data):
                data = packed
            else:
                comp = 0
        ids = self._ids
        info = dumps((len(ids), ids[-1], self._maxweight, comp,
                      length_to_byte(self._minlength), length_to_byte(self._maxlength)), 2)
        size = len(info) + len(data)
        self._postfile.write_int(-size if last else size)
        self._postfile.write(info)
        self._postfile.write(data)
        self._blockcount += 1
        self._new_block()


#: Each length byte's length (None for 0: no length), as ``doc_field_length`` reads it.
_LENGTH_OF: list[int | None] = [None] + [byte_to_length(b) for b in range(1, 256)]


class _PerDocReader(whoosh3.W3PerDocReader):
    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int | None:
        # Whoosh reads one byte of the lengths column per call, and the
        # postings writer calls once per posting: read the column at once.
        lengths = self.__dict__.setdefault("_lengths", {})
        got = lengths.get(fieldname, False)
        if got is False:
            reader = self._cached_reader(whoosh3._lenfield(fieldname), whoosh3.LENGTHS_COLUMN)
            try:
                raw = reader._dbfile.get(reader._basepos, reader._count)
            except AttributeError:  # not the column we know: Whoosh reads it
                got = lengths[fieldname] = None if reader is None else True
            else:
                got = lengths[fieldname] = [_LENGTH_OF[b] for b in raw] + \
                    [None] * (self._doccount - len(raw))
        if docnum > self._doccount:
            raise IndexError(f"Asked for docnum {docnum!r} of {self._doccount}")
        if got is None:
            return default  # no lengths column: a field that is not scored
        if got is True:
            return super().doc_field_length(docnum, fieldname, default)
        return got[docnum]


class _PerDocWriter(whoosh3.W3PerDocWriter):
    def __init__(self, codec: Any, storage: Any, segment: Any):
        super().__init__(codec, storage, segment)
        # The stored fields' column compresses each document's fields alone:
        # with zlib state sized to them (``files.deflate``), the same stream.
        self._colwriters["_stored"]._child._compress = deflate


class _FieldWriter(whoosh3.W3FieldWriter):
    def add_postings(self, schema: Any, lengths: Any, items: Any) -> None:
        if not isinstance(items, Feed):
            return super().add_postings(schema, lengths, items)
        # What ``FieldWriter.add_postings`` does with the sorted pool: fields
        # in name order, their terms in byte order, each term's postings in
        # document order, each with its document's length in the field.
        for fieldname in sorted(items.terms):
            field = schema[fieldname]
            self.start_field(fieldname, field)
            lens = items.stored_lengths(fieldname)
            terms = items.terms[fieldname]
            for btext in sorted(terms):
                self.start_term(btext)
                self._postwriter.add_many(terms[btext], lens)
                self.finish_term()
            self.finish_field()
        return None


class Feed:
    """Documents into a Whoosh ``SegmentWriter`` made with our ``Codec``, as
    its ``add_document`` adds them (the same per-document fields, lengths
    and postings), the postings gathered here instead of in its pool."""

    def __init__(self, writer: Any):
        from whoosh.util.numeric import length_to_byte as to_byte

        self.writer = writer
        self.schema = writer.schema
        #: field -> term bytes -> [(docnum, weight, value)], docnums ascending.
        self.terms: dict[str, dict[bytes, list[tuple[int, float, bytes]]]] = {}
        #: scored field -> each document's length (tokens; 0 without the field).
        self.lengths: dict[str, list[int]] = {}
        self._to_byte = to_byte
        self._ids: dict[tuple[str, Any], Any] = {}
        for name in self.schema.names():
            field = self.schema[name]
            if field.column_type or field.vector or field.separate_spelling():
                raise ValueError(f"Feed cannot add the field {name!r} (columns, vectors, spelling)")
        # At commit the segment writer asks its pool for the sorted postings.
        writer.pool.iter_postings = lambda: self

    def add(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Add one document (field -> value, as for ``add_document``); returns
        each indexed field's analysis (``Text.index`` tuples)."""
        writer = self.writer
        writer._check_state()
        docnum = writer.docnum
        perdoc = writer.perdocwriter
        perdoc.start_doc(docnum)
        out = {}
        for name in sorted(fields):
            value = fields[name]
            if value is None:
                continue
            field = self.schema[name]
            length = 0
            if field.indexed:
                if isinstance(field, Text):
                    items = field.index(value)  # kept by the field
                else:
                    # Ids and kinds: a few values, each analysed once.
                    items = self._ids.get((name, value))
                    if items is None:
                        items = self._ids[(name, value)] = tuple(field.index(value))
                out[name] = items
                # A field without postings must not reach the field writer
                # (it would enter the segment's field map).
                terms = self.terms.setdefault(name, {}) if items else {}
                for tbytes, freq, weight, vbytes in items:
                    length += freq
                    got = terms.get(tbytes)
                    if got is None:
                        terms[tbytes] = [(docnum, weight, vbytes)]
                    else:
                        got.append((docnum, weight, vbytes))
                if field.scorable:
                    lens = self.lengths.setdefault(name, [])
                    lens.extend([0] * (docnum - len(lens)))
                    lens.append(length)
                else:
                    length = 0
            perdoc.add_field(name, field, value if field.stored else None, length)
        perdoc.finish_doc()
        writer._added = True
        writer.docnum += 1
        return out

    def stored_lengths(self, field: str) -> list[int | None] | None:
        """Each document's length in ``field`` as the lengths column keeps it
        (None for 0), as the postings writer reads them; None when not scored."""
        lens = self.lengths.get(field)
        if lens is None:
            return None
        to_byte = self._to_byte
        return [_LENGTH_OF[to_byte(x)] for x in lens]


class Codec(whoosh3.W3Codec):
    """``W3Codec`` with short postings lists inline and no zlib that grows a block."""

    def __init__(self, blocklimit: int = 128, compression: int = 3, inlinelimit: int = INLINE):
        super().__init__(blocklimit, compression, inlinelimit)

    def postings_writer(self, dbfile: Any, byteids: bool = False) -> Any:
        return _Postings(dbfile, blocklimit=self._blocklimit, byteids=byteids,
                         compression=self._compression, inlinelimit=self._inlinelimit)

    def field_writer(self, storage: Any, segment: Any) -> Any:
        return _FieldWriter(self, storage, segment)

    def per_document_writer(self, storage: Any, segment: Any) -> Any:
        return _PerDocWriter(self, storage, segment)

    def per_document_reader(self, storage: Any, segment: Any) -> Any:
        return _PerDocReader(storage, segment)
