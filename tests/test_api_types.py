"""``crsearch.Rules``: an argument of the wrong type is a TypeError naming it.

Every public method checks its arguments before it reads anything, so
``rules.rule(702)`` says what ``rule`` wanted instead of failing somewhere
deep inside with an AttributeError.
"""

from __future__ import annotations

import re

import pytest

from crsearch import Rules
from crsearch.store.datadir import Store


@pytest.fixture
def rules(mini_data_dir):
    return Rules.open(mini_data_dir)


# (method, args, kwargs, argument named, type named)
CASES = [
    ("rule", (702,), {}, "ids", "str"),
    ("rule", (None,), {}, "ids", "str"),
    ("rule", ("100.1", 702), {}, "ids", "str"),
    ("rule", (["100.1", 3.5],), {}, "ids", "str"),
    ("rule", ("100.1",), {"children": "no"}, "children", "bool"),
    ("toc", (7,), {}, "id", "str"),
    ("search", (None,), {}, "query", "str"),
    ("search", (42,), {}, "query", "str"),
    ("search", (b"trample",), {}, "query", "str"),
    ("search", ("trample",), {"limit": "5"}, "limit", "int"),
    ("search", ("trample",), {"limit": 2.5}, "limit", "int"),
    ("search", ("trample",), {"limit": True}, "limit", "int"),
    ("define", (3,), {}, "term", "str"),
    ("define", (None,), {}, "term", "str"),
    ("number_then", (702.19,), {}, "id", "str"),
    ("keyword", (["trample"],), {}, "name", "str"),
    ("history", (702.19,), {}, "id", "str"),
    ("pair", (20260807,), {}, "old", "str"),
    ("pair", (None, 20260807), {}, "new", "str"),
    ("diff", (20260807,), {}, "old", "str"),
    ("diff", (None, 20260807), {}, "new", "str"),
    ("diff", (), {"kind": 3}, "kind", "str"),
    ("diff", (), {"cosmetic": "no"}, "cosmetic", "bool"),
    ("update", (3,), {}, "source", "str"),
    ("update", (), {"page": 3}, "page", "str"),
    ("update", (), {"index": "no"}, "index", "bool"),
    ("update", (), {"jobs": "2"}, "jobs", "int"),
    ("update", (), {"download": 3}, "download", "callable"),
    ("update", (), {"progress": "x"}, "progress", "callable"),
    ("update", (), {"force": 1.0}, "force", "bool"),
    ("update", (), {"deadline": "10"}, "deadline", "number"),
    ("update", (), {"max_bytes": "1"}, "max_bytes", "int"),
    ("update", (), {"on_repair": 3}, "on_repair", "callable"),
    ("explain", (None,), {}, "text", "str"),
    ("explain", (["Flying"],), {}, "text", "str"),
    ("cite_check", (42,), {}, "text", "str"),
    ("cite_check", ("702.19c",), {"as_of": 20150601}, "as_of", "str"),
    ("card", (["Notion Thief"],), {}, "name", "str"),
    ("find_cards", (None,), {}, "text", "str"),
    ("update_cards", (3,), {}, "source", "str"),
    ("update_cards", (), {"force": "yes"}, "force", "bool"),
    ("update_cards", (), {"progress": 3}, "progress", "callable"),
    ("build_site", (3,), {}, "out", "str"),
    ("build_site", ("out",), {"search": "no"}, "search", "bool"),
    ("build_site", ("out",), {"warn": "x"}, "warn", "callable"),
]


@pytest.mark.parametrize("method, args, kwargs, name, want", CASES,
                         ids=[f"{c[0]}-{c[3]}-{type((list(c[1]) + list(c[2].values()))[-1]).__name__}"
                              for c in CASES])
def test_a_wrong_type_is_a_type_error_naming_the_argument(rules, method, args, kwargs, name,
                                                          want):
    with pytest.raises(TypeError) as e:
        getattr(rules, method)(*args, **kwargs)
    message = str(e.value)
    assert message.startswith(f"Rules.{method}(): ") and name in message, message
    assert re.search(rf"\b{want}\b", message), message
    assert "\n" not in message and len(message) < 200, message


def test_every_public_method_with_arguments_is_covered():
    import inspect

    covered = {c[0] for c in CASES}
    for name, member in vars(Rules).items():
        if name.startswith("_") or not callable(member) or isinstance(member, classmethod):
            continue
        if len(inspect.signature(member).parameters) > 1:  # more than self
            assert name in covered, name


@pytest.mark.parametrize("call", [
    lambda: Rules.open(3),
    lambda: Rules.open(None, 20260807),
    lambda: Rules("/tmp/not-a-store"),
    lambda: Rules(Store("/tmp/x"), release=2026),
])
def test_opening_checks_its_arguments_too(call):
    with pytest.raises(TypeError, match=r"^Rules(\.open)?\(\): (data_dir|release|store) must be"):
        call()


def test_a_long_value_is_not_echoed(rules):
    with pytest.raises(TypeError) as e:
        rules.search(["x" * 100_000])
    assert len(str(e.value)) < 200


def test_right_types_still_work(rules):
    assert rules.rule(["100.1"]).to_dict()[0]["id"] == "100.1"
    assert rules.rule("100.1", children=False).to_dict()[0]["id"] == "100.1"
    assert rules.toc().to_dict()
