"""`define` and `keyword` know what `search` knows: judges' shorthand, half
titles, parameters, glossary terms, and what search finds for the rest."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crsearch.cli.main import cli


def run(data_dir, *args):
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("term, entry", [
    ("lki", "Last Known Information"), ("sba", "State-Based Actions"),
    ("etb", "Enters the Battlefield"), ("cmc", "Mana Value"), ("apnap", "APNAP Order"),
    ("LKI", "Last Known Information"),
])
def test_define_reads_judges_shorthand(indexed_data_dir, term, entry):
    r = run(indexed_data_dir, "define", term, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["id"] == f"glossary:{entry}"


@pytest.mark.parametrize("name", ["tap", "untap", "Untap"])
def test_keyword_takes_half_a_title(indexed_data_dir, name):
    r = run(indexed_data_dir, "keyword", name, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)[0]["id"] == "701.26"


def test_keyword_shows_the_parameter_after_the_name(indexed_data_dir):
    r = run(indexed_data_dir, "keyword", "protection from white", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert (data[0]["id"], data[0]["parameter"]) == ("702.16", "from white")
    assert all("parameter" not in d for d in data[1:])
    r = run(indexed_data_dir, "keyword", "protection", "from", "white")
    assert r.output.startswith("parameter: from white")
    assert "702.16e" in r.output
    assert json.loads(run(indexed_data_dir, "keyword", "ward 2", "--json").output)[0]["parameter"] == "2"
    assert "parameter" not in json.loads(run(indexed_data_dir, "keyword", "ward", "--json").output)[0]


def test_keyword_dies_is_the_rule_the_glossary_names(indexed_data_dir):
    r = run(indexed_data_dir, "keyword", "dies", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)[0]["id"] == "700.4"


@pytest.mark.parametrize("command", ["define", "keyword"])
def test_an_unknown_term_says_what_search_finds(indexed_data_dir, command):
    r = run(indexed_data_dir, command, "fizzle")
    assert r.exit_code == 1
    assert "`crsearch search` finds 608.2b (Resolving Spells and Abilities)" in r.output


def test_an_unknown_term_without_an_index_is_still_not_found(latest_data_dir):
    r = run(latest_data_dir, "keyword", "fizzle")
    assert r.exit_code == 1
    assert "is not a keyword ability or action" in r.output
