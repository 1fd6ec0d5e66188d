"""Opening a release's search index: ``terms.json`` and the Whoosh backend.

``WhooshBackend`` answers every query the fast files (``fastindex``)
cannot, behind the same small interface.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from crsearch.errors import StoreError
from crsearch.search.schema import INDEX_FORMAT, INDEX_NAME, TERMS, load_whoosh

# -- opening -----------------------------------------------------------------

class IndexMissing(StoreError):
    """The selected release has no usable search index."""


def open_index(path: Path):
    """Open the Whoosh index and its terms; raise IndexMissing with the fix."""
    terms = open_terms(path)
    load_whoosh()
    try:
        from whoosh import index as windex

        ix = windex.open_dir(str(path), indexname=INDEX_NAME)
    except Exception as e:  # noqa: BLE001 - Whoosh raises many kinds on a damaged folder
        raise IndexMissing(f"the search index in {path} cannot be read ({e.__class__.__name__}); "
                           "run `crsearch index` to rebuild it") from None
    return ix, terms


def _check_files(path: Path) -> None:
    """Refuse an index folder holding anything but regular files: a FIFO or a
    device in place of a segment would block or flood whatever reads it."""
    import os

    from crsearch.files import kind_of

    try:
        with os.scandir(path) as entries:
            for entry in entries:
                if not entry.is_file():
                    mode = os.stat(entry.path).st_mode if os.path.exists(entry.path) else 0
                    what = kind_of(mode) if mode else "a broken link"
                    raise IndexMissing(f"the search index in {path} is damaged ({entry.name} is {what}); "
                                       "run `crsearch index` to rebuild it")
    except OSError:
        return  # read below, with its own message


def open_terms(path: Path) -> dict[str, Any]:
    """``terms.json`` of an index (no Whoosh); raise IndexMissing with the fix."""
    path = Path(path)
    terms_file = path / TERMS
    if not terms_file.exists():
        raise IndexMissing(f"the release has no search index ({path} is missing); "
                           "run `crsearch index` to build it")
    _check_files(path)
    try:
        from crsearch.store.datadir import read_json

        terms = read_json(terms_file, "index")
        if terms.get("format") != INDEX_FORMAT:
            raise IndexMissing("the search index was built by another version of crsearch; "
                               "run `crsearch index` to rebuild it")
    except IndexMissing:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged file
        raise IndexMissing(f"the search index in {path} cannot be read ({e.__class__.__name__}); "
                           "run `crsearch index` to rebuild it") from None
    if not (path / f"_{INDEX_NAME}_0.toc").exists() and not any(path.glob(f"_{INDEX_NAME}_*.toc")):
        raise IndexMissing(f"the search index in {path} is incomplete; "
                           "run `crsearch index` to rebuild it")
    return terms


class WhooshBackend:
    """The Whoosh index of one release behind the same small interface as
    ``fastindex.FastBackend``; it answers every query the fast files cannot.

    A Whoosh searcher is not safe from threads: each thread asks through a
    searcher of its own, opened on its first call.
    """

    name = "whoosh"

    def __init__(self, index_dir: Path, b: float, k1: float):
        load_whoosh()
        from whoosh import scoring

        self.ix, _ = open_index(Path(index_dir))
        self._weighting = scoring.BM25F(B=b, K1=k1)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._searchers: list[Any] = []
        self._docnum: dict[str, int] = {}
        self._all_read = False
        self.searcher  # noqa: B018 - open one now: a damaged index is reported here

    @property
    def searcher(self) -> Any:
        """This thread's searcher."""
        got = getattr(self._local, "searcher", None)
        if got is None:
            with self._lock:
                got = self._local.searcher = self.ix.searcher(weighting=self._weighting)
                self._searchers.append(got)
        return got

    def stored(self, id: str) -> dict[str, Any] | None:
        searcher = self.searcher
        if not self._all_read:
            # Ids are stored, not indexed: every document's number, read once.
            with self._lock:
                self._docnum.update((fields["id"], n)
                                    for n, fields in searcher.reader().iter_docs())
                self._all_read = True
        n = self._docnum.get(id)
        return None if n is None else searcher.stored_fields(n)

    def doc_frequency(self, stem: str) -> int:
        return self.searcher.doc_frequency("text", stem)

    def doc_count(self) -> int:
        return self.searcher.doc_count_all()

    def candidates(self, pick: list[str], fields: dict[str, float], required: list[list[str]],
                   filters: dict[str, str], limit: int) -> list[tuple[dict[str, Any], float]]:
        """The top BM25F candidates of one flat Or of field terms, with every
        stem of each ``required`` group present and the ``filters`` applied."""
        from whoosh import query as wq

        # One flat Or: nested groups and Whoosh's "scale" (coordination)
        # make it walk every posting in Python, 10x slower.
        wquery = wq.Or([wq.Term(f, s, boost=b) for s in pick for f, b in fields.items()])
        need = [wq.And([wq.Or([wq.Term(f, s) for f in ("name", "text")]) for s in ps])
                for ps in required if ps]
        if need:
            wquery = wq.And([wquery, *need])
        flt = wq.And([wq.Term(k, v) for k, v in filters.items()]) if filters else None
        out = []
        for h in self.searcher.search(wquery, limit=limit, filter=flt):
            doc = h.fields()
            self._docnum.setdefault(doc["id"], h.docnum)
            out.append((doc, h.score))
        return out

    def close(self) -> None:
        with self._lock:
            for searcher in self._searchers:
                searcher.close()
            self._searchers.clear()
            self._local = threading.local()
