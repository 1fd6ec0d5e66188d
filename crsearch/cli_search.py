"""The search commands: ``search``, ``define``, ``keyword``, ``keywords``, ``index``.

Only click and the standard library are imported at load time: ``cli.py``
registers these commands on every run, including a plain rule lookup, so
Whoosh and the search modules are imported inside the commands.
"""

from __future__ import annotations

import time
from typing import Any

import click


def _cli():
    from crsearch import cli

    return cli


def _hl(text: str, marks: list[tuple[int, int]]) -> str:
    """``text`` with the matched words in bold yellow."""
    out, last = [], 0
    for a, b in marks:
        out.append(text[last:a])
        out.append(click.style(text[a:b], fg="yellow", bold=True))
        last = b
    out.append(text[last:])
    return "".join(out)


def _wrap_marked(text: str, marks: list[tuple[int, int]], indent: str,
                 width: int | None) -> list[str]:
    """Wrap ``text`` to ``width`` keeping highlight spans on the right lines."""
    if not width:
        return [indent + _hl(text, marks)]
    avail = max(30, width - len(indent))
    lines, start = [], 0
    while start < len(text):
        end = len(text) if len(text) - start <= avail else text.rfind(" ", start, start + avail)
        if end <= start:
            end = min(len(text), start + avail)
        seg_marks = [(a - start, b - start) for a, b in marks if a >= start and b <= end]
        lines.append(indent + _hl(text[start:end], seg_marks))
        start = end + 1 if end < len(text) and text[end] == " " else end
    return lines


def why_line(why: dict[str, Any]) -> str:
    """One line saying why a hit matched (``search --why``)."""
    parts = []
    if why.get("found_by") and why["found_by"] != "words":
        parts.append(why["found_by"])
    if why.get("words"):
        parts.append("words: " + ", ".join(why["words"]))
    for s in why.get("slang", ()):
        parts.append(f"slang “{s['words']}” → " + ", ".join(s["rules"]))
    sem = why.get("semantic")
    if sem:
        parts.append(f"meaning: similarity {sem['similarity']:.2f} (#{sem['rank']})")
    return "why: " + ("; ".join(parts) or "no word in common")


def understood_line(understood: dict[str, Any]) -> str:
    """How the query was read (``search --why``)."""
    parts = ["a question" if understood.get("question") else
             ("pasted text" if understood.get("passage") else
              ("rule numbers" if understood.get("rule_numbers") else "words"))]
    if understood.get("card_names"):
        parts.append("card names left out: " + ", ".join(understood["card_names"]))
    if understood.get("slang"):
        parts.append("slang: " + ", ".join(f"{s['words']} → {s['rules']}"
                                            for s in understood["slang"]))
    if understood.get("question"):
        parts.append("semantic: " + understood.get("semantic", "not used"))
    return "Read as " + "; ".join(parts)


def render_search(result: Any, width: int | None, why: bool = False) -> str:
    out: list[str] = []
    if why:
        out.append(click.style(understood_line(result.understood), dim=True))
    if result.suggestion:
        out.append(click.style(f"Did you mean: {result.suggestion}?", fg="magenta")
                   + click.style(f"  (showing results for “{result.suggestion}”)", dim=True))
    for note in result.notes:
        out.append(click.style(f"Note: {note}", dim=True))
    for n, hit in enumerate(result.results, 1):
        if out:
            out.append("")
        if hit.kind == "glossary":
            head = (f"{n:>2}. " + click.style(hit.title, fg="cyan", bold=True)
                    + click.style("  glossary", dim=True))
        else:
            head = (f"{n:>2}. " + click.style(hit.id, fg="cyan", bold=True)
                    + click.style(f"  {hit.kind}", dim=True)
                    + (f" · {click.style(hit.title, bold=True)}" if hit.title else ""))
        out.append(head)
        if hit.parent:
            out.append(click.style(f"    in {hit.parent}", dim=True))
        out += _wrap_marked(hit.snippet, hit.highlights, "    ", width)
        if why:
            out.append(click.style("    " + why_line(hit.why), fg="green"))
    out.append("")
    out.append(click.style(f"Comprehensive Rules effective {result.release}", dim=True))
    return "\n".join(out)


def _engine(state):
    from crsearch.search import engine_for

    return engine_for(state.stored())


# -- search ------------------------------------------------------------------
@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", type=click.IntRange(1, 200), default=10, show_default=True,
              help="How many results to show.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--why", is_flag=True,
              help="Show why each result matched: words, slang read as rules wording, meaning.")
