"""cite-check: rule citations in any text, checked against a release."""

from __future__ import annotations

import json
import os
import stat

import pytest
from conftest import FIXTURES, run

from crsearch.desk import citecheck


def ids(text):
    return [(c.text, c.id) for c in citecheck.find(text)]


@pytest.mark.parametrize("text, want", [
    ("See 702.19c.", [("702.19c", "702.19c")]),
    ("CR 702.19c says", [("702.19c", "702.19c")]),
    ("per rule 702.19c,", [("702.19c", "702.19c")]),
    ("(§702.19c)", [("702.19c", "702.19c")]),
    ("CR702.19c", [("702.19c", "702.19c")]),
    ("rule 702.19 c.", [("702.19 c", "702.19c")]),
    ("rules 601.2f-h", [("601.2f", "601.2f"), ("h", "601.2h")]),
    ("rules 110.2 and 112.2", [("110.2", "110.2"), ("112.2", "112.2")]),
    ("see rule 702 and section 7", [("702", "702"), ("7", "7")]),
])
def test_every_form_rule_accepts_is_found(text, want):
    assert ids(text) == want


@pytest.mark.parametrize("text", [
    "Version 2.0.1 fixed it.", "It costs $120.50 now.", "A 100.5 km ride.",
    "On 2026.08.07 we met.", "Call 555.1234 today.", "Pi is 314.15 hundredths.",
    "I was at 120 life and had 702 cards.",
])
def test_numbers_that_only_look_like_rules_are_not_citations(text):
    assert citecheck.find(text) == []


def test_a_bare_rule_number_counts_where_the_line_speaks_of_rules():
    assert ids("The rules say 117.3 applies.") == [("117.3", "117.3")]
    assert ids("(117.3)") == [("117.3", "117.3")]


def test_line_and_column_are_one_based():
    c = citecheck.find("first line\n  see CR 702.19c\n")[0]
    assert (c.line, c.column) == (2, 10)  # where the number starts


def test_check_ok_missing_and_moved(cite_data_dir):
    from crsearch.store.datadir import Store

    text = "Trample: 502.9b. Current: CR 702.19c. Bad: CR 702.250."
    result = citecheck.check(Store(cite_data_dir), text)
    by_id = {c["id"]: c for c in result["citations"]}
    assert result["release"] == "2026-08-07"
    assert by_id["502.9b"]["status"] == "moved" and by_id["502.9b"]["now"] == "702.19b"
    assert by_id["702.19c"]["status"] == "ok"
    assert by_id["702.250"]["status"] == "missing" and by_id["702.250"]["nearest"]


def test_as_of_reads_numbers_as_they_were(cite_data_dir):
    from crsearch.store.datadir import Store

    # In 2003, 502.2 was first strike; it is 702.7 today.
    result = citecheck.check(Store(cite_data_dir), "rule 502.2", as_of="2003-06-01")
    c = result["citations"][0]
    assert result["release"] == "2003-03-15"
    assert (c["status"], c["now"]) == ("moved", "702.7")



def test_cli_lines_summary_and_exit_code(cite_data_dir, tmp_path):
    f = tmp_path / "article.md"
    f.write_text("Old: rule 502.9b.\nFine: CR 702.19c.\n", encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f))
    assert r.exit_code == 1, r.output
    assert f"{f}:1:11: 502.9b moved -> 702.19b" in r.output
    assert ("2 citations checked against 2026-08-07 (the text has no date; it cites 502.9b, "
            "of the 2003-03-15 rules and before; 0 checked by the words around them): "
            "1 ok, 1 moved, 0 mismatched, 0 missing") in r.output


def test_cli_json_contract(cite_data_dir, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("CR 702.19c and rule 502.9b", encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f), "--json")
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data["release"] == "2026-08-07"
    assert data["citations"][0] == {"text": "702.19c", "line": 1, "column": 4,
                                    "id": "702.19c", "status": "ok"}
    assert data["citations"][1]["now"] == "702.19b"


def test_all_ok_exits_zero_and_no_citations_says_so(cite_data_dir, tmp_path):
    f = tmp_path / "ok.txt"
    f.write_text("See CR 702.19c.", encoding="utf-8")
    assert run(cite_data_dir, "cite-check", str(f)).exit_code == 0
    r = run(cite_data_dir, "cite-check", "-", input="No rules here, only 3.5 cats.")
    assert r.exit_code == 0 and "no rule citations found" in r.output


def test_fix_renumbers_moved_citations_and_nothing_else(cite_data_dir, tmp_path):
    original = ("\ufeffCafé notes\r\nTrample is rule 502.9b (and §502.2).\r\n"
                "Keep CR 702.19c, 702.250 and $120.50 as they are.\r\n")
    f = tmp_path / "old.md"
    f.write_bytes(original.encode("utf-8"))
    os.chmod(f, 0o640)
    r = run(cite_data_dir, "cite-check", str(f), "--as-of", "2003-06-01", "--fix")
    assert r.exit_code == 1, r.output  # it reports what it found, then fixes
    data = f.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.decode("utf-8-sig") == original[1:].replace("502.9b", "702.19b").replace(
        "502.2", "702.7")
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["old.md"]  # no temporary file left


def test_fix_refuses_stdin(cite_data_dir):
    r = run(cite_data_dir, "cite-check", "-", "--fix", input="CR 702.19c")
    assert r.exit_code == 2 and "stdin" in r.output


@pytest.mark.parametrize("setup, args, code, message", [
    (lambda p: p.write_bytes(b"\x00\x01\x02binary"), [], 2, "binary"),
    (lambda p: p.write_bytes(b"x" * (citecheck.MAX_BYTES + 1)), [], 2, "too large"),
    (lambda p: p.write_text("CR 702.19c"), ["--as-of", "1999-01-01"], 2, "before the first"),
    (lambda p: p.write_text("CR 702.19c"), ["--as-of", "yesterday"], 2, "not a date"),
    (lambda p: None, [], 2, "cannot read"),
])
def test_bad_input_gets_a_clear_message(cite_data_dir, tmp_path, setup, args, code, message):
    f = tmp_path / "in.txt"
    setup(f)
    r = run(cite_data_dir, "cite-check", str(f), *args)
    assert r.exit_code == code, r.output
    assert message in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_where_rules_went_is_remembered_until_the_releases_change(cite_data_dir, monkeypatch,
                                                                  tmp_path):
    import shutil

    from crsearch.changes import history
    from crsearch.store.datadir import Store

    data = tmp_path / "data"
    shutil.copytree(cite_data_dir, data)
    store = Store(data)
    first = citecheck.check(store, "rule 502.2", as_of="2003-06-01")
    assert (store.pick().path / "cite-check-cache.json").is_file()

    def boom(*args, **kwargs):
        raise AssertionError("traced again")

    monkeypatch.setattr(history, "trace_forward", boom)
    assert citecheck.check(store, "rule 502.2", as_of="2003-06-01") == first
    # Another release imported: the answers may differ, so they are traced again.
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source

    path = FIXTURES / "mini_cr.txt"
    import_sources([Source(path.name, path.read_bytes())], store, build_index=False, jobs=1)
    with pytest.raises(AssertionError, match="traced again"):
        citecheck.check(store, "rule 502.2", as_of="2003-06-01")
