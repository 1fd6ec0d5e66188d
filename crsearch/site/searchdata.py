"""The site's search data: the CLI's index, exported for the browser.

``crsearch search`` ranks with Whoosh's BM25F over one document per section,
chapter, rule, subrule and glossary entry (``build.documents``), then puts
rule numbers, keyword and glossary titles first and re-ranks by coverage
(``engine.Engine``).  The site's ranking module, ``templates/js/rank.js``,
runs the same ranking in the browser (and under node: ``tools/site_parity.py``
checks that it ranks every bench query as the CLI does).  It never stems,
folds or weighs on its own: this module writes everything it reads,
computed by the same Python:

- ``search/meta.<hash>.js`` (named by every page, on its ``site.js``
  script tag): ``RankingConfig`` as it is (every weight), the wording tables
  and the question reader's word lists (``vocab.tables()``,
  ``query.tables()``), the question words' entries, the situation words'
  stems, keyword, chapter and glossary titles, every document id in index
  order (the glossary's are its titles), and the names of the document,
  topic and card files;
- ``search/keys.<hash>.js`` (named by every page too): the word files by
  prefix and the letter files below, with what picks a query's files: the
  folding table (``fold_table``: ``text.fold`` beyond lowercasing), stop and
  question words, jargon, slang; ``search.html`` asks for a linked query's files
  before the rest has loaded;
- ``search/w-<prefix>.<hash>.js``: for the words starting with ``prefix``
  (every word of the documents and of the wording tables and topics), their
  stem, how often the release uses them (typo correction) and their other
  wordings (``query.alternatives``); the stems of other forms of those
  words a player may type (``word_forms``: "animating", "lifelinking"); for
  the stems starting with ``prefix`` (and those of its words' other
  wordings, so that a question with synonyms needs no second round trip):
  their document frequency, every document with its BM25F score summed
  over the boosted fields as a typed query sums them (and, where different,
  over the passage fields as a pasted passage sums them), and which documents
  have the stem in their text or title (the re-ranking's coverage, known
  without loading the documents);
- ``search/v-<letter>.<hash>.js``: the words starting with a letter and
  their counts, loaded only to correct a typo, and the known words it leaves
  alone; for an older release of a site of several, those are in
  ``search/k-<letter>.<hash>.js`` files that every older release shares
  (named in the keys file's ``kept``);
- ``search/topics-<letter>.<hash>.js`` and ``cards-<letter>.<hash>.js``: the
  judges' topics (their cues stemmed, in table order) and the rules-famous
  cards, by first letter;
- ``search/d.<hash>.js``: the stored fields (id, kind, title, text,
  parent, URL) of a run of about a dozen documents, and for 701 and 702 the
  stems of their words (keyword interactions compare them).  A run ends
  where its last document's id says (``_ends_run``), not at a count, and is
  named by its content alone: runs of documents that did not change are the
  same file in every release (an ``--all`` site stores them once);
- ``search/then.<hash>.js``, for an older release of a site of several: the
  rule numbers of the latest release that it lacks, each with the number its
  rule had then and its title (``changes.numbers_then``), loaded only when
  such a number is searched for.

Every file is a ``<script>`` that stores its data in
``window.CRSEARCH_DATA[name]``: that works over ``file://`` as well as HTTP,
and lets the browser cache the hashed files for good.  A query loads the
metadata, the few word files of its words, and the document runs of the
candidates that can still reach the first places: a few tens of kilobytes.
Output is byte-identical for the same release (sorted keys, no clock).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from crsearch.rules.model import GLOSSARY_PREFIX, Release
from crsearch.search.config import DEFAULT, RankingConfig

if TYPE_CHECKING:
    from crsearch.search.topics import Topic

#: The folder of the search data inside the site.
FOLDER = "search"
META = "meta"
KEYS = "keys"
TOPICS = "topics"
CARDS = "cards"
THEN = "then"
#: Word files are split by prefix until each holds at most this many bytes.
SHARD_BYTES = 10_000
#: Document runs hold about this many bytes of JSON each (half to twice).
BLOCK_BYTES = 3_500
#: Scores are stored as integers in thousandths.
SCALE = 1000
#: Bump when the data's shape changes (``rank.js`` checks it).
FORMAT = 6
#: Hex digits of a data file's content hash.  The keys file names some 1,000
#: files: each digit is half a byte a phone waits for before its first result.
#: 32 bits still tell a release's files apart (build checks that no two
#: differ under one name).
HASH_DIGITS = 8


def _script(name: str, data: Any) -> bytes:
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # "</" could end an inline script; it never does harm to escape it.
    body = body.replace("</", "<\\/")
    return (f"(window.CRSEARCH_DATA=window.CRSEARCH_DATA||{{}})[{json.dumps(name)}]={body};\n"
            ).encode()


def _hashed(stem: str, name: str, data: Any) -> tuple[str, bytes]:
    """A file name with a content hash (so it can be cached for good), and its bytes."""
    raw = _script(name, data)
    digest = hashlib.sha256(raw).hexdigest()[:HASH_DIGITS]
    return f"{FOLDER}/{stem}.{digest}.js", raw


def _addressed(stem: str, data: Any) -> tuple[str, bytes]:
    """A data file named by its content alone: its hash, and its bytes,
    which store the data under ``<stem>.<hash>``."""
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(body.encode()).hexdigest()[:HASH_DIGITS]
    return digest, _script(f"{stem}.{digest}", data)


def _ends_run(id: str, size: int) -> bool:
    """Whether a run of documents ends after ``id``, with ``size`` bytes in it.

    Where runs end depends on the ids, not on counting from the first
    document: a rule added or changed early in a release moves no later
    boundary, so the runs after it stay the same files."""
    import zlib

    if size >= 2 * BLOCK_BYTES:
        return True
    return size >= BLOCK_BYTES // 2 and zlib.crc32(id.encode()) % 6 == 0


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
    """The longest key of ``keys`` that starts ``word`` (what rank.js does)."""
    for n in range(min(len(word), 4), 0, -1):
        if word[:n] in keys:
            return word[:n]
    return ""


Scores = dict[str, dict[int, float]]


def _postings(release: Release, config: RankingConfig
              ) -> tuple[list[str], dict[str, int], Scores, Scores, list[dict[str, Any]]]:
    """Whoosh's BM25F score of every stem in every document, summed over the
    fields of ``config.field_boosts`` as the CLI sums them for typed queries,
    and over those of ``config.passage_fields`` as it sums them for a pasted
    passage; and each stem's document frequency in the text field (what the
    CLI's idf uses)."""
    import tempfile

    from crsearch.search.build import documents, whoosh_fields
    from crsearch.search.fastindex import ids_and_frequencies
    from crsearch.search.schema import INDEX_NAME, load_whoosh, schema

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
            writer.add_document(**whoosh_fields(doc))
        writer.commit(optimize=False)
    weighting = scoring.BM25F(B=config.bm25_b, K1=config.bm25_k1)
    with ix.searcher(weighting=weighting) as s:
        reader = s.reader()
        docids, df = ids_and_frequencies(s)
        scores: Scores = {}
        passage: Scores = {}
        fields = list(config.field_boosts) + [f for f in config.passage_fields
                                              if f not in config.field_boosts]
        for field in fields:
            boost = config.field_boosts.get(field)
            pboost = config.passage_fields.get(field)
            # Whoosh's scorer reads a document's field length at every
            # posting; read once per document, with the same formula
            # (scoring.bm25) the scores are the same floats, in a third of
            # the time.
            lengths = [reader.doc_field_length(d, field, 1)
                       for d in range(reader.doc_count_all())]
            # What BM25FScorer reads, read here once a field (one segment).
            plain = s.is_atomic() and s.schema[field].scorable and not weighting._field_B
            avgfl, b, k1 = s.avg_field_length(field) or 1, weighting.B, weighting.K1
            for t in reader.lexicon(field):
                st = t.decode("utf-8")
                acc = scores.setdefault(st, {})
                pacc = passage.setdefault(st, {})
                if not plain:
                    m = s.postings(field, st)
                    while m.is_active():
                        _add(acc, pacc, m.id(), m.score(), boost, pboost)
                        m.next()
                    continue
                idf = s.idf(field, st)
                m = reader.postings(field, st)
                while m.is_active():
                    d = m.id()
                    _add(acc, pacc, d, scoring.bm25(idf, m.weight(), lengths[d], avgfl, b, k1),
                         boost, pboost)
                    m.next()
    by_id = {d["id"]: d for d in docs}
    return docids, df, scores, passage, [by_id[i] for i in docids]


