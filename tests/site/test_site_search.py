"""The site's search data (site_search.py) and how `site serve` sends files.

The search data must come from the Python the CLI runs (no second copy of a
table in JavaScript), reference only files that exist, ship nothing that is
never loaded, and score documents with the CLI's numbers.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from crsearch.search.cardtopics import RULES_CARDS
from crsearch.search.config import DEFAULT
from crsearch.site import build as site
from crsearch.site import searchdata as site_search


def read_data(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    m = re.fullmatch(r'\(window\.CRSEARCH_DATA=window\.CRSEARCH_DATA\|\|\{\}\)\["([^"]+)"\]=(.*);\n',
                     text, re.S)
    assert m, path
    return json.loads(m.group(2))


def meta_path(folder: Path) -> str:
    """The metadata file the pages name (``data-search`` on site.js)."""
    m = re.search(r'<script src="site.js" defer data-search="([^"]+)"',
                  (folder / "index.html").read_text(encoding="utf-8"))
    assert m
    return m.group(1)


def keys_path(folder: Path) -> str:
    """The word-file names the pages name (``data-keys`` on site.js)."""
    m = re.search(r'<script src="site.js" defer data-search="[^"]+" data-keys="([^"]+)"',
                  (folder / "index.html").read_text(encoding="utf-8"))
    assert m
    return m.group(1)


@pytest.fixture(scope="module")
def meta(latest_site) -> dict:
    return read_data(latest_site / meta_path(latest_site))


@pytest.fixture(scope="module")
def keys(latest_site) -> dict:
    return read_data(latest_site / keys_path(latest_site))


def test_tables_and_knobs_are_the_clis(meta, keys):
    """Every table and weight the ranking module reads comes from the CLI's
    Python: the vocab tables, text folding and RankingConfig as it is."""
    from crsearch.search.vocab import tables

    assert meta["config"] == DEFAULT.to_dict()
    whole = tables()
    assert meta["tables"] == {k: whole[k] for k in ("filler_words", "first_person")}
    assert keys["slang"] == whole["slang"]
    assert keys["fold"] == site_search.fold_table()


def test_folding_is_the_clis_for_every_character():
    """What text.fold does to a character beyond lowercasing it: the
    quotes and dashes, and case folding where it is not lowercase."""
    import unicodedata

    from crsearch.rules.text import FOLD, fold

    table = site_search.fold_table()
    assert {chr(k): v for k, v in FOLD.items()}.items() <= table.items()
    assert table["ß"] == "ss" and table["ς"] == "σ" and "A" not in table
    for c in map(chr, range(0x3000)):
        if unicodedata.normalize("NFKC", c) == c and not 0xD800 <= ord(c) <= 0xDFFF:
            assert fold(c) == table.get(c, c.lower()), repr(c)


def test_word_file_names_come_with_the_clis_tables(keys, meta):
    """What search.html needs to ask for a linked query's word files before
    site.js arrives comes from the CLI's Python, not from the template."""
    from crsearch.rules.text import FOLD, STOP_WORDS
    from crsearch.search.vocab import QUESTION_WORDS, tables

    assert keys["stop_words"] == sorted(STOP_WORDS)
    assert keys["question_words"] == sorted(QUESTION_WORDS)
    assert keys["jargon"] == tables()["jargon"]
    assert {chr(k): v for k, v in FOLD.items()}.items() <= keys["fold"].items()
    assert "shards" not in meta and "fold" not in meta  # one home: the metadata does not repeat them


def test_the_search_page_asks_for_its_data_before_its_style_and_app(latest_site):
    """On a phone every byte before the search's data delays it: the search
    page's inline script runs before the style sheet (a script after it would
    wait for it), and app.js comes once the first results are shown."""
    html = (latest_site / "search.html").read_text(encoding="utf-8")
    head = html[:html.index("</head>")]
    assert head.index("linkedQueryFiles") < head.index('rel="stylesheet"')
    assert head.index('rel="preload" as="script"') < head.index('rel="stylesheet"')
    assert 'src="app.js"' not in head and 'data-app="app.js"' in head
    other = (latest_site / "glossary.html").read_text(encoding="utf-8")
    assert '<script src="app.js" defer>' in other and "data-app" not in other


