"""Bytes of an official TXT release to text, and a record of what was found.

Wizards has published the rules as ASCII, UTF-8 with and without a BOM,
UTF-16 (both byte orders, with a BOM) and Windows-1252, with CR, CRLF or LF
line endings, sometimes mixed in one file.  Everything downstream sees plain
``str`` lines with no line-ending characters.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from crsearch.errors import NotACR

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

    Raises :class:`NotACR` for input that is clearly binary or empty; whether
    the text is really a CR is the parser's call.
    """
    if not data.strip():
        raise NotACR("the file is empty")
    encoding, bom = detect_encoding(data)
    if encoding == "cp1252":
        # Five byte values are undefined in Windows-1252; no release uses
        # them, so map them through Latin-1 rather than fail or emit U+FFFD.
        text = data.decode("cp1252", errors="_crsearch_latin1")
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
    return Decoded(lines, encoding, bom, endings)


def _latin1_fallback(err: UnicodeDecodeError) -> tuple[str, int]:
    bad = err.object[err.start:err.end]
    return bytes(bad).decode("latin-1"), err.end


codecs.register_error("_crsearch_latin1", _latin1_fallback)
