"""``Rules``: the front door for Python, one data folder and one release.

Every ``crsearch`` command is one call here; each returns a result whose
``to_dict()`` is exactly what the command prints with ``--json``::

    from crsearch import Rules

    rules = Rules.open()                  # the CLI's data folder, latest release
    rules.rule("702.19c").to_dict()       # == crsearch rule 702.19c --json
    rules.search("deathtouch").results[0].id

Nothing prints or exits: failures raise the exceptions in ``errors``
(``NotFound`` with suggestions, ``BadInput``, ``StoreError``), and an
argument of the wrong type a ``TypeError`` that names it.  Heavy
modules (Whoosh, the diff engine, the whole release) load only in the calls
that need them, so a rule lookup stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crsearch.rules.text import first_words
from crsearch.store.datadir import Store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from crsearch.cards.build import CardImport
    from crsearch.cards.mentions import Mention
    from crsearch.cards.store import CardData, CardStore
    from crsearch.changes.diff import ReleaseDiff
    from crsearch.changes.history import History
    from crsearch.desk.card import CardInfo
    from crsearch.ingest.pipeline import ImportResult
    from crsearch.rules.model import GlossaryEntry, Release, Rule
    from crsearch.search.config import RankingConfig
    from crsearch.search.engine import SearchResult
    from crsearch.store.datadir import StoredRelease
    from crsearch.store.lookup import Library, Lookup
    from crsearch.store.repair import RepairReport


class Rules:
    """The rules of one release in one data folder.

    :param store: the data folder (a ``Store``).
    :param release: a date (YYYY-MM-DD): the release in effect that day;
        ``None`` for the latest imported release.
    """

    def __init__(self, store: Store, release: str | None = None):
        if not isinstance(store, Store):
            raise TypeError(f"Rules(): store must be a crsearch Store (or use "
                            f"Rules.open(data_dir)), not {_type_name(store)}")
        _check("Rules", release=(release, _DATE))
        self.store = store
        self.release_date = release
        self._stored: StoredRelease | None = None
        self._library: Library | None = None
        self._release: Release | None = None
        #: (card data folder, release folder, the search's CardLens): kept
        #: while both stay, so that many searches read explain's table once.
        self._lens: tuple[str, str, Any] | None = None

    @classmethod
    def open(cls, data_dir: str | Path | None = None, release: str | None = None) -> Rules:
        """The data folder the CLI uses (``--data-dir``, else ``CRSEARCH_DATA``,
        else your user data folder) and the release in effect on ``release``."""
        import os

        _check("Rules.open", data_dir=(data_dir, (str, os.PathLike, None)), release=(release, _DATE))
        return cls(Store(data_dir), release)

    def __repr__(self) -> str:
        return f"Rules({str(self.store.root)!r}, release={self.release_date!r})"

    # -- what is read --------------------------------------------------------
    def stored(self) -> StoredRelease:
        """The selected release on disk (raises ``StoreError`` if none is imported)."""
        if self._stored is None:
            self._stored = self.store.pick(self.release_date)
        return self._stored

    @property
    def effective_date(self) -> str:
        """The selected release's effective date (YYYY-MM-DD)."""
        return self.stored().effective_date

    def library(self) -> Library:
        """The fast, per-chapter reader behind ``rule`` and ``toc``."""
        if self._library is None:
            from crsearch.store.lookup import Library

            self._library = Library(self.stored())
        return self._library

    def release(self) -> Release:
        """The whole selected release, parsed model and all (read once)."""
        if self._release is None:
            self._release = self.stored().release()
        return self._release

    # -- look-ups ------------------------------------------------------------
    def __iter__(self) -> Iterator[Rule]:
        """Every rule and subrule of the release, in order (``for rule in rules``)."""
        return iter(self.release().rules)

    def rule(self, *ids: str, children: bool = True) -> Lookup:
        """Rules by number: ``rule("702.19c")``, ``rule("510.1c-d", "119.7-8")``.

        A rule comes with its subrules, a chapter with its rules and a
        section with its chapters, unless ``children`` is false.
        """
        if len(ids) == 1 and isinstance(ids[0], (list, tuple)):
            ids = tuple(ids[0])  # rule(["702.19", "702.2"]) reads as well
        for id in ids:
            _check("Rules.rule", ids=(id, (str,)))
        _check("Rules.rule", children=(children, (bool,)))
        from crsearch.errors import NotFound

        try:
            return self.library().lookup(list(ids), children=children)
        except NotFound as e:
            raise self._numbered_then(list(ids), e) from None

    def _numbered_then(self, specs: list[str], error: Any) -> Any:
        """``error`` (a rule number that this release does not have), saying
        where that rule was in this older release when the history knows:
        ``702.19`` in 2004 was 502.9 (trample)."""
        from crsearch.errors import BadInput, NotFound
        from crsearch.rules import numbers

        lib = self.library()
        try:
            missing = next(span.start for spec in specs for span in numbers.parse_spec(spec)
                           if span.start == span.end and not lib.exists(span.start))
        except (StopIteration, BadInput):
            return error
        then = self.number_then(missing)
        if then is None:
            return error
        title = lib.lookup([then], children=False).title_of(then)
        return NotFound(f"{error}; it was {then} then"
                        f"{f' ({title})' if title else ''}",
                        [then, *[s for s in error.suggestions if s != then]])

    def number_then(self, id: str) -> str | None:
        """The number that the rule numbered ``id`` in a later release had in
        the selected one (``rules.number_then("702.19")`` is "502.9" in
        2004), or None: the selected release is the latest, no later release
        has ``id``, or the rule did not exist yet."""
        from crsearch.changes.history import rule_history
        from crsearch.errors import CRSearchError

        _check("Rules.number_then", id=(id, (str,)))
        date = self.effective_date
        if not any(r.effective_date > date for r in self.store.releases()):
            return None
        try:
            entries = rule_history(self.store, id)
        except CRSearchError:
            return None
        then = None
        for entry in entries:
            if entry.date <= date:
                then = None if entry.event == "removed" else entry.id
        return then if then is not None and then != id and self.library().exists(then) else None

    def toc(self, id: str | None = None) -> Toc:
        """The table of contents, or the contents of one section, chapter or rule."""
        from crsearch.errors import NotFound
        from crsearch.rules import numbers

        _check("Rules.toc", id=(id, (str, None)))
        lib = self.library()
        entries: list[TocEntry] = []

        def section(s: Any) -> None:
            entries.append(TocEntry(0, s.id, s.title))
            entries.extend(TocEntry(1, c.id, c.title) for c in lib.chapters.values()
                           if c.section == s.id)

        if id is None:
            for s in lib.sections.values():
                section(s)
            return Toc(lib.meta["effective_date"], None, entries)
        target = numbers.normalize(id)
        if not lib.exists(target):
            raise NotFound(f"there is no {numbers.kind(target)} {target}", lib.suggestions(target))
        if numbers.kind(target) == "section":
            section(lib.sections[target])
        else:
            chapter = lib.chapters[target.split(".")[0]]
            entries.append(TocEntry(0, chapter.id, chapter.title))
            for r in lib.chapter_rules(chapter.id):
                if r.kind == "rule" and numbers.contains(target, r.id):
                    entries.append(TocEntry(1, r.id, r.title or first_words(r.text)))
        return Toc(lib.meta["effective_date"], target, entries)

    def search(self, query: str, limit: int = 10, config: RankingConfig | None = None) -> SearchResult:
        """Ranked search: a keyword, term, question, rule number or pasted text.

        A rule number that an older release lacks raises ``NotFound`` saying
        where that rule was then, as ``rule`` does (``number_then``).

        With card data imported (``update_cards``), the cards the query names
        are in ``result.cards`` (``to_dict()["cards"]``) and what their texts
        say ranks the rules; without, ``result.cards`` is None.
        ``config`` ranks otherwise than crsearch ships (``search.config``):
        ``rules.search("humility", config=DEFAULT.but(card=0))``.
        """
        from crsearch.errors import BadInput
        from crsearch.search.config import DEFAULT
        from crsearch.search.engine import engine_for

        _check("Rules.search", query=(query, (str,)), limit=(limit, (int,)))
        if not query.strip():
            raise BadInput("the query is empty: type a rule number, a keyword, a term or a question")
        stored = self.stored()

        def embed() -> str | None:
            # Imported when a question needs it: a search's start-up stays small.
            from crsearch.ingest.pipeline import embedder

            return embedder(self.store, stored)()

        from crsearch.errors import NotFound

        try:
            return engine_for(stored, config or DEFAULT, embed=embed).search(
                query, limit, cards=self._card_lens(stored))
        except NotFound as e:
            # A rule number this older release lacks: where that rule was then.
            raise self._numbered_then([query], e) from None

    def _card_lens(self, stored: StoredRelease) -> Any:
        """The imported card data as the search reads it (None without card data)."""
        data = self.card_store().current_or_none()
        if data is None:
            return None
        if self._lens is None or self._lens[:2] != (data.dir, stored.dir):
            from crsearch.desk.card import card_lens

            self._lens = (data.dir, stored.dir, card_lens(data, stored))
        return self._lens[2]

    def define(self, term: str) -> Definition:
        """The glossary entry for ``term`` (case, plurals, typos and judges'
        shorthand forgiven: ``lki``, ``sba``, ``etb``, ``cmc``, ``apnap``).

        ``NotFound`` says what ``search`` finds for an unknown term."""
        from crsearch.errors import NotFound
        from crsearch.rules.glossary import define, see_chain

        _check("Rules.define", term=(term, (str,)))
        release = self.release()
        try:
            entry = define(release, term, _shorthand)
        except NotFound as e:
            raise self._searched(term, e) from None
        return Definition(release.effective_date, see_chain(release, entry))

    def keyword(self, name: str) -> Lookup:
        """A keyword ability or action (701.x, 702.x) with all its subrules.

        The words after a keyword's name are its parameter ("protection from
        white": 702.16, ``Lookup.parameter`` "from white"); half a title
        names its rule ("tap": 701.26 Tap and Untap); a glossary term
        names the rule it cites ("dies": 700.4).  ``NotFound`` says what
        ``search`` finds for an unknown name."""
        from crsearch.errors import NotFound
        from crsearch.rules.glossary import keyword_match

        _check("Rules.keyword", name=(name, (str,)))
        try:
            rule, parameter = keyword_match(self._keyword_rules(), name)
        except NotFound as e:
            cited = self._glossary_rule(name)
            if cited is None:
                raise self._searched(name, e) from None
            return self.library().lookup([cited])
        found = self.library().lookup([rule.id])
        found.parameter = parameter
        return found

    def _glossary_rule(self, term: str) -> str | None:
        """The first rule the glossary entry for ``term`` cites (exactly
        named, or by judges' shorthand), or None."""
        from crsearch.errors import CRSearchError
        from crsearch.rules.glossary import define

        try:
            entry = define(self.release(), term, _shorthand)
        except CRSearchError:
            return None
        lib = self.library()
        return next((t for ref in entry.references for t in ref.targets if lib.exists(t)), None)

    def _searched(self, term: str, error: Any) -> Any:
        """``error`` saying what ``search`` finds for ``term`` (when the
        release has a search index and the search finds anything)."""
        from crsearch.errors import CRSearchError, NotFound

        try:
            hits = self.search(term, 3).results
        except CRSearchError:
            return error
        if not hits:
            return error
        found = ", ".join(f"{h.id.removeprefix('glossary:')} ({h.title})" if h.title and
                          not h.id.startswith("glossary:") else h.id.removeprefix("glossary:")
                          for h in hits)
        return NotFound(f"{error}; `crsearch search` finds {found}", error.suggestions)

    def keywords(self) -> Keywords:
        """Every keyword action (701) and ability (702), in order."""
        from crsearch.rules.glossary import keywords

        return Keywords(self.effective_date, keywords(self._keyword_rules()))

    # -- the judge's desk ----------------------------------------------------
    def explain(self, text: str) -> Explanation:
        """The rules terms in a card's text, in reading order, each with its
        rule and definition (BadInput for empty, binary or over-long text).

        A card's name ("Notion Thief") explains that card's text when card
        data is imported (``update_cards``)."""
        from crsearch.desk.card import explain_text

        _check("Rules.explain", text=(text, (str,)))
        data = explain_text(self.stored(), self.card_store().current_or_none(), text)
        return Explanation(data["text"], data["release"], data["terms"],
                           card=data.get("card"), cards_date=data.get("cards_date"))

    def cite_check(self, text: str, as_of: str | None = None) -> CiteCheck:
        """Check the rule citations in ``text``: fine, moved since, missing,
        or not the rule their words name (mismatch).

        The citations are read as numbered in the release in effect on
        ``as_of`` (when the text was written); without it, on the date the
        text gives for itself (a dated heading, a byline, front matter: see
        ``desk.textdate``), else in today's release, and followed to
        today's numbers.  The release this ``Rules`` selects plays no part.
        """
        from crsearch.desk.citecheck import checked
        from crsearch.errors import BadInput

        _check("Rules.cite_check", text=(text, (str,)), as_of=(as_of, _DATE))
        if as_of is not None:
            from crsearch.store.datadir import normalize_date

            as_of = normalize_date(as_of)
            stored = self.store.releases()
            first = stored[0].effective_date if stored else None
            if first is not None and as_of < first:
                raise BadInput(f"--as-of {as_of} is before the first imported release "
                               f"({first}): nothing tells what its rule numbers meant")
        got = checked(self.store, text, as_of)
        return CiteCheck(got.release, got.latest, got.citations, got.removed,
                         got.as_of, got.words_checked, got.era)

    def _keyword_rules(self) -> list[Any]:
        from crsearch.rules.glossary import KEYWORD_CHAPTERS

        lib = self.library()
        return [r for ch in KEYWORD_CHAPTERS for r in lib.chapter_rules(ch)]

    # -- cards ---------------------------------------------------------------
    def card_store(self) -> CardStore:
        """The card data of this data folder (``DATA/cards``)."""
        from crsearch.cards.store import CardStore

        return CardStore(self.store)

    def cards(self) -> CardData:
        """The card data in use (``to_dict()`` is ``crsearch cards --json``);
        ``NoData`` when none was imported."""
        return self.card_store().require()

    def card(self, name: str) -> CardInfo:
        """A card by name, with its rulings and the rules its words use.

        Exact, case-insensitive, accent-folded, partial ("jace mind sculptor")
        or misspelt ("notion theif"); a face's name finds its card ("Fire").
        ``NotFound`` lists the candidates when the name fits none or several.
        """
        from crsearch.desk.card import card_info
        from crsearch.errors import NoData

        _check("Rules.card", name=(name, (str,)))
        data = self.cards()
        try:
            stored: StoredRelease | None = self.stored()
        except NoData:
            stored = None  # the card without its rules
        return card_info(data, stored, name)

    def find_cards(self, text: str) -> list[Mention]:
        """The imported cards that ``text`` names (full names, possessives, faces,
        telling parts of names), each with its card; none without card data."""
        _check("Rules.find_cards", text=(text, (str,)))
        data = self.card_store().current()
        return data.find_in_text(text) if data is not None else []

    def update_cards(self, source: str | None = None, *, rulings: str | None = None,
                     force: bool = False,
                     download: Callable[[int, int | None], None] | None = None,
                     progress: Callable[[int], None] | None = None, deadline: float = 600,
                     max_bytes: int | None = None) -> CardImport:
        """Download MTGJSON's AtomicCards, or import ``source`` (a file or URL):
        AtomicCards or Scryfall's oracle-cards (with ``rulings``), compressed or not.

        An older copy, or one with fewer cards, does not replace the stored
        card data unless ``force``; the same file again is left as it is.
        """
        import os

        from crsearch.ingest.cards import update_cards

        _check("Rules.update_cards", source=(source, (str, os.PathLike, None)),
               rulings=(rulings, (str, os.PathLike, None)), force=(force, (bool,)),
               download=(download, _CALLBACK), progress=(progress, _CALLBACK),
               deadline=(deadline, (int, float)), max_bytes=(max_bytes, (int, None)))
        return update_cards(self.store, source, rulings=rulings, force=force, download=download,
                            progress=progress, deadline=deadline, max_bytes=max_bytes)

    # -- across releases -----------------------------------------------------
    def releases(self) -> Releases:
        """The imported releases; ``current`` marks the selected one, ``cards``
        is the card data in use (or None)."""
        rows = self.store.catalog()
        if not rows:
            self.store.pick()  # raises NoData: "no releases imported yet"
        return Releases(rows, self.effective_date, self.card_store().current_or_none())

    def pair(self, old: str | None = None, new: str | None = None) -> tuple[StoredRelease, StoredRelease]:
        """The two stored releases ``diff`` compares.

        ``new`` defaults to the selected release and ``old`` to the imported
        release just before ``new``.
        """
        from crsearch.errors import BadInput, NotFound

        _check("Rules.pair", old=(old, _DATE), new=(new, _DATE))
        stored = self.store.releases()
        if new is not None:
            target = self.store.pick(new, stored)
        else:
            if self._stored is None:
                self._stored = self.store.pick(self.release_date, stored)
            target = self._stored
        if len(stored) < 2:
            raise NotFound(f"only one release ({target.effective_date}) is imported; import "
                           "another with `crsearch update --from FILE` to compare")
        if old is not None:
            before = self.store.pick(old, stored)
        else:
            dates = [s.effective_date for s in stored]
            k = dates.index(target.effective_date)
            if k == 0:
                raise NotFound(f"{target.effective_date} is the earliest imported release; there "
                               "is none before it to compare with", dates[1:2])
            before = stored[k - 1]
        if before.effective_date == target.effective_date:
            raise BadInput(f"both dates select the {target.effective_date} release; give dates "
                           "in two different releases (see `crsearch releases`)")
        return before, target

    def diff(self, old: str | None = None, new: str | None = None, *, kind: str = "all",
             cosmetic: bool = True) -> ReleaseDiff:
        """What changed between two releases (see ``pair`` for the defaults).

        :param kind: "rules" (with sections and chapters), "glossary" or "all".
        :param cosmetic: keep changes of typography only.
        """
        import os

        from crsearch.changes.diff import diff_linked, diff_releases
        from crsearch.store.lineage import Lineage

        _check("Rules.diff", old=(old, _DATE), new=(new, _DATE), kind=(kind, (str,)),
               cosmetic=(cosmetic, (bool,)))
        before, after = self.pair(old, new)
        # Neighbouring releases are read through their link in the lineage table.
        link = Lineage.read_link(self.store.dir, os.path.basename(before.dir),
                                 os.path.basename(after.dir))
        got = diff_linked(before, after, link) if link is not None else None
        if got is None:
            got = diff_releases(before.release(), after.release())
        return got.filtered(kind, cosmetic)

    def history(self, id: str) -> History:
        """Every version of one rule across the imported releases, following moves.

        ``id`` is read as numbered in the selected release when ``release``
        was given, else in the latest release that has it.
        """
        from crsearch.changes.history import History, rule_history
        from crsearch.rules import numbers

        _check("Rules.history", id=(id, (str,)))
        stored = self.store.releases()
        if not stored:
            self.store.pick()  # raises the "no releases imported" error
        target = numbers.normalize(id)
        entries = rule_history(self.store, target, at=self.release_date)
        return History(target, [s.effective_date for s in stored], entries)

    # -- the release as a whole ------------------------------------------------
    def report(self) -> Report:
        """Counts, unplaced lines, unresolved references and anomalies."""
        return Report(self.release())

    def export(self) -> Export:
        """The whole release as stored (``to_dict()`` reads it; ``text()`` is the file)."""
        return Export(self.stored())

    # -- writing ---------------------------------------------------------------
    def build_site(self, out: str | Path, *, all_releases: bool = False, search: bool = True,
                   strict: bool = False, warn: Callable[[str], None] | None = None,
                   cards: bool = False) -> SiteBuild:
        """Build the static website of the selected release (or of every
        stored release with ``all_releases``) into ``out``.

        Only the files an earlier build wrote are replaced or removed; a file
        the build would overwrite that is not the site's stops it
        (``BadInput``), with nothing changed.

        :param search: write the search data (the site then has search).
        :param strict: fail on dangling references or unplaced source lines.
        :param warn: called with a line for each warning.
        :param cards: add card lookup from the imported card data (``BadInput``
            when none is imported).
        """
        import os
        import time
        from pathlib import Path

        from crsearch.site import build as site

        _check("Rules.build_site", out=(out, (str, os.PathLike)), all_releases=(all_releases, (bool,)),
               search=(search, (bool,)), strict=(strict, (bool,)), warn=(warn, _CALLBACK),
               cards=(cards, (bool,)))
        card_data = self._site_cards() if cards else None
        started = time.perf_counter()
        if all_releases:
            stored_all = self.store.releases() or [self.stored()]  # "no releases imported"
            releases = [s.release() for s in stored_all]
            result = site.build_all(releases, Path(out), search=search, strict=strict, warn=warn,
                                    cards=card_data)
        else:
            releases = [self.release()]
            result = site.build(releases[0], Path(out), search=search, strict=strict, warn=warn,
                                cards=card_data)
        return SiteBuild(result, [r.effective_date for r in releases],
                         time.perf_counter() - started)

    def _site_cards(self) -> CardData:
        """The card data a ``--cards`` site is built from; BadInput (exit 2) when none."""
        from crsearch.cards.store import UPDATE
        from crsearch.errors import BadInput, short

        data = self.card_store().current()
        if data is None:
            raise BadInput(f"no card data imported in {short(str(self.store.dir))}: --cards needs it; "
                           f"{UPDATE}")
        return data

    def update(self, source: str | None = None, *, page: str | None = None,
               index: bool = True, jobs: int | None = None,
               download: Callable[[int, int | None], None] | None = None,
               progress: Callable[[int, int, str], None] | None = None,
               force: bool = False, deadline: float = 600, max_bytes: int = 64 * 1024 * 1024,
               on_repair: Callable[[str], None] | None = None) -> Update:
        """Download the current rules, or import ``source`` (file, folder, URL or site).

        :param download: called with (bytes so far, total or None) while downloading.
        :param progress: called with (n, total, name) after each release of many.
        :param jobs: worker processes (default: one per CPU, at most one per release).
        :param force: replace a stored release even by an incomplete copy or one
            with fewer rules.
        :param deadline: seconds a download may take in all; ``max_bytes`` its size cap.
        :param on_repair: called with a line for each fix made to a damaged catalog.
        """
        import os

        from crsearch.errors import DamagedStore
        from crsearch.ingest import sources
        from crsearch.ingest.pipeline import import_sources

        _check("Rules.update", source=(source, (str, os.PathLike, None)), page=(page, (str, None)),
               index=(index, (bool,)), jobs=(jobs, (int, None)), download=(download, _CALLBACK),
               progress=(progress, _CALLBACK), force=(force, (bool,)),
               deadline=(deadline, (int, float)), max_bytes=(max_bytes, (int,)),
               on_repair=(on_repair, _CALLBACK))
        if source is None:
            srcs = [sources.fetch_latest(page or sources.RULES_PAGE, progress=download,
                                         deadline=deadline, max_bytes=max_bytes)]
        else:
            srcs = sources.read_from(source, progress=download, deadline=deadline,
                                     max_bytes=max_bytes)
        self.store.check_ours()
        try:
            self.store.catalog()
        except DamagedStore as e:
            # The releases are still on disk: rebuild the catalog from them.
            if on_repair is not None:
                on_repair(f"Warning: {e}")
            for line in self.store.repair(_index_hooks(), _caches()).lines():
                if on_repair is not None:
                    on_repair(f"Repaired: {line}")
        if jobs is None:
            jobs = min(os.cpu_count() or 1, len(srcs))
        results = import_sources(srcs, self.store, build_index=index, progress=progress,
                                 jobs=jobs, force=force)
        self._stored = self._library = self._release = None
        return Update(str(self.store.root), results)

    def repair(self) -> RepairReport:
        """Check the data folder and fix what can be fixed (catalog, chapter
        files, meta, indexes, the lineage table, leftovers of interrupted runs)."""
        from crsearch.cards.store import repair_cards
        from crsearch.changes.lineage import Linker

        report = self.store.repair(_index_hooks(), _caches(), Linker())
        with self.store.lock():
            repair_cards(self.card_store(), report)
        self._stored = self._library = self._release = None
        return report

    def index(self) -> StoredRelease:
        """Rebuild the search index of the selected release (atomically)."""
        from crsearch.ingest.pipeline import reindex

        stored = self.stored()
        reindex(self.store, stored)
        return stored


