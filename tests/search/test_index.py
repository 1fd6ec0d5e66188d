"""The Whoosh index and the ranking, on the real 2026-08-07 release."""

from __future__ import annotations

import json

import pytest
from conftest import copy_index
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crsearch.errors import BadInput, CRSearchError, NotFound


def ids(engine, query, limit=10):
    return [h.id for h in engine.search(query, limit).results]


@pytest.mark.slow
def test_build_index_creates_the_folder_and_terms(mini_release, tmp_path):
    from crsearch.search.backends import open_index
    from crsearch.search.build import build_index
    from crsearch.search.schema import TERMS

    target = tmp_path / "new" / "index"
    build_index(mini_release, target)
    assert (target / TERMS).exists()
    ix, terms = open_index(target)
    assert ix.doc_count() == len(mini_release.rules) + len(mini_release.chapters) + \
        len(mini_release.sections) + len({g.id for g in mini_release.glossary})
    assert terms["effective_date"] == mini_release.effective_date


def test_a_missing_index_says_how_to_fix_it(tmp_path):
    from crsearch.search.backends import IndexMissing, open_index

    with pytest.raises(IndexMissing, match="crsearch index"):
        open_index(tmp_path / "nothing")


def test_a_damaged_index_says_how_to_fix_it(tmp_path):
    from crsearch.search.backends import IndexMissing, open_index
    from crsearch.search.schema import TERMS

    (tmp_path / TERMS).write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexMissing, match="crsearch index"):
        open_index(tmp_path)


def test_the_analyzer_folds_curly_quotes_and_stems():
    from crsearch.search.schema import analyzer

    assert [t.text for t in analyzer()("Can’t TRAMPLES")] == ["can't", "trampl"]


def test_trample_puts_the_keyword_rule_and_its_subrules_first(engine):
    got = ids(engine, "trample", 6)
    assert got[0] == "702.19"
    assert got[1:6] == ["702.19a", "702.19b", "702.19c", "702.19d", "702.19e"]


def test_lethal_damage_gives_the_glossary_entry_then_its_rules(engine):
    got = ids(engine, "lethal damage", 5)
    assert got[0] == "glossary:Lethal Damage"
    assert "120.6" in got and "704.5g" in got


def test_typos_are_corrected_with_a_suggestion(engine):
    for typo, word, rule in [("deathtuch", "deathtouch", "702.2"),
                             ("tramplle", "trample", "702.19"), ("hexprof", "hexproof", "702.11")]:
        result = engine.search(typo, 3)
        assert result.suggestion == word
        assert result.results[0].id == rule


def test_known_words_get_no_suggestion(engine):
    assert engine.search("trample", 1).suggestion is None


@pytest.mark.parametrize("text", ["CR 702.19c", "§702.19c", "rule 702.19c", "702.19 c"])
def test_rule_numbers_come_first_in_any_form(engine, text):
    assert ids(engine, text, 1) == ["702.19c"]


def test_a_rule_number_brings_its_subrules(engine):
    assert ids(engine, "702.2", 3) == ["702.2", "702.2a", "702.2b"]


def test_a_range_gives_exactly_its_members(engine):
    assert ids(engine, "510.1c-d") == ["510.1c", "510.1d"]


def test_a_missing_rule_number_is_not_found_with_neighbours(engine):
    with pytest.raises(NotFound) as err:
        engine.search("702.999")
    assert err.value.suggestions


def test_interaction_of_two_keywords(engine):
    got = ids(engine, "deathtouch trample", 3)
    assert {"702.2c", "702.19b"} & set(got)


def test_a_story_names_keywords_in_passing(engine):
    """In a question's story, keywords named in passing ("I cast ..., I
    sacrifice ...") are one piece of evidence, not the first results."""
    story = ("I cast a creature spell and my opponent counters it, then I sacrifice "
             "a land in response, do I get my mana back?")
    got = engine.search(story, 15)
    assert got.results[0].id not in ("701.5a", "701.21a")
    assert all(h.score < 100 for h in got.results)
    why = {h.id: h.why for h in got.results}
    assert not any(w.get("found_by") == "keywords together" for w in why.values())
    assert any(w.get("keywords") == "Cast + Sacrifice" for w in why.values())
    # Where the keywords are what the story is about, their rules still lead.
    got = ids(engine, "My creature with deathtouch and trample is blocked by a 5/5, "
                      "how much damage can I assign to the player?", 3)
    assert {"702.19b", "702.19c", "702.2c"} & set(got)


