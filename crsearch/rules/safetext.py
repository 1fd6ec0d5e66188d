"""Characters a terminal acts on, and text made safe to print.

Imported text, server-chosen file names and error messages can hold control
characters: ESC starts sequences that clear the screen or set the window
title, CR and LF forge lines, and bidirectional overrides reorder what the
reader sees.  The parser removes them (:func:`strip_controls`); everything the
CLI prints is passed through :func:`printable` as a second line of defence.
Standard library only: ``crsearch rule`` imports this.
"""

from __future__ import annotations

import re

# C0 and C1 controls except tab and line feed, DEL, and the invisible format
# characters (Unicode category Cf): bidirectional marks, embeddings,
# overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9), zero-width
# characters, soft hyphen, stray byte-order marks, tag characters.  Spelled
# out rather than computed, so importing this module costs nothing.
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
_FORMAT_BMP = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
               "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb")
_FORMAT_ASTRAL = ("\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
                  "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
_FORMAT = _FORMAT_BMP + _FORMAT_ASTRAL
_PATTERNS = {
    "remove": (
        # whole escape sequences first, so no "[2J" is left behind: CSI (ESC [ or
        # C1 0x9B), OSC/DCS/APC/PM strings up to BEL, ST or the end of the line,
        # two-byte ESC forms
        "(?:\x1b\\[|\x9b)[0-?]*[ -/]*[@-~]"
        "|\x1b[]P_^X][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\\\|\x9c)?"
        "|\x1b[ -/]*[0-~]"
        f"|[{_CONTROLS}{_FORMAT}]"),
    "char": f"[{_CONTROLS}{_FORMAT}]",
    # A class with astral ranges makes re four times slower on a whole release,
    # so the quick test looks at the astral ones only when the text has any.
    "char_bmp": f"[{_CONTROLS}{_FORMAT_BMP}]",
    "char_astral": f"[{_FORMAT_ASTRAL}]",
    # What printable() escapes: the above, plus line feed and the Unicode line
    # and paragraph separators, which some terminals and viewers break lines at.
    "unsafe": f"[\n{_CONTROLS}{_FORMAT}\u2028\u2029]",
    # The colour and weight sequences click.style() writes, and nothing else.
    "sgr": r"\x1b\[[0-9;]*m",
}
_COMPILED: dict[str, re.Pattern[str]] = {}


def _rx(name: str) -> re.Pattern[str]:
    # Compiled on first use: every command imports this module, few need more
    # than the quick isprintable() test in printable().
    rx = _COMPILED.get(name)
    if rx is None:
        rx = _COMPILED[name] = re.compile(_PATTERNS[name])
    return rx


_NAMES = {"\n": "\\n", "\r": "\\r"}


def strip_controls(text: str) -> tuple[str, int]:
    """``text`` without control and format characters, and how many characters went.

    An escape sequence (``ESC [ 2 J``, ``ESC ] 0 ; title BEL``) goes whole.
    Tab and line feed are kept: the parser reads a leading tab as indentation
    and a rule's paragraphs are separated by line feeds.
    """
    if not _has_controls(text):
        return text, 0
    cleaned = _rx("remove").sub("", text)
    return cleaned, len(text) - len(cleaned)


def _has_controls(text: str) -> bool:
    if _rx("char_bmp").search(text):
        return True
    # Astral characters: a cheap "are there any?" (isascii is free, max runs in C).
    wide = not text.isascii() and max(text) > "\uffff"
    return wide and _rx("char_astral").search(text) is not None


def describe(text: str) -> str:
    """The control and format characters in ``text``, named: ``U+001B ×2, U+202E``."""
    counts: dict[str, int] = {}
    for ch in _rx("char").findall(text):
        counts[ch] = counts.get(ch, 0) + 1
    return ", ".join(f"U+{ord(ch):04X}" + (f" ×{n}" if n > 1 else "") for ch, n in counts.items())


def printable(text: str, *, newlines: bool = False, styles: bool = False,
              json: bool = False) -> str:
    """``text`` with every control and format character shown as an escape.

    ESC becomes ``\\x1b``, a line feed ``\\n`` (unless ``newlines``), a
    right-to-left override ``\\u202e``, so nothing printed can move the
    cursor, clear the screen, set the window title or forge a line.  Tabs
    stay.

    :param styles: keep the colour sequences ``click.style`` writes.
    :param json: ``text`` is JSON: escape as ``\\u001b`` (valid inside a JSON
        string, where json.dumps leaves C1 and format characters raw) and
        keep the line feeds of its layout.
    """
    quick = text.replace("\t", "")
    if newlines or json:
        quick = quick.replace("\n", "")
    if quick.isprintable():  # no control, format or separator character at all
        return text
    if not _rx("unsafe").search(text):
        return text
    if styles:
        parts = _rx("sgr").split(text)
        out = [printable(parts[0], newlines=newlines)]
        for seq, part in zip(_rx("sgr").findall(text), parts[1:]):
            out += [seq, printable(part, newlines=newlines)]
        return "".join(out)

    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        if ch == "\n" and (newlines or json):
            return ch
        code = ord(ch)
        if json:
            if code > 0xFFFF:
                code -= 0x10000
                return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
            return f"\\u{code:04x}"
        if ch in _NAMES:
            return _NAMES[ch]
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"

    return _rx("unsafe").sub(escape, text)
