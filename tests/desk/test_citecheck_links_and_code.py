"""cite-check: a citation is prose; numbers in links, HTML and code are skipped.

URLs (their path, query and fragment), Markdown link destinations, HTML
tags and their attributes, inline code and fenced code blocks are left as
written by --fix, alike, and reported as skipped in the text output and
in --json.
"""

from __future__ import annotations

import json

import pytest
from conftest import run

from crsearch.desk import citecheck

# 502.9b (trample in 2003) is 702.19b today.
ARTICLE = """\
# Trample, rule 502.9b

Trample was rule 502.9b in prose.
See [rule 502.9b](https://cr.example/502.html?rule=502.9b#502.9b) for more.
Read https://cr.example/rules/502.9b/ or <https://cr.example/?rule=502.9b#502.9b>.
Relative: [old](502.html#502.9b) and 502.html#502.9b and page?rule=502.9b.
<a href="502.html#502.9b" title="rule 502.9b">the old trample</a> is rule 502.9b.
Inline `rule 502.9b` code, ``code with ` and 502.9b`` too, <code>CR 502.9b</code>.

```text
crsearch rule 502.9b
```

~~~
rule 502.9b
~~~

    Indented notes: rule 502.9b is prose.

[ref]: https://cr.example/502.html#502.9b
The end: CR 502.9b.
"""
# The prose citations, which --fix renumbers: (line, column).
PROSE = [(1, 17), (3, 18), (4, 11), (7, 75), (18, 26), (21, 13)]



def test_fix_renumbers_prose_only(cite_data_dir, tmp_path):
    f = tmp_path / "article.md"
    f.write_text(ARTICLE, encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f), "--fix")
    assert r.exit_code == 1, r.output
    lines = ARTICLE.splitlines(keepends=True)
    for ln, col in PROSE:
        k = ln - 1
        assert lines[k][col - 1:col - 1 + 6] == "502.9b", (ln, lines[k])
        lines[k] = lines[k][:col - 1] + "702.19b" + lines[k][col - 1 + 6:]
    assert f.read_text(encoding="utf-8") == "".join(lines)
    assert f"Renumbered {len(PROSE)} citation(s)" in r.output


def test_json_reports_each_skipped_citation_and_where(cite_data_dir, tmp_path):
    f = tmp_path / "article.md"
    f.write_text(ARTICLE, encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f), "--json")
    assert r.exit_code == 1, r.output
    cites = json.loads(r.output)["citations"]
    assert all(c["id"] == "502.9b" for c in cites)
    prose = [(c["line"], c["column"]) for c in cites if c["status"] != "skipped"]
    assert prose == PROSE
    assert {c["status"] for c in cites if (c["line"], c["column"]) in PROSE} == {"moved"}
    skipped = {}
    for c in cites:
        if c["status"] == "skipped":
            assert "now" not in c and "nearest" not in c
            skipped.setdefault(c["line"], []).append(c["inside"])
    assert skipped == {
        4: ["url", "url"],                      # the link's query and fragment
        5: ["url", "url", "url"],               # a URL's path; an autolink's query and fragment
        6: ["url", "url", "url"],               # relative links, pages and queries
        7: ["html", "html"],                    # href and title attributes
        8: ["code", "code", "code"],            # inline code, HTML code
        11: ["code"], 15: ["code"],             # fenced blocks
        20: ["url"],                            # a reference definition
    }


def test_text_output_lists_the_skipped_ones(cite_data_dir, tmp_path):
    f = tmp_path / "article.md"
    f.write_text(ARTICLE, encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f))
    assert r.exit_code == 1, r.output
    assert f"{f}:4:52: 502.9b skipped: inside a URL, left as written" in r.output
    assert f"{f}:7:19: 502.9b skipped: inside an HTML tag, left as written" in r.output
    assert f"{f}:11:15: 502.9b skipped: inside code, left as written" in r.output
    summary = r.output.rstrip().splitlines()[-1]
    assert summary.startswith(f"{f}: 6 citations checked against 2026-08-07")
    assert summary.endswith("0 ok, 6 moved, 0 mismatched, 0 missing; "
                            "16 skipped in links, HTML or code")


def test_only_skipped_citations_exit_zero(cite_data_dir, tmp_path):
    f = tmp_path / "links.md"
    f.write_text("See [the rule](https://cr.example/502.html#502.9b).\n", encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f), "--fix")
    assert r.exit_code == 0, r.output
    assert "0 citations checked" in r.output and "1 skipped" in r.output
    assert f.read_text(encoding="utf-8") == "See [the rule](https://cr.example/502.html#502.9b).\n"


@pytest.mark.parametrize("text", [
    "A stray ` backtick, then rule 702.19c.",
    "Two paragraphs: `open\n\nrule 702.19c and `close`.",
    "Maths: 3 < 4 and rule 702.19c > 700.",
    "Is it rule 702.19c?",
    "C# and rule 702.19c.",
    "# Rule 702.19c",
])
def test_prose_that_only_looks_like_code_or_links_is_still_checked(text):
    cites = citecheck.find(text)
    assert [(c.id, c.inside) for c in cites if c.id == "702.19c"] == [("702.19c", None)]


def test_an_unclosed_fence_runs_to_the_end():
    cites = citecheck.find("Rule 702.19c.\n\n```\nrule 702.19c\n")
    assert [c.inside for c in cites] == [None, "code"]
