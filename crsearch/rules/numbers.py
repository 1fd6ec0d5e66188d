"""Rule numbers: parse, normalise, order, compare and find them in text.

Canonical ids (see ``model``) are ``"7"`` (section), ``"702"`` (chapter),
``"702.19"`` (rule) and ``"702.19c"`` (subrule).  Subrule letters run
a..z but skip ``l`` and ``o`` (easily mistaken for 1 and 0), and after ``z``
come ``aa``, ``ab``, ... (the CR's 704.5z is followed by 704.5aa).

Decisions worth knowing:

- ``normalize`` strips leading zeros from a rule number ("702.019" ->
  "702.19"), and allows at most two subrule letters: two give 600 subrules per
  rule and no release uses more than "aa", so longer runs are junk input.
- ``sort_key`` puts the nine sections first, then chapters, rules and
  subrules in numeric order ("1" < "9" < "100" < "100.1" < "100.1a"); within
  chapters that is document order.  Ranges may not mix a section with a
  chapter or rule, so section placement never affects a range.
- A range keeps the depth of its deepest end: "119.7-8" covers the rules
  119.7 and 119.8 but not 119.7a; "702.19c-702.20" covers 702.19c, 702.19d,
  ... and 702.20, but not 702.20a.

Only the standard library is imported: the CLI imports this on every run.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from functools import cache, lru_cache
from typing import NamedTuple

from crsearch.errors import BadInput

__all__ = [
    "Span",
    "ancestors",
    "contains",
    "expand",
    "find_references",
    "iter_references",
    "kind",
    "letter_at",
    "letter_index",
    "normalize",
    "parent",
    "parse_spec",
    "sort_key",
]

#: The subrule alphabet, in order: a..z without l and o.
LETTERS = "abcdefghijkmnpqrstuvwxyz"
_LETTER_POS = {c: i for i, c in enumerate(LETTERS)}
MAX_LETTERS = 2
#: Real rule numbers have at most three digits; the cap keeps junk out.
MAX_RULE_DIGITS = 4

# A canonical id and nothing else.  re.ASCII everywhere: without it [0-9]-ish
# classes and re.I would let in other scripts' digits and the Kelvin sign.
_CANONICAL = re.compile(
    r"(?P<sec>[1-9])|(?P<ch>[1-9][0-9]{2})"
    r"(?:\.(?P<rule>[1-9][0-9]{0,3})(?P<let>[a-km-np-z]{1,2})?)?",
    re.ASCII,
)
# The patterns below are compiled on first use: a search that parses no
# typed rule number never needs them (compiling them all costs some 6 M
# instructions of every process that imports this module).


@cache
def _loose() -> re.Pattern[str]:
    """What normalize() takes apart once prefixes, quotes and a final dot are
    gone.  "702.19.c" as some pages print it: a dot before the letters is allowed."""
    return re.compile(r"(?P<head>[0-9]+)(?:\.(?P<rule>[0-9]+))?(?:\.?\s*(?P<let>[a-z]+))?",
                      re.ASCII | re.IGNORECASE)


@cache
def _decimal_comma() -> re.Pattern[str]:
    """A decimal comma, as typed where a comma is the decimal mark: "702,19c",
    "702,19".  Three digits after the comma and no letter is a list of
    chapters ("110,111") instead."""
    return re.compile(r"([1-9][0-9]{2}),(?=[0-9]{1,2}(?:[.\s]*[a-z]{1,2})?$|[0-9]{3,4}[.\s]*[a-z])",
                      re.ASCII | re.IGNORECASE)


@cache
def _yawgatog() -> re.Pattern[str]:
    """Yawgatog's hyperlinked rules name each rule by an anchor: "R70219c" is
    702.19c, "R7021" 702.1, "R702" the chapter; a pasted link keeps its "#"."""
    return re.compile(r"(?:\S*#)?R(?P<ch>[1-9][0-9]{2})(?P<rule>[0-9]{0,4})(?P<let>[a-z]{0,2})",
                      re.ASCII | re.IGNORECASE)


@cache
def _prefix() -> re.Pattern[str]:
    """What may stand before a number: "CR", "rule(s)", "section(s)", "§",
    in any mix and case."""
    return re.compile(r"(?:(?:cr|rules?|sections?|§)\s*)+", re.ASCII | re.IGNORECASE)


_QUOTES = "\"'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb"
_BRACKETS = "()[]{}"
# Hyphen, the Unicode hyphens and dashes, and the minus sign.
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"


class _Lazy:
    """A regex compiled on first use: a rule lookup never finds references
    or reads a list of ids, so it should not pay for compiling those
    patterns at import time."""

    def __init__(self, pattern: str, flags: int = 0):
        self._args = (pattern, flags)

    def __getattr__(self, name: str):
        compiled = re.compile(*self._args)
        self.match = compiled.match
        self.search = compiled.search
        return getattr(compiled, name)


# -- letters ---------------------------------------------------------------

def letter_index(letters: str) -> int:
    """Position of subrule ``letters`` in the CR sequence (a=0, k=10, m=11,
    z=23, aa=24, ...): bijective base 24 over ``LETTERS``."""
    if not letters:
        raise BadInput("subrule letters are empty")
    n = 0
    for c in letters:
        pos = _LETTER_POS.get(c)
        if pos is None:
            raise BadInput(f"{_show(letters)} are not subrule letters: {_letter_reason(letters)}")
        n = n * 24 + pos + 1
    return n - 1


def letter_at(index: int) -> str:
    """The subrule letters at ``index`` (the inverse of ``letter_index``)."""
    if index < 0:
        raise BadInput(f"subrule letter index {index} is negative")
    out = []
    n = index + 1
    while n:
        n, digit = divmod(n - 1, 24)
        out.append(LETTERS[digit])
    return "".join(reversed(out))


def _letter_reason(letters: str) -> str:
    bad = sorted({c for c in letters if c not in _LETTER_POS})
    if set(bad) <= {"l", "o"}:
        return "subrule letters skip 'l' and 'o', which the CR never uses"
    return "only lowercase letters a-z (without l and o) are subrule letters"


# -- normalising user input -------------------------------------------------

def _show(text: str, limit: int = 40) -> str:
    """The input as quoted in an error message, cut short if it is long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def normalize(text: str) -> str:
    """Turn one forgivingly written id into its canonical form.

    Accepts "702.19C", "702.19 c", "702.19c.", "CR702.19c", "rule 702.19c",
    "§ 702.19c", "section 7", "702.", "7." and the like, with surrounding
    whitespace and quotes.  Leading zeros of a rule number are dropped.
    Raises ``BadInput`` saying why anything else is not a rule number.
    """
    s = _unwrap(text)
    prefix = _prefix().match(s)
    if prefix:
        s = _unwrap(s[prefix.end():])  # 'rule "702.19c"'
    if s.endswith("."):  # "702.19." and "7." as printed in rule headings
        s = s[:-1].rstrip()
    yawgatog = _yawgatog().fullmatch(s)
    if yawgatog:
        s = yawgatog["ch"] + (f".{yawgatog['rule']}" if yawgatog["rule"] else "") + yawgatog["let"]
    s = _decimal_comma().sub(r"\1.", s, count=1)
    if not s:
        what = "it has no number" if prefix else "it is empty"
        raise BadInput(f"{_show(text)} is not a rule number: {what}")
    m = _loose().fullmatch(s)
    if m is None:
        raise BadInput(f"{_show(text)} is not a rule number: {_shape_reason(s)}")
    head, rule, letters = m["head"], m["rule"], m["let"]

    if len(head) == 1:
        if head == "0":
            raise BadInput(f"{_show(text)} is not a rule number: sections run from 1 to 9")
        if rule is not None or letters:
            raise BadInput(f"{_show(text)} is not a rule number: a rule number starts "
                           f"with a three-digit chapter, as in 702.19")
        return head
    if len(head) != 3 or head[0] == "0":
        raise BadInput(f"{_show(text)} is not a rule number: chapters have three digits "
                       f"(100-999) and sections one (1-9)")
    if rule is None:
        if letters:
            raise BadInput(f"{_show(text)} is not a rule number: subrule letters follow "
                           f"a rule number, as in 702.19c")
        return head
    number = rule.lstrip("0")  # "702.019" -> "702.19"
    if not number:
        raise BadInput(f"{_show(text)} is not a rule number: rule numbers start at 1")
    if len(number) > MAX_RULE_DIGITS:
        raise BadInput(f"{_show(text)} is not a rule number: rule numbers have at most "
                       f"{MAX_RULE_DIGITS} digits")
    if not letters:
        return f"{head}.{number}"
    letters = letters.lower()
    if any(c not in _LETTER_POS for c in letters):
        raise BadInput(f"{_show(text)} is not a rule number: {_letter_reason(letters)}")
    if len(letters) > MAX_LETTERS:
        raise BadInput(f"{_show(text)} is not a rule number: subrules have at most "
                       f"{MAX_LETTERS} letters")
    return f"{head}.{number}{letters}"


