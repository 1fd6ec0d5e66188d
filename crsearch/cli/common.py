"""What every ``crsearch`` command shares: the selected data folder and release,
terminal width and colour, and printing.

The command modules (``cli``, ``cli_search``, ``cli_diff``, ``cli_site``)
import this, never each other, so the command group can load them on
demand without an import cycle.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any, TypeVar

import click

F = TypeVar("F", bound="Callable[..., Any]")

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from crsearch.api import Rules
    from crsearch.store.datadir import Store, StoredRelease


#: Set by a command that only reads (``read_only``): the console script then
#: ends its process without tearing the interpreter down (``exit_now``).
_READ_ONLY = [False]


def read_only(done: bool = True) -> None:
    """Mark the running command as one that writes nothing (``done=False``:
    forget it, for a new command in the same process)."""
    _READ_ONLY[0] = done


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection inside (the collector as it was after).

    One search in a fresh process loads its index: several hundred thousand
    dicts, lists and strings that live until the process ends (``exit_now``),
    and the collector would only walk them again and again (some 37 M
    instructions, 4% of a question naming cards; #24).  Its few cycles die
    with the process; a caller in the same process (tests) gets the
    collector back as it was."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def exit_now(code: Any) -> None:
    """End the process of a read-only command at once, with ``code``.

    Freeing the objects of a loaded index at interpreter exit is a
    noticeable share of a question's time (docs/decisions/exit-at-once.md),
    and a command that wrote nothing has nothing to clean up: no exit
    handler is registered on that path.  Output is flushed first.  Does nothing for
    other commands, for an exit that carries a message, or under a tracer
    or profiler (coverage, cProfile), whose reports are written at exit.
    """
    if not _READ_ONLY[0] or not (code is None or isinstance(code, int)):
        return
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the descriptor was closed
                stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(code or 0)


class State:
    """The global options: ``--data-dir`` and ``--release``."""

    def __init__(self, data_dir: str | None, release: str | None):
        self.data_dir = data_dir
        self.release_date = release
        self._rules: Rules | None = None

    def rules(self) -> Rules:
        """The front door over the selected data folder and release."""
        if self._rules is None:
            from crsearch.api import Rules

            self._rules = Rules.open(self.data_dir, self.release_date)
        return self._rules

    def store(self) -> Store:
        return self.rules().store

    def stored(self) -> StoredRelease:
        return self.rules().stored()


class Progress:
    """Download progress on stderr, only on a terminal."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, done: int, total: int | None) -> None:
        if not sys.stderr.isatty():
            return
        self.shown = True
        if total:
            bar = 30
            filled = int(bar * done / total)
            click.echo(f"\rDownloading [{'#' * filled}{'-' * (bar - filled)}] "
                       f"{done // 1024:,} / {total // 1024:,} KiB", err=True, nl=False)
        else:
            click.echo(f"\rDownloading {done // 1024:,} KiB", err=True, nl=False)

    def done(self) -> None:
        if self.shown:
            self.shown = False
            click.echo("", err=True)


def cite_options(what: str) -> Callable[[F], F]:
    """``--cite[=plain|md]`` and ``--site-url`` for a command that can quote
    ``what`` ("the rules", "the results", "each term")."""

    def add(f: F) -> F:
        f = click.option("--site-url", metavar="URL", default=None,
                         help="Base URL of the rules site for --cite=md (else $CRSEARCH_SITE_URL).")(f)
        return click.option("--cite", "cite_fmt", type=click.Choice(["plain", "md"]), is_flag=False,
                            flag_value="plain", default=None,
                            help=f"Paste-ready quotes of {what} (--cite=md: Markdown with links "
                                 "to the site).")(f)

    return add


