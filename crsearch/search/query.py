"""Work out what a judge typed into the one search box.

A query may be a rule number or range in any forgiving form ("CR 702.19c",
"§702.19c", "rule 510.1c-d"), a keyword or glossary term, a question, a
quoted phrase, field filters (``section:7``, ``chapter:702``,
``kind:glossary``) or a passage pasted from a web page, including passages
whose rule numbers were lost ("See rule , “Combat Damage Step.”").
``parse`` never raises for odd text (unbalanced quotes or parentheses, lone
AND/OR/NOT, control characters, undecodable bytes, 10 KB pastes): it only
raises ``BadInput`` for an empty query or a filter with an impossible value.

Standard library only; folding comes from ``text`` and the judges' wording
from ``vocab``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from crsearch.errors import BadInput, short
from crsearch.rules import numbers
from crsearch.rules.text import STOP_WORDS, fold, norm_title, words
from crsearch.search.records import Record
from crsearch.search.vocab import (
    FILLER,
    FIRST_PERSON,
    JARGON,
    QUESTION_WORDS,
    SLANG,
    SYNONYMS,
    english_words,
    known_words,
)

#: Longer queries are cut at a word boundary: a pasted page says all it has
#: to say in its first couple of thousand characters.
MAX_QUERY_CHARS = 2000
#: At most this many distinct words go into the full-text query.
MAX_TERMS = 40
KINDS = ("rule", "subrule", "chapter", "section", "glossary")
#: Prefixes whose word and base form are other wordings of each other
#: ("untapped"/"tapped", "noncreature"/"creature").
NEGATION_PREFIXES = ("un", "non")
#: How a word the release never uses is corrected (``correct``): into a known
#: word at least ``cutoff`` alike (difflib's ratio), among those of its first
#: letter at most ``near`` letters longer or shorter (else among all at most
#: ``far``); a word of a title gains ``title``, a frequent word its count (at
#: most ``count_cap``) over ``count_scale``.
CORRECTION = {"cutoff": 0.75, "near": 2, "far": 1, "title": 0.05, "count_cap": 200,
              "count_scale": 20000}


def alternatives(word: str, vocab: dict[str, int] | set[str]) -> list[list[str]]:
    """Other wordings of ``word``: its negation or positive form as the rules
    spell it ("tapped" <-> "untapped", "creature" <-> "noncreature") and the
    judge's synonyms above.  Each alternative is a list of words."""
    out: list[list[str]] = []
    for prefix in NEGATION_PREFIXES:
        if word.startswith(prefix) and word[len(prefix):] in vocab:
            out.append([word[len(prefix):]])
        elif prefix + word in vocab:
            out.append([prefix + word])
    for alt in SYNONYMS.get(word, ()):
        out.append([w for w in words(alt) if w not in STOP_WORDS])
    return out


FILTER_FIELDS = ("section", "chapter", "kind")

_FILTER = re.compile(r"(?<![\w:])(?P<field>[A-Za-z]+):(?P<value>[^\s\"“”()]*)")
_PHRASE = re.compile(r"\"([^\"]*)\"|“([^“”]*)”")
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"})
# A pasted passage whose link text (the rule number) was lost: "See rule ,",
# "See rules –d.", "(see rule )".
_LOST_NUMBER = re.compile(r"\b(?:rules?|section)\s*(?=[,.;:)\u2013\u2014-])", re.IGNORECASE)


