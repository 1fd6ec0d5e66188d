"""Shell completion of rule numbers, glossary terms, keywords and release dates.

Completion runs on every Tab, so it reads small files only: the release's
``meta.json`` (every rule id) and ``completion-terms.json`` (glossary terms
and keyword names), which is written next to the release on first use.
Standard library and click only; click calls these through ``shell_complete``.
"""

from __future__ import annotations

from typing import Any

LIMIT = 200
SHELLS = ("bash", "zsh", "fish")


def _stored(ctx: Any) -> Any:
    """The stored release the command line names (``--data-dir``, ``--release``)."""
    from crsearch.store.datadir import Store

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
    """Glossary terms and keyword names of a release (``store.caches``)."""
    from crsearch.store.caches import completion_terms

    return completion_terms(stored)


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


def release_dates(data_dir: Any, incomplete: str) -> list[str]:
    """The stored releases' effective dates that start with ``incomplete``,
    newest first (the catalog only: no release is read)."""
    from crsearch.store.datadir import Store

    dates = [r.effective_date for r in Store(data_dir).releases()]
    return [d for d in reversed(dates) if d.startswith(incomplete.strip())][:LIMIT]


@_safe
def complete_release_dates(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for ``--release``: the stored release dates."""
    root = ctx.find_root()
    return release_dates((root.params if root is not None else {}).get("data_dir"), incomplete)


@_safe
def complete_glossary(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for glossary terms."""
    return _matching(terms(_stored(ctx))["glossary"], incomplete)


@_safe
def complete_keywords(ctx: Any, incomplete: str) -> list[str]:
    """``shell_complete`` for keyword actions and abilities."""
    return _matching(terms(_stored(ctx))["keywords"], incomplete)


# click's bash script, except that each item is quoted with ``printf %q``
# before it goes into COMPREPLY, and the response is read line by line
# (``read -r``, items may hold commas) instead of expanded: click's adds items unquoted
# (``COMPREPLY+=($value)``), so bash glob-expanded and split them, and a
# glossary term "/*" completed to the root listing.  zsh (compadd) and fish
# quote what they insert themselves.
_BASH_SOURCE = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response line value quoted

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
%(complete_var)s=bash_complete $1)

    COMPREPLY=()
    while IFS= read -r line; do
        value=${line#*,}
        if [[ ${line%%%%,*} == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ ${line%%%%,*} == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ ${line%%%%,*} == 'plain' ]]; then
            printf -v quoted '%%q' "$value"
            COMPREPLY+=("$quoted")
        fi
    done <<< "$response"

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


def script(cli: Any, shell: str, prog: str = "crsearch") -> str:
    """The completion script for ``shell`` (bash, zsh or fish)."""
    from click.shell_completion import BashComplete, get_completion_class

    cls = get_completion_class(shell)
    if cls is None:
        from crsearch.errors import BadInput, short

        raise BadInput(f"no completion for {short(str(shell))!r}: use one of {', '.join(SHELLS)}")
    if cls is BashComplete:
        cls = type("QuotingBashComplete", (BashComplete,), {"source_template": _BASH_SOURCE})
    var = "_" + prog.replace("-", "_").upper() + "_COMPLETE"
    return cls(cli, {}, prog, var).source()


__all__ = ["SHELLS", "complete_glossary", "complete_keywords", "complete_release_dates",
           "complete_rule_ids", "release_dates", "rule_ids", "script", "terms"]