def _add(acc: dict[int, float], pacc: dict[int, float], d: int, score: float,
         boost: float | None, pboost: float | None) -> None:
    if boost is not None:
        acc[d] = acc.get(d, 0.0) + score * boost
    if pboost is not None:
        pacc[d] = pacc.get(d, 0.0) + score * pboost


def _ram_storage(private: str) -> Any:
    """Whoosh's RAM storage, with its temporary files in new folders inside
    ``private`` (a folder only this build writes to)."""
    import tempfile

    from whoosh.filedb.filestore import FileStorage, RamStorage

    class PrivateRamStorage(RamStorage):
        def temp_storage(self, name: str | None = None) -> FileStorage:
            return FileStorage(tempfile.mkdtemp(prefix="postings-", dir=private))

    return PrivateRamStorage()


def build(release: Release, url_for: Callable[[str], str],
          config: RankingConfig = DEFAULT, kept: KeptWords | None = None,
          then: dict[str, list[str]] | None = None,
          kept_all: set[str] | None = None) -> dict[str, bytes]:
    """Every file of the search data, by path inside the site.  ``kept``:
    the known words near the words of many releases (a site of every
    release builds it once), else worked out for this release; ``kept_all``
    instead: the known words near a word of any release, in files every
    older release of a site shares (``KeptWords.every``).  ``then``:
    for an older release of a site of several, where each rule number of the
    latest that it lacks was then (``changes.numbers_then``), read only when
    such a number is searched for."""
    from whoosh.lang.porter import stem

    from crsearch.rules import numbers
    from crsearch.rules.text import STOP_WORDS, words
    from crsearch.search import query as parsing
    from crsearch.search.build import terms_of
    from crsearch.search.index import is_title_text
    from crsearch.search.query import alternatives
    from crsearch.search.vocab import QUESTION_WORDS, SITUATION, tables

    docids, df, scores, passage_scores, docs = _postings(release, config)
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
        digest, raw = _addressed("d", {"docs": rows, "stems": local, "df": block_df})
        if files.setdefault(f"{FOLDER}/d.{digest}.js", raw) != raw:
            raise ValueError(f"two search blocks of different content are both named d.{digest}")
        blocks.append([start_of[n], len(rows)])
        block_files.append(digest)  # rank.js makes d.<hash>.js
        rows, size = [], 0

    start_of: list[int] = []
    for num, d in enumerate(docs):
        if not rows:
            start_of.append(num)
        row = [d["id"], d["kind"], d.get("title", ""), d.get("text", ""), d.get("parent", ""),
               url_for(d["id"])]
        rows.append(row)
        size += sum(len(str(x)) for x in row) + 12
        if _ends_run(d["id"], size):
            flush()
    flush()

    # Words and postings, split by prefix: every word of the documents and
    # of the tables a query is read with, and the other forms of those words
    # whose stems matter (``word_forms``): the browser never stems.
    all_words = set(vocab) | table_words()
    for d in docs:
        for f in ("text", "title", "name", "context", "examples"):
            all_words.update(words(d.get(f, "")))
    all_words -= STOP_WORDS | QUESTION_WORDS

    def entry_of(w: str) -> list[Any]:
        alts = [sorted({stem_of(x) for x in alt if x not in STOP_WORDS})
                for alt in alternatives(w, vocab)]
        # 0 for a word that is its own stem.
        entry: list[Any] = [vocab.get(w, 0), 0 if stem_of(w) == w else stem_of(w)]
        if alts:
            entry.append(alts)
        return entry

    entries = {w: entry_of(w) for w in sorted(all_words)}
    forms = word_forms(all_words | QUESTION_WORDS, stem_of)
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
        # A passage's scores (``passage_fields``), where they differ:
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
    for f in forms:
        sizes[f] = sizes.get(f, 0) + len(f) + 2
    for st, p in postings.items():
        sizes[st] = sizes.get(st, 0) + len(st) + 8 + 6 * len(p[1]) + 3 * len(p[3]) + 4 * len(p[4])
    keys = _prefix_keys(sizes, SHARD_BYTES)
    shards: dict[str, dict[str, Any]] = {}

    def shard(key: str) -> dict[str, Any]:
        return shards.setdefault(key, {"w": {}, "p": {}, "f": {}})

    for w, e in entries.items():
        shard(keys[w])["w"][w] = e
    for st, p in postings.items():
        shard(keys[st])["p"][st] = p
    # Forms grouped by stem ("kill": "kills killer"), in the file of the form.
    for f, st in sorted(forms.items()):
        got = shard(keys[f])["f"]
        got[st] = f"{got[st]} {f}" if st in got else f
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
    # Typo correction reads the words of one first letter ("v"), and the
    # words of that letter it leaves alone though the release never uses
    # them ("k", ``kept_words``).
    # With ``kept_all`` (an older release of a site of several), the kept
    # words are those near a word of any release, in files of their own
    # ("k-<letter>", named in the keys' "kept"): the same files for every
    # older release.  Typo correction only asks about a word it would
    # correct, one typing mistake from a word of the release, so a known
    # word near another release's words only is never asked about.
    letters: dict[str, dict[str, list[Any]]] = {}
    for w, c in sorted(vocab.items()):
        letters.setdefault(w[:1], {"v": [], "k": []})["v"].append([w, c])
    kept_files: dict[str, str] = {}
    if kept_all is not None:
        by_first: dict[str, list[str]] = {}
        for w in sorted(kept_all):
            by_first.setdefault(w[:1], []).append(w)
            letters.setdefault(w[:1], {"v": [], "k": []})
        for letter, ws in sorted(by_first.items()):
            name, raw = _hashed(f"k-{_safe(letter)}", f"k-{letter}", ws)
            files[name] = raw
            kept_files[letter] = name.split("/", 1)[1]
    else:
        for w in sorted(kept(vocab) if kept is not None else kept_words(vocab)):
            letters.setdefault(w[:1], {"v": [], "k": []})["k"].append(w)
    letter_files: dict[str, str] = {}
    for letter, rows_ in sorted(letters.items()):
        name, raw = _hashed(f"v-{_safe(letter)}", f"v-{letter}", rows_)
        files[name] = raw
        letter_files[letter] = name.split("/", 1)[1]

    # The judges' topics and the rules-famous cards (search.boosts), their
    # rule ids carried into this release (search/tables.py), a file per
    # first letter: a query asks only for its words' letters.
    from crsearch.search import tables as shipped
    from crsearch.search.asked import doc_texts

    carry = shipped.Carry(release.effective_date, doc_texts(docs))
    topics_files: dict[str, str] = {}
    for letter, data in by_letter(topics_data(stem_of, set(docids),
                                              shipped.topics(carry))).items():
        name, raw = _hashed(f"{TOPICS}-{_safe(letter)}", f"{TOPICS}-{letter}", data)
        files[name] = raw
        topics_files[letter] = name.split("/", 1)[1]
    cards_files: dict[str, str] = {}
    # The ~240 cards parts share one hash, of them all: the keys file names
    # each part, and 240 hashes would cost every search 1.4 kB more.
    parts = {letter: _script(f"{CARDS}-{letter}", data)
             for letter, data in cards_by_letter(shipped.cards(carry)).items()}
    digest = hashlib.sha256(b"".join(parts.values())).hexdigest()[:HASH_DIGITS]
    for letter, raw in parts.items():
        name = f"{FOLDER}/{CARDS}-{_safe(letter)}.{digest}.js"
        files[name] = raw
        cards_files[letter] = name.split("/", 1)[1]

    # What names a query's word files, and how text is folded into words:
    # the search page asks for a linked query's files while the ranking
    # module and the metadata load.
    word_tables = tables()
    key_data = {"shards": shard_files, "letters": letter_files,
                "stop_words": word_tables["stop_words"], "fold": fold_table(),
                "jargon": word_tables["jargon"], "question_words": word_tables["question_words"],
                "slang": word_tables["slang"], "topics": topics_files, "cards": cards_files}
    if kept_all is not None:
        key_data["kept"] = kept_files
    name, raw = _hashed(KEYS, KEYS, key_data)
    files[name] = raw

    meta = {
        "format": FORMAT,
        "date": release.effective_date,
        # The knobs of the ranking, as the CLI's engine reads them.
        "config": config.to_dict(),
        # The wording tables a query is read with (the keys file has the
        # others, slang too: a linked query asks for its slang's word files
        # at once; synonyms travel with their words, situation words as stems).
        "tables": {k: word_tables[k] for k in ("filler_words", "first_person")},
        # Questions in a player's words (query.is_question, card_names): the
        # parser's word lists and limits, how it corrects typos, and the
        # situation words' stems.
        "question": {**parsing.tables(), "max_terms": parsing.MAX_TERMS,
                     "max_chars": parsing.MAX_QUERY_CHARS, "correction": parsing.CORRECTION,
                     "situation_stems": sorted({stem_of(w) for w in SITUATION})},
        # Question words are searched for only in a pasted passage, so their
        # word files are rarely loaded: their entries are here.
        "words": {w: entry_of(w) for w in sorted(QUESTION_WORDS)},
        "scale": SCALE,
        # The rules that are only a title (a question puts their subrules first).
        "title_rules": [d["id"] for d in docs if not d["id"].startswith(GLOSSARY_PREFIX)
                        and numbers.kind(d["id"]) == "rule"
                        and is_title_text(d.get("text", ""), config.title_rule_words)],
        "n": len(docids),
        "ids": pack_ids(docids, [g["id"] for g in terms["glossary"]]),
        "blocks": [[b[0], f] for b, f in zip(blocks, block_files)],
        "keywords": terms["keywords"],
        "chapters": terms["chapters"],
        # A term's names, or 0 when its one name is its heading's words (rank.js
        # makes them: the same for ASCII in both languages).
        "glossary": [[g["id"][len(GLOSSARY_PREFIX):], glossary_names(g["id"], g["names"]),
                      g["targets"], g["see"]] for g in terms["glossary"]],
        # The topics' and cards' files are named in the keys file alone.
    }
    if then:
        # Today's numbers this older release lacks -> [number then, title].
        name, raw = _hashed(THEN, THEN, then)
        files[name] = raw
        meta["then"] = name.split("/", 1)[1]
    name, raw = _hashed(META, META, meta)
    files[name] = raw
    return dict(sorted(files.items()))


