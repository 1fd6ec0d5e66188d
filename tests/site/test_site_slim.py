"""The shipped scripts without comments (crsearch/site/slim.py): smaller,
and the same code token for token."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from crsearch.paths import templates_dir
from crsearch.site.build import STATIC
from crsearch.site.slim import slim

ROOT = Path(__file__).resolve().parents[2]
TOKENS = """
const espree = require("espree"), fs = require("fs");
const out = {};
for (const f of process.argv.slice(1)) {
  out[f] = espree.tokenize(fs.readFileSync(f, "utf8"), { ecmaVersion: "latest", sourceType: "script" })
    .map((t) => [t.type, t.value]);
}
process.stdout.write(JSON.stringify(out));
"""


def test_comment_lines_blank_lines_and_indentation_go():
    code = "/* a header\n   over lines */\nfunction f() {\n  // why\n\n  return 1; // kept\n  /* one line */\n}\n"
    assert slim(code) == "function f() {\nreturn 1; // kept\n}\n"


def test_code_after_a_comment_on_its_line_is_refused():
    with pytest.raises(ValueError, match="code after a comment"):
        slim("/* a comment\n  ends here */ var x = 1;\n")


def test_the_scripts_are_the_same_code_token_for_token(tmp_path):
    """Under node's espree (eslint's parser): every token of every shipped
    script, template literals' text too, is kept."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "espree").is_dir():
        pytest.skip("needs node and `npm ci`")
    names = [source for name, source in STATIC.items() if name.endswith(".js")]
    pairs = []
    for source in names:
        code = (templates_dir() / source).read_text(encoding="utf-8")
        slimmed = tmp_path / source.replace("/", "_")
        slimmed.write_text(slim(code), encoding="utf-8")
        pairs.append((str(templates_dir() / source), str(slimmed)))
        assert len(gzip.compress(slim(code).encode())) < len(gzip.compress(code.encode()))
    got = json.loads(subprocess.run(
        [node, "-e", TOKENS, *[p for pair in pairs for p in pair]], cwd=ROOT, check=True,
        capture_output=True, text=True, env={"NODE_PATH": str(ROOT / "node_modules")}).stdout)
    for original, slimmed in pairs:
        assert got[original] == got[slimmed], original
    assert any("rank.js" in source for source in names)