def download_options(max_bytes: int, max_bytes_env: str) -> Callable[[F], F]:
    """``--timeout`` and ``--max-bytes`` (default ``max_bytes``, env ``max_bytes_env``)
    for a command that downloads."""

    def add(f: F) -> F:
        f = click.option("--max-bytes", type=click.IntRange(1), default=max_bytes,
                         show_default=True, envvar=max_bytes_env, metavar="N",
                         help=f"Refuse a download larger than this (env {max_bytes_env}).")(f)
        return click.option("--timeout", "deadline", type=click.FloatRange(0.1), default=600,
                            show_default=True, envvar="CRSEARCH_TIMEOUT", metavar="SECONDS",
                            help="Give up a download after this long (env CRSEARCH_TIMEOUT).")(f)

    return add


def rules(ctx: click.Context) -> Rules:
    """The ``Rules`` of the running command."""
    return ctx.find_object(State).rules()  # type: ignore[union-attr]


def color() -> bool | None:
    """False when NO_COLOR is set; None lets click style a terminal and strip a pipe."""
    if os.environ.get("NO_COLOR"):
        return False
    return None


def styled() -> bool:
    """Whether text will keep its colours (a terminal, and no NO_COLOR)."""
    return color() is not False and sys.stdout.isatty()


# shutil is imported only on a terminal: with its compression modules it
# costs a piped lookup more than the lookup itself.

def width() -> int | None:
    """The terminal's width, or None when piped (no wrapping)."""
    if not sys.stdout.isatty():
        return None
    import shutil

    return shutil.get_terminal_size().columns


def _screen_lines() -> int:
    import shutil

    return shutil.get_terminal_size().lines


def emit(text: str, *, page: bool = True) -> None:
    """Print text; page it on a terminal when it is longer than the screen."""
    from crsearch.rules.safetext import printable

    c = color()
    text = printable(text, newlines=True, styles=True)
    if page and sys.stdout.isatty() and text.count("\n") + 1 > _screen_lines():
        if c is False:
            text = click.unstyle(text)
        click.echo_via_pager(text, color=c)
    else:
        click.echo(text, color=c)


def json_text(data: Any) -> str:
    """A result's ``to_dict()`` as the indented JSON that ``--json`` prints."""
    import json

    from crsearch.rules.safetext import printable

    return printable(json.dumps(data, ensure_ascii=False, indent=2), json=True)


def emit_json(data: Any) -> None:
    """Print a result's ``to_dict()`` as indented JSON."""
    click.echo(json_text(data))


def error_text(e: BaseException, release: str = "") -> str | None:
    """What a command prints for the error ``e``, or None for one no command expects (a bug).

    Library errors give their message (with "Did you mean" for NotFound), an
    OSError its errno text, and a stored file that no library check caught
    (a truncated index segment) says to run ``crsearch repair``; ``release``
    names the release it belongs to ("release 2026-08-07: ").
    """
    from crsearch.errors import CRSearchError, NotFound, short
    from crsearch.rules.safetext import printable

    if isinstance(e, CRSearchError):
        msg = f"Error: {printable(str(e))}"
        if isinstance(e, NotFound) and e.suggestions:
            msg += f"\nDid you mean: {printable(', '.join(e.suggestions))}?"
        return msg
    if isinstance(e, OSError):
        where = f"{short(os.fsdecode(e.filename))}: " if e.filename else ""
        return printable(f"Error: {where}{e.strerror or e}")
    if isinstance(e, RecursionError):
        return "Error: the input is nested too deeply to read"
    if isinstance(e, (ValueError, EOFError)):
        import struct

        # json is imported only by what may raise its error, so it is
        # looked up rather than imported on every command.
        json = sys.modules.get("json")
        damaged: tuple[type[BaseException], ...] = (UnicodeDecodeError, EOFError, struct.error)
        if json is not None:
            damaged += (json.JSONDecodeError,)
        if isinstance(e, damaged):
            # Whoosh reads a truncated segment as EOFError.
            return (f"Error: {release}a stored file is damaged ({type(e).__name__}); "
                    "run `crsearch repair`")
    return None
