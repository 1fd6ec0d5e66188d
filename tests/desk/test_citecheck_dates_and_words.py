"""cite-check without --as-of: the text's own date and the words around each citation.

The synthetic pair (``cite_pair_dir``): in 2012, 104.5k is the "heirloom
rule" and 201.2 is Stomp; in 2026, the heirloom rule is 104.5j (104.5k is the
"crown rule") and Stomp is 201.3.
"""

from __future__ import annotations

import json

from conftest import run

from crsearch import Rules
from crsearch.desk import citecheck
from crsearch.store.datadir import Store


def cites(result):
    return {c["id"]: c for c in result["citations"]}



# -- the text's own date ---------------------------------------------------------

def test_a_dated_heading_reads_the_numbers_as_of_that_date(cite_pair_dir):
    text = "Gizmo notes — posted May 23, 2013\nEach player checks rule 104.5k on their own side."
    result = citecheck.check(Store(cite_pair_dir), text)
    assert result["release"] == "2012-01-10"
    assert result["as_of"] == {"date": "2013-05-23", "from": "text", "line": 1,
                               "words": "Gizmo notes — posted May 23, 2013", "kind": "written"}
    c = cites(result)["104.5k"]
    assert (c["status"], c["now"]) == ("moved", "104.5j")


def test_the_same_text_without_its_date_is_read_in_todays_rules(cite_pair_dir):
    result = citecheck.check(Store(cite_pair_dir), "Each player checks rule 104.5k on their side.")
    assert result["as_of"] is None and result["release"] == "2026-06-05"
    assert cites(result)["104.5k"]["status"] == "ok"


def test_front_matter_and_timestamps_date_a_text(cite_pair_dir):
    store = Store(cite_pair_dir)
    fm = citecheck.check(store, "---\ntitle: Digest\ndate: 2014-02-03\n---\nStomp is rule 201.2.")
    assert (fm["as_of"]["date"], fm["as_of"]["line"]) == ("2014-02-03", 3)
    assert cites(fm)["201.2"]["now"] == "201.3"
    post = citecheck.check(store, "Thread\nann  05-06-2015, 12:50 PM\nStomp is rule 201.2.")
    assert (post["as_of"]["date"], post["as_of"]["kind"]) == ("2015-05-06", "timestamp")


def test_a_date_in_the_prose_is_not_taken(cite_pair_dir):
    text = "The rules changed on 2013-04-28; since then rule 104.5a has stayed the same."
    result = citecheck.check(Store(cite_pair_dir), text)
    assert result["as_of"] is None and result["release"] == "2026-06-05"


def test_as_of_given_wins_over_the_texts_date(cite_pair_dir):
    result = citecheck.check(Store(cite_pair_dir), "Posted May 23, 2013\nrule 201.3a",
                             as_of="2026-07-01")
    assert result["as_of"] == {"date": "2026-07-01", "from": "option"}
    assert cites(result)["201.3a"]["status"] == "ok"


def test_own_date_can_be_left_unread(cite_pair_dir):
    result = citecheck.check(Store(cite_pair_dir), "Posted May 23, 2013\nrule 201.3a",
                             own_date=False)
    assert result["as_of"] is None


def test_the_summary_says_which_date_was_used_and_where(cite_pair_dir, tmp_path):
    f = tmp_path / "notes.md"
    f.write_text("# Gizmo notes\nUpdated 10 March 2013\n\nStomp (201.2a) pushes through.\n",
                 encoding="utf-8")
    r = run(cite_pair_dir, "cite-check", str(f))
    assert r.exit_code == 1, r.output
    assert f"{f}:4:8: 201.2a moved -> 201.3a" in r.output
    assert ('1 citation read as of 2013-03-10, the date on line 2 ("Updated 10 March 2013"), '
            'in the 2012-01-10 rules: 0 ok, 1 moved, 0 mismatched, 0 missing') in r.output
    data = json.loads(run(cite_pair_dir, "cite-check", str(f), "--json").output)
    assert data["as_of"] == {"date": "2013-03-10", "from": "text", "line": 2,
                             "words": "Updated 10 March 2013", "kind": "written"}
    assert data["release"] == "2012-01-10" and data["latest"] == "2026-06-05"


# -- the words around a citation ---------------------------------------------------

def test_words_that_name_another_rule_make_a_mismatch(cite_pair_dir):
    text = 'Per 104.5k (the "heirloom rule") the player keeps one gizmo of each name.'
    result = citecheck.check(Store(cite_pair_dir), text)
    c = cites(result)["104.5k"]
    assert (c["status"], c["now"]) == ("mismatch", "104.5j")
    assert "heirloom rule" in c["words"]
    assert result["words_checked"] == 1


def test_words_that_fit_the_cited_rule_leave_it_ok(cite_pair_dir):
    result = citecheck.check(Store(cite_pair_dir), 'The "crown rule" (104.5k) keeps the newest.')
    assert cites(result)["104.5k"]["status"] == "ok"
    assert result["words_checked"] == 1


