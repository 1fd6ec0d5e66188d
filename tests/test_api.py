"""``crsearch.Rules``, the front door: every command's ``--json`` is a Rules call's ``to_dict()``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import ATOMIC, run

from crsearch import Rules
from crsearch.errors import BadInput, NotFound, StoreError


def cli_json(data_dir, *args, input=None):
    r = run(data_dir, *args, input=input)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.fixture(scope="module")
def rules(latest_data_dir):
    return Rules.open(latest_data_dir)


# -- the contract: to_dict() is the command's --json ------------------------------

@pytest.mark.parametrize("ids, args", [
    (("702.19c",), ()),
    (("702.19",), ()),
    (("510.1c-d", "119.7-8"), ()),
    (("7",), ()),
])
def test_rule_is_rule_json(rules, latest_data_dir, ids, args):
    assert rules.rule(*ids).to_dict() == cli_json(latest_data_dir, "rule", *ids, "--json")


def test_rule_without_children_is_rule_no_children_json(rules, latest_data_dir):
    got = rules.rule("702.2", children=False).to_dict()
    assert got == cli_json(latest_data_dir, "rule", "702.2", "--no-children", "--json")
    assert [d["id"] for d in got] == ["702.2"]


@pytest.mark.parametrize("id", [None, "7", "702", "702.19"])
def test_toc_is_toc_json(rules, latest_data_dir, id):
    args = ["toc"] + ([id] if id else []) + ["--json"]
    assert rules.toc(id).to_dict() == cli_json(latest_data_dir, *args)


def test_define_is_define_json(rules, latest_data_dir):
    got = rules.define("lethal damage").to_dict()
    assert got == cli_json(latest_data_dir, "define", "lethal", "damage", "--json")
    assert got["id"] == "glossary:Lethal Damage"


def test_keyword_and_keywords_are_their_json(rules, latest_data_dir):
    assert rules.keyword("first strike").to_dict() == cli_json(
        latest_data_dir, "keyword", "first strike", "--json")
    listing = rules.keywords().to_dict()
    assert listing == cli_json(latest_data_dir, "keywords", "--json")
    assert {"id": "702.19", "title": "Trample", "kind": "ability"} in listing
    assert {row["kind"] for row in listing} == {"action", "ability"}


def test_releases_report_and_export_are_their_json(rules, latest_data_dir):
    assert rules.releases().to_dict() == cli_json(latest_data_dir, "releases", "--json")
    assert rules.report().to_dict() == cli_json(latest_data_dir, "report", "--json")
    assert rules.export().to_dict() == cli_json(latest_data_dir, "export", "--json")


def test_diff_and_history_are_their_json(rules, latest_data_dir):
    diff = rules.diff(kind="rules", cosmetic=False)
    assert diff.to_dict() == cli_json(latest_data_dir, "diff", "--kind", "rules",
                                      "--no-cosmetic", "--json")
    assert (diff.old_date, diff.new_date) == ("2026-06-19", "2026-08-07")
    assert rules.history("702.19c").to_dict() == cli_json(latest_data_dir, "history", "702.19c",
                                                          "--json")


def test_explain_is_explain_json(rules, latest_data_dir):
    card = "Flying, ward {2}. Sacrifice a creature: Scry 1."
    got = rules.explain(card)
    assert got.to_dict() == cli_json(latest_data_dir, "explain", card, "--json")
    assert [t["id"] for t in got][:2] == ["702.9", "702.21"]
    assert got.release == "2026-08-07" and got.text == card
    assert repr(got).startswith("<Explanation 2026-08-07: ")


@pytest.mark.slow
def test_cite_check_is_cite_check_json(rules, latest_data_dir):
    text = "Trample (702.19c), deathtouch (CR 702.2b) and rule 702.19z."
    got = rules.cite_check(text)
    r = run(latest_data_dir, "cite-check", "-", "--json", input=text)
    assert r.exit_code == 1  # 702.19z is missing
    assert got.to_dict() == json.loads(r.output)
    assert [c.status for c in got] == ["ok", "ok", "missing"]
    assert (got.count("missing"), got.problems, got.latest) == (1, 1, "2026-08-07")
    assert repr(got) == "<CiteCheck 2026-08-07: 3 citations, 0 moved, 0 mismatch, 1 missing>"
    old = rules.cite_check("Trample is 702.19c.", as_of="2026-07-01")
    assert old.release == "2026-06-19"
    assert old.to_dict() == cli_json(latest_data_dir, "cite-check", "-", "--as-of", "2026-07-01",
                                     "--json", input="Trample is 702.19c.")


def test_search_is_search_json(indexed_data_dir):
    rules = Rules.open(indexed_data_dir)
    for query in ("deathtouch", "deathtuch", "702.19c", "can a tapped creature block"):
        got = rules.search(query, limit=5).to_dict()
        assert got == cli_json(indexed_data_dir, "search", query, "--limit", "5", "--json")
    assert rules.search("deathtuch").suggestion == "deathtouch"


def test_search_ranks_by_the_config_given(indexed_data_dir):
    from crsearch.search.config import DEFAULT

    rules = Rules.open(indexed_data_dir)
    question = "What happens with Humility and a creature that gets +2/+2 from an Aura?"
    shipped = rules.search(question)
    assert any(h.why.get("card") == "humility" for h in shipped.results)
    without_cards = rules.search(question, config=DEFAULT.but(card=0.0))
    assert not any("card" in h.why for h in without_cards.results)
    # Another config does not change what the shipped one ranks.
    assert [h.id for h in rules.search(question).results] == [h.id for h in shipped.results]


# -- the objects behind to_dict() ----------------------------------------------------

def test_results_are_typed_objects(rules):
    found = rules.rule("702.19c")
    (rule,) = list(found)
    assert (rule.id, rule.kind, rule.label) == ("702.19c", "subrule", "702.19c")
    assert "trample over planeswalkers" in rule.text.lower()
    toc = rules.toc("7")
    assert [e.depth for e in toc][:2] == [0, 1] and toc.entries[0].id == "7"
    definition = rules.define("apnap")
    assert [e.term for e in definition.chain] == ["APNAP Order",
                                                  "Active Player, Nonactive Player Order"]
    diff = rules.diff()
    change = next(c for c in diff.changes if c.op == "changed" and c.kind == "rule")
    assert change.old is not None and change.new is not None
    assert isinstance(change.new.text, str) and change.new.id == change.id


def test_release_selects_the_release_in_effect(latest_data_dir):
    old = Rules.open(latest_data_dir, release="2026-07-01")
    assert old.effective_date == "2026-06-19"
    assert old.rule("702.19c").to_dict()[0]["release"] == "2026-06-19"
    assert old.releases().current == "2026-06-19"
    # diff of the selected release against the one before it: there is none.
    with pytest.raises(NotFound):
        old.diff()


def test_errors_are_exceptions_with_suggestions(rules, tmp_path):
    with pytest.raises(NotFound) as e:
        rules.rule("702.91c")
    assert "702.19c" in e.value.suggestions
    with pytest.raises(NotFound) as e:
        rules.define("letal damage and more words")
    with pytest.raises(NotFound) as e:
        rules.keyword("trumpel")
    assert "Trample" in e.value.suggestions
    with pytest.raises(BadInput):
        rules.rule("702.19cc9")
    with pytest.raises(BadInput):
        rules.search("   ")
    with pytest.raises(BadInput, match="is before the first imported release"):
        rules.cite_check("702.19c", as_of="2001-01-01")
    with pytest.raises(BadInput, match="the card text is empty"):
        rules.explain("  ")
    with pytest.raises(StoreError):
        Rules.open(tmp_path / "empty").rule("702.19c")


def test_update_imports_into_the_data_folder(tmp_path):
    from pathlib import Path

    mini = Path(__file__).parent / "fixtures" / "mini_cr.txt"
    rules = Rules.open(tmp_path)
    done = rules.update(str(mini), index=False)
    assert done.failed == 0 and done.to_dict()["imported"][0]["error"] is None
    assert rules.releases().to_dict()[0]["current"] is True
    assert rules.rule("100.1").to_dict()[0]["id"] == "100.1"


def test_import_crsearch_stays_light():
    code = ("import sys, crsearch; print(sorted(m for m in ('crsearch.api', 'crsearch.store.datadir', "
            "'json', 'whoosh') if m in sys.modules)); crsearch.Rules; "
            "print('crsearch.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "[]" and out[1] == "True"


# -- every rule, readable results, the site ---------------------------------------------

def test_iterating_rules_walks_every_rule_and_subrule_in_order(rules):
    from crsearch.rules import numbers

    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)) and len(ids) > 3000
    assert ids[:3] == ["100.1", "100.1a", "100.1b"]
    assert ids == sorted(ids, key=numbers.sort_key)
    assert "702.19c" in ids and all(numbers.kind(i) in ("rule", "subrule") for i in ids)


def test_results_print_readably(rules):
    shown = {
        "rule": repr(rules.rule("702.19")),
        "toc": repr(rules.toc("702")),
        "define": repr(rules.define("lethal damage")),
        "keywords": repr(rules.keywords()),
        "releases": repr(rules.releases()),
        "report": repr(rules.report()),
        "diff": repr(rules.diff()),
        "history": repr(rules.history("702.19c")),
        "stored": repr(rules.stored()),
        "library": repr(rules.library()),
    }
    assert shown["rule"].startswith("<Lookup 2026-08-07: ") and "702.19, 702.19a" in shown["rule"]
    assert shown["toc"].startswith("<Toc 2026-08-07 702: ")
    assert "'Lethal Damage'" in shown["define"]
    assert shown["releases"] == "<Releases: 2 imported, 2026-08-07 selected>"
    assert shown["report"].startswith("<Report 2026-08-07: ") and "complete>" in shown["report"]
    assert shown["diff"].startswith("<ReleaseDiff 2026-06-19 -> 2026-08-07: ")
    assert shown["history"].startswith("<History 702.19c: ") and shown["history"].endswith(" in 2 releases>")
    assert shown["stored"].startswith("<StoredRelease 2026-08-07 ")
    assert re.fullmatch(r"<Library 2026-08-07: \d{4} rules and subrules>", shown["library"])
    assert all(len(s) < 200 and "\n" not in s for s in shown.values()), shown


@pytest.mark.slow
def test_build_site_is_site_build_json(mini_data_dir, tmp_path):
    built = Rules.open(mini_data_dir).build_site(tmp_path / "a", search=False)
    data = built.to_dict()
    assert (tmp_path / "a" / "index.html").is_file()
    assert data["pages"] > 0 and data["out"] == str(tmp_path / "a") and not data["search"]
    r = run(mini_data_dir, "site", "build", str(tmp_path / "b"), "--no-search", "--json")
    assert r.exit_code == 0, r.output
    cli_data = json.loads(r.stdout)
    same = {k: v for k, v in data.items() if k not in ("out", "seconds")}
    assert {k: v for k, v in cli_data.items() if k not in ("out", "seconds")} == same
    assert repr(built).startswith(f"<SiteBuild {tmp_path / 'a'}: ")


# -- cards ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Notion Thief", "fire", "jace mind sculptor"])
def test_card_is_card_json(cards_data_dir, name):
    cards = Rules.open(cards_data_dir)
    got = cards.card(name)
    assert got.to_dict() == cli_json(cards_data_dir, "card", *name.split(), "--json")
    assert repr(got).startswith(f"<CardInfo {got.name!r} (cards of ") and " terms of 2026-08-07>" in repr(got)


def test_card_takes_a_name(cards_data_dir):
    with pytest.raises(TypeError, match="name must be str"):
        Rules.open(cards_data_dir).card(["Notion Thief"])  # type: ignore[arg-type]
    with pytest.raises(NotFound) as e:
        Rules.open(cards_data_dir).card("jace")
    assert len(e.value.suggestions) == 2


def test_find_cards_gives_the_named_cards_with_their_text(cards_data_dir):
    found = Rules.open(cards_data_dir).find_cards("Does Notion Thief's ability stop Fire//Ice?")
    assert [(m.name, m.text) for m in found] == [("Notion Thief", "Notion Thief's"), ("Fire // Ice", "Fire//Ice")]
    assert found[0].card.text.startswith("Flash\n") and found[1].card.faces[1].name == "Ice"


def test_update_cards_from_a_file(tmp_path):
    result = Rules.open(tmp_path).update_cards(str(ATOMIC))
    assert result.to_dict()["count"] == 14 and result.to_dict()["date"] == "2026-11-20"
    assert Rules.open(tmp_path).cards().to_dict()["dir"] == result.entry["dir"]
