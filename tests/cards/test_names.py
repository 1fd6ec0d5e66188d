"""Finding a card by the name a person types: exact, folded, partial, a face's, misspelt."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crsearch.cards.names import SortedLines, fold_word, name_key, name_words
from crsearch.cards.store import CardStore
from crsearch.errors import BadInput, NotFound
from crsearch.store.datadir import Store


@pytest.fixture
def data(cards_only_dir):
    return CardStore(Store(cards_only_dir)).require()


def test_folding_forgets_case_accents_ligatures_possessives_and_punctuation():
    assert name_key("Lim-Dûl's Vault") == "lim dul vault"
    assert name_key("Jace, the Mind Sculptor") == "jace the mind sculptor"
    assert name_key("Fire // Ice") == "fire ice"
    assert name_key("Æther Vial") == "aether vial"
    assert name_key("Teferi’s Protection") == "teferi protection"
    assert name_words("JÖTUN grunt!") == ["jotun", "grunt"]
    assert fold_word("Ma'rûf") == "maruf"


@pytest.mark.parametrize("typed, card", [
    ("Notion Thief", "Notion Thief"),
    ("NOTION THIEF", "Notion Thief"),
    ("notion thief's", "Notion Thief"),
    ("lim-dul's vault", "Lim-Dûl's Vault"),
    ("Jotun Grunt", "Jötun Grunt"),
    ("Fire", "Fire // Ice"),
    ("ice", "Fire // Ice"),
    ("Fire//Ice", "Fire // Ice"),
    ("stomp", "Bonecrusher Giant // Stomp"),
    ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
    ("Shatterskull, the Hammer Pass", "Shatterskull Smashing // Shatterskull, the Hammer Pass"),
    ("jace mind sculptor", "Jace, the Mind Sculptor"),
    ("the mind sculptor", "Jace, the Mind Sculptor"),
    ("mind sculptor jace", "Jace, the Mind Sculptor"),
    ("vedalken", "Vedalken Shackles"),
    ("vedalken shack", "Vedalken Shackles"),
    ("Shackles", "Shackles"),  # the card of that very name, not Vedalken Shackles
    ("notion theif", "Notion Thief"),
    ("ntoion thief", "Notion Thief"),
    ("jace the mind sculpter", "Jace, the Mind Sculptor"),
    ("vedalkan shackles", "Vedalken Shackles"),
    ("limdul vault", "Lim-Dûl's Vault"),
    ("teferis protection", "Teferi's Protection"),
])
def test_a_typed_name_finds_its_card(data, typed, card):
    assert data.card(typed).name == card


def test_a_name_that_fits_several_cards_lists_them(data):
    with pytest.raises(NotFound) as e:
        data.card("jace")
    assert "names 2 cards" in str(e.value)
    assert sorted(e.value.suggestions) == ["Jace Beleren", "Jace, the Mind Sculptor"]


def test_an_unknown_name_is_not_found_and_a_near_one_is_suggested(data):
    with pytest.raises(NotFound, match="no card named 'Lightning Bolt'"):
        data.card("Lightning Bolt")
    with pytest.raises(NotFound) as e:
        data.card("shatter smash pass hammer skull")
    assert e.value.suggestions == [] or all(isinstance(s, str) for s in e.value.suggestions)


def test_a_name_without_letters_is_bad_input(data):
    with pytest.raises(BadInput):
        data.card("?! //")


def test_an_echoed_name_is_cut_short(data):
    with pytest.raises(NotFound) as e:
        data.card("zz" * 200)
    assert len(str(e.value)) < 120


@pytest.mark.slow
@given(st.lists(st.text(alphabet="abc \t", min_size=0, max_size=6), min_size=0, max_size=40),
       st.text(alphabet="abc ", min_size=0, max_size=6))
def test_sorted_lines_find_exactly_the_lines_with_a_prefix(lines, prefix):
    keys = sorted({line.replace("\n", "") for line in lines}, key=lambda s: s.encode())
    index = SortedLines("".join(k + "\n" for k in keys).encode())
    want = [k.encode() for k in keys if k.startswith(prefix)]
    assert list(index.starting(prefix.encode())) == want


def test_sorted_lines_of_an_empty_file(tmp_path):
    p = tmp_path / "empty.tsv"
    p.write_bytes(b"")
    assert list(SortedLines.open(str(p)).starting(b"a")) == []


def test_words_in_a_key_are_found_whole_or_as_a_prefix():
    index = SortedLines(b"fire ice\tn\tFire // Ice\nfireball\tn\tFireball\nice age\tn\tIce Age\n")
    assert [b.split(b"\t")[0] for b in index.with_word("fire")] == [b"fire ice"]
    assert [b.split(b"\t")[0] for b in index.with_word("fire", prefix=True)] == [b"fire ice", b"fireball"]
    assert [b.split(b"\t")[0] for b in index.with_word("ice")] == [b"fire ice", b"ice age"]
    assert list(index.with_word("ire")) == []


def test_a_name_without_letters_is_found_as_typed(tmp_path):
    import json

    from crsearch.cards.build import import_file

    src = tmp_path / "a.json"
    src.write_text(json.dumps({"data": {"_____": [{"name": "_____", "text": "Draw a card."}],
                                        "Opt": [{"name": "Opt"}]},
                               "meta": {"date": "2026-01-01"}}), encoding="utf-8")
    result = import_file(Store(tmp_path / "d"), str(src))
    assert result.count == 2 and result.warnings == []
    data = CardStore(Store(tmp_path / "d")).require()
    assert data.card(" _____ ").name == "_____"
    with pytest.raises(BadInput):
        data.card("___")
