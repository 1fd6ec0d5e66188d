"""The judge's desk: ``explain``, ``cite-check`` and ``completion``, and the overview.

Only click and the standard library are imported at load time; the commands
import what they need.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from crsearch.cli.common import cite_options, emit, emit_json, rules, width


def _read_stdin(limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of stdin: reading stops after the limit, so
    a huge input costs no memory; the caller sees one byte too many and says
    the input is too large."""
    return sys.stdin.buffer.read(limit + 1)


# -- explain -------------------------------------------------------------------

def _highlight(text: str, terms: list[dict[str, Any]]) -> str:
    """The text with each term in yellow and each reading of an ability
    underlined (a reading may hold terms), its number after its last word."""
    from crsearch.desk.explain import READING_KINDS

    cuts = sorted({0, len(text)} | {x for t in terms for x in t["span"]})
    # Numbers at the same place: the inner term's first.
    ends: dict[int, list[tuple[int, int]]] = {}
    for n, t in enumerate(terms, 1):
        ends.setdefault(t["span"][1], []).append((-t["span"][0], n))
    out = []
    for a, b in zip(cuts, cuts[1:]):
        inside = [t for t in terms if t["span"][0] <= a and b <= t["span"][1]]
        word = any(t["kind"] not in READING_KINDS for t in inside)
        reading = any(t["kind"] in READING_KINDS for t in inside)
        out.append(click.style(text[a:b], fg="yellow" if word else None, bold=word or None,
                               underline=reading or None) if inside else text[a:b])
        out += [click.style(f"[{n}]", dim=True) for _, n in sorted(ends.get(b, []))]
    return "".join(out)


def render_explain(result: dict[str, Any], width: int | None, tty: bool) -> str:
    """The card text with its terms highlighted (on a terminal), then the list."""
    from crsearch.cli.output import wrap

    lines: list[str] = []
    if result.get("card"):
        lines += [click.style(result["card"], bold=True)
                  + click.style(f"  (Oracle text, card data {result['cards_date']})", dim=True)]
        if not tty:
            lines += [result["text"], ""]
    if tty:
        lines += [_highlight(result["text"], result["terms"]), ""]
    for n, t in enumerate(result["terms"], 1):
        head = (f"{n:>2}. " + click.style(t["text"], bold=True) + "  "
                + click.style(t["id"], fg="cyan", bold=True) + click.style(f"  {t['kind']}", dim=True))
        lines.append(head)
        if t["definition"]:
            lines += wrap(t["definition"], "    ", width)
    lines += ["", click.style(f"Comprehensive Rules effective {result['release']}", dim=True)]
    return "\n".join(lines)


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@cite_options("each term")
@click.pass_context
def explain(ctx: click.Context, text: tuple[str, ...], as_json: bool, cite_fmt: str | None,
            site_url: str | None) -> None:
    """Find the rules terms in a card's text, each with its rule and definition.

    TEXT is the card's rules text, or - to read it from stdin, or a card's name
    when card data is imported (`crsearch cards update`).  Finds keyword
    abilities (with their costs: "ward {2}", "protection from red"), keyword
    actions in any form ("sacrificed", "shuffles"), card types, subtypes,
    zones, counters, steps and glossary terms, in reading order, and reads
    the abilities: triggered ("Whenever ...", 603), activated and mana
    abilities (602, 605), replacement effects ("... instead", "skip", 614),
    restrictions ("Activate only as a sorcery", 602.5d), durations ("until
    end of turn", "for as long as", 514.2, 611.2) and "can't" (101.2).  A
    multi-face text is read face by face (" // ").

    \b
    Example:
        crsearch explain "Flying, ward {2}"
        crsearch explain "Counter target spell. Put a +1/+1 counter on it." --json
        crsearch explain "{T}: Add {G}. Activate only as a sorcery."
        crsearch explain "Notion Thief"
        pbpaste | crsearch explain -
    """
    from crsearch.desk import explain as ex
    from crsearch.errors import NotFound

    if text == ("-",):
        data = _read_stdin(ex.MAX_TEXT * 4)
        if b"\x00" in data:
            from crsearch.errors import BadInput

            raise BadInput("<stdin> is binary, not text: paste a card's rules text")
        card = data.decode("utf-8", errors="replace")
    else:
        card = " ".join(text)
    result = rules(ctx).explain(card).to_dict()
    if as_json:
        emit_json(result)
        if not result["terms"]:
            ctx.exit(1)
        return
    if not result["terms"]:
        raise NotFound("no rules terms found in this text: paste a card's rules text, "
                       "such as \"Flying, ward {2}\"")
    if cite_fmt:
        from crsearch.desk import cite

        base = cite.site_url(site_url)
        anchors = cite.glossary_anchors(rules(ctx).release()) if cite_fmt == "md" else {}
        seen = []
        for t in result["terms"]:
            src = t["source"]
            if src in seen:
                continue
            seen.append(src)
            title = src.split(":", 1)[1] if src.startswith("glossary:") else None
            click.echo(cite.quote(src, t["definition"], result["release"], cite_fmt, base=base,
                                  title=title, glossary_anchor=anchors.get(src)))
        return
    tty = sys.stdout.isatty()
    emit(render_explain(result, width(), tty))


