"""Reading card data files: MTGJSON and Scryfall, compressed or not, and what is refused."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import zipfile
import zlib

import pytest
from conftest import ATOMIC, ORACLE, RULINGS

from crsearch.cards import read
from crsearch.cards.read import MAX_CARDS, CardFile
from crsearch.errors import BadInput


def cards_of(path, **kw):
    f = CardFile(str(path), **kw)
    return f, {c.name: c for c in f.cards()}


def atomic(tmp_path, data, meta=None, meta_first=False, name="AtomicCards.json"):
    meta = {"date": "2026-11-20", "version": "5.2.2"} if meta is None else meta
    doc = {"meta": meta, "data": data} if meta_first else {"data": data, "meta": meta}
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def test_atomiccards_gives_every_card_with_its_faces_and_rulings():
    f, cards = cards_of(ATOMIC)
    assert (f.kind, f.date, f.version, f.count) == ("mtgjson", "2026-11-20", "MTGJSON 5.2.2+20261120", 14)
    fire = cards["Fire // Ice"]
    assert [(x.name, x.side, x.mana_cost) for x in fire.faces] == [("Fire", "a", "{1}{R}"), ("Ice", "b", "{1}{U}")]
    assert fire.text == ("Fire deals 2 damage divided as you choose among one or two targets."
                         "\n//\nTap target permanent.\nDraw a card.")
    assert fire.mana_cost == "{1}{R} // {1}{U}"
    thief = cards["Notion Thief"]
    assert thief.faces[0].stats == "3/1" and thief.faces[0].text.startswith("Flash\nIf an opponent")
    assert [r.date for r in thief.rulings] == ["2013-04-15", "2013-04-15"]
    assert cards["Jace, the Mind Sculptor"].faces[0].stats == "Loyalty 3"
    assert [x.name for x in cards["Bonecrusher Giant // Stomp"].faces] == ["Bonecrusher Giant", "Stomp"]
    assert f.warnings == []


def test_meta_before_the_data_is_read_as_well_as_after_it(tmp_path):
    data = {"Opt": [{"name": "Opt", "type": "Instant", "text": "Scry 1.\nDraw a card."}]}
    for first in (True, False):
        f, cards = cards_of(atomic(tmp_path, data, {"date": "2026-01-02T00:00", "version": "5"},
                                   meta_first=first))
        assert f.date == "2026-01-02" and list(cards) == ["Opt"]


@pytest.mark.parametrize("packer", ["gzip", "xz", "bz2", "zip"])
def test_compressed_files_are_told_by_their_bytes_not_their_name(tmp_path, packer):
    raw = ATOMIC.read_bytes()
    p = tmp_path / "cards.bin"  # no telling extension
    if packer == "gzip":
        p.write_bytes(gzip.compress(raw))
    elif packer == "xz":
        p.write_bytes(lzma.compress(raw))
    elif packer == "bz2":
        p.write_bytes(bz2.compress(raw))
    else:
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("AtomicCards.json", raw)
    f, cards = cards_of(p)
    assert f.count == 14 and "Fire // Ice" in cards


def test_multi_member_gzip_reads_whole(tmp_path):
    raw = ATOMIC.read_bytes()
    p = tmp_path / "a.json.gz"
    p.write_bytes(gzip.compress(raw[:5000]) + gzip.compress(raw[5000:]))
    assert cards_of(p)[0].count == 14


def test_scryfall_oracle_cards_with_their_rulings_file():
    f, cards = cards_of(ORACLE, rulings=str(RULINGS))
    assert (f.kind, f.date) == ("scryfall", "2026-11-25")
    assert "Goblin" not in cards  # a token, not a card
    assert f.count == 14
    assert [x.name for x in cards["Fire // Ice"].faces] == ["Fire", "Ice"]
    assert [r.text[:14] for r in cards["Notion Thief"].rulings] == ["If an opponent", "The first card"]
    assert cards["Notion Thief"].faces[0].mana_cost == "{2}{U}{B}"


def test_scryfall_file_without_a_date_in_its_name_takes_the_day_it_was_written(tmp_path):
    p = tmp_path / "oracle.json"
    p.write_bytes(ORACLE.read_bytes())
    os.utime(p, (1_800_000_000, 1_800_000_000))  # 2027-01-15
    f, _ = cards_of(p)
    assert f.date == "2027-01-15" and f.rulings == 0


# -- what is refused, in one line each ------------------------------------------------

def refused(path, **kw) -> str:
    with pytest.raises(BadInput) as e:
        cards_of(path, **kw)
    message = str(e.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_a_truncated_file_says_so(tmp_path):
    p = tmp_path / "AtomicCards.json"
    p.write_bytes(ATOMIC.read_bytes()[:6000])
    assert "ends before its JSON does" in refused(p)


def test_a_truncated_gzip_says_so(tmp_path):
    p = tmp_path / "AtomicCards.json.gz"
    p.write_bytes(gzip.compress(ATOMIC.read_bytes())[:-40])
    assert "damaged or cut short" in refused(p)


@pytest.mark.parametrize("body, says", [
    (b"", "is empty"),
    (b"   \n", "is empty"),
    (b"hello, world", "is not JSON card data"),
    (b'{"foo": 1}', "holds no cards"),
    (b'{"data": {"10E": {"cards": []}}, "meta": {"date": "2026-01-01"}}', "looks like AllPrintings"),
    (b'{"data": {"Opt": 5}}', "is not a list of card faces"),
    (b"[1, 2, 3]", "not of cards"),
    (b'[{"object": "set", "name": "Alpha"}]', "not a card"),
    (b'[{"object": "ruling", "oracle_id": "x", "comment": "y"}]', "give it with --rulings"),
    (b'{"data": {"Opt": [{"name": "Opt"}]}}', "has no meta date"),
    (b'{"data": {"Opt": [{"name": "Opt"}]}, "meta": {"date": "2026-02-30"}}', "is not a date"),
    (b'{"data": {"Opt": [{"name": "Opt"}]}, "meta": {"date": "../../x"}}', "is not a date"),
    (b'{"data": {"Opt": [{"name": "Opt"}] "x"}', "is not valid JSON"),
    (b'\xff\xfe{\x00', "is not JSON card data"),
])
def test_what_is_not_card_data_gets_one_clear_line(tmp_path, body, says):
    p = tmp_path / "input.json"
    p.write_bytes(body)
    assert says in refused(p)


def test_a_zip_of_several_files_is_refused(tmp_path):
    p = tmp_path / "cards.zip"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("a.json", "{}")
        z.writestr("b.json", "{}")
    assert "holds 2 files" in refused(p)


@pytest.mark.slow
def test_a_gzip_bomb_is_stopped_early(tmp_path):
    # 96 MiB of blanks inside an object: about 100 KB packed.
    p = tmp_path / "bomb.json.gz"
    z = zlib.compressobj(1, zlib.DEFLATED, 31)
    with open(p, "wb") as f:
        f.write(z.compress(b'{"data": {'))
        block = b" " * (1 << 20)
        for _ in range(96):
            f.write(z.compress(block))
        f.write(z.compress(b"}}") + z.flush())
    assert p.stat().st_size < 1 << 20
    assert "compression bomb" in refused(p)


def test_a_file_larger_than_the_cap_is_stopped(tmp_path):
    assert "decompresses to more than 4,096 bytes" in refused(ATOMIC, max_bytes=4096)


@pytest.mark.slow
def test_a_file_with_a_million_names_is_refused_without_reading_it_all(tmp_path):
    p = tmp_path / "million.json.gz"
    with gzip.open(p, "wb", compresslevel=1) as f:
        f.write(b'{"meta": {"date": "2026-01-01"}, "data": {')
        block = b",".join(b'"Card %d-@": [{"name": "Card %d-@", "text": "Draw a card."}]' % (i, i)
                          for i in range(1000))
        f.write(b",".join(block.replace(b"@", b"%d" % j) for j in range(1000)))
        f.write(b"}}")
    cf = CardFile(str(p))
    with pytest.raises(BadInput, match=f"more than {MAX_CARDS:,} cards"):
        for _ in cf.cards():
            pass
    assert cf.count == MAX_CARDS + 1


def test_control_characters_go_and_markup_stays_text(tmp_path):
    evil = "<script>alert(1)</script>\x1b[2J Evil\u202e\tThief\n"
    data = {evil: [{"name": evil, "type": "Creature\x07 — Rogue",
                    "text": "Flash\x1b]0;title\x07\r\nDraw a card.\u2028"}]}
    f, cards = cards_of(atomic(tmp_path, data))
    (card,) = cards.values()
    assert card.name == "<script>alert(1)</script> Evil Thief"
    assert card.faces[0].type_line == "Creature — Rogue"
    assert card.faces[0].text == "Flash\nDraw a card.\u2028"  # a separator is escaped on output
    assert any("control character" in w for w in f.warnings)


def test_a_card_too_long_to_be_a_card_is_left_out_with_a_warning(tmp_path):
    data = {"Opt": [{"name": "Opt", "text": "Scry 1."}],
            "Huge": [{"name": "Huge", "text": "x" * (read.MAX_TEXT + 1)}],
            "N" * 400: [{"name": "N" * 400}]}
    f, cards = cards_of(atomic(tmp_path, data))
    assert list(cards) == ["Opt"]
    assert any("left out 2 card(s)" in w for w in f.warnings)


def test_faces_without_sides_are_one_card_and_duplicate_sides_keep_the_first(tmp_path):
    data = {"Everythingamajig": [{"name": "Everythingamajig", "text": "one"},
                                 {"name": "Everythingamajig", "text": "two"}],
            "A // B": [{"name": "A // B", "faceName": "A", "side": "a", "text": "a1"},
                       {"name": "A // B", "faceName": "A", "side": "a", "text": "a2"},
                       {"name": "A // B", "faceName": "B", "side": "b", "text": "b"}]}
    _, cards = cards_of(atomic(tmp_path, data))
    assert [x.text for x in cards["Everythingamajig"].faces] == ["one"]
    assert [x.text for x in cards["A // B"].faces] == ["a1", "b"]
