"""cite-check --fix keeps short ranges and lists short ("601.2a-h" -> "601.2b-i")."""

from __future__ import annotations

import pytest
from conftest import run

from crsearch.desk import citecheck


def fixed(text, moves):
    """``renumbered`` with the citations ``moves`` renumbers (id -> now) moved."""
    found = citecheck.find(text)
    for c in found:
        if c.id in moves:
            c.status, c.now = "moved", moves[c.id]
    return citecheck.renumbered(text, found)


@pytest.mark.parametrize("text, moves, want", [
    # Both ends moved within one rule: the end keeps its short form.
    ("rules 601.2a-h apply", {"601.2a": "601.2b", "601.2h": "601.2i"}, "rules 601.2b-i apply"),
    ("rules 601.2a–h apply", {"601.2a": "601.2b", "601.2h": "601.2i"}, "rules 601.2b–i apply"),
    # Only the end moved.
    ("see 601.2f-h.", {"601.2h": "601.2i"}, "see 601.2f-i."),
    # A short rule number after a rule: "119.7-8".
    ("rules 119.7-8", {"119.7": "119.8", "119.8": "119.9"}, "rules 119.8-9"),
    # Lists written short stay short.
    ("rules 702.19b, c", {"702.19b": "702.19c", "702.19c": "702.19d"}, "rules 702.19c, d"),
    # The end must be written out when what its short form leaves out changed.
    ("rules 601.2a-h", {"601.2a": "601.3a"}, "rules 601.3a-601.2h"),
    ("rules 601.2a-h", {"601.2a": "601.3a", "601.2h": "601.3h"}, "rules 601.3a-h"),
    ("rules 502.9b-c", {"502.9b": "702.19b", "502.9c": "702.19d"}, "rules 702.19b-d"),
    # Nothing moved: nothing changes.
    ("rules 601.2a-h", {}, "rules 601.2a-h"),
])
def test_fix_keeps_short_ranges_short(text, moves, want):
    assert fixed(text, moves) == want


def test_cli_fix_writes_a_moved_range_short(cite_pair_dir, tmp_path):
    f = tmp_path / "old.md"
    f.write_text("Stomp: rules 201.2a-c, and rule 104.5a.\n", encoding="utf-8")
    r = run(cite_pair_dir, "cite-check", str(f), "--as-of", "2013-01-01", "--fix")
    assert r.exit_code == 1, r.output
    assert f.read_text(encoding="utf-8") == "Stomp: rules 201.3a-c, and rule 104.5a.\n"
