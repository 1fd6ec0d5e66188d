"""The search's plain records (crsearch/search/records.py) behave as the dataclasses they replace."""

from __future__ import annotations

import pytest

from crsearch.search.fusion import Evidence
from crsearch.search.present import Hit, SearchResult
from crsearch.search.query import ParsedQuery
from crsearch.search.records import FrozenInstanceError
from crsearch.search.topics import Topic


def test_records_compare_show_and_replace_by_their_fields():
    hit = Hit("702.19b", "subrule", "Trample", "…", 1.5)
    assert hit == Hit("702.19b", "subrule", "Trample", "…", 1.5)
    assert hit != Hit("702.19b", "subrule", "Trample", "…", 2.0)
    assert hit != ("702.19b",)
    assert repr(hit).startswith("Hit(id='702.19b', kind='subrule', title='Trample',")
    with pytest.raises(TypeError):
        hash(hit)
    assert Hit("1", "rule", "", "", 0.0).highlights is not Hit("1", "rule", "", "", 0.0).highlights
    e = Evidence(bm25=0.5, topics=[1.0])
    more = e.replace(cards=[0.8])
    assert (more.bm25, more.topics, more.cards, e.cards) == (0.5, [1.0], [0.8], [])
    with pytest.raises(TypeError):
        e.replace(no_such_field=1)
    q = ParsedQuery("Trample?", "Trample?").replace(words=["trample"])
    assert (q.raw, q.words, q.filters) == ("Trample?", ["trample"], {})
    result = SearchResult("q", "2026-08-07", [hit])
    assert result.cards is None and result.notes == [] and result == SearchResult("q", "2026-08-07", [hit])


def test_a_topic_never_changes_and_can_be_a_key():
    topic = Topic(("the stack",), ("405.1",))
    assert {topic: 1}[Topic(("the stack",), ("405.1",))] == 1
    with pytest.raises(FrozenInstanceError):
        topic.rules = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del topic.cues
