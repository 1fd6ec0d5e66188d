"""The site's static JSON API: the rules as files a bot or another site can fetch.

No server is needed: every answer is a file under ``api/`` beside the pages,
so any static host or CDN serves it.  Each object has the shape the CLI prints
with ``--json`` (one contract for scripts, the site and the tests):

- ``api/releases.json``: every release of the site, newest first, as
  ``crsearch releases --json`` lists them (without the store's ``dir``), each
  with ``api`` (its folder) and ``site`` (its home page), relative to ``api/``;
- ``api/<date>/release.json``: the release's title, counts, sections and
  chapters (each as in ``crsearch rule 7 --json``);
- ``api/<date>/chapters/<id>.json``: exactly ``crsearch rule 702 --json``
  (the chapter, then its rules and subrules);
- ``api/<date>/rules/<id>.json``: exactly the one object of
  ``crsearch rule 702.19c --no-children --json`` (the root release only);
- ``api/<date>/glossary.json``: every entry, as ``crsearch define TERM --json``.
"""

from __future__ import annotations

import json
from typing import Any

from crsearch.rules.model import Release

API = "api"


def _dump(data: Any) -> bytes:
    # Field order as the CLI prints it; compact, and the same bytes every build.
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def rule_path(date: str, id: str) -> str:
    """The file of one rule's JSON, relative to the site root."""
    return f"{API}/{date}/rules/{id}.json"


def chapter_path(date: str, id: str) -> str:
    """The file of one chapter's JSON, relative to the site root."""
    return f"{API}/{date}/chapters/{id}.json"


def files(release: Release, per_rule: bool = True) -> dict[str, bytes]:
    """The API files of one release, by path from the site root."""
    from crsearch.store.lookup import item_dict as item_json

    date = release.effective_date
    out: dict[str, bytes] = {}
    rules_of: dict[str, list[Any]] = {c.id: [] for c in release.chapters}
    for r in release.rules:
        rules_of.setdefault(r.chapter, []).append(r)
        if per_rule:
            out[rule_path(date, r.id)] = _dump(item_json(r, date))
    for c in release.chapters:
        out[chapter_path(date, c.id)] = _dump(
            [item_json(c, date), *(item_json(r, date) for r in rules_of.get(c.id, []))])
    out[f"{API}/{date}/glossary.json"] = _dump([item_json(g, date) for g in release.glossary])
    out[f"{API}/{date}/release.json"] = _dump({
        "effective_date": date, "title": release.title, "complete": release.complete,
        "counts": release.counts(), "rules_files": per_rule,
        "sections": [item_json(s, date) for s in release.sections],
        "chapters": [item_json(c, date) for c in release.chapters],
    })
    return out


def index_files(releases: list[Release]) -> dict[str, bytes]:
    """``api/releases.json``: the releases of the site, newest first."""
    from crsearch.store.datadir import catalog_entry

    rows = []
    for k, r in enumerate(releases):
        row = {key: value for key, value in catalog_entry(r, "").items() if key != "dir"}
        row.update(current=k == 0, api=f"{r.effective_date}/",
                   site="../index.html" if k == 0 else f"../{r.effective_date}/index.html")
        rows.append(row)
    return {f"{API}/releases.json": _dump(rows)}


__all__ = ["API", "chapter_path", "files", "index_files", "rule_path"]