def kept_words(vocab: dict[str, int]) -> set[str]:
    """The words ``query.correct`` leaves alone that the release never uses
    and that it would otherwise correct: words of the wording tables, of the
    cards table and of the English word list (``query.is_known_word``,
    ``query.is_english``) with a word of ``vocab`` one typing mistake away
    (two for six letters or more: ``suggest.close_enough``)."""
    return KeptWords([vocab])(vocab)


class KeptWords:
    """``kept_words`` for many releases at the cost of about one.

    Which of the 160,000 known words sit a typing mistake away from a word
    of a release is the slow part of a release's search data; over the words
    of all the releases of an ``--all`` site (``vocabs``) it is worked out
    once, and each release then keeps the known words near one of its own.
    A release with a word outside ``vocabs`` is worked out on its own.
    """

    def __init__(self, vocabs: Iterable[Iterable[str]]):
        from crsearch.rules.suggest import close_enough
        from crsearch.rules.text import STOP_WORDS
        from crsearch.search.cardtopics import name_words
        from crsearch.search.vocab import english_words, known_words

        self.words: set[str] = set()
        for v in vocabs:
            self.words.update(v)

        # Symmetric deletes: two words within n mistakes share a form with at
        # most n letters dropped from each.
        def drops(w: str, n: int) -> set[str]:
            out, edge = {w}, {w}
            for _ in range(n):
                edge = {x[:i] + x[i + 1:] for x in edge for i in range(len(x))}
                out |= edge
            return out

        near: dict[str, list[str]] = {}
        for v in sorted(self.words):
            for d in drops(v, 2):
                near.setdefault(d, []).append(v)
        #: Word of ``vocabs`` -> the known words that are a likely typing of
        #: it: a release keeps those of its own words (a few thousand
        #: look-ups, not a pass over every known word).
        self.typed_as: dict[str, set[str]] = {}
        for w in known_words() | name_words() | english_words():
            if len(w) < 4 or not w.isalpha() or w in STOP_WORDS:
                continue
            seen: set[str] = set()
            for d in drops(w, 1 if len(w) <= 5 else 2):
                for v in near.get(d, ()):
                    if v not in seen:
                        seen.add(v)
                        if close_enough(w, v):
                            self.typed_as.setdefault(v, set()).add(w)

    def every(self) -> set[str]:
        """The known words near a word of any of ``vocabs`` (some a word of
        one release: a release's own words are never corrected, so holding
        them does no harm)."""
        out: set[str] = set()
        for ws in self.typed_as.values():
            out |= ws
        return out

    def __call__(self, vocab: dict[str, int]) -> set[str]:
        if not self.words.issuperset(vocab):
            return KeptWords([vocab])(vocab)
        out: set[str] = set()
        for v in vocab:
            out |= self.typed_as.get(v, set())
        return out.difference(vocab)