def test_other_wordings_travel_with_the_word(latest_site, keys):
    """"dies" means "put into a graveyard from the battlefield": the word file
    of "dies" holds the postings of those stems too, so that a question with
    synonyms needs one round trip for its words, not two."""
    def shard(word):
        return read_data(latest_site / "search" / keys["shards"][site_search.shard_key(word, set(keys["shards"]))])

    dies = shard("dies")
    alts = dies["w"]["dies"][2]
    assert ["battlefield", "graveyard", "into", "put"] in alts
    for stem in ("put", "graveyard", "battlefield"):
        assert site_search.shard_key(stem, set(keys["shards"])) != site_search.shard_key("dies", set(keys["shards"]))
        assert dies["p"][stem] == shard(stem)["p"][stem]
    crea = shard("creature")
    assert ["noncreatur"] in crea["w"]["creature"][2]
    assert crea["p"]["noncreatur"] == shard("noncreatur")["p"]["noncreatur"]


def test_question_tables_are_the_clis(meta):
    """What the site needs to read a question comes from the CLI's Python."""
    from whoosh.lang.porter import stem

    from crsearch.search import query
    from crsearch.search.vocab import QUESTION_WORDS, SITUATION

    got = dict(meta["question"])
    assert got.pop("max_terms") == query.MAX_TERMS and got.pop("max_chars") == query.MAX_QUERY_CHARS
    assert got.pop("correction") == query.CORRECTION
    assert got.pop("situation_stems") == sorted({stem(w) for w in SITUATION})
    assert got == query.tables()
    assert "oblivion" not in got["not_names"] and "when" in got["question_start"]
    # Question words are searched for only in passages: their entries come with the metadata.
    assert sorted(meta["words"]) == sorted(QUESTION_WORDS)
    assert meta["words"]["happens"][1] == stem("happens") == "happen"
    # "702.15. Lifelink" is only a title; "702.15a" and "104.3" are not.
    assert "702.15" in meta["title_rules"] and "104.3" not in meta["title_rules"]
    assert all("." in i and i[-1].isdigit() for i in meta["title_rules"])


def test_the_javascript_keeps_no_word_list_or_weight_of_its_own():
    from crsearch.paths import templates_dir

    for name in ("site.js", "js/rank.js", "js/text.js", "search.html"):
        js = (templates_dir() / name).read_text(encoding="utf-8")
        for word in ("state-based actions", "last known information", "\"whats\"", "\"which\"",
                     "\"deck out\"", "\"friend\"", "\"graveyard\"", "\"whose\"", "0.15", "0.8",
                     "0.4", "0.3", "1.5"):
            assert word not in js.lower(), (name, word)


def test_one_record_per_rule_subrule_and_glossary_entry(meta, latest_release):
    ids = _unpack(meta["ids"], meta)
    assert len(ids) == len(set(ids)) == meta["n"]
    assert "702.19c" in ids and "702.19" in ids and "glossary:Deathtouch" in ids
    assert len([i for i in ids if i.startswith("glossary:")]) == len(
        {g.id for g in latest_release.glossary})


def _unpack(packed: list[str], meta: dict | None = None) -> list[str]:
    # What rank.js's unpackIds and Engine do.
    out, chapter = [], ""
    for s in packed:
        if s.startswith(":"):
            out.append("glossary" + s)
        elif s.startswith("."):
            out.append(chapter + s)
        else:
            chapter = s.split(".")[0]
            out.append(s)
    if meta is not None and len(out) < meta["n"]:
        out += ["glossary:" + g[0] for g in meta["glossary"]]
    return out


def test_glossary_names_are_left_out_only_when_site_js_can_make_them(meta, latest_release):
    """0 stands for "the words of the term" (site.js's normTitle, the same as
    text.norm_title for ASCII); every other entry keeps its names."""
    from crsearch.rules.text import norm_title
    from crsearch.search.build import terms_of

    names = {g["id"]: g["names"] for g in terms_of(latest_release)["glossary"]}
    left_out = 0
    for term, got, _, _ in meta["glossary"]:
        if got == 0:
            left_out += 1
            assert term.isascii() and names["glossary:" + term] == [norm_title(term)]
        else:
            assert got == names["glossary:" + term]
    assert left_out > 500 and left_out < len(meta["glossary"])
    assert site_search.glossary_names("glossary:Mana Value", ["converted mana cost", "mana value"]) != 0


