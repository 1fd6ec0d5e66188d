"""Shell completion, and what `crsearch` alone shows."""

from __future__ import annotations

import pytest
from conftest import run

from crsearch.cli import completion


def complete(data_dir, words, cword):
    env = {"_CRSEARCH_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword),
           "CRSEARCH_DATA": str(data_dir)}
    r = run(None, env=env, prog_name="crsearch")
    return [line.split(",", 1)[1] for line in r.output.splitlines() if "," in line]


def test_rule_numbers_complete_from_the_stored_release(latest_data_dir):
    got = complete(latest_data_dir, "crsearch rule 702.19", 2)
    assert got[:3] == ["702.19", "702.19a", "702.19b"]
    assert "702.190" in got


def test_a_chapter_prefix_offers_rules_before_subrules(latest_data_dir):
    from crsearch.store.datadir import Store

    got = completion.rule_ids(Store(latest_data_dir).pick(), "702.")
    assert "702.19" in got and "702.19c" not in got


@pytest.mark.slow
def test_glossary_terms_and_keywords_complete(latest_data_dir):
    assert "Lethal Damage" in complete(latest_data_dir, "crsearch define leth", 2)
    assert "Trample" in complete(latest_data_dir, "crsearch keyword tram", 2)


def test_history_completes_rule_numbers(latest_data_dir):
    assert "510.1c" in complete(latest_data_dir, "crsearch history 510.1", 2)


def test_completion_without_data_offers_nothing_instead_of_failing(tmp_path):
    assert complete(tmp_path / "empty", "crsearch rule 70", 2) == []


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script(shell):
    r = run(None, "completion", shell)
    assert r.exit_code == 0, r.output
    assert "_CRSEARCH_COMPLETE" in r.output and f"{shell}_complete" in r.output


def test_unknown_shell_is_a_usage_error():
    r = run(None, "completion", "tcsh")
    assert r.exit_code == 2


def test_crsearch_alone_shows_commands_and_stored_releases(latest_data_dir):
    r = run(latest_data_dir)
    assert r.exit_code == 0, r.output
    assert "Releases: 2 stored" in r.output and "using 2026-08-07" in r.output
    for name in ("rule", "search", "explain", "cite-check", "completion"):
        assert f"  {name} " in r.output


def test_crsearch_alone_without_releases_says_how_to_import(tmp_path):
    r = run(tmp_path)
    assert r.exit_code == 0, r.output
    assert "none stored" in r.output and "crsearch update" in r.output


def test_crsearch_alone_says_when_release_picks_nothing(latest_data_dir):
    r = run(latest_data_dir, "--release", "2001-01-01")
    assert r.exit_code == 0, r.output
    assert "--release 2001-01-01: no imported release was in effect" in r.output


# -- the scripts in the real shells (Debian's bash, zsh and fish; CI installs them) --
def _shell(name: str) -> str:
    import shutil

    path = shutil.which(name)
    assert path, f"{name} is needed for this test: apt-get install {name}"
    return path


def _run_in(shell: str, script: str, data_dir) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    bin_dir = str(Path(sys.executable).parent)  # where the crsearch command is
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
           "CRSEARCH_DATA": str(data_dir), "HOME": str(data_dir.parent)}
    out = subprocess.run([_shell(shell), "-c", script], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.slow
def test_bash_completes_rule_numbers_in_bash(latest_data_dir):
    got = _run_in("bash", 'eval "$(crsearch completion bash)"; '
                  'COMP_WORDS=(crsearch rule 702.19); COMP_CWORD=2; _crsearch_completion crsearch; '
                  'printf "%s\\n" "${COMPREPLY[@]}"', latest_data_dir).split()
    assert got[:3] == ["702.19", "702.19a", "702.19b"]


@pytest.mark.slow
def test_fish_completes_rule_numbers_and_terms_in_fish(latest_data_dir):
    script = ("crsearch completion fish | source; "
              "complete -C 'crsearch rule 702.19'; complete -C 'crsearch define leth'")
    got = _run_in("fish", script, latest_data_dir).splitlines()
    assert "702.19c" in got and "Lethal Damage" in got


@pytest.mark.slow
def test_zsh_loads_the_script_and_its_function_completes(latest_data_dir):
    # compadd works only inside a completion widget: stand-ins print what it is given.
    script = ('autoload -Uz compinit && compinit -u -d "$HOME/.zcompdump" && '
              'eval "$(crsearch completion zsh)" && whence -w _crsearch_completion && '
              'compadd() { print -l -- "${@[-1]}" "${completions[@]}" }; '
              '_describe() { print -l -- "${(@P)2}" }; '
              'words=(crsearch rule 702.19); CURRENT=3; _crsearch_completion')
    got = _run_in("zsh", script, latest_data_dir)
    assert "_crsearch_completion: function" in got
    assert "702.19c" in got


def test_release_dates_complete_after_release(latest_data_dir):
    assert complete(latest_data_dir, "crsearch --release ", 2) == ["2026-08-07", "2026-06-19"]
    assert complete(latest_data_dir, "crsearch --release 2026-06", 2) == ["2026-06-19"]
    # After the command too (--release is moved in front of it when run).
    assert complete(latest_data_dir, "crsearch rule 702.19 --release ", 4) == ["2026-08-07", "2026-06-19"]
    # Nothing else is offered there, and rule numbers still complete after it.
    assert "702.19a" in complete(latest_data_dir, "crsearch rule --release 2026-06-19 702.19", 4)


def test_bash_completes_release_dates_in_bash(latest_data_dir):
    got = _run_in("bash", 'eval "$(crsearch completion bash)"; '
                  'COMP_WORDS=(crsearch --release ""); COMP_CWORD=2; _crsearch_completion crsearch; '
                  'printf "%s\\n" "${COMPREPLY[@]}"; '
                  'COMP_WORDS=(crsearch search trample --release 2026-0); COMP_CWORD=4; '
                  '_crsearch_completion crsearch; printf "%s\\n" "${COMPREPLY[@]}"',
                  latest_data_dir).split()
    assert got == ["2026-08-07", "2026-06-19", "2026-08-07", "2026-06-19"]