@lru_cache(maxsize=16384)
def _normalize_id(text: str) -> str:
    """``normalize`` for the ids of running text, which repeat (a raise is not kept)."""
    return normalize(text)


def _unwrap(text: str) -> str:
    """``text`` without surrounding whitespace, quotes and brackets, as a
    number is pasted from running text: "(702.19c)", "702.19c)", "[702.19c]"."""
    return text.strip().strip(_QUOTES + _BRACKETS + " \t").strip(_QUOTES).strip()


def _shape_reason(s: str) -> str:
    """Say what is wrong with ``s``, which ``_loose()`` did not match."""
    if s[0] not in "0123456789":
        return "expected a number such as 7, 702, 702.19 or 702.19c"
    if ".." in s:
        return "it has two dots in a row"
    m = _loose().match(s)
    assert m is not None  # s starts with a digit
    return f"unexpected {_show(s[m.end():])} after {_show(s[:m.end()])}"


# -- canonical ids ----------------------------------------------------------

Parts = tuple[int, int, int, int]  # (0|1, section|chapter, rule|-1, letter|-1)


@lru_cache(maxsize=65536)
def _key(id: str) -> Parts | None:
    """Sort key of a canonical id, or None when ``id`` is not one."""
    m = _CANONICAL.fullmatch(id) if isinstance(id, str) else None
    if m is None:
        return None
    if m["sec"]:
        return (0, int(m["sec"]), -1, -1)
    rule = int(m["rule"]) if m["rule"] else -1
    let = letter_index(m["let"]) if m["let"] else -1
    return (1, int(m["ch"]), rule, let)


