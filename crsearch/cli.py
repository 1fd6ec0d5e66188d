"""The ``crsearch`` command line: parse arguments, call the library, print.

Library errors are turned into exit codes in one place (``_Group.invoke``):
0 ok, 1 not found, 2 usage or input error (or a damaged or unwritable data
dir), 3 nothing imported yet, 130 interrupted.  Heavy modules (whoosh, jinja2,
bs4) are imported inside the commands that need them.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import sys
from pathlib import Path
from typing import Any

import click

from crsearch import __version__
from crsearch.completion import complete_rule_ids
from crsearch.errors import CRSearchError, NotFound
from crsearch.terminal import printable


def _color() -> bool | None:
    if os.environ.get("NO_COLOR"):
        return False
    return None  # click: styles on a terminal, stripped when piped


def emit(text: str, *, page: bool = True) -> None:
    """Print text; page it on a terminal when it is longer than the screen."""
    color = _color()
    text = printable(text, newlines=True, styles=True)
    if page and sys.stdout.isatty() and text.count("\n") + 1 > shutil.get_terminal_size().lines:
        if color is False:
            text = click.unstyle(text)
        click.echo_via_pager(text, color=color)
    else:
        click.echo(text, color=color)


def emit_json(data: Any) -> None:
    click.echo(printable(json.dumps(data, ensure_ascii=False, indent=2), json=True))


def _width() -> int | None:
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


_EXTENSIONS = ("crsearch.cli_search", "crsearch.cli_site", "crsearch.cli_diff", "crsearch.cli_desk")


class _Group(click.Group):
    """Maps library errors to exit codes; loads search/site commands on demand."""

    _extensions_loaded = False

    def _load_extensions(self) -> None:
        # The search and site commands live in their own modules, imported
        # only when one of them (or --help) is asked for, so `crsearch rule`
        # never pays for them.
        if self._extensions_loaded:
            return
        self._extensions_loaded = True
        import importlib

        for name in _EXTENSIONS:
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError as e:
                if e.name != name:
                    raise
                continue
            module.register(self)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._load_extensions()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_extensions()
        return super().list_commands(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._hoist_global_options(ctx, args))

    def _hoist_global_options(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Move ``--release``/``--data-dir`` written after the command in front of it.

        ``crsearch rule 702.19 --release 2019-01-01`` then means
        ``crsearch --release 2019-01-01 rule 702.19``, for every command
        that has no option of that name itself.
        """
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] != "--":
            i += 2 if args[i] in _GLOBAL_OPTIONS else 1
        if i >= len(args) or args[i] == "--":
            return args
        command = self.get_command(ctx, args[i])
        if command is None:
            return args
        own = _option_names(command)
        front: list[str] = []
        rest: list[str] = []
        j = i + 1
        while j < len(args):
            name = args[j].split("=", 1)[0]
            if args[j] == "--":
                rest += args[j:]
                break
            if name in _GLOBAL_OPTIONS and name not in own:
                width = 1 if "=" in args[j] else 2
                if j + width > len(args):
                    if ctx.resilient_parsing:  # shell completion of the value
                        return args
                    raise click.UsageError(f"Option '{name}' requires an argument.", ctx)
                front += args[j:j + width]
                j += width
                continue
            rest.append(args[j])
            j += 1
        return args[:i] + front + [args[i]] + rest

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as e:
            e.message = printable(e.message)  # a hostile --data-dir or option name
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except NotFound as e:
            msg = f"Error: {printable(str(e))}"
            if e.suggestions:
                msg += f"\nDid you mean: {printable(', '.join(e.suggestions))}?"
            click.echo(msg, err=True)
            ctx.exit(1)
        except CRSearchError as e:
            click.echo(f"Error: {printable(str(e))}", err=True)
            ctx.exit(e.exit_code)
        except click.ClickException as e:
            e.message = printable(e.message)  # usage errors quote what was typed
            raise
        except KeyboardInterrupt as e:
            # An import says what it stored; everything else writes atomically.
            message = getattr(e, "message", None)
            click.echo(printable(message()) if callable(message) else "Interrupted.", err=True)
            ctx.exit(130)
        except OSError as e:
            # A full disk, a read-only data dir: one line with the errno text.
            if isinstance(e, BrokenPipeError):
                sys.stderr.close()
                ctx.exit(0)
            from crsearch.errors import short

            where = f"{short(os.fsdecode(e.filename))}: " if e.filename else ""
            click.echo(f"Error: {where}{e.strerror or e}", err=True)
            ctx.exit(2)
        except RecursionError:
            click.echo("Error: the input is nested too deeply to read", err=True)
            ctx.exit(2)
        except (json.JSONDecodeError, UnicodeDecodeError, EOFError, struct.error) as e:
            # A stored file (a search index segment, ...) that no library
            # check caught: Whoosh reads a truncated segment as EOFError.
            click.echo(f"Error: {_which_release(ctx)}a stored file is damaged "
                       f"({type(e).__name__}); run `crsearch repair`", err=True)
            ctx.exit(2)
        except BrokenPipeError:
            # `crsearch export --json | head`: the reader left; not an error.
            sys.stderr.close()
            ctx.exit(0)


