"""The ``diff`` and ``history`` commands: what changed between releases.

Only click and the standard library are imported at load time; the diff
engine and the stored releases load inside the ``Rules`` calls, and the
terminal text comes from ``output``.
"""

from __future__ import annotations

import click

from crsearch.cli.common import emit, emit_json, rules, styled
from crsearch.cli.completion import complete_rule_ids


@click.command()
@click.argument("old", required=False, metavar="[OLD]")
@click.argument("new", required=False, metavar="[NEW]")
@click.option("--kind", type=click.Choice(["rules", "glossary", "all"]), default="all",
              show_default=True, help="Rules (with sections and chapters), glossary, or both.")
@click.option("--no-cosmetic", is_flag=True,
              help="Leave out changes of typography only (quotes, dashes, spacing).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def diff(ctx: click.Context, old: str | None, new: str | None, kind: str, no_cosmetic: bool,
         as_json: bool) -> None:
    """What changed between two releases: added, removed, changed and renumbered.

    OLD and NEW are dates (YYYY-MM-DD); each picks the release in effect on
    that day.  NEW defaults to the selected release (--release, else the
    latest) and OLD to the imported release just before NEW.  Renumbered
    rules are matched by their text, so a re-lettered subrule shows as one
    move, not as a change to every rule after it.

    \b
    Example:
        crsearch diff
        crsearch diff 2026-04-17
        crsearch diff 2026-06-19 2026-08-07 --kind rules --no-cosmetic
        crsearch --release 2026-06-19 diff --json
    """
    result = rules(ctx).diff(old, new, kind=kind, cosmetic=not no_cosmetic)
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_diff

        emit(render_diff(result, styled()))


@click.command()
@click.argument("id", shell_complete=complete_rule_ids)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def history(ctx: click.Context, id: str, as_json: bool) -> None:
    """Every version of one rule across the imported releases, following renumbering.

    ID is read as numbered in the selected release (--release), else in the
    latest release that has it, so a removed rule's history can be shown
    too.

    \b
    Example:
        crsearch history 702.19c
        crsearch --release 2026-06-19 history 310.8
        crsearch history 704.5x --json
    """
    result = rules(ctx).history(id)
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_history

        emit(render_history(result, styled()))


def register(cli: click.Group) -> None:
    """Add ``diff`` and ``history`` to the ``crsearch`` group."""
    cli.add_command(diff)
    cli.add_command(history)
