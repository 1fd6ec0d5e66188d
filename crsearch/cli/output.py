"""Every result to terminal text: the one home of what the CLI shows.

Text comes back as strings with ANSI styles from ``click.style``; the CLI
decides whether styles survive (terminal, NO_COLOR, pipe).  JSON is not
built here: it is each result's ``to_dict()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from crsearch.rules import numbers
from crsearch.rules.model import Chapter, Section, label

if TYPE_CHECKING:
    from crsearch.api import CiteCheck, Definition, Keywords, Releases, Report, Toc, Update
    from crsearch.cards.build import CardImport
    from crsearch.cards.store import CardData
    from crsearch.changes.diff import Change, ReleaseDiff, Segment
    from crsearch.changes.history import History
    from crsearch.desk.card import CardInfo
    from crsearch.search.engine import SearchResult
    from crsearch.store.lookup import Lookup
    from crsearch.store.repair import RepairReport


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


def footer(release: str) -> str:
    """The line that closes every view: which rules were shown."""
    return _dim(f"Comprehensive Rules effective {release}")


def render_keyword(found: Lookup, width: int | None = None) -> str:
    """A keyword's rules, below the parameter typed after its name, if any
    ("protection from white": "parameter: from white")."""
    text = render_lookup(found, width)
    if not found.parameter:
        return text
    return f"{click.style('parameter:', bold=True)} {found.parameter}\n\n{text}"


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
            out.append(click.style(f"{label(item.id)} {item.title}", bold=True))
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
        body = wrap(item.text, indent + " " * (len(item.label) + 1), width)
        first = body[0].lstrip() if body else ""
        out.append(f"{indent}{_id(item.label)} {first}")
        out += body[1:]
        for ex in item.examples:
            ex_lines = wrap("Example: " + ex, indent + "    ", width)
            out += [click.style(line, italic=True) for line in ex_lines]
        if item.cited_by:
            out.append(_dim(f"{indent}    cited by: {', '.join(item.cited_by[:12])}"
                            + (" …" if len(item.cited_by) > 12 else "")))
    out.append("")
    out.append(footer(found.release))
    return "\n".join(out)


def render_toc(toc: Toc) -> str:
    """An indented table of contents."""
    return "\n".join(f"{'  ' * e.depth}{_id(label(e.id))} {e.title}" for e in toc)


def render_releases(releases: Releases) -> str:
    out = []
    if releases.cards is not None:
        footer_line = _dim(cards_line(releases.cards) + " in use (crsearch cards)")
    else:
        footer_line = _dim("No card data imported (crsearch cards update)")
    current = releases.current
    for r in releases:
        c = r["counts"]
        mark = "*" if r["effective_date"] == current else " "
        flag = "" if r.get("complete", True) else click.style("  incomplete", fg="yellow")
        out.append(f"{mark} {_id(r['effective_date'])}  {c['rules']:>5} rules "
                   f"{c['subrules']:>5} subrules {c['glossary']:>4} glossary{flag}")
    out.append(footer_line)
    return "\n".join(out)


def render_report(result: Report) -> str:
    report = result.to_dict()
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


# -- search, define, keywords ----------------------------------------------------

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


#: The least similarity at which ``--why`` names a question asked before.
ASKED_SHOWN = 0.5


def why_line(why: dict[str, Any]) -> str:
    """One line saying why a hit matched (``search --why``)."""
    parts = []
    if why.get("found_by") and why["found_by"] != "words":
        parts.append(why["found_by"])
    if why.get("words"):
        parts.append("words: " + ", ".join(why["words"]))
    for s in why.get("slang", ()):
        parts.append(f"slang “{s['words']}” → " + ", ".join(s["rules"]))
    if why.get("topic"):
        parts.append(f"topic “{why['topic']}”")
    if why.get("card"):
        parts.append(f"card {why['card']}")
    if why.get("card_text"):
        said = why["card_text"]
        words = said["words"] if len(said["words"]) <= 60 else said["words"][:60].rsplit(" ", 1)[0] + " …"
        parts.append(f"card {said['card']} says “{words}”")
    if why.get("keywords"):
        parts.append(f"keywords together: {why['keywords']}")
    sem = why.get("semantic")
    if sem:
        parts.append(f"meaning: similarity {sem['similarity']:.2f} (#{sem['rank']})")
    asked = why.get("asked")
    # A far-off question asked before is no reason a judge can use.
    if asked and asked["similarity"] >= ASKED_SHOWN:
        question = asked["question"]
        if len(question) > 70:
            question = question[:70].rsplit(" ", 1)[0] + " …"
        more = f", {asked['count'] - 1} more" if asked["count"] > 1 else ""
        parts.append(f"asked before ({asked['similarity']:.2f}{more}): “{question}”"
                     + (f" {asked['source']}" if asked.get("source") else ""))
    return "why: " + ("; ".join(parts) or "no word in common")


def understood_line(understood: dict[str, Any]) -> str:
    """How the query was read (``search --why``)."""
    parts = ["a question" if understood.get("question") else
             ("pasted text" if understood.get("passage") else
              ("rule numbers" if understood.get("rule_numbers") else "words"))]
    if understood.get("card_names"):
        parts.append("card names left out: " + ", ".join(understood["card_names"]))
    if understood.get("cards"):
        parts.append("cards: " + ", ".join(understood["cards"]))
    if understood.get("slang"):
        parts.append("slang: " + ", ".join(f"{s['words']} → {s['rules']}"
                                            for s in understood["slang"]))
    if understood.get("question"):
        parts.append("semantic: " + understood.get("semantic", "not used"))
    return "Read as " + "; ".join(parts)


def render_search(result: SearchResult, width: int | None = None, why: bool = False) -> str:
    """Ranked results with their snippets, matched words highlighted; with
    ``why``, how the query was read and why each result matched."""
    out: list[str] = []
    if why:
        out.append(click.style(understood_line(result.understood), dim=True))
    if result.suggestion:
        out.append(click.style(f"Did you mean: {result.suggestion}?", fg="magenta")
                   + click.style(f"  (showing results for “{result.suggestion}”)", dim=True))
    for note in result.notes:
        out.append(click.style(f"Note: {note}", dim=True))
    if result.cards:  # with card data imported
        out.append(click.style("Cards named: " + ", ".join(c.name for c in result.cards)
                               + "  (crsearch card NAME shows one)", dim=True))
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
    out.append(footer(result.release))
    return "\n".join(out)


def render_definition(definition: Definition, width: int | None = None) -> str:
    """A glossary entry, and the entries its "See X." leads to."""
    from crsearch.rules.refs import cited_ids

    lines: list[str] = []
    for entry in definition.chain:
        if lines:
            lines.append("")
        lines.append(click.style(entry.heading, bold=True))
        lines += wrap(entry.text, "  ", width)
        targets = cited_ids(entry)
        if targets:
            lines.append(click.style(f"  rules: {', '.join(targets)}", fg="cyan"))
    lines += ["", footer(definition.release)]
    return "\n".join(lines)


_PLURAL = {"action": "actions", "ability": "abilities"}


def render_keywords(keywords: Keywords) -> str:
    """The keyword actions, then the keyword abilities, with their numbers."""
    from crsearch.rules.glossary import KEYWORD_CHAPTERS

    out = []
    for chapter, kind in KEYWORD_CHAPTERS.items():
        out.append(click.style(f"{chapter}. Keyword {_PLURAL[kind]}", bold=True))
        out += [f"  {click.style(i, fg='cyan'):<10} {t}" for i, t in keywords
                if i.startswith(chapter + ".")]
        out.append("")
    out.append(footer(keywords.release))
    return "\n".join(out)


def update_lines(update: Update) -> list[tuple[str, bool]]:
    """What ``update`` reports, as (line, to stderr) pairs."""
    many = len(update.results) > 1
    out: list[tuple[str, bool]] = []
    for r in update.results:
        out += [(f"Warning: {r.name}: {w}", True) for w in r.warnings]
        if r.error:
            out.append((f"Error: {r.name}: {r.error}", True))
        elif r.unchanged is not None:
            if not many:
                out.append((f"{r.unchanged} ({r.name}) is already up to date.", False))
        elif not many and r.release is not None:
            c = r.release.counts()
            out.append((f"Imported {r.release.effective_date} ({r.name}): {c['rules']} rules, "
                        f"{c['subrules']} subrules, {c['glossary']} glossary entries.", False))
    if many:
        same = sum(1 for r in update.results if r.unchanged is not None)
        out.append((f"Imported {len(update.results) - update.failed - same} of "
                    f"{len(update.results)} releases into {update.root}"
                    + (f" ({same} already up to date)." if same else "."), False))
    return out


def repair_lines(report: RepairReport) -> list[str]:
    """What ``repair`` found and did, then a one-line verdict."""
    n = report.releases
    good = f"{n} release{'' if n == 1 else 's'}" + (f" and the {report.cards}" if report.cards else "")
    return [*report.lines(), f"{good} in good order"
            + ("" if report.lines() else "; nothing to repair") + "."]


# -- cite-check ------------------------------------------------------------------

#: Where a skipped citation was written, in words.
_INSIDE = {"url": "a URL", "html": "an HTML tag", "code": "code", "": "links or code"}


def render_cite_check(result: CiteCheck, name: str) -> str:
    """One ``NAME:LINE:COL: problem`` line per citation that is not fine or
    was skipped, then a summary that says which date the numbers were read
    as of and where that date came from."""
    out = []
    for c in result.citations:
        if c.status == "moved":
            msg = f"{c.id} moved -> {c.now}"
        elif c.status == "mismatch":
            msg = f"{c.id} is not what \"{c.words}\" names: that is {c.now} today"
        elif c.status == "missing":
            if c.id in result.removed:
                msg = f"{c.id} was removed in {result.removed[c.id]}"
            else:
                msg = f"{c.id} does not exist in the {result.release} rules"
            if c.now:
                said = f"\"{c.words}\"" if c.words else "its words"
                msg += f"; {said} {'name' if c.words else 'live on in'} {c.now} today"
            elif c.nearest:
                msg += f"; did you mean {', '.join(c.nearest[:3])}?"
        elif c.status == "skipped":
            msg = f"{c.id} skipped: inside {_INSIDE.get(c.inside or '', 'code')}, left as written"
        else:
            continue
        out.append(f"{name}:{c.line}:{c.column}: {msg}")
    skipped = result.count("skipped")
    n = len(result.citations) - skipped
    if not n:
        out.append(f"{name}: 0 citations checked; {skipped} skipped in links, HTML or code"
                   if skipped else f"{name}: no rule citations found")
        return "\n".join(out)
    tally = ", ".join(f"{result.count(s)} {word}" for s, word in (
        ("ok", "ok"), ("moved", "moved"), ("mismatch", "mismatched"), ("missing", "missing")))
    if skipped:
        tally += f"; {skipped} skipped in links, HTML or code"
    cites = f"{n} citation{'s' if n != 1 else ''}"
    when = result.as_of
    if when is not None and when["from"] == "text":
        words = when["words"] if len(when["words"]) <= 60 else when["words"][:59] + "…"
        head = (f"{cites} read as of {when['date']}, the date on line {when['line']} "
                f"(\"{words}\"), in the {result.release} rules")
    elif when is not None:
        head = f"{cites} read as of {when['date']} (--as-of), in the {result.release} rules"
    elif result.today_only:
        head = (f"{cites} checked against today's release ({result.release}) only: the text "
                f"has no date and no words that name the rules (give --as-of DATE if it is "
                f"older)")
    else:
        era = ""
        if result.era is not None:
            old = result.era["by"]
            era = (f"; it cites {', '.join(old[:3])}{' …' if len(old) > 3 else ''}, of the "
                   f"{result.era['date']} rules and before")
        head = (f"{cites} checked against {result.release} (the text has no date{era}; "
                f"{result.words_checked} checked by the words around them)")
    out.append(f"{name}: {head}: {tally}")
    return "\n".join(out)


# -- cards ------------------------------------------------------------------------

def cards_line(data: CardData) -> str:
    """One line naming the card data in use: date, origin, size."""
    e = data.entry
    return (f"Card data {e['date']} ({e.get('version') or e.get('kind')}, "
            f"{_count(e['count'], 'card')}, {_count(e.get('rulings', 0), 'ruling')})")


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def render_cards_status(data: CardData) -> str:
    """``crsearch cards``: which card data is in use, where it came from."""
    e = data.entry
    src = e.get("source") or {}
    lines = [click.style(cards_line(data), bold=True),
             f"  from      {src.get('url') or src.get('name', '')}",
             f"  faces     {e.get('faces', 0):,} cards with more than one face",
             f"  stored in {data.dir}",
             _dim("Card texts are Wizards of the Coast's, under its Fan Content Policy; "
                  "MTGJSON's data is MIT licensed.")]
    return "\n".join(lines)


def cards_update_lines(result: CardImport) -> list[tuple[str, bool]]:
    """What ``cards update`` reports, as (line, to stderr) pairs."""
    out = [(f"Warning: {w}", True) for w in result.warnings]
    e = result.entry
    name = (e.get("source") or {}).get("name", "")
    if result.unchanged:
        out.append((f"Card data {e['date']} ({name}) is already up to date.", False))
    else:
        out.append((f"Imported card data {e['date']} ({name}, {e.get('version') or e.get('kind')}): "
                    f"{_count(e['count'], 'card')}, {e.get('faces', 0):,} with several faces, "
                    f"{_count(e.get('rulings', 0), 'ruling')}.", False))
    return out


def render_card(info: CardInfo, width: int | None = None, tty: bool = False) -> str:
    """A card as a judge reads it: each face, its rulings, then the rules its words use."""
    d = info.to_dict()
    out: list[str] = []
    faces = d["faces"]
    for n, face in enumerate(faces):
        if n:
            out.append(_dim("//"))
        head = click.style(face["name"], bold=True)
        if face["mana_cost"]:
            head += "  " + face["mana_cost"]
        out.append(head)
        if face["type_line"]:
            stats = _face_stats(face)
            out.append(face["type_line"] + (f"  {stats}" if stats else ""))
        if face["text"]:
            out += wrap(face["text"], "", width)
    if len(faces) > 1:
        out.insert(0, _dim(f"{d['name']}  ({d['layout'] or 'card'}: {len(faces)} faces)"))
    if d["rulings"]:
        out += ["", click.style("Rulings", bold=True)]
        for r in d["rulings"]:
            out += wrap(r["text"], "  " + _dim(r["date"] or "          ") + "  ", width)
    if d["terms"]:
        out += ["", click.style("Rules its words use", bold=True)]
        # Each rule once, where its words first stand (the JSON keeps every span).
        shown = {(t["id"], t["term"]): t for t in reversed(d["terms"])}
        for n, t in enumerate(sorted(shown.values(), key=lambda t: t["span"][0]), 1):
            out.append(f"{n:>2}. " + click.style(t["text"], bold=True) + "  " + _id(t["id"])
                       + _dim(f"  {t['kind']}"))
            if t["definition"]:
                out += wrap(t["definition"], "    ", width)
    foot = f"Card data {d['cards_date']}"
    out += ["", _dim(foot + (f"; Comprehensive Rules effective {d['release']}" if d["release"]
                             else "; no rules imported, so no rules shown"))]
    return "\n".join(out)


def _face_stats(face: dict[str, Any]) -> str:
    if face.get("power") is not None or face.get("toughness") is not None:
        return f"{face.get('power') or ''}/{face.get('toughness') or ''}"
    if face.get("loyalty") is not None:
        return f"Loyalty {face['loyalty']}"
    if face.get("defense") is not None:
        return f"Defense {face['defense']}"
    return ""


# -- diff and history ---------------------------------------------------------

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


def render_segments(segments: list[Segment], color: bool) -> str:
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


def _field_lines(field: str, segments: list[Segment], color: bool) -> list[str]:
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


def _indent(text: str, prefix: str = "    ") -> list[str]:
    return [prefix + line for line in text.split("\n")]


def _label(c: Change) -> str:
    if c.kind == "glossary":
        old = c.old.term if c.old else None
        new = c.new.term if c.new else None
        if c.op == "moved":
            return _id(f"“{old}”") + " → " + _id(f"“{new}”")
        return _id(f"“{new or old}”")
    if c.op == "moved":
        return _id(c.old_id or "") + " → " + _id(c.new_id or "")
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


def _summary(diff: ReleaseDiff) -> str:
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


def render_diff(diff: ReleaseDiff, color: bool) -> str:
    """The terminal view of a ReleaseDiff: a summary, then each change."""
    from crsearch.changes.diff import group_moves

    out = [click.style(f"Comprehensive Rules {diff.old_date} → {diff.new_date}", bold=True),
           _summary(diff)]
    for note in diff.notes:
        out.append(click.style(f"Note: {note}", fg="yellow"))
    quiet: dict[str, list[str]] = {"typography": [], "renumbering": []}
    glossary_heading = False
    for c, carried in group_moves(diff.changes):
        if c.noise and c.op in ("changed", "retitled"):
            name = (c.new.term or "") if c.kind == "glossary" and c.new else c.id
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
            head += _dim(f" (with {_span([x.old_id or '' for x in carried])} → "
                         f"{_span([x.new_id or '' for x in carried])})")
        out += ["", head]
        side = c.new or c.old
        assert side is not None
        if c.kind in ("section", "chapter"):
            if c.op == "retitled":
                out += _indent(render_segments(c.fields["title"], color))
            else:
                out += _indent(side.title or "")
            continue
        if c.op in ("added", "removed"):
            out += _indent(side.text)
            if c.kind != "glossary":
                out += [line for e in side.examples for line in _indent("Example: " + e)]
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


def render_history(history: History, color: bool) -> str:
    """Each version of one rule, oldest first, with what changed at each step."""
    entries, releases = history.entries, len(history.releases)
    current = entries[-1].id if entries[-1].event != "removed" else None
    out = [click.style(f"Rule {history.id}", bold=True)
           + _dim(f" across {releases} imported release{'s' * (releases != 1)}")]
    for e in entries:
        out.append("")
        if e.event == "present":
            out.append(f"{_id(e.date)}  {_id(e.id)}  {_dim('already in the earliest imported release')}")
            out += _indent(e.text or "")
        elif e.event == "added":
            out.append(f"{_id(e.date)}  {_id(e.id)}  {_dim('added')}")
            out += _indent(e.text or "")
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
            ids = f"{_id(e.old_id or '')} → {_id(e.id)}" if e.event == "moved" else _id(e.id)
            out.append(f"{_id(e.date)}  {ids}  {_dim(what)}")
            if not (e.cosmetic or e.renumbering):
                for field, segs in e.fields.items():
                    out += _field_lines(field, segs, color)
    out.append("")
    out.append(_dim(f"Now {current}." if current else "No longer in the rules."))
    return "\n".join(out)
