"""The MCP server behind ``crsearch mcp``: the rules inside AI assistants.

Assistants invent rule numbers; this server gives them the exact rules of
the user's own data folder and a way to check what they cite.  It speaks the
Model Context Protocol over stdio through the official SDK (the ``mcp``
package, from the ``mcp`` extra); only the ``mcp`` command imports it.

Each tool makes the ``Rules`` call its command makes and answers with that
command's ``--json``: the text content is the JSON exactly as printed, the
structured content the same data (a list, which MCP does not allow there,
comes as ``{"result": [...]}``).  A failure is a tool error whose text is
what the command prints on stderr, and the server keeps answering.  The
resources ``cr://RELEASE/ID`` and ``cr://RELEASE/toc`` (RELEASE a date or
``latest``) give a rule with its subrules, and the table of contents, as
the terminal shows them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Annotated, Any, Literal

import click
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import Field
from typing_extensions import TypedDict

from crsearch.api import Rules
from crsearch.cli.common import error_text, json_text
from crsearch.errors import BadInput, NotFound
from crsearch.version import __version__

#: What the server tells every assistant when it connects.
INSTRUCTIONS = """\
These tools read the Magic: The Gathering Comprehensive Rules (CR) from the user's \
own copy. Quote rules from them, never from memory. Rule numbers change between \
releases: say which release (its effective date, the `release` field) you quote. \
Check every rule number you cite with cite_check before answering, and fix or drop \
any it reports as moved or missing."""


class Listed(TypedDict):
    """The rules the command's --json lists, under "result" (MCP asks for an object)."""

    result: list[dict[str, Any]]


#: The tools' results: the command's ``--json`` as structured content.
ListResult = Annotated[CallToolResult, Listed]
DictResult = Annotated[CallToolResult, dict[str, Any]]
Release = Annotated[str | None, Field(description=(
    "The release in effect on this date (YYYY-MM-DD); default: the server's --release, "
    "else the latest imported release."))]
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def described(fn: Callable[..., Any]) -> str:
    """A function's docstring as a tool description: paragraphs, each on one line."""
    import inspect

    doc = inspect.cleandoc(fn.__doc__ or "")
    return "\n\n".join(" ".join(p.split("\n")) for p in doc.split("\n\n"))


class Desk:
    """The ``Rules`` the server answers from, one per release asked for.

    They are dropped when the catalog changes (``crsearch update`` while the
    server runs), so "latest" follows the data folder.  Calls run one at a
    time: ``Rules`` and the search engine keep what they read.
    """

    def __init__(self, data_dir: str | None, release: str | None):
        from crsearch.store.datadir import Store

        self.store = Store(data_dir)
        self.release = release
        self._rules: dict[str | None, Rules] = {}
        self._stamp: tuple[int, ...] | None = None
        self._lock = threading.Lock()

    def rules(self, release: str | None = None) -> Rules:
        """The ``Rules`` of ``release`` ("latest" or None: the server's release)."""
        from crsearch.store.datadir import CATALOG

        try:
            st = os.stat(os.path.join(self.store.dir, CATALOG))
            stamp: tuple[int, ...] | None = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            self._rules.clear()
            self._stamp = stamp
        key = self.release if release is None else release
        if key == "latest":
            key = None
        if key not in self._rules:
            if len(self._rules) >= 32:  # dates asked for once each: keep a few
                self._rules.clear()
            self._rules[key] = Rules(self.store, key)
        return self._rules[key]

    def call(self, make: Callable[[], Any]) -> Any:
        """``make()``, one call at a time; a failure raises ``Failed`` with the
        text the command would print."""
        with self._lock:
            try:
                return make()
            except Exception as e:  # noqa: BLE001 - every failure is an answer, never a dead server
                raise Failed(self._error(e), e) from e

    def answer(self, make: Callable[[], Any]) -> CallToolResult:
        """A tool's result: ``make()``'s data as the command's ``--json``, or its error."""
        try:
            data = self.call(make)
        except Failed as e:
            return CallToolResult(content=[TextContent(type="text", text=e.text)], is_error=True)
        structured = data if isinstance(data, dict) else {"result": data}
        return CallToolResult(content=[TextContent(type="text", text=json_text(data))],
                              structured_content=structured)

    def _error(self, e: Exception) -> str:
        """What the command would print for ``e``; a bug is logged and named."""
        release = ""
        if isinstance(e, (ValueError, EOFError)):  # maybe a damaged stored file: name its release
            try:
                release = f"release {self.rules().stored().effective_date}: "
            except Exception:  # noqa: BLE001 - only naming the release; the error is reported anyway
                pass
        text = error_text(e, release)
        if text is None:
            import logging

            logging.getLogger("crsearch.mcp").exception("crsearch failed unexpectedly")
            text = f"Error: crsearch failed unexpectedly ({type(e).__name__}); see the server's log"
        return text


