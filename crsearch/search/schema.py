"""The search index's fixed parts: file names, the ranking knobs the build
bakes in, the analyzer and the Whoosh schema.

A leaf: the build, the backends, the engine and the site's search data all
read these, and it imports nothing of theirs but the ranking's config.
Whoosh is imported inside the functions, so reading a constant never loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crsearch.rules.text import FOLD, STOP_WORDS
from crsearch.search.config import DEFAULT

TERMS = "terms.json"
#: The Whoosh-free files written beside the index (see ``fastindex``).
FAST = "fast.json"
FAST_POSTINGS = "fast-postings.z"
FAST_DOCS = "fast-docs.z"
#: The ready copies of the shipped tables: file name, and the data files each is made of
#: (the table, and the map that carries its rule ids into each release).
FAST_TABLES = {"topics": ("fast-topics.z", ("topics.txt", "renumbering.txt")),
               "cards": ("fast-cards.z", ("cards.txt", "renumbering.txt"))}
#: What an index is built with, read from the shipped ranking (``config.DEFAULT``):
#: the scored fields and their weights (the fast files keep one score per field,
#: in this order), the BM25F parameters of those scores, and the share of
#: documents above which a word is too common to keep postings for.
FIELD_BOOSTS = DEFAULT.field_boosts
BM25_B, BM25_K1 = DEFAULT.bm25_b, DEFAULT.bm25_k1
COMMON = DEFAULT.common
INDEX_NAME = "crsearch"
#: Bump when the schema or terms.json change; old indexes are then rebuilt.
#: 3: Whoosh stores ids and kinds only, the fast files read rules' texts from
#: the release's chapter files.  4: ids stored, not indexed; our text field and
#: codec (``whooshparts``): short postings lists inline, no zlib that grows a block.
#: 5: each rule's citations ready in ``fast-docs.z`` (no question parses them).
INDEX_FORMAT = 5

#: How the note that a search built its index's embeddings begins (the CLI
#: says it on stderr).
EMBEDDINGS_BUILT = "built the embeddings of the"


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


#: A token of the index: letters and digits, with inner apostrophes.
TOKEN = r"[^\W_]+(?:['\u2018\u2019][^\W_]+)*"


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
    # ``whooshparts.analyse`` does the same in one function: change both.
    return (RegexTokenizer(TOKEN) | LowercaseFilter()
            | CharsetFilter(dict(FOLD))
            | StopFilter(stoplist=STOP_WORDS, minsize=1) | StemFilter(cachesize=100000))


#: Each text's analysis (``whooshparts.Text``) by text: the texts met in
#: this build, and those of the build before (releases imported one after
#: another share most of their rules, word for word).
_analysed: dict[str, Any] = {}
_analysed_before: dict[str, Any] = {}


#: Each text's ``words`` by text, kept as the analyses are.
_words: dict[str, list[str]] = {}
_words_before: dict[str, list[str]] = {}


def new_build() -> None:
    """Start an index build: keep the analyses of the last build only (a
    batch import holds two releases' texts, not the archive's)."""
    global _analysed, _analysed_before, _words, _words_before
    _analysed_before, _analysed = _analysed, {}
    _words_before, _words = _words, {}


#: Each word's Porter stem, kept by the builds of this process (the index's
#: analysis and the fast files' word table).
stems: dict[str, str] = {}


def forget_analyses() -> None:
    """Drop every kept analysis and stem (a benchmark times a build from cold)."""
    global _analysed, _analysed_before, _words, _words_before
    _analysed, _analysed_before = {}, {}
    _words, _words_before = {}, {}
    stems.clear()


def analysed(text: str, analyse: Callable[[], Any]) -> Any:
    """The analysis of ``text``: kept from this build or the last, else ``analyse()``."""
    got = _analysed.get(text)
    if got is None:
        got = _analysed_before.get(text)
        if got is None:
            got = analyse()
        _analysed[text] = got
    return got


def text_words(text: str) -> list[str]:
    """``rules.text.words(text)``, kept from this build or the last (the
    build's terms, fast files and embeddings each read every text's words).
    The list is shared: never change it."""
    got = _words.get(text)
    if got is None:
        got = _words_before.get(text)
        if got is None:
            from crsearch.rules.text import words

            got = words(text)
        _words[text] = got
    return got


def schema():
    ana = analyzer()
    from whoosh.fields import ID, STORED, Schema

    from crsearch.search.whooshparts import Text

    return Schema(
        # Stored, not indexed: nothing searches by id (``WhooshBackend``
        # finds a document's number from the stored ids).
        id=STORED,
        kind=ID(stored=True),
        section=ID,
        chapter=ID,
        # The keyword, glossary term (and aliases), chapter or section title.
        name=Text(analyzer=ana, phrase=False),
        # Indexed, not stored: the texts are the release's (``fastindex``).
        text=Text(analyzer=ana, phrase=False),
        examples=Text(analyzer=ana, phrase=False),
        # Titles above the item: chapter title, parent rule's keyword.
        context=Text(analyzer=ana, phrase=False),
    )
