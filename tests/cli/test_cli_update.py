"""`crsearch update`: the official page, URLs, files, folders; failures leave data intact."""

import json
import shutil

import pytest
from conftest import ARCHIVE, run


def catalog(data_dir):
    p = data_dir / "catalog.json"
    return p.read_bytes() if p.exists() else None


def test_update_reads_the_rules_page_and_stores_the_release(tmp_path, server):
    r = run(tmp_path, "update", "--page", f"{server}/rules.html", "--no-index")
    assert r.exit_code == 0, r.output
    assert "Imported 2030-05-01" in r.output
    r = run(tmp_path, "rule", "100.1a", "--json")
    assert json.loads(r.output)[0]["release"] == "2030-05-01"


@pytest.mark.parametrize("path, message", [
    ("/truncated.txt", "truncated"),
    ("/nolink.html", "no Comprehensive Rules TXT link"),
    ("/missing.txt", "HTTP 404"),
    ("/downloads/notes.txt", "not a Comprehensive Rules text"),
])
def test_failed_update_is_one_line_and_leaves_data_untouched(mini_data_dir, server, path, message):
    before = catalog(mini_data_dir)
    r = run(mini_data_dir, "update", "--from", server + path, "--no-index")
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert catalog(mini_data_dir) == before


def test_no_network_is_a_clear_error(mini_data_dir, closed_port):  # noqa: F811
    before = catalog(mini_data_dir)
    r = run(mini_data_dir, "update", "--page", f"http://127.0.0.1:{closed_port}/en/rules")
    assert r.exit_code == 2 and "cannot reach" in r.output
    assert catalog(mini_data_dir) == before


def test_update_from_a_missing_file_is_a_usage_error(tmp_path):
    r = run(tmp_path, "update", "--from", str(tmp_path / "nope.txt"))
    assert r.exit_code == 2 and "no such file" in r.output


@pytest.mark.slow
@pytest.mark.archive
def test_update_from_a_folder_imports_each_release_and_warns_on_truncation(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("2013-02-01.txt", "2013-04-29.txt", "2003-03-15.txt"):
        shutil.copy(ARCHIVE / name, folder / name)
    data = tmp_path / "data"
    r = run(data, "update", "--from", str(folder), "--no-index")
    assert r.exit_code == 0, r.output
    assert "Imported 3 of 3 releases" in r.output
    assert "2013-02-01 is incomplete" in r.output
    dates = [x["effective_date"] for x in json.loads(run(data, "releases", "--json").output)]
    assert dates == ["2003-03-15", "2013-02-01", "2013-05-01"]
    report = json.loads(run(data, "--release", "2013-02-01", "report", "--json").output)
    assert report["complete"] is False and report["unplaced_lines"] == 0


@pytest.mark.archive
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_update_from_the_whole_archive_imports_all_114(tmp_path):
    r = run(tmp_path, "update", "--from", str(ARCHIVE), "--no-index")
    assert r.exit_code == 0, r.output
    assert "Imported 114 of 114 releases" in r.output
    rows = json.loads(run(tmp_path, "releases", "--json").output)
    assert len(rows) == 114 and all(x["unplaced_lines"] == 0 for x in rows)
    assert [x["effective_date"] for x in rows if not x["complete"]] == ["2013-02-01"]


@pytest.mark.slow
@pytest.mark.archive
def test_unresolved_reference_is_reported_not_dropped(tmp_path):
    run(tmp_path, "update", "--from", str(ARCHIVE / "2026-01-16.txt"), "--no-index")
    report = json.loads(run(tmp_path, "report", "--json").output)
    assert {"from": "glossary:Map", "text": "rule 110.10", "missing": ["110.10"]} in \
        report["unresolved_references"]


def test_repair_of_a_healthy_store_changes_nothing(mini_data_dir):
    before = catalog(mini_data_dir)
    r = run(mini_data_dir, "repair")
    assert r.exit_code == 0 and r.output == "1 release in good order; nothing to repair.\n"
    assert catalog(mini_data_dir) == before


@pytest.mark.slow
@pytest.mark.archive
def test_a_second_folder_import_skips_what_is_already_stored(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("2003-03-15.txt", "2013-04-29.txt"):
        shutil.copy(ARCHIVE / name, folder / name)
    data = tmp_path / "data"
    assert run(data, "update", "--from", str(folder), "--no-index").exit_code == 0
    before = catalog(data)
    r = run(data, "update", "--from", str(folder), "--no-index")
    assert r.exit_code == 0, r.output
    assert "Imported 0 of 2 releases" in r.output and "(2 already up to date)" in r.output
    assert catalog(data) == before


@pytest.mark.slow
def test_a_folder_import_prints_a_line_per_release_when_not_on_a_terminal(tmp_path):
    # In a log (stderr is a file or a pipe) there is no progress bar: a line
    # per release as it is stored, instead of silence until the end.
    import subprocess
    import sys

    from conftest import FIXTURES

    mini = (FIXTURES / "mini_cr.txt").read_bytes()
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_bytes(mini)
    (folder / "b.txt").write_bytes(mini.replace(b"March 3, 2031", b"April 4, 2032"))
    r = subprocess.run([sys.executable, "-m", "crsearch", "--data-dir", str(tmp_path / "data"),
                        "update", "--from", str(folder), "--no-index", "--jobs", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == ["[1/2] a.txt", "[2/2] b.txt"]
    assert "\r" not in r.stderr and "Imported 2 of 2 releases" in r.stdout
