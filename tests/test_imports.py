"""The rule-lookup path stays light: no whoosh, jinja2 or bs4, no whole release."""

import json
import os
import subprocess
import sys

import pytest


def run_python(code: str, env_extra: dict) -> dict:
    env = {**os.environ, **env_extra}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def spied(args: list[str], heavy: tuple[str, ...], files: tuple[str, ...]) -> str:
    """Code that runs ``crsearch ARGS`` in process and prints, as JSON, which of
    the ``heavy`` modules it loaded and the files it opened whose path holds one
    of ``files``."""
    return f"""
import builtins, json, sys
opened = []
real_open = builtins.open
def spy(file, *a, **k):
    opened.append(str(file))
    return real_open(file, *a, **k)
builtins.open = spy
from crsearch.cli.main import cli
try:
    cli({args!r}, prog_name="crsearch", standalone_mode=False)
finally:
    builtins.open = real_open
heavy = sorted(m for m in {heavy!r} if m in sys.modules)
print(json.dumps({{"heavy": heavy, "opened": [p for p in opened if any(f in p for f in {files!r})]}}))
"""


LOOKUP = spied(["rule", "702.19c"], ("whoosh", "jinja2", "bs4", "platformdirs", "sqlite3"), ("releases",))


def test_rule_lookup_imports_nothing_heavy_and_reads_one_chapter(latest_data_dir):
    result = run_python(LOOKUP, {"CRSEARCH_DATA": str(latest_data_dir)})
    assert result["heavy"] == []
    names = [p.rsplit("/", 2)[-2:] for p in result["opened"]]
    # chapters.z once: the header and chapter 702's block, for the rule and its parent.
    assert [n[-1] for n in names].count("chapters.z") == 1
    assert not any(n[-1] == "release.json" for n in names)


CARD = spied(["card", "notion thief"],
             ("whoosh", "jinja2", "bs4", "platformdirs", "sqlite3", "numpy", "ijson",
              "crsearch.search.engine", "crsearch.cli.search", "crsearch.cli.site"),
             ("releases", "cards"))


def test_card_lookup_imports_nothing_heavy_and_reads_one_shard(cards_data_dir):
    run_python(CARD, {"CRSEARCH_DATA": str(cards_data_dir)})  # explain's term table, built once
    result = run_python(CARD, {"CRSEARCH_DATA": str(cards_data_dir)})
    assert result["heavy"] == []
    names = sorted(p.rsplit("/", 1)[-1] for p in result["opened"] if "/cards/" in p)
    assert names == ["catalog.json", "n.json", "names.tsv"]
    assert not any(p.endswith(("release.json.gz", "release.json")) for p in result["opened"])


QUESTION = spied(["search", "can a tapped creature block an attacking creature?"],
                 ("dataclasses", "copy", "whoosh.searching"), ())


def test_a_question_makes_no_dataclass(indexed_data_dir):
    # A question's records and ranking knobs are plain classes: dataclasses'
    # import and set-up cost a search some 45 M instructions (#24).
    result = run_python(QUESTION, {"CRSEARCH_DATA": str(indexed_data_dir)})
    assert result["heavy"] == []


def test_package_import_is_light():
    code = ("import sys, json, crsearch, crsearch.cli.main; "
            "print(json.dumps(sorted(m for m in ('whoosh','jinja2','bs4') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


@pytest.mark.slow
def test_no_module_imports_a_private_name_from_another():
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "crsearch"
    modules = {p.stem for p in package.rglob("*.py")}
    found = []
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crsearch"):
                found += [f"{path.name}: {a.name}" for a in node.names
                          if a.name.startswith("_") and a.name != "__version__"]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                  and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                  and node.value.id in modules - {path.stem}):
                found.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert found == []


def test_piped_rule_lookup_skips_json_pathlib_and_shutil(latest_data_dir):
    # -S: no site-packages, so the editable install's finder (which imports
    # pathlib itself) stays out; the checkout and click's folder stand in
    # for a regular install.
    from pathlib import Path

    import click

    root = Path(__file__).resolve().parent.parent
    code = ("import sys\n"
            "from crsearch.cli.main import cli\n"
            "cli(['rule', '702.19c'], prog_name='crsearch', standalone_mode=False)\n"
            "print(sorted(m for m in ('json', 'pathlib', 'shutil', 'dataclasses', 'difflib', "
            "'crsearch.search.engine', 'crsearch.store.repair') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "CRSEARCH_DATA": str(latest_data_dir),
                                          "PYTHONPATH": os.pathsep.join(
                                              [str(root), str(Path(click.__file__).parent.parent)])})
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_loading_every_command_leaves_the_mcp_sdk_unloaded():
    # `crsearch search` (or --help) loads every command module, `mcp` among
    # them: the SDK and pydantic load only when `crsearch mcp` runs.
    code = ("import sys, json\n"
            "from crsearch.cli.main import cli\n"
            "try:\n"
            "    cli(['--help'], prog_name='crsearch', standalone_mode=False)\n"
            "finally:\n"
            "    print(json.dumps([m for m in ('mcp', 'pydantic', 'anyio', 'crsearch.cli.mcp_server') "
            "if m in sys.modules] + ['crsearch.cli.mcp' in sys.modules]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [True]
