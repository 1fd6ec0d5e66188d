"""Plain record classes for what every search makes (``ParsedQuery``,
``Evidence``, ``Topic``, ``Hit``, ``SearchResult``), without dataclasses.

``dataclasses`` writes and compiles each class's methods when the class is
made: for those five, with its import, some 24 M instructions of every
search's start-up.  ``Record`` gives the same equality, ``repr`` and
``replace`` from the field names a class lists in ``_FIELDS``.

A leaf: no imports.
"""

from __future__ import annotations

from typing import Any, ClassVar


class FrozenInstanceError(AttributeError):
    """A field of a frozen record (or a ``RankingConfig`` knob) was set or
    deleted: they never change (make a changed copy instead)."""


class Record:
    """Equality, ``repr`` and ``replace`` by the fields in ``_FIELDS``, in
    that order, as ``dataclasses.dataclass`` makes them: equal when of the
    same class with equal fields; unhashable unless a subclass says how."""

    __slots__ = ()
    _FIELDS: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    # Defining __eq__ leaves the class unhashable (__hash__ None), as a
    # dataclass that is not frozen is.

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS)
        return f"{type(self).__qualname__}({shown})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (``dataclasses.replace``)."""
        for name in changes:
            if name not in self._FIELDS:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
        return type(self)(**{**dict(zip(self._FIELDS, self._values())), **changes})
