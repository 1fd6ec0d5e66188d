"""Which rule the words around a citation name.

"the legend rule (704.5k)" names its rule twice: by number and by words.
When the numbers move on (704.5k is the world rule today, the legend rule
704.5j) the words still say which rule was meant.  ``RuleWords`` holds one
release's rules as a small scorer; ``context`` takes the words next to a
citation, and ``judge`` says whether the cited rule fits them or which
other rule fits them better.

Scoring uses the release's own text, nothing hand-made: each rule's words
(stemmed, weighted by how rare they are among the rules: a rule's
distinctive words weigh most) and its names: its title (keywords, steps,
chapters: "Trample", "State-Based Actions"), and the glossary terms that
point to it ("Legend Rule" -> 704.5j).  A name written out in full next to a
citation counts more than its words one by one.  Judges' shorthand ("SBA",
"ETB") is read as ``search.vocab.JARGON`` spells it out.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

from crsearch.rules import numbers
from crsearch.rules.text import STOP_WORDS

#: Words that surround citations in every text and name no rule.
_CITING = frozenset(
    """rule rules cr mcr crs comprehensive see per section sections subrule subrules also e g eg
    i e ie etc you we i my me your our it its it's this these those there here but so do does
    did can could would should will just like cf ref quoting quote quoted says said states
    according under current currently now right open rulebook explain explains explained
    describe describes described cover covers covered covering mention mentions mentioned talk
    talks talking defined defines discuss discusses happens happen""".split())
_STOP = STOP_WORDS | _CITING
#: Words on each side of a citation that are read, nearest first.
WINDOW = 14
#: How much each further word counts: the nearest words name the rule.
_DECAY = 0.08
#: The words must weigh at least this share of a word that one rule alone
#: has (a rare word, or two less rare ones) to be read.
MIN_QUERY = 0.6
#: A rule is named by this many of its words, or by a name written in full.
MIN_HITS = 3
#: The rule the words fit best must cover at least this share of them.
MIN_COVER = 0.45
#: The cited rule fits when it scores at least this share of the best.
FIT_RATIO = 0.6
#: Other rules within this share of the best one are its rivals; with
#: ``MAX_CLOSE`` of them the words name no rule clearly.
CLOSE = 0.85
MAX_CLOSE = 1
#: A rule named by its title stands for its best part of the cited id's
#: depth when that part scores at least this share of it (and stands out
#: from the other parts).
DESCEND = 0.5
#: A removed rule's successor is read from its first words and must have
#: this share of them.
SUCCESSOR_WORDS = 40
SUCCESSOR_COVER = 0.5
#: How much nearness to the cited number (``closeness``) adds to a rule's score.
NEAR_PRIOR = 0.25


_PT = re.compile(r"([+-])1/([+-])1")


_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def tokens(text: str) -> list[str]:
    """The lower-cased words of ``text``: "+1/+1" and "-1/-1" are words,
    hyphens split words ("state-based" is "state based")."""
    if "1/" in text:
        text = _PT.sub(lambda m: f" {'plus' if m[1] == '+' else 'minus'}one"
                                 f"{'plus' if m[2] == '+' else 'minus'}one ", text)
    text = text.lower().replace("-", " ")
    if not text.isascii():
        text = (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2010", " ")
                .replace("\u2011", " "))
    return _TOKEN.findall(text)


def _stemmer() -> Any:
    from whoosh.lang.porter import stem

    return stem


def light(word: str) -> str:
    """A word without its plural or possessive ending: how names are matched
    ("State-Based Actions" in "a state-based action"), stricter than a stem
    ("annihilation" is not "Annihilator")."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[-3] in "sxh":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


#: How much a name written in full adds, by where the name comes from: a
#: rule's own title (a keyword, a step) or a glossary term weigh fully; a
#: chapter's title covers many rules and weighs half.
NAME_KINDS = {"title": 1.0, "glossary": 1.0, "chapter": 0.5}


