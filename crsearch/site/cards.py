"""Card lookup on the static site (``site build --cards``): the card data as files by letter.

The browser looks a typed name up the way ``crsearch card`` does (folded
words, a face's name, partial names) in files split by the first letter of
the folded words, so a name costs one small file, loaded when it is typed:

- ``cards.js`` (at the site root): the lookup and the card panel
  (``templates/cards.js``), with the map of letter files written into it;
- ``cards/<letter>.<hash>.js``: for one letter ``L``,

  - ``cards``: every card whose folded name starts with ``L`` (the card
    store's shard ``L``): its name and faces (mana cost, type line, Oracle
    text, power/toughness, loyalty, defense) and ``rules``, the id of each
    rule or glossary entry its text uses, in reading order, as ``crsearch
    card`` finds them (``desk.card.terms_in``); an ``[id, term, kind]``
    instead where the card's term for that rule is not the file's;
  - ``names``: ``[key, letter, name]`` for every card or face name with a
    word starting with ``L`` (key: the folded words, as ``cards.names``
    folds them; letter: the file holding the card; a fourth item, "f",
    marks a face's name);
  - ``rules``: each rule id the file's cards use -> ``[url, term, kind]``,
    its place on this site and the term and kind explain first gave it.

Card texts are Wizards of the Coast's; rulings are left out.  The rule
links and terms are those of the site's root release.  The files are
content-hashed and left out of the service worker's precache (its runtime
cache keeps the letters a reader used).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crsearch.cards.model import Card
    from crsearch.cards.store import CardData
    from crsearch.rules.model import Release

FOLDER = "cards"
SCRIPT = "cards.js"
#: Where the template takes the map of letter files.
_SLOT = "/*CARD_FILES*/{}"
#: The face fields a card panel shows.
_FACE_FIELDS = ("name", "mana_cost", "type_line", "text", "power", "toughness", "loyalty", "defense")


class CardFiles:
    """The card files of a site, by path from its root; ``count`` cards in all."""

    def __init__(self, files: dict[str, bytes], count: int, date: str):
        self.files, self.count, self.date = files, count, date

    @property
    def bytes(self) -> int:
        return sum(len(b) for b in self.files.values())

    def letters(self) -> dict[str, int]:
        """Each letter file's size in bytes, by letter."""
        return {path.split("/", 1)[1].split(".", 1)[0]: len(data)
                for path, data in self.files.items() if path.startswith(FOLDER + "/")}


def _script(data: Any) -> str:
    """JSON for a script file: "<" escaped, so no text ever reads as markup."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def record(card: Card, rules: list[dict[str, Any]]) -> dict[str, Any]:
    """One card as a letter file holds it: name, faces (empty fields left out), rules."""
    from crsearch.rules.safetext import strip_controls

    def clean(v: str) -> str:
        # The import strips control characters; a hand-edited data folder may not have.
        return strip_controls(v)[0] if not v.replace("\n", " ").isprintable() else v

    faces = [{k: clean(v) for k in _FACE_FIELDS if (v := getattr(f, k)) is not None}
             for f in card.faces]
    seen: set[str] = set()
    used = []
    for t in rules:
        if t["id"] not in seen:
            seen.add(t["id"])
            used.append([t["id"], t["term"], t["kind"]])
    return {"name": clean(card.name), "faces": faces, "rules": used}


def files(data: CardData, release: Release) -> CardFiles:
    """Every card file of the site, for the card data ``data`` read against ``release``."""
    from crsearch.cards.model import TEXT_JOIN
    from crsearch.cards.names import KIND_FACE, STOP, fold_table, shard_of
    from crsearch.desk import explain
    from crsearch.desk.card import terms_in
    from crsearch.paths import templates_dir
    from crsearch.urls import Urls

    table = explain.build(release)
    urls = Urls(release, rule_pages=True)
    names: dict[str, list[list[str]]] = {}
    entries = data.name_entries()
    for e in entries:
        for letter in sorted({shard_of(w) for w in e.key.split(" ")}):
            row = [e.key, e.shard, e.name]
            names.setdefault(letter, []).append(row + ["f"] if e.kind == KIND_FACE else row)
    shards = set(data.shards())
    out: dict[str, bytes] = {}
    letter_files: dict[str, str] = {}
    count = 0
    for letter in sorted(shards | set(names)):
        cards = []
        rules: dict[str, list[str]] = {}
        for card in data.shard_cards(letter) if letter in shards else []:
            rec = record(card, terms_in(table, card.text))
            ids: list[Any] = []
            for id, term, kind in rec["rules"]:
                if not urls.exists(id):
                    continue
                known = rules.setdefault(id, [urls.url_for(id), term, kind])
                ids.append(id if known[1:] == [term, kind] else [id, term, kind])
            rec["rules"] = ids
            cards.append(rec)
        count += len(cards)
        body = _script({"letter": letter, "cards": cards, "names": names.get(letter, []),
                        "rules": rules})
        text = f"window.crsearchCards({json.dumps(letter)},{body});\n".encode()
        path = f"{FOLDER}/{letter}.{hashlib.sha256(text).hexdigest()[:10]}.js"
        out[path] = text
        letter_files[letter] = path
    index = _script({"files": letter_files, "date": data.date, "count": count,
                     "release": release.effective_date, "stop": sorted(STOP),
                     "fold": fold_table(e.name for e in entries), "face_join": TEXT_JOIN})
    template = (templates_dir() / SCRIPT).read_text(encoding="utf-8")
    if _SLOT not in template:
        raise ValueError(f"templates/{SCRIPT} has no {_SLOT} to fill")
    out[SCRIPT] = template.replace(_SLOT, index, 1).encode("utf-8")
    return CardFiles(dict(sorted(out.items())), count, data.date)


__all__ = ["FOLDER", "SCRIPT", "CardFiles", "files", "record"]