def test_a_question_finds_the_rule(engine):
    assert ids(engine, "can a creature with defender attack", 1) == ["702.3b"]
    assert "605.3b" in ids(engine, "can you respond to a mana ability", 3)
    assert ids(engine, "what happens if a player has 0 life", 3)[0] in ("704.5a", "119.6")


def test_jargon(engine):
    assert "101.4" in ids(engine, "APNAP", 5)
    assert ids(engine, "LKI", 1) == ["glossary:Last Known Information"]


def test_filters_restrict_the_results(engine):
    got = engine.search("kind:glossary trample", 10).results
    assert got and all(h.kind == "glossary" for h in got)
    got = engine.search("section:5 first strike", 10).results
    assert got and all(h.id.startswith("5") for h in got)
    assert ids(engine, "chapter:510 first strike", 1) == ["510.4"]


def test_a_quoted_phrase_must_appear(engine):
    from crsearch.rules.text import fold

    hits = engine.search('"maximum hand size" vanguard', 10).results
    assert hits
    for hit in hits:
        doc = engine.index.stored(hit.id)
        assert "maximum hand size" in fold(doc["text"] + " " + doc["title"])
    assert not engine.search('"trample deathtouch"', 5).results


def test_pasted_passage_with_lost_numbers(engine):
    # Wording of 702.4a as a web page shows it, its link text gone.
    passage = ("Double strike is a static ability that modifies the rules for the combat "
               "damage step. (See rule , “Combat Damage Step.”)")
    got = ids(engine, passage, 3)
    assert got[0] == "702.4a"
    assert "510" in got


def test_a_passage_is_not_its_own_citation(engine):
    passage = ("If at least one attacking or blocking creature has first strike (see rule "
               "702.7) or double strike as the combat damage step begins")
    assert ids(engine, passage, 1)[0] in ("702.4b", "510.4")


def test_lost_number_fragment_points_at_the_titled_chapter(engine):
    assert ids(engine, "See rule , “Combat Damage Step.”", 1) == ["510"]


def test_results_carry_title_snippet_parent_and_highlights(engine):
    hit = engine.search("trample planeswalker", 3).results[0]
    assert hit.title
    assert hit.parent
    assert hit.highlights
    for a, b in hit.highlights:
        assert hit.snippet[a:b].lower().startswith(("trampl", "planeswalk"))


def test_result_json_contract(engine):
    data = engine.search("trample", 2).to_dict()
    assert set(data) == {"query", "release", "results", "suggestion"}
    assert set(data["results"][0]) >= {"id", "kind", "title", "snippet", "score"}


def test_limit_must_be_positive(engine):
    with pytest.raises(BadInput):
        engine.search("trample", 0)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120)
       | st.sampled_from(['"', "(", "AND", "OR NOT", '"trample', "702.", "§", "section:",
                          "kind:", ":", "rule ,", "\x00", "–", "702.19c-", "7-8-9"]))
def test_search_never_raises_anything_but_crsearch_errors(engine, text):
    try:
        result = engine.search(text, 5)
    except CRSearchError as e:
        assert str(e)
    else:
        assert len(result.results) <= 5


def test_a_10kb_query_is_answered(engine):
    text = ("A creature with toughness greater than 0 that has been dealt damage by a source "
            "with deathtouch is destroyed. ") * 100
    assert len(text) > 10_000
    result = engine.search(text, 3)
    assert result.results and result.notes


FAST_QUERIES = ["trample", "deathtouch trample", "702.19c", "CR 510.1c-d", "lethal damage",
                "first strike double strike", "flying reach block", "hexproof from", "APNAP",
                "deathtuch", "menace blocked by two creatures", "can a tapped creature block",
                "when does a player lose the game", "ward counter spell", "last known information",
                "my opponent bounced my creature with Unsummon, do the +1/+1 counters stay?",
                "If at least one attacking or blocking creature has first strike or double strike "
                "as the combat damage step begins, the only creatures that assign"]


