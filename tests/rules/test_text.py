"""Folding and words: the fast paths give what the plain definition gives."""

from __future__ import annotations

import unicodedata

from crsearch.rules.text import FOLD, fold, words


def plain_fold(text: str) -> str:
    """The definition: NFKC, then ``FOLD``, then case-folding."""
    return unicodedata.normalize("NFKC", text).translate(FOLD).casefold()


SAMPLES = [
    "Trample",  # ASCII: the quick path
    "A creature\u2019s controller can\u2019t \u201cregenerate\u201d it \u2014 ever.",
    "".join(chr(k) for k in FOLD) + " \u00c6ther Stra\u00dfe \ufb01re \u2163 \u00bdx",
    "\u2018quoted\u2019\u00a0and\u2010dashed\u2212\u2032",
    "",
]


def test_fold_is_the_plain_definition():
    for text in SAMPLES:
        assert fold(text) == plain_fold(text), text


def test_every_fold_character_is_replaced():
    # Each folded character alone, inside ASCII and inside other non-ASCII text.
    for k, v in FOLD.items():
        c = chr(k)
        for text in (c, f"ab{c}cd", f"\u00e9{c}\u00e9{c}"):
            assert fold(text) == plain_fold(text)
    assert fold("can\u2019t") == "can't"


def test_words_fold_first():
    assert words("Can\u2019t ATTACK\u2014ever") == ["can't", "attack", "ever"]
