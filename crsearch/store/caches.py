"""Small caches written beside a release on first use: the glossary terms and
keyword names that shell completion offers (``completion-terms.json``).

Each cache says what is wrong with it (``cache_problem``) so that a damaged
one is rebuilt when it is read and by ``crsearch repair``.
"""

from __future__ import annotations

from typing import Any

CACHE_NAME = "completion-terms.json"


def completion_terms(stored: Any) -> dict[str, list[str]]:
    """Glossary terms and keyword names of a release, from the small cache file
    (written on first use, and again when it is damaged)."""
    data, _ = _cached(stored)
    if data is None:
        data = terms_of(stored.release())
        try:
            _write_cache(stored, data)
        except OSError:
            pass  # a read-only data folder: complete without the cache
    return data


def terms_of(release: Any) -> dict[str, list[str]]:
    """What the cache holds: the glossary terms and keyword names of ``release``."""
    from crsearch.rules.glossary import KEYWORD_CHAPTERS

    return {
        "glossary": sorted({n for g in release.glossary for n in [g.term, *g.aliases]}),
        "keywords": [r.title for r in release.rules
                     if r.chapter in KEYWORD_CHAPTERS and r.kind == "rule" and r.title],
    }


def cache_problem(stored: Any) -> str | None:
    """What is wrong with the cache beside ``stored`` (None: nothing, or no cache yet)."""
    return _cached(stored)[1]


def write_cache(stored: Any, release: Any) -> None:
    """Write the cache of ``release`` beside ``stored`` (OSError when it cannot)."""
    _write_cache(stored, terms_of(release))


def _cached(stored: Any) -> tuple[dict[str, list[str]] | None, str | None]:
    """(the cached terms, None), or (None, what is wrong); (None, None) when there is none."""
    from crsearch.errors import reason
    from crsearch.store.datadir import read_json

    try:
        data = read_json(stored.path / CACHE_NAME, "cache")
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as e:
        return None, f"damaged ({reason(e)})"
    if not isinstance(data, dict) or not all(
            isinstance(data.get(k), list) and all(isinstance(n, str) for n in data[k])
            for k in ("glossary", "keywords")):
        return None, "not lists of glossary terms and keywords"
    return data, None


def _write_cache(stored: Any, data: dict[str, list[str]]) -> None:
    import json

    from crsearch.files import write_atomic

    write_atomic(stored.path / CACHE_NAME, json.dumps(data, ensure_ascii=False).encode("utf-8"))
