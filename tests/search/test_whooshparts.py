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