class RuleWords:
    """One release's rules, ready to tell which rule some words name.

    ``of_release`` reads it from a stored release: from ``CACHE`` next to
    the release when an earlier check left it there, else from every
    chapter file (and leaves ``CACHE`` for the next check).
    """

    CACHE = "cite-words.json"
    FORMAT = 1

    def __init__(self, date: str, ids: list[str], postings: dict[str, list[int]],
                 names: list[tuple[list[str], int, float]]):
        """:param postings: each stem's documents (positions in ``ids``).
        :param names: (light words, document, weight) of every name."""
        self.date, self.ids, self.postings = date, ids, postings
        self.index = {id: n for n, id in enumerate(ids)}
        total = len(ids) or 1
        self.idf = {s: math.log(1 + total / len(p)) for s, p in postings.items()}
        #: The least weight words must have to be read (see ``MIN_QUERY``).
        self.min_query = MIN_QUERY * math.log(1 + total)
        self.names: dict[str, list[tuple[tuple[str, ...], int, float]]] = {}
        for key, n, factor in names:
            self.names.setdefault(key[0], []).append((tuple(key), n, factor))
        self._stem: Any = None
        self._cache: dict[str, tuple[str, str]] = {}

    @classmethod
    def build(cls, date: str, docs: list[tuple[str, str, list[tuple[str, str]]]]) -> RuleWords:
        """The scorer of ``docs``: (id, text, names) of every section,
        chapter, rule and subrule; each name is (words, kind), a kind of
        ``NAME_KINDS``."""
        rw = cls(date, [], {}, [])
        ids: list[str] = []
        postings: dict[str, list[int]] = {}
        names: list[tuple[list[str], int, float]] = []
        cache = rw._cache
        for n, (id, text, titles) in enumerate(docs):
            ids.append(id)
            stems = set()
            for w in set(tokens(text)):
                got = cache.get(w) or rw.word(w)
                if got[0]:
                    stems.add(got[0])
            seen: dict[tuple[str, ...], float] = {}
            for name, kind in titles:
                ws = rw.words(name)
                stems.update(s for s, _ in ws)
                key = tuple(w for _, w in ws)
                if key:
                    seen[key] = max(seen.get(key, 0.0), NAME_KINDS[kind])
            names.extend((list(key), n, factor) for key, factor in seen.items())
            for s in stems:
                postings.setdefault(s, []).append(n)
        out = cls(date, ids, postings, names)
        out._stem, out._cache = rw._stem, rw._cache
        return out

    @classmethod
    def of_release(cls, stored: Any) -> RuleWords:
        """The scorer of a stored release (``StoredRelease``)."""
        import json

        path = stored.path / cls.CACHE
        try:
            with open(path, encoding="utf-8") as f:
                saved = json.load(f)
            if saved.get("format") == _signature() and saved.get("date") == stored.effective_date:
                return cls(saved["date"], saved["ids"], saved["postings"],
                           [(k, n, w) for k, n, w in saved["names"]])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        meta = stored.meta()
        docs: list[tuple[str, str, list[tuple[str, str]]]] = []
        for s in meta["sections"]:
            docs.append((s["id"], "", [(s["title"], "chapter")]))
        for c in meta["chapters"]:
            docs.append((c["id"], "", [(c["title"], "chapter")]
                         + _glossary_names(c.get("cited_by", []))))
        for c in meta["chapters"]:
            for d in stored.chapter_dicts(c["id"]):
                names = _glossary_names(d.get("cited_by", []))
                text = d["text"]
                if d.get("title"):
                    names.append((d["title"], "title"))
                    if text.strip() == d["title"].strip():
                        text = ""
                docs.append((d["id"], text, names))
        rw = cls.build(stored.effective_date, docs)
        rw.save(path)
        return rw

    def save(self, path: Any) -> None:
        """Keep the scorer at ``path`` (atomically; a read-only folder goes without)."""
        import json
        import tempfile

        names = [[list(k), n, w] for group in self.names.values() for k, n, w in group]
        data = {"format": _signature(), "date": self.date, "ids": self.ids,
                "postings": self.postings, "names": names}
        try:
            fd, tmp = tempfile.mkstemp(prefix=".cite-words-", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(data, separators=(",", ":")))
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass

    def word(self, w: str) -> tuple[str, str]:
        """(stem, light form) of one token; ("", "") for a stop word."""
        got = self._cache.get(w)
        if got is None:
            if w in _STOP or w.isdigit():
                got = ("", "")
            else:
                if self._stem is None:
                    self._stem = _stemmer()
                got = (self._stem(w.replace("'", "")), light(w))
            self._cache[w] = got
        return got

    def words(self, text: str) -> list[tuple[str, str]]:
        """(stem, light form) of each of ``text``'s words, stop words and
        citing words left out."""
        out = []
        for w in tokens(text):
            got = self._cache.get(w) or self.word(w)
            if got[0]:
                out.append(got)
        return out

    def has(self, id: str) -> bool:
        return id in self.index

    def scores(self, query: list[tuple[str, str, float]]
               ) -> tuple[dict[str, float], float, set[str]]:
        """Each rule's score for ``query`` ((stem, light form, weight) in
        reading order), the query's whole weight (a rule with every word
        scores that), and the rules named clearly: by a name written in
        full, or by ``MIN_HITS`` of the words."""
        acc: dict[int, float] = {}
        hits: dict[int, int] = {}
        named: set[int] = set()
        mass = 0.0
        seen: set[str] = set()
        for s, _, w in query:
            if s in seen:
                continue
            seen.add(s)
            idf = self.idf.get(s)
            if idf is None:
                continue  # a word no rule has says nothing about which rule
            mass += w * idf
            for n in self.postings[s]:
                acc[n] = acc.get(n, 0.0) + w * idf
                hits[n] = hits.get(n, 0) + 1
        lights = [x for _, x, _ in query]
        for k, x in enumerate(lights):
            for name, n, factor in self.names.get(x, ()):
                if tuple(lights[k:k + len(name)]) == name:
                    weight = sum(self.idf.get(query[k + j][0], 0.0) for j in range(len(name)))
                    bonus = factor * sum(query[k + j][2] * self.idf.get(query[k + j][0], 0.0)
                                         for j in range(len(name)))
                    acc[n] = acc.get(n, 0.0) + bonus
                    if weight >= self.min_query:  # "Text" names nothing clearly
                        named.add(n)
        clear = {n for n, h in hits.items() if h >= MIN_HITS} | named
        return {self.ids[n]: v for n, v in acc.items()}, mass, {self.ids[n] for n in clear}


