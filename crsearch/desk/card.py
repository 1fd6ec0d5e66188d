"""A card as the judge's desk shows it: its Oracle text, its rulings, and the rules
its words use.

The card comes from the imported card data (``crsearch.cards``); the rules
terms from ``explain`` run on the card's whole text, so whatever explain
learns to recognise (keywords, keyword actions, types, zones, kinds of
ability) a card lookup shows too.  ``explain_text`` lets ``crsearch explain``
take a card's name for its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crsearch.desk import explain

if TYPE_CHECKING:
    from crsearch.cards.model import Card
    from crsearch.cards.store import CardData
    from crsearch.search.cardtext import CardLens
    from crsearch.store.datadir import StoredRelease

#: A text longer than this, or with more words, is rules text, not a card's name.
_NAME_CHARS, _NAME_WORDS = 150, 14


class CardInfo:
    """A card with the rules terms of its text; ``to_dict()`` is ``card --json``."""

    def __init__(self, card: Card, cards_date: str, terms: list[dict[str, Any]],
                 release: str | None):
        self.card, self.cards_date, self.terms, self.release = card, cards_date, terms, release

    @property
    def name(self) -> str:
        return self.card.name

    def to_dict(self) -> dict[str, Any]:
        return {**self.card.to_dict(), "terms": self.terms, "cards_date": self.cards_date,
                "release": self.release}

    def __repr__(self) -> str:
        return (f"<CardInfo {self.name!r} (cards of {self.cards_date}): {len(self.terms)} terms"
                f"{f' of {self.release}' if self.release else ''}>")


def card_info(data: CardData, stored: StoredRelease | None, name: str) -> CardInfo:
    """The card ``name`` names, with the rules terms of its text (none without a release)."""
    card = data.card(name)
    return CardInfo(card, data.date, terms_of(stored, card.text),
                    stored.effective_date if stored is not None else None)


def terms_of(stored: StoredRelease | None, text: str) -> list[dict[str, Any]]:
    """explain's terms of a card's text (span, term, id, definition, ...), in reading order."""
    if stored is None or not text.strip():
        return []
    return list(explain.explain(stored, text[:explain.MAX_TEXT])["terms"])


def terms_in(table: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """:func:`terms_of` with explain's term table at hand (``explain.build``): for
    reading many cards against one release (the site's card files)."""
    if not text.strip():
        return []
    return explain.find(explain.check_text(text[:explain.MAX_TEXT]), table)


#: The groups of ability readings a search leaves out of a card's terms:
#: most cards have a triggered or an activated ability, so they tell a
#: question little, and their patterns are the costliest to compile.
SEARCH_SKIPS = ("trigger", "activated")


def card_lens(data: CardData, stored: StoredRelease) -> CardLens:
    """The card data as the search reads it: the cards a query names, and the
    rules terms of their texts (explain's, as ``crsearch card`` shows them,
    without the readings of ``SEARCH_SKIPS``)."""
    from crsearch.search.cardtext import CardLens

    ready: list[dict[str, Any]] = []  # the table, once read (whole, for threads)

    def terms(text: str) -> list[dict[str, Any]]:
        if not ready:
            full = explain.table_for(stored)
            ready[:] = [{**full, "readings": [r for r in full["readings"]
                                              if r["group"] not in SEARCH_SKIPS]}]
        return explain.find(text[:explain.MAX_TEXT], ready[0])

    return CardLens(data.find_in_text, terms)


def explain_text(stored: StoredRelease, data: CardData | None, text: str) -> dict[str, Any]:
    """``explain``'s result for ``text``, or for the text of the card ``text`` names.

    A card's name is taken for its card when the text is short and one line,
    and either has no rules terms of its own or is exactly a card's name
    that is not itself a term ("Teferi's Protection" is the card, "Flash" the
    keyword).  The result then also holds ``card`` and ``cards_date``.
    """
    result = explain.explain(stored, text)
    stripped = text.strip()
    if data is None or "\n" in stripped or len(stripped) > _NAME_CHARS or \
            len(stripped.split()) > _NAME_WORDS:
        return result
    from crsearch.cards.names import name_key
    from crsearch.errors import NotFound

    terms = result["terms"]
    whole = any(t["span"][1] - t["span"][0] >= len(stripped) for t in terms)
    if whole:
        return result
    try:
        entry = data.entry_of(stripped)
    except NotFound:
        return result
    if terms and entry.key != name_key(stripped):
        return result
    card = data.read(entry.shard, entry.offset, entry.length)
    if not card.text.strip():
        return result
    out = explain.explain(stored, card.text[:explain.MAX_TEXT])
    return {**out, "card": card.name, "cards_date": data.date}


def cite_lines(info: CardInfo, stored: StoredRelease | None, fmt: str,
               site_url: str | None = None) -> list[str]:
    """Paste-ready quotes: the card's Oracle text, then each rule its words use."""
    from crsearch.desk import cite

    card = info.card
    body = " // ".join(" / ".join((f.text or "").split("\n")) for f in card.faces)
    cost = f" {card.mana_cost}" if card.mana_cost else ""
    where = f"Oracle text, card data {info.cards_date}"
    if fmt == "md":
        esc = body.replace("*", r"\*").replace("_", r"\_")
        lines = [f"> **{card.name}**{cost} ({where}): {esc}"]
    else:
        lines = [f"{card.name}{cost} ({where}): {body}"]
    if stored is None or not info.terms:
        return lines
    base = cite.site_url(site_url)
    anchors = cite.glossary_anchors(stored.release()) if fmt == "md" else {}
    seen: set[str] = set()
    for t in info.terms:
        src = t.get("source") or t["id"]
        if src in seen:
            continue
        seen.add(src)
        title = src.split(":", 1)[1] if src.startswith("glossary:") else None
        lines.append(cite.quote(src, t["definition"], stored.effective_date, fmt, base=base,
                                title=title, glossary_anchor=anchors.get(src)))
    return lines


__all__ = ["SEARCH_SKIPS", "CardInfo", "card_info", "card_lens", "cite_lines", "explain_text", "terms_in",
           "terms_of"]