# -- cite-check ----------------------------------------------------------------

def _emit_citations_json(head: dict[str, Any], cites: list[Any]) -> None:
    """``emit_json({**head, "citations": [...]})``, written a thousand
    citations at a time: the same bytes, without the whole text in memory at
    once, and each citation's flat dict laid out directly (json.dumps with
    an indent is pure Python, and slow on a long text)."""
    import json
    from json.encoder import encode_basestring as quoted  # as json.dumps(ensure_ascii=False)

    from crsearch.rules.safetext import printable

    def value(v: Any) -> str:
        if isinstance(v, str):
            return quoted(v)
        if isinstance(v, list):  # of strings ("nearest")
            return ("[\n" + ",\n".join("        " + quoted(x) for x in v) + "\n      ]"
                    if v else "[]")
        return json.dumps(v)

    def item(d: dict[str, Any]) -> str:
        return ("\n    {\n" + ",\n".join(f"      {quoted(k)}: {value(v)}" for k, v in d.items())
                + "\n    }")

    if not cites:
        emit_json({**head, "citations": []})
        return
    empty = json.dumps({**head, "citations": []}, ensure_ascii=False, indent=2)
    out = [empty[:-len("[]\n}")] + "["]
    for k in range(0, len(cites), 1000):
        items = (item(c.to_dict()) for c in cites[k:k + 1000])
        out.append(("," if k else "") + ",".join(items))
        click.echo(printable("".join(out), json=True), nl=False)
        out = []
    click.echo("\n  ]\n}")


@click.command("cite-check")
@click.argument("file", metavar="FILE|-")
@click.option("--as-of", "as_of", metavar="DATE",
              help="Read the citations as numbered on DATE (when the text was written; "
                   "default: the date the text gives, else today).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--fix", is_flag=True,
              help="Rewrite FILE with moved citations renumbered (see above).")
@click.pass_context
def cite_check(ctx: click.Context, file: str, as_of: str | None, as_json: bool, fix: bool) -> None:
    """Check the rule citations in a text: fine, moved since, missing, or
    not the rule their words name.

    Finds citations in every form `crsearch rule` accepts (702.19c, CR 702.19c,
    rule 702.19c, §702.19c, 601.2f-h, lists) and reads each as numbered on
    --as-of.  Without it, a text that says when it was written (a dated
    heading or byline such as "posted May 23, 2013", front matter's date:,
    a post's timestamp) is read as of that date; the summary says which date
    and where it was found, or that the numbers were checked against today's
    release only.  Words next to a citation that name a rule ("the legend
    rule (704.5k)") are checked too: when they name another rule, the
    citation is a mismatch and the rule they name is given.  Prints one line
    per problem as FILE:LINE:COL, then a summary; exits with 1 when any
    citation is moved, mismatched or missing, so it can run in CI.  A
    citation is prose: numbers inside URLs, HTML tags, inline code and
    fenced code blocks are listed as skipped and never checked nor changed.

    --fix writes to the file FILE is: a symlink's target (the link stays a
    link), under every name of a hard-linked file, keeping its owner, group
    and mode.  It is replaced in one step where a new file can be all that;
    a file with hard links, someone else's shared file, or one in a folder
    that takes no new file is rewritten in place.  A read-only file, or one
    edited while the check ran, is left as it is (exit 2).  Short ranges
    stay short (601.2a-h).

    \b
    Example:
        crsearch cite-check article.md
        crsearch cite-check notes.txt --as-of 2015-06-01 --json
        crsearch cite-check old-article.md --as-of 2003-06-01 --fix
    """
    from crsearch.desk import citecheck
    from crsearch.errors import BadInput

    if fix and file == "-":
        raise BadInput("--fix rewrites a file; it cannot rewrite stdin")
    snap = None
    if file == "-":
        data, name = _read_stdin(citecheck.MAX_BYTES), "<stdin>"
    else:
        snap = citecheck.read_file(file)
        data, name = snap.data, file
    text, encoding = citecheck.read_text(data, name)
    if fix and snap is not None:
        citecheck.check_writable(snap)  # before the check, which may take a while
    result = rules(ctx).cite_check(text, as_of)
    cites = result.citations
    if as_json:
        head = result.to_dict()
        del head["citations"]
        _emit_citations_json(head, cites)
    else:
        from crsearch.cli.output import render_cite_check

        click.echo(render_cite_check(result, name))
    if fix and snap is not None:
        new = citecheck.renumbered(text, cites)
        if new != text:
            citecheck.replace_file(snap, citecheck.encode(new, encoding))
            if not as_json:
                click.echo(f"Renumbered {result.count('moved')} citation(s) in {name}.")
    if result.problems:
        ctx.exit(1)