@pytest.mark.slow
def test_the_fast_path_answers_common_queries_like_whoosh(engine):
    from crsearch.search.engine import Engine

    slow = Engine(engine.index_dir, fast=False)
    used_fast = []
    for text in FAST_QUERIES:
        a, b = engine.search(text, 10), slow.search(text, 10)
        if a.backend == "fast":
            used_fast.append(text)
        assert b.backend == "whoosh", text
        assert [h.id for h in a.results] == [h.id for h in b.results], text
        assert [h.snippet for h in a.results] == [h.snippet for h in b.results], text
        assert [round(h.score, 6) for h in a.results] == [round(h.score, 6) for h in b.results]
        assert a.suggestion == b.suggestion
    # Numbers, keywords, glossary terms and keyword interactions never need Whoosh.
    assert set(FAST_QUERIES[:11]) <= set(used_fast)


def test_queries_the_fast_files_cannot_answer_fall_back_to_whoosh(engine):
    for text in ['"lethal damage" deathtouch', "kind:glossary lethal damage"]:
        result = engine.search(text, 5)
        assert result.results and result.backend == "whoosh", text


def test_negations_and_synonyms_widen_a_question(engine):
    assert "509.1a" in ids(engine, "can a tapped creature block", 5)
    assert "104.3" in ids(engine, "when does a player lose the game", 5)


@pytest.mark.slow
def test_whoosh_loads_without_urllib_request_and_leaves_the_real_one_importable():
    import subprocess
    import sys

    code = ("import sys\n"
            "from crsearch.search.schema import load_whoosh\n"
            "load_whoosh()\n"
            "import whoosh.index, whoosh.searching\n"
            "assert 'urllib.request' not in sys.modules\n"
            "import urllib.request\n"
            "assert hasattr(urllib.request, 'urlopen')\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


# -- questions in a player's words ---------------------------------------------

def test_card_names_do_not_drive_the_ranking(engine):
    got = ids(engine, "Big free-for-all game: I Oblivion Ring someone's creature and then I "
                      "lose the game. Do they get the creature back?", 10)
    assert not any(i.startswith("701.54") for i in got), got   # The Ring Tempts You
    assert got, "the rest of the question still finds rules"
    got = ids(engine, "Garruk, Unleashed has two loyalty and I use his -2 ability. "
                      "Does he survive?", 10)
    assert not any(i.startswith("702.98") for i in got), got   # Unleash


def test_slang_finds_the_rules_wording(engine):
    got = ids(engine, "if I deck out, do I lose right away or at the end of the turn?", 5)
    assert any(i in ("704.5b", "121.4") for i in got), got
    got = ids(engine, "my creature got bounced, do the +1/+1 counters stay on it?", 5)
    assert any(i in ("122.2", "400.7") for i in got), got


def test_old_rules_words_and_attack_slang_find_summoning_sickness(engine):
    # "came into play" is the rules' wording before 2009 and "swing" is
    # players' for attacking; read literally they find 701.18 (Play).
    from crsearch.search import fusion

    assert fusion.learned() is not None  # ranked as a search ranks, with the learned weights
    got = ids(engine, "can I swing with a creature that came into play this turn?", 5)
    assert "302.6" in got and not got[0].startswith("701.18"), got


def test_a_judges_topic_brings_the_rule_the_words_miss(engine):
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    question = ("Both of our creatures die in combat at the same time. Does my "
                "Gravecaller's 'when another creature dies' ability still trigger?")
    result = engine.search(question, 5)
    got = [h.id for h in result.results]
    assert "603.10a" in got[:3], got
    hit = next(h for h in result.results if h.id == "603.10a")
    assert hit.why["topic"] == "dies same time"
    # Without the topics (and the questions asked before, which know this
    # one too) the words alone miss it: the table is what found it.
    without = Engine(engine.index_dir, config=DEFAULT.but(topic=0.0))
    pages = {e["source"] for e in without.index.vectors().asked}
    assert "603.10a" not in [h.id for h in without.search(question, 3, asked_skip=pages).results]


@pytest.mark.slow
def test_a_card_judges_know_brings_its_rules(engine):
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import Engine

    question = "What happens with Humility and a creature that gets +2/+2 from an Aura?"

    def best_layer_rank(engine):
        result = engine.search(question, 10)
        return next((n for n, h in enumerate(result.results) if h.id.startswith("613.")), 99), result

    with_cards, result = best_layer_rank(engine)
    assert result.understood["card_names"][:1] == ["Humility"]
    assert with_cards < 10 and result.results[with_cards].why.get("card") == "humility"
    without, _ = best_layer_rank(Engine(engine.index_dir, config=DEFAULT.but(card=0.0)))
    assert with_cards < without


def test_topics_only_name_rules_of_the_release_searched(engine):
    from whoosh.lang.porter import stem

    from crsearch.search.topics import Cues, Topic

    # The index's ready copy holds rules of its release only...
    ready = engine.index.fast.table("topics")
    rules = {r for letter in ready.letters for _, rs in ready.part(letter)["topics"].values()
             for r in rs}
    assert len(rules) > 1000 and rules <= engine.index.id_set
    # ...because the cues drop the rules a release lacks.
    cues = Cues(stem, engine.index.id_set.__contains__,
                (Topic(("counters bounce",), ("999.9z", "122.2")), Topic(("gone",), ("999.9y",))))
    assert [(c, t.rules) for c, t in cues.found(["counters", "bounced", "gone"])] == [
        ("counters bounce", ("122.2",))]


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["garbage", "stale", "missing"])
def test_a_bad_ready_table_is_rebuilt_in_memory(engine, tmp_path, damage):

    from crsearch.search.engine import Engine
    from crsearch.search.fastindex import FAST, FAST_TABLES
    from crsearch.store.datadir import read_json

    copy = copy_index(engine.index_dir, tmp_path)
    meta = read_json(copy / FAST, "index")
    for what, (name, _) in FAST_TABLES.items():
        if damage == "garbage":
            (copy / name).write_bytes(b"\x00{not json")
        elif damage == "stale":
            meta["tables"][what]["digest"] = "00000000"
        else:
            (copy / name).unlink()
    (copy / FAST).write_text(json.dumps(meta))
    question = "What happens with Humility and a creature that gets +2/+2 from an Aura?"
    other = Engine(copy)
    for what in FAST_TABLES:
        again, ready = other.index.fast.table(what), engine.index.fast.table(what)
        assert type(again).__name__ == "ReadyParts" and again.letters == ready.letters
        assert all(again.part(k) == ready.part(k) for k in ready.letters)
    got = other.search(question, 10)
    assert [h.id for h in got.results] == ids(engine, question)
    assert {h.why.get("card") for h in got.results} >= {"humility"}


