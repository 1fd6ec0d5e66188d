"""A card with the rules its words use, and explain taking a card's name."""

from __future__ import annotations

import pytest

from crsearch.cards.store import CardStore
from crsearch.desk.card import card_info, cite_lines, explain_text
from crsearch.store.datadir import Store


@pytest.fixture(scope="module")
def both(cards_data_dir):
    store = Store(cards_data_dir)
    return CardStore(store).require(), store.pick()


@pytest.mark.slow
def test_a_cards_terms_are_explains_terms_of_its_whole_text(both):
    data, stored = both
    info = card_info(data, stored, "Delver of Secrets")
    text = info.card.text
    assert text.startswith("At the beginning of your upkeep") and text.endswith("\n//\nFlying")
    ids = [t["id"] for t in info.terms]
    assert "702.9" in ids  # Flying, on the back face
    assert "701.28" in ids or any(t["term"].lower() == "transform" for t in info.terms)
    for t in info.terms:
        assert text[t["span"][0]:t["span"][1]] == t["text"]


def test_a_card_without_rules_text_has_no_terms(both, tmp_path):
    data, stored = both
    assert card_info(data, None, "Notion Thief").terms == []
    assert card_info(data, None, "Notion Thief").to_dict()["release"] is None


@pytest.mark.parametrize("typed, card", [
    ("Notion Thief", "Notion Thief"),
    ("  notion theif ", "Notion Thief"),
    ("Teferi's Protection", "Teferi's Protection"),   # "protection" is a term, but this is a card
    ("Vedalken Shackles", "Vedalken Shackles"),
    ("Flash", None),                                  # the keyword, wholly a term
    ("Draw a card.", None),                           # rules text
    ("Flying, ward {2}", None),
    ("Jace", None),                                   # two cards: stays text
    ("Notion Thief\nFlash", None),                    # two lines: text
])
def test_explain_takes_a_card_name_only_when_it_is_one(both, typed, card):
    data, stored = both
    result = explain_text(stored, data, typed)
    assert result.get("card") == card
    if card:
        assert result["text"] == data.card(card).text and result["cards_date"] == "2026-11-20"


def test_explain_without_card_data_is_plain_explain(both):
    _, stored = both
    assert "card" not in explain_text(stored, None, "Notion Thief")


@pytest.mark.slow
def test_cite_lines_quote_the_card_then_one_line_per_source(both):
    data, stored = both
    info = card_info(data, stored, "Opal Titan")
    lines = cite_lines(info, stored, "plain")
    assert lines[0] == ("Opal Titan {2}{W}{W} (Oracle text, card data 2026-11-20): When an opponent "
                        "casts a creature spell, if this permanent is an enchantment, it becomes a 4/4 "
                        "Giant creature with protection from each of that spell's colors.")
    assert len(lines) == 1 + len({t["source"] for t in info.terms})
    md = cite_lines(info, stored, "md", "https://r.example")
    assert md[0].startswith("> **Opal Titan** {2}{W}{W} (Oracle text, card data 2026-11-20): ")
    assert all(line.startswith("> [CR ") for line in md[1:])