def table_words() -> set[str]:
    """Every word of the tables a query is read with (synonyms, slang,
    jargon, situation and filler words, the topics' cues): the site knows
    their stems even where the release never uses them."""
    from crsearch.rules.text import words
    from crsearch.search.topics import cue_words
    from crsearch.search.vocab import FILLER, FIRST_PERSON, JARGON, SITUATION, SLANG, SYNONYMS

    out = set(SYNONYMS) | set(SITUATION) | set(FILLER) | set(FIRST_PERSON) | cue_words()
    out.update(w for alts in SYNONYMS.values() for a in alts for w in words(a))
    out.update(w for k, v in SLANG.items() for w in words(k) + words(v))
    out.update(w for v in JARGON.values() for w in words(v))
    return out


def inflections(w: str) -> list[str]:
    """A word's regular English forms ("blink" -> "blinks", "blinked",
    "blinking", "blinker", "blinkers"; "stop" -> "stopped" too; "see" ->
    "seeing", "dye" -> "dyeing": a final "e" after a vowel stays)."""
    if not w.isalpha() or len(w) < 3:
        return []
    if w.endswith("y") and w[-2] not in "aeiou":
        return [w[:-1] + "ies", w[:-1] + "ied", w + "ing", w[:-1] + "ier", w[:-1] + "iers"]
    if w.endswith("e"):
        return [w + "s", w + "d", (w if w[-2] in "eoy" else w[:-1]) + "ing", w + "r", w + "rs"]
    out = [w + ("es" if w.endswith(("s", "x", "z", "ch", "sh")) else "s"), w + "ed", w + "ing",
           w + "er", w + "ers"]
    if w[-1] not in "aeiouwxy" and w[-2] in "aeiou" and w[-3] not in "aeiou":
        out += [w + w[-1] + "ed", w + w[-1] + "ing", w + w[-1] + "er", w + w[-1] + "ers"]
    return out


