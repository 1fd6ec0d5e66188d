"""Shell completion of rule numbers, glossary terms and keywords.

Completion runs on every Tab, so it reads small files only: the release's
``meta.json`` (every rule id) and ``completion-terms.json`` (glossary terms
and keyword names), which is written next to the release on first use.
Standard library and click only; click calls these through ``shell_complete``.
"""

from __future__ import annotations

from typing import Any

CACHE_NAME = "completion-terms.json"
LIMIT = 200
SHELLS = ("bash", "zsh", "fish")


def _stored(ctx: Any) -> Any:
    """The stored release the command line names (``--data-dir``, ``--release``)."""
    from crsearch.store import Store

    root = ctx.find_root()
    params = root.params if root is not None else {}
    return Store(params.get("data_dir")).pick(params.get("release"))


def rule_ids(stored: Any, incomplete: str) -> list[str]:
    """Ids that start with ``incomplete``: the next level down first."""
    meta = stored.meta()
    ids = [s["id"] for s in meta["sections"]] + [c["id"] for c in meta["chapters"]]
    ids += meta["rule_ids"]
    want = incomplete.strip().lower()
    if not want:
        return [c["id"] for c in meta["chapters"]][:LIMIT]
    hits = [i for i in ids if i.startswith(want)]
    # "702." offers the rules, not their thousand subrules.
    rules_first = [i for i in hits if i.rstrip("abcdefghijkmnpqrstuvwxyz") == i]
    return (rules_first if len(hits) > LIMIT else hits)[:LIMIT]


def terms(stored: Any) -> dict[str, list[str]]:
    """Glossary terms and keyword names of a release, from the small cache file."""
    path = stored.path / CACHE_NAME
    try:
        with open(path, encoding="utf-8") as f:
            import json

            return json.load(f)
    except (OSError, ValueError):
        pass
    from crsearch.glossary import KEYWORD_CHAPTERS

    release = stored.release()
    data = {
        "glossary": sorted({n for g in release.glossary for n in [g.term, *g.aliases]}),
        "keywords": [r.title for r in release.rules
                     if r.chapter in KEYWORD_CHAPTERS and r.kind == "rule" and r.title],
    }
    import json

    from crsearch.files import write_atomic

    try:
        write_atomic(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
    except OSError:
        pass  # a read-only data folder: complete without the cache
    return data


def _matching(names: list[str], incomplete: str) -> list[str]:
    want = incomplete.lower()
    return [n for n in names if n.lower().startswith(want)][:LIMIT]


def _safe(fn: Any) -> Any:
    """Completion never prints a traceback into the shell: no data, no items."""
    def wrapper(ctx: Any, param: Any, incomplete: str) -> list[Any]:
        try:
            return fn(ctx, incomplete)
        except Exception:  # noqa: BLE001 - a broken store must not break the shell
            return []
    return wrapper


@_safe
def complete_rule_ids(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for rule numbers."""
    return rule_ids(_stored(ctx), incomplete)


@_safe
def complete_glossary(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for glossary terms."""
    return _matching(terms(_stored(ctx))["glossary"], incomplete)


@_safe
def complete_keywords(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for keyword actions and abilities."""
    return _matching(terms(_stored(ctx))["keywords"], incomplete)


def script(cli: Any, shell: str, prog: str = "crsearch") -> str:
    """The completion script for ``shell`` (bash, zsh or fish)."""
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    if cls is None:
        from crsearch.errors import BadInput, short

        raise BadInput(f"no completion for {short(str(shell))!r}: use one of {', '.join(SHELLS)}")
    var = "_" + prog.replace("-", "_").upper() + "_COMPLETE"
    return cls(cli, {}, prog, var).source()


__all__ = ["SHELLS", "complete_glossary", "complete_keywords", "complete_rule_ids", "rule_ids",
           "script", "terms"]