def test_a_ready_table_damaged_after_its_check_loses_hints_not_the_search(engine, tmp_path):

    from crsearch.search.engine import Engine
    from crsearch.search.fastindex import FAST_TABLES

    copy = copy_index(engine.index_dir, tmp_path)
    for name, _ in FAST_TABLES.values():
        size = (copy / name).stat().st_size
        (copy / name).write_bytes(b"x" * size)  # same size: passes the first check
    other = Engine(copy)
    assert other.index.fast.table("topics") is not None
    got = other.search("What happens with Humility and a creature that gets bounced?", 10)
    assert got.results and not any("topic" in h.why or "card" in h.why for h in got.results)


@pytest.mark.slow
def test_the_ready_tables_are_read_a_part_at_a_time(engine):
    from crsearch.search.engine import Engine

    fresh = Engine(engine.index_dir)
    fresh.search("Both creatures die at the same time with Humility out?", 5)
    topics, cards = fresh.index.tables.topic_parts, fresh.index.tables.card_parts
    # A topic part is named by a stem's first two letters ("=": the whole-query
    # cues, "=bounce"): those of the question's words only.
    firsts = set("bcdashwtoi") | {"="}
    assert topics.letters_read and all(p[:1] in firsts for p in topics.letters_read if p)
    assert any(p.startswith("d") for p in topics.letters_read)
    assert not any(p.startswith("z") for p in topics.letters_read)
    assert "h" in cards.letters_read and "z" not in cards.letters_read


