"""Every command documents itself with an example and appears in the README."""

from pathlib import Path

import click
import pytest

from crsearch.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def all_commands():
    ctx = click.Context(cli)
    out = []
    for name in cli.list_commands(ctx):
        cmd = cli.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            sub = click.Context(cmd, parent=ctx)
            out += [(f"{name} {s}", cmd.get_command(sub, s)) for s in cmd.list_commands(sub)]
        else:
            out.append((name, cmd))
    return out


COMMANDS = all_commands()


def test_the_expected_commands_exist():
    names = {n for n, _ in COMMANDS}
    assert {"update", "rule", "toc", "releases", "report", "export", "search", "define",
            "keyword", "keywords", "index", "site build", "site serve"} <= names


@pytest.mark.parametrize("name, command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_help_ends_with_an_example(name, command):
    assert command.help and "Example:" in command.help, name


@pytest.mark.parametrize("name", [n for n, _ in COMMANDS])
def test_command_is_in_the_readme(name):
    assert f"crsearch {name}" in README or f"crsearch --release 2026-06-19 {name}" in README, name


ROOT = Path(__file__).resolve().parent.parent


def _readme_block(n: int) -> str:
    """The command in the README's n-th code block (0-based)."""
    block = README.split("```")[2 * n + 1]
    assert block.startswith("sh\n"), block
    return block[3:].strip()


def test_readme_opens_with_install_and_test_commands_in_a_venv():
    install, test = _readme_block(0), _readme_block(1)
    # Debian/Ubuntu's Python is externally managed: the first block must make
    # and use a venv before pip, and the second must run inside it.
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && ")
    assert "crsearch update --from ../shared/cr/archive/" in install and "crsearch rule" in install
    # It first installs what the tests need from the system (.ci/setup-system).
    assert test.startswith(".ci/setup-system && python3 -m venv .venv && . .venv/bin/activate && "
                           "pip install -e \".[test]\"")
    assert test.endswith("python -m pytest -q")


def test_ci_runs_the_readme_test_command_in_a_venv():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in ci.splitlines()]
    assert _readme_block(1) in lines
    assert lines.index("python3 -m venv .venv") < lines.index(_readme_block(1))
    assert lines.index(".ci/setup-system") < lines.index("python3 -m venv .venv")
    setup = (ROOT / ".ci" / "setup-system").read_text(encoding="utf-8")
    for package in ("chromium", "zsh", "fish", "python3-venv"):
        assert f'missing="$missing {package}"' in setup
    assert not any(line.startswith(("pip ", "python3 -m pip")) for line in lines)


def test_pytest_has_a_timeout(pytestconfig):
    # pytest-timeout reads `timeout` from [tool.pytest.ini_options].
    assert 0 < float(pytestconfig.getini("timeout")) <= 600


def test_long_output_is_paged_on_a_terminal(monkeypatch):
    from crsearch import cli as cli_module

    paged = []
    monkeypatch.setattr(cli_module.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cli_module.shutil, "get_terminal_size", lambda: __import__("os").terminal_size((80, 10)))
    monkeypatch.setattr(cli_module.click, "echo_via_pager", lambda text, color=None: paged.append(text))
    cli_module.emit("\n".join(f"line {i}" for i in range(50)))
    assert paged and paged[0].count("\n") == 49
    cli_module.emit("short")
    assert len(paged) == 1
