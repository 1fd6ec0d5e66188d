"""Card names as people type them: folded words, the sorted name index, and lookup.

A name is compared by its folded words: case, accents ("Lim-Dûl" is "lim
dul"), ligatures ("Æther"), curly apostrophes, possessives ("Urza's" is
"urza") and punctuation ("Jace, the Mind Sculptor", "Fire // Ice") do not
count.  The import writes ``names.tsv``: one line per card name and per face
name, ``key<TAB>kind<TAB>name<TAB>shard<TAB>offset<TAB>length``, sorted by
the bytes of the line, so that a name is found by bisection without reading
the file (:class:`SortedLines`).  ``words.txt`` lists every word of every
name, for typo correction.

Lookup tries, in turn: the exact key (a card's name before a face's), every
typed word in a name ("jace mind sculptor", "vedalken shack"), then the
spellings one edit away from each word that no name has ("notion theif",
"ntoion"), or its nearest by difflib.  More than one card left is an
ambiguity, reported with the candidates.  Standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from crsearch.errors import BadInput, NotFound, short

#: Letters that Unicode does not decompose but people type in ASCII.
_LETTERS = str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
                          "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ł": "l", "Ł": "L",
                          "đ": "d", "Đ": "D", "ı": "i", "\u2019": "'", "\u2018": "'", "\u02bc": "'"})
#: A word: letters and digits, with inner apostrophes ("Ma'rûf", "Urza's").
WORD = re.compile(r"[^\W_]+(?:['\u2019\u2018\u02bc][^\W_]+)*")
#: Words that say little about which card is meant.
STOP = frozenset(["a", "an", "and", "at", "by", "for", "from", "in", "into", "of", "on", "or",
                  "the", "to", "with"])
NAMES_FILE = "names.tsv"
WORDS_FILE = "words.txt"
KIND_NAME, KIND_FACE = "n", "f"
#: How many candidates an ambiguous name lists.
SHOWN = 8


def fold_word(token: str) -> str:
    """One typed word as names compare it: "Dûl" -> "dul", "Urza's" -> "urza"."""
    t = token.translate(_LETTERS)
    if not t.isascii():
        t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
    t = t.casefold()
    if t.endswith("'s"):
        t = t[:-2]
    return t.replace("'", "")


def fold_char(c: str) -> str:
    """What :func:`fold_word` makes of one character ("Û" -> "u", "Æ" -> "ae",
    a combining accent -> ""), before its "'s" rule: a word folds as its
    characters do, one by one (NFKD decomposes, and case folds, each
    character alone; the marks that canonical reordering moves are dropped)."""
    t = c.translate(_LETTERS)
    if not t.isascii():
        t = "".join(x for x in unicodedata.normalize("NFKD", t) if not unicodedata.combining(x))
    return t.casefold()


#: Characters the site's lookup always knows the folding of, besides those
#: of the card names: Latin-1 and Latin Extended-A letters, the combining
#: accents, the apostrophes.
_SITE_CHARS = "".join(map(chr, [*range(0xC0, 0x180), *range(0x300, 0x370)])) + "\u2018\u2019\u02bc"


def fold_table(names: Iterable[str] = ()) -> dict[str, str]:
    """The folding of every character that is not ASCII, in ``names`` and in
    ``_SITE_CHARS``: the site's lookup folds a word character by character
    with this table (templates/cards.js), so that Python defines the folding
    for both.  A character missing from it (typed, in no name) the browser
    folds as NFKD does, which finds no name either way."""
    chars = set(_SITE_CHARS)
    for name in names:
        chars.update(c for c in name if not c.isascii())
    return {c: fold_char(c) for c in sorted(chars) if not c.isascii()}


def name_words(text: str) -> list[str]:
    """The folded words of a name or of typed text (composed first, as the
    site's lookup does: a typed "u" and combining circumflex are one "û")."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    return [w for w in (fold_word(t) for t in WORD.findall(text)) if w]


def name_key(text: str) -> str:
    """A name's lookup key: its folded words, one space apart."""
    return " ".join(name_words(text))


def word_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, folded word)`` of each word of ``text``."""
    out = []
    for m in WORD.finditer(text):
        w = fold_word(m.group())
        if w:
            out.append((m.start(), m.end(), w))
    return out


def shard_of(key: str) -> str:
    """The shard a card's record is kept in: the first letter of its key ("_" for others)."""
    c = key[:1]
    return c if c.isascii() and c.isalnum() else "_"


# -- the sorted index ------------------------------------------------------------

