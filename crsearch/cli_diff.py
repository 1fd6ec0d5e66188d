"""The ``diff`` and ``history`` commands: what changed between releases.

Only click and the standard library are imported at load time: ``cli.py``
loads this module to list its commands, so ``crsearch.diff`` and the stored
releases are read inside the commands.  The terminal rendering lives here
too, next to the only commands that show it.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from crsearch.completion import complete_rule_ids


def _cli():
    from crsearch import cli

    return cli


def _state(ctx: click.Context) -> Any:
    return ctx.find_object(_cli().State)


def _styled() -> bool:
    """Whether the text will keep its colours (a terminal, and no NO_COLOR)."""
    return _cli()._color() is not False and sys.stdout.isatty()


# -- rendering -------------------------------------------------------------

_CONTEXT = 12  # unchanged words kept on each side of a change
_LONG = 60  # unchanged runs longer than this (the creature types) are shortened


def _elide(text: str, keep_head: bool, keep_tail: bool) -> str:
    """A long unchanged run cut to the words next to the changes ("… ")."""
    words = text.split(" ")
    if len(words) <= _LONG or "\n" in text:
        return text
    head = " ".join(words[:_CONTEXT]) + " … " if keep_head else "… "
    tail = " ".join(words[-_CONTEXT:]) if keep_tail else ""
    if not keep_tail:
        head = head.rstrip() if keep_head else "…"
    return head + tail


def render_segments(segments: list[tuple[str, str]], color: bool) -> str:
    """A word diff inline: deletions red and struck through, insertions green;
    ``[-deleted-]`` and ``{+inserted+}`` when there is no colour.  Long
    unchanged runs are shortened to the words around the changes."""
    out = []
    last = len(segments) - 1
    for k, (op, text) in enumerate(segments):
        if op == "equal":
            out.append(_elide(text, keep_head=k > 0, keep_tail=k < last) if last else text)
        elif color:
            out.append(click.style(text, fg="red", strikethrough=True) if op == "delete"
                       else click.style(text, fg="green", underline=True))
        else:
            out.append(f"[-{text}-]" if op == "delete" else f"{{+{text}+}}")
    return "".join(out)


def _field_lines(field: str, segments: list[tuple[str, str]], color: bool) -> list[str]:
    """One changed field, indented; of the examples only those that changed."""
    if field != "examples":
        text = render_segments(segments, color)
        return _indent("Heading: " + text if field == "heading" else text)
    lines: list[list[tuple[str, str]]] = [[]]
    for op, text in segments:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                lines.append([])
            if part:
                lines[-1].append((op, part))
    return [line for segs in lines if any(op != "equal" for op, _ in segs)
            for line in _indent("Example: " + render_segments(segs, color))]


def _id(text: str) -> str:
    return click.style(text, fg="cyan", bold=True)


def _dim(text: str) -> str:
    return click.style(text, dim=True)


def _indent(text: str, prefix: str = "    ") -> list[str]:
    return [prefix + line for line in text.split("\n")]


def _label(c: Any) -> str:
    if c.kind == "glossary":
        old, new = (c.old or {}).get("term"), (c.new or {}).get("term")
        if c.op == "moved":
            return _id(f"“{old}”") + " → " + _id(f"“{new}”")
        return _id(f"“{new or old}”")
    if c.op == "moved":
        return _id(c.old_id) + " → " + _id(c.new_id)
    return _id(c.id)


_VERB = {"added": "added", "removed": "removed", "changed": "changed",
         "retitled": "retitled", "moved": "renumbered"}


def _span(ids: list[str]) -> str:
    """"310.8b–g" for a run of sibling subrules, else the ids joined."""
    if len(ids) > 2 and all(i.rstrip("abcdefghijkmnpqrstuvwxyz") == ids[0].rstrip(
            "abcdefghijkmnpqrstuvwxyz") for i in ids):
        return f"{ids[0]}–{ids[-1][len(ids[0].rstrip('abcdefghijkmnpqrstuvwxyz')):]}"
    return ", ".join(ids)


_NAMES = {"section": ("section", "sections"), "chapter": ("chapter", "chapters"),
          "rule": ("rule", "rules"), "subrule": ("subrule", "subrules"),
          "glossary": ("glossary entry", "glossary entries")}


def _things(per: list[tuple[int, str]]) -> str:
    words = [f"{n} {_NAMES[k][n != 1]}" for n, k in per]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _summary(diff: Any) -> str:
    """"Added 3 rules and 6 subrules; changed 2 rules (1 only ...); ..." in one line."""
    counts = diff.counts()
    parts = []
    for op in ("added", "removed", "changed", "moved", "retitled"):
        per = [(counts[k][op], k) for k in _NAMES if counts[k][op]]
        if not per:
            continue
        part = f"{_VERB[op]} {_things(per)}"
        mine = [c for c in diff.changes if c.op == op]
        if op == "changed":
            quiet = [c for c in mine if c.noise]
            if quiet:
                part += f" ({len(quiet)} only in typography or renumbered references)"
        if op == "moved":
            also = [c for c in mine if c.fields and not c.noise]
            if also:
                part += f" ({len(also)} also changed)"
        parts.append(part)
    text = "; ".join(parts) if parts else "no differences"
    return text[0].upper() + text[1:] + "."


def render_diff(diff: Any, color: bool) -> str:
    """The terminal view of a ReleaseDiff: a summary, then each change."""
    from crsearch.diff import group_moves

    out = [click.style(f"Comprehensive Rules {diff.old_date} → {diff.new_date}", bold=True),
           _summary(diff)]
    for note in diff.notes:
        out.append(click.style(f"Note: {note}", fg="yellow"))
    quiet: dict[str, list[str]] = {"typography": [], "renumbering": []}
    glossary_heading = False
    for c, carried in group_moves(diff.changes):
        if c.noise and c.op in ("changed", "retitled"):
            name = (c.new or {}).get("term") if c.kind == "glossary" else c.id
            quiet["typography" if c.cosmetic else "renumbering"].append(name)
            continue
        if c.kind == "glossary" and not glossary_heading:
            out += ["", click.style("Glossary", bold=True)]
            glossary_heading = True
        verb = "renamed" if c.op == "moved" and c.kind == "glossary" else _VERB[c.op]
        if c.op == "moved" and set(c.fields) - {"heading"}:
            verb += ", typography changed" if c.cosmetic else (
                ", references renumbered" if c.renumbering else " and changed")
        head = f"{_label(c)}  {_dim(verb)}"
        if carried and c.kind == "chapter":
            n = len(carried)
            head += _dim(f" (with its {n} rule{'s' * (n != 1)} and subrules)"
                         if any(x.kind == "subrule" for x in carried)
                         else f" (with its {n} rule{'s' * (n != 1)})")
        elif carried:
            head += _dim(f" (with {_span([x.old_id for x in carried])} → "
                         f"{_span([x.new_id for x in carried])})")
        out += ["", head]
        if c.kind in ("section", "chapter"):
            if c.op == "retitled":
                out += _indent(render_segments(c.fields["title"], color))
            else:
                out += _indent((c.new or c.old)["title"])
            continue
        if c.op in ("added", "removed"):
            data = c.new or c.old
            out += _indent(data["text"])
            if c.kind != "glossary":
                out += [line for e in data["examples"] for line in _indent("Example: " + e)]
            continue
        for field, segs in c.fields.items():
            out += _field_lines(field, segs, color)
    if quiet["renumbering"]:
        out += ["", _dim("Only references to renumbered rules changed: ")
                + ", ".join(quiet["renumbering"])]
    if quiet["typography"]:
        out += ["", _dim(f"Only typography changed ({len(quiet['typography'])}; "
                         "hide with --no-cosmetic): ") + ", ".join(quiet["typography"])]
    return "\n".join(out)


def render_history(target: str, entries: list[Any], releases: int, color: bool) -> str:
    current = entries[-1].id if entries[-1].event != "removed" else None
    out = [click.style(f"Rule {target}", bold=True)
           + _dim(f" across {releases} imported release{'s' * (releases != 1)}")]
    for e in entries:
        out.append("")
        if e.event == "present":
            out.append(f"{_id(e.date)}  {_id(e.id)}  {_dim('already in the earliest imported release')}")
            out += _indent(e.text)
        elif e.event == "added":
            out.append(f"{_id(e.date)}  {_id(e.id)}  {_dim('added')}")
            out += _indent(e.text)
        elif e.event == "removed":
            out.append(f"{_id(e.date)}  {_id(e.id)}  {_dim('removed')}")
        else:
            what = "renumbered" if e.event == "moved" else "changed"
            if e.event == "moved" and e.fields:
                what += " and changed"
            if e.cosmetic:
                what += " (typography only)"
            elif e.renumbering:
                what += " (references to renumbered rules)"
            label = f"{_id(e.old_id)} → {_id(e.id)}" if e.event == "moved" else _id(e.id)
            out.append(f"{_id(e.date)}  {label}  {_dim(what)}")
            if not (e.cosmetic or e.renumbering):
                for field, segs in e.fields.items():
                    out += _field_lines(field, segs, color)
    out.append("")
    out.append(_dim(f"Now {current}." if current else "No longer in the rules."))
    return "\n".join(out)


# -- commands --------------------------------------------------------------

def _pick_pair(state: Any, old: str | None, new: str | None) -> tuple[Any, Any]:
    """The two stored releases to compare (see ``diff --help``)."""
    from crsearch.errors import BadInput, NotFound

    store = state.store()
    stored = store.releases()
    target = store.pick(new if new is not None else state.release_date)
    if len(stored) < 2:
        raise NotFound(f"only one release ({target.effective_date}) is imported; import "
                       "another with `crsearch update --from FILE` to compare")
    if old is not None:
        before = store.pick(old)
    else:
        dates = [s.effective_date for s in stored]
        k = dates.index(target.effective_date)
        if k == 0:
            raise NotFound(f"{target.effective_date} is the earliest imported release; there "
                           "is none before it to compare with", dates[1:2])
        before = stored[k - 1]
    if before.effective_date == target.effective_date:
        raise BadInput(f"both dates select the {target.effective_date} release; give dates "
                       "in two different releases (see `crsearch releases`)")
    return before, target


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
    from crsearch.diff import diff_releases

    cli = _cli()
    before, after = _pick_pair(_state(ctx), old, new)
    result = diff_releases(before.release(), after.release()).filtered(kind, not no_cosmetic)
    if as_json:
        cli.emit_json(result.to_dict())
    else:
        cli.emit(render_diff(result, _styled()))


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
    from crsearch import numbers
    from crsearch.history import rule_history

    cli = _cli()
    state = _state(ctx)
    store = state.store()
    stored = store.releases()
    if not stored:
        store.pick()  # raises the "no releases imported" error
    target = numbers.normalize(id)
    entries = rule_history(stored, target, at=state.release_date)
    if as_json:
        cli.emit_json({"id": target, "releases": [s.effective_date for s in stored],
                       "history": [e.to_dict() for e in entries]})
    else:
        cli.emit(render_history(target, entries, len(stored), _styled()))


def register(cli: click.Group) -> None:
    """Add ``diff`` and ``history`` to the ``crsearch`` group."""
    cli.add_command(diff)
    cli.add_command(history)