def _parts(site: Path, files: dict[str, str]) -> dict[str, Any]:
    return {letter: read_data(site / "search" / name) for letter, name in files.items()}


def test_topics_files_hold_the_cues_stemmed_in_table_order(latest_site, meta, keys):
    from crsearch.search.topics import Cues

    parts = _parts(latest_site, keys["topics"])
    assert len(parts) >= 20 and all(name.startswith("topics-") for name in keys["topics"].values())
    cues = sorted((n, stems, d["rules"][k]) for d in parts.values() for n, stems, k in d["cues"])
    ids = set(_unpack(meta["ids"], meta))
    assert {r for _, _, rs in cues for r in rs} <= ids
    assert any("603.10a" in rs and stems == "di same time" for _, stems, rs in cues)
    # Numbered as topics.Cues orders them (its matches come in that order).
    assert [n for n, _, _ in cues] == list(range(len(Cues(lambda w: w).cues)))
    # Each cue sits in the file of its smallest stem's first letter.
    for letter, d in parts.items():
        assert all(stems.split(" ")[0][:1] == letter for _, stems, _ in d["cues"])
    assert meta["config"]["topic"] == DEFAULT.topic and meta["config"]["again"] == DEFAULT.again


def test_word_files_know_the_stems_of_forms_the_release_never_uses(latest_site, keys):
    """The browser never stems: "animating" and "lifelinking" are no
    words of the rules, but the word files give their stems; a form whose
    stem no word of the release has is left out (it finds nothing anyway)."""
    from whoosh.lang.porter import stem

    def forms(word):
        key = site_search.shard_key(word, set(keys["shards"]))
        got = read_data(latest_site / "search" / keys["shards"][key])
        return {f: st for st, fs in got["f"].items() for f in fs.split()}, got["w"]

    for word in ("animating", "lifelinking", "designing"):
        table, entries = forms(word)
        assert word not in entries and table[word] == stem(word), word
    # A word of the tables (slang here) has an entry of its own, used or not.
    assert forms("blinked")[1]["blinked"][:2] == [0, "blink"]
    table, entries = forms("trampling")
    assert "trampling" in entries or table["trampling"] == "trampl"
    assert "zorblaxes" not in forms("zorblaxes")[0]


def test_word_forms_are_regular_forms_whose_stem_matters():
    from whoosh.lang.porter import stem

    known = {"blink", "designate", "trample"}
    got = site_search.word_forms(known, stem)
    assert got["blinked"] == got["blinking"] == "blink"
    assert got["designing"] == "design"          # from the stem "design" of "designate"
    assert got["trampled"] == "trampl"
    assert not known & set(got)
    assert all(stem(f) == s and s in {stem(w) for w in known} and f != s for f, s in got.items())
    assert site_search.inflections("stop")[-4:] == ["stopped", "stopping", "stopper", "stoppers"]
    # "seeing" is the CLI's "see" (a final "e" after a vowel stays); "making" drops it.
    assert "seeing" in site_search.inflections("see") and "making" in site_search.inflections("make")


def test_cards_files_split_the_table_by_first_letter(latest_site, meta, keys):
    from crsearch.search.cardtopics import table

    parts = _parts(latest_site, keys["cards"])
    whole = table()
    index = {k: n for d in parts.values() for k, n in d["index"].items()}
    rules = {n: r for d in parts.values() for n, r in d["rules"].items()}
    assert index == whole["index"] and rules == whole["rules"]
    assert sorted(w for d in parts.values() for w in d["plain"]) == whole["plain"]
    assert {d["longest"] for d in parts.values()} == {whole["longest"]}
    # A spelling's part has the rules of the name it leads to.
    assert parts["go"]["index"]["goyf"] == "tarmogoyf" and "tarmogoyf" in parts["go"]["rules"]
    assert "humility" in parts["hu"]["rules"] and "silence" in parts["si"]["plain"]
    # Big letters are split by two letters, small ones are not.
    assert "g" not in parts and "q" in parts and "qu" not in parts
    assert all(k[:1] == n.split(" ")[0][:1] and n.split(" ")[0][:len(k)] == k
               for k, d in parts.items() for n in [*d["index"], *d["plain"]])
    assert rules["the gitrog monster"] == list(RULES_CARDS["the gitrog monster"])
    assert meta["config"]["card"] == DEFAULT.card