def _signature() -> str:
    """What a kept scorer was built with: its format, the words left out and
    the names' weights (a change to either builds it anew)."""
    import hashlib

    made = f"{RuleWords.FORMAT}|{' '.join(sorted(_STOP))}|{sorted(NAME_KINDS.items())}"
    return f"{RuleWords.FORMAT}-{hashlib.sha256(made.encode()).hexdigest()[:12]}"


def _glossary_names(cited_by: list[str]) -> list[tuple[str, str]]:
    return [(c.split(":", 1)[1], "glossary") for c in cited_by if c.startswith("glossary:")]


# -- the words next to a citation ----------------------------------------------

# What ends the words about one citation: a sentence's end, a semicolon, a
# new line that starts a list item, heading or blank line, a backtick (code
# is not words about a rule).
_BREAK = re.compile(r"[.?!](?=\s+[\"'(\[]?[A-Z0-9])|[.?!]\s*$|;|`|\n\s*\n|\n\s*(?:[-*•>#]|\d+[.)]\s)|"
                    r"(?<![,(:—–-])\n(?=[ \t]*[A-Z])|"
                    r"\n(?=\s*(?:\d{3}\.\d+[a-z]*|\[?CR\b|rule\b)\s*[:—–-])", re.MULTILINE)
_JARGON: dict[str, str] | None = None


def _jargon() -> dict[str, str]:
    global _JARGON
    if _JARGON is None:
        from crsearch.search.vocab import JARGON

        _JARGON = JARGON
    return _JARGON


def _side_words(text: str, nearest_first: bool) -> list[str]:
    ws = tokens(text)
    jargon = _jargon()
    out: list[str] = []
    for w in ws:
        out.extend(jargon[w].split() if w in jargon else [w])
    if nearest_first:
        out.reverse()
    return out[:WINDOW * 2]