def _checked_key(id: str) -> Parts:
    key = _key(id)
    if key is None:
        raise BadInput(f"{_show(str(id))} is not a canonical rule id (such as 7, 702, 702.19 "
                       f"or 702.19c); normalize() it first")
    return key


def sort_key(id: str) -> tuple[int, int, int, int]:
    """Key for ``sorted(ids, key=sort_key)``: sections 1-9 first, then chapters,
    rules and subrules in numeric order (100 < 100.1 < 100.1a < 100.2 < 100.10
    < 101), letters in CR order (k < m, z < aa)."""
    return _checked_key(id)


def kind(id: str) -> str:
    """"section", "chapter", "rule" or "subrule" for a canonical id."""
    return _kind(id)


@lru_cache(maxsize=1 << 15)
def _kind(id: str) -> str:
    # Cached: a search asks it of its few hundred candidates, query after query.
    top, _, rule, let = _checked_key(id)
    if top == 0:
        return "section"
    if rule < 0:
        return "chapter"
    return "rule" if let < 0 else "subrule"


def _depth(key: Parts) -> int:
    """1 for a section, 2 chapter, 3 rule, 4 subrule."""
    top, _, rule, let = key
    return 1 if top == 0 else 2 if rule < 0 else 3 if let < 0 else 4


def parent(id: str) -> str | None:
    """The id one level up: 702.19c -> 702.19 -> 702 -> 7 -> None."""
    return _parent(id)


