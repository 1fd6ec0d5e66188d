"""What cite-check reads: only regular files (never blocking on a FIFO), and
UTF-16 text as text."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest
from conftest import run

TEXT = "Trample was rule 502.9b.\nToday it is CR 702.19b.\n"



def run_process(data_dir, *args, timeout=60):
    """cite-check in its own process: a read that blocks fails the test, not the run."""
    try:
        return subprocess.run([sys.executable, "-m", "crsearch", "--data-dir", str(data_dir),
                               *args], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cite-check {' '.join(args)} blocked for {timeout} s")


def one_error_line(output: str) -> str:
    assert "Traceback" not in output, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), output
    return lines[0]


# -- only regular files ------------------------------------------------------------

def bound_socket(path) -> None:
    """A Unix socket file at ``path`` (it stays after the socket is closed)."""
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))


def test_a_fifo_is_refused_at_once(cite_data_dir, tmp_path):
    fifo = tmp_path / "notes.md"
    os.mkfifo(fifo)
    r = run_process(cite_data_dir, "cite-check", str(fifo))
    assert r.returncode == 2, r.stderr
    assert "FIFO" in one_error_line(r.stderr) and "not a regular file" in r.stderr


def test_a_fifo_behind_a_symlink_is_refused_too(cite_data_dir, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "notes.md").symlink_to(tmp_path / "pipe")
    r = run_process(cite_data_dir, "cite-check", str(tmp_path / "notes.md"), "--fix")
    assert r.returncode == 2 and "FIFO" in one_error_line(r.stderr)


@pytest.mark.parametrize("make, what", [
    (lambda p: p.mkdir(), "folder"),
    (lambda p: p.symlink_to("/dev/zero"), "device"),
    (lambda p: bound_socket(p), "socket"),
], ids=["folder", "dev-zero", "socket"])
def test_other_special_files_are_named_for_what_they_are(cite_data_dir, tmp_path, make, what):
    path = tmp_path / "notes.md"
    make(path)
    r = run(cite_data_dir, "cite-check", str(path))
    assert r.exit_code == 2, r.output
    line = one_error_line(r.output)
    assert what in line and "not a regular file" in line, line


def test_a_missing_file_is_one_line(cite_data_dir, tmp_path):
    r = run(cite_data_dir, "cite-check", str(tmp_path / "gone.md"))
    assert r.exit_code == 2 and "No such file" in one_error_line(r.output)


# -- UTF-16 ---------------------------------------------------------------------------

@pytest.mark.parametrize("bom, codec", [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")])
def test_utf16_with_a_bom_is_read_and_fixed_in_utf16(cite_data_dir, tmp_path, bom, codec):
    f = tmp_path / "notes.txt"
    f.write_bytes(bom + TEXT.replace("\n", "\r\n").encode(codec))
    r = run(cite_data_dir, "cite-check", str(f), "--json")
    assert r.exit_code == 1, r.output
    cites = json.loads(r.output)["citations"]
    assert [(c["id"], c["line"], c["column"], c["status"]) for c in cites] == [
        ("502.9b", 1, 18, "moved"), ("702.19b", 2, 16, "ok")]
    r = run(cite_data_dir, "cite-check", str(f), "--fix")
    assert r.exit_code == 1 and "Renumbered 1" in r.output, r.output
    assert f.read_bytes() == bom + TEXT.replace("502.9b", "702.19b").replace(
        "\n", "\r\n").encode(codec)


@pytest.mark.parametrize("data, says", [
    (b"\xff\xfe" + "CR 702.19c".encode("utf-16-le") + b"\x00", "UTF-16"),     # odd length
    (b"\xff\xfe" + "CR 702.19c ".encode("utf-16-le") + b"\x00\xd8A\x00", "UTF-16"),  # lone surrogate
    ("CR 702.19c, rule 502.9b\n".encode("utf-16-le"), "UTF-16"),             # no BOM
], ids=["odd-length", "lone-surrogate", "no-bom"])
def test_utf16_that_cannot_be_read_says_so_and_never_binary(cite_data_dir, tmp_path, data, says):
    f = tmp_path / "notes.txt"
    f.write_bytes(data)
    r = run(cite_data_dir, "cite-check", str(f))
    assert r.exit_code == 2, r.output
    line = one_error_line(r.output)
    assert says in line and "binary" not in line, line


def test_real_binary_is_still_binary(cite_data_dir, tmp_path):
    f = tmp_path / "image.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00" + bytes(range(256)))
    r = run(cite_data_dir, "cite-check", str(f))
    assert r.exit_code == 2 and "binary" in one_error_line(r.output)