def test_pack_ids_round_trips():
    ids = ["7", "702", "702.1", "702.1a", "703", "703.4", "glossary:Trample"]
    assert _unpack(site_search.pack_ids(ids)) == ids
    # The glossary's ids, when they end the index in its terms' order, are
    # its terms': the metadata does not repeat them.
    packed = site_search.pack_ids(ids, ["glossary:Trample"])
    assert packed == ["7", "702", ".1", ".1a", "703", ".4"]
    assert _unpack(packed, {"n": 7, "glossary": [["Trample"]]}) == ids
    assert site_search.pack_ids(ids, ["glossary:Ward"])[-1] == ":Trample"


def test_the_glossary_ids_are_not_repeated(meta):
    assert not any(i.startswith(":") for i in meta["ids"])
    assert len(_unpack(meta["ids"])) == meta["n"] - len(meta["glossary"])


def test_every_search_file_is_referenced_and_exists(latest_site, meta, keys):
    named = {*keys["shards"].values(), *keys["letters"].values(), *block_files(meta),
             *keys["topics"].values(), *keys["cards"].values()}
    # Named once, in the keys file: the metadata does not repeat them.
    assert "topics" not in meta and "cards" not in meta
    # Short content hashes: the keys file names ~1,000 files.
    short = re.compile(rf"[^.]+\.[0-9a-f]{{{site_search.HASH_DIGITS}}}\.js")
    assert all(short.fullmatch(n) for n in named)
    on_disk = {p.name for p in (latest_site / "search").iterdir()} - {
        Path(meta_path(latest_site)).name, Path(keys_path(latest_site)).name}
    assert named == on_disk
    assert not (latest_site / "pagefind").exists()
    assert not (latest_site / "terms.js").exists()


def block_files(meta: dict) -> list[str]:
    # What site.js's needDocs loads.
    return [f"d.{h}.js" for _, h in meta["blocks"]]


def test_blocks_cover_every_document_once(latest_site, meta):
    ids = _unpack(meta["ids"], meta)
    seen = []
    starts = [b[0] for b in meta["blocks"]] + [len(ids)]
    for n, name in enumerate(block_files(meta)):
        rows = read_data(latest_site / "search" / name)["docs"]
        assert [r[0] for r in rows] == ids[starts[n]:starts[n + 1]]
        seen += [r[0] for r in rows]
    assert seen == ids


def test_documents_carry_their_url(latest_site, meta, latest_release):
    urls = site.Urls(latest_release)
    rows = {}
    for name in block_files(meta):
        rows.update({r[0]: r for r in read_data(latest_site / "search" / name)["docs"]})
    assert rows["702.19c"][5] == urls.url_for("702.19c")
    assert rows["glossary:Deathtouch"][5] == urls.url_for("glossary:Deathtouch")
    assert rows["702.19c"][2] == "Trample"


def test_scores_are_the_clis_bm25f(latest_site, meta, keys, indexed_data_dir):
    """The precomputed scores equal the CLI's fast-path postings (Whoosh's BM25F)."""
    from crsearch.search.fastindex import FastBackend
    from crsearch.search.schema import INDEX_FORMAT
    from crsearch.store.datadir import Store

    fast = FastBackend.open(Store(indexed_data_dir).pick().index_dir, INDEX_FORMAT)
    assert fast is not None
    ids = _unpack(meta["ids"], meta)
    for stem in ("trampl", "deathtouch", "planeswalk"):
        got_postings = fast.postings(stem)
        assert got_postings is not None
        docs, fields = got_postings
        # Summed field by field with the boosts, as a typed query sums them.
        cli = {fast.meta["docids"][d]: sum(fields[k][i] * b for k, b in enumerate(DEFAULT.field_boosts.values()))
               for i, d in enumerate(docs)}
        key = site_search.shard_key(stem, set(keys["shards"]))
        df, deltas, ours = read_data(latest_site / "search" / keys["shards"][key])["p"][stem][:3]
        nums, d = [], 0
        for x in deltas:
            d += x
            nums.append(d)
        got = {ids[n]: s / meta["scale"] for n, s in zip(nums, ours)}
        assert got.keys() == cli.keys()
        assert all(abs(got[k] - cli[k]) <= 0.0006 for k in cli)
        assert df == fast.doc_frequency(stem)