def context(text: str, start: int, end: int, prev_end: int, next_start: int) -> tuple[str, str]:
    """The words before and after a citation at [start, end) that may name
    it: up to the neighbouring citations (``prev_end``, ``next_start``), the
    sentence's or list item's bounds, and the brackets the citation sits in
    ("(rule 310, the combat damage step)": nothing after the ")")."""
    lo = max(prev_end, start - 240)
    left = text[lo:start]
    cut = None
    # Breaks are sought with the citation in view: "\n702.19b:" starts an item.
    for m in _BREAK.finditer(text[lo:end]):
        if m.end() <= len(left):
            cut = m.end()
    if cut is not None:
        left = left[cut:]
    depth = 0
    for i in range(len(left) - 1, -1, -1):
        ch = left[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                # Inside brackets: the words there, if any, name the rule
                # ("(state-based, rule 704)"); else those before the bracket
                # ("the legend rule (704.5k)").
                if any(w not in _STOP for w in tokens(left[i + 1:])):
                    left = left[i + 1:]
                break
            depth -= 1
    hi = min(next_start, end + 240)
    right = text[end:hi]
    stop = _BREAK.search(right)
    if stop is not None:
        right = right[:stop.start()]
    depth = 0
    for i, ch in enumerate(right):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                right = right[:i]
                break
            depth -= 1
    return left, right


_OPENS = frozenset(":—–-(=")
_JOINED = re.compile(r"[\s,&/]*(?:(?:and|or|to|through)\b)?[\s,&/]*", re.IGNORECASE)


def contexts(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """``context`` of every citation (spans in text order).  Words between
    two citations go to one of them; citations in a list ("613.6 and
    613.7", "510.1c, 510.1d") share the words before the first and after
    the last."""
    out = []
    for k, (a, b) in enumerate(spans):
        prev_end = spans[k - 1][1] if k else 0
        next_start = spans[k + 1][0] if k + 1 < len(spans) else len(text)
        out.append(context(text, a, b, prev_end, next_start))
    # Words running from one citation to the next: after ":", a dash or "("
    # they are the first one's ("502.9a: how ... (see rule 310"); after a
    # comma, the second one's ("121.1, and exchanging control is keyword
    # action 701.8"); else they may be either's ("115.2a Playing a land
    # (rule 305").
    for k in range(len(spans) - 1):
        between = text[spans[k][1]:spans[k + 1][0]]
        if len(out[k][1]) != len(between) or _JOINED.fullmatch(between):
            continue
        first = between.lstrip()[:1]
        if first in _OPENS:
            out[k + 1] = ("", out[k + 1][1])
        elif first == ",":
            out[k] = (out[k][0], "")
    for k in range(1, len(spans)):
        if _JOINED.fullmatch(text[spans[k - 1][1]:spans[k][0]]):
            out[k] = (out[k - 1][0], out[k][1])
    for k in range(len(spans) - 2, -1, -1):
        if _JOINED.fullmatch(text[spans[k][1]:spans[k + 1][0]]):
            out[k] = (out[k][0], out[k + 1][1])
    return out


class Verdict:
    """What the words next to a citation say: ``fits`` (the cited rule is
    the one they name, or close to it), or ``better``: the rule they name
    instead, with the ``words`` read."""

    __slots__ = ("best", "better", "fits", "score", "weighty", "words")

    def __init__(self, fits: bool | None, better: str | None, words: str, score: float = 0.0,
                 best: bool = False, weighty: bool = False):
        self.fits, self.better, self.words, self.score = fits, better, words, score
        #: The cited rule (or one it holds) is the one the words fit best.
        self.best = best
        #: Some side's words weigh enough to be read, clear or not.
        self.weighty = weighty or fits is not None


def _query(rw: RuleWords, side: str, nearest_first: bool) -> list[tuple[str, str, float]]:
    got = rw.words(" ".join(_side_words(side, nearest_first)))[:WINDOW]
    out = [(s, x, 1.0 / (1.0 + _DECAY * k)) for k, (s, x) in enumerate(got)]
    if nearest_first:
        out.reverse()  # names are matched in reading order
    return out


def family(id: str) -> Any:
    """A test: is an id ``id``'s, its parent's or a sibling's, or held by one
    of them (702.19b: 702.19, 702.19c, 702)?"""
    near = related(id)
    if numbers.kind(id) != "subrule":
        return near
    up = related(id.rstrip(numbers.LETTERS))
    return lambda k: near(k) or up(k)


def shown(words: str, width: int = 60) -> str:
    """Words read next to a citation, on one line and cut to about ``width``;
    a bracket is kept only with its partner: '(the "legend rule") the player'."""
    one = " ".join(words.split())
    pairs = {"(": ")", "[": "]", ")": "(", "]": "["}
    seps = " ,;:—–-"
    while True:
        one = one.strip(seps)
        if one and one[0] in pairs and (one[0] in ")]" or pairs[one[0]] not in one):
            one = one[1:]
        elif one and one[-1] in pairs and (one[-1] in "([" or pairs[one[-1]] not in one):
            one = one[:-1]
        else:
            break
    return one if len(one) <= width else one[:width - 1].rstrip() + "…"


def related(id: str) -> Any:
    """A test: does an id hold ``id``, or ``id`` hold it (702.19 and 702.19b;
    704 and 704.5k)?"""
    above = set(numbers.ancestors(id)) | {id}
    kind = numbers.kind(id)
    if kind == "section":
        return lambda k: k in above or (len(k) >= 3 and k[0] == id)
    if kind == "chapter":
        return lambda k: k in above or k.startswith(id + ".")
    if kind == "rule":
        return lambda k: k in above or (k.startswith(id) and k[len(id):].isalpha())
    return above.__contains__


def judge(rw: RuleWords, id: str, left: str, right: str, exists: bool = True) -> Verdict:
    """Whether rule ``id`` fits the words beside it (``left``, ``right``).

    Each side is read on its own.  A side names a rule clearly when its
    words weigh at least ``MIN_QUERY``, the best rule has a name written
    there or two of its words, covers ``MIN_COVER`` of them, and few rules
    come close to it (``MAX_CLOSE``).  The cited rule fits if it (or a rule
    that holds it, or one it holds) scores within ``FIT_RATIO`` of the best
    rule on some side.  It does not fit when every side that names a rule
    clearly names another; ``better`` is then the one named most strongly,
    taken down to the cited id's depth (a subrule for a subrule) when one
    of its parts scores well.  ``fits`` is None when no side names any
    rule clearly.  Words that name only what holds the cited rule (its
    chapter's title) are consistent with it but say nothing of its letter:
    another side may still name a rule that fits better.  For an ``id`` the release lacks (``exists`` false) the
    verdict is never ``fits``: ``better`` is the rule the words name, if any.
    """
    best_other: tuple[float, str, str] | None = None
    near = related(id) if exists else (lambda k: False)
    above = set(numbers.ancestors(id)) if exists else set()
    depth = numbers.kind(id)
    consistent: tuple[str, float] | None = None
    weighty = False
    for side, nearest_first in ((left, True), (right, False)):
        q = _query(rw, side, nearest_first)
        if not q:
            continue
        got, mass, clear = rw.scores(q)
        if mass < rw.min_query or not got:
            continue
        weighty = True
        ranked = sorted(got.items(), key=lambda kv: kv[1], reverse=True)
        top_id, top = ranked[0]
        if top < MIN_COVER * mass or top_id not in clear:
            continue
        own = max((v for k, v in got.items() if near(k) and k not in above), default=0.0)
        if own >= FIT_RATIO * top:
            return Verdict(True, None, side.strip(), own / mass, best=own >= top)
        held = max((v for k, v in got.items() if k in above), default=0.0)
        if held >= FIT_RATIO * top:
            # The words name what holds the citation ("state-based actions,
            # 704.5a"): consistent with it, but silent on which part.
            consistent = (side.strip(), held / mass)
            continue
        others = [(k, v * (1 + NEAR_PRIOR * closeness(id, k)))
                  for k, v in ranked[:60] if not near(k)]
        others.sort(key=lambda kv: kv[1], reverse=True)
        k, v = others[0]
        # Rules that hold one another, or share a parent, are one candidate
        # ("702.19", "702.19b" and "702.19c"): the words name that rule.
        within = family(k)
        rivals = [k2 for k2, v2 in others[1:] if v2 >= CLOSE * v and not within(k2)]
        if len(rivals) >= MAX_CLOSE:
            continue
        if _DEPTH[numbers.kind(k)] < _DEPTH[depth]:
            # Down to the part of the cited id's depth the words name, when
            # one part stands out ("Trample" alone names 702.19, no subrule).
            parts = [(k2, v2) for k2, v2 in others[1:]
                     if numbers.kind(k2) == depth and within(k2) and v2 >= DESCEND * v]
            if parts and (len(parts) == 1 or parts[1][1] < CLOSE * parts[0][1]):
                k = parts[0][0]
        if best_other is None or v > best_other[0]:
            best_other = (v, k, side.strip())
    if best_other is None:
        if consistent is not None:
            return Verdict(True, None, consistent[0], consistent[1])
        return Verdict(None, None, "", weighty=weighty)
    return Verdict(False, best_other[1], best_other[2], best_other[0])


def fit(rw: RuleWords, id: str, left: str, right: str) -> float:
    """How well rule ``id`` (or a rule it holds) fits the words beside it:
    the share of their weight it has, on the side where it has most (0 when
    there are no words, or ``rw`` lacks ``id``).  For comparing one number
    read in two releases."""
    if not rw.has(id):
        return 0.0
    near = related(id)
    best = 0.0
    for side, nearest_first in ((left, True), (right, False)):
        q = _query(rw, side, nearest_first)
        if not q:
            continue
        got, mass, _ = rw.scores(q)
        if mass > 0:
            best = max(best, max((v for k, v in got.items() if near(k)), default=0.0) / mass)
    return best


def text_fit(rw: RuleWords, text: str, left: str, right: str) -> list[float]:
    """For each side of a citation whose words weigh enough to be read, the
    share of their weight that ``text`` has (0.0 for a side too light):
    how well one version of a rule fits the words, side by side."""
    have = {s for s, _ in rw.words(text)}
    out = []
    for side, nearest_first in ((left, True), (right, False)):
        seen: set[str] = set()
        mass = got = 0.0
        for s, _, w in _query(rw, side, nearest_first):
            if s in seen or s not in rw.idf:
                continue
            seen.add(s)
            mass += w * rw.idf[s]
            got += w * rw.idf[s] if s in have else 0.0
        out.append(got / mass if mass >= rw.min_query else 0.0)
    return out


def successor(rw: RuleWords, id: str, text: str) -> str | None:
    """The rule of ``rw`` whose words are clearly most like ``text`` (a
    removed rule's text: where its content went), or None."""
    got = rw.words(text)[:SUCCESSOR_WORDS]
    query = [(s, x, 1.0) for s, x in got]
    scores, mass, clear = rw.scores(query)
    if not scores or mass <= 0:
        return None
    ranked = sorted(((k, v * (1 + NEAR_PRIOR * closeness(id, k))) for k, v in scores.items()),
                    key=lambda kv: kv[1], reverse=True)
    k, v = ranked[0]
    within = family(k)
    if (k not in clear or v < SUCCESSOR_COVER * mass
            or any(v2 >= CLOSE * v and not within(k2) for k2, v2 in ranked[1:20])):
        return None
    return k


_DEPTH = {"section": 0, "chapter": 1, "rule": 2, "subrule": 3}


def closeness(a: str, b: str) -> float:
    """How near two numbers are, from 1 (one rule's subrules: 704.5r and
    704.5q) to 0 (far apart).  Renumbering moves rules a little way (a
    subrule letter, a rule, a chapter or two), so of two rules the words
    name alike, the one nearer the cited number is the likelier."""
    if numbers.kind(a) == "section" or numbers.kind(b) == "section":
        return 0.0
    ca, cb = a.split(".", 1)[0], b.split(".", 1)[0]
    if "." in a and "." in b and a.rstrip(numbers.LETTERS) == b.rstrip(numbers.LETTERS):
        return 1.0
    # The same rule number or subrule letter in another place: a shift.
    same_tail = 0.1 if "." in a and "." in b and a.split(".", 1)[1] == b.split(".", 1)[1] else 0.0
    if ca == cb:
        return 0.6 + same_tail
    if abs(int(ca) - int(cb)) <= 3:
        return 0.3 + same_tail
    return 0.0


__all__ = ["RuleWords", "Verdict", "closeness", "family", "fit", "successor", "text_fit", "tokens", "context", "contexts", "judge", "light", "related", "shown"]
