"""Exceptions the library raises; the CLI maps each to an exit code.

Nothing here imports click, so the library stays usable without the CLI.
"""

from __future__ import annotations


class CRSearchError(Exception):
    """Base class; ``exit_code`` is what the CLI exits with."""

    exit_code = 2


class BadInput(CRSearchError):
    """The user gave something malformed (rule number, query, file): exit 2."""

    exit_code = 2


class NotFound(CRSearchError):
    """A well-formed request for something that does not exist: exit 1.

    ``suggestions`` lists nearby things that do exist ("did you mean").
    """

    exit_code = 1

    def __init__(self, message: str, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = list(suggestions or [])


class NotACR(BadInput):
    """Bytes or text that are not a Comprehensive Rules document."""


class SourceError(CRSearchError):
    """A download or page fetch failed (network, HTTP status, missing link)."""

    exit_code = 2


class StoreError(CRSearchError):
    """The data directory is unusable (damaged, foreign, no index): exit 2."""

    exit_code = 2


class DamagedStore(StoreError):
    """A file of the data directory is damaged or unwritable: exit 2.

    The message names the release (or file), what is wrong and the command
    that repairs it.
    """

    exit_code = 2


class NoData(StoreError):
    """Nothing has been imported yet: exit 3, so scripts can tell it from "not found"."""

    exit_code = 3


class BrokenInstall(CRSearchError):
    """A file that ships with crsearch (``data/``) is missing or damaged: exit 2.

    Not the user's data: the message names the file and says to reinstall.
    """

    exit_code = 2


class KeptRelease(CRSearchError):
    """An import was refused because it would replace a better stored release: exit 2."""

    exit_code = 2


class KeptCards(KeptRelease):
    """A card data import was refused: the stored card data is newer or larger (exit 2)."""


def short(value: object, limit: int = 80) -> str:
    """``value`` as text, cut to ``limit`` characters with an ellipsis (for messages)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def reason(e: BaseException) -> str:
    """A short reason for a read error (errno text, or the JSON complaint)."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return short(" ".join(str(e).split()) or type(e).__name__, 60)