def _caches() -> Any:
    """The caches of higher layers that repair checks (the store knows its own)."""
    from crsearch.desk import explain
    from crsearch.store.repair import Cache

    return (Cache(explain.CACHE_NAME, explain.cache_problem, explain.write_cache),)


def _index_hooks() -> Any:
    from crsearch.search.build import repair_hooks

    return repair_hooks()


# -- argument types ----------------------------------------------------------------

#: What an argument may be: types, ``None`` (it may be left out) or ``callable``.
_Allowed = tuple[Any, ...]
_DATE: _Allowed = (str, None)
_CALLBACK: _Allowed = (callable, None)
_TYPE_NAMES = {str: "str", int: "int", bool: "bool", float: "number", callable: "callable"}


def _shorthand(term: str) -> list[str]:
    """What a judge's shorthand stands for (``vocab.JARGON``, ``vocab.SLANG``):
    "lki" -> "last known information", "etb" -> "enters the battlefield"."""
    from crsearch.search.vocab import JARGON, SLANG

    return [x for x in (SLANG.get(term), JARGON.get(term)) if x]


def _check(where: str, **args: tuple[Any, _Allowed]) -> None:
    """Raise TypeError for the first argument whose value is not of its allowed types.

    ``args`` maps each argument's name to ``(value, allowed)``.  A bool is
    not taken for an int (``limit=True`` is a mistake), nor an int for a bool.
    """
    for name, (value, allowed) in args.items():
        if value is None and None in allowed:
            continue
        for kind in allowed:
            if kind is None:
                continue
            if kind is callable:
                if callable(value):
                    break
            elif isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool):
                break
        else:
            names = [_TYPE_NAMES.get(k) or getattr(k, "__name__", str(k)) for k in allowed
                     if k is not None and not (k is int and float in allowed)]
            want = " or ".join(names) + (" or None" if None in allowed else "")
            raise TypeError(f"{where}(): {name} must be {want}, not {_type_name(value)}")