@click.pass_context
def search(ctx: click.Context, query: tuple[str, ...], limit: int, as_json: bool,
           why: bool) -> None:
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
        crsearch search "my opponent bounced my creature, do the counters stay?" --why
    """
    from crsearch.errors import BadInput, NotFound

    cli = _cli()
    text = " ".join(query)
    if not text.strip():
        raise BadInput("the query is empty: type a rule number, a keyword, a term or a question")
    state = ctx.find_object(cli.State)
    result = _engine(state).search(text, limit)
    if as_json:
        cli.emit_json(result.to_dict(why=why))
        if not result.results:
            ctx.exit(1)
        return
    if not result.results:
        hint = [result.suggestion] if result.suggestion else []
        raise NotFound(f"nothing in the {result.release} rules matches {text[:80]!r}", hint)
    cli.emit(render_search(result, cli._width(), why))


# -- define ------------------------------------------------------------------
@click.command()
@click.argument("term", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def define(ctx: click.Context, term: tuple[str, ...], as_json: bool) -> None:
    """Show the glossary entry for TERM (case, plurals and typos forgiven).

    \b
    Example:
        crsearch define lethal damage
        crsearch define apnap
        crsearch define "last known information" --json
    """
    from crsearch.errors import CRSearchError
    from crsearch.search import define as find

    cli = _cli()
    state = ctx.find_object(cli.State)
    release = state.stored().release()
    entry = find(release, " ".join(term))
    if as_json:
        from crsearch.output import item_json

        cli.emit_json(item_json(entry, release.effective_date))
        return
    import re

    from crsearch.output import wrap
    from crsearch.refs import cited_ids

    width = cli._width()
    lines: list[str] = []
    shown = []
    while entry is not None and entry not in shown and len(shown) < 3:
        shown.append(entry)
        if lines:
            lines.append("")
        lines.append(click.style(entry.heading, bold=True))
        lines += wrap(entry.text, "  ", width)
        targets = cited_ids(entry)
        if targets:
            lines.append(click.style(f"  rules: {', '.join(targets)}", fg="cyan"))
        # "APNAP Order: See Active Player, Nonactive Player Order." shows both.
        see = re.fullmatch(r"See ([^.]+)\.?", entry.text.strip())
        entry = None
        if see:
            try:
                entry = find(release, see.group(1))
            except CRSearchError:
                entry = None
    lines += ["", click.style(f"Comprehensive Rules effective {release.effective_date}", dim=True)]
    cli.emit("\n".join(lines))


# -- keyword, keywords -------------------------------------------------------
def _keyword_rules(stored) -> list:
    return stored.chapter_rules("701") + stored.chapter_rules("702")


@click.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def keyword(ctx: click.Context, name: tuple[str, ...], as_json: bool) -> None:
    """Show a keyword ability or action with all its subrules.

    \b
    Example:
        crsearch keyword trample
        crsearch keyword "first strike"
        crsearch keyword scry --json
    """
    from crsearch.lookup import Library
    from crsearch.search import keyword_rules

    cli = _cli()
    stored = ctx.find_object(cli.State).stored()
    rule = keyword_rules(_keyword_rules(stored), " ".join(name))
    found = Library(stored).lookup([rule.id])
    if as_json:
        from crsearch.output import item_json

        cli.emit_json([item_json(i, found.release) for i in found.items])
    else:
        from crsearch.output import render_lookup

        cli.emit(render_lookup(found, cli._width()))


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
    from crsearch.search import keywords as listing

    cli = _cli()
    stored = ctx.find_object(cli.State).stored()
    rows = listing(_keyword_rules(stored))
    if as_json:
        cli.emit_json([{"id": i, "title": t,
                        "kind": "action" if i.startswith("701.") else "ability"}
                       for i, t in rows])
        return
    out = []
    for chapter, label in (("701", "Keyword actions"), ("702", "Keyword abilities")):
        out.append(click.style(f"{chapter}. {label}", bold=True))
        out += [f"  {click.style(i, fg='cyan'):<10} {t}" for i, t in rows
                if i.startswith(chapter + ".")]
        out.append("")
    out.append(click.style(f"Comprehensive Rules effective {stored.effective_date}", dim=True))
    cli.emit("\n".join(out))


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
    from crsearch import update

    cli = _cli()
    state = ctx.find_object(cli.State)
    store = state.store()
    stored = store.pick(state.release_date)
    started = time.perf_counter()
    update.reindex(store, stored)
    click.echo(f"Indexed {stored.effective_date} in {time.perf_counter() - started:.1f} s.")
    from crsearch import embed

    if not (stored.index_dir / embed.META).exists():
        try:
            embed.model_files()
            why = "see `crsearch search --why`"
        except embed.EmbeddingsUnavailable as e:
            why = str(e)
        click.echo(f"Warning: no embeddings, questions use the lexical ranking ({why})", err=True)


def register(cli: click.Group) -> None:
    """Add the search commands to the ``crsearch`` group."""
    for command in (search, define, keyword, keywords, index_cmd):
        cli.add_command(command)
