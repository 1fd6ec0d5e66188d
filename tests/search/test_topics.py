"""The judges' topic table: every rule it names exists, every cue is well formed."""

from __future__ import annotations

from collections import Counter

import pytest
from whoosh.lang.porter import stem

from crsearch.paths import data_dir
from crsearch.rules.text import STOP_WORDS, words
from crsearch.search.topics import TOPICS, Topic, matching, read_table


@pytest.fixture(scope="module")
def latest_ids(latest_release) -> set[str]:
    return {r.id for r in latest_release.rules} | {c.id for c in latest_release.chapters}


def test_every_rule_id_exists_in_the_2026_08_07_release(latest_ids):
    missing = [(t.cues[0], r) for t in TOPICS for r in t.rules if r not in latest_ids]
    assert missing == []


def test_table_is_typed_and_big_enough_to_cover_every_chapter():
    assert all(isinstance(t, Topic) and t.cues and t.rules for t in TOPICS)
    assert len(TOPICS) >= 120
    chapters = {r.split(".")[0][0] for t in TOPICS for r in t.rules}
    assert chapters == set("123456789")


def test_cues_are_lowercase_plain_words_without_stop_words():
    for t in TOPICS:
        for cue in t.cues:
            cue = cue.removeprefix("=")  # a whole-query cue
            ws = words(cue)
            # What the matcher sees must be what the table says.
            assert ws == cue.split() and cue == cue.lower(), cue
            assert 1 <= len(ws) <= 4, cue
            assert not any(w in STOP_WORDS for w in ws), cue


def test_no_cue_is_repeated_even_after_stemming():
    keys = Counter(frozenset(stem(w) for w in words(c)) for t in TOPICS for c in t.cues)
    assert [sorted(k) for k, n in keys.items() if n > 1] == []


def test_no_rule_is_listed_twice_in_one_topic():
    assert [t.cues[0] for t in TOPICS if len(set(t.rules)) != len(t.rules)] == []


def test_known_topics_point_at_the_answering_rule():
    def rules_for(cue: str) -> tuple[str, ...]:
        return next(t.rules for t in TOPICS if cue in t.cues)

    assert rules_for("counters bounce")[:2] == ("122.2", "400.7")
    assert rules_for("dies same time")[0] == "603.10a"
    assert rules_for("replacement order")[0] == "616.1"
    assert rules_for("legend rule") == ("704.5j",)
    assert rules_for("commander tax") == ("903.8",)


@pytest.mark.parametrize(("question", "rule"), [
    ("My creature has two +1/+1 counters and got bounced. Does it keep them?", "122.2"),
    ("If I flicker my creature, are the counters still on it?", "122.2"),
    ("Two creatures died at the same time; does each one see the other?", "603.10a"),
    ("Who picks the order of two replacement effects?", "616.1"),
    ("My opponent's only target was exiled in response; what happens to the spell?", "608.2b"),
    ("Can I play a land during my opponent's turn?", "305.3"),
    ("My creature gets stolen and then dies. Whose graveyard does it go to?", "400.3"),
    ("How much does my commander cost the third time I cast it?", "903.8"),
    ("Both of my creatures die to a board wipe; do their death triggers see each other?", "603.10a"),
    ("Can I sacrifice a creature I control but don't own?", "701.21a"),
    ("Can I activate two loyalty abilities of the same planeswalker in one turn?", "606.3"),
    ("They bounced my creature in response to my aura, where does the aura go?", "608.3b"),
    ("My attacker got double blocked, how do I split damage between them?", "510.1c"),
    ("Who receives priority after the top of the stack resolves?", "117.3b"),
    ("Does a token doubler double treasure tokens?", "614.16"),
])
def test_matching_finds_the_topic_in_a_players_wording(question, rule):
    assert rule in {r for t in matching(question, stem) for r in t.rules}


def test_matching_stays_quiet_on_unrelated_questions():
    # Common words alone ("creature", "turn", "end", "copy") never fire a topic.
    assert matching("Is a creature a permanent?", stem) == []
    got = {r for t in matching("Is damage removed at the end of the turn?", stem) for r in t.rules}
    assert "514.2" in got and "724.1" not in got
    # "phase" is a step's word as often as phasing's, "play a land ... cast a spell" is no land
    # being cast, and "look at ... put them back" is no look-back trigger.
    for question, rule in [("How do extra combat phases work?", "702.26b"),
                           ("Can I play a land and then cast a spell?", "305.9"),
                           ("Look at the top three cards and put them back in any order.", "603.10a")]:
        assert rule not in {r for t in matching(question, stem) for r in t.rules}, question


def test_the_table_is_read_from_data():
    assert read_table((data_dir() / "topics.txt").read_text(encoding="utf-8")) == TOPICS
    assert read_table("# comment\n\ndies same time; die same time\t603.10a 603.10\n") == (
        Topic(("dies same time", "die same time"), ("603.10a", "603.10")),)


def test_a_cue_with_a_possessive_or_stop_word_matches_like_the_question():
    # The question side drops "'s" and stop words: so does the cue side.
    topic = Topic(("opponent's creature sacrifice", "the stack"), ("701.21a",))
    assert matching("Can I sacrifice my opponent's creature?", stem, (topic,)) == [topic]
    assert matching("What is on the stack?", stem, (topic,)) == [topic]
    assert matching("Can I sacrifice a creature?", stem, (topic,)) == []


def test_a_whole_query_cue_matches_that_query_alone():
    topic = Topic(("=bounce",), ("400.3",))
    assert matching("bounce", stem, (topic,)) == [topic]
    assert matching("Bounced", stem, (topic,)) == [topic]
    # In a longer query the word is a detail of another situation.
    assert matching("bounce my creature", stem, (topic,)) == []
    assert matching("can I bounce a token?", stem, (topic,)) == []


def test_whole_query_cues_kept_ready_are_found_in_their_part():
    from crsearch.search.topics import Cues

    topics = (Topic(("=bounce",), ("400.3",)), Topic(("bounce token",), ("111.7",)))
    fresh = Cues(stem, topics=topics)
    parts = fresh.to_parts()
    ready = Cues.from_parts(parts.get, sorted(parts), stem)
    for query in (["bounce"], ["bounce", "token"], ["token"]):
        assert ready.found(query, query) == fresh.found(query, query)
    assert [c for c, _ in ready.found(["bounced"], ["bounced"])] == ["=bounce"]
    # Without the query's own words no whole-query cue can match.
    assert ready.found(["bounce"]) == []


@pytest.mark.slow
def test_cues_kept_ready_match_like_cues_stemmed_again():
    from crsearch.search.topics import Cues

    fresh = Cues(stem, lambda id: not id.startswith("7"))
    parts = fresh.to_parts()
    read: list[str] = []

    def part(letter):
        read.append(letter)
        return parts.get(letter)

    ready = Cues.from_parts(part, sorted(parts), stem)
    question = "both creatures die at the same time, do they see each other".split()
    assert ready.found(question) == fresh.found(question) != []
    # Only the parts of the question's words' first two letters were read.
    assert read and set(read) <= {w[:2] for w in question} | {""}
    assert ready.cues == fresh.cues
    # A cue sits in the part of its smallest stem's first two letters.
    assert all(min(st)[:2] == prefix for prefix, p in parts.items() for _, st, _, _ in p["cues"])
