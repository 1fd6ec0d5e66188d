"""tools/renumber_tables.py: renumbering the shipped tables and writing their map.

A data folder of two synthetic releases (``conftest.make_release``) and
small tables in a temporary data folder: nothing shipped is touched.
"""

from __future__ import annotations

import json

import pytest
from conftest import make_release

from crsearch.changes.lineage import Linker
from crsearch.search.tables import Carry, Renumbering, numbering_of
from crsearch.store.datadir import Store
from crsearch.store.lineage import relink

OLD = {
    "100.1": "A match is played between two or more players.",
    "100.1a": "Each player brings a stack of cards of their own choosing to the table.",
    "100.1b": "A player who runs out of cards to draw does not win the match.",
    "101.1": "Whenever a card and these rules disagree, the card wins the argument.",
    "101.2": "An old rule about mana burn that a later release takes away.",
}
NEW = {**{k: v for k, v in OLD.items() if k != "101.2"},
       "100.1a": "Shuffling is done face down, thoroughly and quickly.",
       "100.1b": OLD["100.1a"], "100.1c": OLD["100.1b"]}


@pytest.fixture
def tool():
    from tools import renumber_tables

    return renumber_tables


@pytest.fixture
def setup(tmp_path):
    store = Store(tmp_path / "store")
    store.save(make_release("2020-01-01", OLD))
    store.save(make_release("2020-02-01", NEW))
    relink(store, Linker())
    data = tmp_path / "data"
    data.mkdir()
    (data / "topics.txt").write_text(
        "# topics\n# numbering: 2020-01-01\n\ncards stack\t100.1a 100.1b\nmana burn\t101.2\n",
        encoding="utf-8")
    (data / "cards.txt").write_text(
        "# cards\n# numbering: 2020-01-01\nhumility\t101.2 101.1\tthe bell\n", encoding="utf-8")
    (data / "asked.json").write_text(json.dumps({
        "about": "Ids are numbered as in 2020-01-01 ('numbering').", "numbering": "2020-01-01",
        "questions": [{"question": "burn?", "ids": ["101.2"], "source": "http://a"},
                      {"question": "match?", "ids": ["100.1", "100.1b"], "source": "http://b"}]},
        ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return store, data


def test_renumbering_moves_the_ids_and_reports_what_it_could_not_place(tool, setup, capsys):
    store, data = setup
    assert tool.main(["--data-dir", store.dir, "--data", str(data), "--to", "2020-02-01"]) == 0
    out = capsys.readouterr().out
    assert "moved 100.1a -> 100.1b" in out and "moved 100.1b -> 100.1c" in out
    assert "unplaced 101.2 (mana burn)" in out
    topics = (data / "topics.txt").read_text(encoding="utf-8")
    assert numbering_of(topics) == "2020-02-01"
    assert "cards stack\t100.1b 100.1c\n" in topics
    assert "#unplaced in 2020-02-01: mana burn\t101.2\n" in topics
    assert "humility\t101.1\tthe bell\n" in (data / "cards.txt").read_text(encoding="utf-8")
    asked = json.loads((data / "asked.json").read_text(encoding="utf-8"))
    assert asked["numbering"] == "2020-02-01" and "as in 2020-02-01" in asked["about"]
    assert asked["questions"] == [{"question": "match?", "ids": ["100.1", "100.1c"],
                                   "source": "http://b"}]
    # The map is written for the new numbering and carries the tables back.
    table = Renumbering.parse((data / "renumbering.txt").read_text(encoding="utf-8"))
    assert (table.numbering, table.dates) == ("2020-02-01", ["2020-01-01", "2020-02-01"])
    old_texts = {k: v for k, v in OLD.items()}
    assert Carry("2020-01-01", old_texts, table=table)("100.1c") == "100.1b"
    assert tool.main(["--data-dir", store.dir, "--data", str(data), "--check"]) == 0


def test_check_says_when_the_map_is_not_current(tool, setup, capsys):
    store, data = setup
    assert tool.main(["--data-dir", store.dir, "--data", str(data), "--check"]) == 1
    assert "renumbering.txt" in capsys.readouterr().out
    assert not (data / "renumbering.txt").exists()
    assert tool.main(["--data-dir", store.dir, "--data", str(data)]) == 0
    assert tool.main(["--data-dir", store.dir, "--data", str(data), "--check"]) == 0
