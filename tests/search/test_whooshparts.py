"""Our Whoosh pieces change how an index is built and stored, never what it holds."""

from __future__ import annotations

import pytest

from tests.conftest import ARCHIVE


def whoosh_analysis(text: str):
    """What Whoosh's own TEXT field yields through ``schema.analyzer()``."""
    from whoosh.fields import TEXT

    from crsearch.search.schema import analyzer

    return tuple(TEXT(analyzer=analyzer(), phrase=False).index(text))


ODD = ["", "The the AND of", "Can\u2019t can't CAN\u2018T", "_under_score_ x_y", "Æther Straße ﬁre \u2163",
       "702.19c 1/2 +1/+1 X", "won\u2019t\u2019ve o'clock's", "dwarves' Dwarf's", "\u00a0–—\u2212-"]


def test_analyse_gives_whooshs_own_analysis_on_odd_text():
    from crsearch.search.whooshparts import analyse

    for text in ODD:
        assert analyse(text) == whoosh_analysis(text), text


@pytest.mark.archive
@pytest.mark.parametrize("name", ["1998-07-15", "2012-07-01", "2026-08-07"])
def test_analyse_gives_whooshs_own_analysis_on_every_document(name):
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.search.build import documents
    from crsearch.search.whooshparts import analyse

    path = ARCHIVE / f"{name}.txt"
    if not path.exists():  # the archive's dates: take the nearest stored after it
        path = min((p for p in ARCHIVE.glob("*.txt") if p.stem >= name), key=lambda p: p.stem)
    release = release_from_bytes(path.read_bytes(), path.name)
    texts = {v for d in documents(release) for k, v in d.items()
             if k in ("name", "text", "examples", "context") and v}
    assert len(texts) > 500
    for text in texts:
        assert analyse(text) == whoosh_analysis(text), text[:80]


def test_an_index_holds_what_whooshs_own_writer_puts_in(mini_release, tmp_path):
    """Every term's postings, weights, lengths and BM25F scores, read through
    Whoosh, are those of an index written by Whoosh's own field and codec."""
    from whoosh import index as windex
    from whoosh import scoring
    from whoosh.fields import ID, STORED, TEXT, Schema

    from crsearch.search.build import build_index, documents, whoosh_fields
    from crsearch.search.schema import INDEX_NAME, analyzer

    ours = tmp_path / "ours"
    build_index(mini_release, ours, embeddings=False)
    plain = tmp_path / "plain"
    plain.mkdir()
    ana = analyzer()
    text = {f: TEXT(analyzer=ana, phrase=False) for f in ("name", "text", "examples", "context")}
    ix = windex.create_in(str(plain), Schema(id=STORED, kind=ID(stored=True), section=ID, chapter=ID,
                                              **text), indexname=INDEX_NAME)
    w = ix.writer()
    for d in documents(mini_release):
        w.add_document(**whoosh_fields(d))
    w.commit()
    weighting = scoring.BM25F(B=0.75, K1=1.2)
    with windex.open_dir(str(ours), indexname=INDEX_NAME).searcher(weighting=weighting) as a, \
            ix.searcher(weighting=weighting) as b:
        assert [f for _, f in a.reader().iter_docs()] == [f for _, f in b.reader().iter_docs()]
        seen = 0
        for field in ("name", "text", "examples", "context", "kind", "section", "chapter"):
            terms = list(a.reader().lexicon(field))
            assert terms == list(b.reader().lexicon(field))
            for t in terms:
                ma, mb = a.postings(field, t.decode()), b.postings(field, t.decode())
                got, want = [], []
                while ma.is_active():
                    got.append((ma.id(), ma.weight(), ma.score()))
                    ma.next()
                while mb.is_active():
                    want.append((mb.id(), mb.weight(), mb.score()))
                    mb.next()
                assert got == want, (field, t)
                seen += len(got)
            for n in range(a.doc_count_all()):
                assert a.doc_field_length(n, field) == b.doc_field_length(n, field)
        assert seen > 300  # the mini release: a few hundred postings


def _segment_files(folder) -> dict[str, bytes]:
    from whoosh import index as windex

    from crsearch.search.schema import INDEX_NAME

    ix = windex.open_dir(str(folder), indexname=INDEX_NAME)
    seg = ix._segments()[0]
    files = seg.open_compound_file(ix.storage)
    # The files' names begin with the segment's random id.
    return {n.replace(seg.segment_id(), ""): files.open_file(n).read() for n in files.list()}


def test_feed_writes_the_segment_add_document_writes(tmp_path):
    """Documents added through ``Feed`` give byte for byte the segment files
    that ``add_document`` gives with the same codec: blocks of postings
    (a word in 300 documents), inline ones, absent and empty fields."""
    from whoosh import index as windex

    from crsearch.search.schema import INDEX_NAME, schema
    from crsearch.search.whooshparts import Codec, Feed

    docs = []
    for n in range(300):
        doc = {"id": f"{n}.1", "kind": "rule" if n % 3 else "subrule", "section": str(n % 7),
               "text": " ".join(["creature"] * (1 + n % 5) + [f"w{n % 11}", "dies"] * (n % 4))}
        if n % 10 == 0:
            doc["name"] = f"Keyword {n}"
        if n % 17 == 0:
            doc["examples"] = "Example: the creature's controller can't attack."
        if n % 23 == 0:
            doc["context"] = ""  # analysed to nothing
        docs.append(doc)
    got = {}
    for way in ("add_document", "feed"):
        folder = tmp_path / way
        folder.mkdir()
        ix = windex.create_in(str(folder), schema(), indexname=INDEX_NAME)
        w = ix.writer(limitmb=256, procs=1, multisegment=False, codec=Codec())
        feed = Feed(w) if way == "feed" else None
        for d in docs:
            if feed is None:
                w.add_document(**d)
            else:
                feed.add(d)
        w.commit(optimize=False)
        got[way] = _segment_files(folder)
    assert got["feed"].keys() == got["add_document"].keys()
    for name, data in got["add_document"].items():
        assert got["feed"][name] == data, name