def test_a_subrule_that_answers_ranks_above_its_rule(engine):
    from crsearch.search.config import DEFAULT
    from crsearch.search.fusion import subrules_first as order

    def subrules_first(scored, reach=DEFAULT.subrules_window):
        return order(scored, lambda id: engine.index.is_title_rule(id, DEFAULT.title_rule_words),
                     reach)

    scored = [("702.15", 3.0), ("810.9", 2.5), ("702.15b", 2.0), ("702.15", 1.0)]
    got = subrules_first(scored[:3])
    assert [i for i, _ in got] == ["702.15b", "702.15", "810.9"]
    assert [s for _, s in got] == [3.0, 2.5, 2.0]      # still sorted
    # A rule with its own text answers too: it keeps its place.
    assert subrules_first([("601.2", 2.0), ("601.2c", 1.0)])[0][0] == "601.2"
    # A subrule far below is not pulled up (unless the config reaches further).
    far = [(i if i in ("702.15", "702.15b") else "glossary:" + i, s) for i, s in
           [("702.15", 4.0), ("a", 3.0), ("b", 2.0), ("c", 1.5), ("702.15b", 1.0)]]
    assert subrules_first(far)[0][0] == "702.15"
    assert subrules_first(far, reach=4)[0][0] == "702.15b"


def test_search_does_not_change_the_parsed_query(engine, monkeypatch):
    from crsearch.search import query as query_module

    seen = []
    real_parse = query_module.parse

    def spy(text):
        q = real_parse(text)
        seen.append((q, list(q.words)))
        return q

    monkeypatch.setattr(query_module, "parse", spy)  # a spy: the ranking is unchanged
    result = engine.search("deathtuch", 3)
    assert result.suggestion == "deathtouch"
    q, words_then = seen[0]
    assert q.words == words_then == ["deathtuch"]


def test_why_says_which_words_slang_and_meaning_matched(engine):
    result = engine.search("my opponent bounced my creature, do the +1/+1 counters stay?", 5)
    assert result.understood["question"] is True
    assert [s["words"] for s in result.understood["slang"]] == ["bounced", "counters stay"]
    data = result.to_dict(why=True)
    assert set(data) == {"query", "release", "results", "suggestion", "understood"}
    whys = [h["why"] for h in data["results"]]
    assert any("counters" in w["words"] for w in whys)
    assert any(w.get("semantic", {}).get("similarity", 0) > 0 for w in whys)
    # Without --why the shape is the old one.
    assert "why" not in result.to_dict()["results"][0]


def _copy_index(engine, tmp_path):

    return copy_index(engine.index_dir, tmp_path)


