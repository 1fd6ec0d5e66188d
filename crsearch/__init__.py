"""crsearch: the Magic: The Gathering Comprehensive Rules, exact and fast.

``from crsearch import Rules`` is the front door (see ``crsearch.api``).
Nothing heavy is imported here, so that ``crsearch rule`` starts quickly:
``Rules`` is loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crsearch.version import __version__

__all__ = ["Rules", "__version__"]

if TYPE_CHECKING:
    from crsearch.api import Rules


def __getattr__(name: str) -> Any:
    if name == "Rules":
        from crsearch.api import Rules

        return Rules
    raise AttributeError(f"module 'crsearch' has no attribute {name!r}")
