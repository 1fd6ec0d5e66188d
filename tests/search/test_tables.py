"""`crsearch.search.tables`: the shipped tables carried into each release.

Small synthetic maps and texts for the policy; 2026-08-07, 2026-01-16 and
2023-04-14 from the shared archive for the shipped data.  The check over all
114 archived releases is in ``test_tables_archive.py`` (slow).
"""

from __future__ import annotations

import re

import pytest
from conftest import ARCHIVE

from crsearch.search import tables
from crsearch.search.asked import doc_texts
from crsearch.search.tables import Carry, Renumbering, Via
from crsearch.store.lineage import Link

MAP = """\
# numbering: 2026-08-07
# releases: 2020-01-01 2021-01-01 2026-08-07
723.1\tcontrolling another player turn\t0 - 1 722.1 2 723.1
702.19b\ttrample excess lethal assign\t0 702.17b 2 702.19b
"""
TEXTS_2021 = {"722.1": "Controlling another player during that player's turn",
              "723.1": "Ending turns and phases",
              "702.19b": "Banding: something else entirely"}


def test_the_map_is_read_as_written():
    m = Renumbering.parse(MAP)
    assert (m.numbering, m.dates) == ("2026-08-07", ["2020-01-01", "2021-01-01", "2026-08-07"])
    assert [m.number("723.1", k) for k in range(3)] == [None, "722.1", "723.1"]
    assert m.check["702.19b"] == ["trample", "excess", "lethal", "assign"]
    assert (m.nearest("2019-05-05"), m.nearest("2021-06-30"), m.index("2021-06-30")) == (0, 1, None)


def test_an_id_is_carried_and_checked_by_its_words():
    carry = Carry("2021-01-01", TEXTS_2021, table=Renumbering.parse(MAP))
    assert carry("723.1") == "722.1"  # renumbered, its words hold
    # 702.19b's number was 702.17b then: that rule is missing here, and the
    # rule now numbered 702.19b says something else: neither lands.
    assert carry("702.19b") is None
    assert carry.ids(["702.19b", "723.1", "723.1"]) == ("722.1",)


def test_an_id_the_map_does_not_know_stays_only_in_its_own_release():
    m = Renumbering.parse(MAP)
    assert Carry("2026-08-07", {"100.1": "x"}, table=m)("100.1") == "100.1"
    assert Carry("2021-01-01", {"100.1": "x"}, table=m)("100.1") is None


def test_a_release_the_map_does_not_know_is_reached_through_the_data_folder():
    m = Renumbering.parse(MAP)
    texts = {"724.1": "Controlling another player during that player's turn",
             "723.1": "Something new"}
    moved = Link("a", "b", {"moves": {"723.1": "724.1"}})
    assert Carry("2027-01-01", texts, Via("2026-08-07", [moved], forward=True), m)("723.1") == "724.1"
    # Without the data folder's lineage the id is read as numbered in the
    # nearest release the map knows, and its words tell it is not there.
    assert Carry("2027-01-01", texts, table=m)("723.1") is None
    back = Link("c", "d", {"moves": {"721.1": "722.1"}})
    old = {"721.1": TEXTS_2021["722.1"]}
    assert Carry("2021-06-01", old, Via("2021-01-01", [back], forward=False), m)("723.1") == "721.1"


def test_each_table_names_its_numbering_and_the_map_agrees():
    assert set(tables.numberings().values()) == {tables.renumbering().numbering} == {"2026-08-07"}


def test_the_map_covers_every_table_id_in_its_own_numbering():
    m = tables.renumbering()
    at = m.index(m.numbering)
    ids = {i for v in tables.table_ids().values() for i in v}
    assert len(ids) > 1900 and ids <= set(m.check)
    assert all(m.number(i, at) == i for i in ids)
    assert len(m.dates) >= 114 and m.dates == sorted(m.dates)


def test_the_map_holds_rule_numbers_and_single_words_only():
    from crsearch.paths import data_dir

    number = re.compile(r"\d{3}\.\d+[a-z]?|-")
    for line in (data_dir() / tables.MAP_FILE).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        id, words, chain = line.split("\t")
        assert number.fullmatch(id) and 1 <= len(words.split()) <= 4, line
        parts = chain.split()
        assert all(p.isdigit() for p in parts[::2]) and all(number.fullmatch(p) for p in parts[1::2])


@pytest.fixture(scope="module")
def latest_texts(latest_release):
    from crsearch.search.build import documents

    return doc_texts(documents(latest_release))


def release_texts(date: str) -> dict[str, str]:
    from crsearch.ingest.pipeline import release_from_bytes
    from crsearch.search.build import documents

    path = ARCHIVE / f"{date}.txt"
    return doc_texts(documents(release_from_bytes(path.read_bytes(), path.name)))


@pytest.mark.slow
def test_in_the_tables_own_release_every_id_stays(latest_texts):
    carry = Carry("2026-08-07", latest_texts)
    ids = {i for v in tables.table_ids().values() for i in v}
    assert {i: carry(i) for i in ids} == {i: i for i in ids}
    from crsearch.search.cardtopics import table
    from crsearch.search.topics import TOPICS

    assert tables.topics(carry) == TOPICS
    assert tables.cards(carry) == table()


def mindslaver(carry: Carry) -> tuple[str, ...]:
    from crsearch.search.topics import TOPICS

    topic = next(t for t in tables.topics(carry) if "control another player turn" in t.cues)
    assert topic.cues == next(t for t in TOPICS if "control another player turn" in t.cues).cues
    return topic.rules


@pytest.mark.slow
@pytest.mark.archive
def test_older_releases_get_their_own_numbers():
    new, old = release_texts("2026-01-16"), release_texts("2023-04-14")
    jan, apr = Carry("2026-01-16", new), Carry("2023-04-14", old)
    # "Controlling Another Player" is 723 in 2026-08-07, 722 in 2026-01-16, 719 in 2023-04-14.
    assert mindslaver(jan) == ("722.1", "722.5", "722.5a")
    assert mindslaver(apr) == ("719.1", "719.5", "719.5a")
    assert tables.cards(jan)["rules"]["mindslaver"][0] == "722.1"
    assert tables.cards(apr)["rules"]["mindslaver"][0] == "719.1"
    # 723.1 there is "Restarting the Game": only the topic that names that rule keeps it.
    assert [t.cues[0] for t in tables.topics(apr) if "723.1" in t.rules] == \
        [t.cues[0] for t in tables.topics(Carry("2026-08-07", release_texts("2026-08-07")))
         if any(apr(i) == "723.1" for i in t.rules)]


def test_a_card_whose_rules_all_drop_keeps_its_name(latest_texts):
    table = {"index": {}, "plain": [], "longest": 2,
             "rules": {"mindslaver": ["723.1"], "made up": ["999.9"]}}
    got = tables.cards(Carry("2026-08-07", latest_texts), table)
    assert got["rules"] == {"mindslaver": ["723.1"], "made up": []}


def test_a_question_asked_before_without_answers_is_left_out(latest_texts):
    entries = [{"question": "q1", "ids": ["702.19b", "999.9"], "source": "http://a"},
               {"question": "q2", "ids": ["999.9"], "source": "http://b"}]
    assert tables.asked(Carry("2026-08-07", latest_texts), entries) == [
        {"question": "q1", "ids": ["702.19b"], "source": "http://a"}]


def test_the_numbering_is_read_from_a_tables_header():
    assert tables.numbering_of("# a table\n# numbering: 2025-01-01\n\nrow\t1.1\n") == "2025-01-01"
    assert tables.numbering_of("row\t1.1\n# numbering: 2025-01-01\n") is None
