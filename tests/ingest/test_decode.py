"""Bytes to text: every encoding and line ending the archive uses."""

import codecs

import pytest

from crsearch.errors import NotACR
from crsearch.ingest.decode import decode, detect_encoding

SAMPLE = "Title\nIt’s “quoted” — Magic™ ®\nlast"


@pytest.mark.parametrize("encoded, encoding, bom", [
    (codecs.BOM_UTF8 + SAMPLE.encode("utf-8"), "utf-8-sig", True),
    (SAMPLE.encode("utf-8"), "utf-8", False),
    (codecs.BOM_UTF16_LE + SAMPLE.encode("utf-16-le"), "utf-16", True),
    (codecs.BOM_UTF16_BE + SAMPLE.encode("utf-16-be"), "utf-16", True),
    (SAMPLE.encode("cp1252"), "cp1252", False),
])
def test_every_encoding_decodes_typography_as_itself(encoded, encoding, bom):
    d = decode(encoded)
    assert (d.encoding, d.bom) == (encoding, bom)
    assert d.lines == SAMPLE.split("\n")
    assert "\ufffd" not in d.text


@pytest.mark.parametrize("ending, name", [("\r\n", "CRLF"), ("\r", "CR"), ("\n", "LF")])
def test_line_endings_are_split_and_reported(ending, name):
    d = decode(SAMPLE.replace("\n", ending).encode("utf-8"))
    assert d.lines == SAMPLE.split("\n")
    assert d.line_endings == [name]


def test_mixed_line_endings_are_all_reported():
    d = decode(b"a\r\nb\rc\nd")
    assert d.lines == ["a", "b", "c", "d"]
    assert set(d.line_endings) == {"CRLF", "CR", "LF"}


def test_undefined_cp1252_bytes_never_become_replacement_characters():
    d = decode(b"caf\xe9 \x81 \x9d")  # not UTF-8; 0x81 and 0x9D are undefined in cp1252
    assert d.encoding == "cp1252"
    assert "\ufffd" not in d.text and d.text.startswith("café")


def test_utf16_without_bom_is_detected():
    assert detect_encoding("Magic rules text".encode("utf-16-le"))[0] == "utf-16-le"


@pytest.mark.parametrize("data", [b"", b"   \r\n  ", b"\x00\x01\x02\x03" * 10])
def test_empty_or_binary_input_is_not_a_cr(data):
    with pytest.raises(NotACR):
        decode(data)


def test_mac_roman_release_keeps_its_dashes_and_trade_marks():
    data = "Magic\u2122 rules 409.1a\u2013409.1h".encode("mac_roman")
    d = decode(data)
    assert d.encoding == "mac_roman"
    assert d.lines == ["Magic\u2122 rules 409.1a\u2013409.1h"]


def test_dos_and_mac_letters_inside_windows_1252_words_are_repaired():
    data = "It\u2019s Dand".encode("cp1252") + b"\x83n, El-Hajj\x89j, Jun\xa3n, Juz\xa0m."
    d = decode(data)
    assert d.text == "It\u2019s Dand\u00e2n, El-Hajj\u00e2j, Jun\u00fan, Juz\u00e1m."
    assert len(d.repairs) == 4


@pytest.mark.slow
@pytest.mark.archive
def test_archived_releases_have_no_mojibake():
    from conftest import archive_files

    # U+FFFD, and what mis-decoded dashes, marks and letters turn into.
    mojibake = set("\ufffd\u00d0\u00aa\u0192\u2030\u00a3\u00a0")
    bad = {}
    for path in archive_files():
        text = decode(path.read_bytes()).text
        found = set(text) & mojibake
        if found or "\u00e2\u20ac" in text:
            bad[path.name] = found
    assert bad == {}
