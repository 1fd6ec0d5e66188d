"""`rule` and `search` take every form of a rule number a judge pastes, and
an old release says where a missing rule was then."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crsearch.cli.main import cli

FORMS = ["(702.19c)", "702.19c)", "702.19.c", "702,19c", "R70219c"]


def invoke(data_dir, *args):
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


@pytest.mark.parametrize("text", FORMS)
def test_rule_takes_the_pasted_forms(latest_data_dir, text):
    r = invoke(latest_data_dir, "rule", text, "--json")
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)] == ["702.19c"]


@pytest.mark.parametrize("text", FORMS)
def test_search_takes_the_pasted_forms(indexed_data_dir, text):
    r = invoke(indexed_data_dir, "search", text, "--json", "-n", "1")
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)["results"]] == ["702.19c"]


def test_rule_and_search_take_a_decimal_comma_with_a_short_range(latest_data_dir, indexed_data_dir):
    r = invoke(latest_data_dir, "rule", "702,19c-d", "--json")
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)] == ["702.19c", "702.19d"]
    r = invoke(indexed_data_dir, "search", "702,19c-d", "--json")
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)["results"]] == ["702.19c", "702.19d"]


def test_a_missing_rule_in_an_old_release_says_where_it_was_then(cite_data_dir):
    # Trample was 502.9 in 2003; today it is 702.19.
    r = invoke(cite_data_dir, "--release", "2003-03-15", "rule", "702.19")
    assert r.exit_code == 1
    assert "it was 502.9 then (Trample)" in r.output
    assert "Did you mean: 502.9" in r.output


def test_the_api_tells_the_number_then(cite_data_dir):
    from crsearch import Rules
    from crsearch.errors import NotFound

    old = Rules.open(cite_data_dir, release="2003-03-15")
    assert old.number_then("702.19b") == "502.9b"
    with pytest.raises(NotFound) as info:
        old.rule("702.19")
    assert info.value.suggestions[0] == "502.9"
    # The latest release has nothing later to trace from.
    assert Rules.open(cite_data_dir).number_then("702.19") is None


@pytest.fixture(scope="module")
def old_indexed_data_dir(cite_data_dir, tmp_path_factory):
    """``cite_data_dir`` with 2003-03-15's search index (a copy: that one is read-only)."""
    import shutil

    root = tmp_path_factory.mktemp("cite-indexed") / "data"
    shutil.copytree(cite_data_dir, root)
    r = invoke(root, "--release", "2003-03-15", "index")
    assert r.exit_code == 0, r.output
    return root


@pytest.mark.slow
@pytest.mark.parametrize("text", ["702.19", "rule 702.19", "(702,19)"])
def test_search_for_a_missing_rule_in_an_old_release_says_where_it_was_then(
        old_indexed_data_dir, text):
    for json_flag in ([], ["--json"]):
        r = invoke(old_indexed_data_dir, "--release", "2003-03-15", "search", text, *json_flag)
        assert r.exit_code == 1
        assert "it was 502.9 then (Trample)" in r.output
        assert "Did you mean: 502.9" in r.output



@pytest.mark.slow
def test_the_api_search_raises_with_the_number_then(old_indexed_data_dir):
    from crsearch import Rules
    from crsearch.errors import NotFound

    with pytest.raises(NotFound) as info:
        Rules.open(old_indexed_data_dir, release="2003-03-15").search("702.19b")
    assert info.value.suggestions[0] == "502.9b"
    assert "it was 502.9b then" in str(info.value)
