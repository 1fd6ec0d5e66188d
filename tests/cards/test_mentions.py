"""Finding the cards a question names, for card-aware search."""

from __future__ import annotations

import pytest

from crsearch.cards.mentions import index_lines
from crsearch.cards.names import SortedLines
from crsearch.cards.store import CardStore
from crsearch.store.datadir import Store


@pytest.fixture
def data(cards_only_dir):
    return CardStore(Store(cards_only_dir)).require()


def names(mentions):
    return [(m.name, m.text, m.kind) for m in mentions]


def test_full_names_possessives_and_names_split_by_punctuation(data):
    q = ("I have Vedalken Shackles tapped, then cast Teferi's Protection. Does Notion Thief's "
         "ability stop Fire//Ice, or jace, the mind sculptor's +2?")
    assert names(data.find_in_text(q)) == [
        ("Vedalken Shackles", "Vedalken Shackles", "n"),
        ("Teferi's Protection", "Teferi's Protection", "n"),
        ("Notion Thief", "Notion Thief's", "n"),
        ("Fire // Ice", "Fire//Ice", "n"),
        ("Jace, the Mind Sculptor", "jace, the mind sculptor's", "n"),
    ]


def test_each_mention_carries_its_card_and_where_it_stands(data):
    q = "Can Opal Titan get protection from colorless?"
    # "protection" is also part of Teferi's Protection, but an ordinary word.
    (m,) = data.find_in_text(q)
    assert q[m.span[0]:m.span[1]] == "Opal Titan"
    assert m.card.name == "Opal Titan" and "protection from each" in m.card.text
    d = m.to_dict()
    assert d["card_text"] == m.card.text and d["strong"] is True and d["cased"] is True


def test_faces_and_telling_parts_of_names(data):
    found = names(data.find_in_text("Stomp, then Mind Sculptor, then Insectile Aberration attacks"))
    assert found == [("Bonecrusher Giant // Stomp", "Stomp", "f"),
                     ("Jace, the Mind Sculptor", "Mind Sculptor", "p"),
                     ("Delver of Secrets // Insectile Aberration", "Insectile Aberration", "f")]


def test_the_longest_name_wins_where_names_overlap(data):
    # "Shackles" is a card of its own, but here it is part of Vedalken Shackles.
    assert names(data.find_in_text("vedalken shackles")) == [
        ("Vedalken Shackles", "vedalken shackles", "n")]
    assert names(data.find_in_text("Shackles on my creature")) == [("Shackles", "Shackles", "n")]


def test_a_sentence_end_is_not_part_of_a_name(data):
    assert names(data.find_in_text("I cast Fire. Ice is next.")) == [
        ("Fire // Ice", "Fire", "f"), ("Fire // Ice", "Ice", "f")]


def test_ordinary_words_make_weak_mentions(data):
    (flash,) = data.find_in_text("Can I respond with flash?")
    assert flash.name == "Flash" and not flash.cased
    part = [m for m in data.find_in_text("the sculptor is here") if m.kind == "p"]
    assert part and not part[0].strong  # a lower-case part of a name is never sure


def test_a_part_shared_by_two_cards_names_neither(data):
    assert data.find_in_text("Jace is a planeswalker") == []


def test_no_card_data_means_no_mentions(tmp_path):
    from crsearch.api import Rules

    assert Rules.open(tmp_path).find_cards("Notion Thief") == []


def test_index_lines_keep_parts_that_belong_to_one_card_only():
    def at(n):
        return ("a", n, 1)

    lines = index_lines([(["jace", "beleren"], "Jace Beleren", [["jace", "beleren"]], at(1)),
                         (["jace", "the", "mind", "sculptor"], "Jace, the Mind Sculptor",
                          [["jace", "the", "mind", "sculptor"]], at(2))],
                        common=lambda ws: ws == ["mind"])
    keys = {(line.split("\t")[0], line.split("\t")[1], line.split("\t")[2]) for line in lines}
    assert ("jace", "", "p") not in keys  # two Jaces
    assert ("beleren", "", "p") in keys and ("mind", "sculptor", "p") in keys
    assert ("jace", "the mind", "p") in keys and ("the", "mind sculptor", "p") not in keys
    assert not [line for line in lines if line.startswith("mind\t\t")]  # an ordinary word alone
    assert list(SortedLines("".join(lines).encode()).starting(b"beleren\t"))