class ParsedQuery(Record):
    """What a query asks for; see ``parse``.

    ``raw``: the query as typed; ``text``: cleaned, filters removed;
    ``ids``: the rule numbers named; ``spec_only``: the whole query is
    numbers; ``bad_number``: looked like a number, was not (and why:
    ``bad_reason``); ``phrases``: quoted, folded; ``words``: folded, in
    order; ``passage``: pasted prose, not typed terms; ``question``: a
    question in a player's words ("?", a question word first, "I"/"my");
    ``names``: card names found in a question, as typed (their words are
    left out of ``words``: they would match rules words by accident);
    ``slang``: (slang, rules wording) pairs found in typed words
    (``vocab.SLANG``; none in a pasted passage).
    """

    __slots__ = ("raw", "text", "ids", "spec_only", "bad_number", "bad_reason", "filters",
                 "phrases", "words", "passage", "truncated", "question", "names", "slang")
    _FIELDS = __slots__

    def __init__(self, raw: str, text: str, ids: list[numbers.Span] | None = None,
                 spec_only: bool = False, bad_number: str | None = None, bad_reason: str = "",
                 filters: dict[str, str] | None = None, phrases: list[str] | None = None,
                 words: list[str] | None = None, passage: bool = False, truncated: bool = False,
                 question: bool = False, names: list[str] | None = None,
                 slang: list[tuple[str, str]] | None = None) -> None:
        self.raw = raw
        self.text = text
        self.ids: list[numbers.Span] = [] if ids is None else ids
        self.spec_only = spec_only
        self.bad_number = bad_number
        self.bad_reason = bad_reason
        self.filters: dict[str, str] = {} if filters is None else filters
        self.phrases: list[str] = [] if phrases is None else phrases
        self.words: list[str] = [] if words is None else words
        self.passage = passage
        self.truncated = truncated
        self.question = question
        self.names: list[str] = [] if names is None else names
        self.slang: list[tuple[str, str]] = [] if slang is None else slang

    @property
    def terms(self) -> list[str]:
        """Distinct content words, in order, for the full-text query; for a
        question, without filler; with the slang's rules wording added."""
        out: list[str] = []
        extra = [w for _, v in self.slang for w in words(v)]
        for w in self.words + extra:
            if w not in STOP_WORDS and w not in out and (self.passage or w not in QUESTION_WORDS) \
                    and not (self.question and w in FILLER):
                out.append(w)
        return out[:MAX_TERMS]

    @property
    def title_text(self) -> str:
        """The words as one string, to compare with keyword and glossary titles."""
        return " ".join(self.words)


