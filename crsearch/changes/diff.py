"""What changed or moved between two releases (``history.py`` follows one rule).

A judge after a set release wants the real changes, not the ripple of
renumbering: when a subrule is inserted at 310.8, the old 310.8 ... 310.11
become 310.9 ... 310.12 with the same text, and every rule citing them
updates its "see rule" number.  Comparing by id alone would report all of
those as rewritten.  So rules are paired in passes, cheapest first:

1. same id, same text: unchanged (almost everything);
2. the same text up to typography (quotes, dashes, spacing), any id;
3. word-level ``difflib`` ratio >= 0.9, any id (a prefix filter over rare
   words keeps this to a few hundred comparisons, even for 2003 -> 2026);
4. ratio >= 0.6 between rules of the same (paired) chapter, or subrules of
   the same (paired) rule; ratio >= 0.5, or one text holding most of the
   other, when the id is the same too;

whatever is left is added or removed.  A pair with different ids is a move.
A change whose words differ only in typography is ``cosmetic``; one whose
words differ only in rule numbers that follow a move is ``renumbering``.

Only the standard library is used; nothing here prints.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from math import ceil
from typing import Any

from crsearch.errors import BadInput, short
from crsearch.rules import numbers
from crsearch.rules.model import Chapter, GlossaryEntry, Release, Rule, Section

#: Word-level similarity above which two rules are one rule, wherever they are.
MOVE_RATIO = 0.9
#: Similarity enough between siblings (same paired parent or chapter).
SIBLING_RATIO = 0.6
#: Similarity enough for two rules with the same id and the same parent.
SAME_ID_RATIO = 0.5
#: Sibling groups larger than this (old x new) are compared only at MOVE_RATIO.
_MAX_GROUP_PAIRS = 40_000
#: Runs of changed rules read one by one from a chapter before it is read whole.
_MAX_RUNS = 8

Segment = tuple[str, str]  # ("equal" | "delete" | "insert", text)

# Typography that carries no meaning, and its plain spelling.
_PLAIN = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u00ad": "", "\u2026": "...",
    "\u2122": "(tm)", "\u00ae": "(r)", "\u00a9": "(c)",
    "_": "",  # "_Future Sight_": italics marked up in some releases
}
_ODD = re.compile("[" + "".join(_PLAIN) + "]")
_SPACE = re.compile(r"\s+")
_LOSSY = re.compile(r"\((?:tm|r|c)\)|['\"?-]")
# A word (with inner hyphens, apostrophes and dots, so "face-down", "doesn't"
# and "310.8a" are one token) or one other character, with the spaces before it.
_TOKEN = re.compile(r"(\s*)(\w+(?:[-.'\u2019]\w+)*|[^\w\s])")
_WORD = re.compile(r"\w+(?:[.']\w+)*")


def normalize_typography(text: str) -> str:
    """``text`` with curly quotes, dashes, trademark signs, italics marks, odd
    spaces and runs of whitespace made plain."""
    text = _ODD.sub(lambda m: _PLAIN[m.group()], text)
    return _SPACE.sub(" ", text).strip()


def _same_but_typography(old: str, new: str) -> bool:
    """True when two texts differ only in typography.

    Besides :func:`normalize_typography`, a quote, apostrophe, dash or
    trademark sign may stand in for another, or be a "?": a few archived
    releases (2008-05-01) carry "?" wherever the original had a typographic
    character.
    """
    a, b = normalize_typography(old), normalize_typography(new)
    return a == b or _LOSSY.sub("?", a) == _LOSSY.sub("?", b)


def _token_keys(found: list[tuple[str, str]]) -> list[str]:
    """The tokens ``_TOKEN.findall`` found, each with its typography made plain.

    A token holds no whitespace, and "_" is the only ASCII character made
    plain, so most tokens are their own key: two string tests instead of
    two substitutions (a diff compares thousands of tokens).
    """
    return [t if t.isascii() and "_" not in t else normalize_typography(t) for _, t in found]


def _words(text: str) -> list[str]:
    return _WORD.findall(normalize_typography(text).lower())


# -- word diff ---------------------------------------------------------------

def word_diff(old: str, new: str, typography: bool = True) -> list[Segment]:
    """The word-level difference of two texts as ``(op, text)`` segments.

    Joining the "equal" and "insert" segments gives ``new`` and joining
    "equal" and "delete" gives ``old``, up to the spaces around a change.
    With ``typography`` false, words that differ only in typography count as
    equal (shown as in ``new``), so a real change isn't lost among quotes.
    """
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    keys_a, keys_b = _token_keys(a), _token_keys(b)
    if not typography:
        keys_a = [_LOSSY.sub("?", k) for k in keys_a]
        keys_b = [_LOSSY.sub("?", k) for k in keys_b]
    out: list[Segment] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            # Typography differences inside an equal run still show.
            for (was, x), (space, y) in zip(a[i1:i2], b[j1:j2]):
                if out and out[-1][0] != "equal" and not space:
                    space = was  # "[-x-] a b", not "[-x-]a b"
                if x == y or not typography:
                    add("equal", space + y)
                else:
                    add("equal", space)
                    add("delete", x)
                    add("insert", y)
            continue
        gone, came = a[i1:i2], b[j1:j2]
        # The space before a change stays outside it: "the [-red-]{+blue+} card".
        add("equal", (came or gone)[0][0])
        add("delete", "".join(s + t for s, t in gone)[len(gone[0][0]):] if gone else "")
        add("insert", "".join(s + t for s, t in came)[len(came[0][0]):] if came else "")
    return _merge_small_gaps(out)


def _merge_small_gaps(segments: list[Segment]) -> list[Segment]:
    """Fold a lone space or punctuation between two changes into the changes,
    so a rewritten phrase reads as one deletion and one insertion."""
    runs: list[list[str]] = []  # ["equal", text] or ["change", deleted, inserted]
    for op, text in segments:
        if op == "equal":
            runs.append(["equal", text])
            continue
        if not runs or runs[-1][0] != "change":
            if len(runs) >= 2 and runs[-2][0] == "change" and not _WORD.search(runs[-1][1]):
                gap = runs.pop()[1]  # "[-a-]{+b+}, [-c-]" -> one change
                runs[-1][1] += gap
                runs[-1][2] += gap
            else:
                runs.append(["change", "", ""])
        runs[-1][1 if op == "delete" else 2] += text
    out: list[Segment] = []
    for run in runs:
        if run[0] == "equal":
            out.append(("equal", run[1]))
        else:
            out += [(op, t) for op, t in (("delete", run[1]), ("insert", run[2])) if t.strip()]
    return out


def ratio(old: str, new: str) -> float:
    """Word-level ``difflib`` similarity of two texts, typography ignored."""
    return _similarity(_words(old), _words(new))


def _similarity(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


# -- the result ----------------------------------------------------------------

class Version:
    """One side of a change: a rule, glossary entry or heading as one release has it.

    Read it by attribute (``c.new.text``); ``v["text"]`` works too.  Fields
    a kind lacks are ``None`` (a heading has no text; a rule no term).
    """

    __slots__ = ("id", "kind", "title", "text", "examples", "term", "heading")
    id: str
    kind: str
    title: str | None
    text: str
    examples: list[str]
    term: str | None
    heading: str | None

    def __init__(self, id: str, kind: str, title: str | None = None, text: str = "",
                 examples: list[str] | None = None, term: str | None = None,
                 heading: str | None = None):
        self.id, self.kind, self.title, self.text = id, kind, title, text
        self.examples = list(examples or [])
        self.term, self.heading = term, heading

    @classmethod
    def of_rule(cls, r: Rule) -> Version:
        return cls(r.id, r.kind, r.title, r.text, r.examples)

    @classmethod
    def of_entry(cls, g: GlossaryEntry) -> Version:
        return cls(g.id, "glossary", None, g.text, g.examples, g.term, g.heading)

    @classmethod
    def of_heading(cls, h: Section | Chapter) -> Version:
        return cls(h.id, h.kind, h.title)

    def fields(self) -> dict[str, str]:
        """The texts compared, by name ("text", "examples", "heading", "title")."""
        if self.kind == "glossary":
            return {"heading": self.heading or "", "text": self.text}
        if self.kind in ("section", "chapter"):
            return {"title": self.title or ""}
        return {"text": self.text, "examples": "\n".join(self.examples)}

    def __getitem__(self, key: str) -> Any:
        if key not in self.to_dict():
            raise KeyError(key)
        return getattr(self, key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "glossary":
            return {"id": self.id, "term": self.term, "heading": self.heading,
                    "text": self.text, "examples": list(self.examples)}
        if self.kind in ("section", "chapter"):
            return {"id": self.id, "title": self.title}
        return {"id": self.id, "kind": self.kind, "title": self.title, "text": self.text,
                "examples": list(self.examples)}

    def __repr__(self) -> str:
        return f"<Version {self.kind} {self.id}>"


class Change:
    """One difference between two releases.

    ``kind`` is "section", "chapter", "rule", "subrule" or "glossary" (the
    new item's kind; ``old_kind`` the old one's).  ``op`` is "added",
    "removed", "changed" (same id, text differs), "moved" (the id changed;
    the text may have too) or "retitled" (a section or chapter heading).
    ``fields`` maps each differing field ("text", "examples", "title",
    "heading") to its word diff.
    """

    __slots__ = (
        "cosmetic",
        "fields",
        "kind",
        "new",
        "new_id",
        "old",
        "old_id",
        "old_kind",
        "op",
        "renumbering",
        "similarity",
    )

    def __init__(self, kind: str, op: str, old_id: str | None, new_id: str | None,
                 old: Version | None, new: Version | None,
                 fields: dict[str, list[Segment]] | None = None, similarity: float = 1.0,
                 cosmetic: bool = False, renumbering: bool = False,
                 old_kind: str | None = None):
        self.kind, self.op, self.old_id, self.new_id = kind, op, old_id, new_id
        self.old, self.new = old, new
        self.fields = fields or {}
        self.similarity = similarity
        self.cosmetic, self.renumbering = cosmetic, renumbering
        self.old_kind = old_kind or kind

    @property
    def id(self) -> str:
        """The id in the newer release (the old one for removals)."""
        return self.new_id if self.new_id is not None else self.old_id  # type: ignore[return-value]

    @property
    def text_changed(self) -> bool:
        return bool(self.fields)

    @property
    def noise(self) -> bool:
        """True when the text difference is only typography or follows renumbering."""
        return self.text_changed and (self.cosmetic or self.renumbering)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "old_kind": self.old_kind, "op": self.op,
            "old_id": self.old_id, "new_id": self.new_id,
            "old": self.old.to_dict() if self.old else None,
            "new": self.new.to_dict() if self.new else None,
            "diff": {k: [list(s) for s in v] for k, v in self.fields.items()},
            "similarity": round(self.similarity, 3),
            "cosmetic": self.cosmetic, "renumbering": self.renumbering,
        }

    def __repr__(self) -> str:
        ids = self.id if self.op != "moved" else f"{self.old_id}->{self.new_id}"
        flags = "".join([" cosmetic" if self.cosmetic else "",
                         " renumbering" if self.renumbering else ""])
        return f"<Change {self.op} {self.kind} {ids}{flags}>"


KINDS = ("section", "chapter", "rule", "subrule", "glossary")
OPS = ("added", "removed", "changed", "moved", "retitled")


class ReleaseDiff:
    """Every difference between two releases, in the newer release's order."""

    def __init__(self, old_date: str, new_date: str, changes: list[Change],
                 old_counts: dict[str, int], new_counts: dict[str, int],
                 notes: list[str] | None = None):
        self.old_date, self.new_date = old_date, new_date
        self.changes = changes
        self.old_counts, self.new_counts = old_counts, new_counts
        #: Warnings a reader should see first (an incomplete release).
        self.notes = list(notes or [])

    def __iter__(self):
        return iter(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def of(self, op: str | None = None, kind: str | None = None) -> list[Change]:
        return [c for c in self.changes
                if (op is None or c.op == op) and (kind is None or c.kind == kind)]

    def counts(self) -> dict[str, dict[str, int]]:
        """``{kind: {op: n}}`` for every kind and op (zeros included)."""
        out = {k: {op: 0 for op in OPS} for k in KINDS}
        for c in self.changes:
            out[c.kind][c.op] += 1
        return out

    def filtered(self, kind: str = "all", cosmetic: bool = True) -> ReleaseDiff:
        """Only rule-side ("rules": sections, chapters, rules, subrules) or
        glossary changes; without ``cosmetic`` changes if asked."""
        if kind not in ("all", "rules", "glossary"):
            raise BadInput(f"unknown kind {short(str(kind))!r}: use rules, glossary or all")
        keep = [c for c in self.changes
                if (kind == "all" or (c.kind == "glossary") == (kind == "glossary"))
                and (cosmetic or not (c.cosmetic and c.op in ("changed", "retitled")))]
        return ReleaseDiff(self.old_date, self.new_date, keep, self.old_counts, self.new_counts,
                           self.notes)

    def to_dict(self) -> dict[str, Any]:
        return {"old": self.old_date, "new": self.new_date,
                "old_counts": self.old_counts, "new_counts": self.new_counts,
                "notes": self.notes, "summary": self.counts(),
                "changes": [c.to_dict() for c in self.changes]}

    def __repr__(self) -> str:
        return f"<ReleaseDiff {self.old_date} -> {self.new_date}: {len(self.changes)} changes>"


# -- pairing -------------------------------------------------------------------

class _Item:
    """What the matcher needs of a rule or glossary entry."""

    __slots__ = ("_key", "_words", "body", "group", "id", "kind", "obj", "pos", "text")

    def __init__(self, id: str, kind: str, pos: int, group: str | None, body: str, obj: Any,
                 text: str | None = None):
        self.id, self.kind, self.pos, self.group, self.body, self.obj = id, kind, pos, group, body, obj
        # Similarity looks at the rule text alone: examples get rewritten
        # more freely than the rule they illustrate.
        self.text = body if text is None else text
        self._key: str | None = None
        self._words: list[str] | None = None

    # Computed only for the few items left after pairing by id and text.
    @property
    def key(self) -> str:
        if self._key is None:
            self._key = normalize_typography(self.body)
        return self._key

    @property
    def words(self) -> list[str]:
        if self._words is None:
            self._words = _words(self.text)
        return self._words


def _pair(old: list[_Item], new: list[_Item], group_map: dict[str, str],
          sibling_kinds: Sequence[str] = ("rule", "subrule")) -> list[tuple[_Item | None, _Item | None, float]]:
    """Pair old and new items; unpaired ones come back with ``None`` opposite.

    ``group_map`` maps an old group (chapter or parent id) to the new one;
    it grows as rules are paired, so subrules follow their moved parent.
    """
    pairs: dict[int, tuple[int, float]] = {}  # old index -> (new index, score)
    new_taken: set[int] = set()
    n_old, n_new = max(len(old), 1), max(len(new), 1)

    def take(candidates: list[tuple[float, float, int, int]]) -> None:
        # candidates: (score, tiebreak, old index, new index); best first.
        candidates.sort(key=lambda c: (-c[0], -c[1]))
        for score, _, i, j in candidates:
            if i not in pairs and j not in new_taken:
                pairs[i] = (j, score)
                new_taken.add(j)
                # Subrules of a paired rule look for partners under its new id.
                group_map[old[i].id] = new[j].id

    def tiebreak(i: int, j: int) -> float:
        o, n = old[i], new[j]
        same_group = 1.0 if o.group is not None and group_map.get(o.group) == n.group else 0.0
        return (2.0 if o.id == n.id else 0.0) + same_group - abs(i / n_old - j / n_new)

    # 1. Same id, same text.
    new_by_id: dict[str, int] = {}
    for j, n in enumerate(new):
        new_by_id.setdefault(n.id, j)
    take([(1.0, 3.0, i, new_by_id[o.id]) for i, o in enumerate(old)
          if o.id in new_by_id and o.body == new[new_by_id[o.id]].body])
    # 2. Same text up to typography, any id.
    by_key: dict[str, list[int]] = {}
    for j, n in enumerate(new):
        if j not in new_taken:
            by_key.setdefault(n.key, []).append(j)
    take([(1.0, tiebreak(i, j), i, j) for i, o in enumerate(old) if i not in pairs
          for j in by_key.get(o.key, ())])
    # 3. Nearly the same words, any id.
    rest_old = [i for i in range(len(old)) if i not in pairs]
    rest_new = [j for j in range(len(new)) if j not in new_taken]
    take([(s, tiebreak(i, j), i, j) for i, j, s in
          _similar_pairs(old, new, rest_old, rest_new, MOVE_RATIO)])
    # 4. Siblings: rules of paired chapters, then subrules of paired rules.
    for kind in sibling_kinds:
        groups: dict[str | None, tuple[list[int], list[int]]] = {}
        for j, n in enumerate(new):
            if j not in new_taken and n.kind == kind:
                groups.setdefault(n.group, ([], []))[1].append(j)
        for i, o in enumerate(old):
            if i not in pairs and o.kind == kind and o.group is not None:
                target = group_map.get(o.group)
                if target in groups:
                    groups[target][0].append(i)
        cands = []
        for olds, news in groups.values():
            if not olds or not news:
                continue
            # The same id under the same parent: one rule, unless the texts
            # have little in common ("730.2j" that grew a sentence counts).
            by_id = {new[j].id: j for j in news}
            for i in olds:
                same = by_id.get(old[i].id)
                if same is not None:
                    j = same
                    s = _similarity(old[i].words, new[j].words)
                    shared = s * (len(old[i].words) + len(new[j].words)) / 2
                    if s >= SAME_ID_RATIO or shared >= 0.8 * min(len(old[i].words), len(new[j].words)):
                        cands.append((s + 0.1, tiebreak(i, j), i, j))
            if len(olds) * len(news) <= _MAX_GROUP_PAIRS:
                cands += [(s, tiebreak(i, j), i, j) for i, j, s in
                          _similar_pairs(old, new, olds, news, SIBLING_RATIO, exhaustive=True)
                          if old[i].id != new[j].id]
        take(cands)
    out: list[tuple[_Item | None, _Item | None, float]] = []
    for i, o in enumerate(old):
        if i in pairs:
            j, s = pairs[i]
            out.append((o, new[j], min(s, 1.0)))
        else:
            out.append((o, None, 0.0))
    out += [(None, n, 0.0) for j, n in enumerate(new) if j not in new_taken]
    return out


def _similar_pairs(old: list[_Item], new: list[_Item], olds: list[int], news: list[int],
                   threshold: float, exhaustive: bool = False) -> Iterable[tuple[int, int, float]]:
    """Pairs (old index, new index, ratio) with word ratio >= ``threshold``.

    The ratio can't exceed the overlap of the two word multisets
    (``quick_ratio``), so a pair must share one of the rarest few words of
    each text (prefix filtering): only those pairs are compared in full.
    """
    if not olds or not news:
        return
    if exhaustive:
        candidates: dict[int, set[int]] = {j: set(olds) for j in news}
    else:
        freq: Counter[str] = Counter()
        for i in olds:
            freq.update(set(old[i].words))
        for j in news:
            freq.update(set(new[j].words))

        def prefix(words: list[str]) -> list[tuple[str, int]]:
            seen: Counter[str] = Counter()
            tokens = []
            for w in words:
                seen[w] += 1
                tokens.append((w, seen[w]))
            tokens.sort(key=lambda t: (freq[t[0]], t))
            need = ceil(threshold * len(tokens) / (2 - threshold) - 1e-9)
            return tokens[:max(len(tokens) - need + 1, 0)]

        index: dict[tuple[str, int], list[int]] = {}
        for i in olds:
            for t in prefix(old[i].words):
                index.setdefault(t, []).append(i)
        candidates = {}
        for j in news:
            found: set[int] = set()
            for t in prefix(new[j].words):
                found.update(index.get(t, ()))
            if found:
                candidates[j] = found
    counters: dict[tuple[str, int], Counter[str]] = {}
    for j, found in candidates.items():
        b = new[j].words
        if not b:
            continue
        cb = Counter(b)
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(b)
        for i in found:
            a = old[i].words
            total = len(a) + len(b)
            if not a or 2 * min(len(a), len(b)) < threshold * total:
                continue
            ca = counters.get(("o", i))
            if ca is None:
                ca = counters[("o", i)] = Counter(a)
            if 2 * sum((ca & cb).values()) < threshold * total:
                continue
            matcher.set_seq1(a)
            s = matcher.ratio()
            if s >= threshold:
                yield i, j, s


# -- building changes ----------------------------------------------------------

def _rule_body(r: Rule) -> str:
    return "\n".join([r.text, *r.examples])


def describe(kind: str, op: str, old: Version | None, new: Version | None,
             similarity: float, idmap: dict[str, str], old_kind: str | None = None) -> Change:
    """The ``Change`` from ``old`` to ``new``: word diffs of the fields that differ,
    and whether they differ only in typography or in renumbered references.

    ``idmap`` maps old rule ids to new ones (the moves found so far).
    """
    fields: dict[str, list[Segment]] = {}
    cosmetic = renumbering = False
    if old is not None and new is not None:
        a, b = old.fields(), new.fields()
        cosmetic = renumbering = True
        for name in a:
            if a[name] == b[name]:
                continue
            typographic = _same_but_typography(a[name], b[name])
            segments = word_diff(a[name], b[name], typography=typographic)
            fields[name] = segments if typographic else _quiet_renumbering(segments, idmap)
            if not typographic:
                cosmetic = False
            if not _follows_renumbering(a[name], b[name], idmap):
                renumbering = False
        if not fields:
            cosmetic = renumbering = False
        elif cosmetic:
            renumbering = False
    return Change(kind, op, old.id if old else None, new.id if new else None, old, new,
                  fields, similarity, cosmetic, renumbering, old_kind)


def _quiet_renumbering(segments: list[Segment], idmap: dict[str, str]) -> list[Segment]:
    """Show a reference that only follows a move ("see rule 310.12") as unchanged,
    so the real change around it stands out."""
    out: list[Segment] = []
    for seg in segments:
        if (seg[0] == "insert" and out and out[-1][0] == "delete"
                and _follows_renumbering(out[-1][1], seg[1], idmap)):
            out.pop()
            seg = ("equal", seg[1])
        if out and out[-1][0] == seg[0] == "equal":
            out[-1] = ("equal", out[-1][1] + seg[1])
        else:
            out.append(seg)
    return out


def _follows_renumbering(old: str, new: str, idmap: dict[str, str]) -> bool:
    """True when ``new`` is ``old`` with rule numbers replaced as the moves say."""
    if not idmap:
        return False
    a, b = _token_keys(_TOKEN.findall(old)), _token_keys(_TOKEN.findall(new))
    if len(a) != len(b):
        return False
    differs = False
    for x, y in zip(a, b):
        if x == y:
            continue
        # "310.8a-g" -> "310.9a-g": compare the parts of a hyphenated range.
        xs, ys = x.split("-"), y.split("-")
        if len(xs) != len(ys) or any(p != q and idmap.get(p) != q for p, q in zip(xs, ys)):
            return False
        differs = True
    return differs


def pair_headings(old: Sequence[Section | Chapter], new: Sequence[Section | Chapter],
                  kind: str) -> tuple[list[Change], dict[str, str]]:
    """Pair sections or chapters by id, then by title; report the differences."""
    changes: list[Change] = []
    mapping: dict[str, str] = {}
    new_by_id = {h.id: h for h in new}
    used: set[str] = set()
    rest_old = []
    for h in old:
        n = new_by_id.get(h.id)
        if n is not None and normalize_typography(h.title) == normalize_typography(n.title):
            mapping[h.id] = n.id
            used.add(n.id)
        else:
            rest_old.append(h)
    by_title = {normalize_typography(h.title).lower(): h for h in new if h.id not in used}
    unpaired = []
    for h in rest_old:
        n = by_title.get(normalize_typography(h.title).lower())
        if n is not None and n.id not in used:
            mapping[h.id] = n.id
            used.add(n.id)
        else:
            unpaired.append(h)
    for h in unpaired:
        n = new_by_id.get(h.id)
        if n is not None and n.id not in used:
            mapping[h.id] = n.id
            used.add(n.id)
    data = Version.of_heading
    old_by_id = {h.id: h for h in old}
    for o_id, n_id in mapping.items():
        o, n = old_by_id[o_id], new_by_id[n_id]
        if o_id != n_id:
            changes.append(describe(kind, "moved", data(o), data(n), 1.0, {}))
        elif o.title != n.title:
            changes.append(describe(kind, "retitled", data(o), data(n),
                                     ratio(o.title, n.title), {}))
    changes += [describe(kind, "removed", data(h), None, 0.0, {})
                for h in old if h.id not in mapping]
    changes += [describe(kind, "added", None, data(h), 0.0, {})
                for h in new if h.id not in used]
    return changes, mapping


def _rule_items(rules: Sequence[Rule]) -> list[_Item]:
    return [_Item(r.id, r.kind, k, r.chapter if r.kind == "rule" else numbers.parent(r.id),
                  _rule_body(r), r, r.text) for k, r in enumerate(rules)]


def pair_rules(old: Sequence[Rule], new: Sequence[Rule],
               group_map: dict[str, str] | None = None) -> list[tuple[Rule | None, Rule | None, float]]:
    """Pair the rules of two releases (or of one chapter of each).

    ``group_map`` maps old chapter ids to new ones (identity by default).
    """
    gm = dict(group_map) if group_map is not None else {}
    for r in old:
        if r.kind == "rule":
            gm.setdefault(r.chapter, r.chapter)
    return [(o.obj if o else None, n.obj if n else None, s)
            for o, n, s in _pair(_rule_items(old), _rule_items(new), gm)]


def _rule_changes(old: Sequence[Rule], new: Sequence[Rule],
                  chapter_map: dict[str, str]) -> tuple[list[Change], dict[str, str]]:
    pairs = pair_rules(old, new, chapter_map)
    idmap = {o.id: n.id for o, n, _ in pairs if o and n and o.id != n.id}
    changes = []
    for o, n, s in pairs:
        if o is None:
            assert n is not None
            changes.append(describe(n.kind, "added", None, Version.of_rule(n), 0.0, idmap))
        elif n is None:
            changes.append(describe(o.kind, "removed", Version.of_rule(o), None, 0.0, idmap))
        elif o.id != n.id:
            changes.append(describe(n.kind, "moved", Version.of_rule(o), Version.of_rule(n), s, idmap,
                                     old_kind=o.kind))
        elif (o.text, o.examples) != (n.text, n.examples):
            changes.append(describe(n.kind, "changed", Version.of_rule(o), Version.of_rule(n), s, idmap))
    return changes, idmap


def _glossary_changes(old: Sequence[GlossaryEntry], new: Sequence[GlossaryEntry],
                      idmap: dict[str, str]) -> list[Change]:
    """Pair glossary entries by term, then renamed ones by their definition."""
    def items(entries: Sequence[GlossaryEntry]) -> list[_Item]:
        seen: Counter[str] = Counter()
        out = []
        for k, g in enumerate(entries):
            key = g.term.lower()
            seen[key] += 1
            ident = key if seen[key] == 1 else f"{key}#{seen[key]}"
            out.append(_Item(ident, "glossary", k, None, g.heading + "\n" + g.text, g))
        return out

    a, b = items(old), items(new)
    b_by_id = {n.id: n for n in b}
    pairs: list[tuple[_Item | None, _Item | None, float]] = []
    rest_a = []
    for item in a:
        same = b_by_id.pop(item.id, None)
        if same is not None:
            pairs.append((item, same, 1.0))
        else:
            rest_a.append(item)
    pairs += _pair(rest_a, list(b_by_id.values()), {}, sibling_kinds=())
    changes = []
    for o, n, s in pairs:
        if o is None:
            assert n is not None
            changes.append(describe("glossary", "added", None, Version.of_entry(n.obj), 0.0, idmap))
        elif n is None:
            changes.append(describe("glossary", "removed", Version.of_entry(o.obj), None, 0.0, idmap))
        elif o.id != n.id:  # a renamed term
            changes.append(describe("glossary", "moved", Version.of_entry(o.obj),
                                     Version.of_entry(n.obj), s, idmap))
        elif (o.obj.heading, o.obj.text) != (n.obj.heading, n.obj.text):
            changes.append(describe("glossary", "changed", Version.of_entry(o.obj),
                                     Version.of_entry(n.obj), ratio(o.obj.text, n.obj.text), idmap))
    return changes


def _order(c: Change) -> tuple:
    if c.kind == "glossary":
        side = c.new or c.old
        return (1, (side.term or "").lower() if side else "", 0)
    key = numbers.sort_key(c.id)
    return (0, key, 0 if c.new_id else 1)


def diff_releases(old: Release, new: Release) -> ReleaseDiff:
    """Everything added, removed, changed, moved or retitled from ``old`` to ``new``."""
    section_changes, _ = pair_headings(old.sections, new.sections, "section")
    chapter_changes, chapter_map = pair_headings(old.chapters, new.chapters, "chapter")
    rule_changes, idmap = _rule_changes(old.rules, new.rules, chapter_map)
    full_map = {**{k: v for k, v in chapter_map.items() if k != v}, **idmap}
    glossary = _glossary_changes(old.glossary, new.glossary, full_map)
    changes = sorted(section_changes + chapter_changes + rule_changes, key=_order)
    changes += sorted(glossary, key=_order)
    notes = [f"the {r.effective_date} release is incomplete (" + next(
        (a.message for a in r.anomalies if a.kind == "truncated"), "the text stops early")
        + "): what it lacks shows as removed or added" for r in (old, new) if not r.complete]
    return ReleaseDiff(old.effective_date, new.effective_date, changes,
                       old.counts(), new.counts(), notes)


def diff_linked(old: Any, new: Any, link: Any) -> ReleaseDiff | None:
    """``diff_releases`` of two neighbouring stored releases, read through the
    link between them (``store.lineage.Link``): the rules are not paired
    again, and only those that changed are read.  None when the link cannot
    tell (made before it kept the whole pairing, a release that repeats an
    id or is incomplete): pair the whole releases then.
    """
    if "wgone" not in link.data or link.repeat_old or link.repeat_new:
        return None
    metas = old.meta(), new.meta()
    if not all(m.get("complete", True) for m in metas):
        return None
    section_changes, chapter_changes, chapter_map = _stored_heading_changes(*metas)
    idmap, scores = link.whole, link.data.get("scores") or {}
    gone = {x for x, y in link.gone.items() if y is None} | set(link.data["wgone"])
    came = {y for y, x in link.came.items() if x is None} | set(link.data["wcame"])
    # The old rules that were removed, renumbered or rewritten (the others
    # keep their number and text), in the old release's order.
    differ = gone | set(idmap) | link.text | link.examples
    pairs: list[tuple[str | None, str | None]] = [
        (x, None if x in gone else idmap.get(x, x)) for x in metas[0]["rule_ids"] if x in differ]
    pairs += [(None, y) for y in metas[1]["rule_ids"] if y in came]
    olds = _rules_of(old, [o for o, _ in pairs if o is not None])
    news = _rules_of(new, [n for _, n in pairs if n is not None])
    rule_changes = []
    for o_id, n_id in pairs:
        o, n = olds.get(o_id) if o_id else None, news.get(n_id) if n_id else None
        if o is None and n is not None:
            rule_changes.append(describe(n.kind, "added", None, Version.of_rule(n), 0.0, idmap))
        elif n is None and o is not None:
            rule_changes.append(describe(o.kind, "removed", Version.of_rule(o), None, 0.0, idmap))
        elif o is not None and n is not None:
            s = min(scores.get(o.id, 1.0), 1.0)
            rule_changes.append(describe(n.kind, "moved" if o.id != n.id else "changed",
                                         Version.of_rule(o), Version.of_rule(n), s, idmap,
                                         old_kind=o.kind if o.id != n.id else None))
    full_map = {**{k: v for k, v in chapter_map.items() if k != v}, **idmap}
    old_terms, new_terms = _stored_differing_terms(old, new)
    glossary = _glossary_changes([GlossaryEntry.from_dict(g) for g in old_terms],
                                 [GlossaryEntry.from_dict(g) for g in new_terms], full_map)
    changes = sorted(section_changes + chapter_changes + rule_changes, key=_order)
    changes += sorted(glossary, key=_order)
    return ReleaseDiff(old.effective_date, new.effective_date, changes, metas[0]["counts"],
                       metas[1]["counts"], [])


def _differing_terms(old: list[dict[str, Any]], new: list[dict[str, Any]]
                     ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stored glossary entries of two releases without those that
    ``_glossary_changes`` pairs by term and finds unchanged (when no term
    repeats: a repeated term is told apart by its place)."""
    def key(g: dict[str, Any]) -> str:
        return str(g.get("term", "")).lower()

    a, b = {key(g): g for g in old}, {key(g): g for g in new}
    if len(a) != len(old) or len(b) != len(new):
        return old, new
    same = {k for k, g in a.items() if k in b
            and (g.get("heading"), g.get("text")) == (b[k].get("heading"), b[k].get("text"))}
    return [g for g in old if key(g) not in same], [g for g in new if key(g) not in same]


def _stored_heading_changes(old: dict[str, Any], new: dict[str, Any]
                            ) -> tuple[list[Change], list[Change], dict[str, str]]:
    """The section and chapter changes of two stored releases (their
    ``meta``), and how the chapters pair.  Headings with the same ids and
    titles in both (as between most neighbours) are not paired one by one:
    nothing changed, and each chapter pairs with itself."""
    from crsearch.store.datadir import sections_and_chapters

    def same(kind: str) -> bool:
        ids = [(h.get("id"), h.get("title")) for h in old[kind]]
        return ids == [(h.get("id"), h.get("title")) for h in new[kind]] and \
            len({i for i, _ in ids}) == len(ids)

    if same("sections") and same("chapters"):
        return [], [], {h["id"]: h["id"] for h in old["chapters"]}
    (old_sections, old_chapters), (new_sections, new_chapters) = map(sections_and_chapters, (old, new))
    section_changes, _ = pair_headings(old_sections, new_sections, "section")
    chapter_changes, chapter_map = pair_headings(old_chapters, new_chapters, "chapter")
    return section_changes, chapter_changes, chapter_map


# A term as stored, when it holds no quote or backslash (none does; one
# that does is not matched, and the glossaries are then parsed whole).
_TERM = re.compile(rb'"term":"([^"\\]*)"')


def _stored_differing_terms(old: Any, new: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``_differing_terms`` of two stored releases' glossaries, parsing only
    the entries whose stored text differs (their line numbers aside): an
    entry whose text the other release holds too has the same term, heading
    and text there, so ``_differing_terms`` leaves it out, and its partner
    too, as long as no term repeats.
    """
    from crsearch.store.datadir import loads

    texts = old.glossary_texts(), new.glossary_texts()
    if texts[0] is None or texts[1] is None:
        return _differing_terms(old.glossary_dicts(), new.glossary_dicts())
    plain: list[list[bytes]] = []
    for side in texts:
        # One pass over each glossary, not one an entry: no entry's JSON
        # text holds a raw line break.
        joined = b"\n".join(side)
        terms = _TERM.findall(joined)
        keys = set(b"\n".join(terms).decode("utf-8").lower().split("\n")) if terms else set()
        # Each entry without its line number, the one field that moves when
        # anything before it does ("line": is a key wherever it stands, as
        # no JSON string holds an unescaped quote).
        flat = b"".join(p.lstrip(b"0123456789") for p in joined.split(b'"line":')).split(b"\n")
        if len(terms) != len(side) or len(keys) != len(side) or len(flat) != len(side):
            # A repeated term (or an entry read otherwise): compare them all.
            return _differing_terms(*[[loads(t.decode("utf-8")) for t in side] for side in texts])
        plain.append(flat)
    both = set(plain[0]) & set(plain[1])
    rest = [[loads(t.decode("utf-8")) for t, p in zip(side, flat) if p not in both]
            for side, flat in zip(texts, plain)]
    return _differing_terms(rest[0], rest[1])


def _rules_of(stored: Any, ids: list[str]) -> dict[str, Rule]:
    """The rules ``ids`` of a stored release (the first of each id; ``ids``
    in the release's order).

    Each run of them that stand together (a rule and its subrules, a block
    of renumbered rules) is parsed alone (``rule_dicts``): a rule added to
    chapter 702 need not parse the other thousand.  A chapter with many
    runs is parsed whole.
    """
    want = set(ids)
    out: dict[str, Rule] = {}
    runs: Counter[str] = Counter()
    for id in ids:
        if id in out:
            continue
        chapter = id.split(".", 1)[0]
        runs[chapter] += 1
        got = stored.rule_dicts(chapter, id, want.__contains__) if runs[chapter] <= _MAX_RUNS \
            else [d for d in stored.chapter_dicts(chapter) if d["id"] in want]
        for d in got:
            if d["id"] not in out:
                out[d["id"]] = Rule.from_dict(d)
    return out


def group_moves(changes: Sequence[Change]) -> list[tuple[Change, list[Change]]]:
    """Each change with the moves it explains: a renumbered chapter or rule
    takes along its rules or subrules that moved with it unchanged (702.19 ->
    702.20 explains 702.19a -> 702.20a).  Readers show one line for the lot.
    """
    by_old = {c.old_id: c for c in changes if c.op == "moved" and c.kind != "glossary"}
    owner: dict[int, Change] = {}
    for c in changes:
        if c.op != "moved" or c.kind == "glossary" or (c.fields and not c.noise):
            continue
        if c.kind not in ("rule", "subrule") or c.old_kind != c.kind:
            continue
        up = numbers.parent(c.old_id)  # type: ignore[arg-type]
        p = by_old.get(up)
        if p is not None and c.new_id == p.new_id + c.old_id[len(up):]:  # type: ignore[operator, index, arg-type]
            owner[id(c)] = p
    out: list[tuple[Change, list[Change]]] = []
    children: dict[int, list[Change]] = {}
    for c in changes:
        top = c
        while id(top) in owner:
            top = owner[id(top)]
        if top is c:
            out.append((c, children.setdefault(id(c), [])))
        else:
            children.setdefault(id(top), []).append(c)
    return out


__all__ = ["Change", "ReleaseDiff", "Version", "describe", "diff_linked", "diff_releases", "group_moves",
           "normalize_typography", "pair_headings", "pair_rules", "ratio", "word_diff"]
