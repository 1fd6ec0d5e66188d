"""The ``crsearch`` command line: parse arguments, call ``Rules``, print.

Each command makes one call on ``crsearch.Rules``, hands the result to
``output`` (or prints its ``to_dict()`` for ``--json``), and library errors
are turned into exit codes in one place (``_Group.invoke``): 0 ok, 1 not
found, 2 usage or input error.  Heavy modules (whoosh, jinja2, bs4) are
imported inside the library calls that need them.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from crsearch import __version__
from crsearch.cli_common import State, emit, emit_json, rules, styled, width
from crsearch.errors import CRSearchError, NotFound

_EXTENSIONS = ("crsearch.cli_search", "crsearch.cli_site", "crsearch.cli_diff")


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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except NotFound as e:
            msg = f"Error: {e}"
            if e.suggestions:
                msg += f"\nDid you mean: {', '.join(e.suggestions)}?"
            click.echo(msg, err=True)
            ctx.exit(1)
        except CRSearchError as e:
            click.echo(f"Error: {e}", err=True)
            ctx.exit(e.exit_code)
        except KeyboardInterrupt:
            click.echo("Interrupted; stored data is unchanged.", err=True)
            ctx.exit(130)
        except BrokenPipeError:
            # `crsearch export --json | head`: the reader left; not an error.
            sys.stderr.close()
            ctx.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
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


# -- update ----------------------------------------------------------------
@cli.command()
@click.option("--from", "source", metavar="FILE|DIR|URL",
              help="Import a TXT file, every *.txt in a folder, a URL, or a built site.")
@click.option("--page", default=None, metavar="URL",
              help="The rules page to read the TXT link from (default: the official one).")
@click.option("--no-index", is_flag=True, help="Do not build the search index.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Worker processes for a folder of releases (default: one per CPU).")
@click.pass_context
def update(ctx: click.Context, source: str | None, page: str | None, no_index: bool,
           jobs: int | None) -> None:
    """Download the current rules (or import --from FILE|DIR|URL) and store them.

    \b
    Example:
        crsearch update
        crsearch update --from ../shared/cr/archive
        crsearch update --from https://media.wizards.com/2026/downloads/MagicCompRules%2020260807.txt
    """
    from crsearch.output import update_lines

    download = _Progress()
    steps: list[int] = []

    def step(n: int, total: int, name: str) -> None:
        download.done()
        if total > 1:
            steps.append(n)
            click.echo(f"\r[{n}/{total}] {name}", err=True, nl=False)

    result = rules(ctx).update(source, page=page, index=not no_index, jobs=jobs,
                               download=download, progress=step)
    download.done()
    if steps:
        click.echo("", err=True)
    for line, err in update_lines(result):
        click.echo(line, err=err)
    if result.failed:
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


# -- rule ------------------------------------------------------------------
@cli.command()
@click.argument("ids", nargs=-1, required=True)
@click.option("--no-children", is_flag=True, help="Show only the rule itself, not its subrules.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def rule(ctx: click.Context, ids: tuple[str, ...], no_children: bool, as_json: bool) -> None:
    """Show rules by number: 702.19c, "CR 702.19", 510.1c-d, 702 or 7.

    \b
    Example:
        crsearch rule 702.19c
        crsearch rule "601.2f–h" 119.7-8
        crsearch rule 702.2 --no-children --json
    """
    found = rules(ctx).rule(*ids, children=not no_children)
    if as_json:
        emit_json(found.to_dict())
    else:
        from crsearch.output import render_lookup

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
        from crsearch.output import render_toc

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
        from crsearch.output import render_releases

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
        from crsearch.output import render_report

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
    sys.stdout.write(rules(ctx).export().text())
    sys.stdout.write("\n")


def __getattr__(name: str) -> Any:
    # ``crsearch.cli.shutil`` (patched by tests) without importing shutil on
    # every run: cli_common imports it only for a terminal.
    if name == "shutil":
        import shutil

        return shutil
    raise AttributeError(f"module 'crsearch.cli' has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``crsearch`` console script."""
    cli(prog_name="crsearch")


__all__ = ["State", "cli", "emit", "emit_json", "main", "styled"]