_GLOBAL_OPTIONS = ("--data-dir", "--release")


def _option_names(command: click.Command) -> set[str]:
    """Every option name of a command and, for a group, of its subcommands."""
    names = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
    for sub in getattr(command, "commands", {}).values():
        names |= _option_names(sub)
    return names


def _which_release(ctx: click.Context) -> str:
    try:
        return f"release {ctx.obj.stored().effective_date}: "
    except Exception:  # noqa: BLE001 - only naming the release; the error is reported anyway
        return ""


class State:
    def __init__(self, data_dir: str | None, release: str | None):
        self.data_dir = data_dir
        self.release_date = release

    def store(self):
        from crsearch.store import Store

        return Store(self.data_dir)

    def stored(self):
        return self.store().pick(self.release_date)


pass_state = click.make_pass_decorator(State)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.option("--data-dir", type=click.Path(file_okay=False), envvar="CRSEARCH_DATA",
              help="Where imported releases live (default: your user data folder).")
@click.option("--release", "release", metavar="DATE",
              help="Use the release in effect on DATE (YYYY-MM-DD); default: the latest.")
@click.version_option(__version__, prog_name="crsearch")
@click.pass_context
def cli(ctx: click.Context, data_dir: str | None, release: str | None) -> None:
    """Look up, search and publish the Magic: The Gathering Comprehensive Rules.

    \b
    Example:
        crsearch update --from ../shared/cr/archive/2026-08-07.txt
        crsearch rule 702.19c
    """
    ctx.obj = State(data_dir, release)
    if ctx.invoked_subcommand is None:  # `crsearch` alone: what it can do, what is stored
        from crsearch.cli_desk import overview

        emit(overview(ctx))


# -- update ----------------------------------------------------------------
@cli.command()
@click.option("--from", "source", metavar="FILE|DIR|URL",
              help="Import a TXT file, every *.txt in a folder, a URL, or a built site.")
@click.option("--page", default=None, metavar="URL",
              help="The rules page to read the TXT link from (default: the official one).")
@click.option("--no-index", is_flag=True, help="Do not build the search index.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Worker processes for a folder of releases (default: one per CPU).")
@click.option("--force", is_flag=True,
              help="Replace a stored release even by an incomplete copy or one with fewer rules.")
@click.option("--timeout", "deadline", type=click.FloatRange(0.1), default=600,
              show_default=True, envvar="CRSEARCH_TIMEOUT", metavar="SECONDS",
              help="Give up a download after this long (env CRSEARCH_TIMEOUT).")
@click.option("--max-bytes", type=click.IntRange(1), default=64 * 1024 * 1024,
              show_default=True, envvar="CRSEARCH_MAX_BYTES", metavar="N",
              help="Refuse a download larger than this (env CRSEARCH_MAX_BYTES).")
