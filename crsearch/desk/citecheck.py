"""Check the rule citations in any text: an article, notes, code comments.

Citations rot as the rules are renumbered: "502.9b" (trample, 2003) is
702.19b today.  ``find`` locates citations in every form ``crsearch rule``
accepts (``CR 702.19c``, ``rule 702.19c``, ``§702.19c``, ``702.19 c``,
ranges such as ``601.2f-h`` and lists) using ``numbers.find_references``,
with extra care against numbers that only look like rules (prices, versions,
measures): a bare number without a subrule letter counts only when its
paragraph also speaks of rules.  ``check`` compares each cited id with the release in
effect when the text was written and follows it to today's number through
``history.trace_forward``; ``fix`` renumbers the moved ones and changes
nothing else.
"""

from __future__ import annotations

import os
import re
from typing import Any

from crsearch.errors import BadInput
from crsearch.rules import numbers

MAX_BYTES = 5_000_000

# Words that say a paragraph is about the rules, so a bare "601.2" there is a rule.
_CONTEXT = re.compile(r"\b(?:rules?|CR|comprehensive|subrules?|section)\b|§", re.IGNORECASE)
# "702.19 c": a subrule letter after a space, as judges sometimes write it.
_SPACED_LETTER = re.compile(r" ([b-km-np-z])(?=$|[\s.,;:)\]])")


class Citation:
    """One cited id, where it is written, and what became of it."""

    __slots__ = ("column", "end", "id", "line", "nearest", "now", "read_in", "start", "status",
                 "text", "words")

    def __init__(self, text: str, start: int, end: int, line: int, column: int, id: str):
        self.text, self.start, self.end = text, start, end
        self.line, self.column, self.id = line, column, id
        self.status = "ok"
        self.now: str | None = None
        self.nearest: list[str] = []
        self.words: str | None = None
        self.read_in: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "line": self.line, "column": self.column,
                             "id": self.id, "status": self.status}
        if self.now is not None:
            d["now"] = self.now
        if self.nearest:
            d["nearest"] = self.nearest
        if self.words is not None:
            d["words"] = self.words
        if self.read_in is not None:
            d["read_in"] = self.read_in
        return d


