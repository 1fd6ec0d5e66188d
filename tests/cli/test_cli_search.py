"""The search commands through click's CliRunner."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_search_prints_ranked_results(indexed_data_dir):
    r = run(indexed_data_dir, "search", "trample", "--limit", "3")
    assert r.exit_code == 0, r.output
    assert r.output.index("702.19 ") < r.output.index("702.19a")
    assert "in 702.19. Trample" in r.output
    assert "effective 2026-08-07" in r.output


def test_search_json_contract(indexed_data_dir):
    r = run(indexed_data_dir, "search", "lethal", "damage", "--json", "--limit", "4")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) == {"query", "release", "results", "suggestion"}
    assert data["query"] == "lethal damage" and data["release"] == "2026-08-07"
    assert len(data["results"]) == 4
    assert data["results"][0]["id"] == "glossary:Lethal Damage"
    for item in data["results"]:
        assert {"id", "kind", "title", "snippet", "score"} <= set(item)
        assert item["kind"] in ("rule", "subrule", "chapter", "section", "glossary")
    assert data["suggestion"] is None


def test_search_suggests_a_spelling(indexed_data_dir):
    r = run(indexed_data_dir, "search", "deathtuch", "--limit", "1")
    assert r.exit_code == 0
    assert "Did you mean: deathtouch?" in r.output
    data = json.loads(run(indexed_data_dir, "search", "deathtuch", "--json").output)
    assert data["suggestion"] == "deathtouch"
    assert data["results"][0]["id"] == "702.2"


def test_search_release_option(indexed_data_dir):
    r = run(indexed_data_dir, "--release", "2026-08-07", "search", "CR 702.19c", "--json")
    assert json.loads(r.output)["results"][0]["id"] == "702.19c"


@pytest.mark.parametrize("args", [["search", ""], ["search", "   "], ["search"],
                                  ["search", "AND", "OR"], ["search", "kind:banana", "x"],
                                  ["search", "x", "--limit", "0"]])
def test_usage_errors_exit_2(indexed_data_dir, args):
    r = run(indexed_data_dir, *args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output


def test_nothing_found_exits_1(indexed_data_dir):
    r = run(indexed_data_dir, "search", "qqqqzzzz")
    assert r.exit_code == 1
    assert "nothing" in r.output


def test_missing_rule_number_exits_1_with_suggestions(indexed_data_dir):
    r = run(indexed_data_dir, "search", "702.19z")
    assert r.exit_code == 1
    assert "Did you mean" in r.output


def test_missing_index_tells_the_user_to_run_index(latest_data_dir):
    r = run(latest_data_dir, "search", "trample")
    assert r.exit_code in (1, 2)
    assert "crsearch index" in r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_index_command_builds_a_searchable_index(mini_data_dir):
    assert "crsearch index" in run(mini_data_dir, "search", "x").output
    r = run(mini_data_dir, "index")
    assert r.exit_code == 0, r.output
    assert "Indexed" in r.output
    from crsearch.store.datadir import Store

    assert (Store(mini_data_dir).pick().index_dir / "terms.json").exists()
    # Rebuilding replaces the index and leaves no temporary folders behind.
    assert run(mini_data_dir, "index").exit_code == 0
    release_dir = Store(mini_data_dir).pick().path
    assert sorted(p.name for p in release_dir.iterdir() if p.name.startswith(".")) == []


@pytest.mark.slow
def test_define_forgives_case_and_typos(indexed_data_dir):
    r = run(indexed_data_dir, "define", "lethal", "damage")
    assert r.exit_code == 0
    assert r.output.startswith("Lethal Damage")
    assert "120.4a" in r.output
    r = run(indexed_data_dir, "define", "LETHAL DAMAGES", "--json")
    assert json.loads(r.output)["id"] == "glossary:Lethal Damage"
    r = run(indexed_data_dir, "define", "last known informaton", "--json")
    assert json.loads(r.output)["id"] == "glossary:Last Known Information"
    assert json.loads(run(indexed_data_dir, "define", "apnap", "--json").output)["id"] == \
        "glossary:APNAP Order"


def test_define_unknown_term_exits_1(indexed_data_dir):
    r = run(indexed_data_dir, "define", "zzqx")
    assert r.exit_code == 1


def test_keyword_shows_the_rule_and_all_subrules(indexed_data_dir):
    r = run(indexed_data_dir, "keyword", "first", "strike", "--json")
    assert r.exit_code == 0, r.output
    got = [i["id"] for i in json.loads(r.output)]
    assert got[0] == "702.7" and "702.7c" in got and all(i.startswith("702.7") for i in got)
    r = run(indexed_data_dir, "keyword", "tramplle")
    assert r.exit_code == 0 and "702.19a" in r.output
    assert run(indexed_data_dir, "keyword", "scry", "--json").exit_code == 0


def test_keyword_unknown_exits_1(indexed_data_dir):
    assert run(indexed_data_dir, "keyword", "banana").exit_code == 1


def test_keywords_lists_actions_and_abilities(indexed_data_dir):
    data = json.loads(run(indexed_data_dir, "keywords", "--json").output)
    by_id = {d["id"]: d for d in data}
    assert by_id["702.19"] == {"id": "702.19", "title": "Trample", "kind": "ability"}
    assert by_id["701.22"]["kind"] == "action"
    text = run(indexed_data_dir, "keywords").output
    assert "701. Keyword actions" in text and "702. Keyword abilities" in text


@pytest.mark.parametrize("name", ["search", "define", "keyword", "keywords", "index"])
def test_every_command_has_an_example(name):
    r = run(None, name, "--help")
    assert r.exit_code == 0
    assert "Example:" in r.output and f"crsearch {name}" in r.output


def test_rule_lookup_does_not_import_whoosh():
    code = ("import sys, crsearch.cli.main; "
            "bad = [m for m in ('whoosh', 'crsearch.search.engine', 'crsearch.search.build', 'crsearch.search.backends') if m in sys.modules];"
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=80))
def test_cli_search_never_tracebacks(indexed_data_dir, text):
    r = run(indexed_data_dir, "search", "--", text)
    assert r.exit_code in (0, 1, 2), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)


def test_matched_words_are_highlighted_on_a_terminal(indexed_data_dir):
    r = run(indexed_data_dir, "search", "trample planeswalker", "-n", "2", color=True)
    assert r.exit_code == 0, r.output
    assert "\x1b[" in r.output and "planeswalker" in r.output.lower()
    plain = run(indexed_data_dir, "search", "trample planeswalker", "-n", "2")
    assert "\x1b[" not in plain.output


@pytest.mark.slow
@pytest.mark.parametrize("query", ["trample", "702.19c", "deathtouch trample"])
def test_common_searches_do_not_import_whoosh(indexed_data_dir, query):
    # cli(), not main(): main() ends a read-only command's process at once.
    code = ("import sys\nfrom crsearch.cli.main import cli\n"
            f"sys.argv = ['crsearch', '--data-dir', {str(indexed_data_dir)!r}, 'search', {query!r}]\n"
            "try:\n    cli(prog_name='crsearch')\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'whoosh']\n"
            "sys.stderr.write(repr(bad)); sys.exit(3 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-300:] + done.stderr
    assert "702.19" in done.stdout


@pytest.mark.slow
def test_search_why_explains_each_result(indexed_data_dir):
    r = run(indexed_data_dir, "search", "--why", "-n", "3",
            "my opponent bounced my creature with Unsummon, do the +1/+1 counters stay?")
    assert r.exit_code == 0, r.output
    assert "Read as a question" in r.output
    assert "card names left out: Unsummon" in r.output
    assert "bounced → return to its owner's hand" in r.output
    assert r.output.count("why: ") == 3
    assert "meaning: similarity" in r.output
    assert "topic “counters bounce”" in r.output
    # A like question asked before, with the page where it was asked.
    assert re.search(r"asked before \(0\.\d\d", r.output), r.output
    assert "“Ghave Guru of Spores gets bounced" in r.output
    assert "https://tappedout.net/" in r.output
    r = run(indexed_data_dir, "search", "--why", "-n", "15", "I cast a creature spell and my opponent "
            "counters it, then I sacrifice a land in response, do I get my mana back?")
    assert "keywords together: Cast + Sacrifice" in r.output


def test_search_why_json_adds_fields_only_when_asked(indexed_data_dir):
    plain = json.loads(run(indexed_data_dir, "search", "deck out", "--json", "-n", "2").output)
    assert set(plain) == {"query", "release", "results", "suggestion"}
    assert "why" not in plain["results"][0]
    r = run(indexed_data_dir, "search", "if I deck out do I lose?", "--json", "--why", "-n", "2")
    data = json.loads(r.output)
    assert data["understood"]["slang"][0]["words"] == "deck out"
    for item in data["results"]:
        assert {"words", "slang", "found_by"} <= set(item["why"])


def test_search_without_embeddings_warns_in_one_line(indexed_data_dir, tmp_path):
    import shutil

    from crsearch.search import semantic as embed

    data_dir = tmp_path / "data"
    shutil.copytree(indexed_data_dir, data_dir)
    for meta in data_dir.rglob(embed.META):
        meta.write_bytes(b"\x00garbage")
    r = run(data_dir, "search", "if I deck out do I lose?", "-n", "3")
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    lines = [ln for ln in r.output.splitlines() if "semantic ranking off" in ln]
    assert len(lines) == 1, r.output


@pytest.mark.slow
def test_index_warns_when_the_model_fails_its_hash(indexed_data_dir, tmp_path, monkeypatch):
    import shutil

    from crsearch.search import semantic as embed

    data_dir = tmp_path / "data"
    shutil.copytree(indexed_data_dir, data_dir)
    monkeypatch.setattr(embed, "WEIGHTS_SHA256", "0" * 64)
    r = run(data_dir, "index")
    assert r.exit_code == 0, r.output
    assert "no embeddings" in r.output and "SHA-256 mismatch" in r.output
    r = run(data_dir, "search", "if I deck out do I lose?", "-n", "2")
    assert r.exit_code == 0 and "semantic ranking off" in r.output


@pytest.mark.slow
def test_a_read_only_command_ends_its_process_at_once(indexed_data_dir):
    """The console script ends search, rule, define and keyword without the
    interpreter's teardown (exit handlers show it), with their exit codes and
    all their output; a command that may write exits the normal way."""
    code = ("import atexit, sys\nfrom crsearch.cli.main import main\n"
            "atexit.register(lambda: sys.stderr.write('[teardown]'))\n"
            "sys.argv = ['crsearch', '--data-dir'] + sys.argv[1:]\n"
            "main()\n")

    def console(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code, str(indexed_data_dir), *args],
                              capture_output=True, text=True, check=False)

    r = console("search", "trample", "--json", "-n", "7")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)["results"]) == 7  # flushed in full
    assert "[teardown]" not in r.stderr
    r = console("rule", "702.999")
    assert r.returncode == 1 and "no rule 702.999" in r.stderr and "[teardown]" not in r.stderr
    r = console("search", "kind:banana x")
    assert r.returncode == 2 and "Error: kind:banana" in r.stderr and "[teardown]" not in r.stderr
    r = console("define", "lifelink")
    assert r.returncode == 0 and "Lifelink" in r.stdout and "[teardown]" not in r.stderr
    r = console("releases")
    assert r.returncode == 0 and "[teardown]" in r.stderr


def test_a_search_pauses_the_cycle_collector_and_gives_it_back():
    import gc

    from crsearch.cli.common import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()
