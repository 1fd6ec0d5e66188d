"""Command-line conventions: rule ids typed as several words, and the global
``--release``/``--data-dir`` options written after the command."""

from __future__ import annotations

import json

import click
import pytest
from conftest import run
from hypothesis import given, settings
from hypothesis import strategies as st

from crsearch.cli.main import cli
from crsearch.rules.numbers import join_words, normalize, parse_spec


def _ids(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return [x["id"] for x in json.loads(result.output)]


# -- one id in several words ---------------------------------------------------------

@pytest.mark.parametrize("words", [
    ["702.19", "c"], ["702.19", "C"], ["CR", "702.19c"], ["CR", "702.19", "c"], ["rule", "702.19c"],
    ["§", "702.19c"], ["cr", "702.19", "c", "--json"],
])
def test_one_id_typed_as_several_words(latest_data_dir, words):
    if "--json" not in words:
        words = [*words, "--json"]
    assert _ids(run(latest_data_dir, "rule", *words)) == ["702.19c"]


def test_separate_ids_stay_separate(latest_data_dir):
    assert _ids(run(latest_data_dir, "rule", "510.1c", "119.7", "--no-children", "--json")) == ["510.1c", "119.7"]
    assert _ids(run(latest_data_dir, "rule", "CR", "702.19", "c", "510.1c", "--json")) == ["702.19c", "510.1c"]


def test_a_range_typed_as_several_words(latest_data_dir):
    assert _ids(run(latest_data_dir, "rule", "601.2f", "–", "h", "--json")) == ["601.2f", "601.2g", "601.2h"]
    assert _ids(run(latest_data_dir, "rule", "601.2f", "to", "601.2h", "--json")) == ["601.2f", "601.2g", "601.2h"]


@pytest.mark.parametrize("words, expected", [
    (["702.19", "c"], ["702.19 c"]),
    (["CR", "702.19c"], ["CR 702.19c"]),
    (["rule", "702.19", "c", "510.1c"], ["rule 702.19 c", "510.1c"]),
    (["510.1c", "119.7"], ["510.1c", "119.7"]),
    (["702", "7"], ["702", "7"]),
    (["510.1c", "d"], ["510.1c", "d"]),  # parse_spec then says why "d" is no id
    (["  "], ["  "]),
])
def test_join_words(words, expected):
    assert join_words(words) == expected


canonical = st.builds(lambda c, r, l: f"{c}.{r}{l}", st.integers(100, 999), st.integers(1, 99),
                      st.sampled_from(["a", "b", "c", "k", "m", "z"]))


@pytest.mark.slow
@settings(deadline=None)
@given(st.lists(canonical, min_size=1, max_size=5), st.data())
def test_written_ids_survive_the_shell(ids, data):
    words: list[str] = []
    for id in ids:
        prefix = data.draw(st.sampled_from([[], ["CR"], ["rule"], ["§"]]))
        split = data.draw(st.booleans())
        words += prefix + ([id[:-1], id[-1].upper()] if split else [id])
    joined = join_words(words)
    assert [normalize(j) for j in joined] == ids
    assert [s.start for j in joined for s in parse_spec(j)] == ids


# -- global options after the command -----------------------------------------------

def test_release_after_the_command(latest_data_dir):
    d = str(latest_data_dir)
    for args in (["rule", "702.19", "--release", "2026-06-19"],
                 ["rule", "702.19", "--release=2026-06-19"],
                 ["rule", "--release", "2026-06-19", "702.19"],
                 ["--release", "2026-06-19", "rule", "702.19"]):
        r = run(d, *args, "--json")
        assert r.exit_code == 0, (args, r.output)
        assert {x["release"] for x in json.loads(r.output)} == {"2026-06-19"}, args
    r = run(d, "rule", "702.19", "--json")
    assert {x["release"] for x in json.loads(r.output)} == {"2026-08-07"}


@pytest.mark.slow
def test_data_dir_after_the_command(latest_data_dir, tmp_path):
    d = str(latest_data_dir)
    for args in (["rule", "702.19c", "--data-dir", d], ["rule", "702.19c", f"--data-dir={d}"],
                 ["report", "--data-dir", d, "--release", "2026-06-19"],
                 ["toc", "7", "--data-dir", d], ["releases", "--data-dir", d],
                 ["export", "--json", "--data-dir", d], ["diff", "--data-dir", d, "--json"],
                 ["history", "702.19c", "--data-dir", d]):
        r = run(tmp_path / "empty", *args)
        assert r.exit_code == 0, (args, r.output)
    r = run(None, "report", "--json", "--data-dir", d, "--release", "2026-06-19")
    assert json.loads(r.output)["effective_date"] == "2026-06-19"


def _commands(group: click.Group, ctx: click.Context, path: list[str]):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield [*path, name]
        if isinstance(command, click.Group):
            yield from _commands(command, ctx, [*path, name])


ALL_COMMANDS = list(_commands(cli, click.Context(cli), []))


def test_every_command_is_listed():
    names = {tuple(c) for c in ALL_COMMANDS}
    assert {("rule",), ("update",), ("search",), ("site",), ("site", "build"), ("diff",)} <= names


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=" ".join)
def test_every_command_accepts_the_global_options_after_it(command, tmp_path):
    r = run(None, *command, "--data-dir", str(tmp_path), "--release", "2026-06-19", "--help")
    assert r.exit_code == 0, r.output
    assert "Usage: " in r.output and "No such option" not in r.output


def test_a_missing_value_after_the_command_is_a_usage_error(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19", "--release")
    assert r.exit_code == 2 and "--release" in r.output and "Traceback" not in r.output


def test_options_after_a_double_dash_are_arguments(latest_data_dir):
    r = run(latest_data_dir, "rule", "--", "--release")
    assert r.exit_code == 2 and "No such option" not in r.output