@lru_cache(maxsize=1 << 15)
def _parent(id: str) -> str | None:
    depth = _depth(_checked_key(id))
    if depth == 1:
        return None
    if depth == 2:
        return id[0]
    if depth == 3:
        return id.split(".", 1)[0]
    return id.rstrip(LETTERS)


def ancestors(id: str) -> list[str]:
    """Every id above ``id``, nearest first: 702.19c -> [702.19, 702, 7]."""
    out = []
    up = parent(id)
    while up is not None:
        out.append(up)
        up = parent(up)
    return out


def contains(outer: str, inner: str) -> bool:
    """True when ``inner`` is ``outer`` or lies under it ("7" holds "702.19c";
    "702.1" holds neither "702.10" nor "702.19x")."""
    _checked_key(outer)
    return outer == inner or outer in ancestors(inner)


# -- ranges and lists -------------------------------------------------------

class Span(NamedTuple):
    """An inclusive range of canonical ids; a single id has start == end.

    A named tuple rather than a dataclass: importing ``dataclasses`` alone
    costs a rule lookup a few milliseconds.
    """

    start: str
    end: str

    def __repr__(self) -> str:
        return f"Span(start={self.start!r}, end={self.end!r})"

    def __str__(self) -> str:
        return self.start if self.start == self.end else f"{self.start}\u2013{self.end}"


def _range_end(start: str, raw: str) -> str:
    """Complete an abbreviated range end from its start: "d" after 510.1c is
    510.1d, "8" after 119.7 is 119.8, "8b" after 119.7a is 119.8b."""
    skey = _checked_key(start)
    depth = _depth(skey)
    raw = _decimal_comma().sub(r"\1.", raw.strip(), count=1)  # "702.19c-702,19e"
    if raw.isalpha():
        if depth != 4:
            raise BadInput(f"range end {_show(raw)} is letters, but {start} has none")
        end = normalize(start.rstrip(LETTERS) + raw)
    elif "." not in raw and depth >= 3:
        if not raw[:1].isdigit() or (depth == 4 and raw.isdigit()):
            # "702.19c-20" could mean 702.20 or 702.19t; refuse to guess.
            raise BadInput(f"range end {_show(raw)} is ambiguous after {start}")
        end = normalize(start.split(".", 1)[0] + "." + raw)
    else:
        end = normalize(raw)
    ekey = _checked_key(end)
    if (skey[0] == 0) != (ekey[0] == 0):
        raise BadInput(f"range {start}\u2013{end} mixes a section with a chapter or rule")
    if ekey < skey:
        raise BadInput(f"range {start}\u2013{end} ends before it starts")
    return end


_SPEC_TOKEN = _Lazy(
    rf"""
      (?P<space>\s+)
    | (?P<id>[1-9][0-9]{{2}},[0-9]{{1,2}}(?![0-9])[\w.]*  # a decimal comma: "702,19c-d"
        |[0-9][\w.]*|R[1-9][0-9]{{2}}\w*)                   # normalize() judges it whole
    | (?P<dash>[{_DASHES}]|\b(?:to|through|thru)\b)
    | (?P<sep>[,;&]|\b(?:and|or)\b)
    | (?P<prefix>\b(?:rules?|sections?|cr|see)\b|cr(?=[0-9])|§)
    | (?P<letters>\b[a-z]+\b)
    """,
    re.VERBOSE | re.ASCII | re.IGNORECASE,
)


def parse_spec(text: str) -> list[Span]:
    """Parse one id, a range, or a list of them, as a user might type it.

    Accepts "510.1c-d", "601.2f–h", "119.9–10", "903.6–903.11", "510.1c to
    d", "702.19c, 702.20", "702.19c 702.20a", "rules 110.2 and 112.2",
    "110.2, 111.3, and 112.2", "608.3a and b".  Spans come back in the order
    written, as given (not merged or deduplicated).  A range may cross kinds
    ("702.19c-702.20") but not sections ("7-702").  Raises ``BadInput`` with
    the reason for anything else.
    """
    try:
        one = normalize(text)
        return [Span(one, one)]
    except BadInput as err:
        single_error = err
    s = _unwrap(text).removesuffix(".")  # a sentence's dot: "rules 100.2a–b."
    try:
        return _parse_list(s, text)
    except BadInput:
        # One word with no list or range marks: normalize() knows best why.
        if not any(c in s for c in _DASHES + ",;& \t"):
            raise single_error from None
        raise