class SortedLines:
    """A file of lines sorted by their bytes, searched by prefix without reading it all."""

    def __init__(self, data: bytes | memoryview | object):
        self.data: bytes = data  # type: ignore[assignment]  # bytes or an mmap, which reads alike

    @classmethod
    def open(cls, path: str) -> SortedLines:
        """The file at ``path``, mapped into memory (an empty file reads as no lines)."""
        import mmap

        with open(path, "rb") as f:
            try:
                return cls(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
            except ValueError:  # an empty file cannot be mapped
                return cls(b"")

    def _lower_bound(self, target: bytes) -> int:
        """The start of the first line that is not less than ``target``."""
        buf = self.data
        lo, hi = 0, len(buf)
        while lo < hi:
            mid = (lo + hi) // 2
            s = buf.rfind(b"\n", lo, mid)
            s = lo if s < 0 else s + 1
            e = buf.find(b"\n", s)
            e = len(buf) if e < 0 else e + 1
            if buf[s:e] < target:
                lo = e
            else:
                hi = s
        return lo

    def starting(self, prefix: bytes) -> Iterator[bytes]:
        """Every line (without its newline) that starts with ``prefix``."""
        buf = self.data
        at = self._lower_bound(prefix)
        n = len(buf)
        while at < n and buf[at:at + len(prefix)] == prefix:
            e = buf.find(b"\n", at)
            e = n if e < 0 else e
            yield buf[at:e]
            at = e + 1

    def with_word(self, word: str, prefix: bool = False) -> Iterator[bytes]:
        """Every line whose first field (a key of words) holds ``word`` as a whole word
        (or, with ``prefix``, a word that starts with it)."""
        buf = self.data
        w = word.encode("utf-8")
        seen_end = -1
        at = buf.find(w)
        while at >= 0:
            before = buf[at - 1:at] if at else b"\n"
            after = buf[at + len(w):at + len(w) + 1]
            if before in (b" ", b"\n") and (prefix or after in (b" ", b"\t")):
                s = buf.rfind(b"\n", 0, at) + 1
                tab = buf.find(b"\t", s)
                e = buf.find(b"\n", at)
                e = len(buf) if e < 0 else e
                if at < tab and s > seen_end:  # inside the key, and a line not yet given
                    seen_end = e
                    yield buf[s:e]
                at = buf.find(w, e)
                continue
            at = buf.find(w, at + 1)


class Entry:
    """A line of ``names.tsv``: a folded key and the card record it leads to."""

    __slots__ = ("key", "kind", "name", "shard", "offset", "length")

    def __init__(self, line: bytes):
        key, kind, name, shard, offset, length = line.decode("utf-8").split("\t")
        self.key, self.kind, self.name, self.shard = key, kind, name, shard
        self.offset, self.length = int(offset), int(length)

    @staticmethod
    def line(key: str, kind: str, name: str, shard: str, offset: int, length: int) -> str:
        return f"{key}\t{kind}\t{name}\t{shard}\t{offset}\t{length}\n"

    def __repr__(self) -> str:
        return f"Entry({self.key!r}, {self.kind!r}, {self.name!r})"


# -- lookup ------------------------------------------------------------------------

class NameIndex:
    """The card names of one card data set, for :meth:`lookup`."""

    def __init__(self, names: SortedLines, words: Callable[[], list[str]]):
        self.names = names
        self._words_loader = words
        self._words: list[str] | None = None
        self._vocab_set: frozenset[str] = frozenset()

    def exact(self, key: str) -> list[Entry]:
        """The entries whose key is ``key`` (a card's own name first)."""
        hits = [Entry(b) for b in self.names.starting(key.encode("utf-8") + b"\t")]
        return sorted(hits, key=lambda e: e.kind != KIND_NAME)

    def containing(self, words: list[str], prefix: bool = False) -> list[Entry]:
        """The entries whose key holds every one of ``words`` (any order)."""
        content = [w for w in words if w not in STOP] or words
        rare = max(content, key=len)
        out = []
        for line in self.names.with_word(rare, prefix):
            e = Entry(line)
            if _holds(e.key.split(" "), words, prefix):
                out.append(e)
        return out

    def lookup(self, typed: str) -> Entry:
        """The one card ``typed`` names; NotFound with candidates when none or several."""
        words = name_words(typed)
        if not words:
            own = self.exact(" ".join(typed.split()))  # a name of no letters: "_____"
            if own:
                return own[0]
            raise BadInput(f"{short(typed)!r} is not a card name: type a name such as \"Notion Thief\"")
        shown = short(" ".join(typed.split()), 60)
        found = self._resolve(words)
        if isinstance(found, Entry):
            return found
        if found:
            raise NotFound(f"{shown!r} names {len(found)} cards; type more of the name",
                           [e.name for e in found[:SHOWN]])
        fixed = self._typo(words)
        if isinstance(fixed, Entry):
            return fixed
        raise NotFound(f"no card named {shown!r} in the card data",
                       [e.name for e in fixed[:SHOWN]])

    def _resolve(self, words: list[str], prefix: bool = True) -> Entry | list[Entry]:
        """The card ``words`` name, or the candidates (empty: none); ``prefix``
        lets a typed word stand for a longer one ("shackle")."""
        key = " ".join(words)
        exact = self.exact(key)
        if exact:
            names = _distinct(exact)
            own = [e for e in names if e.kind == KIND_NAME]
            if len(names) == 1 or len(own) == 1:
                return own[0] if own else names[0]
            return names
        for by_prefix in (False, True) if prefix else (False,):
            hits = _distinct(self.containing(words, by_prefix))
            if len(hits) == 1:
                return hits[0]
            if hits:
                return _one_or_ranked(words, hits)
        return []

    def _typo(self, words: list[str]) -> Entry | list[Entry]:
        """The card a misspelt name means, or the nearest candidates.

        First only the words that are no word of any name are respelt, each
        to its nearest name words; if that finds nothing, the others too.
        """
        import difflib
        import itertools

        vocab = self._vocabulary()
        known = self._vocab_set
        near: dict[str, list[str]] = {}

        def respelt(w: str) -> list[str]:
            if w not in near:
                near[w] = _alternatives(w, vocab, known)
            return near[w]

        typed = " ".join(words)
        scored: dict[str, tuple[float, Entry]] = {}
        for every in (False, True):
            options = [([w] if w in known else []) + (respelt(w) if every or w not in known else [])
                       or [w] for w in words]
            for combo in itertools.islice(itertools.product(*options), 64):
                found = self._resolve(" ".join(combo).split(" "), prefix=False)
                for e in [found] if isinstance(found, Entry) else found:
                    r = difflib.SequenceMatcher(None, typed, e.key).ratio()
                    if e.name not in scored or scored[e.name][0] < r:
                        scored[e.name] = (r, e)
            if scored or not any(w in known for w in words):
                break  # found, or the second pass would respell the same words
        ranked = sorted(scored.values(), key=lambda t: (-t[0], t[1].name))
        if ranked and (len(ranked) == 1 or ranked[0][0] - ranked[1][0] >= 0.08) and ranked[0][0] >= 0.6:
            return ranked[0][1]
        return [e for _, e in ranked]

    def _vocabulary(self) -> list[str]:
        if self._words is None:
            self._words = self._words_loader()
            self._vocab_set = frozenset(self._words)
        return self._words


def _holds(key_words: list[str], words: list[str], prefix: bool) -> bool:
    left = list(key_words)
    for w in words:
        for i, k in enumerate(left):
            if k == w or (prefix and len(w) >= 3 and k.startswith(w)):
                del left[i]
                break
        else:
            return False
    return True


def _distinct(entries: list[Entry]) -> list[Entry]:
    """One entry per card name, a card's own name before its faces', in order."""
    seen: dict[str, Entry] = {}
    for e in sorted(entries, key=lambda e: e.kind != KIND_NAME):
        seen.setdefault(e.name, e)
    return list(seen.values())


def _one_or_ranked(words: list[str], hits: list[Entry]) -> Entry | list[Entry]:
    """The candidate whose words are the typed ones (stop words aside), if only one is;
    else the candidates, those with fewest other words first."""
    typed = sorted(w for w in words if w not in STOP)
    whole = [e for e in hits if sorted(w for w in e.key.split(" ") if w not in STOP) == typed]
    if len({e.name for e in whole}) == 1:
        return whole[0]
    return sorted(hits, key=lambda e: (len(e.key.split(" ")), len(e.name), e.name))


def _alternatives(word: str, vocab: list[str], known: frozenset[str]) -> list[str]:
    """What a misspelt word may have meant: the name words one edit away (a swap
    first: "theif", "blot"), else the nearest in spelling, and two name words
    typed as one ("limdul" for "Lim-Dûl")."""
    out = [w for w in _one_edit(word) if w in known][:8]
    if not out and len(word) >= 3:
        out = _near_words(word, vocab)
    out += [f"{word[:i]} {word[i:]}" for i in range(2, len(word) - 1)
            if word[:i] in known and word[i:] in known]
    return [w for w in dict.fromkeys(out) if w != word]


_LETTERS_AZ = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(word: str) -> list[str]:
    """Every spelling one swap, change, deletion or insertion away, swaps first."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    swaps = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
    changes = [a + c + b[1:] for a, b in splits if b for c in _LETTERS_AZ if c != b[0]]
    deletions = [a + b[1:] for a, b in splits if b]
    insertions = [a + c + b for a, b in splits for c in _LETTERS_AZ]
    return swaps + changes + deletions + insertions


def _near_words(word: str, vocab: list[str], limit: int = 3) -> list[str]:
    """The name words nearest in spelling to ``word``, by difflib (for more than one edit)."""
    import difflib

    n = len(word)
    cutoff = 0.75 if n >= 5 else 0.66
    head = word[:1]
    seconds = word[1:3]
    same_start = [v for v in vocab if v[:1] == head and v[1:2] in seconds and abs(len(v) - n) <= 2]
    near = [v for v in difflib.get_close_matches(word, same_start, limit + 1, cutoff) if v != word]
    if not near:
        pool = [v for v in vocab if abs(len(v) - n) <= 1]
        near = [v for v in difflib.get_close_matches(word, pool, limit + 1, max(cutoff, 0.8))
                if v != word]
    return near[:limit]


__all__ = ["KIND_FACE", "KIND_NAME", "NAMES_FILE", "STOP", "WORDS_FILE", "Entry", "NameIndex",
           "SortedLines", "fold_char", "fold_table", "fold_word", "name_key", "name_words", "shard_of", "word_spans"]