def read_text(data: bytes, name: str) -> tuple[str, str]:
    """Decode a file to check: (text, encoding), or BadInput for binary or huge input.

    The encoding is one that gives back the same bytes, so ``--fix`` changes
    nothing but the citations (a UTF-8 BOM is kept).
    """
    if len(data) > MAX_BYTES:
        raise BadInput(f"{name} is too large ({len(data):,} bytes; at most {MAX_BYTES:,})")
    if b"\x00" in data[:65536]:
        raise BadInput(f"{name} is binary, not text")
    for encoding in ("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8", "cp1252",
                     "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise BadInput(f"{name} is not text")  # unreachable: latin-1 decodes anything


def find(text: str) -> list[Citation]:
    """Every citation in ``text``, one per id (a range gives both its ends).

    ``text`` of a citation is the id as written; line and column are 1-based.
    """
    out: list[Citation] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    import bisect

    def where(pos: int) -> tuple[int, int]:
        n = bisect.bisect_right(line_starts, pos) - 1
        return n + 1, pos - line_starts[n] + 1

    bounds = _paragraphs(text)
    for start, _end, printed, spans in numbers.find_references(text):
        keyword = bool(re.match(r"(?i)(?:sub)?rules?|sections?|cr|§", printed))
        # The positions of the printed numbers, in order.
        marks = list(re.finditer(r"[0-9]+(?:\.[0-9]+)?[a-z]*|(?<![\w.])[a-z](?![\w])", printed))
        ids: list[tuple[str, int, int]] = []
        k = 0
        for span in spans:
            for id in ([span.start] if span.start == span.end else [span.start, span.end]):
                # Find the printed token for this id.
                while k < len(marks):
                    m = marks[k]
                    k += 1
                    tok = m.group()
                    if tok == id or id.endswith(tok) or (tok[0].isdigit() and _same(tok, id)):
                        ids.append((id, start + m.start(), start + m.end()))
                        break
        for id, a, b in ids:
            kind = numbers.kind(id)
            if not keyword:
                # A bare number: only a subrule, or a rule on a line that speaks
                # of rules, in its paragraph ("$120.50" and "100.5 km" are not).
                if kind in ("section", "chapter"):
                    continue
                if (kind == "rule" and not _CONTEXT.search(_paragraph(text, a, bounds))
                        and not _parenthesised(text, a, b)):
                    continue
            # "702.19 c": a spaced subrule letter.
            if kind == "rule":
                spaced = _SPACED_LETTER.match(text, b)
                if spaced and not re.match(r" [a-z]\w", text[b:b + 3]):
                    try:
                        id = numbers.normalize(id + spaced.group(1))
                        b = spaced.end()
                    except BadInput:
                        pass
            ln, col = where(a)
            out.append(Citation(text[a:b], a, b, ln, col, id))
    return out


def _same(tok: str, id: str) -> bool:
    try:
        return numbers.normalize(tok) == id
    except BadInput:
        return False


_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")


def _paragraphs(text: str) -> tuple[list[int], list[int]]:
    """Where paragraphs start and end (between blank lines), for ``_paragraph``."""
    starts, ends = [0], []
    for m in _BLANK_LINE.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    return starts, ends


def _paragraph(text: str, pos: int, bounds: tuple[list[int], list[int]]) -> str:
    """The paragraph around ``pos``."""
    import bisect

    k = max(0, bisect.bisect_right(bounds[0], pos) - 1)
    return text[bounds[0][k]:bounds[1][k]]


def _parenthesised(text: str, a: int, b: int) -> bool:
    return text[max(0, a - 1):a] == "(" and text[b:b + 1] == ")"


def check(store: Any, text: str, as_of: str | None = None, *, own_date: bool = True,
          words: bool = True) -> dict[str, Any]:
    """Find and check every citation; the ``cite-check --json`` contract.

    The numbers are read as numbered on ``as_of``; without it, on the date
    the text gives for itself (``textdate.written_on``, unless ``own_date``
    is false), else in today's release.  An id that release lacks is
    ``missing`` (with the nearest ids); one renumbered since is ``moved``
    (``now`` is today's number); one removed since is ``missing``
    (``removed`` gives the date).  Without a date, an id that today's rules
    lack but an older release has is followed from the newest release that
    has it, and the text is taken to be of that era (``_era``).  Then,
    unless ``words`` is false, the words next to each citation are read
    (``citewords``): a rule they name clearly, other than the cited one as
    numbered when it was written, makes the citation a ``mismatch`` with
    ``now`` that rule's number today (a ``missing`` one gets that ``now``).
    """
    from crsearch.store.lookup import Library

    latest = store.pick(None)
    dated: dict[str, Any] | None = None
    if as_of:
        dated = {"date": as_of, "from": "option"}
    elif own_date:
        from crsearch.desk.textdate import written_on

        found = written_on(text)
        if found is not None:
            as_of = found.date
            dated = {"date": found.date, "from": "text", "line": found.line,
                     "words": found.words, "kind": found.kind}
    if as_of:
        first = store.releases()[0]
        # A text older than every release is read in the first one: the
        # numbering nearest to the one its writer saw.
        base = store.pick(as_of) if as_of >= first.effective_date else first
    else:
        base = latest
    cites = find(text)
    lib_base = Library(base)
    lib_now = Library(latest) if base is not latest else lib_base
    follow: dict[str, list[Citation]] = {}
    orphans: list[Citation] = []
    read_in: dict[int, str] = {}  # citation's index -> the release its number is read in
    for n, c in enumerate(cites):
        if not lib_base.exists(c.id):
            if as_of:
                c.status, c.nearest = "missing", lib_base.suggestions(c.id)
                read_in[n] = base.effective_date
            else:
                orphans.append(c)
        else:
            read_in[n] = base.effective_date
            if base is not latest:
                follow.setdefault(c.id, []).append(c)
    removed: dict[str, str] = {}
    cache = _TraceCache(store, latest)
    if follow:
        traced = _trace(cache, sorted(follow), lib_base, lib_now)
        for id, group in follow.items():
            now, date = traced.get(id, (id, latest.effective_date))
            for c in group:
                _settle(c, now, date, lib_now, removed)
    homes: dict[str, str] = {}
    if orphans:
        homes = _homes(store, cache, sorted({c.id for c in orphans}))
        by_home: dict[str, list[str]] = {}
        for id, date in homes.items():
            by_home.setdefault(date, []).append(id)
        traced_old: dict[str, tuple[str | None, str]] = {}
        for date, group_ids in by_home.items():
            traced_old.update(cache.trace(group_ids, date))
        position = {c: n for n, c in enumerate(cites)}
        for c in orphans:
            if c.id not in traced_old:
                c.status, c.nearest = "missing", lib_now.suggestions(c.id)
                read_in[position[c]] = latest.effective_date
            else:
                _settle(c, *traced_old[c.id], lib_now, removed)
                read_in[position[c]] = homes[c.id]
    scorers = _Scorers(store)
    sides = _contexts(text, cites) if words and cites else None
    era = (_era(store, cites, read_in, homes, cache, lib_now, removed, sides, scorers)
           if homes else None)
    checked = (_check_words(store, cites, read_in, cache, latest, removed, sides, scorers)
               if sides is not None else 0)
    cache.save()
    for n, c in enumerate(cites):
        if read_in.get(n, base.effective_date) != base.effective_date:
            c.read_in = read_in[n]
    problems = sum(1 for c in cites if c.status != "ok")
    return {"release": base.effective_date, "latest": latest.effective_date, "as_of": dated,
            "era": era, "words_checked": checked, "citations": [c.to_dict() for c in cites],
            "problems": problems, "removed": removed}


def _contexts(text: str, cites: list[Citation]) -> list[tuple[str, str]]:
    """The words before and after each citation (``citewords.contexts``)."""
    from crsearch.desk import citewords

    return citewords.contexts(text, [(c.start, c.end) for c in cites])


class _Scorers:
    """What a check reads of each release, once: its ``citewords.RuleWords``
    (``scorers(date)``) and its rule ids (``ids``)."""

    def __init__(self, store: Any):
        self.store = store
        self.known: dict[str, Any] = {}
        self._stored: list[Any] | None = None
        self._ids: dict[str, set[str]] = {}

    def __call__(self, date: str) -> Any:
        if date not in self.known:
            from crsearch.desk.citewords import RuleWords

            self.known[date] = RuleWords.of_release(self.store.pick(date))
        return self.known[date]

    @property
    def stored(self) -> list[Any]:
        """The releases, oldest first."""
        if self._stored is None:
            self._stored = self.store.releases()
        return self._stored

    def ids(self, release: Any) -> set[str]:
        """The rule ids of ``release`` (one of ``stored``)."""
        got = self._ids.get(release.effective_date)
        if got is None:
            got = self._ids[release.effective_date] = set(release.meta()["rule_ids"])
        return got


def _trace(cache: _TraceCache, ids: list[str], lib_then: Any,
           lib_now: Any) -> dict[str, tuple[str | None, str]]:
    """Where ``ids``, numbered as in ``lib_then``'s release, are today.

    A chapter goes to today's chapter of its title, else where its first
    rules went ("310" of 2009, the combat damage step, is 510).
    """
    chapters = [ch for ch in ids if numbers.kind(ch) == "chapter"]
    stand_in = {ch: [r for r in (f"{ch}.1", f"{ch}.2", f"{ch}.3") if lib_then.exists(r)]
                for ch in chapters}
    traced = cache.trace(sorted({*ids, *(r for rs in stand_in.values() for r in rs)}),
                         lib_then.stored.effective_date)
    today = lib_now.stored.effective_date
    titled = {_fold_title(c.title): c.id for c in lib_now.chapters.values()}
    for ch in chapters:
        same = titled.get(_fold_title(lib_then.chapters[ch].title))
        went = [now for r in stand_in[ch] if r in traced for now in [traced[r][0]] if now]
        if same is not None:
            traced[ch] = (same, today)
        elif went:
            heads = [r.split(".", 1)[0] for r in went]
            traced[ch] = (max(heads, key=heads.count), today)
    return traced


def _homes(store: Any, cache: _TraceCache, ids: list[str]) -> dict[str, str]:
    """The newest release that has each of ``ids`` (ids no release has are
    left out).  Each release's id list is read once; answers are remembered."""
    homes: dict[str, str] = {}
    wanted = set()
    for id in ids:
        known = cache.data.get(f"home|{id}")
        if known is None:
            wanted.add(id)
        elif known[1]:
            homes[id] = known[1]
    asked = set(wanted)
    for s in reversed(store.releases()[:-1]):
        if not wanted:
            break
        have = wanted & set(s.meta()["rule_ids"])
        for id in have:
            homes[id] = s.effective_date
        wanted -= have
    for id in asked:  # remembered, found or not
        cache.data[f"home|{id}"] = [id, homes.get(id, "")]
        cache.dirty = True
    return homes


def _era(store: Any, cites: list[Citation], read_in: dict[int, str], homes: dict[str, str],
         cache: _TraceCache, lib_now: Any, removed: dict[str, str],
         sides: list[tuple[str, str]] | None, scorers: _Scorers) -> dict[str, Any] | None:
    """Read an undated text as of the era its old numbers show.

    A text that cites numbers only older releases have (``homes``: the
    newest release of each) was written when they all existed: up to the
    oldest of those releases, the era.  Its other numbers are read as of the
    era too when the words next to one fit its rule then better than the
    rule it names today (a text may quote an old number among current ones).  Returns ``{"date", "by"}`` (the old numbers), or None
    when the old numbers never existed together.
    """
    from crsearch.store.lookup import Library

    date = min(homes.values())
    lib_era = Library(store.pick(date))
    if not all(lib_era.exists(id) for id in homes):
        return None
    todo = [n for n, c in enumerate(cites)
            if c.status != "missing" and read_in.get(n) != date and lib_era.exists(c.id)]
    if not todo:
        return {"date": date, "by": sorted(homes, key=numbers.sort_key)}
    traced = _trace(cache, sorted({cites[n].id for n in todo}), lib_era, lib_now)
    for n in todo:
        c = cites[n]
        if c.id not in traced:
            continue
        now, gone = traced[c.id]
        if (now or None) == (c.now if c.status == "moved" else c.id if c.status == "ok" else None):
            read_in[n] = date  # the same answer either way
            continue
        if sides is None:
            continue
        from crsearch.desk.citewords import fit

        left, right = sides[n]
        if fit(scorers(date), c.id, left, right) <= fit(scorers(read_in[n]), c.id, left, right):
            continue  # only words that fit the rule of the era better move a number there
        c.status, c.now, c.nearest = "ok", None, []
        removed.pop(c.id, None)
        _settle(c, now, gone, lib_now, removed)
        read_in[n] = date
    return {"date": date, "by": sorted(homes, key=numbers.sort_key)}


def _check_words(store: Any, cites: list[Citation], read_in: dict[int, str],
                 cache: _TraceCache, latest: Any, removed: dict[str, str],
                 sides: list[tuple[str, str]], scorers: _Scorers) -> int:
    """Read the words next to each citation (see ``check``); how many named a rule."""
    from crsearch.desk import citewords
    from crsearch.desk.citewords import related

    named: dict[str, list[tuple[Citation, str, str]]] = {}  # release -> (citation, rule, words)
    checked = 0
    for n, c in enumerate(cites):
        date = read_in.get(n)
        left, right = sides[n]
        if date is None or not (left.strip() or right.strip()):
            continue
        rw = scorers(date)
        verdict = citewords.judge(rw, c.id, left, right, exists=rw.has(c.id))
        checked += verdict.fits is not None
        if not verdict.weighty or verdict.best or (c.status == "missing" and c.id in removed):
            continue
        # The words fit another rule better: maybe they fit what this number
        # meant in an older release (numbers reused after a renumbering).
        older = _older_reading(store, cache, scorers, c.id, date, left, right)
        if older is not None and older[1] != c.id:
            checked += verdict.fits is None  # the words placed it after all
            if c.status != "missing":
                c.status = "mismatch"
            read_in[n], c.now = older
            c.words = citewords.shown(verdict.words or " ".join((left + " … " + right).split()))
            continue
        if verdict.fits is False and verdict.better is not None:
            # Words that name a rule cited next to this one (or to its list)
            # are about that one: "205.3 and 205.4a, ability words from 207.2c".
            near = related(verdict.better)
            if any(near(cites[k].id) for k in range(max(0, n - 2), min(len(cites), n + 3))):
                continue
            named.setdefault(date, []).append((c, verdict.better, verdict.words))
    # A rule removed since, that the words did not place: the rule whose
    # words are most like its own text then, if one is clearly so.
    for n, c in enumerate(cites):
        date = read_in.get(n)
        if c.status != "missing" or c.id not in removed or c.now is not None or date is None:
            continue
        old = store.pick(date).rule_dicts(c.id.split(".", 1)[0], c.id, c.id.__eq__)
        if old:
            c.now = citewords.successor(scorers(latest.effective_date), c.id, old[0]["text"])
    for date, found in named.items():
        now_of: dict[str, str | None]
        if date == latest.effective_date:
            now_of = {better: better for _, better, _ in found}
        else:
            traced = cache.trace(sorted({b for _, b, _ in found}), date)
            now_of = {b: traced[b][0] for b in traced}
        for c, better, said in found:
            now = now_of.get(better)
            if now is None:
                continue  # the rule the words name is gone today: nothing better to say
            if now == c.id:
                # The number names that rule today: the citation reads right
                # now, whatever it named when written.
                if c.status == "moved":
                    c.status, c.now = "ok", None
                continue
            if c.status != "missing":
                c.status = "mismatch"
            c.now, c.words = now, citewords.shown(said)
    return checked


#: An older version of a rule must fit the words this much better than the
#: version the number was read in (shares of the words' weight).
VERSION_MARGIN = 0.2
VERSION_COVER = 0.5
#: How many releases apart a number's text is read (see ``_versions``).
VERSION_STEP = 3


def _older_reading(store: Any, cache: _TraceCache, scorers: _Scorers, id: str, date: str,
                   left: str, right: str) -> tuple[str, str] | None:
    """(release, today's number) when the words beside ``id`` fit what it
    numbered in a release before ``date`` clearly better than what it
    numbered on ``date``; else None."""
    from crsearch.desk.citewords import text_fit

    rw = scorers(date)
    runs = _versions(scorers, cache, id)
    current = next((t for first, last, t in runs if first <= date <= last), None)
    here = text_fit(rw, current, left, right) if current is not None else [0.0, 0.0]
    best: tuple[float, str, str] | None = None
    for _first, last, text in runs:
        if last >= date or text == current:
            continue
        fits = text_fit(rw, text, left, right)
        # Side by side: the old text must win on a side where it fits well.
        score = max((f for f, h in zip(fits, here)
                     if f >= VERSION_COVER and f >= h + VERSION_MARGIN), default=0.0)
        if score and (best is None or score >= best[0]):
            best = (score, last, text)
    if best is None:
        return None
    now, _ = cache.trace([id], best[1]).get(id, (None, ""))
    if now is None:
        # Removed since: where its words went, if that is clear.
        from crsearch.desk.citewords import successor

        now = successor(scorers(store.pick(None).effective_date), id, best[2])
    return (best[1], now) if now else None


def _versions(reader: _Scorers, cache: _TraceCache, id: str) -> list[list[str]]:
    """[first release, last release, text] of each run of the releases read
    in which number ``id`` has the same text, oldest first (remembered in
    the cache)."""
    key = f"versions|{id}"
    known = cache.data.get(key)
    if known is not None:
        return [list(run) for run in known]
    runs: list[list[str]] = []
    chapter = id.split(".", 1)[0]
    stored = reader.stored
    has = [id in reader.ids(s) for s in stored]
    # Every VERSION_STEP-th release that has the number, and the first and
    # last of each run of releases that have it: a rule's text lasts for
    # many releases, so its versions are all seen at a fraction of the reading.
    picked = [k for k in range(len(stored)) if has[k] and (
        (len(stored) - 1 - k) % VERSION_STEP == 0 or k == 0 or not has[k - 1]
        or k == len(stored) - 1 or not has[k + 1])]
    for k in picked:
        s = stored[k]
        got = s.rule_dicts(chapter, id, id.__eq__)
        if not got:
            continue
        # Versions that differ in quotes or spacing alone are one.
        text = " ".join(got[0]["text"].replace("\u2019", "'").replace("\u2018", "'").split())
        if runs and runs[-1][2] == text:
            runs[-1][1] = s.effective_date
        else:
            runs.append([s.effective_date, s.effective_date, text])
    cache.data[key] = runs
    cache.dirty = True
    return runs


class _TraceCache:
    """Where rules went, remembered next to the latest release.

    Following a rule through a hundred releases takes a while; a text checked
    again (in CI, say) asks the same questions.  The answers hold as long as
    the same releases are imported, so the cache keeps the catalog's folder
    names and is dropped when they change.  Written atomically; a read-only
    data folder just goes without.
    """

    NAME = "cite-check-cache.json"

    def __init__(self, store: Any, latest: Any):
        import json

        self.store, self.path = store, latest.path / self.NAME
        self.signature = [r["dir"] for r in store.catalog()]
        self.data: dict[str, list[Any]] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as f:
                saved = json.load(f)
            if saved.get("releases") == self.signature:
                self.data = saved.get("traced", {})
        except (OSError, ValueError, AttributeError):
            pass

    def trace(self, ids: list[str], at: str) -> dict[str, tuple[str | None, str]]:
        from crsearch.changes.history import trace_forward

        out: dict[str, tuple[str | None, str]] = {}
        todo = []
        for id in ids:
            hit = self.data.get(f"{at}|{id}")
            if hit is None:
                todo.append(id)
            elif hit[1]:  # [now, date]; an empty date marks "not in that release"
                out[id] = (hit[0], hit[1])
        if todo:
            traced = trace_forward(self.store, todo, at)
            for id in todo:
                now, date = traced.get(id, (None, ""))
                self.data[f"{at}|{id}"] = [now, date]
                if date:
                    out[id] = (now, date)
            self.dirty = True
        return out

    def save(self) -> None:
        if not self.dirty:
            return
        import json
        import tempfile

        try:
            fd, tmp = tempfile.mkstemp(prefix=".cite-check-", dir=self.path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"releases": self.signature, "traced": self.data}, f, sort_keys=True)
            os.chmod(tmp, 0o644)
            os.replace(tmp, self.path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _fold_title(title: str) -> str:
    return " ".join(title.casefold().replace("-", " ").split())


def _settle(c: Citation, now: str | None, date: str, lib_now: Any,
            removed: dict[str, str]) -> None:
    if now is None:
        c.status, c.nearest = "missing", []
        removed[c.id] = date
    elif now != c.id:
        c.status, c.now = "moved", now
    elif not lib_now.exists(now):
        c.status, c.nearest = "missing", lib_now.suggestions(now)


def fixed_text(text: str, citations: list[dict[str, Any]], found: list[Citation]) -> str:
    """``text`` with each moved citation renumbered; nothing else changes.

    A short form stays short: the end of "601.2a-h" is written "i" when the
    range moves to 601.2b-i, and written out in full only when the numbers
    it leaves out change ("601.2a-h" with only 601.2a moved to 601.3a becomes
    "601.3a-601.2h").
    """
    by_pos = {(c.line, c.column): c for c in found}
    out, last = [], 0
    prev: tuple[Citation, str] | None = None  # the citation before, and its number now
    for d in citations:
        c = by_pos[(d["line"], d["column"])]
        new = d["now"] if d["status"] == "moved" else c.id
        written = new
        short = _short_form(c)
        if short is not None and prev is not None and _joined(text, prev[0], c):
            written = _shortened(new, prev[1], short)
            if written is None:
                written = new
        elif d["status"] != "moved":
            written = c.text
        prev = (c, new)
        if written == c.text:
            continue
        out.append(text[last:c.start])
        out.append(written)
        last = c.end
    out.append(text[last:])
    return "".join(out)


def _short_form(c: Citation) -> str | None:
    """How a shortened citation is written: "letters" ("h" after 601.2f),
    "rule" ("8" or "8b" after 119.7), or None when written out."""
    if c.text == c.id or not c.id.endswith(c.text) or "." in c.text:
        return None
    return "letters" if c.text.isalpha() else "rule"


_JOIN = re.compile(r"\s*(?:[-\u2010-\u2015\u2212,/&]|and|or|to|through)\s*(?:and\s*)?", re.IGNORECASE)


def _joined(text: str, before: Citation, c: Citation) -> bool:
    """Is ``c`` written right after ``before``, in the same range or list?"""
    return before.end <= c.start and bool(_JOIN.fullmatch(text[before.end:c.start]))


def _shortened(new: str, base: str, form: str) -> str | None:
    """``new`` written short after ``base`` (what the short form leaves out
    must be the same), or None when it cannot be."""
    if form == "letters":
        head = new.rstrip(numbers.LETTERS)
        if head != new and head == base.rstrip(numbers.LETTERS):
            return new[len(head):]
        return None
    head = new.split(".", 1)[0] + "."
    if "." in new and base.startswith(head):
        return new[len(head):]
    return None


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically, keeping its permissions:
    an interruption leaves the old file whole."""
    from crsearch.store.files import write_atomic as write

    write(path, text.encode(encoding), mode=os.stat(path).st_mode & 0o7777, sync=True)


__all__ = ["Citation", "check", "find", "fixed_text", "read_text", "write_atomic"]
