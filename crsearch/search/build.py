"""Building the search index of one release: documents, ``terms.json``, the
Whoosh files, the fast files and the embeddings.

Called at import time (``ingest``) and by ``crsearch index``; the query side
(``engine``) never imports it, and it never imports the engine.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crsearch.rules import numbers
from crsearch.rules.model import Chapter, Release, Rule, Section
from crsearch.rules.text import norm_title
from crsearch.search.schema import (
    INDEX_FORMAT,
    INDEX_NAME,
    TERMS,
    load_whoosh,
    schema,
    text_words,
)

if TYPE_CHECKING:
    from crsearch.search.tables import Via
    from crsearch.store.repair import IndexHooks


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
                vocab.update(w for w in text_words(value) if w.isalpha())
        for ex in getattr(item, "examples", ()):
            vocab.update(w for w in text_words(ex) if w.isalpha())
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

def build_index(release: Release, path: Path, via: Via | None = None,
                embeddings: bool = True) -> str | None:
    """Build the search index of ``release`` in the folder ``path``, with
    the embeddings of its documents unless ``embeddings`` is false (they are
    then built on first use: ``build_embeddings``).  Returns None, or a
    one-line warning when the embeddings could not be built.

    ``path`` must not exist or be empty; the caller (``store.save`` or
    ``store.replace_index``) makes the result visible atomically.  ``via``
    carries the shipped tables into a release the shipped map does not know
    (``tables.Via``: the data folder's lineage).
    """
    load_whoosh()
    from whoosh import index as windex

    from crsearch.search import fastindex
    from crsearch.search.schema import FIELD_BOOSTS, new_build
    from crsearch.search.whooshparts import Codec, Feed

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    new_build()
    fields = schema()
    ix = windex.create_in(str(path), fields, indexname=INDEX_NAME)
    # One writer, one segment, a big buffer: ~4,000 short documents fit in
    # memory, so this avoids merges and sub-processes entirely.
    writer = ix.writer(limitmb=256, procs=1, multisegment=False, codec=Codec())
    docs = documents(release)
    try:
        feed = Feed(writer)
        for doc in docs:
            feed.add(whoosh_fields(doc))
        writer.commit(optimize=False)
    except BaseException:
        writer.cancel()
        raise
    # The postings gathered for Whoosh are the fast files' too.
    postings = fastindex.FieldPostings.gathered(list(FIELD_BOOSTS), len(docs), feed.terms,
                                                feed.lengths)
    terms = terms_of(release)
    from crsearch.store.datadir import packed_json

    with open(path / TERMS, "wb") as f:
        f.write(packed_json(terms))  # 163 kB of JSON, 45 kB packed (2026-08-07)
    from crsearch.search import tables
    from crsearch.search.asked import doc_texts

    # The shipped tables' rule ids, carried into this release (tables.py).
    carry = tables.Carry(release.effective_date, doc_texts(docs), via)
    fastindex.write(postings, docs, terms, path, carry)
    if not embeddings:
        return None
    return _embed(docs, terms, path, carry)


def forget() -> None:
    """Forget what builds keep for the next one (texts' analyses and words,
    words' stems, ready tables, packed chapters): the next build works from
    cold, as a single import does."""
    from crsearch.search import fastindex
    from crsearch.search.schema import forget_analyses
    from crsearch.store.datadir import forget_packs

    forget_analyses()
    fastindex.forget()
    forget_packs()


def whoosh_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """What Whoosh keeps of a document: its indexed fields, and only its id
    and kind stored (the texts come from the fast files and the release)."""
    return {k: v for k, v in doc.items() if v != "" and k not in ("title", "parent")}


def build_embeddings(release: Release, path: Path, via: Via | None = None) -> str | None:
    """Add the embeddings to the finished index of ``release`` in ``path``
    (one built with ``embeddings=False``).  Returns None, or a one-line
    warning when they could not be built.

    Each file is renamed into place, the data before its description: an
    interrupted build leaves no embeddings (and no part of them) that a
    search would read, and searches running meanwhile go on without them.
    """
    from crsearch.search import tables
    from crsearch.search.asked import doc_texts

    docs = documents(release)
    carry = tables.Carry(release.effective_date, doc_texts(docs), via)
    return _embed(docs, terms_of(release), Path(path), carry)


def _embed(docs: list[dict[str, Any]], terms: dict[str, Any], path: Path, carry: Any) -> str | None:
    from crsearch.search import semantic, tables
    from crsearch.search.query import Reader
    from crsearch.search.vocab import slang_words

    # Meanings for questions; without them (no model) search stays lexical.
    # The questions asked before are read by this very index, as a search
    # will read a new question, so that their vectors compare.
    return semantic.build(docs, slang_words(), path, tables.asked(carry),
                          Reader(terms).meaning_words, text_words)


def repair_hooks() -> IndexHooks:
    """What ``Store.repair`` needs to check and rebuild search indexes."""
    from crsearch.search.backends import open_terms
    from crsearch.store.repair import IndexHooks

    def readable(path: Path) -> bool:
        try:
            open_terms(path)
        except Exception:  # noqa: BLE001 - damaged, whatever the kind
            return False
        return True

    return IndexHooks(readable=readable, build=build_index)
