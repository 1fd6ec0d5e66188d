"""Shipped scripts without their comments and indentation.

The site's scripts explain themselves at length; a phone on a slow network
pays for every byte of it before its first search result (rank.js is a
quarter smaller gzipped without them).  Only whole lines go: a line that is
a ``//`` comment, the lines of a ``/* ... */`` comment that starts its line
and ends one, blank lines, and every line's leading whitespace.  Code never
changes: the scripts hold no string or template literal that spans lines
(tests/site/test_site_slim.py checks the tokens under node).
"""

from __future__ import annotations


def slim(code: str) -> str:
    """``code`` without its comment lines, blank lines and indentation."""
    out: list[str] = []
    in_comment = False
    for line in code.splitlines():
        text = line.strip()
        if in_comment:
            if "*/" in text and not text.endswith("*/"):
                raise ValueError(f"code after a comment on its line: {text[:60]!r}")
            in_comment = not text.endswith("*/")
            continue
        if not text or text.startswith("//"):
            continue
        if text.startswith("/*") and "*/" not in text[2:]:
            in_comment = True
            continue
        if text.startswith("/*") and text.endswith("*/") and text.count("*/") == 1:
            continue
        out.append(text)
    return "\n".join(out) + "\n"
