"""textdate: the date a text gives for itself, and the dates it only mentions."""

from __future__ import annotations

import datetime

import pytest

from crsearch.desk.textdate import written_on

TODAY = datetime.date(2026, 12, 2)


@pytest.mark.parametrize("text, date, line, kind", [
    # A dated heading or byline, in the words writers use.
    ("Magic 2014 Rules Preview — posted May 23, 2013\nThe legend rule (704.5k) changes.",
     "2013-05-23", 1, "written"),
    ("Combat tricks\nUpdated 10 March 2012\nTrample is 702.19b.", "2012-03-10", 2, "written"),
    ("Commanders and death triggers\nopened 2020-07-20\nRule 903.9a says so.", "2020-07-20", 2,
     "written"),
    ("Huntmaster trigger — LevelX2 opened this issue on Aug 15, 2012\nRule 603.5.", "2012-08-15",
     1, "written"),
    ("Gift of Doom\nLevelX2 commented on Dec 23, 2020: per rule 608.2j it is right.", "2020-12-23",
     2, "written"),
    ("Trample — Revision as of 09:04, 8 April 2006\n502.9 Trample.", "2006-04-08", 1, "written"),
    ("# Combat tricks revisited (written June 2015)\nSee 702.19b.", "2015-06-01", 1, "written"),
    # YAML front matter.
    ("---\ntitle: Set digest\ndate: 2018-01-26\n---\nA creature with 0 toughness [CR 704.5f].",
     "2018-01-26", 3, "front matter"),
    # A forum post's timestamp (month first, as US forums print it).
    ("Trample and planeswalkers\nnix  05-06-2009, 12:50 PM\nSee 502.9b.", "2009-05-06", 2,
     "timestamp"),
    # A date set off at the end or start of a title or byline.
    ("Judge notes, June 2003\n- trample: rule 502.9", "2003-06-01", 1, "heading"),
    ("Triggers after priority  (#209, 2015-04-18)\nrule 116.5", "2015-04-18", 1, "heading"),
    ("Damage with first strike\nLevelX2 — 29 Aug 2014\n702.7c: first strike.", "2014-08-29", 2,
     "heading"),
    ("Setting basic land subtype.  (ImperatorPrime, Mar 11 2017)\nper 305.7", "2017-03-11", 1,
     "heading"),
])
def test_each_form_of_a_writing_date_is_found(text, date, line, kind):
    found = written_on(text, TODAY)
    assert found is not None
    assert (found.date, found.line, found.kind) == (date, line, kind)
    assert found.words in text.splitlines()[line - 1]


@pytest.mark.parametrize("text", [
    "The rules changed on 2017-04-28, so 704.5k means something else now.",
    "Fix legend rule\nSince July 2013 the legend rule (704.5k) checks each player's side.",
    "Notes\nThe Magic 2014 core set changed the legend rule (704.5k).",
    "Rhein Main Judges May\nWhat happens in combat here? 508.1 says attackers come first.",
    "See 702.19b. It costs $120.50, version 2.0.1, 100.5 km.",
    "Not citations: the deck cost $120.50, I drove\n100.5 km, posted on 2015.06.01, started at 20.",
])
def test_a_date_the_prose_mentions_is_not_the_writing_date(text):
    assert written_on(text, TODAY) is None


def test_only_the_head_of_a_text_is_read_for_its_date():
    body = "\n".join(f"Line {n} cites 702.19b." for n in range(40))
    assert written_on(body + "\nPosted May 23, 2013", TODAY) is None
    assert written_on("Posted May 23, 2013\n" + body, TODAY).date == "2013-05-23"


def test_the_latest_date_of_the_best_kind_wins():
    text = "Posted 1 May 2011\nUpdated 10 March 2012\nSee 702.19b. The rules changed on 2013-01-01."
    assert written_on(text, TODAY).date == "2012-03-10"
    # Front matter outranks a byline.
    assert written_on("---\ndate: 2014-02-03\n---\nby Ann — 2019-01-01", TODAY).date == "2014-02-03"


def test_impossible_and_future_dates_are_not_writing_dates():
    assert written_on("Posted 2013-02-30\nSee 702.19b.", TODAY) is None
    assert written_on("Posted 2031-01-01\nSee 702.19b.", TODAY) is None
    assert written_on("Posted 1989-01-01\nSee 702.19b.", TODAY) is None