def _type_name(value: Any) -> str:
    """The type of a wrong argument and, if short, its value: "int 702"."""
    from crsearch.errors import short

    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, (int, float, str, bytes)):
        return f"{kind} {short(repr(value), 40)}"
    return kind


# -- results -------------------------------------------------------------------

class TocEntry:
    """One line of a table of contents: depth 0 (the heading asked for) or 1."""

    __slots__ = ("depth", "id", "title")

    def __init__(self, depth: int, id: str, title: str):
        self.depth, self.id, self.title = depth, id, title

    def to_dict(self) -> dict[str, Any]:
        return {"depth": self.depth, "id": self.id, "title": self.title}

    def __repr__(self) -> str:
        return f"TocEntry({self.depth}, {self.id!r}, {self.title!r})"


class Toc:
    """A table of contents (``of`` is the section, chapter or rule asked for)."""

    def __init__(self, release: str, of: str | None, entries: list[TocEntry]):
        self.release, self.of, self.entries = release, of, entries

    def __iter__(self) -> Any:
        return iter(self.entries)

    def to_dict(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.entries]

    def __repr__(self) -> str:
        return f"<Toc {self.release} {self.of or 'contents'}: {len(self.entries)} entries>"


class Definition:
    """A glossary entry, with those its "See X." leads to (``chain[0]`` is ``entry``)."""

    def __init__(self, release: str, chain: list[GlossaryEntry]):
        self.release, self.chain = release, chain

    @property
    def entry(self) -> GlossaryEntry:
        return self.chain[0]

    def to_dict(self) -> dict[str, Any]:
        from crsearch.store.lookup import item_dict

        return item_dict(self.entry, self.release)

    def __repr__(self) -> str:
        return f"<Definition {self.release}: {self.entry.term!r} ({self.entry.id})>"


