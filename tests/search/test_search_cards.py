"""Search with card data imported: the cards a question names, their texts as
evidence, and nothing changed without card data (engine, Rules.search, the CLI)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from crsearch.api import Rules
from crsearch.cards.build import import_file
from crsearch.cards.store import CardStore
from crsearch.cli.main import cli
from crsearch.desk.card import card_lens
from crsearch.search.engine import Engine
from crsearch.store.datadir import Store
from tests.conftest import ATOMIC

SHACKLES = ("I'm holding an opponent's creature with a tapped Vedalken Shackles and then cast "
            "Teferi's Protection. Does the creature go back to its owner?")
GRUNT = "When does my jötun grunt's cumulative upkeep make me pay, and what if I can't pay it?"
NO_CARD = "If a creature with deathtouch and trample is blocked, how much damage must I assign?"


@pytest.fixture(scope="module")
def engine_and_lens(indexed_data_dir, tmp_path_factory):
    """The indexed 2026-08-07 release and the card fixtures as the search reads them."""
    cards_dir = tmp_path_factory.mktemp("cards-only")
    import_file(Store(cards_dir), str(ATOMIC))
    stored = Store(indexed_data_dir).pick()
    return Engine(stored.index_dir), card_lens(CardStore(Store(cards_dir)).require(), stored)


def _ranked(result):
    return [(h.id, round(h.score, 6)) for h in result.results]


def test_a_question_naming_no_card_ranks_alike_with_and_without_card_data(engine_and_lens):
    engine, lens = engine_and_lens
    for query in (NO_CARD, "trample", "702.19c", "can a tapped creature block"):
        plain, cardful = engine.search(query, 10), engine.search(query, 10, cards=lens)
        assert _ranked(cardful) == _ranked(plain), query
        assert cardful.cards == [] and plain.cards is None
        assert "cards" not in plain.to_dict() and cardful.to_dict()["cards"] == []


def test_named_cards_come_apart_from_the_results_with_their_text_and_terms(engine_and_lens):
    engine, lens = engine_and_lens
    result = engine.search(SHACKLES, 10, cards=lens)
    data = result.to_dict(why=True)
    assert [c["name"] for c in data["cards"]] == ["Vedalken Shackles", "Teferi's Protection"]
    shackles = data["cards"][0]
    assert "for as long as" in shackles["text"]
    assert any(t["id"] == "611.2b" and "for as long as" in t["text"] for t in shackles["terms"])
    assert all(r["kind"] in ("rule", "subrule", "glossary", "chapter", "section")
               for r in data["results"])
    assert data["understood"]["cards"] == ["Vedalken Shackles", "Teferi's Protection"]


def test_a_cards_words_lead_to_a_rule_and_why_says_which(engine_and_lens):
    engine, lens = engine_and_lens
    result = engine.search(GRUNT, 10, cards=lens)
    assert [c.name for c in result.cards] == ["Jötun Grunt"]  # lower case, possessive
    said = [h.why["card_text"] for h in result.results if "card_text" in h.why]
    assert said and all(s["card"] == "Jötun Grunt" for s in said)
    assert any("Cumulative upkeep" in s["words"] for s in said)
    assert result.results[0].id.startswith("702.24")


def test_the_famous_cards_table_finds_its_cards_by_the_names_the_card_data_knows(engine_and_lens):
    engine, lens = engine_and_lens
    query = "Can I use Mind Sculptor's +2 twice in one turn if I bounce it and replay it?"
    plain, cardful = engine.search(query, 10), engine.search(query, 10, cards=lens)
    assert not any(h.why.get("card") for h in plain.results)  # the table alone misses the part
    assert [c.name for c in cardful.cards] == ["Jace, the Mind Sculptor"]
    assert any(h.why.get("card") == "jace, the mind sculptor" for h in cardful.results)
    assert not any("card_text" in h.why for h in cardful.results)  # the table stands in for its text


def test_a_pasted_passage_reads_no_cards(engine_and_lens):
    engine, lens = engine_and_lens
    passage = ("Vedalken Shackles: {2}, {T}: Gain control of target creature with power less than "
               "or equal to the number of Islands you control for as long as Vedalken Shackles remains tapped.")
    assert engine.search(passage, 5, cards=lens).cards == []


@pytest.fixture(scope="module")
def cards_index_dir(indexed_data_dir, tmp_path_factory):
    """A writable copy of the indexed data dir with the card fixtures imported."""
    root = tmp_path_factory.mktemp("data-indexed-cards") / "data"
    shutil.copytree(indexed_data_dir, root)
    import_file(Store(root), str(ATOMIC))
    return root


def test_rules_search_reads_the_card_data_of_its_data_folder(cards_index_dir, indexed_data_dir):
    rules = Rules.open(cards_index_dir)
    with_cards = rules.search(SHACKLES)
    lens = rules._card_lens(rules.stored())
    assert rules.search(GRUNT).cards and rules._card_lens(rules.stored()) is lens  # read once
    without = Rules.open(indexed_data_dir).search(SHACKLES)
    assert [c.name for c in with_cards.cards] == ["Vedalken Shackles", "Teferi's Protection"]
    assert without.cards is None and "cards" not in without.to_dict()


def test_search_json_lists_the_cards_and_text_output_names_them(cards_index_dir):
    runner = CliRunner()
    env = {"CRSEARCH_DATA": str(cards_index_dir)}
    r = runner.invoke(cli, ["search", GRUNT, "--json", "--why"], env=env)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [c["name"] for c in data["cards"]] == ["Jötun Grunt"]
    r = runner.invoke(cli, ["search", GRUNT, "--why"], env=env)
    assert r.exit_code == 0, r.output
    assert "Cards named: Jötun Grunt" in r.output
    assert "card Jötun Grunt says “Cumulative upkeep" in r.output


def test_damaged_card_data_leaves_the_cards_out_with_a_note(cards_index_dir, tmp_path):
    root = tmp_path / "data"
    shutil.copytree(cards_index_dir, root)
    shutil.rmtree(Path(CardStore(Store(root)).require().dir, "shards"))
    result = Rules.open(root).search(SHACKLES)
    assert result.results and result.cards == []
    assert any(n.startswith("cards left out: card data") and "crsearch repair" in n for n in result.notes)
