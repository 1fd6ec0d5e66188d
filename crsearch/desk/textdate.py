"""When a text says it was written: the date cite-check reads its numbers as of.

A rule number means what the release in effect when the text was written
made it mean, so a text that states its date (a dated heading, a byline,
"posted May 23, 2013", a front-matter ``date:``, a forum post's timestamp,
"opened 2020-07-20") is read as of that date.  A date the text merely
mentions ("the rules changed on 2017-04-28") is not when it was written, so
only these count, and only in the text's head (its front matter and first
``HEAD_LINES`` lines, where titles and bylines sit):

- a front-matter field named for the writing (``date``, ``published``,
  ``created``, ``updated``, ``lastmod`` ...);
- a date after a word that says the text was written or changed ("posted",
  "published", "written", "updated", "edited", "opened", "commented",
  "revision as of" ...), at most a few words before it ("opened this issue
  on", "commented on"), where the date ends its line or the word follows
  a name at the line's start ("LevelX2 commented on Dec 23, 2020: ...");
- a timestamp: a date with a time of day ("05-06-2009, 12:50 PM");
- a date standing alone as a heading's or byline's last or first part, set
  off by punctuation ("Judge notes, June 2003", "LevelX2 — 29 Aug 2014",
  "(#209, 2015-04-18)"), never after a preposition ("changed on", "since").

The kinds are tried in that order and the first kind found wins; within
it, the latest date (a text is as current as its last update).  A month
without a day ("June 2015") stands for the month's first day.  Numeric dates
with slashes or dashes are read month first ("05-06-2009" is 6 May, as US
forums print it) unless the first number cannot be a month; with dots, day
first ("06.05.2009").  Dates before 1993 (the game's birth) or after today
are not writing dates.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

HEAD_LINES = 15
FIRST_YEAR = 1993

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
    "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
    "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11,
    "dec": 12, "december": 12,
}
_MONTH = r"(?P<{}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{}>(?:19|20)\d\d)"

# Each form names its groups y, m (a number or a month name) and d.
_FORMS = [
    # 2013-05-23, 2013/05/23, 2013.05.23, 2013-05-23T10:00Z
    r"(?<![\d.])" + _YEAR.format("y1") + r"(?P<s1>[-/.])(?P<m1>[01]?\d)(?P=s1)(?P<d1>[0-3]?\d)(?![\d.]\d)",
    # 05-06-2009, 05/06/2009 (month first), 06.05.2009 (day first)
    r"(?<![\d.])(?P<a2>[0-3]?\d)(?P<s2>[-/.])(?P<b2>[0-3]?\d)(?P=s2)" + _YEAR.format("y2") + r"(?![\d.]\d)",
    # May 23, 2013; May 23rd 2013; Sept. 3, 2015
    r"\b" + _MONTH.format("m3") + r"\s+" + _DAY.format("d3") + r",?\s+" + _YEAR.format("y3") + r"\b",
    # 23 May 2013; 1st September, 2018; 8 April 2006
    r"\b" + _DAY.format("d4") + r"\s+(?:of\s+)?" + _MONTH.format("m4") + r",?\s+" + _YEAR.format("y4") + r"\b",
    # June 2015 (a month: its first day)
    r"\b" + _MONTH.format("m5") + r",?\s+" + _YEAR.format("y5") + r"\b",
]
_DATE = re.compile("|".join(f"(?:{f})" for f in _FORMS), re.IGNORECASE)

# Words that say the text was written or changed then.
_CUE = re.compile(
    r"\b(?:posted|published|written|wrote|updated|last\s+(?:updated|modified|edited|revised)|"
    r"modified|edited|revised|revision(?:\s+as\s+of)?|opened|commented|comment|created|dated|"
    r"replied|reply|submitted|filed|reported|authored|date)\b[\s:]*(?:[\w#'’.,:-]+\s+){0,3}?"
    r"(?:on\s+|at\s+)?$",
    re.IGNORECASE)
# A time of day next to a date: a post's timestamp.
_TIME = re.compile(r"^(?:,?\s*(?:at\s+)?|T)\d{1,2}:\d\d(?::\d\d)?(?:\s*[ap]\.?m\.?)?", re.IGNORECASE)
_TIME_BEFORE = re.compile(r"\d{1,2}:\d\d(?::\d\d)?(?:\s*[ap]\.?m\.?)?,?\s*$", re.IGNORECASE)
# A preposition right before a date: a date the prose speaks of.
_PROSE = re.compile(r"\b(?:on|since|after|before|until|till|from|in|by|to|of|between|and|"
                    r"through|effective|as\s+of|during|around|circa)\s*$", re.IGNORECASE)
# What may set a heading's date apart: the line's start or punctuation.
_SET_OFF_BEFORE = re.compile(r"(?:^|[,;:(\[|·•—–-]|\s-)\s*(?:#\d+,\s*)?$")
_SET_OFF_AFTER = re.compile(r"^\s*(?:$|[)\]|·•—–:;]|,\s*(?:\d{1,2}:\d\d|$)|\s-\s)")
# A writing date ends its line ("... — posted May 23, 2013", "Alchus
# commented Jan 3, 2015:"), or follows a name at the line's start
# ("LevelX2 commented on Dec 23, 2020: seems correct ..."); in the middle of
# prose ("... drove 100 km, posted on 2015-06-01, started ...") it is not one.
_LINE_END = re.compile(r"^[\s)\].,:;!?—–-]*$")
_BYLINE = re.compile(r"^[\s#>*_|—–-]*(?:[^\s,;.]+\s+){0,2}$")
_FRONT_KEYS = re.compile(r"^\s*(date|published|pubdate|created|updated|lastmod|last_modified|"
                         r"modified|written)\s*[:=]\s*(.+)$", re.IGNORECASE)

KINDS = ("front matter", "written", "timestamp", "heading")


class TextDate:
    """A date the text gives for itself: ``date`` (YYYY-MM-DD), where
    (1-based ``line``), the ``words`` around it and the ``kind`` of mark."""

    __slots__ = ("date", "kind", "line", "words")

    def __init__(self, date: str, line: int, words: str, kind: str):
        self.date, self.line, self.words, self.kind = date, line, words, kind

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date, "line": self.line, "words": self.words, "kind": self.kind}

    def __repr__(self) -> str:
        return f"<TextDate {self.date} line {self.line} ({self.kind}): {self.words!r}>"


def parse_date(m: re.Match[str], today: datetime.date) -> str | None:
    """The YYYY-MM-DD of a ``_DATE`` match, or None if it is no real date."""
    g = m.groupdict()
    if g["y1"]:
        y, mo, d = int(g["y1"]), int(g["m1"]), int(g["d1"])
    elif g["y2"]:
        a, b = int(g["a2"]), int(g["b2"])
        day_first = g["s2"] == "." or a > 12
        y, mo, d = int(g["y2"]), (b if day_first else a), (a if day_first else b)
    elif g["y3"]:
        y, mo, d = int(g["y3"]), _MONTHS[g["m3"].lower()], int(g["d3"])
    elif g["y4"]:
        y, mo, d = int(g["y4"]), _MONTHS[g["m4"].lower()], int(g["d4"])
    else:
        y, mo, d = int(g["y5"]), _MONTHS[g["m5"].lower()], 1
    try:
        day = datetime.date(y, mo, d)
    except ValueError:
        return None
    if day.year < FIRST_YEAR or day > today:
        return None
    return day.isoformat()


def _front_matter(lines: list[str]) -> tuple[int, int]:
    """The lines of a YAML (---) or TOML (+++) front matter block: [1, end)."""
    if not lines or lines[0].strip() not in ("---", "+++"):
        return 0, 0
    fence = lines[0].strip()
    for n, line in enumerate(lines[1:60], 1):
        if line.strip() == fence:
            return 1, n
    return 0, 0


def _shown(line: str, a: int, b: int, width: int = 80) -> str:
    """The words of ``line`` around [a, b), cut to about ``width`` characters."""
    line = line.strip() if len(line.strip()) <= width else line
    if len(line) <= width:
        return line.strip()
    lo = max(0, min(a - width // 2, len(line) - width))
    out = line[lo:lo + width].strip()
    return ("…" if lo > 0 else "") + out + ("…" if lo + width < len(line) else "")


def marks(text: str, today: datetime.date | None = None) -> list[TextDate]:
    """Every writing date in the head of ``text``, in text order (see the module)."""
    today = today or datetime.date.today()
    lines = text[:20000].splitlines()
    out: list[TextDate] = []
    fm_start, fm_end = _front_matter(lines)
    for n in range(fm_start, fm_end):
        kv = _FRONT_KEYS.match(lines[n])
        if kv:
            m = _DATE.search(kv.group(2))
            day = parse_date(m, today) if m else None
            if day:
                out.append(TextDate(day, n + 1, lines[n].strip(), "front matter"))
    seen = 0
    for n in range(fm_end + 1 if fm_end else 0, len(lines)):
        line = lines[n]
        if not line.strip():
            continue
        seen += 1
        if seen > HEAD_LINES:
            break
        for m in _DATE.finditer(line):
            day = parse_date(m, today)
            if day is None:
                continue
            before, after = line[:m.start()], line[m.end():]
            cue = _CUE.search(before)
            if cue and (_LINE_END.match(after) or _BYLINE.match(before[:cue.start()])):
                kind = "written"
            elif _TIME.match(after) or _TIME_BEFORE.search(before):
                kind = "timestamp"
            elif _PROSE.search(before):
                continue
            elif _SET_OFF_BEFORE.search(before) and _SET_OFF_AFTER.match(after) \
                    and _heading_like(line, m):
                kind = "heading"
            else:
                continue
            out.append(TextDate(day, n + 1, _shown(line, m.start(), m.end()), kind))
    return out


def _heading_like(line: str, m: re.Match[str]) -> bool:
    """A date that is the start or end of its line's first clause, not prose
    around it: at most a name before it, or a short title."""
    before = line[:m.start()].strip(" \t#>*_-—–|([")
    after = line[m.end():].strip(" \t)]|:—–-")
    head_words = len(re.findall(r"[^\W_]+", before))
    if not after or re.match(r"^,?\s*\d{1,2}:\d\d", after):
        # The line ends with the date: a title or byline, if not a long sentence.
        return head_words <= 12 and not before.rstrip().endswith(".")
    # The date opens the line or follows a name: "LevelX2, 2014-07-23: ..."
    return head_words <= 3


def written_on(text: str, today: datetime.date | None = None) -> TextDate | None:
    """When ``text`` says it was written, or None (see the module for the rule)."""
    found = marks(text, today)
    for kind in KINDS:
        these = [t for t in found if t.kind == kind]
        if these:
            return max(these, key=lambda t: (t.date, -t.line))
    return None


__all__ = ["HEAD_LINES", "TextDate", "marks", "parse_date", "written_on"]