# -- completion ----------------------------------------------------------------

@click.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Print the shell completion script for bash, zsh or fish.

    Completes commands, options, rule numbers (rule, history) and glossary
    terms and keywords (define, keyword) from the stored release.

    \b
    Example:
        eval "$(crsearch completion bash)"
        crsearch completion zsh > ~/.zfunc/_crsearch
        crsearch completion fish > ~/.config/fish/completions/crsearch.fish
    """
    from crsearch.cli.completion import script

    click.echo(script(ctx.find_root().command, shell))


# -- crsearch alone -------------------------------------------------------------

def overview(ctx: click.Context) -> str:
    """What ``crsearch`` alone shows: the commands and the stored releases."""
    from crsearch.errors import CRSearchError

    group = ctx.command
    assert isinstance(group, click.Group)
    lines = [click.style("crsearch", bold=True)
             + " — the Magic: The Gathering Comprehensive Rules, offline.", ""]
    state = ctx.obj
    try:
        store = state.store()
        rows = store.catalog()
    except CRSearchError as e:
        rows, store = [], None
        lines.append(f"Releases: unreadable ({e})")
    if store is not None and rows:
        lines.append(f"Releases: {len(rows)} stored in {store.root} "
                     f"({rows[0]['effective_date']} … {rows[-1]['effective_date']}).")
        try:
            current = store.pick(state.release_date).effective_date
            lines[-1] = lines[-1][:-1] + f"; using {click.style(current, fg='cyan', bold=True)}."
        except CRSearchError as e:
            lines.append(f"--release {state.release_date}: {e}")
        try:
            from crsearch.cards.store import CardStore

            data = CardStore(store).current()
            lines.append(f"Card data: {data.date} ({data.count:,} cards)." if data is not None else
                         "Card data: none (crsearch cards update imports it).")
        except CRSearchError as e:
            lines.append(f"Card data: unreadable ({e})")
    elif store is not None:
        lines.append(f"Releases: none stored in {store.root} yet. Import one first:")
        lines.append("  crsearch update                  # the current release, downloaded")
        lines.append("  crsearch update --from FILE.txt  # a release you have")
    lines += ["", "Commands:"]
    names = group.list_commands(ctx)
    width = max(len(n) for n in names)
    for name in names:
        cmd = group.get_command(ctx, name)
        if cmd is None or cmd.hidden:
            continue
        lines.append(f"  {click.style(name.ljust(width), fg='cyan')}  {cmd.get_short_help_str(70)}")
    lines += ["", "Try:",
              "  crsearch rule 702.19c",
              "  crsearch search \"can a tapped creature block\"",
              "  crsearch explain \"Flying, ward {2}\"",
              "  crsearch card \"Notion Thief\"",
              "  crsearch cite-check article.md",
              "", "crsearch COMMAND --help tells more; crsearch --help lists the global options."]
    return "\n".join(lines)


def register(cli: click.Group) -> None:
    """Add the desk commands to the ``crsearch`` group."""
    for command in (explain, cite_check, completion):
        cli.add_command(command)
