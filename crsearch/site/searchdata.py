"""The site's search data: the CLI's index, exported for the browser.

``crsearch search`` ranks with Whoosh's BM25F over one document per section,
chapter, rule, subrule and glossary entry (``index.documents``), then puts
rule numbers, keyword and glossary titles first and re-ranks by coverage
(``search.Engine``).  The site's ``site.js`` runs the same ranking in the
browser, so this module writes what it needs, computed by the same Python:

- ``search/meta.<hash>.js`` (named by every page, on its ``site.js``
  script tag): the wording tables (``vocab.tables()``: jargon, synonyms,
  question and stop words, and ``text.FOLD``), the ranking constants of
  ``crsearch.search.engine``, keyword, chapter and glossary titles, every document
  id in index order, and the names of the document files;
- ``search/w-<prefix>.<hash>.js``: for the words starting with ``prefix``,
  their stem, how often the release uses them (typo correction) and their
  other wordings (``query.alternatives``); for the stems starting with
  ``prefix`` (and those of its words' other wordings, so that a question
  with synonyms needs no second round trip): their document frequency,
  every document with its BM25F
  score summed over the boosted fields as a typed query sums them (and,
  where different, over text and name as a pasted passage sums them), and
  which documents have the stem in their text or title (the re-ranking's
  coverage, known without loading the documents);
- ``search/keys.<hash>.js`` (named by every page too): the word files by
  prefix and the letter files below, with the stop and question words,
  folding and jargon that pick a query's files; ``search.html`` asks for
  them before site.js has arrived;
- ``search/v-<letter>.<hash>.js``: the words starting with a letter and
  their counts, loaded only to correct a typo;
- ``search/d<n>.<hash>.js``: the stored fields (id, kind, title, text,
  parent, URL) of a run of about a dozen documents, and for 701 and 702 the
  stems of their words (keyword interactions compare them).

Every file is a ``<script>`` that stores its data in
``window.CRSEARCH_DATA[name]``: that works over ``file://`` as well as HTTP,
and lets the browser cache the hashed files for good.  A query loads the
metadata, the few word files of its words, and the document runs of the
candidates that can still reach the first places: a few tens of kilobytes.  Output is byte-identical
for the same release (sorted keys, no clock).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crsearch.rules.model import GLOSSARY_PREFIX, Release

if TYPE_CHECKING:
    from crsearch.search.topics import Topic

#: The folder of the search data inside the site.
FOLDER = "search"
META = "meta"
KEYS = "keys"
TOPICS = "topics"
CARDS = "cards"
#: Word files are split by prefix until each holds at most this many bytes.
SHARD_BYTES = 10_000
#: Document runs hold about this many bytes of JSON each.
BLOCK_BYTES = 3_500
#: Scores are stored as integers in thousandths.
SCALE = 1000


def _script(name: str, data: Any) -> bytes:
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # "</" could end an inline script; it never does harm to escape it.
    body = body.replace("</", "<\\/")
    return (f"(window.CRSEARCH_DATA=window.CRSEARCH_DATA||{{}})[{json.dumps(name)}]={body};\n"
            ).encode()


def _hashed(stem: str, name: str, data: Any) -> tuple[str, bytes]:
    """A file name with a content hash (so it can be cached for good), and its bytes."""
    raw = _script(name, data)
    digest = hashlib.sha256(raw).hexdigest()[:10]
    return f"{FOLDER}/{stem}.{digest}.js", raw


def _prefix_keys(sizes: dict[str, int], limit: int) -> dict[str, str]:
    """Map every word to a prefix key so that no key's words weigh more
    than ``limit`` bytes (a prefix is split one letter further if needed)."""
    out: dict[str, str] = {}

    def split(words: list[str], depth: int) -> None:
        groups: dict[str, list[str]] = {}
        for w in words:
            groups.setdefault(w[:depth], []).append(w)
        for key, members in groups.items():
            total = sum(sizes[w] for w in members)
            longer = [w for w in members if len(w) > depth]
            if total > limit and depth < 4 and longer:
                for w in members:
                    if len(w) <= depth:
                        out[w] = key
                split(longer, depth + 1)
            else:
                for w in members:
                    out[w] = key
    split(sorted(sizes), 1)
    return out


def shard_key(word: str, keys: set[str]) -> str:
    """The longest key of ``keys`` that starts ``word`` (what site.js does)."""
    for n in range(min(len(word), 4), 0, -1):
        if word[:n] in keys:
            return word[:n]
    return ""


Scores = dict[str, dict[int, float]]


def _postings(release: Release) -> tuple[list[str], dict[str, int], Scores, Scores,
                                         list[dict[str, Any]]]:
    """Whoosh's BM25F score of every stem in every document, summed over the
    boosted fields as ``search.Engine`` sums them for typed queries, and over
    text and name unboosted as it sums them for a pasted passage; and each
    stem's document frequency in the text field (what the CLI's idf uses)."""
    import tempfile

    from crsearch.search.build import documents
    from crsearch.search.fastindex import ids_and_frequencies
    from crsearch.search.schema import BM25_B, BM25_K1, FIELD_BOOSTS, INDEX_NAME, load_whoosh, schema

    load_whoosh()
    from whoosh import scoring

    docs = documents(release)
    # Whoosh stages postings on disk even for an index in RAM; by default in
    # a folder of a fixed name in the shared temp folder, which concurrent
    # builds (and other users' symlinks) share.  Ours is private to the build.
    with tempfile.TemporaryDirectory(prefix="crsearch-site-") as private:
        ix = _ram_storage(private).create_index(schema(), indexname=INDEX_NAME)
        writer = ix.writer(limitmb=256, procs=1, multisegment=False)
        for doc in docs:
            writer.add_document(**{k: v for k, v in doc.items()
                                   if v != "" or k in ("title", "parent")})
        writer.commit(optimize=False)
    with ix.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1)) as s:
        reader = s.reader()
        docids, df = ids_and_frequencies(s)
        scores: Scores = {}
        passage: Scores = {}
        for field, boost in FIELD_BOOSTS.items():
            for t in reader.lexicon(field):
                st = t.decode("utf-8")
                acc = scores.setdefault(st, {})
                pacc = passage.setdefault(st, {})
                m = s.postings(field, st)
                while m.is_active():
                    d = m.id()
                    acc[d] = acc.get(d, 0.0) + m.score() * boost
                    if field in ("text", "name"):
                        pacc[d] = pacc.get(d, 0.0) + m.score()
                    m.next()
    by_id = {d["id"]: d for d in docs}
    return docids, df, scores, passage, [by_id[i] for i in docids]


def _ram_storage(private: str) -> Any:
    """Whoosh's RAM storage, with its temporary files in new folders inside
    ``private`` (a folder only this build writes to)."""
    import tempfile

    from whoosh.filedb.filestore import FileStorage, RamStorage

    class PrivateRamStorage(RamStorage):
        def temp_storage(self, name: str | None = None) -> FileStorage:
            return FileStorage(tempfile.mkdtemp(prefix="postings-", dir=private))

    return PrivateRamStorage()


def build(release: Release, url_for: Callable[[str], str]) -> dict[str, bytes]:
    """Every file of the search data, by path inside the site."""
    from whoosh.lang.porter import stem

    from crsearch.rules.text import FOLD, STOP_WORDS, words
    from crsearch.search.build import terms_of
    from crsearch.search.config import DEFAULT as ranking
    from crsearch.search.index import is_title_text
    from crsearch.search.query import alternatives
    from crsearch.search.schema import COMMON, FIELD_BOOSTS
    from crsearch.search.vocab import QUESTION_WORDS, SYNONYMS, tables

    docids, df, scores, passage_scores, docs = _postings(release)
    terms = terms_of(release)
    vocab: dict[str, int] = terms["vocab"]
    files: dict[str, bytes] = {}

    # Document runs, with the stems of their words (the re-ranking needs them).
    stems: dict[str, str] = {}

    def stem_of(w: str) -> str:
        s = stems.get(w)
        if s is None:
            s = stems[w] = stem(w)
        return s

    blocks: list[list[Any]] = []
    block_files: list[str] = []
    rows: list[list[Any]] = []
    size = 0

    def flush() -> None:
        nonlocal rows, size
        if not rows:
            return
        local: dict[str, str] = {}
        block_df: dict[str, int] = {}
        # Only keyword interactions ("deathtouch trample") read the stems of
        # a document's words and their frequencies: 701 and 702 carry them.
        for r in (rows if any(r[0].startswith(("701.", "702.")) for r in rows) else ()):
            for w in words(r[3]) + words(r[2]):
                if w in STOP_WORDS:
                    continue
                s = stem_of(w)
                if s != w:
                    local[w] = s
                block_df[s] = df.get(s, 0)
        n = len(blocks)
        name, raw = _hashed(f"d{n}", f"d{n}", {"docs": rows, "stems": local, "df": block_df})
        files[name] = raw
        blocks.append([start_of[n], len(rows)])
        block_files.append(name.split(".")[1])  # the hash: site.js makes d<n>.<hash>.js
        rows, size = [], 0

    start_of: list[int] = []
    for num, d in enumerate(docs):
        if not rows:
            start_of.append(num)
        row = [d["id"], d["kind"], d.get("title", ""), d.get("text", ""), d.get("parent", ""),
               url_for(d["id"])]
        rows.append(row)
        size += sum(len(str(x)) for x in row) + 12
        if size >= BLOCK_BYTES:
            flush()
    flush()

    # Words and postings, split by prefix.
    all_words = set(vocab) | set(SYNONYMS)
    for d in docs:
        for f in ("text", "title", "name", "context", "examples"):
            all_words.update(w for w in words(d.get(f, "")) if w not in STOP_WORDS)
    all_words -= STOP_WORDS
    entries: dict[str, list[Any]] = {}
    for w in sorted(all_words):
        alts = [sorted({stem_of(x) for x in alt if x not in STOP_WORDS})
                for alt in alternatives(w, vocab)]
        entry: list[Any] = [vocab.get(w, 0), stem_of(w)]
        if alts:
            entry.append(alts)
        entries[w] = entry
    # Which documents have a stem among the words of their text and title:
    # the CLI's re-ranking counts coverage over exactly those words.
    has: dict[str, list[int]] = {}
    for num, d in enumerate(docs):
        for st in sorted({stem_of(w) for w in words(d.get("text", "")) + words(d.get("title", ""))
                          if w not in STOP_WORDS}):
            has.setdefault(st, []).append(num)
    postings: dict[str, list[Any]] = {}
    for st in sorted(set(scores) | set(has)):
        acc = scores.get(st, {})
        nums = sorted(acc)
        present = has.get(st, [])
        # A passage's scores (text and name, unboosted), where they differ:
        # pairs of (position in the list, score); 0 means "not for passages".
        pacc = passage_scores.get(st, {})
        differ: list[int] = []
        for i, doc in enumerate(nums):
            if round(pacc.get(doc, 0.0) * SCALE) != round(acc[doc] * SCALE):
                differ += [i, round(pacc.get(doc, 0.0) * SCALE)]
        postings[st] = [df.get(st, 0), _deltas(nums), [round(acc[d] * SCALE) for d in nums],
                        _deltas(present), differ]
    sizes: dict[str, int] = {}
    for w in entries:
        sizes[w] = sizes.get(w, 0) + len(w) + 16
    for st, p in postings.items():
        sizes[st] = sizes.get(st, 0) + len(st) + 8 + 6 * len(p[1]) + 3 * len(p[3]) + 4 * len(p[4])
    keys = _prefix_keys(sizes, SHARD_BYTES)
    shards: dict[str, dict[str, Any]] = {}
    for w, e in entries.items():
        shards.setdefault(keys[w], {"w": {}, "p": {}})["w"][w] = e
    for st, p in postings.items():
        shards.setdefault(keys[st], {"w": {}, "p": {}})["p"][st] = p
    # A word's other wordings ("dies": "put into a graveyard from the
    # battlefield", "creature": "noncreature") travel with the word: on a
    # phone, a second round trip for their files costs more than their bytes.
    for w, e in entries.items():
        for alt in e[2] if len(e) > 2 else ():
            for st in alt:
                if st in postings and keys[st] != keys[w]:
                    shards[keys[w]]["p"][st] = postings[st]
    shard_files: dict[str, str] = {}
    for key in sorted(shards):
        name, raw = _hashed(f"w-{_safe(key)}", f"w-{key}", shards[key])
        files[name] = raw
        shard_files[key] = name.split("/", 1)[1]
    # Typo correction reads the words of one first letter.
    letters: dict[str, list[list[Any]]] = {}
    for w, c in sorted(vocab.items()):
        letters.setdefault(w[:1], []).append([w, c])
    letter_files: dict[str, str] = {}
    for letter, rows_ in sorted(letters.items()):
        name, raw = _hashed(f"v-{_safe(letter)}", f"v-{letter}", rows_)
        files[name] = raw
        letter_files[letter] = name.split("/", 1)[1]

    # The judges' topics and the rules-famous cards (search.Engine._with_topics),
    # their rule ids carried into this release (search/tables.py), a file per
    # first letter: a query asks only for its words' letters.
    from crsearch.search import tables as shipped
    from crsearch.search.asked import doc_texts

    carry = shipped.Carry(release.effective_date, doc_texts(docs))
    topics_files: dict[str, str] = {}
    for letter, data in by_letter(topics_data(stem_of, set(docids), set(entries),
                                              shipped.topics(carry))).items():
        name, raw = _hashed(f"{TOPICS}-{_safe(letter)}", f"{TOPICS}-{letter}", data)
        files[name] = raw
        topics_files[letter] = name.split("/", 1)[1]
    cards_files: dict[str, str] = {}
    for letter, data in cards_by_letter(shipped.cards(carry)).items():
        name, raw = _hashed(f"{CARDS}-{_safe(letter)}", f"{CARDS}-{letter}", data)
        files[name] = raw
        cards_files[letter] = name.split("/", 1)[1]

    # What names a query's word files, apart from the metadata, so that the
    # search page can ask for them while site.js and the metadata load.
    name, raw = _hashed(KEYS, KEYS, {"shards": shard_files, "letters": letter_files,
                                     "stop_words": sorted(STOP_WORDS),
                                     "fold": {chr(k): v for k, v in sorted(FOLD.items())},
                                     "jargon": tables()["jargon"],
                                     "question_words": sorted(QUESTION_WORDS),
                                     "topics": topics_files, "cards": cards_files})
    files[name] = raw

    from crsearch.rules import numbers
    from crsearch.search import query as parsing
    from crsearch.search.vocab import SITUATION
    meta = {
        "format": 1,
        "date": release.effective_date,
        "tables": {**tables(), "fold": {chr(k): v for k, v in sorted(FOLD.items())}},
        "rank": {"candidates": ranking.candidates, "coverage": ranking.coverage,
                 "passage": ranking.passage, "adjacent": ranking.adjacent,
                 "named": ranking.named, "parent": ranking.parent,
                 "parent_max": ranking.parent_max, "glossary_multi": ranking.glossary_multi,
                 "passage_terms": ranking.passage_terms, "common": COMMON,
                 "snippet_words": ranking.snippet_words, "scale": SCALE,
                 "boosts": FIELD_BOOSTS,
                 "question_candidates": ranking.question_candidates,
                 "semantic_min_terms": ranking.semantic_min_terms,
                 "max_terms": parsing.MAX_TERMS,
                 "topic": ranking.topic, "topic_step": ranking.topic_step,
                 "card": ranking.card, "again": ranking.again},
        "topics": topics_files,  # letter -> file in search/ (topics-<letter>.<hash>.js)
        "cards": cards_files,  # letter -> file in search/ (cards-<letter>.<hash>.js)
        # Questions in a player's words (query.is_question, card_names): the
        # parser's word lists, the situation words' stems (as the CLI stems
        # them), and the rules that are only a title (their subrules first).
        "question": {**parsing.tables(),
                     "situation_stems": sorted({stem_of(w) for w in SITUATION})},
        "title_rules": [d["id"] for d in docs if not d["id"].startswith(GLOSSARY_PREFIX)
                        and numbers.kind(d["id"]) == "rule"
                        and is_title_text(d.get("text", ""), ranking.title_rule_words)],
        "n": len(docids),
        "ids": pack_ids(docids),
        "blocks": [[b[0], f] for b, f in zip(blocks, block_files)],
        "keywords": terms["keywords"],
        "chapters": terms["chapters"],
        # A term's names, or 0 when its one name is its heading's words (site.js
        # makes them: the same for ASCII in both languages).
        "glossary": [[g["id"][len(GLOSSARY_PREFIX):], glossary_names(g["id"], g["names"]),
                      g["targets"], g["see"]] for g in terms["glossary"]],
        # Question words are never searched for, but typo correction asks
        # whether the release uses them.
        "unknown_question_words": sorted(w for w in QUESTION_WORDS if w not in vocab),
    }
    name, raw = _hashed(META, META, meta)
    files[name] = raw
    return dict(sorted(files.items()))


def inflections(w: str) -> list[str]:
    """A word's usual English forms ("blink" -> "blinks", "blinked", "blinking"):
    the browser has no stemmer for the words the rules never use."""
    if not w.isalpha() or len(w) < 3 or w.endswith(("ed", "ing")) \
            or w.endswith("s") and not w.endswith("ss"):
        return []  # a form already
    out = []
    if w.endswith("y") and w[-2] not in "aeiou":
        out += [w[:-1] + "ies", w[:-1] + "ied", w + "ing"]
    elif w.endswith("e"):
        out += [w + "s", w + "d", w[:-1] + "ing"]
    else:
        out += [w + ("es" if w.endswith(("s", "x", "z", "ch", "sh")) else "s"), w + "ed", w + "ing"]
        if w[-1] not in "aeiouwxy" and w[-2] in "aeiou":
            out += [w + w[-1] + "ed", w + w[-1] + "ing"]  # "stop" -> "stopped"
    return out


def topics_data(stem: Callable[[str], str], ids: set[str], known: set[str],
                topics: tuple[Topic, ...] | None = None) -> dict[str, Any]:
    """The topics (their cues' stems grouped by the rules they name), the
    stems of the cue words' likely forms that are not among the ``known``
    words (whose files give their stems).  ``topics``: the topics carried
    into the release (``tables.topics``), else the table as it is."""
    from crsearch.search.topics import Cues, cue_words

    groups: dict[tuple[str, ...], list[str]] = {}
    for stems, _, topic in Cues(stem, ids.__contains__, topics).cues:
        groups.setdefault(topic.rules, []).append(" ".join(sorted(stems)))
    cue_stems = {s for cues in groups.values() for c in cues for s in c.split()}
    forms: dict[str, str] = {}
    for w in sorted(cue_words()):
        for f in [w, *inflections(w)]:
            s = stem(f)
            if s in cue_stems and s != f and f not in known:
                forms[f] = s
    return {"topics": [[cues, list(rules)] for rules, cues in groups.items()],
            "forms": forms}


def by_letter(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``topics_data`` split by first letter: a cue goes with the first letter
    of its smallest stem (a question that matches it has a word starting so:
    stemming keeps a word's first letter), a word form with its own."""
    out: dict[str, dict[str, Any]] = {}

    def part(letter: str) -> dict[str, Any]:
        return out.setdefault(letter, {"topics": [], "forms": {}})

    for cues, rules in data["topics"]:
        groups: dict[str, list[str]] = {}
        for cue in cues:
            groups.setdefault(min(cue.split())[:1], []).append(cue)
        for letter, some in groups.items():
            part(letter)["topics"].append([some, rules])
    for form, stem in data["forms"].items():
        part(form[:1])["forms"][form] = stem
    return dict(sorted(out.items()))


def cards_by_letter(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``cards.table_by_letter``, each part with the longest name overall."""
    from crsearch.search.cardtopics import table_by_letter

    return {k: {**v, "longest": table["longest"]} for k, v in table_by_letter(table).items()}


def meta_name(files: dict[str, bytes]) -> str:
    """The path of the metadata file among ``build``'s files (pages name it)."""
    return next(n for n in files if n.startswith(f"{FOLDER}/{META}."))


def keys_name(files: dict[str, bytes]) -> str:
    """The path of the word-file names among ``build``'s files (pages name it)."""
    return next(n for n in files if n.startswith(f"{FOLDER}/{KEYS}."))


def glossary_names(id: str, names: list[str]) -> list[str] | int:
    """A glossary entry's names for the metadata: 0 when they are just the
    words of its id, which site.js recomputes (``normTitle``)."""
    from crsearch.rules.text import norm_title

    term = id[len(GLOSSARY_PREFIX):]
    return 0 if term.isascii() and names == [norm_title(term)] else names


def _deltas(nums: list[int]) -> list[int]:
    return [b - a for a, b in zip([0, *nums], nums)]


def pack_ids(ids: list[str]) -> list[str]:
    """Ids in index order, shorter: "702.19c" after "702" is ".19c", a
    glossary id loses its prefix to ":" (site.js ``unpackIds`` undoes it)."""
    out = []
    chapter = ""
    for i in ids:
        if i.startswith(GLOSSARY_PREFIX):
            out.append(":" + i[len(GLOSSARY_PREFIX):])
        elif "." in i and i.split(".", 1)[0] == chapter:
            out.append(i[len(chapter):])
        else:
            chapter = i.split(".", 1)[0]
            out.append(i)
    return out


def _safe(key: str) -> str:
    """A prefix as a file name: letters and digits as they are, others as hex."""
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}" for c in key)
