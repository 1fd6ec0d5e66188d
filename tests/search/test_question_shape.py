"""A question is a question by its shape, with or without "?"."""

from __future__ import annotations

import pytest

from crsearch.search.query import asks, parse

HUMILITY = ("Humility and Opalescence are both on the battlefield, what is the power and "
            "toughness of each")


@pytest.mark.parametrize("text", [
    HUMILITY,
    "Opponent attacks with a 3/3 trample, I block with a 1/1, how does the damage work",
    "my creature has deathtouch and trample. what happens when it is blocked",
    "The target left the battlefield, does it still resolve",
    "Both players are at 0 life - is it a draw",
])
def test_a_clause_with_a_questions_shape_makes_a_question(text):
    assert asks(text)
    q = parse(text)
    assert q.question and not q.passage


@pytest.mark.parametrize("text", [
    # Rules text has "What an Aura can be attached to", ", which is" and ", how it will".
    "303.4a An Aura spell requires a target, which is defined by its enchant ability.",
    "What an Aura can be attached to is defined by its enchant keyword ability.",
    "the value of X, whether it was kicked, how it will affect multiple targets, and so on.",
    "702.19b The controller of an attacking creature with trample first assigns damage to "
    "the creature or creatures blocking it.",
])
def test_rules_text_has_no_questions_shape(text):
    assert not asks(text)


def test_pasted_rules_text_is_still_pasted_text():
    q = parse("If an effect would create a token that's a copy of an object, the copiable "
              "values are used, which is what happens to the token when it enters.")
    assert q.passage and not q.question


def test_the_layers_answer_the_readme_question_without_a_question_mark(indexed_data_dir):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    engine = Engine(Store(indexed_data_dir).pick().index_dir)
    result = engine.search(HUMILITY, 5)
    got = [h.id for h in result.results]
    assert result.understood["question"]
    assert "123.8" not in got
    # The layers first: the two cards named together are the topic
    # "humility opalescence", though card names are no search words.
    assert got[0].startswith("613."), got
    assert any(h.why.get("topic") == "humility opalescence" for h in result.results)


@pytest.mark.parametrize("question", [HUMILITY, HUMILITY + "?"])
def test_famous_cards_named_together_find_their_topic(question):
    from crsearch.rules.text import words
    from crsearch.search.boosts import named
    from crsearch.search.cardtopics import CardTable, table
    from crsearch.search.config import DEFAULT
    from crsearch.search.topics import Cues

    class Tables:
        def cues(self):
            from whoosh.lang.porter import stem

            return Cues(stem)

        def cards(self):
            return CardTable.of(table())

    q = parse(question)
    assert q.question and "humility" not in q.words
    got = {(n.why, n.what) for n in named(Tables(), q, [], [], DEFAULT)}
    assert ("topic", "humility opalescence") in got
    # A cue of one card's name is the cards table's business, not a topic.
    assert ("topic", "humility") not in got and ("card", "humility") in got
    # One famous card alone brings no topic by its name.
    one = parse("I have Humility out, what is the power and toughness of my creature")
    assert one.names == ["Humility"]
    assert not [n for n in named(Tables(), one, [], [], DEFAULT) if n.why == "topic"
                and set(words(n.what)) <= {"humility", "opalescence"}]
