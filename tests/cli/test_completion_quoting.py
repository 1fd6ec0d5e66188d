"""Completion items reach the command line as one literal word each, in the real shells.

A crafted release names glossary terms after shell syntax: a glob (``/*``,
``Glob*``), spaces, quotes, a command substitution.  Whatever a term holds,
completing it must put exactly that term on the line, as one word, and run
nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

CRAFTED_TERMS = ["/*", "Glob*", "Glob [ab]?", "Glob $(touch pwned) `touch pwned2` 'q' \"d\" \\ z",
                 "Glob ~ ; & | > < # !x"]


@pytest.fixture(scope="module")
def crafted_data_dir(tmp_path_factory) -> Path:
    """A data dir whose one release has glossary terms made of shell syntax."""
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    entries = b"".join(t.encode() + b"\nA crafted term. See rule 100.1.\n\n" for t in CRAFTED_TERMS)
    data = (FIXTURES / "mini_cr.txt").read_bytes().replace(b"Glossary\n\nGadget",
                                                           b"Glossary\n\n" + entries + b"Gadget", 1)
    root = tmp_path_factory.mktemp("crafted") / "data"
    results = import_sources([Source("crafted.txt", data)], Store(root), build_index=False)
    assert results[0].error is None, results[0].error
    return root


@pytest.fixture()
def here(tmp_path) -> Path:
    """A working folder holding files a glob would pick up."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    for name in ("Glob-file-1", "Glob-file-2", "Globa", "Glob x"):
        (folder / name).write_text("")
    return folder


def _run(shell: str, script: str, data_dir: Path, cwd: Path) -> str:
    path = shutil.which(shell)
    assert path, f"{shell} is needed for this test: run .ci/setup-system (apt-get install {shell})"
    bin_dir = str(Path(sys.executable).parent)  # where the crsearch command is
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
           "CRSEARCH_DATA": str(data_dir), "HOME": str(cwd.parent)}
    out = subprocess.run([path, "-c", script], env=env, capture_output=True, text=True,
                         timeout=60, cwd=cwd)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _bash_words(data_dir: Path, cwd: Path, typed: str) -> list[list[str]]:
    """What bash puts on the line for each item offered after ``crsearch define TYPED``:
    each item is read back as the shell reads a command line, word by word."""
    script = ('eval "$(crsearch completion bash)"; '
              f"COMP_WORDS=(crsearch define '{typed}'); COMP_CWORD=2; "
              '_crsearch_completion crsearch; '
              'for item in "${COMPREPLY[@]}"; do eval "set -- $item"; '
              'printf "%s\\0" "$#" "$@"; done')
    raw = _run("bash", script, data_dir, cwd).split("\0")[:-1]
    items = []
    while raw:
        n = int(raw.pop(0))
        items.append(raw[:n])
        del raw[:n]
    return items


@pytest.mark.slow
@pytest.mark.parametrize("typed, want", [
    ("/", ["/*"]),
    ("Glob", [t for t in CRAFTED_TERMS if t.startswith("Glob")]),
    ("Glob\\*", ["Glob*"]),
    ("Lev", ["Lever"]),
])
def test_bash_puts_each_item_on_the_line_as_one_literal_word(crafted_data_dir, here, typed, want):
    got = _bash_words(crafted_data_dir, here, typed)
    assert all(len(words) == 1 for words in got), got
    assert sorted(w[0] for w in got) == sorted(want)
    assert not (here / "pwned").exists() and not (here / "pwned2").exists()


@pytest.mark.slow
def test_bash_completes_a_term_with_spaces_as_one_word(latest_data_dir, tmp_path):
    got = _bash_words(latest_data_dir, tmp_path, "leth")
    assert ["Lethal Damage"] in got


@pytest.mark.slow
def test_bash_rule_numbers_are_unchanged(crafted_data_dir, here):
    script = ('eval "$(crsearch completion bash)"; '
              'COMP_WORDS=(crsearch rule 101.2); COMP_CWORD=2; _crsearch_completion crsearch; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    got = _run("bash", script, crafted_data_dir, here).split()
    assert got[:3] == ["101.2", "101.2a", "101.2b"]


@pytest.mark.slow
def test_zsh_adds_each_item_as_one_literal_word(crafted_data_dir, here):
    # compadd works only inside a completion widget: a stand-in prints what it
    # is given (compadd itself quotes what it inserts).
    script = ('autoload -Uz compinit && compinit -u -d "$HOME/.zcompdump" && '
              'eval "$(crsearch completion zsh)" && '
              'compadd() { print -rN -- "${completions[@]}" }; '
              '_describe() { print -rN -- "${(@P)2}" }; '
              'words=(crsearch define Glob); CURRENT=3; _crsearch_completion')
    got = _run("zsh", script, crafted_data_dir, here).split("\0")[:-1]
    assert sorted(got) == sorted(t for t in CRAFTED_TERMS if t.startswith("Glob"))
    assert not (here / "pwned").exists()


@pytest.mark.slow
def test_fish_offers_each_item_as_one_literal_word(crafted_data_dir, here):
    got = _run("fish", "crsearch completion fish | source; complete -C 'crsearch define Glob'",
               crafted_data_dir, here).splitlines()
    assert sorted(got) == sorted(t for t in CRAFTED_TERMS if t.startswith("Glob"))
    got = _run("fish", "crsearch completion fish | source; complete -C 'crsearch define /'",
               crafted_data_dir, here).splitlines()
    assert got == ["/*"]
    assert not (here / "pwned").exists()