@pass_state
def update(state: State, source: str | None, page: str | None, no_index: bool,
           jobs: int | None, force: bool, deadline: float, max_bytes: int) -> None:
    """Download the current rules (or import --from FILE|DIR|URL) and store them.

    A stored release is never replaced by an incomplete copy or one with
    fewer rules unless --force; the exact same file is skipped ("already up
    to date").  Exits 2 if any source failed or was refused.

    \b
    Example:
        crsearch update
        crsearch update --from ../shared/cr/archive
        crsearch update --from https://media.wizards.com/2026/downloads/MagicCompRules%2020260807.txt
    """
    from crsearch import sources, update as pipeline
    from crsearch.errors import DamagedStore

    store = state.store()
    progress = _download_progress()
    if source is None:
        srcs = [sources.fetch_latest(page or sources.RULES_PAGE, progress=progress,
                                     deadline=deadline, max_bytes=max_bytes)]
    else:
        srcs = sources.read_from(source, progress=progress, deadline=deadline,
                                 max_bytes=max_bytes)
    progress.done()
    store.check_ours()
    try:
        store.catalog()
    except DamagedStore as e:
        click.echo(f"Warning: {e}", err=True)
        for line in store.repair().lines():
            click.echo(f"Repaired: {line}", err=True)
    many = len(srcs) > 1
    bars = sys.stderr.isatty()

    def step(n: int, total: int, name: str) -> None:
        if many and bars:
            click.echo(f"\r[{n}/{total}] {printable(name)}", err=True, nl=False)

    if jobs is None:
        jobs = min(os.cpu_count() or 1, len(srcs))
    results = pipeline.import_sources(srcs, store, build_index=not no_index, progress=step,
                                      jobs=jobs, force=force)
    if many and bars:
        click.echo("", err=True)
    failed = 0
    for r in results:
        for w in r.warnings:
            click.echo(printable(f"Warning: {r.name}: {w}"), err=True)
        if r.error:
            failed += 1
            click.echo(printable(f"Error: {r.name}: {r.error}"), err=True)
        elif r.unchanged is not None:
            if not many:
                click.echo(printable(f"{r.unchanged} ({r.name}) is already up to date."))
        elif not many and r.release is not None:
            c = r.release.counts()
            click.echo(printable(f"Imported {r.release.effective_date} ({r.name}): {c['rules']} rules, "
                                 f"{c['subrules']} subrules, {c['glossary']} glossary entries."))
    if many:
        same = sum(1 for r in results if r.unchanged is not None)
        click.echo(printable(f"Imported {len(results) - failed - same} of {len(results)} releases into "
                             f"{store.root}" + (f" ({same} already up to date)." if same else ".")))
    if failed:
        raise SystemExit(2)


# -- repair ----------------------------------------------------------------
@cli.command()
@pass_state
def repair(state: State) -> None:
    """Check the data dir and fix what can be fixed: catalog, chapter files, indexes.

    Rebuilds a damaged catalog from the release folders, rewrites damaged
    chapter files and meta.json from release.json, rebuilds damaged search
    indexes and removes leftovers of interrupted runs.  A release whose
    release.json is damaged is set aside; import it again.

    \b
    Example:
        crsearch repair
    """
    report = state.store().repair()
    for line in report.lines():
        click.echo(line)
    n = report.releases
    click.echo(f"{n} release{'' if n == 1 else 's'} in good order"
               + ("" if report.lines() else "; nothing to repair") + ".")
    if report.dropped:
        raise SystemExit(2)


