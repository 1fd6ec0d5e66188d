"""Shell completion, and what `crsearch` alone shows."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from crsearch import completion
from crsearch.cli import cli


def complete(data_dir, words, cword):
    env = {"_CRSEARCH_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword),
           "CRSEARCH_DATA": str(data_dir)}
    r = CliRunner().invoke(cli, [], env=env, prog_name="crsearch")
    return [line.split(",", 1)[1] for line in r.output.splitlines() if "," in line]


def test_rule_numbers_complete_from_the_stored_release(latest_data_dir):
    got = complete(latest_data_dir, "crsearch rule 702.19", 2)
    assert got[:3] == ["702.19", "702.19a", "702.19b"]
    assert "702.190" in got


def test_a_chapter_prefix_offers_rules_before_subrules(latest_data_dir):
    from crsearch.store import Store

    got = completion.rule_ids(Store(latest_data_dir).pick(), "702.")
    assert "702.19" in got and "702.19c" not in got


def test_glossary_terms_and_keywords_complete(latest_data_dir):
    assert "Lethal Damage" in complete(latest_data_dir, "crsearch define leth", 2)
    assert "Trample" in complete(latest_data_dir, "crsearch keyword tram", 2)


def test_history_completes_rule_numbers(latest_data_dir):
    assert "510.1c" in complete(latest_data_dir, "crsearch history 510.1", 2)


def test_completion_without_data_offers_nothing_instead_of_failing(tmp_path):
    assert complete(tmp_path / "empty", "crsearch rule 70", 2) == []


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script(shell):
    r = CliRunner().invoke(cli, ["completion", shell])
    assert r.exit_code == 0, r.output
    assert "_CRSEARCH_COMPLETE" in r.output and f"{shell}_complete" in r.output


def test_unknown_shell_is_a_usage_error():
    r = CliRunner().invoke(cli, ["completion", "tcsh"])
    assert r.exit_code == 2


def test_crsearch_alone_shows_commands_and_stored_releases(latest_data_dir):
    r = CliRunner().invoke(cli, ["--data-dir", str(latest_data_dir)])
    assert r.exit_code == 0, r.output
    assert "Releases: 2 stored" in r.output and "using 2026-08-07" in r.output
    for name in ("rule", "search", "explain", "cite-check", "completion"):
        assert f"  {name} " in r.output


def test_crsearch_alone_without_releases_says_how_to_import(tmp_path):
    r = CliRunner().invoke(cli, ["--data-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "none stored" in r.output and "crsearch update" in r.output


def test_crsearch_alone_says_when_release_picks_nothing(latest_data_dir):
    r = CliRunner().invoke(cli, ["--data-dir", str(latest_data_dir), "--release", "2001-01-01"])
    assert r.exit_code == 0, r.output
    assert "--release 2001-01-01: no imported release was in effect" in r.output