def test_words_are_read_as_numbered_on_the_texts_date(cite_pair_dir):
    # In 2013 104.5k was the heirloom rule: the words fit, the number moved.
    text = 'Posted May 23, 2013\nThe "heirloom rule" (104.5k) keeps one gizmo of each name.'
    c = cites(citecheck.check(Store(cite_pair_dir), text))["104.5k"]
    assert (c["status"], c["now"]) == ("moved", "104.5j")
    # A number that named another rule even then is a mismatch, with that
    # rule's number today...
    text = ("Posted May 23, 2013\nA stomping gizmo that is held back hands out its push "
            "damage to each holder first (rule 201.1a).")
    c = cites(citecheck.check(Store(cite_pair_dir), text))["201.1a"]
    assert (c["status"], c["now"]) == ("mismatch", "201.3b")
    # ... unless the number names that rule today: the citation reads right now.
    text = 'Posted May 23, 2013\nThe "crown rule" (104.5k) keeps the newest crowned gizmo.'
    c = cites(citecheck.check(Store(cite_pair_dir), text))["104.5k"]
    assert c["status"] == "ok"


def test_words_can_be_left_unread(cite_pair_dir):
    text = 'Per 104.5k (the "heirloom rule") the player keeps one gizmo of each name.'
    result = citecheck.check(Store(cite_pair_dir), text, words=False)
    assert cites(result)["104.5k"]["status"] == "ok" and result["words_checked"] == 0


def test_a_mismatch_shows_in_text_and_json_and_exits_1(cite_pair_dir):
    text = 'Per 104.5k (the "heirloom rule") the player keeps one gizmo of each name.'
    r = run(cite_pair_dir, "cite-check", "-", input=text)
    assert r.exit_code == 1, r.output
    assert '<stdin>:1:5: 104.5k is not what "(the "heirloom rule") the player keeps one gizmo' \
        in r.output and "that is 104.5j today" in r.output
    assert "1 checked by the words around them" in r.output
    assert "0 ok, 0 moved, 1 mismatched, 0 missing" in r.output
    data = json.loads(run(cite_pair_dir, "cite-check", "-", "--json", input=text).output)
    [c] = data["citations"]
    assert (c["status"], c["now"]) == ("mismatch", "104.5j")
    assert data["words_checked"] == 1 and data["today_only"] is False


def test_rules_cite_check_is_the_same_check(cite_pair_dir):
    text = 'Per 104.5k (the "heirloom rule") the player keeps one gizmo of each name.'
    result = Rules(Store(cite_pair_dir)).cite_check(text)
    assert result.count("mismatch") == 1 and result.problems == 1
    assert result.to_dict()["citations"] == citecheck.check(Store(cite_pair_dir), text)["citations"]


# -- nothing to tell the text's age -------------------------------------------------

def test_no_date_and_no_words_says_today_only(cite_pair_dir):
    r = run(cite_pair_dir, "cite-check", "-", input="See 104.5a and 201.3b.")
    assert r.exit_code == 0, r.output
    assert ("2 citations checked against today's release (2026-06-05) only: the text has no "
            "date and no words that name the rules") in r.output
    data = json.loads(run(cite_pair_dir, "cite-check", "-", "--json",
                          input="See 104.5a and 201.3b.").output)
    assert data["today_only"] is True and data["as_of"] is None and data["words_checked"] == 0


def test_a_dated_text_is_never_today_only(cite_pair_dir):
    data = json.loads(run(cite_pair_dir, "cite-check", "-", "--json",
                          input="Posted May 23, 2013\nSee 104.5a.").output)
    assert data["today_only"] is False and data["as_of"]["date"] == "2013-05-23"


# -- an undated text's own numbers ----------------------------------------------------

def test_numbers_only_old_releases_have_date_an_undated_text(cite_pair_dir):
    # 201.2c exists only in 2012: the heirloom rule's 104.5k is read as of then.
    text = ("Stomp does nothing for a holder (rule 201.2c).\n\n"
            'The "heirloom rule" (104.5k) keeps one gizmo of each name.')
    result = citecheck.check(Store(cite_pair_dir), text)
    assert result["as_of"] is None
    assert result["era"] == {"date": "2012-01-10", "by": ["201.2c"]}
    c = cites(result)["104.5k"]
    assert (c["status"], c["now"], c["read_in"]) == ("moved", "104.5j", "2012-01-10")
    assert cites(result)["201.2c"]["now"] == "201.3c"


def test_words_that_fit_an_old_version_of_the_number_follow_it_from_then(cite_pair_dir):
    # No date, no old number: the words fit what 104.5k said in 2012.
    text = "A player keeps one of their heirloom gizmos that share a name (104.5k)."
    c = cites(citecheck.check(Store(cite_pair_dir), text))["104.5k"]
    assert (c["status"], c["now"], c["read_in"]) == ("mismatch", "104.5j", "2012-01-10")


def test_the_summary_names_the_old_numbers_that_date_a_text(cite_pair_dir):
    text = ("Stomp does nothing for a holder (rule 201.2c).\n\n"
            'The "heirloom rule" (104.5k) keeps one gizmo of each name.')
    r = run(cite_pair_dir, "cite-check", "-", input=text)
    assert "the text has no date; it cites 201.2c, of the 2012-01-10 rules and before" in r.output
    assert "0 ok, 2 moved, 0 mismatched, 0 missing" in r.output
