"""Finding the cards a question names: full names, faces and telling parts of names.

A question says "Notion Thief's ability", "jace mind sculptor", "Fire//Ice"
or just "Shackles".  The import writes ``mentions.tsv``, a first-word index
of every card name, every face name and every run of one to four words of a
name that belongs to that card alone ("Mind Sculptor"), one line each::

    first<TAB>rest<TAB>kind<TAB>common<TAB>name<TAB>shard<TAB>offset<TAB>length

sorted by bytes, so that each word of a question costs one bisection
(:class:`~crsearch.cards.names.SortedLines`).  ``kind`` is ``n`` (the card's
name), ``f`` (a face's name) or ``p`` (part of a name); ``common`` is 1 when
every word of a name also occurs in lower case in card rules text ("Flash",
"Counterspell" not), so a ranker can ask for more before it trusts such a
mention.  A part of a name made only of such words is not indexed.
Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from crsearch.cards.names import KIND_FACE, KIND_NAME, STOP, SortedLines, word_spans

MENTIONS_FILE = "mentions.tsv"
KIND_PART = "p"
#: The longest part of a name that is indexed, in words.
MAX_PART = 4
#: What may stand between two words of a name in a question: spaces, commas,
#: slashes, dashes, apostrophes and quotes ("Fire//Ice", "Jace, the Mind
#: Sculptor"), but not a sentence's end.
_GAP = re.compile(r"[ \t,/\-\u2010\u2011\u2013\u2014'\u2019\"\u201c\u201d:]{1,6}")
_KIND_RANK = {KIND_NAME: 2, KIND_FACE: 1, KIND_PART: 0}


class Mention:
    """One card named in a text: where, how (``kind``), and the card itself."""

    __slots__ = ("name", "span", "text", "kind", "words", "common", "cased", "card")

    def __init__(self, name: str, span: tuple[int, int], text: str, kind: str, words: int,
                 common: bool, cased: bool, card: Any = None):
        self.name, self.span, self.text, self.kind = name, span, text, kind
        self.words, self.common, self.cased, self.card = words, common, cased, card

    @property
    def strong(self) -> bool:
        """Whether the words surely mean the card: no ordinary words, or a
        capitalised name of two words or more; a part of a name must also be
        capitalised ("Shackles", not "shackles")."""
        if self.kind == KIND_PART and not self.cased:
            return False
        return not self.common or (self.cased and self.words >= 2)

    def to_dict(self) -> dict[str, Any]:
        card = self.card
        return {"name": self.name, "span": list(self.span), "text": self.text, "kind": self.kind,
                "words": self.words, "common": self.common, "cased": self.cased,
                "strong": self.strong, "card_text": card.text if card is not None else None}

    def __repr__(self) -> str:
        return f"Mention({self.name!r}, {self.text!r}, {self.kind!r})"


def index_lines(names: Iterable[tuple[list[str], str, list[list[str]], tuple[str, int, int]]],
                common: Callable[[list[str]], bool]) -> list[str]:
    """The lines of ``mentions.tsv``, sorted.

    :param names: per card, its name's words, its name, each face's words and
        where its record lies (shard, offset, length).
    :param common: whether a run of words is made of ordinary rules-text words.
    """
    whole: dict[str, tuple[str, str, tuple[str, int, int]]] = {}
    parts: dict[str, set[str]] = {}
    where: dict[str, tuple[str, int, int]] = {}
    for words, name, faces, at in names:
        where[name] = at
        whole.setdefault(" ".join(words), (KIND_NAME, name, at))
        for face in faces:
            if face != words:
                whole.setdefault(" ".join(face), (KIND_FACE, name, at))
        # A card of several faces is named by a face's words, not across two faces.
        for seq in faces if len(faces) > 1 else [words]:
            for run in _runs(seq):
                parts.setdefault(run, set()).add(name)
    lines = []
    for key, (kind, name, at) in whole.items():
        lines.append(_line(key, kind, name, at, common(key.split(" "))))
    for key, owners in parts.items():
        # A part made of ordinary words ("I have", "block") names nothing.
        if len(owners) != 1 or key in whole or common(key.split(" ")):
            continue
        (name,) = owners
        lines.append(_line(key, KIND_PART, name, where[name], False))
    return sorted(lines, key=lambda line: line.encode("utf-8"))



def _runs(words: list[str]) -> Iterable[str]:
    """The runs of words of a name that may stand for it: shorter than the name, at
    most MAX_PART words, neither starting nor ending with a stop word, with a word
    of four letters or more."""
    n = len(words)
    for i in range(n):
        if words[i] in STOP:
            continue
        for j in range(i + 1, min(n, i + MAX_PART) + 1):
            if j - i == n or words[j - 1] in STOP:
                continue
            run = words[i:j]
            if any(len(w) >= 4 for w in run):
                yield " ".join(run)


def _line(key: str, kind: str, name: str, at: tuple[str, int, int], common: bool) -> str:
    first, _, rest = key.partition(" ")
    shard, offset, length = at
    return f"{first}\t{rest}\t{kind}\t{int(common)}\t{name}\t{shard}\t{offset}\t{length}\n"


def find(text: str, index: SortedLines,
         read: Callable[[str, int, int], Any] | None = None) -> list[Mention]:
    """The cards ``text`` names, in reading order, longest name first where names overlap.

    :param read: ``read(shard, offset, length)`` gives the card of a mention
        (each card is read once); without it, mentions carry no card.
    """
    toks = word_spans(text)
    folded = [w.encode("utf-8") for _, _, w in toks]
    out: list[Mention] = []
    cards: dict[tuple[str, int, int], Any] = {}
    i = 0
    while i < len(toks):
        best: tuple[tuple[int, int], list[str]] | None = None
        head = folded[i] + b"\t"
        for raw in index.starting(head):
            # The words after the first, compared as bytes: a common first word
            # ("the", "fire") starts hundreds of lines, few of which fit.
            rest = raw[len(head):raw.index(b"\t", len(head))]
            n = 1 + (rest.count(b" ") + 1 if rest else 0)
            if i + n > len(toks) or rest != b" ".join(folded[i + 1:i + n]):
                continue
            fields = raw.decode("utf-8").split("\t")
            if not all(_GAP.fullmatch(text[a[1]:b[0]]) for a, b in zip(toks[i:i + n - 1], toks[i + 1:i + n])):
                continue
            rank = (n, _KIND_RANK.get(fields[2], 0))
            if best is None or rank > best[0]:
                best = (rank, fields)
        if best is None:
            i += 1
            continue
        (n, _), fields = best
        start, end = toks[i][0], toks[i + n - 1][1]
        surface = text[start:end]
        cased = all(text[a:a + 1].isupper() for a, _, w in toks[i:i + n] if w not in STOP)
        at = (fields[5], int(fields[6]), int(fields[7]))
        card = None
        if read is not None:
            if at not in cards:
                cards[at] = read(*at)
            card = cards[at]
        out.append(Mention(fields[4], (start, end), surface, fields[2], n, fields[3] == "1",
                           cased, card))
        i += n
    return out


__all__ = ["KIND_PART", "MAX_PART", "MENTIONS_FILE", "Mention", "find", "index_lines"]
