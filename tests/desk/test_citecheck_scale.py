"""cite-check's time grows with the text's length, never faster.

A 5 MB text of citations took 53 s and 969 MB: "did you mean" sorted every
rule id again for each missing citation, and each bare number copied its
whole paragraph.  bench/citecheck_scale.py measures the whole command; these
tests pin the causes down without depending on the machine's speed.
"""

from __future__ import annotations

import time

import pytest
from conftest import run

from crsearch.desk import citecheck
from crsearch.store.datadir import Store

SENTENCE = "The rules say 702.19 and CR 702.250 apply (see also 702.19c). "


@pytest.mark.slow
def test_a_missing_number_cited_many_times_is_looked_up_once(cite_data_dir, monkeypatch):
    from crsearch.rules import suggest

    built, asked = [], []
    real_init, real_call = suggest.NearIds.__init__, suggest.NearIds.__call__

    def init(self, pool):
        built.append(1)
        real_init(self, pool)

    def call(self, id, limit=5):
        asked.append(id)
        return real_call(self, id, limit)

    monkeypatch.setattr(suggest.NearIds, "__init__", init)
    monkeypatch.setattr(suggest.NearIds, "__call__", call)
    text = SENTENCE * 2000 + "And CR 702.251, CR 702.252."
    result = citecheck.check(Store(cite_data_dir), text)
    missing = [c for c in result["citations"] if c["status"] == "missing"]
    assert len(missing) == 2002 and missing[0]["nearest"]
    assert sorted(asked) == ["702.250", "702.251", "702.252"]
    assert built == [1]


def test_a_paragraph_is_read_for_rules_words_once(monkeypatch):
    real = citecheck._CONTEXT

    class Counting:
        calls = 0

        def search(self, *args):
            Counting.calls += 1
            return real.search(*args)

    monkeypatch.setattr(citecheck, "_CONTEXT", Counting())
    text = SENTENCE * 5000  # one paragraph, 15,000 citations, 5,000 of them bare rules
    assert len(citecheck.find(text)) == 15000
    assert Counting.calls == 1


@pytest.mark.slow
def test_a_megabyte_of_missing_citations_is_checked_in_seconds(cite_data_dir):
    text = SENTENCE * (1_000_000 // len(SENTENCE))
    t = time.perf_counter()
    result = citecheck.check(Store(cite_data_dir), text)
    took = time.perf_counter() - t
    assert result["problems"] >= 14000
    assert took < 60, took  # was about 0.1 s for each of the 14,000 missing ones


@pytest.mark.slow
def test_json_of_a_long_text_is_written_in_pieces_and_reads_the_same(cite_data_dir, tmp_path):
    import json

    f = tmp_path / "long.md"
    f.write_text(SENTENCE * 1500 + "Link: https://cr.example/?rule=702.19c\n", encoding="utf-8")
    r = run(cite_data_dir, "cite-check", str(f), "--json")
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert len(data["citations"]) == 4501 and data["citations"][-1]["status"] == "skipped"
    assert r.output == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
