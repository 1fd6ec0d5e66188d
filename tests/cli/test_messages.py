"""Error messages: one line each, and what the user typed is echoed at most ~80 characters.

A 100 KB argument pasted by mistake must not come back as a 100 KB error.
"""

from __future__ import annotations

import pytest
from conftest import run

LONG = "x" * 100_000
#: The longest line an error may print: its own words plus an argument cut to ~80.
WIDEST = 200


def assert_short_error(r, codes=(1, 2)):
    assert r.exit_code in codes, r.output[:500]
    assert "Traceback" not in r.output
    widest = max(len(line) for line in r.output.splitlines())
    assert widest <= WIDEST, r.output[:500]
    assert "x" * 100 not in r.output
    assert "…" in r.output  # says it was cut


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["rule", LONG],
    ["rule", "702." + LONG],
    ["rule", "702.19c," + LONG],
    ["rule", "CR " + LONG],
    ["rule", "702.19c-" + LONG],
    ["toc", LONG],
    ["history", "702." + LONG],
    ["define", LONG],
    ["keyword", LONG],
    ["diff", "--kind", LONG],
    ["completion", LONG],
    ["rule", "702.19c", "--cite=" + LONG],
    ["rule", "--" + LONG],
    [LONG],
    ["cite-check", "/" + LONG],
    ["cite-check", "-", "--as-of", LONG],
], ids=lambda a: " ".join(w[:12] for w in a))
def test_a_long_argument_is_cut_in_the_error(latest_data_dir, args):
    assert_short_error(run(latest_data_dir, *args, input="CR 702.19c"))


@pytest.mark.parametrize("query", [
    "kind:" + LONG,
    "chapter:" + LONG,
    "702." + "1" * 3000,
], ids=["kind", "chapter", "digits"])
def test_a_long_search_is_cut_in_the_error(indexed_data_dir, query):
    assert_short_error(run(indexed_data_dir, "search", query))


@pytest.mark.slow
def test_the_python_api_cuts_what_it_echoes_too(latest_data_dir):
    from crsearch import Rules
    from crsearch.errors import CRSearchError

    rules = Rules.open(latest_data_dir)
    for call in (lambda: rules.define(LONG), lambda: rules.keyword(LONG),
                 lambda: rules.rule("702." + LONG), lambda: rules.diff(kind=LONG),
                 lambda: rules.history("702.19c" + LONG)):
        with pytest.raises(CRSearchError) as e:
            call()
        assert len(str(e.value)) <= WIDEST, str(e.value)[:300]