def _parse_list(s: str, text: str) -> list[Span]:
    def bad(reason: str) -> BadInput:
        return BadInput(f"{_show(text)} is not a rule number, range or list: {reason}")

    spans: list[Span] = []
    range_open = False   # a dash came after the last item
    glued = False        # only whitespace since the last item ("702.19 c")
    pos = 0
    while pos < len(s):
        m = _SPEC_TOKEN.match(s, pos)
        if m is None:
            raise bad(f"unexpected {_show(s[pos:])}")
        pos = m.end()
        tok, what = m.group(), m.lastgroup
        if what == "space":
            continue
        if what in ("prefix", "sep", "dash"):
            if range_open:
                raise bad(f"the range before {_show(tok)} has no end")
            if what == "dash":
                if not spans or spans[-1].start != spans[-1].end:
                    raise bad(f"{_show(tok)} does not follow a single rule number")
                range_open = True
            glued = False
            continue
        # An id or a run of letters.
        last = spans[-1].end if spans else None
        if range_open:
            start = spans[-1].start
            spans[-1] = Span(start, _range_end(start, tok.rstrip(".")))
            range_open = False
        elif what == "letters":
            depth = _depth(_checked_key(last)) if last else 0
            if depth == 3 and glued and last:             # "702.19 c"
                new = normalize(last + tok)
                spans[-1] = Span(new, new)
            elif depth == 4 and last:                     # "608.3a and b"
                try:
                    new = normalize(last.rstrip(LETTERS) + tok)
                except BadInput:
                    raise bad(f"unexpected {_show(tok)}") from None
                spans.append(Span(new, new))
            else:
                raise bad(f"unexpected {_show(tok)}")
        else:
            new = normalize(tok)
            spans.append(Span(new, new))
        glued = True
    if range_open:
        raise bad("the range has no end")
    if not spans:
        raise bad("it names no rule")
    return spans


def expand(span: Span, existing: Iterable[str]) -> list[str]:
    """The ids of ``existing`` that ``span`` covers, in sort order, each once.

    A range covers ids between its ends no deeper than its deepest end, so
    "601.2f–h" gives subrules 601.2f, 601.2g, 601.2h and "119.7–8" gives the
    rules 119.7 and 119.8 without their subrules.  A single id gives itself
    if it exists.  Entries of ``existing`` that are not rule ids (such as
    glossary ids) are ignored.
    """
    skey, ekey = _checked_key(span.start), _checked_key(span.end)
    if span.start == span.end:
        pool = existing if isinstance(existing, Collection) else list(existing)
        return [span.start] if span.start in pool else []
    if (skey[0] == 0) != (ekey[0] == 0):
        raise BadInput(f"range {span} mixes a section with a chapter or rule")
    if ekey < skey:
        raise BadInput(f"range {span} ends before it starts")
    depth = max(_depth(skey), _depth(ekey))
    # A cheap string test first: ranges within a chapter are the common case.
    prefix = span.start[:3] if span.start[:3] == span.end[:3] and skey[0] else ""
    found = {}
    for id in existing:
        if not id.startswith(prefix):
            continue
        key = _key(id)
        if key is not None and skey <= key <= ekey and _depth(key) <= depth:
            found[id] = key
    return sorted(found, key=found.__getitem__)


# -- references in running text --------------------------------------------

