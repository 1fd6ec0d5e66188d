"""The docs are tested: every command documents itself with an example and appears
in the guide (docs/), the guide builds in strict mode, its Python examples print what
they say, and the README opens with the set-up commands and links to the guide."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from crsearch import Rules
from crsearch.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")


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
NAMES = [n for n, _ in COMMANDS]


def doc_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block of a Markdown page, in order."""
    return [(m.group(1), m.group(2))
            for m in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.S | re.M)]


def test_the_expected_commands_exist():
    assert {"update", "rule", "toc", "releases", "report", "export", "search", "define",
            "keyword", "keywords", "index", "site build", "site serve"} <= set(NAMES)


@pytest.mark.parametrize("name, command", COMMANDS, ids=NAMES)
def test_command_help_ends_with_an_example(name, command):
    assert command.help and "Example:" in command.help, name


@pytest.mark.parametrize("name", NAMES)
def test_command_is_listed_on_the_cli_page(name):
    page = (DOCS / "cli" / "index.md").read_text(encoding="utf-8")
    assert f"`crsearch {name}`" in page, f"add `crsearch {name}` to docs/cli/index.md"


@pytest.mark.parametrize("name", NAMES)
def test_command_has_an_example_in_the_guide(name):
    # Global options may stand between: `crsearch --release 2026-01-16 report`.
    used = re.compile(rf"\bcrsearch (?:--[\w-]+ \S+ )*{re.escape(name)}\b")
    examples = [body for page in doc_pages() if page.name != "reference.md"
                for lang, body in code_blocks(page.read_text(encoding="utf-8"))
                if lang in ("sh", "text")]
    assert any(used.search(body) for body in examples), f"no example of `crsearch {name}` in docs/"


def test_cli_reference_is_generated_from_the_click_group():
    page = (DOCS / "cli" / "reference.md").read_text(encoding="utf-8")
    assert ":module: crsearch.cli.main" in page and ":command: cli" in page
    assert ":list_subcommands: true" in page


def test_every_rules_method_is_in_the_api_reference():
    page = (DOCS / "api.md").read_text(encoding="utf-8")
    assert "::: crsearch.api.Rules" in page
    public = [n for n in vars(Rules) if not n.startswith("_")]
    undocumented = [n for n in public if not getattr(Rules, n).__doc__
                    and not (isinstance(vars(Rules)[n], property) and vars(Rules)[n].fget.__doc__)]
    assert not undocumented, f"Rules methods without a docstring (the reference shows none): {undocumented}"


@pytest.mark.slow
def test_docs_build_in_strict_mode(tmp_path):
    """The whole guide, generated references included, with warnings as errors."""
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                        "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                       capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
    reference = (tmp_path / "site" / "cli" / "reference" / "index.html").read_text(encoding="utf-8")
    for name in NAMES:
        assert f'id="crsearch-{name.replace(" ", "-")}"' in reference, name
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="crsearch.api.Rules.search"' in api


# -- the README: set-up first, short, links to the guide -------------------------------

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
    for package in ("chromium", "zsh", "fish", "python3-venv", "nodejs", "npm"):
        assert f'missing="$missing {package}"' in setup
    assert not any(line.startswith(("pip ", "python3 -m pip")) for line in lines)


def test_ci_builds_the_docs_in_strict_mode():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r'^python -m pip install .*-e "\.\[[^"]*\bdocs\b[^"]*\]"', ci, re.M), ci
    assert re.search(r"^(?:\w+=\S+ )*mkdocs build --strict .*--site-dir ", ci, re.M), ci


def test_readme_is_short_and_links_to_the_guide():
    assert len(README.splitlines()) <= 250
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)]*)?\)", README)
    assert {"docs/index.md", "docs/cli/index.md", "docs/api.md", "docs/search.md", "docs/desk.md",
            "docs/site.md", "docs/formats.md"} <= set(links), links
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert not missing, missing


# -- every Python example in docs/ runs and prints what it says -------------------------

def python_examples(page: Path) -> list[str]:
    """The page's ```python blocks that are scripts (a ``>>>`` session is not run)."""
    return [body for lang, body in code_blocks(page.read_text(encoding="utf-8"))
            if lang == "python" and not body.lstrip().startswith(">>>")]


PAGES_WITH_PYTHON = [p for p in doc_pages() if python_examples(p)]


def test_the_api_page_has_python_examples():
    assert DOCS / "api.md" in PAGES_WITH_PYTHON and len(python_examples(DOCS / "api.md")) >= 6


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES_WITH_PYTHON, ids=[str(p.relative_to(DOCS)) for p in PAGES_WITH_PYTHON])
def test_docs_python_examples_print_what_they_say(page, latest_indexed_data_dir, monkeypatch, capsys):
    """A page's blocks run in order in one namespace; each line ending in
    ``# → TEXT`` must print TEXT, and nothing else is printed."""
    monkeypatch.setenv("CRSEARCH_DATA", str(latest_indexed_data_dir))
    monkeypatch.chdir(ROOT)  # the examples' paths are the README's: ../shared/cr/archive
    namespace: dict = {}
    for block in python_examples(page):
        expected = [line.split("# → ", 1)[1].rstrip() for line in block.splitlines()
                    if "# → " in line]
        exec(compile(block, str(page.relative_to(ROOT)), "exec"), namespace)
        printed = capsys.readouterr().out.splitlines()
        assert printed == expected, block


# -- the house settings the README promises ---------------------------------------------

def test_pytest_has_a_timeout(pytestconfig):
    # pytest-timeout reads `timeout` from [tool.pytest.ini_options].
    assert 0 < float(pytestconfig.getini("timeout")) <= 600


def test_long_output_is_paged_on_a_terminal(monkeypatch):
    from crsearch.cli import main as cli_module

    paged = []
    monkeypatch.setattr(cli_module.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cli_module.shutil, "get_terminal_size", lambda: __import__("os").terminal_size((80, 10)))
    monkeypatch.setattr(cli_module.click, "echo_via_pager", lambda text, color=None: paged.append(text))
    cli_module.emit("\n".join(f"line {i}" for i in range(50)))
    assert paged and paged[0].count("\n") == 49
    cli_module.emit("short")
    assert len(paged) == 1
