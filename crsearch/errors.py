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
    """The data directory is missing, empty or damaged."""

    exit_code = 1
