"""`crsearch rule`, `toc`, `releases`, `report`, `export` through the CLI."""

import json

import pytest
from conftest import run


@pytest.mark.parametrize("spelling", ["702.19c", "702.19C", "702.19 c", "702.19c.", "CR 702.19c",
                                      "CR702.19c", "rule 702.19c", "§702.19c"])
def test_forgiving_rule_numbers(latest_data_dir, spelling):
    r = run(latest_data_dir, "rule", spelling, "--json")
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)] == ["702.19c"]


def test_rule_json_contract(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19", "--json")
    data = json.loads(r.output)
    ids = [x["id"] for x in data]
    assert ids[:5] == ["702.19", "702.19a", "702.19b", "702.19c", "702.19d"]
    assert all(i.startswith("702.19") and i[6:].isalpha() for i in ids[1:])
    first = data[0]
    assert set(first) >= {"id", "kind", "title", "text", "examples", "references", "cited_by", "release"}
    assert (first["kind"], first["title"], first["release"]) == ("rule", "Trample", "2026-08-07")
    assert "glossary:Trample" in first["cited_by"]
    assert "510" in data[1]["references"]  # "(See rule 510, “Combat Damage Step.”)"


def test_rule_one_never_matches_rule_ten(latest_data_dir):
    ids = [x["id"] for x in json.loads(run(latest_data_dir, "rule", "702.1", "--json").output)]
    assert ids and all(i == "702.1" or i.startswith("702.1") and i[5:].isalpha() for i in ids)
    assert "702.10" not in ids and "702.19a" not in ids


def test_no_children_shows_only_the_rule(latest_data_dir):
    data = json.loads(run(latest_data_dir, "rule", "702.19", "--no-children", "--json").output)
    assert [x["id"] for x in data] == ["702.19"]


@pytest.mark.parametrize("spec, expected", [
    ("510.1c-d", ["510.1c", "510.1d"]),
    ("601.2f–h", ["601.2f", "601.2g", "601.2h"]),
])
def test_ranges_expand_to_exactly_the_members(latest_data_dir, spec, expected):
    data = json.loads(run(latest_data_dir, "rule", spec, "--json").output)
    assert [x["id"] for x in data] == expected


def test_range_of_rules_and_several_arguments(latest_data_dir):
    data = json.loads(run(latest_data_dir, "rule", "119.7–8", "702.2c", "--json", "--no-children").output)
    assert [x["id"] for x in data] == ["119.7", "119.8", "702.2c"]


def test_chapter_and_section_lookups(latest_data_dir):
    chapter = json.loads(run(latest_data_dir, "rule", "702", "--json").output)
    assert chapter[0] == {**chapter[0], "id": "702", "kind": "chapter", "title": "Keyword Abilities"}
    assert any(x["id"] == "702.19c" for x in chapter)
    section = json.loads(run(latest_data_dir, "rule", "7", "--json").output)
    assert section[0]["kind"] == "section" and section[1]["id"] == "700"


def test_text_output_has_context_examples_and_date(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19c")
    assert r.exit_code == 0
    assert "702. Keyword Abilities › 702.19. Trample" in r.output
    assert "702.19c Trample over planeswalkers" in r.output
    assert "Example:" in r.output
    assert "effective 2026-08-07" in r.output
    assert "\x1b[" not in r.output  # piped: no colour


def test_unknown_rule_exits_1_with_suggestions(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19z")
    assert r.exit_code == 1
    assert "702.19z" in r.output and "Did you mean" in r.output and "702.19e" in r.output


def test_transposed_rule_number_is_suggested(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.91c")
    assert r.exit_code == 1 and "702.19c" in r.output


@pytest.mark.parametrize("bad", ["702.19cc9", "abc", "702.19l", "70", "702..1"])
def test_malformed_rule_exits_2_with_reason(latest_data_dir, bad):
    r = run(latest_data_dir, "rule", bad)
    assert r.exit_code == 2, r.output
    assert "Error:" in r.output and "Traceback" not in r.output


def test_release_option_selects_older_release(latest_data_dir):
    r = run(latest_data_dir, "--release", "2026-07-01", "rule", "702.19", "--json", "--no-children")
    assert json.loads(r.output)[0]["release"] == "2026-06-19"


def test_release_before_any_import_exits_1(latest_data_dir):
    assert run(latest_data_dir, "--release", "2001-01-01", "rule", "100.1").exit_code == 1


def test_toc(latest_data_dir):
    r = run(latest_data_dir, "toc")
    assert "1. Game Concepts" in r.output and "905. Conspiracy Draft" in r.output
    assert "702. Keyword Abilities" in r.output
    r = run(latest_data_dir, "toc", "702")
    assert "702.19. Trample" in r.output
    assert run(latest_data_dir, "toc", "7").output.splitlines()[0].endswith("Additional Rules")
    assert run(latest_data_dir, "toc", "99").exit_code == 2


def test_releases_lists_both_and_marks_current(latest_data_dir):
    r = run(latest_data_dir, "releases")
    assert "2026-06-19" in r.output and "* 2026-08-07" in r.output


@pytest.mark.slow
def test_report_json_contract(latest_data_dir):
    data = json.loads(run(latest_data_dir, "report", "--json").output)
    assert data["effective_date"] == "2026-08-07"
    assert (data["sections"], data["chapters"], data["rules"], data["subrules"],
            data["examples"], data["glossary"]) == (9, 147, 1173, 1989, 277, 739)
    assert data["unplaced_lines"] == 0 and data["complete"] is True
    assert data["unresolved_references"] == []
    assert {a["kind"] for a in data["anomalies"]} == {"subrule-with-period", "rule-without-period"}


def test_export_is_the_whole_release(latest_data_dir):
    data = json.loads(run(latest_data_dir, "export", "--json").output)
    assert data["effective_date"] == "2026-08-07" and len(data["glossary"]) == 739


def test_no_data_dir_is_a_clear_error(tmp_path):
    r = run(tmp_path, "rule", "100.1")
    assert r.exit_code == 3 and "crsearch update" in r.output


def test_no_color_env_is_respected(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19c", env={"NO_COLOR": "1"}, color=True)
    assert "\x1b[" not in r.output
    r = run(latest_data_dir, "rule", "702.19c", color=True)
    assert "\x1b[" in r.output


def test_context_line_is_shown_once_for_siblings(latest_data_dir):
    out = run(latest_data_dir, "rule", "601.2f–h").output
    assert out.count("601. Casting Spells") == 1
    assert out.index("601.2f") < out.index("601.2g") < out.index("601.2h")


@pytest.mark.parametrize("junk", ["7" * 5000, "\x01\x02", "ü", "   "])
def test_junk_rule_numbers_get_a_short_clear_error(latest_data_dir, junk):
    r = run(latest_data_dir, "rule", junk)
    assert r.exit_code == 2 and r.output.startswith("Error:")
    assert len(r.output) < 200 and "Traceback" not in r.output
