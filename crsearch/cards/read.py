"""Reading a card data file as a stream: MTGJSON's AtomicCards or Scryfall's bulk files.

A full AtomicCards file is well over 100 MB, so nothing here holds a whole
file: the bytes are decompressed as they are read (gzip, xz, bzip2 or zip,
told apart by their first bytes, never by the name) and parsed by ijson one
card at a time.  What is read is checked as it comes:

- a file that decompresses to far more than it holds (a compression bomb)
  or to more than :data:`MAX_JSON_BYTES` is stopped;
- a file that is not card data, or is cut short, says so in one line;
- more than :data:`MAX_CARDS` cards (a real file holds about 35,000) stops
  the import, so that memory stays bounded;
- control characters are removed from every name and text (as from rules
  text), and a card whose name or text is too long to be a card's is left
  out with a warning.

Formats: MTGJSON v5 ``{"meta": {"date", "version"}, "data": {name: [face,
...]}}``, whose split, adventure, transform and modal cards list a face per
entry (``side``, ``faceName``); Scryfall's oracle-cards bulk file, a JSON
array of card objects with ``card_faces``, with its rulings bulk file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import IO, Any, cast

from crsearch.cards.model import Card, Face, Ruling
from crsearch.errors import BadInput, short
from crsearch.rules.safetext import strip_controls

MTGJSON, SCRYFALL = "mtgjson", "scryfall"
#: Decompressed size past which a file is refused (a full AtomicCards is ~150 MB).
MAX_JSON_BYTES = 2 * 1024 ** 3
#: Past this much output, a file that grew more than BOMB_RATIO times is a bomb.
BOMB_FLOOR = 64 * 1024 ** 2
BOMB_RATIO = 100
MAX_CARDS = 100_000
MAX_NAME, MAX_TEXT, MAX_RULINGS = 300, 20_000, 300
CHUNK = 256 * 1024
#: Where MTGJSON's meta is looked for: in the first bytes, or in the last ones.
META_HEAD, META_TAIL = 1024 * 1024, 64 * 1024
#: Scryfall layouts that are not cards a player casts or plays.
NOT_CARDS = frozenset(["token", "double_faced_token", "emblem", "art_series", "vanguard_token"])
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bz2"), (b"PK\x03\x04", "zip"))
_WHAT = ("expected MTGJSON's AtomicCards ({\"meta\", \"data\": {name: [faces]}}) or Scryfall's "
         "oracle-cards (a list of cards)")


# -- bytes --------------------------------------------------------------------------

class _Counting:
    """A binary file that counts what is read from it."""

    def __init__(self, f: IO[bytes]):
        self.f, self.count = f, 0

    def read(self, n: int = -1) -> bytes:
        b = self.f.read(n)
        self.count += len(b)
        return b

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:  # gzip and zipfile then never seek
        return False

    def close(self) -> None:
        self.f.close()


class Stream:
    """The decompressed bytes of a file, read in chunks within the limits above."""

    def __init__(self, path: str, shown: str, max_bytes: int = MAX_JSON_BYTES):
        self.shown, self.max_bytes = shown, max_bytes
        try:
            f = open(path, "rb")
        except IsADirectoryError:
            raise BadInput(f"{shown} is a folder, not a card data file") from None
        except OSError as e:
            raise BadInput(f"cannot read {shown}: {e.strerror or e}") from None
        self.raw = _Counting(f)
        packed = cast(IO[bytes], self.raw)
        head = f.read(8)
        f.seek(0)
        self.compression = next((name for magic, name in _MAGIC if head.startswith(magic)), None)
        self.out = 0
        self.inner: Any = self.raw
        try:
            if self.compression == "gzip":
                import gzip

                self.inner = gzip.GzipFile(fileobj=packed, mode="rb")
            elif self.compression == "xz":
                import lzma

                self.inner = lzma.LZMAFile(packed)
            elif self.compression == "bz2":
                import bz2

                self.inner = bz2.BZ2File(packed)
            elif self.compression == "zip":
                self.inner = self._zip_member(f)
        except BadInput:
            f.close()
            raise

    def _zip_member(self, f: IO[bytes]) -> Any:
        import zipfile

        try:
            z = zipfile.ZipFile(f)
            members = [i for i in z.infolist() if not i.is_dir()]
        except (zipfile.BadZipFile, OSError, ValueError) as e:
            raise BadInput(f"{self.shown} is a damaged zip file ({short(e, 60)})") from None
        if len(members) != 1:
            raise BadInput(f"{self.shown} holds {len(members)} files; a card data zip holds one JSON file")
        self._zip_size = members[0].compress_size
        return z.open(members[0])

    pending = b""
    #: The last bytes read (MTGJSON's meta may stand at the very end).
    tail = b""

    def peek(self, limit: int) -> bytes:
        """The first ``limit`` bytes (fewer at the end), read again by :meth:`read`."""
        while len(self.pending) < limit:
            chunk = self._next(CHUNK)
            if not chunk:
                break
            self.pending += chunk
        return self.pending[:limit]

    def read(self, n: int = CHUNK) -> bytes:
        """Up to ``n`` bytes (b"" at the end); BadInput for damaged data or a bomb."""
        if self.pending:
            n = len(self.pending) if n < 0 else n
            out, self.pending = self.pending[:n], self.pending[n:]
            return out
        return self._next(CHUNK if n < 0 else n)

    def _next(self, n: int) -> bytes:
        import zlib

        try:
            chunk: bytes = self.inner.read(n)
        except (EOFError, zlib.error, OSError, ValueError) as e:
            raise BadInput(f"{self.shown}: the {self.compression or 'file'} data is damaged or "
                           f"cut short ({short(' '.join(str(e).split()) or type(e).__name__, 60)})"
                           ) from None
        except Exception as e:  # lzma.LZMAError, zipfile.BadZipFile: their modules load lazily
            if type(e).__name__ not in ("LZMAError", "BadZipFile"):
                raise
            raise BadInput(f"{self.shown}: the {self.compression} data is damaged ({short(e, 60)})"
                           ) from None
        self.out += len(chunk)
        if self.out > self.max_bytes:
            raise BadInput(f"{self.shown} decompresses to more than {self.max_bytes:,} bytes; "
                           "a card data file is far smaller")
        if self.compression and self.out > BOMB_FLOOR:
            packed = getattr(self, "_zip_size", None) or self.raw.count
            if self.out > BOMB_RATIO * max(packed, 1):
                raise BadInput(f"{self.shown} decompresses to over {BOMB_RATIO} times its size "
                               "(a compression bomb?); refused")
        self.tail = (self.tail + chunk)[-META_TAIL:] if len(chunk) < META_TAIL else chunk[-META_TAIL:]
        return chunk

    def close(self) -> None:
        for f in (self.inner, self.raw):
            try:
                f.close()
            except Exception:  # noqa: BLE001 - closing after an error
                pass


# -- cleaning -----------------------------------------------------------------------

class Cleaner:
    """Strings as they are stored: without control characters; names on one line."""

    def __init__(self) -> None:
        self.removed = 0

    def text(self, value: Any, limit: int = MAX_TEXT) -> str | None:
        if value is None:
            return None
        if type(value) is not str:
            return None if isinstance(value, (dict, list, bool)) else str(value)
        if "\r" in value:
            value = value.replace("\r\n", "\n")
        if "\t" in value:
            value = value.replace("\t", " ")
        # Nearly every text is printable but for its line feeds: only the others
        # pay for the full check.
        if not value.replace("\n", " ").isprintable():
            value, n = strip_controls(value)
            self.removed += n
        if len(value) > limit:
            raise _TooLong()
        return value

    def line(self, value: Any, limit: int = MAX_NAME) -> str | None:
        t = self.text(value, limit)
        if t is not None and ("\n" in t or "  " in t or t[:1] == " " or t[-1:] == " "):
            t = " ".join(t.split())
        return t


class _TooLong(Exception):
    pass


# -- the card data file --------------------------------------------------------------

class CardFile:
    """A card data file being read: ``cards()`` yields each card once; ``kind``,
    ``date`` and ``version`` are known after it (MTGJSON may put its meta last)."""

    def __init__(self, path: str, shown: str | None = None, rulings: str | None = None,
                 max_bytes: int = MAX_JSON_BYTES):
        self.path, self.shown = os.fspath(path), short(shown or os.path.basename(path), 80)
        self.rulings_path = rulings
        self.max_bytes = max_bytes
        self.kind: str | None = None
        self.date: str | None = None
        self.version: str | None = None
        self.count = self.skipped = 0
        self.rulings = 0
        self.clean = Cleaner()
        self.warnings: list[str] = []

    def cards(self, progress: Callable[[int], None] | None = None) -> Iterator[Card]:
        """Every card of the file, in file order; BadInput when it is not card data."""
        import ijson

        stream = Stream(self.path, self.shown, self.max_bytes)
        try:
            head = stream.peek(META_HEAD)
            if not head.strip():
                raise BadInput(f"{self.shown} is empty or blank: {_WHAT}")
            start = head.lstrip()
            if start.startswith(b"\xef\xbb\xbf"):
                start = start[3:].lstrip()
            if start[:1] == b"{":
                self.kind = MTGJSON
                rulings: dict[str, list[Ruling]] = {}
            elif start[:1] == b"[":
                self.kind = SCRYFALL
                rulings = read_scryfall_rulings(self.rulings_path, self.max_bytes) \
                    if self.rulings_path else {}
            else:
                raise BadInput(f"{self.shown} is not JSON card data: {_WHAT}")
            if self.kind == MTGJSON and self.rulings_path:
                self.warnings.append("--rulings is for Scryfall's files; MTGJSON's carry their "
                                     "rulings (ignored)")
            yield from self._parse(ijson, stream, head, rulings, progress)
        finally:
            stream.close()

    def _parse(self, ijson: Any, stream: Stream, head: bytes, rulings: dict[str, list[Ruling]],
               progress: Callable[[int], None] | None) -> Iterator[Card]:
        if self.kind == MTGJSON:
            # A meta before the data is in the first bytes; one after it (MTGJSON
            # sorts its keys) is read from the last bytes, once the data is read,
            # rather than parse the whole file twice.
            metas = ijson.sendable_list()
            try:
                ijson.items_coro(metas, "meta", use_float=True).send(head)
            except ijson.JSONError:
                pass  # the data below says what is wrong
            if metas:
                self._meta(metas[0])
            items = ijson.kvitems(stream, "data", use_float=True, buf_size=CHUNK)
        else:
            items = ijson.items(stream, "item", use_float=True, buf_size=CHUNK)
        seen: set[str] = set()
        try:
            for item in items:
                card = self._card(item, rulings, seen)
                if card is None:
                    continue
                self.count += 1
                if self.count > MAX_CARDS:
                    raise BadInput(f"{self.shown} holds more than {MAX_CARDS:,} cards (a real "
                                   "card data file holds about 35,000); refused")
                if progress is not None and self.count % 1000 == 0:
                    progress(self.count)
                yield card
        except ijson.JSONError as e:
            raise BadInput(_json_error(self.shown, e)) from None
        except UnicodeDecodeError:
            raise BadInput(f"{self.shown} is not UTF-8 text: not card data") from None
        except RecursionError:
            raise BadInput(f"{self.shown} is nested too deeply to be card data") from None
        if self.kind == MTGJSON and self.date is None:
            found = _meta_in_tail(stream.tail)
            if found is not None:
                self._meta(found)
        if not self.count:
            raise BadInput(f"{self.shown} holds no cards: {_WHAT}")
        if self.kind == MTGJSON and self.date is None:
            raise BadInput(f"{self.shown} has no meta date (MTGJSON's files carry "
                           "{\"meta\": {\"date\": \"YYYY-MM-DD\"}})")
        if self.kind == SCRYFALL:
            self.date = _scryfall_date(self.path, self.shown)
            self.version = self.version or "Scryfall oracle-cards"
        if self.skipped:
            self.warnings.append(f"left out {self.skipped:,} card(s) whose name or text is too "
                                 "long to be a card's")
        if self.clean.removed:
            self.warnings.append(f"removed {self.clean.removed:,} control character(s) from names "
                                 "and texts")

    def _meta(self, meta: Any) -> None:
        if not isinstance(meta, dict):
            raise BadInput(f"{self.shown}: its meta is not an object: {_WHAT}")
        from crsearch.store.datadir import valid_date

        date = meta.get("date")
        if isinstance(date, str):
            date = date[:10]
        try:
            self.date = valid_date(date)
        except BadInput:
            raise BadInput(f"{self.shown}: meta.date {short(repr(meta.get('date')), 40)} is not "
                           "a date YYYY-MM-DD") from None
        version = self.clean.line(meta.get("version"), 60) if meta.get("version") is not None else None
        self.version = f"MTGJSON {version}" if version else "MTGJSON"

    def _card(self, item: Any, rulings: dict[str, list[Ruling]], seen: set[str]) -> Card | None:
        try:
            if self.kind == MTGJSON:
                card = self._mtgjson(item)
            else:
                card = self._scryfall(item, rulings)
        except _TooLong:
            self.skipped += 1
            return None
        if card is None or card.name in seen:
            return None
        seen.add(card.name)
        self.rulings += len(card.rulings)
        return card

    def _mtgjson(self, item: Any) -> Card | None:
        key, entries = item
        if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
            hint = (" (this looks like AllPrintings or another MTGJSON file)"
                    if isinstance(entries, dict) else "")
            raise BadInput(f"{self.shown}: data entry {short(repr(key), 40)} is not a list of card "
                           f"faces{hint}: {_WHAT}")
        c = self.clean
        name = c.line(entries[0].get("name") if isinstance(entries[0].get("name"), str) else key)
        if not name:
            return None
        by_side: dict[str, dict[str, Any]] = {}
        for e in entries:
            by_side.setdefault(str(e.get("side") or ""), e)
        faces = []
        for side, e in sorted(by_side.items()):
            if not side and len(by_side) > 1:
                continue
            faces.append(Face(
                name=c.line(e.get("faceName")) or name, mana_cost=c.line(e.get("manaCost")),
                type_line=c.line(e.get("type")), text=c.text(e.get("text")),
                power=c.line(e.get("power"), 20), toughness=c.line(e.get("toughness"), 20),
                loyalty=c.line(e.get("loyalty"), 20), defense=c.line(e.get("defense"), 20),
                side=c.line(side, 4) if side else None))
        layout = c.line(entries[0].get("layout"), 40)
        return Card(name, layout, faces, self._rulings(entries[0].get("rulings"), "date", "text"))

    def _scryfall(self, item: Any, rulings: dict[str, list[Ruling]]) -> Card | None:
        if not isinstance(item, dict):
            raise BadInput(f"{self.shown} is a list of {type(item).__name__}s, not of cards: {_WHAT}")
        kind = item.get("object", "card")
        if kind == "ruling":
            raise BadInput(f"{self.shown} is Scryfall's rulings file: give it with --rulings, "
                           "beside the oracle-cards file")
        if kind != "card" or not isinstance(item.get("name"), str):
            raise BadInput(f"{self.shown} holds a {short(str(kind), 20)!r}, not a card: {_WHAT}")
        if item.get("layout") in NOT_CARDS or item.get("lang", "en") != "en":
            return None
        c = self.clean
        name = c.line(item["name"])
        if not name:
            return None
        parts = item.get("card_faces") if isinstance(item.get("card_faces"), list) else None
        faces = []
        for n, f in enumerate(parts or [item]):
            if not isinstance(f, dict):
                continue
            faces.append(Face(
                name=c.line(f.get("name")) or name, mana_cost=c.line(f.get("mana_cost")) or None,
                type_line=c.line(f.get("type_line")), text=c.text(f.get("oracle_text")),
                power=c.line(f.get("power"), 20), toughness=c.line(f.get("toughness"), 20),
                loyalty=c.line(f.get("loyalty"), 20), defense=c.line(f.get("defense"), 20),
                side="abcdefgh"[n] if parts and n < 8 else None))
        oracle = item.get("oracle_id") or (parts[0].get("oracle_id") if parts and isinstance(parts[0], dict)
                                           else None)
        return Card(name, c.line(item.get("layout"), 40), faces, list(rulings.get(str(oracle), [])))

    def _rulings(self, value: Any, date: str, text: str) -> list[Ruling]:
        if not isinstance(value, list):
            return []
        out = []
        for r in value[:MAX_RULINGS]:
            if isinstance(r, dict) and isinstance(r.get(text), str):
                d = self.clean.line(r.get(date), 10) or ""
                out.append(Ruling(d, self.clean.text(r[text], 5000) or ""))
        return sorted(out, key=lambda r: r.date)


def read_scryfall_rulings(path: str, max_bytes: int = MAX_JSON_BYTES) -> dict[str, list[Ruling]]:
    """Scryfall's rulings bulk file, by oracle id, each card's oldest first."""
    import ijson

    shown = short(os.path.basename(path), 80)
    stream = Stream(path, shown, max_bytes)
    clean = Cleaner()
    out: dict[str, list[Ruling]] = {}
    items = ijson.sendable_list()
    coro = ijson.items_coro(items, "item", use_float=True)
    seen = 0
    try:
        while True:
            chunk = stream.read()
            if chunk:
                coro.send(chunk)
            else:
                coro.close()
            for r in items:
                seen += 1
                if not isinstance(r, dict) or r.get("object", "ruling") != "ruling" or \
                        not isinstance(r.get("oracle_id"), str):
                    raise BadInput(f"{shown} is not Scryfall's rulings file (a list of "
                                   "{\"object\": \"ruling\", \"oracle_id\", \"published_at\", "
                                   "\"comment\"})")
                try:
                    ruling = Ruling(clean.line(r.get("published_at"), 10) or "",
                                    clean.text(r.get("comment"), 5000) or "")
                except _TooLong:
                    continue
                out.setdefault(r["oracle_id"], []).append(ruling)
            del items[:]
            if not chunk:
                break
    except ijson.JSONError as e:
        raise BadInput(_json_error(shown, e)) from None
    except UnicodeDecodeError:
        raise BadInput(f"{shown} is not UTF-8 text: not Scryfall's rulings file") from None
    finally:
        stream.close()
    for rs in out.values():
        rs.sort(key=lambda r: r.date)
    return out


def _json_error(shown: str, e: Exception) -> str:
    """One line for a JSON error: cut short, or where the JSON goes wrong."""
    text = str(e)
    if "premature EOF" in text or not text.strip():
        return f"{shown} ends before its JSON does (cut short?)"
    first = text.split("\n", 1)[0].removeprefix("parse error: ")
    return f"{shown} is not valid JSON ({short(' '.join(first.split()), 70)})"


_META_KEY = re.compile(rb'"meta"\s*:\s*')


def _meta_in_tail(tail: bytes) -> Any:
    """The top-level ``"meta"`` object at the very end of an MTGJSON file, or None."""
    import json

    for m in reversed(list(_META_KEY.finditer(tail))):
        try:
            text = tail[m.end():].decode("utf-8")
            value, end = json.JSONDecoder().raw_decode(text)
        except (ValueError, UnicodeDecodeError):
            continue
        # The file's last value: only the top-level object's "}" may follow.
        if text[end:].strip() == "}":
            return value
    return None


_STAMP = re.compile(r"(?<!\d)(20\d\d)(\d\d)(\d\d)(?:\d{6})?(?!\d)")


def _scryfall_date(path: str, shown: str) -> str:
    """The date of a Scryfall bulk file: in its name ("oracle-cards-20260101100000.json"),
    else the day it was last written."""
    import datetime

    from crsearch.store.datadir import valid_date

    for m in _STAMP.finditer(os.path.basename(path)):
        try:
            return valid_date(f"{m[1]}-{m[2]}-{m[3]}")
        except BadInput:
            continue
    stamp = os.stat(path).st_mtime
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).date().isoformat()


__all__ = ["MAX_CARDS", "MAX_JSON_BYTES", "MTGJSON", "SCRYFALL", "CardFile", "Stream",
           "read_scryfall_rulings"]