def test_words_know_their_stem_count_and_other_wordings(latest_site, keys):
    def entry(word):
        key = site_search.shard_key(word, set(keys["shards"]))
        return read_data(latest_site / "search" / keys["shards"][key])["w"][word]

    count, stem = entry("planeswalkers")[:2]
    assert count > 0 and stem == "planeswalk"
    assert entry("deathtouch")[1] == 0                # its own stem
    assert ["destroi"] in entry("kill")[2]            # a synonym, stemmed
    assert ["untap"] in entry("tapped")[2] or ["untap"] in entry("tap")[2]


@pytest.mark.slow
def test_search_data_is_byte_identical(mini_release):
    urls = site.Urls(mini_release)
    assert site_search.build(mini_release, urls.url_for) == site_search.build(mini_release, urls.url_for)


@pytest.mark.slow
def test_markup_in_the_text_cannot_end_a_script(mini_bytes, tmp_path):
    from crsearch.ingest.pipeline import release_from_bytes

    evil = mini_bytes.replace(b"The first part is the handle.",
                              b"The first part is the </script><script>alert(1)</script> handle.")
    release = release_from_bytes(evil, "evil.txt")
    files = site_search.build(release, site.Urls(release).url_for)
    assert not any(b"</script" in data for data in files.values())
    blocks = [d for n, d in files.items() if "/d" in n]
    assert any(b"<\\/script><script>alert(1)<\\/script>" in d for d in blocks)


@pytest.mark.slow
def test_build_without_search_writes_no_search_data(tmp_path, mini_release):
    site.build(mini_release, tmp_path / "s", search=False)
    assert not (tmp_path / "s" / "search").exists()


def test_glossary_letters_skip_terms_filed_out_of_order():
    terms = ["Abandon", "Hand", "Job Select", "Junk Token", "If", "Islandwalk", "Jump-Start",
             "Keyword", "Rad Counter", "The Ring", "Ring-bearer", "Tap", "Zone"]
    got = site.glossary_letters(terms)
    assert got["letter_at"] == {0: "A", 1: "H", 4: "I", 6: "J", 7: "K", 8: "R", 11: "T", 12: "Z"}
    assert got["letters"] == ["A", "H", "I", "J", "K", "R", "T", "Z"]


