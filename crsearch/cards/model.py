"""A card as a judge reads it: its faces, their Oracle text, and the rulings.

Plain classes (no dataclasses: ``crsearch card`` imports this on its fast
path).  ``to_dict()`` is the stored form and the ``--json`` shape alike.
"""

from __future__ import annotations

from typing import Any

#: What stands between two faces in a card's joined mana cost, type line and text.
FACE_JOIN = " // "
TEXT_JOIN = "\n//\n"
#: The face fields, as stored and printed (Scryfall's names).
FACE_FIELDS = ("name", "mana_cost", "type_line", "text", "power", "toughness", "loyalty",
               "defense", "side")


class Face:
    """One face of a card: a split half, an adventure, a transformed side, or the whole card."""

    __slots__ = FACE_FIELDS

    def __init__(self, name: str, mana_cost: str | None = None, type_line: str | None = None,
                 text: str | None = None, power: str | None = None, toughness: str | None = None,
                 loyalty: str | None = None, defense: str | None = None, side: str | None = None):
        self.name, self.mana_cost, self.type_line, self.text = name, mana_cost, type_line, text
        self.power, self.toughness, self.loyalty, self.defense = power, toughness, loyalty, defense
        self.side = side

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in FACE_FIELDS}

    def stored(self) -> dict[str, Any]:
        """``to_dict()`` without the empty fields (what a shard holds)."""
        return {k: v for k in FACE_FIELDS if (v := getattr(self, k)) is not None}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Face:
        g = d.get
        return cls(d["name"], g("mana_cost"), g("type_line"), g("text"), g("power"), g("toughness"),
                   g("loyalty"), g("defense"), g("side"))

    @property
    def stats(self) -> str | None:
        """"3/1", "Loyalty 3" or "Defense 5": what the card's lower right corner shows."""
        if self.power is not None or self.toughness is not None:
            return f"{self.power or ''}/{self.toughness or ''}"
        if self.loyalty is not None:
            return f"Loyalty {self.loyalty}"
        if self.defense is not None:
            return f"Defense {self.defense}"
        return None

    def __repr__(self) -> str:
        return f"Face({self.name!r})"


class Ruling:
    """A dated ruling (Wizards' or Scryfall's note on how the card works)."""

    __slots__ = ("date", "text")

    def __init__(self, date: str, text: str):
        self.date, self.text = date, text

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date, "text": self.text}


class Card:
    """A card by its Oracle name ("Fire // Ice"), with every face and its rulings."""

    __slots__ = ("name", "layout", "faces", "rulings")

    def __init__(self, name: str, layout: str | None, faces: list[Face],
                 rulings: list[Ruling] | None = None):
        self.name, self.layout, self.faces = name, layout, faces
        self.rulings = rulings or []

    @property
    def mana_cost(self) -> str | None:
        """The faces' mana costs, joined by " // " ("{1}{R} // {1}{U}")."""
        return _joined([f.mana_cost for f in self.faces], FACE_JOIN)

    @property
    def type_line(self) -> str | None:
        return _joined([f.type_line for f in self.faces], FACE_JOIN)

    @property
    def text(self) -> str:
        """The Oracle text of every face, faces apart by a "//" line."""
        return TEXT_JOIN.join(f.text or "" for f in self.faces) if len(self.faces) > 1 else \
            (self.faces[0].text or "" if self.faces else "")

    def face_spans(self) -> list[tuple[int, int]]:
        """Where each face's text lies in :attr:`text`."""
        spans, at = [], 0
        for f in self.faces:
            n = len(f.text or "")
            spans.append((at, at + n))
            at += n + len(TEXT_JOIN)
        return spans

    def stored(self) -> dict[str, Any]:
        """The card as a shard holds it (empty fields left out)."""
        d: dict[str, Any] = {"name": self.name, "faces": [f.stored() for f in self.faces]}
        if self.layout:
            d["layout"] = self.layout
        if self.rulings:
            d["rulings"] = [r.to_dict() for r in self.rulings]
        return d

    def to_dict(self) -> dict[str, Any]:
        """Name, costs and text (faces joined), the faces, and the rulings."""
        one = self.faces[0] if len(self.faces) == 1 else None
        return {
            "name": self.name,
            "layout": self.layout,
            "mana_cost": self.mana_cost,
            "type_line": self.type_line,
            "text": self.text,
            "power": one.power if one else None,
            "toughness": one.toughness if one else None,
            "loyalty": one.loyalty if one else None,
            "defense": one.defense if one else None,
            "faces": [f.to_dict() for f in self.faces],
            "rulings": [r.to_dict() for r in self.rulings],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Card:
        return cls(d["name"], d.get("layout"), [Face.from_dict(f) for f in d.get("faces") or []],
                   [Ruling(r["date"], r["text"]) for r in d.get("rulings") or []])

    def __repr__(self) -> str:
        return f"Card({self.name!r})"


def _joined(parts: list[str | None], sep: str) -> str | None:
    if not any(parts):
        return None
    return sep.join(p or "" for p in parts)