class Keywords:
    """The keyword actions and abilities: ``(id, title)`` pairs in rule order."""

    def __init__(self, release: str, rows: list[tuple[str, str]]):
        self.release, self.rows = release, rows

    def __iter__(self) -> Any:
        return iter(self.rows)

    def to_dict(self) -> list[dict[str, Any]]:
        from crsearch.rules.glossary import KEYWORD_CHAPTERS

        return [{"id": i, "title": t, "kind": KEYWORD_CHAPTERS[i.split(".")[0]]}
                for i, t in self.rows]

    def __repr__(self) -> str:
        return f"<Keywords {self.release}: {len(self.rows)} keyword actions and abilities>"


class Explanation:
    """The rules terms found in a card's text (``terms``: dicts in reading order);
    ``card`` names the card when the text asked for was a card's name."""

    def __init__(self, text: str, release: str, terms: list[dict[str, Any]],
                 card: str | None = None, cards_date: str | None = None):
        self.text, self.release, self.terms = text, release, terms
        self.card, self.cards_date = card, cards_date

    def __iter__(self) -> Any:
        return iter(self.terms)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "release": self.release, "terms": self.terms}
        if self.card is not None:
            out.update(card=self.card, cards_date=self.cards_date)
        return out

    def __repr__(self) -> str:
        ids = ", ".join(t["id"] for t in self.terms[:6]) + (", …" if len(self.terms) > 6 else "")
        return f"<Explanation {self.release}: {len(self.terms)} terms ({ids})>"


