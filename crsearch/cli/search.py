"""The search commands: ``search``, ``define``, ``keyword``, ``keywords``, ``index``.

Only click and the standard library are imported at load time: ``cli.py``
registers these commands whenever one of them (or ``--help``) is asked
for, and Whoosh and the search modules load inside the ``Rules`` calls.
"""

from __future__ import annotations

import time

import click

from crsearch.cli.common import cite_options, collector_paused, emit, emit_json, read_only, rules, width
from crsearch.cli.completion import complete_glossary, complete_keywords


# -- search ------------------------------------------------------------------
@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", type=click.IntRange(1, 200), default=10, show_default=True,
              help="How many results to show.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@cite_options("the results")
@click.option("--why", is_flag=True,
              help="Show why each result matched: words, slang read as rules wording, meaning.")
@click.pass_context
def search(ctx: click.Context, query: tuple[str, ...], limit: int, as_json: bool,
           cite_fmt: str | None = None, site_url: str | None = None, why: bool = False) -> None:
    """Search the rules: a keyword, term, question, rule number or pasted text.

    Understands rule numbers in any form ("CR 702.19c", "§702.19c", 510.1c-d),
    keywords and glossary terms, typos ("deathtuch"), "quoted phrases",
    filters (section:7, chapter:702, kind:rule|subrule|chapter|section|glossary)
    and passages pasted from web pages, even when their rule numbers were lost.

    \b
    Example:
        crsearch search trample
        crsearch search "deathtouch trample" --limit 5
        crsearch search "can a tapped creature block"
        crsearch search kind:glossary lethal damage --json
        crsearch search trample --limit 3 --cite
        crsearch search "my opponent bounced my creature, do the counters stay?" --why
    """
    read_only()
    from crsearch.errors import NotFound, short

    text = " ".join(query)
    with collector_paused():
        result = rules(ctx).search(text, limit)
    from crsearch.search.schema import EMBEDDINGS_BUILT

    # Said once, on stderr: the output stays the search's.
    for note in [n for n in result.notes if n.startswith(EMBEDDINGS_BUILT)]:
        click.echo(f"Note: {note}", err=True)
        if not as_json:
            result.notes.remove(note)
    if as_json:
        emit_json(result.to_dict(why=why))
        if not result.results:
            ctx.exit(1)
        return
    if not result.results:
        hint = [result.suggestion] if result.suggestion else []
        raise NotFound(f"nothing in the {result.release} rules matches {short(text)!r}", hint)
    if cite_fmt:
        from crsearch.desk.cite import cite_hits

        emit(cite_hits(rules(ctx).stored(), result.results, cite_fmt, site_url), page=False)
        return
    from crsearch.cli.output import render_search

    emit(render_search(result, width(), why))


# -- define ------------------------------------------------------------------
@click.command()
@click.argument("term", nargs=-1, required=True, shell_complete=complete_glossary)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def define(ctx: click.Context, term: tuple[str, ...], as_json: bool) -> None:
    """Show the glossary entry for TERM (case, plurals and typos forgiven).

    \b
    Example:
        crsearch define lethal damage
        crsearch define apnap
        crsearch define lki
        crsearch define "last known information" --json
    """
    read_only()
    result = rules(ctx).define(" ".join(term))
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_definition

        emit(render_definition(result, width()))


# -- keyword, keywords -------------------------------------------------------
@click.command()
@click.argument("name", nargs=-1, required=True, shell_complete=complete_keywords)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def keyword(ctx: click.Context, name: tuple[str, ...], as_json: bool) -> None:
    """Show a keyword ability or action with all its subrules.

    \b
    Example:
        crsearch keyword trample
        crsearch keyword "first strike"
        crsearch keyword "protection from white"
        crsearch keyword scry --json
    """
    read_only()
    found = rules(ctx).keyword(" ".join(name))
    if as_json:
        emit_json(found.to_dict())
    else:
        from crsearch.cli.output import render_keyword

        emit(render_keyword(found, width()))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def keywords(ctx: click.Context, as_json: bool) -> None:
    """List the keyword actions (701) and keyword abilities (702) with their numbers.

    \b
    Example:
        crsearch keywords
        crsearch keywords --json
    """
    result = rules(ctx).keywords()
    if as_json:
        emit_json(result.to_dict())
    else:
        from crsearch.cli.output import render_keywords

        emit(render_keywords(result))


# -- index -------------------------------------------------------------------
@click.command("index")
@click.pass_context
def index_cmd(ctx: click.Context) -> None:
    """Rebuild the search index of the selected release (atomically).

    \b
    Example:
        crsearch index
        crsearch --release 2020-01-01 index
    """
    started = time.perf_counter()
    stored = rules(ctx).index()
    click.echo(f"Indexed {stored.effective_date} in {time.perf_counter() - started:.1f} s.")
    from crsearch.search.semantic import missing

    why = missing(stored.index_dir)
    if why:
        click.echo(f"Warning: no embeddings, questions use the lexical ranking ({why})", err=True)


def register(cli: click.Group) -> None:
    """Add the search commands to the ``crsearch`` group."""
    for command in (search, define, keyword, keywords, index_cmd):
        cli.add_command(command)