# Where a reference starts.  The keyword is part of the printed reference;
# "see" only vouches for a bare chapter number ("See 718, ...") and is left
# out; a bare dotted number ("(see 704.5j)") needs no word at all because the
# CR writes dotted numbers only as rule ids.
_REF_HEAD = _Lazy(
    r"""
      (?P<kw>\b(?:(?:sub)?rules?|sections?)[ \t\u00a0]+|\bCR[ \t\u00a0]*|§[ \t\u00a0]*)(?=[0-9])
    | \b[Ss]ee[ \t\u00a0]+(?P<see>)(?=[1-9][0-9]{2}\b)
    | (?<![\w.$/])(?P<bare>)(?=[1-9][0-9]{2}\.[1-9]|[1-9][0-9]{2},[1-9][0-9]?[a-z])
    | (?<![\w/#])(?P<yaw>R)(?=[1-9][0-9]{3,6}[a-z]{0,2}\b)
    """,
    re.VERBOSE | re.ASCII | re.IGNORECASE,
)
# One id as printed; never followed by more of a word or number, so "20 life"
# or "702.19bis" do not pass, but the sentence dot in "rule 100.2a." stays out.
# "702.19.c" (a dot before the letters) and "702,19c" (a decimal comma, only
# with letters: "702,703" is two chapters) are read as 702.19c.
_REF_ID = _Lazy(r"[0-9]+(?:\.[0-9]+(?:\.(?=[a-z]{1,2}\b))?|,[1-9][0-9]?(?=[a-z]))?(?:[a-z]+)?"
                r"(?![\w]|\.[0-9])", re.ASCII)
# A range's dash, with at most a space either side ("rules 603.7d - f" is in
# old releases); "?" between two numbers is an en dash some archived releases
# lost in conversion ("rules 306?311").
_REF_RANGE_END = _Lazy(
    rf"""(?:[ ]?[{_DASHES}][ ]?|\?)
        (?P<end>[0-9]+(?:\.[0-9]+)?[a-z]*|[a-z]+)(?![\w]|\.[0-9])""",
    re.VERBOSE | re.ASCII,
)
# List separators; a quoted chapter title may sit between items, as in
# 'rules 701.42, “Meld,” and 730' (its comma is inside the quotes; a title
# without a comma ends the list).  No
# reference spans a line break: where old releases wrap one ("see rule
# \n212.4"), the dotted number on the next line is still found bare.
_REF_SEP = _Lazy(
    r"""(?:,[ ]*[“"][^“”"\r\n]{1,80}(?:,[”"]|[”"],)[ ]*  # ', “Meld,” ' or ', “Meld”, '
         |[ ]*,[ ]*
         |[ ]+(?=(?:and|or)[ ]))
        (?:(?:and|or)[ ]+)?""",
    re.VERBOSE | re.ASCII,
)
_REF_TITLE_NEXT = _Lazy(r",[ ]*[“\"]")
_REF_SIBLING = _Lazy(r"[b-km-np-z](?![\w'’\-]|\.\w)", re.ASCII)  # not "e.g."


def _ref_item(text: str, pos: int, prev: str | None, head: str) -> tuple[int, Span] | None:
    """Read one list item (an id, maybe a range) at ``pos``; None if none.

    ``prev`` is the previous item's last id; ``head`` what introduced the
    reference: "rule", "section", "sections", "see" or "bare".
    """
    m = _REF_ID.match(text, pos)
    if head == "yaw":
        # Yawgatog's anchor, "R70219c": one id, never a list or range.
        try:
            id = _normalize_id("R" + m.group()) if m is not None else ""
        except BadInput:
            return None
        return (m.end(), Span(id, id)) if m is not None and id else None
    if m is None:
        # "rules 608.3a and b": a lone later letter after a subrule.
        s = _REF_SIBLING.match(text, pos)
        if s is None or prev is None or _depth(_checked_key(prev)) != 4:
            return None
        new = prev.rstrip(LETTERS) + s.group()
        if _checked_key(new) <= _checked_key(prev):
            return None
        return s.end(), Span(new, new)
    try:
        start = _normalize_id(m.group())
    except BadInput:
        return None
    depth = _depth(_checked_key(start))
    # A lone number is a section or chapter only where the text vouches for
    # it: a title follows ("and 730, “Merging ...”"), the word before says so
    # ("section 8", "rule 717", "See 718, “...”"), or it continues a list of
    # its kind ("rules 614 and 615", "sections 8 and 9").  Not in "rule 702.19
    # and 100 cards", "section 8 and 3 players" or "see 100 cards".
    if depth <= 2 and not _REF_TITLE_NEXT.match(text, m.end()):
        if prev is None:
            vouched = head.startswith("section") if depth == 1 else head != "see"
        else:
            vouched = (_depth(_checked_key(prev)) == depth
                       and (depth == 2 or head == "sections"))
        if not vouched:
            return None
    end, stop = start, m.end()
    r = _REF_RANGE_END.match(text, stop)
    if r is not None:
        try:
            end, stop = _range_end(start, r["end"]), r.end()
        except BadInput:
            pass
    return stop, Span(start, end)


