"""The cards stage: the cards a question names and what their texts say (crsearch/search/cardtext.py)."""

from __future__ import annotations

from types import SimpleNamespace

from crsearch.search import boosts, cardtext
from crsearch.search.config import DEFAULT
from crsearch.search.query import parse


def _mention(name: str, typed: str, text: str, strong: bool = True):
    return SimpleNamespace(name=name, text=typed, strong=strong, card=SimpleNamespace(text=text))


def _stems(word: str) -> list[str]:
    return [word.lower().rstrip("s")]


def _lens(mentions, terms=None):
    return cardtext.CardLens(lambda text: mentions, terms or (lambda text: []))


def test_only_cards_surely_named_count_each_once():
    lens = _lens([_mention("Vedalken Shackles", "Vedalken Shackles", "x"),
                  _mention("Flash", "flash", "Flash", strong=False),
                  _mention("Vedalken Shackles", "vedalken shackles", "x"),
                  _mention("Shackles", "Shackles", "y")])  # a card of its own, named by the first's word
    assert [c.name for c in lens.named("q", DEFAULT)] == ["Vedalken Shackles"]


def test_at_most_card_text_cards_cards_are_read():
    lens = _lens([_mention(f"Card {n}", f"Card {n}", "text") for n in "abcdef"])
    assert len(lens.named("q", DEFAULT.but(card_text_cards=2))) == 2


def test_a_named_card_carries_its_text_and_terms_in_json():
    terms = [{"span": [0, 5], "text": "Flash", "term": "Flash", "id": "702.8", "kind": "keyword ability",
              "definition": "long", "source": "702.8"}]
    card = _lens([_mention("Notion Thief", "notion thief", "Flash")], lambda text: terms).named("q", DEFAULT)[0]
    assert card.to_dict() == {"name": "Notion Thief", "typed": "notion thief", "text": "Flash",
                              "terms": [{"span": [0, 5], "text": "Flash", "term": "Flash", "id": "702.8",
                                         "kind": "keyword ability"}]}


def _card(*terms: tuple[str, str, str]) -> cardtext.NamedCard:
    return cardtext.NamedCard("Some Card", "Some Card", "text",
                              [{"span": [0, 1], "text": said, "term": said, "id": id, "kind": kind}
                               for said, id, kind in terms])


QUESTION = parse("Does the creature go back when my Some Card leaves the battlefield?")


def test_a_telling_reading_points_to_its_rule_whatever_the_words():
    got = cardtext.evidence([_card(("for as long as it stays tapped", "611.2b", "duration"))],
                            QUESTION, [("400.7", 5.0)], _stems, DEFAULT)
    assert len(got) == 1 and got[0].why == "card_text" and got[0].what == "Some Card"
    assert got[0].rules == ("611.2b",) and got[0].steps == (DEFAULT.card_text_telling,)
    assert got[0].says == ("for as long as it stays tapped",)


def test_a_keyword_the_question_neither_names_nor_fits_adds_nothing():
    got = cardtext.evidence([_card(("Flying", "702.9", "keyword ability"))], QUESTION,
                            [("400.7", 5.0)], _stems, DEFAULT)
    assert got == []


def test_the_subrules_the_question_fits_count_by_their_fit():
    card = _card(("Flying", "702.9", "keyword ability"))
    got = cardtext.evidence([card], QUESTION, [("702.9b", 4.0), ("702.9c", 2.0), ("400.7", 4.0)],
                            _stems, DEFAULT)[0]
    steps = dict(zip(got.rules, got.steps))
    assert set(steps) == {"702.9b", "702.9c"}
    assert steps["702.9b"] == 1.0 and steps["702.9c"] == 0.5 ** DEFAULT.card_text_power


def test_a_keyword_the_question_names_counts_on_its_own_rule():
    q = parse("Does my Some Card keep flying when it leaves the battlefield?")
    got = cardtext.evidence([_card(("Flying", "702.9", "keyword ability"))], q, [("400.7", 5.0)],
                            _stems, DEFAULT)[0]
    assert got.rules == ("702.9",) and got.steps == (DEFAULT.card_text_named,)


def test_a_card_the_famous_cards_table_knows_and_a_switched_off_stage_add_nothing():
    card = _card(("for as long as", "611.2b", "duration"))
    assert cardtext.evidence([card], QUESTION, [], _stems, DEFAULT, known=lambda name: True) == []
    assert cardtext.evidence([card], QUESTION, [], _stems, DEFAULT.but(card_text=0)) == []


def test_card_text_bonus_names_the_card_and_its_words_and_feeds_the_fusion_a_share():
    named = boosts.Named("card_text", "Some Card", 0.5, ("611.2b", "999.9"), steps=(1.0, 1.0),
                         says=("for as long as", "gone"))
    lifted = boosts.lift(QUESTION, [("400.7", 2.0)], [named], {"400.7", "611.2b"}.__contains__,
                         {"400.7": 1, "611.2b": 2}, DEFAULT)
    assert lifted.scores == [("400.7", 2.0), ("611.2b", 0.5)]
    assert lifted.why["611.2b"] == {"card_text": {"card": "Some Card", "words": "for as long as"}}
    assert lifted.steps["611.2b"] == ([], [DEFAULT.card_text_fusion])
