"""The ``crsearch`` command line: parse arguments, call ``Rules``, print.

Each command makes one call on ``crsearch.Rules``, hands the result to
``output`` (or prints its ``to_dict()`` for ``--json``), and library errors
are turned into exit codes in one place (``_Group.invoke``): 0 ok, 1 not
found, 2 usage or input error (or a damaged or unwritable data dir), 3
nothing imported yet, 130 interrupted.  Heavy modules (whoosh, jinja2, bs4)
are imported inside the library calls that need them.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from crsearch.cli.common import (
    Progress,
    State,
    cite_options,
    download_options,
    emit,
    emit_json,
    error_text,
    exit_now,
    read_only,
    rules,
    styled,
    width,
)
from crsearch.cli.completion import complete_release_dates, complete_rule_ids
from crsearch.errors import CRSearchError
from crsearch.rules.safetext import printable
from crsearch.version import __version__

_EXTENSIONS = ("crsearch.cli.search", "crsearch.cli.site", "crsearch.cli.changes", "crsearch.cli.desk",
               "crsearch.cli.mcp", "crsearch.cli.cards")
#: Commands whose module is loaded alone, so that they start as fast as `rule`.
_FAST = {"card": "crsearch.cli.cards", "cards": "crsearch.cli.cards"}
_GLOBAL_OPTIONS = ("--data-dir", "--release")


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
        command = self._command(ctx, cmd_name)
        if command is not None and ctx.resilient_parsing and "--release" not in _option_names(command):
            # Shell completion of "crsearch rule 702.19 --release <Tab>": the
            # command gets a hidden --release that offers the stored dates.
            import copy

            command = copy.copy(command)
            command.params = [*command.params, click.Option(
                ["--release"], hidden=True, shell_complete=complete_release_dates)]
        return command

    def _command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _FAST:
            import importlib

            importlib.import_module(_FAST[cmd_name]).register(self)
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
        command = self._command(ctx, args[i])
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
            e.message = _quoted(e.message)  # type: ignore[misc]  # a hostile --data-dir or option name
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CRSearchError as e:
            click.echo(error_text(e), err=True)
            ctx.exit(e.exit_code)
        except click.ClickException as e:
            e.message = _quoted(e.message)  # type: ignore[misc]  # usage errors quote what was typed
            raise
        except KeyboardInterrupt as e:
            # An import says what it stored; everything else writes atomically.
            message = getattr(e, "message", None)
            click.echo(printable(message()) if callable(message) else "Interrupted.", err=True)
            ctx.exit(130)
        except BrokenPipeError:
            # `crsearch export --json | head`: the reader left; not an error.
            sys.stderr.close()
            ctx.exit(0)
        except (OSError, RecursionError, ValueError, EOFError) as e:
            # A full disk, a read-only data dir (errno text); a stored file
            # that no library check caught (a search index segment, ...).
            msg = error_text(e, _which_release(ctx) if isinstance(e, (ValueError, EOFError)) else "")
            if msg is None:
                raise
            click.echo(msg, err=True)
            ctx.exit(2)


def _quoted(message: str) -> str:
    """A click usage error as printed: what was typed, cut to 80 characters and
    made printable (click quotes the whole value, however long)."""
    import re

    from crsearch.errors import short

    message = re.sub(r"'([^']{81,})'", lambda m: repr(short(m[1])), message)
    return printable(re.sub(r"\S{81,}", lambda m: short(m[0]), message))


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


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.option("--data-dir", type=click.Path(file_okay=False), envvar="CRSEARCH_DATA",
              help="Where imported releases live (default: your user data folder).")
@click.option("--release", "release", metavar="DATE", shell_complete=complete_release_dates,
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
        from crsearch.cli.desk import overview

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
@download_options(64 * 1024 * 1024, "CRSEARCH_MAX_BYTES")
@click.pass_context
def update(ctx: click.Context, source: str | None, page: str | None, no_index: bool,
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
    from crsearch.cli.output import update_lines

    download = Progress()
    steps: list[int] = []

    bars = sys.stderr.isatty()

    def step(n: int, total: int, name: str) -> None:
        download.done()
        if total > 1 and bars:
            steps.append(n)
            click.echo(f"\r[{n}/{total}] {printable(name)}", err=True, nl=False)
        elif total > 1:  # a log: one line per release, not silence until the end
            click.echo(f"[{n}/{total}] {printable(name)}", err=True)

    def repaired(line: str) -> None:
        click.echo(printable(line), err=True)

    result = rules(ctx).update(source, page=page, index=not no_index, jobs=jobs,
                               download=download, progress=step, force=force,
                               deadline=deadline, max_bytes=max_bytes, on_repair=repaired)
    download.done()
    if steps:
        click.echo("", err=True)
    for line, err in update_lines(result):
        click.echo(printable(line), err=err)
    if result.failed:
        raise SystemExit(2)


# -- repair ----------------------------------------------------------------
@cli.command()
@click.pass_context
def repair(ctx: click.Context) -> None:
    """Check the data dir and fix what can be fixed: catalog, chapter files, indexes.

    Rebuilds a damaged catalog from the release folders, rewrites damaged
    chapter files and meta.json from the stored release, rebuilds damaged
    search indexes, completes the lineage table that `history` reads and
    removes leftovers of interrupted runs.  A release whose own file is
    damaged is set aside; import it again.

    \b
    Example:
        crsearch repair
    """
    from crsearch.cli.output import repair_lines

    report = rules(ctx).repair()
    for line in repair_lines(report):
        click.echo(printable(line))
    if report.dropped:
        raise SystemExit(2)


# -- rule ------------------------------------------------------------------
@cli.command()
@click.argument("ids", nargs=-1, required=True, shell_complete=complete_rule_ids)
@click.option("--no-children", is_flag=True, help="Show only the rule itself, not its subrules.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@cite_options("the rules")
@click.pass_context
def rule(ctx: click.Context, ids: tuple[str, ...], no_children: bool, as_json: bool,
         cite_fmt: str | None = None, site_url: str | None = None) -> None:
    """Show rules by number: 702.19c, "CR 702.19", 510.1c-d, 702 or 7.

    \b
    Example:
        crsearch rule 702.19c
        crsearch rule "601.2f–h" 119.7-8
        crsearch rule 702.2 --no-children --json
        crsearch rule 702.19c --cite=md
    """
    read_only()
    from crsearch.rules.numbers import join_words

    # `crsearch rule CR 702.19 c` arrives as three words but names one rule.
    found = rules(ctx).rule(*join_words(ids), children=not no_children)
    if cite_fmt:
        from crsearch.desk.cite import quote_item
        from crsearch.desk.cite import site_url as base

        emit("\n".join(quote_item(i, found.release, cite_fmt, base(site_url))
                       for i in found.items), page=False)
        return
    if as_json:
        emit_json(found.to_dict())
    else:
        from crsearch.cli.output import render_lookup

        emit(render_lookup(found, width()))


# -- toc -------------------------------------------------------------------
@cli.command()
@click.argument("id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def toc(ctx: click.Context, id: str | None, as_json: bool) -> None:
    """The table of contents, or the contents of one section or chapter.

    \b
    Example:
        crsearch toc
        crsearch toc 7
        crsearch toc 702 --json
    """
    contents = rules(ctx).toc(id)
    if as_json:
        emit_json(contents.to_dict())
    else:
        from crsearch.cli.output import render_toc

        emit(render_toc(contents))


# -- releases, report, export ----------------------------------------------
@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def releases(ctx: click.Context, as_json: bool) -> None:
    """List the imported releases; * marks the one in use.

    \b
    Example:
        crsearch releases
        crsearch --release 2020-01-01 releases
    """
    result = rules(ctx).releases()
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_releases

        emit(render_releases(result))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def report(ctx: click.Context, as_json: bool) -> None:
    """Counts, unplaced lines, unresolved references and anomalies of a release.

    \b
    Example:
        crsearch report
        crsearch --release 2013-02-01 report --json
    """
    result = rules(ctx).report()
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_report

        emit(render_report(result))


@cli.command()
@click.option("--json", "as_json", is_flag=True, required=True, help="Print JSON (the only format).")
@click.pass_context
def export(ctx: click.Context, as_json: bool) -> None:
    """The whole release as JSON.

    \b
    Example:
        crsearch export --json > cr.json
    """
    # The stored file is the JSON: copied as it is, not parsed and re-encoded.
    sys.stdout.write(printable(rules(ctx).export().text(), json=True))
    sys.stdout.write("\n")


def __getattr__(name: str) -> Any:
    # ``crsearch.cli.main.shutil`` (patched by tests) without importing shutil on
    # every run: cli_common imports it only for a terminal.
    if name == "shutil":
        import shutil

        return shutil
    raise AttributeError(f"module 'crsearch.cli.main' has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``crsearch`` console script."""
    read_only(False)
    try:
        cli(prog_name="crsearch")
    except SystemExit as e:
        exit_now(e.code)  # a read-only command ends here, at once
        raise


__all__ = ["State", "cli", "emit", "emit_json", "main", "styled"]
