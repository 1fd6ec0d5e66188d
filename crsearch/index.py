"""The Whoosh search index of one release: schema, building and opening.

One index per stored release lives in ``<release>/index/``.  Next to the
Whoosh files, ``terms.json`` holds what the query side needs before it
searches: titles of keywords, chapters and sections, glossary names and the
rules their entries cite, every rule id, and the word list used to correct
typos.  Stored fields are kept lean (id, kind, display title, text, parent)
because stored fields are what makes an index slow to build and to open.

Whoosh is imported inside the functions here, and nothing imports this
module at load time: ``crsearch rule`` never pays for it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from crsearch import numbers
from crsearch.errors import StoreError
from crsearch.model import Chapter, Release, Rule, Section
from crsearch.text import FOLD, STOP_WORDS, fold, norm_title, words  # noqa: F401 (re-exported)

TERMS = "terms.json"
#: Field weights of the BM25F query (tuned on bench/queries.json); the fast
#: path's precomputed postings are summed with these boosts.
FIELD_BOOSTS = {"name": 4.0, "text": 1.0, "context": 0.6, "examples": 0.3}
#: BM25F parameters.
BM25_B, BM25_K1 = 0.75, 1.2
#: Share of documents above which a word is too common to retrieve with.
COMMON = 0.15
INDEX_NAME = "crsearch"
#: Bump when the schema or terms.json change; old indexes are then rebuilt.
INDEX_FORMAT = 2

def load_whoosh() -> None:
    """Import Whoosh without the 60 ms it spends on ``urllib.request``.

    ``whoosh.compat`` runs ``from urllib.request import urlretrieve`` at import
    time, which pulls in http.client, email and ssl, for a helper crsearch
    never calls.  While Whoosh is first imported a stand-in module provides
    ``urlretrieve`` (which imports the real one if it is ever called); the
    stand-in is removed at once, so later imports get the real module.
    """
    import sys

    if "whoosh.compat" in sys.modules or "urllib.request" in sys.modules:
        return
    import types

    def urlretrieve(*args, **kwargs):  # pragma: no cover - Whoosh never calls it for us
        import importlib

        return importlib.import_module("urllib.request").urlretrieve(*args, **kwargs)

    stand_in = types.ModuleType("urllib.request")
    stand_in.urlretrieve = urlretrieve  # type: ignore[attr-defined]
    sys.modules["urllib.request"] = stand_in
    try:
        import whoosh.compat  # noqa: F401
    finally:
        if sys.modules.get("urllib.request") is stand_in:
            del sys.modules["urllib.request"]


def analyzer():
    """Tokenizer + case/quote folding + stop words + Porter stemming."""
    load_whoosh()
    from whoosh.analysis import (
        CharsetFilter,
        LowercaseFilter,
        RegexTokenizer,
        StemFilter,
        StopFilter,
    )

    # A plain dict (not a local class) so that the schema can be pickled.
    return (RegexTokenizer(r"[^\W_]+(?:['\u2018\u2019][^\W_]+)*") | LowercaseFilter()
            | CharsetFilter(dict(FOLD))
            | StopFilter(stoplist=STOP_WORDS, minsize=1) | StemFilter(cachesize=100000))


def schema():
    from whoosh.fields import ID, STORED, TEXT, Schema

    ana = analyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        section=ID,
        chapter=ID,
        # The keyword, glossary term (and aliases), chapter or section title.
        name=TEXT(analyzer=ana, phrase=False),
        text=TEXT(analyzer=ana, phrase=False, stored=True),
        examples=TEXT(analyzer=ana, phrase=False),
        # Titles above the item: chapter title, parent rule's keyword.
        context=TEXT(analyzer=ana, phrase=False),
        title=STORED,
        parent=STORED,
    )


# -- documents ---------------------------------------------------------------

def _rule_title(rule: Rule, rules: dict[str, Rule], chapters: dict[str, Chapter]) -> str:
    """The heading shown for a rule: its keyword, else its chapter's title."""
    if rule.title:
        return rule.title
    up = numbers.parent(rule.id)
    if rule.kind == "subrule" and up in rules and rules[up].title:
        return rules[up].title or ""
    c = chapters.get(rule.chapter)
    return c.title if c else ""


def _short(text: str, width: int = 70) -> str:
    first = text.split("\n", 1)[0]
    return first if len(first) <= width else first[: width - 1].rstrip() + "…"


def documents(release: Release) -> list[dict[str, Any]]:
    """One Whoosh document per section, chapter, rule and glossary entry."""
    sections = {s.id: s for s in release.sections}
    chapters = {c.id: c for c in release.chapters}
    rules = {r.id: r for r in release.rules}
    docs: list[dict[str, Any]] = []
    for item in release.items():
        if isinstance(item, Section):
            docs.append({"id": item.id, "kind": "section", "section": item.id,
                         "name": item.title, "text": "", "title": item.title,
                         "parent": ""})
        elif isinstance(item, Chapter):
            s = sections.get(item.section)
            docs.append({"id": item.id, "kind": "chapter", "section": item.section,
                         "chapter": item.id, "name": item.title, "text": "",
                         "context": s.title if s else "", "title": item.title,
                         "parent": f"{item.section}. {s.title}" if s else item.section})
        elif isinstance(item, Rule):
            up = numbers.parent(item.id) or ""
            c = chapters.get(item.chapter)
            context = [c.title] if c else []
            if item.kind == "subrule" and up in rules:
                pr = rules[up]
                context.append(pr.title or "")
                parent = f"{up}. {pr.title or _short(pr.text)}"
            else:
                parent = f"{up}. {c.title}" if c else up
            doc = {"id": item.id, "kind": item.kind, "section": item.section,
                   "chapter": item.chapter, "text": item.text,
                   "context": " ".join(context),
                   "title": _rule_title(item, rules, chapters), "parent": parent}
            if item.title:
                doc["name"] = item.title
            if item.examples:
                doc["examples"] = "\n".join(item.examples)
            docs.append(doc)
    for g in release.glossary:
        names = [g.term, *[a for a in g.aliases if a != g.term]]
        text = g.text + ("\n" + "\n".join("Example: " + e for e in g.examples)
                         if g.examples and not any(e in g.text for e in g.examples) else "")
        docs.append({"id": g.id, "kind": "glossary", "name": " ".join(names),
                     "text": text, "title": g.heading, "parent": ""})
    # release.items() yields glossary entries too; keep the first of each id.
    seen: set[str] = set()
    out = []
    for d in docs:
        if d["id"] not in seen:
            seen.add(d["id"])
            out.append(d)
    return out