class CiteCheck:
    """The citations found in a text and what became of each.

    ``citations`` are ``Citation`` objects in text order (``id``, ``line``,
    ``column``, ``status``): "ok", "moved" (``now`` is today's number),
    "mismatch" (the words next to it, ``words``, name another rule: ``now``
    is that rule's number today), "missing" (``nearest`` lists close ids;
    ``now`` the rule its words name or a removed rule's closest successor,
    when there is one) or "skipped" (written inside a URL, HTML or code).
    ``removed`` maps a removed id to the release that dropped it.
    ``release`` is the release the numbers were read in, ``latest`` today's.
    ``as_of`` says which date was used and where it came from: ``{"date",
    "from": "option"}``, ``{"date", "from": "text", "line", "words",
    "kind"}`` (the text's own date), or None (no date: today's numbers).
    ``era`` is set for a text without a date that cites numbers only older
    releases have: ``{"date", "by"}``, the newest release that has them all
    and those numbers; a citation read in another release than ``release``
    says which in ``read_in``.  ``words_checked`` counts the citations whose
    words named a rule.
    """

    def __init__(self, release: str, latest: str, citations: list[Any],
                 removed: dict[str, str], as_of: dict[str, Any] | None = None,
                 words_checked: int = 0, era: dict[str, Any] | None = None):
        self.release, self.latest = release, latest
        self.citations, self.removed = citations, removed
        self.as_of, self.words_checked, self.era = as_of, words_checked, era

    def __iter__(self) -> Any:
        return iter(self.citations)

    def count(self, status: str) -> int:
        """How many citations have ``status`` ("ok", "moved", "mismatch", "missing" or "skipped")."""
        return sum(1 for c in self.citations if c.status == status)

    @property
    def problems(self) -> int:
        """Citations that are not fine (moved, mismatch or missing)."""
        return sum(1 for c in self.citations if c.status not in ("ok", "skipped"))

    @property
    def today_only(self) -> bool:
        """Nothing told how old the text is: no date, no words that name a
        rule; the numbers were checked against today's release only."""
        return (self.as_of is None and self.era is None and self.words_checked == 0
                and bool(self.citations))

    def to_dict(self) -> dict[str, Any]:
        return {"release": self.release, "latest": self.latest, "as_of": self.as_of,
                "era": self.era, "words_checked": self.words_checked,
                "today_only": self.today_only,
                "citations": [c.to_dict() for c in self.citations]}

    def __repr__(self) -> str:
        return (f"<CiteCheck {self.release}: {len(self.citations)} citations, "
                f"{self.count('moved')} moved, {self.count('mismatch')} mismatch, "
                f"{self.count('missing')} missing>")