def word_forms(known: set[str], stem: Callable[[str], str]) -> dict[str, str]:
    """The stems of the words a player may type that the ``known`` words
    are not, where their stem matters: the regular forms (``inflections``)
    of every known word and of every stem ("designing" from "designate"'s
    stem "design"), whose stem is the stem of a known word and is not the
    form itself.  The browser looks a typed word up here and in the word
    entries; a word in neither keeps its own spelling, which finds nothing,
    as the word's stem does in the CLI."""
    wanted = {stem(w) for w in known}
    out: dict[str, str] = {}
    for base in sorted(known | wanted):
        for f in [base, *inflections(base)]:
            if f in known or f in out:
                continue
            s = stem(f)
            if s in wanted and s != f:
                out[f] = s
    return out


@functools.cache
def fold_table() -> dict[str, str]:
    """What ``text.fold`` does to a character beyond lowercasing it (after
    NFKC): the quotes and dashes of ``text.FOLD``, and the characters whose
    case folding is not their lower case ("ß" -> "ss")."""
    import sys
    import unicodedata

    from crsearch.rules.text import FOLD

    out = {chr(k): v.casefold() for k, v in FOLD.items()}
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or c in out:
            continue
        if c.casefold() != c.lower() and unicodedata.normalize("NFKC", c) == c:
            out[c] = c.casefold()
    return dict(sorted(out.items()))


