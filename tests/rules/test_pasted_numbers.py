"""Every form of a rule number that a judge pastes: brackets, "702.19.c",
a decimal comma, Yawgatog's anchors; alone and in running text."""

from __future__ import annotations

import pytest

from crsearch.errors import BadInput
from crsearch.rules.numbers import Span, find_references, normalize, parse_spec


@pytest.mark.parametrize("text", [
    "(702.19c)", "702.19c)", "(702.19c", "[702.19c]", 'rule "(702.19c)"', "702.19.c",
    "702,19c", "R70219c", "r70219c", "https://yawgatog.com/resources/magic-rules/#R70219c",
])
def test_pasted_forms_normalize_to_the_subrule(text):
    assert normalize(text) == "702.19c"


@pytest.mark.parametrize("text, expected", [
    ("702,19", "702.19"), ("R7021", "702.1"), ("R702", "702"), ("R1001a", "100.1a"),
    ("(7)", "7"),
])
def test_pasted_forms_of_rules_and_chapters(text, expected):
    assert normalize(text) == expected


def test_a_comma_between_three_digit_numbers_is_still_a_list_of_chapters():
    assert parse_spec("110,111") == [Span("110", "110"), Span("111", "111")]
    assert parse_spec("R70219c, R70220") == [Span("702.19c", "702.19c"), Span("702.20", "702.20")]


@pytest.mark.parametrize("text, expected", [
    ("702,19c-d", [("702.19c", "702.19d")]), ("(702,19c-d)", [("702.19c", "702.19d")]),
    ("rule 702,19c\u2013e", [("702.19c", "702.19e")]), ("702,19 c-d", [("702.19c", "702.19d")]),
    ("702,19c to d", [("702.19c", "702.19d")]), ("702,19c-702,19e", [("702.19c", "702.19e")]),
    ("119,7-8", [("119.7", "119.8")]),
    ("702,19c, 702,20a", [("702.19c", "702.19c"), ("702.20a", "702.20a")]),
    ("R60110a, R60110b", [("601.10a", "601.10a"), ("601.10b", "601.10b")]),
])
def test_a_decimal_comma_in_ranges_and_lists(text, expected):
    assert parse_spec(text) == [Span(*pair) for pair in expected]


@pytest.mark.parametrize("text", ["R7", "R70", "702.19.xyz", "702..19"])
def test_what_is_no_rule_number_stays_refused(text):
    with pytest.raises(BadInput):
        normalize(text)


@pytest.mark.parametrize("text, printed, id", [
    ("as trample says (702.19c), the rest", "702.19c", "702.19c"),
    ("see 702.19.c for trample", "702.19.c", "702.19c"),
    ("see 702,19c.", "702,19c", "702.19c"),
    ("per Yawgatog's R70219c, trample", "R70219c", "702.19c"),
    ("trample (702,19c-d) says", "702,19c-d", "702.19c\u2013702.19d"),
])
def test_running_text_finds_the_pasted_forms(text, printed, id):
    found = find_references(text)
    assert [(p, [str(s) for s in spans]) for _, _, p, spans in found] == [(printed, [id])]


@pytest.mark.parametrize("text", ["rules 702,703 and 704", "in 2019, 702,5 cards", "#R70219c",
                                  "AR7021c"])
def test_running_text_keeps_lists_and_other_numbers_apart(text):
    ids = [str(s) for _, _, _, spans in find_references(text) for s in spans]
    assert "702.19c" not in ids and "702.703" not in ids and "702.5" not in ids


def test_cite_check_finds_the_pasted_forms(latest_data_dir):
    from crsearch import Rules

    got = Rules.open(latest_data_dir).cite_check(
        "Trample (702.19.c) and R70219b, see also 702,19d; rules 702,703 and 601.2f-h; "
        "702,19c-d.")
    assert [(c.text, c.id) for c in got.citations] == [
        ("702.19.c", "702.19c"), ("R70219b", "702.19b"), ("702,19d", "702.19d"),
        ("702", "702"), ("703", "703"), ("601.2f", "601.2f"), ("h", "601.2h"),
        ("702,19c", "702.19c"), ("d", "702.19d")]
