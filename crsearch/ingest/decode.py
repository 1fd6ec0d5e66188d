"""Bytes of an official TXT release to text, and a record of what was found.

Wizards has published the rules as ASCII, UTF-8 with and without a BOM,
UTF-16 (both byte orders, with a BOM) and Windows-1252, with CR, CRLF or LF
line endings, sometimes mixed in one file.  Everything downstream sees plain
``str`` lines with no line-ending characters.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from crsearch.errors import NotACR
from crsearch.rules.safetext import describe, strip_controls

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass
class Decoded:
    """Decoded text split into lines, with how it was decoded."""

    lines: list[str]
    encoding: str
    bom: bool
    line_endings: list[str] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    #: (line index, what was removed) for lines that held control characters
    controls: list[tuple[int, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def detect_encoding(data: bytes) -> tuple[str, bool]:
    """The codec name for ``data`` and whether it starts with a BOM."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, True
    # UTF-16 without a BOM would show NULs in every other byte.
    sample = data[:2000]
    if sample.count(b"\x00") > len(sample) // 4:
        even = data[0:2000:2].count(b"\x00")
        odd = data[1:2000:2].count(b"\x00")
        return ("utf-16-be" if even > odd else "utf-16-le"), False
    try:
        data.decode("utf-8")
        return "utf-8", False
    except UnicodeDecodeError:
        return "cp1252", False


def _line_endings(text: str) -> list[str]:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    found = []
    if crlf:
        found.append("CRLF")
    if cr:
        found.append("CR")
    if lf:
        found.append("LF")
    return found


def decode(data: bytes) -> Decoded:
    """Decode the bytes of a TXT release.

    Control and format characters (ESC, C1 controls, bidirectional
    overrides...) are removed from every line and listed in ``controls``.
    Raises :class:`NotACR` for input that is clearly binary or empty; whether
    the text is really a CR is the parser's call.
    """
    if not data.strip():
        raise NotACR("the file is empty")
    encoding, bom = detect_encoding(data)
    repairs: list[str] = []
    if encoding == "cp1252":
        if _looks_mac_roman(data):
            # 2004-02-01 was saved on a Mac: 0xD0 is its en dash and 0xAA its
            # trade mark sign, which Windows-1252 would show as Ð and ª.
            encoding = "mac_roman"
            text = data.decode("mac_roman")
        else:
            # Five byte values are undefined in Windows-1252; no release uses
            # them, so map them through Latin-1 rather than fail or emit U+FFFD.
            text = data.decode("cp1252", errors="_crsearch_latin1")
            text = _repair_foreign_letters(text, repairs)
    else:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as e:
            raise NotACR(f"cannot decode as {encoding}: {e.reason} at byte {e.start}") from None
    if "\x00" in text:
        raise NotACR("binary data (NUL characters) is not a rules text")
    endings = _line_endings(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    controls = []
    # No release holds any, but a crafted one could clear the screen or forge
    # lines when printed: remove them here, once, and say where.  (One pass
    # over the whole text first: lines are only visited when there are some.)
    if strip_controls("\n".join(lines))[1]:
        for i, line in enumerate(lines):
            cleaned, removed = strip_controls(line)
            if removed:
                controls.append((i, describe(line)))
                lines[i] = cleaned
    return Decoded(lines, encoding, bom, endings, repairs, controls)


# Punctuation bytes: Windows-1252 puts quotes and dashes at 0x91-0x97, Mac
# Roman at 0xD0-0xD5 (and the trade mark sign at 0xAA).
_CP1252_PUNCT = set(range(0x91, 0x98)) | {0x85, 0x99}
_MAC_PUNCT = set(range(0xD0, 0xD6)) | {0xAA, 0xC9}


def _looks_mac_roman(data: bytes) -> bool:
    high = [b for b in data if b > 0x7F]
    if not high:
        return False
    mac = sum(1 for b in high if b in _MAC_PUNCT)
    win = sum(1 for b in high if b in _CP1252_PUNCT)
    return mac > 0 and win == 0 and mac >= len(high) // 2


# Card names such as Dandân, El-Hajjâj, Junún and Juzám were pasted into some
# Windows-1252 releases from DOS (code page 437) or Mac text, so one byte in
# the middle of a word reads as "ƒ", "‰", "£" or a no-break space.
_FOREIGN = re.compile("(?<=[A-Za-z])[ƒ‰£\u00a0](?=[a-z])")


def _repair_foreign_letters(text: str, repairs: list[str]) -> str:
    def fix(m: re.Match[str]) -> str:
        raw = m.group().encode("cp1252")
        for codec in ("mac_roman", "cp437"):
            letter = raw.decode(codec)
            if letter.isalpha() and letter.islower():
                word = re.search(r"[\w\u00a0ƒ‰£-]*$", text[:m.start()]).group()  # type: ignore[union-attr]
                repairs.append(f"{word}{m.group()}… read as {word}{letter}… ({codec})")
                return letter
        return m.group()

    return _FOREIGN.sub(fix, text)


def _latin1_fallback(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)  # registered for decoding only
    bad = err.object[err.start:err.end]
    return bytes(bad).decode("latin-1"), err.end


codecs.register_error("_crsearch_latin1", _latin1_fallback)