class Failed(Exception):
    """A call that failed: ``text`` is what the command prints, ``error`` what was raised."""

    def __init__(self, text: str, error: Exception):
        super().__init__(text)
        self.text, self.error = text, error


def make_server(data_dir: str | None = None, release: str | None = None) -> MCPServer:
    """The MCP server over one data folder (``release``: the default release)."""
    desk = Desk(data_dir, release)
    server = MCPServer("crsearch", title="crsearch: the Comprehensive Rules",
                       instructions=INSTRUCTIONS, version=__version__, log_level="WARNING")

    def tool(title: str) -> Callable[[Callable[..., CallToolResult]], Callable[..., CallToolResult]]:
        def add(fn: Callable[..., CallToolResult]) -> Callable[..., CallToolResult]:
            server.add_tool(fn, title=title, description=described(fn), annotations=READS)
            return fn

        return add

    @tool("Rules by number")
    def rule(
        ids: Annotated[list[str], Field(min_length=1, description=(
            'Rule numbers: "702.19c", "CR 702.19c", ranges such as "510.1c-d", '
            'a chapter ("702") or a section ("7").'))],
        children: Annotated[bool, Field(description=(
            "Include the subrules of a rule (the rules of a chapter, the chapters of a "
            "section)."))] = True,
        release: Release = None,
    ) -> ListResult:
        """Quote Comprehensive Rules exactly, by number, with their subrules.

        Use it to read a rule before you quote or paraphrase it, and to follow
        the rule numbers that other results name. Rule numbers change between
        releases: say which release you quote (the `release` field, an
        effective date). Returns what `crsearch rule IDS --json` prints.
        """
        from crsearch.rules.numbers import join_words

        return desk.answer(lambda: desk.rules(release).rule(
            *join_words(tuple(ids)), children=children).to_dict())

    @tool("Search the rules")
    def search(
        query: Annotated[str, Field(description=(
            "A keyword, a term, a rules question in plain words, a rule number or pasted "
            'text. Filters: section:7, chapter:702, kind:rule|subrule|chapter|section|glossary; '
            '"quoted phrases".'))],
        limit: Annotated[int, Field(ge=1, le=200, description="How many results.")] = 10,
        why: Annotated[bool, Field(description=(
            "Add to each result why it matched (words, slang read as rules wording, "
            "meaning)."))] = False,
        release: Release = None,
    ) -> DictResult:
        """Search the Comprehensive Rules and their glossary, ranked.

        Use it whenever you do not know a rule's number: never guess one. Read
        the top results with `rule` before answering. An empty `results` list
        means nothing matched (`suggestion` may offer a spelling). Returns what
        `crsearch search QUERY --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).search(query, limit).to_dict(why=why))

    @tool("Glossary definition")
    def define(
        term: Annotated[str, Field(description='A game term: "lethal damage", "APNAP".')],
        release: Release = None,
    ) -> DictResult:
        """The Comprehensive Rules glossary entry for a term (case, plurals and typos forgiven).

        Use it for the rules' own definition of a game term; look up the rule
        numbers it names with `rule`. Returns what `crsearch define TERM
        --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).define(term).to_dict())

    @tool("Keyword ability or action")
    def keyword(
        name: Annotated[str, Field(description='A keyword: "trample", "first strike", "scry".')],
        release: Release = None,
    ) -> ListResult:
        """A keyword ability or keyword action (rules 701.x, 702.x) with all its subrules.

        Use it when a question turns on what a keyword does. Returns what
        `crsearch keyword NAME --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).keyword(name).to_dict())

    @tool("Explain a card's text")
    def explain(
        text: Annotated[str, Field(description=(
            "A card's whole rules text, as printed: \"Flying, ward {2}\"."))],
        release: Release = None,
    ) -> DictResult:
        """The rules terms in a card's text, in reading order, each with its rule and definition.

        Use it to see which rules a card's wording calls on (keywords with
        their costs, keyword actions, types, zones, counters, steps, glossary
        terms) before answering a question about the card. Returns what
        `crsearch explain TEXT --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).explain(text).to_dict())

    @tool("Check rule citations")
    def cite_check(
        text: Annotated[str, Field(description=(
            "Any text that cites rules: your draft answer, an article, notes."))],
        as_of: Annotated[str | None, Field(description=(
            "When the text was written (YYYY-MM-DD): its numbers are read as numbered "
            "then. Default: the date the text gives for itself, else today's numbers."))] = None,
    ) -> DictResult:
        """Check every rule number in a text: ok, moved since, mismatch, or missing.

        Before you answer, run cite_check on your draft: check every rule
        number you cite, and fix or drop any that is not "ok". A "moved"
        citation gives today's number in `now`; a "mismatch" is a number
        whose nearby words name another rule (`now` is that rule, `words`
        the words read), so write the rule's words next to each number; a
        "missing" one gives the closest numbers in `nearest`. For an older
        text (an article from 2015), give `as_of`, the date it was written,
        unless the text says it (`as_of` in the answer tells which date was
        used). Returns what `crsearch cite-check FILE --json` prints.
        """
        return desk.answer(lambda: desk.rules().cite_check(text, as_of).to_dict())

    @tool("A rule's history")
    def history(
        id: Annotated[str, Field(description='One rule number: "702.19c".')],
        release: Annotated[str | None, Field(description=(
            "Read the number as numbered in the release in effect on this date "
            "(YYYY-MM-DD); default: the server's --release, else the latest release "
            "that has it."))] = None,
    ) -> DictResult:
        """Every version of one rule across the imported releases, following renumbering.

        Use it for "when did this rule change", to find today's number of an
        old rule number, or what a rule said at a past date. Returns what
        `crsearch history ID --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).history(id).to_dict())

    @tool("What changed between releases")
    def diff(
        old: Annotated[str | None, Field(description=(
            "The older release: the one in effect on this date (YYYY-MM-DD); default: "
            "the release imported just before `new`."))] = None,
        new: Annotated[str | None, Field(description=(
            "The newer release (a date); default: the server's release, else the latest."))] = None,
        kind: Annotated[Literal["rules", "glossary", "all"], Field(description=(
            "Rules (with sections and chapters), glossary, or both."))] = "all",
        cosmetic: Annotated[bool, Field(description=(
            "Keep changes of typography only (quotes, dashes, spacing)."))] = True,
        release: Release = None,
    ) -> DictResult:
        """What changed between two releases: rules added, removed, changed and renumbered.

        Use it for "what changed in the last update". The answer can be long:
        narrow it with kind="rules" and cosmetic=false. Returns what `crsearch
        diff OLD NEW --json` prints.
        """
        return desk.answer(lambda: desk.rules(release).diff(
            old, new, kind=kind, cosmetic=cosmetic).to_dict())

    if hasattr(Rules, "card"):
        @tool("A card")
        def card(
            name: Annotated[str, Field(description="The card's name.")],
            release: Release = None,
        ) -> DictResult:
            """A Magic card by name, with the rules its text uses.

            Use it when a question names a card: read its text here rather
            than from memory. Returns what `crsearch card NAME --json` prints.
            """
            def look() -> Any:
                rules: Any = desk.rules(release)  # Rules.card comes with the card data
                return rules.card(name).to_dict()

            return desk.answer(look)

    # -- resources ---------------------------------------------------------------

    def read(make: Callable[[], str]) -> str:
        # A resource answers or fails: a JSON-RPC error with the command's message,
        # "invalid params" for what was asked, "internal error" for the data folder.
        try:
            return str(desk.call(make))
        except Failed as e:
            if isinstance(e.error, NotFound):
                raise ResourceNotFoundError(e.text) from None
            if isinstance(e.error, BadInput):
                raise MCPError(INVALID_PARAMS, e.text) from None
            raise ResourceError(e.text) from None

    def toc_text(release: str) -> str:
        from crsearch.cli.output import footer, render_toc

        toc = desk.rules(release).toc()
        return click.unstyle(f"{render_toc(toc)}\n\n{footer(toc.release)}")

    @server.resource("cr://latest/toc", name="toc", title="Table of contents (latest)",
                     mime_type="text/plain", description="The sections and chapters of the latest release.")
    def latest_toc() -> str:
        return read(lambda: toc_text("latest"))

    @server.resource("cr://{release}/toc", name="toc-of-release", title="Table of contents",
                     mime_type="text/plain", description=(
                         'The sections and chapters of the release in effect on a date (or "latest").'))
    def toc(release: str) -> str:
        return read(lambda: toc_text(release))

    @server.resource("cr://{release}/{id}", name="rule", title="A rule with its subrules",
                     mime_type="text/plain", description=(
                         "A rule, chapter or section with everything under it, in the release in "
                         'effect on a date (or "latest"): cr://2026-08-07/702.19c.'))
    def rule_text(release: str, id: str) -> str:
        from crsearch.cli.output import render_lookup

        return read(lambda: click.unstyle(render_lookup(desk.rules(release).rule(id))))

    return server