# -- site serve ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(latest_site):
    server = site.make_server(latest_site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def fetch(url: str, **headers: str):
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_serve_gzips_when_the_client_accepts_it(served, latest_site):
    status, headers, body = fetch(served + "702.html", **{"Accept-Encoding": "gzip, deflate"})
    plain = (latest_site / "702.html").read_bytes()
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == plain
    assert len(body) < len(plain) / 3
    assert headers["Vary"] == "Accept-Encoding"
    status, headers, body = fetch(served + "702.html")
    assert "Content-Encoding" not in headers and body == plain
    status, headers, body = fetch(served + "702.html", **{"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in headers


def test_serve_answers_304_to_a_known_etag(served):
    _, headers, _ = fetch(served + "site.js", **{"Accept-Encoding": "gzip"})
    assert headers["ETag"] and headers["Last-Modified"]
    status, again, body = fetch(served + "site.js", **{"Accept-Encoding": "gzip",
                                                       "If-None-Match": headers["ETag"]})
    assert status == 304 and body == b"" and again["ETag"] == headers["ETag"]
    status, _, _ = fetch(served + "site.js", **{"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304
    status, _, body = fetch(served + "site.js", **{"If-None-Match": '"other"'})
    assert status == 200 and body


def test_serve_cache_control_by_kind_of_file(served, keys, latest_site):
    assert fetch(served + "702.html")[1]["Cache-Control"] == "no-cache"
    assert "immutable" in fetch(served + meta_path(latest_site))[1]["Cache-Control"]
    assert fetch(served + "site.css")[1]["Cache-Control"] == "public, max-age=600"
    shard = next(iter(keys["shards"].values()))
    assert "immutable" in fetch(served + "search/" + shard)[1]["Cache-Control"]
    status, headers, body = fetch(served + "")
    assert status == 200 and b"<html" in body and headers["Cache-Control"] == "no-cache"


def test_serve_still_answers_404_with_the_not_found_page(served):
    status, _, body = fetch(served + "no-such-page.html")
    assert status == 404 and b"<html" in body


def test_serve_asks_for_the_style_sheet_with_each_page(served):
    _, headers, _ = fetch(served + "702.html")
    assert headers["Link"] == "<site.css>; rel=preload; as=style"
    assert "Link" not in fetch(served + "site.js")[1]


def test_serve_keeps_the_connection_open(served):
    """HTTP/1.1 keep-alive: a page, a 304, a 404 and a redirect answered on
    one connection (a phone pays a round trip for each new one)."""
    import http.client
    from urllib.parse import urlsplit

    u = urlsplit(served)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        conn.request("GET", "/702.html", headers={"Accept-Encoding": "gzip"})
        first = conn.getresponse()
        etag = first.getheader("ETag")
        assert first.status == 200 and first.version == 11 and first.read()
        sock = conn.sock
        conn.request("GET", "/702.html", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        again = conn.getresponse()
        assert again.status == 304 and again.read() == b""
        conn.request("GET", "/search")
        moved = conn.getresponse()
        assert moved.status == 301 and moved.read() == b""
        conn.request("GET", "/no-such-page.html")
        missing = conn.getresponse()
        assert missing.status == 404 and b"<html" in missing.read()
        conn.request("GET", "/site.css")
        assert conn.getresponse().read()
        assert conn.sock is sock
    finally:
        conn.close()


@pytest.mark.slow
def test_kept_words_for_many_releases_are_each_releases_own():
    """``site build --all`` finds the known words near the words of every
    release once (``KeptWords``); each release keeps what ``kept_words``
    keeps for it alone, a word near only another release's words included."""
    older = {"trample": 3, "creture": 1, "blokcer": 2, "mana": 5}
    newer = {"trample": 4, "creature": 9, "blocker": 2, "manna": 1}
    kept = site_search.KeptWords([older, newer])
    for vocab in (older, newer):
        assert kept(vocab) == site_search.kept_words(vocab)
    assert "creature" in kept(older) and "creature" not in kept(newer)
    # Older releases of a site share one set: every release's own, together.
    # (and words of a release, which correction never asks about).
    assert kept(older) | kept(newer) <= kept.every()
    assert kept.every() - kept(older) - kept(newer) <= set(older) | set(newer)
    # A release with a word the others lack is worked out on its own.
    other = {"tramples": 2}
    assert kept(other) == site_search.kept_words(other) and kept(other)


@pytest.mark.slow
def test_runs_of_unchanged_documents_are_the_same_files_in_the_next_release():
    """A rule reworded near the start changes the run that holds it, not the
    runs after it (where a run ends depends on its documents, not on counting
    from the first): an --all site stores those once."""
    from conftest import LATEST

    from crsearch.ingest.pipeline import release_from_bytes

    text = LATEST.read_bytes()
    release = release_from_bytes(text, LATEST.name)
    # Rule 100.1's first word, found rather than quoted (no rules text in the repository).
    first = re.search(rb"\n100\.1\. \w+", text)
    assert first is not None
    old = first.group(0)
    changed = release_from_bytes(text.replace(old, old + b" zyzzyva", 1), LATEST.name)
    runs = [{n for n in site_search.build(r, site.Urls(r).url_for) if n.startswith("search/d.")}
            for r in (release, changed)]
    assert len(runs[0] - runs[1]) == 1 and len(runs[1] - runs[0]) == 1
    assert len(runs[0]) > 200