class Releases:
    """The catalog of imported releases, oldest first; ``current`` is the selected one
    and ``cards`` the card data in use (not part of ``to_dict()``: see ``Rules.cards``)."""

    def __init__(self, rows: list[dict[str, Any]], current: str, cards: CardData | None = None):
        self.rows, self.current, self.cards = rows, current, cards

    def __iter__(self) -> Any:
        return iter(self.rows)

    def to_dict(self) -> list[dict[str, Any]]:
        return [{**r, "current": r["effective_date"] == self.current} for r in self.rows]

    def __repr__(self) -> str:
        return f"<Releases: {len(self.rows)} imported, {self.current} selected>"


class Report:
    """What a release holds and what the parser noticed."""

    def __init__(self, release: Release):
        self.release = release

    def to_dict(self) -> dict[str, Any]:
        from crsearch.rules.refs import unresolved

        release = self.release
        return {
            "effective_date": release.effective_date,
            **release.counts(),
            "unplaced_lines": len(release.unplaced),
            "unplaced": [{"line": n, "text": t} for n, t in release.unplaced],
            "unresolved_references": unresolved(release),
            "complete": release.complete,
            "anomalies": [a.to_dict() for a in release.anomalies],
            "source": release.source.to_dict(),
        }

    def __repr__(self) -> str:
        r = self.release
        return (f"<Report {r.effective_date}: {len(r.rules)} rules and subrules, "
                f"{len(r.unplaced)} unplaced lines, {'complete' if r.complete else 'incomplete'}>")


