"""Cross-references: what every rule and glossary entry cites, and what cites it.

References are found in rule text, examples and glossary definitions by
``numbers.find_references``; here they are resolved against the ids that exist
in one release.  A reference to something that does not exist is kept, with
the missing id, and reported; it is never dropped.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from crsearch.rules import numbers
from crsearch.rules.model import GlossaryEntry, Reference, Release, Rule

_COMMA_TYPO = re.compile(r"(\brule \d{3}),(?=\d)")
_DIGIT = re.compile(r"\d")


def references_in(text: str, existing: list[str], exists: set[str],
                  keys: list[tuple] | None = None) -> list[Reference]:
    """Every reference printed in ``text``, resolved against ``existing`` ids.

    ``existing`` is in rule order; ``keys`` (their sort keys) lets ranges
    look only at the ids between their ends.
    """
    found: list[Reference] = []
    if not _DIGIT.search(text):  # most paragraphs cite nothing
        return found
    # "See rule 419,8" (2003-2004) means 419.8; the swap keeps offsets intact.
    original = text
    text = _COMMA_TYPO.sub(r"\1.", text)
    for start, end, _printed, spans in numbers.find_references(text):
        printed = original[start:end]
        targets: list[str] = []
        missing: list[str] = []
        for span in spans:
            members = span_targets(span, existing, exists, keys)
            for endpoint in {span.start, span.end}:
                if endpoint not in exists:
                    missing.append(endpoint)
            for m in members:
                if m not in targets:
                    targets.append(m)
        found.append(Reference(printed, targets, missing))
    return found


def cited_spans(text: str) -> list[numbers.Span]:
    """The spans of every reference printed in ``text`` (what
    ``references_in`` resolves), in order."""
    if not _DIGIT.search(text):
        return []
    text = _COMMA_TYPO.sub(r"\1.", text)
    return [span for _s, _e, _p, spans in numbers.find_references(text) for span in spans]


def span_targets(span: numbers.Span, existing: list[str], exists: set[str],
                 keys: list[tuple] | None = None) -> list[str]:
    """The ids of ``existing`` a span names (see ``references_in``)."""
    if span.start == span.end:
        # The common case needs no search through every id.
        return [span.start] if span.start in exists else []
    return numbers.expand(span, _between(span, existing, keys))


def _between(span: numbers.Span, existing: list[str], keys: list[tuple] | None) -> list[str]:
    if keys is None:
        return existing
    try:
        lo = bisect.bisect_left(keys, numbers.sort_key(span.start))
        hi = bisect.bisect_right(keys, numbers.sort_key(span.end))
    except Exception:  # an end numbers cannot order: let expand decide
        return existing
    return existing[lo:hi] if lo < hi else existing


def resolve(release: Release) -> Release:
    """Fill in ``references`` and ``cited_by`` on every item of ``release``."""
    existing = [s.id for s in release.sections] + [c.id for c in release.chapters] + [
        r.id for r in release.rules]
    existing.sort(key=numbers.sort_key)
    keys = [numbers.sort_key(i) for i in existing]
    exists = set(existing)
    table = release.by_id()
    for item in table.values():
        item.cited_by = []
    citers: list[tuple[str, Any]] = [(r.id, r) for r in release.rules]
    citers += [(g.id, g) for g in release.glossary]
    for cid, item in citers:
        refs: list[Reference] = []
        for text in [item.text, *item.examples]:
            refs.extend(references_in(text, existing, exists, keys))
        item.references = refs
        for ref in refs:
            for target in ref.targets:
                if target == cid:
                    continue
                cited = table[target].cited_by
                if cid not in cited:
                    cited.append(cid)
    return release


def cited_ids(item: Any) -> list[str]:
    """The ids an item cites, in order, without repeats."""
    out: list[str] = []
    for ref in item.references:
        for t in ref.targets:
            if t not in out:
                out.append(t)
    return out


def unresolved(release: Release) -> list[dict[str, Any]]:
    """References that name something the release does not have."""
    out = []
    items: list[Rule | GlossaryEntry] = [*release.rules, *release.glossary]
    for item in items:
        for ref in item.references:
            if ref.missing:
                out.append({"from": item.id, "text": ref.text, "missing": ref.missing})
    return out
