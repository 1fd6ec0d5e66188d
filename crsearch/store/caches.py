"""Small caches written beside a release on first use (``ReleaseCache``), and
the one the store keeps itself: the glossary terms and keyword names that
shell completion offers (``completion-terms.json``).

Each cache says what is wrong with it (``problem``) so that a damaged one is
rebuilt when it is read and by ``crsearch repair``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ReleaseCache:
    """A JSON file beside each stored release, made from the release on first use.

    ``make`` builds the data from a release; ``check`` says what makes read
    data unusable for a stored release (None: nothing).  A cache that is
    missing or unusable is built again when read, and ``crsearch repair``
    rebuilds it through ``problem`` and ``write``.
    """

    def __init__(self, name: str, make: Callable[[Any], dict[str, Any]],
                 check: Callable[[Any, Any], str | None]):
        self.name, self.make, self.check = name, make, check

    def get(self, stored: Any) -> dict[str, Any]:
        """The cached data of ``stored`` (built and written first when missing
        or damaged; kept in memory only when the data folder is read-only)."""
        data, _ = self._read(stored)
        if data is None:
            data = self.make(stored.release())
            try:
                self._write(stored, data)
            except OSError:
                pass  # a read-only data folder: go without the cache
        return data

    def problem(self, stored: Any) -> str | None:
        """What is wrong with the cache beside ``stored`` (None: nothing, or no cache yet)."""
        return self._read(stored)[1]

    def write(self, stored: Any, release: Any) -> None:
        """Build the data of ``release`` and write it beside ``stored`` (OSError when it cannot)."""
        self._write(stored, self.make(release))

    def _read(self, stored: Any) -> tuple[dict[str, Any] | None, str | None]:
        """(the cached data, None), or (None, what is wrong); (None, None) when there is none."""
        from crsearch.errors import reason
        from crsearch.store.datadir import read_json

        try:
            data = read_json(stored.path / self.name, "cache")
        except FileNotFoundError:
            return None, None
        except (OSError, ValueError) as e:
            return None, f"damaged ({reason(e)})"
        problem = self.check(data, stored)
        return (None, problem) if problem else (data, None)

    def _write(self, stored: Any, data: dict[str, Any]) -> None:
        import json

        from crsearch.files import write_atomic

        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        write_atomic(stored.path / self.name, text.encode("utf-8"))  # 0644, like the release's other files


def terms_of(release: Any) -> dict[str, Any]:
    """What the completion cache holds: the glossary terms and keyword names of ``release``."""
    from crsearch.rules.glossary import KEYWORD_CHAPTERS

    return {
        "glossary": sorted({n for g in release.glossary for n in [g.term, *g.aliases]}),
        "keywords": [r.title for r in release.rules
                     if r.chapter in KEYWORD_CHAPTERS and r.kind == "rule" and r.title],
    }


def _terms_problem(data: Any, stored: Any) -> str | None:
    if not isinstance(data, dict) or not all(
            isinstance(data.get(k), list) and all(isinstance(n, str) for n in data[k])
            for k in ("glossary", "keywords")):
        return "not lists of glossary terms and keywords"
    return None


COMPLETION = ReleaseCache("completion-terms.json", terms_of, _terms_problem)
CACHE_NAME = COMPLETION.name


def completion_terms(stored: Any) -> dict[str, list[str]]:
    """Glossary terms and keyword names of a release, from the small cache file
    (written on first use, and again when it is damaged)."""
    return COMPLETION.get(stored)


def cache_problem(stored: Any) -> str | None:
    """What is wrong with the completion cache beside ``stored`` (None: nothing, or no cache yet)."""
    return COMPLETION.problem(stored)


def write_cache(stored: Any, release: Any) -> None:
    """Write the completion cache of ``release`` beside ``stored`` (OSError when it cannot)."""
    COMPLETION.write(stored, release)