class Export:
    """The whole stored release: ``text()`` is its JSON, ``to_dict()`` its data."""

    def __init__(self, stored: StoredRelease):
        self.stored = stored

    def text(self) -> str:
        """The stored JSON, checked to be a whole release (DamagedStore if not)."""
        return self.stored.release_text()

    def to_dict(self) -> dict[str, Any]:
        import json

        data: dict[str, Any] = json.loads(self.text())
        return data

    def __repr__(self) -> str:
        return f"<Export {self.stored.effective_date}>"


class SiteBuild:
    """What ``build_site`` made: ``result`` is the site builder's ``BuildResult``."""

    def __init__(self, result: Any, releases: list[str], seconds: float):
        self.result, self.releases, self.seconds = result, releases, seconds

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"out": str(r.out), "releases": self.releases, "root": self.releases[-1],
                "pages": r.pages, "files": r.files, "bytes": r.bytes, "links": r.links,
                "dangling": [{"from": a, "to": b} for a, b in r.dangling],
                "unplaced_lines": r.unplaced, "search": r.search,
                "cards": None if r.cards is None else {
                    "date": r.cards.date, "count": r.cards.count, "bytes": r.cards.bytes},
                "seconds": round(self.seconds, 1)}

    def __repr__(self) -> str:
        return (f"<SiteBuild {self.result.out}: {self.result.pages} pages of "
                f"{len(self.releases)} release(s)>")


class Update:
    """What ``update`` imported (one ``ImportResult`` per source) and where."""

    def __init__(self, root: str, results: list[ImportResult]):
        self.root, self.results = root, results

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if r.error)

    def to_dict(self) -> dict[str, Any]:
        return {"data_dir": self.root, "imported": [
            {"name": r.name, "effective_date": r.release.effective_date if r.release else None,
             "error": r.error, "warnings": r.warnings,
             "unchanged": r.unchanged is not None} for r in self.results]}

    def __repr__(self) -> str:
        return f"<Update {self.root}: {len(self.results)} sources, {self.failed} failed>"