QUESTION = "my opponent bounced my creature, do the +1/+1 counters stay?"


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["missing", "corrupt", "truncated", "other-model", "older-format"])
def test_without_usable_embeddings_questions_fall_back_to_words(engine, tmp_path, damage):
    from crsearch.search import semantic as embed
    from crsearch.search.engine import Engine

    target = _copy_index(engine, tmp_path)
    if damage == "missing":
        (target / embed.DATA).unlink()
    elif damage == "corrupt":
        (target / embed.META).write_text("{not json", encoding="utf-8")
    elif damage == "truncated":
        data = (target / embed.DATA).read_bytes()
        (target / embed.DATA).write_bytes(data[: len(data) // 2])
    else:
        meta = json.loads((target / embed.META).read_text(encoding="utf-8"))
        if damage == "other-model":
            meta["sha256"] = "0" * 64
        else:
            # Embedded before examples were (the fusion's weights expect them).
            meta["format"] = embed.FORMAT - 1
        (target / embed.META).write_text(json.dumps(meta), encoding="utf-8")
    result = Engine(target).search(QUESTION, 5)
    assert result.results
    notes = [n for n in result.notes if n.startswith("semantic ranking off")]
    assert len(notes) == 1 and "\n" not in notes[0]
    from crsearch.search.config import DEFAULT

    lexical = Engine(engine.index_dir, config=DEFAULT.but(embeddings=False)).search(QUESTION, 5)
    assert [h.id for h in result.results] == [h.id for h in lexical.results]


@pytest.mark.slow
def test_a_model_file_with_the_wrong_hash_builds_no_embeddings(tmp_path, monkeypatch, mini_release):
    from crsearch.search import semantic as embed
    from crsearch.search.build import build_index

    monkeypatch.setattr(embed, "WEIGHTS_SHA256", "0" * 64)
    warning = build_index(mini_release, tmp_path / "ix")
    assert warning and "SHA-256" in warning
    assert not (tmp_path / "ix" / embed.META).exists()


def test_a_rules_examples_are_embedded_with_its_text():
    from crsearch.search import semantic as embed

    doc = {"title": "Trample", "text": "Trample is a static ability.",
           "examples": "Example: A 5/5 with trample is blocked by a 2/2."}
    assert "blocked by a 2/2" in embed.doc_text(doc)
    assert embed.doc_text({"title": "Trample", "text": "x"}).split() == ["Trample", "x"]


def test_embeddings_are_built_with_the_index(engine):
    from crsearch.search import semantic as embed

    vectors = embed.Vectors(engine.index_dir)
    assert set(vectors.ids) >= {"702.19", "glossary:Lethal Damage"}
    vec = vectors.query(["counters", "zone", "object"])
    assert vec is not None
    assert vectors.similarity(vec, "122.2") > vectors.similarity(vec, "702.9b")
    assert vectors.query(["xyzzyplugh"]) is None


def test_a_word_the_embeddings_lack_reads_as_its_stems_known_form(engine):
    from crsearch.search import semantic as embed

    vectors = embed.Vectors(engine.index_dir)
    assert "detained" not in vectors.words and "detain" in vectors.words
    # "detained" means what "detain" means; a typed word is not meaningless.
    assert vectors.query(["detained"]) == vectors.query(["detain"])
    assert vectors.query(["detained", "creature"]) == vectors.query(["detain", "creature"])
    # Short words and words of no known stem still carry no meaning.
    assert embed.meaning_rows(["xyzzyplugh", "im"], vectors.words, lambda: {"im": "i"},
                              lambda w: w) == []


def test_base_forms_take_the_shortest_known_word_of_a_stem():
    from crsearch.search import semantic as embed

    stem = embed.porter()
    forms = embed.base_forms(["decides", "decide", "decided", "dies", "died"], stem)
    assert forms[stem("deciding")] == "decide"
    assert forms[stem("died")] == "died"


def test_the_engine_cache_notices_a_rebuilt_index(indexed_data_dir, tmp_path):
    import os

    from crsearch.search.engine import engine_for
    from crsearch.store.datadir import Store

    stored = Store(indexed_data_dir).pick()

    class Fake:
        index_dir = copy_index(stored.index_dir, tmp_path)

    first = engine_for(Fake)
    assert engine_for(Fake) is first
    terms = Fake.index_dir / "terms.json"
    st = terms.stat()
    os.utime(terms, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    assert engine_for(Fake) is not first


def test_the_engine_cache_keeps_one_engine_per_config(indexed_data_dir):
    from crsearch.search.config import DEFAULT
    from crsearch.search.engine import engine_for
    from crsearch.store.datadir import Store

    stored = Store(indexed_data_dir).pick()
    shipped = engine_for(stored)
    other = engine_for(stored, DEFAULT.but(topic=0.0))
    assert other is not shipped and other.config.topic == 0.0 and shipped.config is DEFAULT
    assert engine_for(stored, DEFAULT.but(topic=0.0)) is other   # an equal config
    assert engine_for(stored, DEFAULT) is shipped


@pytest.mark.slow
def test_questions_and_passages_need_neither_whoosh_nor_numpy(engine):
    # Only Whoosh's Porter stemmer (2 ms) is loaded, for words the release never uses.
    import subprocess
    import sys

    code = ("import sys\n"
            "from crsearch.search.engine import Engine\n"
            "e = Engine(sys.argv[1])\n"
            "r = e.search(sys.argv[2], 5)\n"
            "assert r.results and r.understood['semantic'].startswith('fused'), r.understood\n"
            "r = e.search(sys.argv[3], 5)\n"
            "assert r.results\n"
            "heavy = [m for m in ('whoosh.index', 'whoosh.searching', 'numpy', 'tokenizers',\n"
            "                     'wordllama') if m in sys.modules]\n"
            "print(heavy)\n")
    passage = ("If at least one attacking or blocking creature has first strike or double strike "
               "as the combat damage step begins, the only creatures that assign")
    out = subprocess.run([sys.executable, "-c", code, str(engine.index_dir), QUESTION, passage],
                         capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_embeddings_are_int8_rows_with_a_scale_each(engine):
    from crsearch.search import semantic as embed

    vectors = embed.Vectors(engine.index_dir)
    rows = len(vectors.ids) + len(vectors.words) + len(vectors.asked)
    assert (engine.index_dir / embed.DATA).stat().st_size == rows * (embed.DIM + 4)
    # A document's stored row, normalised, is its own nearest: the int8
    # rounding keeps a unit vector within a hair of 1 against itself.
    row = vectors._row(vectors.row_of["702.19"])
    norm = sum(x * x for x in row) ** 0.5
    assert abs(norm - 1) < 0.01
    assert vectors.similarity([x / norm for x in row], "702.19") == pytest.approx(norm)


def test_whoosh_stores_no_texts_and_rules_texts_come_from_the_chapter_files(engine):
    from crsearch.search.fastindex import FAST, FAST_DOCS, read_block
    from crsearch.store.datadir import CHAPTERS, read_chapter, read_json

    whoosh = engine.index.whoosh
    doc = whoosh.stored("702.19b")
    assert set(doc) == {"id", "kind"}
    meta = read_json(engine.index_dir / FAST, "index")
    rows = read_block(engine.index_dir / FAST_DOCS, meta["docs"]["702"])
    assert all(r[3] is None for r in rows if r[1] in ("rule", "subrule"))
    chapter = json.loads(read_chapter(engine.index_dir.parent / CHAPTERS, "702"))
    want = next(r["text"] for r in chapter if r["id"] == "702.19b")
    assert engine.index.stored("702.19b")["text"] == want
    # Glossary entries have no chapter file: their texts stay in the index.
    assert "toughness" in engine.index.stored("glossary:Lethal Damage")["text"]


def test_a_rules_text_is_parsed_alone_and_equals_the_whole_chapter_files(engine, monkeypatch):
    from crsearch.search.fastindex import ChapterTexts, FastBackend, chapters_of
    from crsearch.store import datadir

    def whole_file(self):
        raise AssertionError("parsed the whole chapter file")

    monkeypatch.setattr(ChapterTexts, "_parse", whole_file)
    fast = FastBackend.open(engine.index_dir, engine.index.fast.meta["format"])
    assert fast.stored("702.19b")["text"] == engine.index.stored("702.19b")["text"]
    assert "trample" in fast.stored("702.19b")["text"]
    monkeypatch.undo()
    want = {}
    for path in chapters_of(engine.index_dir).glob("*.json"):
        want.update({r["id"]: r.get("text", "") for r in datadir.read_json(path, "chapter")})
    got = {id: (fast.stored(id) or {}).get("text") for id in want}
    assert got == want


def test_a_cut_chapters_file_gives_no_texts_as_before(engine, tmp_path):
    from crsearch.search.fastindex import FastBackend

    target = copy_index(engine.index_dir, tmp_path)
    chapters = target.parent / "chapters.z"
    chapters.write_bytes(chapters.read_bytes()[:-40])
    fast = FastBackend.open(target, engine.index.fast.meta["format"])
    assert fast.stored("702.19b")["text"] == ""
    assert fast.stored("702.19b")["title"] == "Trample"


def test_an_index_outside_a_stored_release_keeps_its_texts(tmp_path, mini_release):
    from crsearch.search.build import build_index
    from crsearch.search.engine import Engine

    build_index(mini_release, tmp_path / "ix", embeddings=False)
    index = Engine(tmp_path / "ix").index
    rule = next(r for r in mini_release.rules if r.text)
    assert index.stored(rule.id)["text"] == rule.text


def _without_embeddings(engine, tmp_path):
    from crsearch.search import semantic as embed

    target = copy_index(engine.index_dir, tmp_path)
    (target / embed.DATA).unlink()
    (target / embed.META).unlink()
    return target


def test_embeddings_left_for_later_are_built_by_the_first_question_and_said_once(
        engine, tmp_path, latest_release):
    from crsearch.search import semantic as embed
    from crsearch.search.build import build_embeddings
    from crsearch.search.engine import Engine
    from crsearch.search.schema import EMBEDDINGS_BUILT

    target = _without_embeddings(engine, tmp_path)
    calls = []

    def embed_now():
        calls.append(1)
        return build_embeddings(latest_release, target)

    later = Engine(target, embed=embed_now)
    assert later.search("trample", 5).notes == []          # no question: nothing built
    assert not (target / embed.META).exists()
    first = later.search(QUESTION, 5)
    built = [n for n in first.notes if n.startswith(EMBEDDINGS_BUILT)]
    assert len(built) == 1 and "2026-08-07" in built[0] and "\n" not in built[0]
    assert not any(n.startswith("semantic ranking off") for n in first.notes)
    assert [h.id for h in first.results] == ids(engine, QUESTION, 5)
    again = later.search(QUESTION, 5)
    assert again.notes == [] and calls == [1]
    # Another process finds them built: nothing is built again.
    assert Engine(target, embed=embed_now).search(QUESTION, 5).notes == [] and calls == [1]
    assert not list(target.glob(".*.tmp"))


def test_an_interrupted_embeddings_build_leaves_no_embeddings(engine, tmp_path, latest_release,
                                                             monkeypatch):
    import os

    from crsearch.search import semantic as embed
    from crsearch.search.build import build_embeddings
    from crsearch.search.engine import Engine

    target = _without_embeddings(engine, tmp_path)
    replace = os.replace

    def killed(src, dst):
        if str(dst).endswith(embed.META):
            raise KeyboardInterrupt  # stopped between the data and its description
        return replace(src, dst)

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        build_embeddings(latest_release, target)
    monkeypatch.setattr(os, "replace", replace)
    assert not (target / embed.META).exists() and not list(target.glob(".*.tmp"))
    result = Engine(target).search(QUESTION, 5)
    assert any(n.startswith("semantic ranking off") for n in result.notes)


def test_children_are_a_new_list_each_time(engine):
    kids = engine.index.children("702.19")
    assert kids[0] == "702.19" and "702.19c" in kids
    kids.clear()  # a caller's change does not reach the index's cache
    assert engine.index.children("702.19")[:2] == ["702.19", "702.19a"]


def test_a_range_a_rule_cites_counts_its_members_among_the_candidates(engine):
    from crsearch.rules.refs import cited_spans

    index = engine.index
    citing, span = next((i, s) for i in index.ids for s in cited_spans(index.stored(i)["text"])
                        if s.start != s.end and len(index.children(s.start)) == 1)
    members = [i for i in index.ids if i != citing and i.startswith(span.start[:3])
               and span.start <= i <= span.end and len(i) <= max(len(span.start), len(span.end))]
    assert len(members) >= 2
    # Named as a range: only the members that are candidates count, asked
    # twice (the text is read once, the range expanded per call).
    assert members[0] in index.cites(citing, set(index.ids))
    assert index.cites(citing, {members[0]}) & set(members) == {members[0]}
    assert not index.cites(citing, set()) & set(members)


def test_a_question_opens_each_fast_file_and_the_chapters_file_once(engine, monkeypatch):
    import os

    from crsearch.search.fastindex import FAST_DOCS, FastBackend

    fast = FastBackend.open(engine.index_dir, engine.index.fast.meta["format"])
    want = engine.index.stored("702.19b")["text"]
    opened: list[str] = []
    real_open = os.open

    def counting(path, *a, **k):
        opened.append(os.path.basename(os.fspath(path)))
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", counting)
    ids = ["100.1", "302.6", "506.4", "601.2", "702.19b", "702.19c", "704.5a", "glossary:Lethal Damage"]
    texts = [fast.stored(id)["text"] for id in ids]
    assert all(texts) and texts[4] == want
    for stem in ("trampl", "deathtouch", "flyer"):
        fast.postings(stem)
    assert sorted(set(opened)) == sorted(opened) == sorted({FAST_DOCS, "chapters.z", "fast-postings.z"})


def test_kept_fast_files_close_when_freed(tmp_path):
    import gc
    import os

    from crsearch.search.fastindex import KeptFiles

    (tmp_path / "f").write_bytes(b"x")
    kept = KeptFiles()
    fd = kept.fd(tmp_path / "f")
    assert kept.fd(tmp_path / "f") == fd and os.pread(fd, 1, 0) == b"x"
    del kept
    gc.collect()
    with pytest.raises(OSError):
        os.fstat(fd)
