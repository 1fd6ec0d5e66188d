""".ci/setup-system: installs what the tests need when it is missing, and says so.

apt-get, sudo, id and python3 are stand-ins that write down how they were
called, on a PATH without zsh, fish, node and npm: the script runs as on a fresh Debian.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

SCRIPT = ROOT / ".ci" / "setup-system"


def _stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


@pytest.fixture()
def machine(tmp_path):
    """A PATH of stand-ins: a root shell on a machine without zsh, fish, node and npm."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    _stub(bin_dir, "apt-get", f'echo "apt-get $*" >> {log}')
    _stub(bin_dir, "sudo", f'echo "sudo $1" >> {log}; exec "$@"')
    _stub(bin_dir, "id", 'echo "${FAKE_UID:-0}"')
    _stub(bin_dir, "python3", 'exit "${FAKE_NO_VENV:-0}"')
    (bin_dir / "env").symlink_to("/usr/bin/env")
    return bin_dir, log


def _run(bin_dir: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT)], env={"PATH": str(bin_dir), **env}, capture_output=True,
                          text=True, timeout=60)


def _chromium() -> list[str]:
    return [] if os.access("/usr/bin/chromium", os.X_OK) else ["chromium"]


def test_as_root_it_installs_what_is_missing_and_says_so(machine):
    bin_dir, log = machine
    r = _run(bin_dir)
    assert r.returncode == 0, r.stderr
    want = " ".join([*_chromium(), "zsh", "fish", "nodejs", "npm"])
    assert f"setup-system: installing {want} (apt-get install)" in r.stdout
    assert log.read_text().splitlines() == ["apt-get update -qq", f"apt-get install -y -qq {want}"]


def test_as_a_user_it_installs_through_sudo(machine):
    bin_dir, log = machine
    r = _run(bin_dir, FAKE_UID="1000", FAKE_NO_VENV="1")
    assert r.returncode == 0, r.stderr
    want = " ".join([*_chromium(), "zsh", "fish", "python3-venv", "nodejs", "npm"])
    assert f"installing {want} (sudo apt-get install)" in r.stdout
    assert log.read_text().splitlines() == ["sudo env", "apt-get update -qq", "sudo env",
                                            f"apt-get install -y -qq {want}"]


def test_without_root_or_sudo_it_says_what_to_install(machine):
    bin_dir, log = machine
    (bin_dir / "sudo").unlink()
    r = _run(bin_dir, FAKE_UID="1000")
    assert r.returncode == 1
    assert "missing:" in r.stderr and "zsh fish" in r.stderr and "root" in r.stderr
    assert not log.exists()


def test_with_the_shells_and_node_present_it_installs_only_the_rest(machine):
    bin_dir, log = machine
    for shell in ("zsh", "fish", "node", "npm"):
        _stub(bin_dir, shell, "exit 0")
    r = _run(bin_dir)
    assert r.returncode == 0, r.stderr
    if _chromium():
        assert log.read_text().splitlines()[-1] == "apt-get install -y -qq chromium"
    else:
        assert "chromium, zsh, fish, python3-venv, node and npm are installed" in r.stdout
        assert not log.exists()


def test_ci_and_the_readme_run_it_before_the_tests():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ".ci/setup-system" in ci
    assert ci.index(".ci/setup-system") < ci.index("python3 -m venv .venv")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_command = readme.split("```")[3].strip()
    assert test_command.startswith("sh\n.ci/setup-system && ")