class _Progress:
    """Download progress on stderr, only on a terminal."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, done: int, total: int | None) -> None:
        if not sys.stderr.isatty():
            return
        self.shown = True
        if total:
            width = 30
            filled = int(width * done / total)
            click.echo(f"\rDownloading [{'#' * filled}{'-' * (width - filled)}] "
                       f"{done // 1024:,} / {total // 1024:,} KiB", err=True, nl=False)
        else:
            click.echo(f"\rDownloading {done // 1024:,} KiB", err=True, nl=False)

    def done(self) -> None:
        if self.shown:
            click.echo("", err=True)


def _download_progress() -> _Progress:
    return _Progress()


# -- rule ------------------------------------------------------------------
@cli.command()
@click.argument("ids", nargs=-1, required=True, shell_complete=complete_rule_ids)
@click.option("--no-children", is_flag=True, help="Show only the rule itself, not its subrules.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--cite", "cite_fmt", type=click.Choice(["plain", "md"]), is_flag=False,
              flag_value="plain", default=None,
              help="Paste-ready quotes (--cite=md: Markdown with links to the site).")
@click.option("--site-url", metavar="URL", default=None,
              help="Base URL of the rules site for --cite=md (else $CRSEARCH_SITE_URL).")
@pass_state
def rule(state: State, ids: tuple[str, ...], no_children: bool, as_json: bool,
         cite_fmt: str | None = None, site_url: str | None = None) -> None:
    """Show rules by number: 702.19c, "CR 702.19", 510.1c-d, 702 or 7.

    \b
    Example:
        crsearch rule 702.19c
        crsearch rule "601.2f–h" 119.7-8
        crsearch rule 702.2 --no-children --json
        crsearch rule 702.19c --cite=md
    """
    from crsearch.lookup import Library
    from crsearch.numbers import join_words

    # `crsearch rule CR 702.19 c` arrives as three words but names one rule.
    found = Library(state.stored()).lookup(join_words(ids), children=not no_children)
    if cite_fmt:
        from crsearch.cite import quote_item, site_url as base

        emit("\n".join(quote_item(i, found.release, cite_fmt, base(site_url))
                       for i in found.items), page=False)
        return
    if as_json:
        from crsearch.output import item_json

        emit_json([item_json(i, found.release) for i in found.items])
    else:
        from crsearch.output import render_lookup

        emit(render_lookup(found, _width()))


# -- toc -------------------------------------------------------------------
@cli.command()
@click.argument("id", required=False)
@pass_state
def toc(state: State, id: str | None) -> None:
    """The table of contents, or the contents of one section or chapter.

    \b
    Example:
        crsearch toc
        crsearch toc 7
        crsearch toc 702
    """
    from crsearch import numbers
    from crsearch.lookup import Library
    from crsearch.output import render_toc

    lib = Library(state.stored())
    rows: list[tuple[int, str, str]] = []
    if id is None:
        for s in lib.sections.values():
            rows.append((0, s.id, s.title))
            rows += [(1, c.id, c.title) for c in lib.chapters.values() if c.section == s.id]
    else:
        target = numbers.normalize(id)
        if not lib.exists(target):
            raise NotFound(f"there is no {numbers.kind(target)} {target}", lib.suggestions(target))
        kind = numbers.kind(target)
        if kind == "section":
            s = lib.sections[target]
            rows.append((0, s.id, s.title))
            rows += [(1, c.id, c.title) for c in lib.chapters.values() if c.section == s.id]
        else:
            chapter = target.split(".")[0]
            c = lib.chapters[chapter]
            rows.append((0, c.id, c.title))
            for r in lib.chapter_rules(chapter):
                if r.kind == "rule" and numbers.contains(target, r.id):
                    rows.append((1, r.id, r.title or _first_words(r.text)))
    emit(render_toc(rows))


def _first_words(text: str, n: int = 10) -> str:
    words = text.split()
    return " ".join(words[:n]) + (" …" if len(words) > n else "")


# -- releases, report, export ----------------------------------------------
@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_state
def releases(state: State, as_json: bool) -> None:
    """List the imported releases; * marks the one in use.

    \b
    Example:
        crsearch releases
        crsearch --release 2020-01-01 releases
    """
    from crsearch.output import render_releases

    store = state.store()
    rows = store.catalog()
    if not rows:
        store.pick()  # raises the "no releases imported yet" error
    current = store.pick(state.release_date).effective_date
    if as_json:
        emit_json([{**r, "current": r["effective_date"] == current} for r in rows])
    else:
        emit(render_releases(rows, current))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_state
def report(state: State, as_json: bool) -> None:
    """Counts, unplaced lines, unresolved references and anomalies of a release.

    \b
    Example:
        crsearch report
        crsearch --release 2013-02-01 report --json
    """
    from crsearch.output import render_report, report_of

    data = report_of(state.stored().release())
    if as_json:
        emit_json(data)
    else:
        emit(render_report(data))


@cli.command()
@click.option("--json", "as_json", is_flag=True, required=True, help="Print JSON (the only format).")
@pass_state
def export(state: State, as_json: bool) -> None:
    """The whole release as JSON.

    \b
    Example:
        crsearch export --json > cr.json
    """
    stored = state.stored()
    sys.stdout.write(printable(stored.release_text(), json=True))
    sys.stdout.write("\n")


def main() -> None:
    """Entry point of the ``crsearch`` console script."""
    cli(prog_name="crsearch")


__all__ = ["cli", "main", "Path"]