def terms_of(release: Release) -> dict[str, Any]:
    """What the query side needs without opening the Whoosh index."""
    keywords: dict[str, str] = {}
    for r in release.rules:
        if r.title and r.kind == "rule":
            keywords.setdefault(norm_title(r.title), r.id)
    for r in release.rules:
        # "Daybound and Nightbound": either name finds the rule.
        if r.title and r.kind == "rule" and " and " in r.title:
            for part in r.title.split(" and "):
                keywords.setdefault(norm_title(part), r.id)
    glossary = []
    for g in release.glossary:
        names = sorted({norm_title(n) for n in [g.term, *g.aliases]} - {""})
        targets = [t for ref in g.references for t in ref.targets]
        see = norm_title(g.see) if g.see and not targets else None
        glossary.append({"id": g.id, "names": names, "targets": targets,
                         "see": see, "obsolete": g.obsolete})
    vocab: Counter[str] = Counter()
    for item in release.items():
        for attr in ("title", "text", "term"):
            value = getattr(item, attr, None)
            if value:
                vocab.update(w for w in words(value) if w.isalpha())
        for ex in getattr(item, "examples", ()):
            vocab.update(w for w in words(ex) if w.isalpha())
    return {
        "format": INDEX_FORMAT,
        "effective_date": release.effective_date,
        "ids": [i for i in (*(s.id for s in release.sections),
                            *(c.id for c in release.chapters),
                            *(r.id for r in release.rules))],
        "keywords": keywords,
        "chapters": {norm_title(c.title): c.id for c in release.chapters},
        "sections": {norm_title(s.title): s.id for s in release.sections},
        "glossary": glossary,
        "vocab": dict(sorted(vocab.items())),
    }


# -- building ----------------------------------------------------------------

def ids_and_frequencies(searcher: Any) -> tuple[list[str], dict[str, int]]:
    """Of a Whoosh searcher: each document number's rule id, and each stem's
    document frequency in the text field (what BM25 scores are made of)."""
    reader = searcher.reader()
    docids = [""] * searcher.doc_count_all()
    for docnum, fields in reader.iter_docs():
        docids[docnum] = fields["id"]
    df = {t.decode("utf-8"): reader.doc_frequency("text", t) for t in reader.lexicon("text")}
    return docids, df


def build_index(release: Release, path: Path) -> str | None:
    """Build the search index of ``release`` in the folder ``path``, with
    the embeddings of its documents (see ``embed``).  Returns None, or a
    one-line warning when the embeddings could not be built.

    ``path`` must not exist or be empty; the caller (``store.save`` or
    ``store.replace_index``) makes the result visible atomically.
    """
    load_whoosh()
    from whoosh import index as windex

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    ix = windex.create_in(str(path), schema(), indexname=INDEX_NAME)
    # One writer, one segment, a big buffer: ~4,000 short documents fit in
    # memory, so this avoids merges and sub-processes entirely.
    writer = ix.writer(limitmb=256, procs=1, multisegment=False)
    docs = documents(release)
    try:
        for doc in docs:
            writer.add_document(**{k: v for k, v in doc.items() if v != "" or k in ("title", "parent")})
        writer.commit(optimize=False)
    except BaseException:
        writer.cancel()
        raise
    terms = terms_of(release)
    with open(path / TERMS, "w", encoding="utf-8") as f:
        json.dump(terms, f, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    from crsearch import asked, embed, fastindex
    from crsearch.search import Engine
    from crsearch.vocab import slang_words

    fastindex.write(ix, docs, terms, path)
    # Meanings for questions; without them (no model) search stays lexical.
    # The questions asked before are read by this very index, as a search
    # will read a new question, so that their vectors compare.
    return embed.build(docs, slang_words(), path,
                       asked.for_release(asked.load(), asked.doc_texts(docs)),
                       Engine(path, semantic=False).meaning_words)


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
        from crsearch.store import read_json

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
    ``fastindex.FastBackend``; it answers every query the fast files cannot."""

    name = "whoosh"

    def __init__(self, index_dir: Path):
        load_whoosh()
        from whoosh import scoring

        self.ix, _ = open_index(Path(index_dir))
        self.searcher = self.ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1))
        self._docnum: dict[str, int] = {}

    def stored(self, id: str) -> dict[str, Any] | None:
        n = self._docnum.get(id)
        if n is None:
            n = self.searcher.document_number(id=id)
            if n is None:
                return None
            self._docnum[id] = n
        return self.searcher.stored_fields(n)

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
        self.searcher.close()