def topics_data(stem: Callable[[str], str], ids: set[str],
                topics: tuple[Topic, ...] | None = None) -> list[list[Any]]:
    """The topics' cues, stemmed as a question's words are, in table order:
    ``[number, stems, rules]`` (``topics.Cues``, whose matches come in the
    order of their numbers).  ``topics``: the topics carried into the
    release (``tables.topics``), else the table as it is."""
    from crsearch.search.topics import Cues

    return [[n, " ".join(sorted(stems)), list(topic.rules)]
            for n, (stems, _, topic) in enumerate(Cues(stem, ids.__contains__, topics).cues)]


def by_letter(cues: list[list[Any]]) -> dict[str, dict[str, Any]]:
    """``topics_data`` split by first letter: a cue goes with the first letter
    of its smallest stem (a question that matches it has a word starting so:
    stemming keeps a word's first letter; "" for a cue of no stem, which
    every question matches).  A part has its cues, ``[number, stems, k]``,
    and the rules they name (``rules[k]``: cues that name the same rules
    share them)."""
    out: dict[str, dict[str, Any]] = {}
    where: dict[tuple[str, str], int] = {}
    for n, stems, rules in cues:
        letter = stems.split(" ")[0][:1]
        part = out.setdefault(letter, {"cues": [], "rules": []})
        k = where.setdefault((letter, " ".join(rules)), len(part["rules"]))
        if k == len(part["rules"]):
            part["rules"].append(rules)
        part["cues"].append([n, stems, k])
    return dict(sorted(out.items()))


