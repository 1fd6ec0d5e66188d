"""Cards: ``crsearch card NAME`` and ``crsearch cards`` (status, ``update``).

Only click and the standard library are imported at load time; ``card``
reads the name index and one card, never the whole card data, and never
loads the search index, templates or HTML parser.
"""

from __future__ import annotations

import sys

import click

from crsearch.cli.common import (
    Progress,
    cite_options,
    download_options,
    emit,
    emit_json,
    read_only,
    rules,
    width,
)
from crsearch.rules.safetext import printable


@click.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@cite_options("the card and its rules")
@click.pass_context
def card(ctx: click.Context, name: tuple[str, ...], as_json: bool, cite_fmt: str | None = None,
         site_url: str | None = None) -> None:
    """Show a card: Oracle text, each face, rulings, and the rules its words use.

    NAME may be exact, in any case, without accents, partial ("jace mind
    sculptor", "Shackles"), misspelt ("notion theif") or one face's name
    ("Fire" for Fire // Ice).  A name that fits several cards lists them
    (exit 1).  Needs card data: see `crsearch cards update`.

    \b
    Example:
        crsearch card "Notion Thief"
        crsearch card fire
        crsearch card jace mind sculptor --json
        crsearch card "Vedalken Shackles" --cite=md
    """
    read_only()
    r = rules(ctx)
    info = r.card(" ".join(name))
    if cite_fmt:
        from crsearch.desk.card import cite_lines
        from crsearch.errors import NoData

        try:
            stored = r.stored()
        except NoData:
            stored = None
        emit("\n".join(cite_lines(info, stored, cite_fmt, site_url)), page=False)
        return
    if as_json:
        emit_json(info.to_dict())
        return
    from crsearch.cli.output import render_card

    emit(render_card(info, width(), sys.stdout.isatty()))


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def cards(ctx: click.Context, as_json: bool) -> None:
    """The card data in use (date, origin, counts); `cards update` imports it.

    Card data is MTGJSON's AtomicCards (MIT) or Scryfall's bulk files; the
    card texts are Wizards of the Coast's, under its Fan Content Policy, and
    are never shipped with crsearch.  Exits 3 when none is imported.

    \b
    Example:
        crsearch cards
        crsearch cards --json
        crsearch cards update
    """
    if ctx.invoked_subcommand is not None:
        return
    data = rules(ctx).cards()
    if as_json:
        emit_json(data.to_dict())
        return
    from crsearch.cli.output import render_cards_status

    emit(render_cards_status(data))


@cards.command("update")
@click.option("--from", "source", metavar="FILE|URL",
              help="Import a local AtomicCards.json or Scryfall oracle-cards file (gzip, xz, "
                   "bzip2 or zip too), or download this URL.")
@click.option("--rulings", metavar="FILE",
              help="Scryfall's rulings bulk file, read beside an oracle-cards file.")
@click.option("--force", is_flag=True,
              help="Replace the stored card data even by an older copy or one with fewer cards.")
@download_options(512 * 1024 * 1024, "CRSEARCH_CARDS_MAX_BYTES")
@click.pass_context
def cards_update(ctx: click.Context, source: str | None, rulings: str | None, force: bool,
                 deadline: float, max_bytes: int) -> None:
    """Download MTGJSON's AtomicCards (or import --from FILE|URL) as the card data.

    Without --from, reads MTGJSON's Meta.json first and downloads only a
    newer build, compressed, checked against its published SHA-256.  The
    stored card data is never replaced by an older copy or one with fewer
    cards unless --force; the same file again is "already up to date".
    Exits 2 when the file is not card data or was refused.

    \b
    Example:
        crsearch cards update
        crsearch cards update --from AtomicCards.json.xz
        crsearch cards update --from oracle-cards.json --rulings rulings.json
    """
    from crsearch.cli.output import cards_update_lines

    download = Progress()
    counting = sys.stderr.isatty()

    def read(n: int) -> None:
        download.done()
        if counting:
            click.echo(f"\rRead {n:,} cards", err=True, nl=False)

    result = rules(ctx).update_cards(source, rulings=rulings, force=force, download=download,
                                     progress=read, deadline=deadline, max_bytes=max_bytes)
    download.done()
    if counting and result.count >= 1000 and not result.unchanged:
        click.echo("", err=True)
    for line, err in cards_update_lines(result):
        click.echo(printable(line), err=err)


def register(cli: click.Group) -> None:
    """Add the card commands to the ``crsearch`` group."""
    cli.add_command(card)
    cli.add_command(cards)
