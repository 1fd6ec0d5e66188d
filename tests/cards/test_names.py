"""Finding a card by the name a person types: exact, folded, partial, a face's, misspelt."""

from __future__ import annotations

import json
from pathlib import Path

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


# -- one folding for Python and the site ----------------------------------------

#: The cases both the CLI and the site's lookup (templates/cards.js) fold alike:
#: tests/js/name_fold.json holds them with what Python makes of them, and
#: tests/js/cards.test.mjs checks the site gives the same.
FOLD_NAMES = ["Lim-Dûl's Vault", "Jötun Grunt", "Æther Vial", "Dandân", "Séance", "Straße"]
FOLD_CASES = ["Lim-Dûl's Vault", "limdul vault", "LIM-DÛL’S VAULT", "Lim-Du\u0302l's Vault",
              "Jötun Grunt", "ÆTHER VIAL", "Urza’s Saga", "Ma'rûf", "Sʼiq", "Fire // Ice",
              "Jace, the Mind Sculptor", "Straße", "Þorn Øre Œuvre Łódź", "Ifh-Bíff Efreet",
              "Baron Sengir's", "AN-HAVVA CONSTABLE"]
FOLD_FILE = Path(__file__).resolve().parents[1] / "js" / "name_fold.json"


def fold_data() -> dict:
    from crsearch.cards.names import fold_table, name_words

    return {"_": "Written by `python -m tests.cards.test_names`: names.fold_table over "
                 "names, and names.name_words of each case (tests/js/cards.test.mjs).",
            "names": FOLD_NAMES, "fold": fold_table(FOLD_NAMES),
            "cases": [[c, name_words(c)] for c in FOLD_CASES]}


def test_the_sites_folding_cases_are_pythons():
    assert json.loads(FOLD_FILE.read_text(encoding="utf-8")) == fold_data()


def test_a_word_folds_as_its_characters_do():
    from crsearch.cards.names import _SITE_CHARS, fold_char, fold_word

    words = ["Lim-Dûl", "Jötun", "Æther", "Straße", "ǅemal", "ﬁre", "Ὀδυσσεύς", "Cañón",
             "u\u0302\u0323x", "İstanbul", "Ǆ", *_SITE_CHARS]
    for w in words:
        chars = "".join(fold_char(c) for c in w)
        if chars.endswith("'s"):
            chars = chars[:-2]
        assert fold_word(w) == chars.replace("'", ""), w


@given(st.text(max_size=12))
def test_any_text_folds_as_its_characters_do(text):
    from crsearch.cards.names import fold_char, fold_word

    chars = "".join(fold_char(c) for c in text)
    if chars.endswith("'s"):
        chars = chars[:-2]
    assert fold_word(text) == chars.replace("'", "")


def test_a_decomposed_accent_is_one_letter():
    from crsearch.cards.names import name_words

    assert name_words("Lim-Du\u0302l's Vault") == name_words("Lim-Dûl's Vault") == ["lim", "dul", "vault"]


if __name__ == "__main__":
    FOLD_FILE.write_text(json.dumps(fold_data(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
