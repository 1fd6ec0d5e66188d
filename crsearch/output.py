"""Model objects to terminal text or JSON-ready data.

Text comes back as strings with ANSI styles from ``click.style``; the CLI
decides whether styles survive (terminal, NO_COLOR, pipe).
"""

from __future__ import annotations

from typing import Any, Iterable

import click

from crsearch import numbers
from crsearch.lookup import Lookup
from crsearch.model import Chapter, GlossaryEntry, Rule, Section


def _id(text: str) -> str:
    return click.style(text, fg="cyan", bold=True)


def _dim(text: str) -> str:
    return click.style(text, dim=True)


def wrap(text: str, indent: str, width: int | None) -> list[str]:
    """Paragraphs indented, and wrapped to ``width`` when on a terminal."""
    lines = []
    for para in text.split("\n"):
        if width:
            import textwrap  # only on a terminal; piped output is not wrapped

            lines += textwrap.wrap(para, width=max(30, width - len(indent)),
                                   initial_indent=indent, subsequent_indent=indent) or [indent]
        else:
            lines.append(indent + para)
    return lines


def heading_line(item: Any) -> str:
    if isinstance(item, Section):
        return f"{item.id}. {item.title}"
    if isinstance(item, Chapter):
        return f"{item.id}. {item.title}"
    raise TypeError(item)


def rule_label(rule: Rule) -> str:
    return f"{rule.id}." if rule.kind == "rule" else rule.id


def render_lookup(found: Lookup, width: int | None = None) -> str:
    """The rules of a lookup as a reader would want them on a terminal.

    A dim context line (section › chapter › rule) stands above a rule or
    subrule whenever it is not already shown by what came just before.
    """
    out: list[str] = []
    chapter: str | None = None  # the chapter whose context is on screen
    rule: str | None = None  # the rule whose subrules follow

    def context(id: str) -> None:
        if out:
            out.append("")
        out.append(_dim(" › ".join(f"{i}. {t}" if t else i for i, t in found.context(id))))

    for item in found.items:
        if isinstance(item, (Section, Chapter)):
            if out:
                out.append("")
            if isinstance(item, Chapter):
                out.append(_dim(" › ".join(f"{i}. {t}" for i, t in found.context(item.id))))
                chapter, rule = item.id, None
            out.append(click.style(heading_line(item), bold=True))
            continue
        if item.kind == "rule":
            if item.chapter != chapter:
                context(item.id)
            elif out:
                out.append("")
            chapter, rule = item.chapter, item.id
        else:
            parent = numbers.parent(item.id)
            if parent != rule:
                context(item.id)
                chapter, rule = item.chapter, parent
        indent = "" if item.kind == "rule" else "  "
        body = wrap(item.text, indent + " " * (len(rule_label(item)) + 1), width)
        first = body[0].lstrip() if body else ""
        out.append(f"{indent}{_id(rule_label(item))} {first}")
        out += body[1:]
        for ex in item.examples:
            ex_lines = wrap("Example: " + ex, indent + "    ", width)
            out += [click.style(line, italic=True) for line in ex_lines]
        if item.cited_by:
            out.append(_dim(f"{indent}    cited by: {', '.join(item.cited_by[:12])}"
                            + (" …" if len(item.cited_by) > 12 else "")))
    out.append("")
    out.append(_dim(f"Comprehensive Rules effective {found.release}"))
    return "\n".join(out)


def item_json(item: Any, release: str) -> dict[str, Any]:
    """The ``rule --json`` contract for one section, chapter or rule."""
    from crsearch.refs import cited_ids

    if isinstance(item, (Section, Chapter)):
        return {"id": item.id, "kind": item.kind, "title": item.title, "text": "",
                "examples": [], "references": [], "cited_by": item.cited_by,
                "release": release}
    if isinstance(item, GlossaryEntry):
        return {"id": item.id, "kind": "glossary", "title": item.term, "text": item.text,
                "aliases": item.aliases, "obsolete": item.obsolete, "senses": item.senses,
                "examples": item.examples, "references": cited_ids(item),
                "cited_by": item.cited_by, "release": release}
    return {"id": item.id, "kind": item.kind, "title": item.title, "text": item.text,
            "examples": item.examples, "references": cited_ids(item),
            "cited_by": item.cited_by, "release": release}


def render_toc(rows: Iterable[tuple[int, str, str]]) -> str:
    """Rows of (depth, id, title) as an indented table of contents."""
    def label(id: str) -> str:
        return id if numbers.kind(id) == "subrule" else id + "."

    return "\n".join(f"{'  ' * depth}{_id(label(id))} {title}" for depth, id, title in rows)


def render_releases(rows: list[dict[str, Any]], current: str | None) -> str:
    out = []
    for r in rows:
        c = r["counts"]
        mark = "*" if r["effective_date"] == current else " "
        flag = "" if r.get("complete", True) else click.style("  incomplete", fg="yellow")
        out.append(f"{mark} {_id(r['effective_date'])}  {c['rules']:>5} rules "
                   f"{c['subrules']:>5} subrules {c['glossary']:>4} glossary{flag}")
    return "\n".join(out)


def render_report(report: dict[str, Any]) -> str:
    lines = [click.style(f"Comprehensive Rules effective {report['effective_date']}", bold=True)]
    for key in ("sections", "chapters", "rules", "subrules", "examples", "glossary"):
        lines.append(f"  {key:<22}{report[key]:>6,}")
    lines.append(f"  {'unplaced lines':<22}{report['unplaced_lines']:>6,}")
    lines.append(f"  {'complete':<22}{'yes' if report['complete'] else 'NO':>6}")
    src = report.get("source") or {}
    if src.get("encoding"):
        lines.append(f"  {'source':<22}{src.get('name', '')} ({src['encoding']}"
                     f"{', BOM' if src.get('bom') else ''}, {'+'.join(src.get('line_endings', []))})")
    if report["unresolved_references"]:
        lines.append("")
        lines.append(click.style("Unresolved references", bold=True))
        for u in report["unresolved_references"]:
            lines.append(f"  {_id(u['from'])}: “{u['text']}” names {', '.join(u['missing'])}")
    if report["anomalies"]:
        lines.append("")
        lines.append(click.style("Anomalies in the source", bold=True))
        for a in report["anomalies"]:
            lines.append(f"  line {a['line']:>5}  {a['kind']}: {a['message']}")
    return "\n".join(lines)


def report_of(release: Any) -> dict[str, Any]:
    """The ``report --json`` contract."""
    from crsearch.refs import unresolved

    return {
        "effective_date": release.effective_date,
        **release.counts(),
        "unplaced_lines": len(release.unplaced),
        "unplaced": [{"line": n, "text": t} for n, t in release.unplaced],
        "unresolved_references": unresolved(release),
        "complete": release.complete,
        "anomalies": [a.to_dict() for a in release.anomalies],
        "source": release.source.to_dict(),
    }
