"""RankingConfig: every knob of the ranking, in one place (crsearch/search/config.py)."""

from __future__ import annotations

import importlib
import json

import pytest

from crsearch.search.config import DEFAULT, RankingConfig


def test_the_knobs_are_json_data_that_make_the_same_config():
    data = DEFAULT.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert RankingConfig(**data) == DEFAULT
    assert data["field_boosts"] == {"name": 4.0, "text": 1.0, "context": 0.6, "examples": 0.3}


def test_but_changes_a_copy():
    other = DEFAULT.but(card=0.0, title_tier=400.0)
    assert (other.card, other.title_tier) == (0.0, 400.0)
    assert (DEFAULT.card, DEFAULT.title_tier) == (0.8, 500.0)
    assert other.key() != DEFAULT.key() == RankingConfig().key()
    with pytest.raises(TypeError):
        DEFAULT.but(no_such_knob=1)


def test_the_index_is_built_with_the_shipped_knobs():
    from crsearch.search import schema, vocab

    assert schema.FIELD_BOOSTS == DEFAULT.field_boosts
    assert (schema.BM25_B, schema.BM25_K1, schema.COMMON) == (DEFAULT.bm25_b, DEFAULT.bm25_k1,
                                                              DEFAULT.common)
    assert vocab.tables()["situation_weight"] == DEFAULT.situation_weight


@pytest.mark.parametrize("module", ["engine", "exact", "lexical", "boosts", "cardtext", "fusion", "present",
                                    "index", "vocab", "schema"])
def test_no_stage_keeps_a_number_of_its_own(module):
    """The ranking's numbers live in the config: no stage defines one."""
    got = vars(importlib.import_module(f"crsearch.search.{module}"))
    numbers = {k for k, v in got.items() if k.isupper() and isinstance(v, (int, float))
               and not isinstance(v, bool) and v is not getattr(DEFAULT, k.lower(), None)
               and k not in ("INDEX_FORMAT",)}
    assert not numbers


@pytest.mark.slow
def test_other_bm25_parameters_are_answered_by_whoosh(engine):
    """The fast files hold the shipped BM25F scores: another config's go to Whoosh."""
    from crsearch.search.engine import Engine

    index_dir = engine.index_dir
    query = "can a tapped creature block"
    shipped = engine.search(query, 10)
    other = Engine(index_dir, config=DEFAULT.but(bm25_b=0.3)).search(query, 10)
    assert (shipped.backend, other.backend) == ("fast", "whoosh")
    assert len(other.results) == 10
    assert [h.score for h in other.results] != [h.score for h in shipped.results]
    # The shipped parameters through Whoosh give the fast files' scores.
    whoosh = Engine(index_dir, fast=False).search(query, 10)
    assert [(h.id, round(h.score, 6)) for h in whoosh.results] == \
        [(h.id, round(h.score, 6)) for h in shipped.results]


def test_a_config_never_changes_and_keeps_its_own_dicts():
    from crsearch.search.config import FrozenInstanceError

    with pytest.raises(FrozenInstanceError):
        DEFAULT.card = 0.0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del DEFAULT.card
    mine = RankingConfig()
    mine.field_boosts["name"] = 1.0
    assert RankingConfig().field_boosts["name"] == DEFAULT.field_boosts["name"] == 4.0
    assert RankingConfig(1.5).number_tier == 1.5
    assert list(DEFAULT.to_dict())[:2] == ["number_tier", "title_tier"]
    assert repr(DEFAULT).startswith("RankingConfig(number_tier=1000.0, title_tier=500.0,")
    with pytest.raises(TypeError):
        RankingConfig(1.0, number_tier=2.0)
    with pytest.raises(TypeError):
        hash(DEFAULT)