#: A letter's cards part above this many bytes of JSON is split by the
#: first two letters of its names' first words: a question loads a part for
#: each of its words, and a phone waits for them before its first result.
CARDS_PART_BYTES = 6000


def cards_by_letter(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``cards.table_by_letter``, each part with the longest name overall; a
    big letter's part split by the first two letters of a spelling's first
    word (rank.js's ``cardParts`` asks for a word's one- and two-letter
    parts: a one-letter word's names stay in its letter's part)."""
    from crsearch.search.cardtopics import table_by_letter

    out: dict[str, dict[str, Any]] = {}
    two = table_by_letter(table, width=2)
    for letter, part in table_by_letter(table).items():
        if len(json.dumps(part, ensure_ascii=False)) <= CARDS_PART_BYTES:
            out[letter] = part
        else:
            out.update((k, sub) for k, sub in two.items() if k[:1] == letter)
    return {k: {**v, "longest": table["longest"]} for k, v in sorted(out.items())}


def meta_name(files: dict[str, bytes]) -> str:
    """The path of the metadata file among ``build``'s files (pages name it)."""
    return next(n for n in files if n.startswith(f"{FOLDER}/{META}."))


def keys_name(files: dict[str, bytes]) -> str:
    """The path of the word-file names among ``build``'s files (pages name it)."""
    return next(n for n in files if n.startswith(f"{FOLDER}/{KEYS}."))


def glossary_names(id: str, names: list[str]) -> list[str] | int:
    """A glossary entry's names for the metadata: 0 when they are just the
    words of its id, which rank.js recomputes (``normTitle``)."""
    from crsearch.rules.text import norm_title

    term = id[len(GLOSSARY_PREFIX):]
    return 0 if term.isascii() and names == [norm_title(term)] else names


def _deltas(nums: list[int]) -> list[int]:
    return [b - a for a, b in zip([0, *nums], nums)]


def pack_ids(ids: list[str], glossary: list[str] | None = None) -> list[str]:
    """Ids in index order, shorter: "702.19c" after "702" is ".19c", a
    glossary id loses its prefix to ":" (rank.js ``unpackIds`` undoes it).

    When the glossary's ids end the index in the order of ``glossary`` (the
    metadata's list of terms), they are left out: rank.js takes them from
    that list (on a phone, 3.6 kB less before the first result)."""
    if glossary and ids[len(ids) - len(glossary):] == glossary:
        ids = ids[:len(ids) - len(glossary)]
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