def find_references(text: str) -> list[tuple[int, int, str, list[Span]]]:
    """Find the cross-references in running CR text.

    Returns ``(start, end, printed, spans)`` per reference, where
    ``text[start:end] == printed`` runs from the word "rule"/"rules"/
    "section"/"CR"/"§" (or the first number, when there is none) to the end
    of the last number: "See rule 702.4." gives "rule 702.4".  A list such
    as "rules 508.1, 509.1, and 510.1" is one reference; "rule 113 and rule
    602" are two.  Chapter numbers need a word before them ("rule 717",
    "see 718"); bare dotted numbers ("(see 704.5j)") are taken as they are.
    Pass a rule's text without its own leading number.
    """
    return list(iter_references(text))


def iter_references(text: str) -> Iterator[tuple[int, int, str, list[Span]]]:
    """``find_references``, one reference at a time (for long texts)."""
    pos = 0
    while True:
        h = _REF_HEAD.search(text, pos)
        if h is None:
            return
        if h["kw"] is not None:
            word = h["kw"].strip().lower()
            head = word if word.startswith("section") else "rule"
        elif h["yaw"] is not None:
            head = "yaw"
        else:
            head = "see" if h["see"] is not None else "bare"
        item = _ref_item(text, h.end(), None, head)
        if item is None:
            pos = max(h.end(), h.start() + 1)  # the bare head is zero-width
            continue
        stop, span = item
        spans = [span]
        while head != "yaw":
            sep = _REF_SEP.match(text, stop)
            if sep is None:
                break
            nxt = _ref_item(text, sep.end(), spans[-1].end, head)
            if nxt is None:
                break
            stop, span = nxt
            spans.append(span)
        start = h.start() if h["kw"] is not None or h["yaw"] is not None else h.end()
        yield start, stop, text[start:stop], spans
        pos = stop


# -- command-line words ----------------------------------------------------------

@cache
def _word_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A lead word ("CR", "rule"), a range word (a dash, "to") and lone
    letters, as ``join_words`` tells them (compiled on first use)."""
    return (re.compile(r"(?:cr|rules?|sections?|§)", re.IGNORECASE),
            re.compile(f"(?:[{_DASHES}]|to|through)", re.IGNORECASE),
            re.compile(r"[a-zA-Z]{1,2}"))


def join_words(words: Iterable[str]) -> list[str]:
    """Group a shell's words into rule specs: ``702.19 c`` and ``CR 702.19c`` are one.

    A lone "CR", "rule", "section" or "§" joins the word after it, a lone
    letter joins the number before it, and a lone dash or "to" joins both
    neighbours; everything else starts a new spec, so ``510.1c 119.7`` stays
    two.
    """
    lead_word, range_word, lone_letters = _word_patterns()
    out: list[str] = []
    glue_next = False
    for word in words:
        if not word.strip():
            out.append(word)  # left for parse_spec to reject, with its reason
            glue_next = False
            continue
        word = word.strip()
        joins_prev = bool(out) and not glue_next and (
            (lone_letters.fullmatch(word) and not lead_word.fullmatch(word)
             and out[-1][-1:].isdigit())
            or range_word.fullmatch(word) is not None)
        if out and (glue_next or joins_prev):
            out[-1] += " " + word
        else:
            out.append(word)
        glue_next = bool(lead_word.fullmatch(word) or range_word.fullmatch(word))
    return out
