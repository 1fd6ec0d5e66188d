"""`crsearch card`, `crsearch cards`, `cards update`, and cards in `explain`, `releases`, `repair`."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import ATOMIC, ORACLE, RULINGS, run

from crsearch.api import Rules


@pytest.fixture
def writable(cards_data_dir, tmp_path):
    root = tmp_path / "data"
    shutil.copytree(cards_data_dir, root)
    return root


@pytest.mark.slow
def test_card_json_is_the_library_result_with_its_rules(cards_data_dir):
    r = run(cards_data_dir, "card", "Notion Thief", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data == Rules.open(cards_data_dir).card("Notion Thief").to_dict()
    assert set(data) >= {"name", "mana_cost", "type_line", "text", "faces", "rulings", "terms",
                         "cards_date"}
    assert (data["mana_cost"], data["type_line"], data["power"], data["toughness"]) == \
        ("{2}{U}{B}", "Creature — Human Rogue", "3", "1")
    assert data["cards_date"] == "2026-11-20" and data["release"] == "2026-08-07"
    assert data["rulings"][0] == {"date": "2013-04-15", "text": data["rulings"][0]["text"]}
    ids = {t["id"] for t in data["terms"]}
    assert {"702.8", "121"} <= ids  # flash, drawing a card
    assert "614" in ids  # "skips that draw": a replacement effect
    for t in data["terms"]:
        assert data["text"][t["span"][0]:t["span"][1]] == t["text"]
        assert set(t) >= {"span", "term", "id", "definition"}


def test_card_on_a_terminal_reads_like_the_card(cards_data_dir):
    out = run(cards_data_dir, "card", "notion theif").output
    assert out.startswith("Notion Thief  {2}{U}{B}\nCreature — Human Rogue  3/1\nFlash\n")
    assert "Rulings\n  2013-04-15  If an opponent would draw several" in out
    assert "Rules its words use" in out and "702.8" in out
    assert out.rstrip().endswith("Card data 2026-11-20; Comprehensive Rules effective 2026-08-07")


def test_each_face_of_a_card_is_shown(cards_data_dir):
    out = run(cards_data_dir, "card", "fire").output
    assert out.startswith("Fire // Ice  (split: 2 faces)\nFire  {1}{R}\nInstant\n")
    assert "\n//\nIce  {1}{U}\nInstant\nTap target permanent.\nDraw a card.\n" in out
    faces = json.loads(run(cards_data_dir, "card", "Ice", "--json").output)["faces"]
    assert [(f["name"], f["side"]) for f in faces] == [("Fire", "a"), ("Ice", "b")]
    assert "Loyalty 3" in run(cards_data_dir, "card", "jace", "mind", "sculptor").output


def test_an_ambiguous_name_lists_the_candidates_and_exits_1(cards_data_dir):
    r = run(cards_data_dir, "card", "jace")
    assert r.exit_code == 1
    assert "Error: 'jace' names 2 cards; type more of the name" in r.output
    assert "Did you mean: Jace Beleren, Jace, the Mind Sculptor?" in r.output


def test_an_unknown_card_exits_1(cards_data_dir):
    r = run(cards_data_dir, "card", "Lightning Bolt")
    assert r.exit_code == 1 and "no card named 'Lightning Bolt'" in r.output


def test_without_card_data_card_exits_3_and_says_how_to_import(latest_data_dir):
    r = run(latest_data_dir, "card", "Notion Thief")
    assert r.exit_code == 3 and "crsearch cards update" in r.output
    assert run(latest_data_dir, "cards").exit_code == 3


def test_without_rules_a_card_is_shown_without_its_rules(cards_only_dir):
    r = run(cards_only_dir, "card", "Opal Titan")
    assert r.exit_code == 0, r.output
    assert "no rules imported" in r.output
    assert json.loads(run(cards_only_dir, "card", "Opal Titan", "--json").output)["terms"] == []


@pytest.mark.slow
def test_card_cite_quotes_the_oracle_text_then_each_rule(cards_data_dir):
    lines = run(cards_data_dir, "card", "Notion Thief", "--cite").output.splitlines()
    assert lines[0].startswith("Notion Thief {2}{U}{B} (Oracle text, card data 2026-11-20): Flash / If "
                               "an opponent would draw")
    # Each term quoted where its definition is read, as `explain --cite` does.
    assert "CR glossary, “Flash” (effective 2026-08-07): A keyword ability" in lines[1]
    assert any(line.startswith("CR 121.1 (effective 2026-08-07): A player draws a card") for line in lines)
    md = run(cards_data_dir, "card", "Fire // Ice", "--cite=md", "--site-url", "https://rules.example").output
    assert md.startswith("> **Fire // Ice** {1}{R} // {1}{U} (Oracle text, card data 2026-11-20): "
                         "Fire deals 2 damage")
    assert "](https://rules.example/" in md


def test_cards_status_says_which_card_data_is_in_use(cards_data_dir):
    r = run(cards_data_dir, "cards")
    assert r.exit_code == 0
    assert r.output.startswith("Card data 2026-11-20 (MTGJSON 5.2.2+20261120, 14 cards, 3 rulings)")
    assert "Fan Content Policy" in r.output
    data = json.loads(run(cards_data_dir, "cards", "--json").output)
    assert (data["date"], data["count"], data["kind"]) == ("2026-11-20", 14, "mtgjson")
    assert data == Rules.open(cards_data_dir).cards().to_dict()


def test_releases_names_the_card_data_in_use(cards_data_dir, latest_data_dir):
    assert "Card data 2026-11-20 (MTGJSON 5.2.2+20261120, 14 cards, 3 rulings) in use" in run(cards_data_dir, "releases").output
    assert "No card data imported" in run(latest_data_dir, "releases").output
    assert isinstance(json.loads(run(cards_data_dir, "releases", "--json").output), list)  # the JSON is unchanged


def test_cards_update_imports_skips_the_same_file_and_refuses_an_older_one(tmp_path):
    r = run(tmp_path, "cards", "update", "--from", str(ORACLE), "--rulings", str(RULINGS))
    assert r.exit_code == 0, r.output
    assert r.output.strip() == ("Imported card data 2026-11-25 (oracle-cards-20261125100000.json, "
                                "Scryfall oracle-cards): 14 cards, 4 with several faces, 3 rulings.")
    r = run(tmp_path, "cards", "update", "--from", str(ORACLE), "--rulings", str(RULINGS))
    assert "is already up to date" in r.output
    r = run(tmp_path, "cards", "update", "--from", str(ATOMIC))
    assert r.exit_code == 2
    assert "kept the stored card data of 2026-11-25" in r.output and "--force" in r.output
    r = run(tmp_path, "cards", "update", "--from", str(ATOMIC), "--force")
    assert r.exit_code == 0 and "Imported card data 2026-11-20" in r.output


def test_cards_update_of_a_bad_file_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "AtomicCards.json"
    bad.write_bytes(ATOMIC.read_bytes()[:3000])
    r = run(tmp_path / "data", "cards", "update", "--from", str(bad))
    assert r.exit_code == 2
    assert r.output.strip() == "Error: AtomicCards.json ends before its JSON does (cut short?)"
    r = run(tmp_path / "data", "cards", "update", "--from", str(tmp_path / "nope.json"))
    assert r.exit_code == 2 and r.output.strip() == "Error: no such file: nope.json"
    r = run(tmp_path / "data", "cards", "update", "--from", "ftp://example.test/x.json")
    assert r.exit_code == 2 and "unsupported URL scheme" in r.output


def test_names_and_texts_with_markup_and_controls_are_escaped_everywhere(tmp_path):
    doc = {"data": {"<b>Evil\u202e</b> Thief\x1b[2J": [
        {"name": "<b>Evil\u202e</b> Thief\x1b[2J", "type": "Creature", "manaCost": "{B}",
         "text": "Flash\u2028\x1b]0;pwned\x07Draw a card."}]},
        "meta": {"date": "2026-01-01", "version": "x\x1b[31m"}}
    src = tmp_path / "evil.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    r = run(tmp_path / "d", "cards", "update", "--from", str(src))
    assert r.exit_code == 0 and "control character" in r.output and "\x1b" not in r.output
    for args in (["card", "evil thief"], ["card", "evil thief", "--json"], ["card", "evil", "--cite"],
                 ["cards"], ["cards", "--json"]):
        out = run(tmp_path / "d", *args).output
        assert "\x1b" not in out and "\u202e" not in out and "\u2028" not in out, args
        assert "<b>Evil</b> Thief" in out or args[0] == "cards"
    data = json.loads(run(tmp_path / "d", "card", "evil thief", "--json").output)
    assert data["text"] == "Flash\u2028Draw a card."  # escaped in print, whole in the data


def test_explain_takes_a_card_name_for_its_text(cards_data_dir):
    r = run(cards_data_dir, "explain", "Notion Thief")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Notion Thief  (Oracle text, card data 2026-11-20)\nFlash\n")
    assert "702.8" in r.output
    data = json.loads(run(cards_data_dir, "explain", "notion theif", "--json").output)
    assert data["card"] == "Notion Thief" and data["text"].startswith("Flash\n")
    # A card's exact name that is not itself a term is the card ...
    assert json.loads(run(cards_data_dir, "explain", "Teferi's Protection", "--json").output)["card"] == \
        "Teferi's Protection"
    # ... but a keyword stays the keyword, and rules text stays text.
    flash = json.loads(run(cards_data_dir, "explain", "Flash", "--json").output)
    assert "card" not in flash and flash["terms"][0]["id"] == "702.8"
    assert "card" not in json.loads(run(cards_data_dir, "explain", "Flying, ward {2}", "--json").output)


@pytest.mark.slow
def test_repair_checks_the_card_data(writable):
    r = run(writable, "repair")
    assert r.exit_code == 0
    assert r.output.strip().endswith("1 release and the card data 2026-11-20 (14 cards) in good order; "
                                     "nothing to repair.")
    data = Rules.open(writable).cards()
    (writable / "cards" / data.entry["dir"] / "shards" / "n.json").write_text("[]", encoding="utf-8")
    r = run(writable, "repair")
    assert r.exit_code == 2 and "shards/n.json is damaged" in r.output
    assert run(writable, "card", "Notion Thief").exit_code == 3