def clean(text: str) -> str:
    """Drop control characters, lone surrogates (bytes that were not UTF-8)
    and other unprintables; collapse whitespace."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") or ch in "\u200b\ufeff" or cat == "Zs" or ch in "\u2028\u2029":
            out.append(" ")
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def parse(raw: str) -> ParsedQuery:
    """Parse one query.  Raises ``BadInput`` only when nothing is left to
    search for, or a filter names an impossible value."""
    if not isinstance(raw, str):
        raise BadInput("the query must be text")
    text = clean(raw)
    truncated = False
    if len(text) > MAX_QUERY_CHARS:
        cut = text.rfind(" ", 0, MAX_QUERY_CHARS)
        text = text[: cut if cut > MAX_QUERY_CHARS // 2 else MAX_QUERY_CHARS]
        truncated = True
    if not text:
        raise BadInput("the query is empty: type a rule number, a keyword, a term or a question")
    q = ParsedQuery(raw=raw, text=text, truncated=truncated)

    # Field filters: section:7, chapter:702, kind:glossary.
    def take_filter(m: re.Match) -> str:
        name, value = m["field"].lower(), m["value"].strip(".,;")
        if name not in FILTER_FIELDS:
            return m.group()  # "Example:" and the like stay as words
        q.filters[name] = _filter_value(name, value)
        return " "

    text = _FILTER.sub(take_filter, text)
    if _only_numbers(q, text):
        return q
    text = _take_references(q, text)

    # Quoted phrases (straight or curly); an unbalanced quote is just dropped.
    for m in _PHRASE.finditer(text):
        phrase = " ".join(words(m.group(1) if m.group(1) is not None else m.group(2)))
        if phrase and phrase not in q.phrases:
            q.phrases.append(phrase)
    q.text = " ".join(text.split())
    folded = fold(text)
    q.words = [w for w in words(folded) if not _is_lone_operator(w, text)]
    if not q.ids and len(q.words) <= 6:
        expanded = []
        for w in q.words:
            expanded.extend(words(JARGON[w]) if w in JARGON else [w])
        q.words = expanded
    lost = bool(_LOST_NUMBER.search(text))
    q.question = is_question(text, q.words, lost)
    if q.question:
        q.names = card_names(text)
        drop = {w for n in q.names for w in words(n)}
        q.words = [w for w in q.words if w not in drop]
    q.passage = not q.question and (len(q.words) >= 9 or lost or (
        len(q.words) >= 6 and bool(re.search(r"[.;:]\s+\w", text))))
    if not q.passage:
        # Typed words, question or not ("fizzle", "sac", "blink"): pasted
        # rules text has no slang, and its own words are its best clues.
        q.slang = slang_in(q.words)
    if not q.words and not q.ids and not q.filters:
        raise BadInput(f"the query {short(raw, 60)!r} has nothing to search for: type a rule number, "
                       "a keyword, a term or a question")
    return q


def _only_numbers(q: ParsedQuery, text: str) -> bool:
    """True when the whole query is a rule number, range or list (``q.ids``),
    or looks like one but is not (``q.bad_number``)."""
    bare = text.strip().strip("()[]{}").strip()
    if not bare or not any(c.isdigit() for c in bare):
        return False
    try:
        q.ids = numbers.parse_spec(bare)
        q.spec_only = True
        q.text = bare
        return True
    except BadInput as e:
        if _looks_numeric(bare):
            q.bad_number = bare
            q.text = bare
            q.bad_reason = str(e)
            return True
    return False


def _take_references(q: ParsedQuery, text: str) -> str:
    """``text`` without the rule numbers in its running text ("trample
    702.19", "see rule 510.1c"), which go to ``q.ids``."""
    if not any(c.isdigit() for c in text):
        return text
    pieces = []
    last = 0
    for start, end, _printed, spans in numbers.find_references(text):
        q.ids.extend(spans)
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    return " ".join(pieces)


_QUESTION_START = frozenset(["is", "are", "was", "will", "whose",
                             "does", "do", "can", "could", "should", "would", "what", "when",
                             "where", "which", "who", "why", "how", "am"])


def question_words(q: ParsedQuery) -> list[str]:
    """What a question means for the embeddings: all its words (filler too:
    measured better than its content words alone), card names left out,
    slang's rules wording in."""
    return q.words + [w for _, v in q.slang for w in words(v)]


#: A clause that asks, anywhere in the text: one of these words at the start
#: of a clause (after a comma, a sentence's end, a colon or a dash) ...
_CLAUSE_ASK = frozenset(["what", "how", "why", "whats", "what's"])
#: ... followed by one of these ("..., what is the power of each").  Rules
#: text has "What an Aura can be attached to" and ", how it will", never
#: these pairs.
_CLAUSE_ASK_NEXT = frozenset(["is", "are", "was", "were", "does", "do", "did", "can", "could",
                              "would", "should", "will", "happens", "happen", "happened",
                              "if", "about", "order", "kind", "type", "many", "much", "exactly"])
#: A clause that starts with a verb and then a subject asks too ("..., does
#: it die", "..., can I respond"); rules text has ", is a separate subtype".
_CLAUSE_VERB = frozenset(["does", "do", "did", "can", "could", "should", "would", "will", "is",
                          "are", "was", "were"])
_CLAUSE_SUBJECT = frozenset(["it", "i", "you", "they", "he", "she", "we", "there", "this",
                             "that", "both", "either", "anything", "something", "everything",
                             "my", "your", "their", "his", "her"])
#: Compiled on first use (``re``'s cache): most questions end in "?".
_CLAUSE_START = r"(?:^|[,;:.!\u2013\u2014]|\s-)\s*([A-Za-z']+)\s+([A-Za-z']+)"


def asks(text: str) -> bool:
    """True when a clause of ``text`` has a question's shape, "?" or not:
    "..., what is the power and toughness of each", "..., does it die"."""
    for m in re.finditer(_CLAUSE_START, text):
        first, second = m.group(1).lower(), m.group(2).lower()
        if first in _CLAUSE_ASK and second in _CLAUSE_ASK_NEXT:
            return True
        if first in _CLAUSE_VERB and second in _CLAUSE_SUBJECT:
            return True
    return False


def is_question(text: str, folded_words: list[str], lost_number: bool = False) -> bool:
    """True for a question in a player's words rather than pasted rules text:
    a question mark, "I"/"my"/"me", a clause with a question's shape
    (``asks``) or (unless the text has a rule number lost from a web page) a
    question word first."""
    if not folded_words:
        return False
    return "?" in text or any(w in FIRST_PERSON for w in folded_words) or (
        not lost_number and (folded_words[0] in _QUESTION_START or asks(text)))


# A capitalised word as typed: "Garruk", "Azami's", "Ish", "Two-Headed".
_CAP_TOKEN = re.compile(r"[A-Z][\w'\u2019-]*|[\w'\u2019-]+|[.?!:;,()\"]")
_NOT_NAMES = _QUESTION_START | QUESTION_WORDS | FIRST_PERSON | STOP_WORDS | frozenset(
    ["both", "player", "players", "opponent", "then", "and", "but", "so", "also", "once",
     "after", "before", "during", "while", "each", "all", "any", "no", "not", "yes"])
_CONNECTORS = frozenset(["of", "the", "from", "and", "to", "in", "on", "a", "de", "des", "du"])


def tables() -> dict[str, Any]:
    """The word lists that ``is_question`` and ``card_names`` use, as plain
    data (the site's search exports them; ``site_search.build``)."""
    return {"question_start": sorted(_QUESTION_START), "not_names": sorted(_NOT_NAMES),
            "connectors": sorted(_CONNECTORS), "negation_prefixes": list(NEGATION_PREFIXES),
            # ``asks``: a clause's first two words that make it a question.
            "clause_start": _CLAUSE_START, "clause_ask": sorted(_CLAUSE_ASK),
            "clause_ask_next": sorted(_CLAUSE_ASK_NEXT), "clause_verb": sorted(_CLAUSE_VERB),
            "clause_subject": sorted(_CLAUSE_SUBJECT),
            # Slang is read in every typed query, question or not (not in a passage).
            "slang_always": True}


def card_names(text: str) -> list[str]:
    """Card (or character) names in a question, as typed.

    A name is a run of capitalised words, possibly joined by "of"/"the"/...
    or a comma ("Garruk, Unleashed", "Xenagos, God of Revels"): a run of two
    words or more anywhere, or one word that is not the first of its
    sentence, or one word with a possessive ("Mikaeus's ability").  Words in
    capitals (ETB, SBA, MTG) and single letters (player A) are not names.
    The engine keeps a name that is a rules title ("First Strike").
    """
    tokens = _CAP_TOKEN.findall(text)
    names: list[str] = []
    run: list[str] = []
    run_caps = 0
    start_of_sentence = True
    run_starts_sentence = False

    def cap(t: str) -> bool:
        core = t.split("'")[0].split("\u2019")[0]
        return t[:1].isupper() and len(core) > 1 and not core.isupper() \
            and core.lower() not in _NOT_NAMES

    def flush() -> None:
        nonlocal run, run_caps
        while run and not cap(run[-1]):
            run.pop()   # a trailing connector or comma
        if run:
            possessive = run[-1].endswith(("'s", "\u2019s", "s'"))
            if run_caps >= 2 or not run_starts_sentence or possessive:
                names.append(" ".join(run).replace(" ,", ","))
        run, run_caps = [], 0

    for t in tokens:
        if cap(t):
            if not run:
                run_starts_sentence = start_of_sentence
            run.append(t)
            run_caps += 1
            start_of_sentence = False
        elif run and (t.lower() in _CONNECTORS or t == ","):
            run.append(t)
        else:
            flush()
            if t in (".", "?", "!", ":", ";", "(", ")", '"'):
                start_of_sentence = True
            elif t != ",":
                start_of_sentence = False
    flush()
    return names


def slang_in(folded_words: list[str]) -> list[tuple[str, str]]:
    """The slang phrases (``vocab.SLANG``) in a question, longest first."""
    found: list[tuple[str, str]] = []
    n = len(folded_words)
    i = 0
    while i < n:
        for size in (4, 3, 2, 1):
            key = " ".join(folded_words[i:i + size])
            if i + size <= n and key in SLANG:
                if (key, SLANG[key]) not in found:
                    found.append((key, SLANG[key]))
                i += size
                break
        else:
            i += 1
    return found


def _is_lone_operator(w: str, text: str) -> bool:
    # "AND", "OR", "NOT" typed in capitals are search syntax elsewhere; here
    # they carry no meaning, so they are dropped rather than searched for.
    return w.upper() in _OPERATORS and re.search(rf"\b{w.upper()}\b", text) is not None


def _looks_numeric(text: str) -> bool:
    """True for things a judge meant as a rule number ("702.19z", "7020")."""
    s = text.strip().lower()
    s = re.sub(r"^(?:cr|rules?|sections?|§)\s*", "", s)
    return bool(re.fullmatch(r"[0-9][0-9.]*[a-z]{0,3}\.?", s))


def _filter_value(name: str, value: str) -> str:
    if name == "kind":
        v = value.lower()
        aliases = {"rules": "rule", "subrules": "subrule", "chapters": "chapter",
                   "sections": "section", "term": "glossary", "terms": "glossary",
                   "definition": "glossary"}
        v = aliases.get(v, v)
        if v not in KINDS:
            raise BadInput(f"kind:{short(value)} is not a kind; use one of {', '.join(KINDS)}")
        return v
    try:
        id = numbers.normalize(value)
    except BadInput:
        id = ""
    want = "section" if name == "section" else "chapter"
    if not id or numbers.kind(id) != want:
        example = "section:7" if name == "section" else "chapter:702"
        raise BadInput(f"{name}:{short(value)} is not a {want} number (as in {example})")
    return id


# -- typo correction -----------------------------------------------------------

def correct(q: ParsedQuery, vocab: dict[str, int], titles: set[str],
            keep: set[str] | frozenset[str] = frozenset()) -> str | None:
    """The query with unknown words replaced by close known ones, or None.

    Only words nobody knows are corrected ("deathtuch", "tramplle",
    "hexprof"): never a word of the release, of the wording tables (slang
    such as "blink"), of the cards table or of an English word list
    (``vocab.english_words``, read only when a correction is in mind), and
    only to a word one typing mistake away (two in a word of six letters or
    more).  Words of keyword and glossary titles win ties.  Words in ``keep``
    (a question's capitalised words) are never corrected.
    """
    changed = False
    fixed: list[str] = []
    for w in q.words:
        if w in vocab or not w.isalpha() or len(w) < 4 or w in STOP_WORDS or w in keep \
                or is_known_word(w):
            fixed.append(w)
            continue
        best = _closest(w, vocab, titles)
        if best and best != w and not is_english(w):
            fixed.append(best)
            changed = True
        else:
            fixed.append(w)
    if not changed:
        return None
    return " ".join(fixed)


def is_known_word(word: str) -> bool:
    """True for a folded word the wording tables or the cards table know."""
    from crsearch.search.cardtopics import name_words

    return word in known_words() or word in name_words()


def is_english(word: str) -> bool:
    """True for a folded word of the English word list (read on first use)."""
    return word in english_words()


#: The last vocabulary ``_closest`` read, with its words by first letter
#: and by length (one tuple, replaced whole: threads may share it).
_parts: tuple[Any, dict[str, list[str]], dict[int, list[str]]] = (None, {}, {})


def _vocab_parts(vocab: dict[str, int]) -> tuple[dict[str, list[str]], dict[int, list[str]]]:
    """``vocab``'s words by first letter and by length (the last vocabulary's kept)."""
    global _parts
    last = _parts
    if last[0] is not vocab:
        by_first: dict[str, list[str]] = {}
        by_length: dict[int, list[str]] = {}
        for v in vocab:
            by_first.setdefault(v[:1], []).append(v)
            by_length.setdefault(len(v), []).append(v)
        last = _parts = (vocab, by_first, by_length)
    return last[1], last[2]


def _closest(word: str, vocab: dict[str, int], titles: set[str]) -> str | None:
    """The known word closest to ``word`` (``suggest.ranked``) and a likely
    typing of it (``suggest.close_enough``); titles' words and frequent
    words win ties."""
    from crsearch.rules.suggest import close_enough, ranked

    c = CORRECTION
    n = len(word)
    by_first, by_length = _vocab_parts(vocab)
    # The order of the pool does not matter: ``ranked`` sorts by score, then word.
    pool = [v for v in by_first.get(word[:1], ()) if abs(len(v) - n) <= c["near"]] or \
           [v for k in range(n - int(c["far"]), n + int(c["far"]) + 1)
            for v in by_length.get(k, ())]
    scored = [(r + (c["title"] if cand in titles else 0.0)
               + min(vocab.get(cand, 0), c["count_cap"]) / c["count_scale"], cand)
              for cand, r in ranked(word, pool, limit=len(pool), cutoff=c["cutoff"])
              if close_enough(word, cand)]
    if not scored:
        return None
    return max(scored)[1]


class Reader:
    """How the search reads typed text, knowing one release's words and titles
    (from its index's ``terms.json``) but opening nothing.

    The engine reads every query through it, and the index build reads the
    questions asked before through it, so that their vectors compare.
    """

    def __init__(self, terms: dict[str, Any]):
        self.vocab: dict[str, int] = terms["vocab"]
        self.keywords: dict[str, str] = terms["keywords"]
        self.glossary_names = {name for g in terms["glossary"] for name in g["names"]}
        self.title_words = {w for t in [*self.keywords, *self.glossary_names] for w in t.split()}

    def read(self, text: str) -> tuple[ParsedQuery, str | None]:
        """The query as the search reads it (titles kept among card names,
        typos corrected) and the corrected wording, if any."""
        q = parse(text)
        if q.names:
            q = self._keep_titles(q)
        # Pasted text is not corrected: it was not typed, and its rare words
        # (card names, set mechanics) are its best clues.
        # In a question, capitalised words are names more often than typos.
        typed_caps = {fold(t) for t in re.findall(r"\b[A-Z][\w']*", q.text)} if q.question else set()
        suggestion = None if q.passage else correct(q, self.vocab, self.title_words, typed_caps)
        if suggestion:
            q = q.replace(words=suggestion.split())
        return q, suggestion

    def meaning_words(self, text: str) -> list[str]:
        """The words of ``text`` whose embeddings make its vector, as a
        search reads it (the questions asked before get the very vector a
        new question would get)."""
        return question_words(self.read(text)[0])

    def _keep_titles(self, q: ParsedQuery) -> ParsedQuery:
        """Names in a question that are rules titles ("First Strike") are
        rules words after all: they go back into the query."""
        back = [n for n in q.names if norm_title(n) in self.keywords or norm_title(n) in self.glossary_names]
        if not back:
            return q
        return q.replace(names=[n for n in q.names if n not in back],
                       words=q.words + [w for n in back for w in words(n)])
