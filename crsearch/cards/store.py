"""Card data in the data folder, beside the releases: written atomically, read by name.

Layout::

    DATA/cards/catalog.json                which card data is in use
    DATA/cards/<date>.<hash>.<random>/     one imported card data set
        meta.json                          date, version, counts, source, and the
                                           size and SHA-256 of every file below
        names.tsv                          card and face names, sorted (see names.py)
        words.txt                          every word of every name (typo correction)
        mentions.tsv                       first-word index of names and their parts
                                           (see mentions.py)
        shards/<letter>.json               the cards whose name starts with <letter>:
                                           a JSON array, one card per line

A card lookup maps ``names.tsv``, bisects it for the name and reads the one
card's bytes from its shard: a few pages, never the whole data.  Every import
is written to a staging folder (``.tmp-…``) that is renamed into place, and
the catalog is replaced in one step under the store's lock; the replaced
folder is marked retired and removed later, as releases are.  ``repair``
checks every file against meta.json (:func:`repair_cards`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from crsearch.cards.model import Card
from crsearch.errors import DamagedStore, KeptCards, NoData, short
from crsearch.store.datadir import DIR_NAME, OWNER, RETIRED, STAGING, loads, read_json

T = TypeVar("T")

if TYPE_CHECKING:
    from pathlib import Path

    from crsearch.cards.mentions import Mention
    from crsearch.cards.names import Entry, NameIndex, SortedLines
    from crsearch.store.datadir import Store
    from crsearch.store.repair import RepairReport

CARDS = "cards"
CATALOG = "catalog.json"
META = "meta.json"
SHARDS = "shards"
FORMAT = 1
_SHARD = re.compile(r"[a-z0-9_]")
REPAIR = "run `crsearch repair`"
#: A newer copy with fewer cards than this share of the stored one is refused.
SMALLER = 0.95
UPDATE = "run `crsearch cards update` (downloads MTGJSON's AtomicCards) or " \
         "`crsearch cards update --from AtomicCards.json`"


class CardData:
    """One imported card data set: its catalog entry, its name index and its shards."""

    def __init__(self, path: str, entry: dict[str, Any]):
        self.dir = path
        self.entry = entry
        self._names: SortedLines | None = None
        self._mentions: SortedLines | None = None
        self._index: NameIndex | None = None

    @property
    def date(self) -> str:
        """The date of the card data (MTGJSON's meta date, or the Scryfall file's)."""
        return str(self.entry["date"])

    @property
    def count(self) -> int:
        return int(self.entry.get("count", 0))

    def _damaged(self, what: str, why: str) -> DamagedStore:
        return DamagedStore(f"card data {self.date}: {what} is {why}; {REPAIR}")

    def _lines(self, name: str) -> SortedLines:
        from crsearch.cards.names import SortedLines

        try:
            return SortedLines.open(os.path.join(self.dir, name))
        except FileNotFoundError:
            raise self._damaged(name, "missing") from None
        except OSError as e:
            raise self._damaged(name, f"unreadable ({e.strerror or e})") from None

    def index(self) -> NameIndex:
        """The card and face names, for lookup."""
        if self._index is None:
            from crsearch.cards.names import NAMES_FILE, WORDS_FILE, NameIndex

            def words() -> list[str]:
                # Read only when a typed name needs correcting.
                try:
                    with open(os.path.join(self.dir, WORDS_FILE), encoding="utf-8") as f:
                        return f.read().split()
                except OSError:
                    raise self._damaged(WORDS_FILE, "missing or unreadable") from None

            self._index = NameIndex(self._lines(NAMES_FILE), words)
        return self._index

    def entry_of(self, name: str) -> Entry:
        """Where the card ``name`` names is kept (NotFound with candidates if none or many)."""
        try:
            return self.index().lookup(name)
        except (ValueError, UnicodeDecodeError):
            from crsearch.cards.names import NAMES_FILE

            raise self._damaged(NAMES_FILE, "damaged") from None

    def card(self, name: str) -> Card:
        """The card ``name`` names: exact, folded, partial or misspelt."""
        e = self.entry_of(name)
        return self.read(e.shard, e.offset, e.length)

    def read(self, shard: str, offset: int, length: int) -> Card:
        """The card whose record lies at ``offset`` in a shard."""
        if not _SHARD.fullmatch(shard) or offset < 0 or not 0 < length < 1 << 24:
            raise self._damaged("names.tsv", "damaged (a bad record address)")
        return self._read_shard(shard, lambda f: Card.from_dict(
            loads(_read_at(f, offset, length).decode("utf-8"))))

    def shards(self) -> list[str]:
        """The shards of this card data ("a", "b", ..., "_"), sorted."""
        files = self.entry_files()
        return sorted(rel[len(SHARDS) + 1:-5] for rel in files
                      if rel.startswith(f"{SHARDS}/") and rel.endswith(".json"))

    def entry_files(self) -> dict[str, Any]:
        """meta.json's files: relative path -> [size, SHA-256]."""
        try:
            meta = read_json(os.path.join(self.dir, META), "meta")
            files = meta["files"]
            if not isinstance(files, dict):
                raise TypeError
        except FileNotFoundError:
            raise self._damaged(META, "missing") from None
        except (OSError, ValueError, KeyError, TypeError):
            raise self._damaged(META, "damaged") from None
        return files

    def shard_cards(self, shard: str) -> list[Card]:
        """Every card of one shard, in stored order (the shard is read whole)."""
        if not _SHARD.fullmatch(shard):
            raise self._damaged(f"{SHARDS}/{shard}.json", "not a shard")
        return self._read_shard(shard, lambda f: [Card.from_dict(d)
                                                  for d in loads(f.read().decode("utf-8"))])

    def _read_shard(self, shard: str, read: Callable[[BinaryIO], T]) -> T:
        """``read`` over the shard file, its failures told as damaged card data."""
        name = f"{SHARDS}/{shard}.json"
        try:
            with open(os.path.join(self.dir, SHARDS, f"{shard}.json"), "rb") as f:
                return read(f)
        except FileNotFoundError:
            raise self._damaged(name, "missing") from None
        except OSError as e:
            raise self._damaged(name, f"unreadable ({e.strerror or e})") from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise self._damaged(name, "damaged") from None

    def name_entries(self) -> list[Entry]:
        """Every line of ``names.tsv``: each card's name and each face's, with its shard."""
        from crsearch.cards.names import NAMES_FILE, Entry

        try:
            with open(os.path.join(self.dir, NAMES_FILE), "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise self._damaged(NAMES_FILE, "missing") from None
        except OSError as e:
            raise self._damaged(NAMES_FILE, f"unreadable ({e.strerror or e})") from None
        try:
            return [Entry(line) for line in data.splitlines() if line]
        except (ValueError, UnicodeDecodeError):
            raise self._damaged(NAMES_FILE, "damaged") from None

    def find_in_text(self, text: str) -> list[Mention]:
        """The cards ``text`` names (full names, faces, telling parts; see ``mentions.find``),
        each with its card."""
        from crsearch.cards import mentions

        if self._mentions is None:
            self._mentions = self._lines(mentions.MENTIONS_FILE)
        try:
            return mentions.find(text, self._mentions, self.read)
        except (ValueError, IndexError, UnicodeDecodeError):
            raise self._damaged(mentions.MENTIONS_FILE, "damaged") from None

    def to_dict(self) -> dict[str, Any]:
        """What ``crsearch cards --json`` prints: the catalog entry and where it lives."""
        return {**self.entry, "path": self.dir}


class CardStore:
    """The card data of one data folder (``DATA/cards``)."""

    def __init__(self, store: Store):
        self.store = store
        self.dir = os.path.join(store.dir, CARDS)

    def catalog(self) -> dict[str, Any] | None:
        """The catalog's entry in use, checked; None when no card data was imported."""
        p = os.path.join(self.dir, CATALOG)
        try:
            data = read_json(p, "catalog")
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise DamagedStore(f"the card catalog {p} is damaged ({short(e, 60)}); {REPAIR}") from None
        problem = entry_problem(data.get("current") if isinstance(data, dict) else None)
        if problem:
            raise DamagedStore(f"the card catalog {p} is damaged ({problem}); {REPAIR}")
        return data["current"]

    def current(self) -> CardData | None:
        entry = self.catalog()
        if entry is None:
            return None
        return CardData(os.path.join(self.dir, entry["dir"]), entry)

    def current_or_none(self) -> CardData | None:
        """:meth:`current`, with a damaged catalog read as none (an import replaces it)."""
        try:
            return self.current()
        except DamagedStore:
            return None

    def require(self) -> CardData:
        """The card data in use; NoData (exit 3) when none was imported."""
        data = self.current()
        if data is None:
            raise NoData(f"no card data imported yet in {short(self.store.dir)}: {UPDATE}")
        return data

    # -- writing -----------------------------------------------------------------
    def stage(self) -> Path:
        """A private folder to write an import into, not yet visible to readers."""
        import tempfile
        from pathlib import Path

        from crsearch.store.datadir import mark_owner

        self.store.check_ours()
        os.makedirs(self.dir, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f"{STAGING}cards-", dir=self.dir))
        mark_owner(tmp)
        return tmp

    def refusal(self, entry: dict[str, Any], current: dict[str, Any] | None) -> str | None:
        """Why ``entry`` must not replace the card data in use (None: it may)."""
        if current is None:
            return None
        kept = f"kept the stored card data of {current['date']} ({current['count']:,} cards)"
        name = short(entry.get("source", {}).get("name") or "the new copy", 60)
        if entry["date"] < current["date"]:
            return f"{kept}: {name} is older ({entry['date']}); use --force to replace it"
        floor = current["count"] if entry["date"] == current["date"] else current["count"] * SMALLER
        if entry["count"] < floor:
            return (f"{kept}: {name} has fewer cards ({entry['count']:,}); use --force to "
                    "replace it")
        return None

    def publish(self, staged: Path, entry: dict[str, Any], force: bool = False) -> CardData:
        """Rename a staged import into place and make it the card data in use.

        An older copy, or one with fewer cards, is refused (``KeptCards``)
        unless ``force``.  The replaced folder stays for ``RETIRE_GRACE``
        seconds, for readers still using it.
        """
        import shutil

        from crsearch.store.datadir import retire, write_json_atomic

        try:
            with self.store.lock():
                self.store.check_ours()
                try:
                    current = self.catalog()
                except DamagedStore:
                    current = None  # the import replaces a damaged catalog
                refusal = None if force else self.refusal(entry, current)
                if refusal:
                    raise KeptCards(refusal)
                key = str(entry.get("source", {}).get("sha256", ""))[:8]
                if not re.fullmatch(r"[0-9a-f]{8}", key):
                    key = os.urandom(4).hex()
                final_name = f"{entry['date']}.{key}.{os.urandom(3).hex()}"
                final = os.path.join(self.dir, final_name)
                (staged / OWNER).unlink(missing_ok=True)
                os.replace(staged, final)
                entry = {**entry, "dir": final_name}
                write_json_atomic(_path(self.dir, CATALOG), {"format": FORMAT, "current": entry})
                if current is not None and current.get("dir") != final_name:
                    retire(_path(self.dir, current["dir"]))
                sweep_cards(self)
        finally:
            if staged.exists():
                shutil.rmtree(staged, ignore_errors=True)
        return CardData(final, entry)


def _path(*parts: str) -> Path:
    from pathlib import Path

    return Path(*parts)


def entry_problem(entry: Any) -> str | None:
    """What is wrong with a card catalog entry, or None."""
    from crsearch.errors import BadInput
    from crsearch.store.datadir import valid_date

    if not isinstance(entry, dict):
        return "no card data entry"
    try:
        valid_date(entry.get("date"))
    except BadInput:
        return "no valid date"
    m = DIR_NAME.fullmatch(str(entry.get("dir", "")))
    if not isinstance(entry.get("dir"), str) or not m or m.group(1) != entry["date"]:
        return "no valid folder"
    if not isinstance(entry.get("count"), int):
        return "no card count"
    return None


# -- repair ------------------------------------------------------------------------

def sweep_cards(cards: CardStore, report: RepairReport | None = None) -> None:
    """Remove staging folders of dead imports and retired card folders past their grace.

    The caller holds the store's lock.  Unknown folders are left alone.
    """
    import shutil
    import time

    from crsearch.store.repair import RETIRE_GRACE, abandoned

    try:
        names = os.listdir(cards.dir)
    except OSError:
        return
    try:
        entry = cards.catalog()
    except DamagedStore:
        return  # repair rebuilds the catalog first
    current = entry["dir"] if entry else None
    for name in names:
        p = _path(cards.dir, name)
        if name == current or not p.is_dir():
            continue
        gone = False
        if name.startswith(STAGING):
            gone = abandoned(p)
        elif DIR_NAME.fullmatch(name) and (p / META).is_file():
            try:
                since = float((p / RETIRED).read_text(encoding="ascii"))
            except FileNotFoundError:
                from crsearch.store.datadir import retire

                retire(p)  # not in use and not marked: its grace starts now
                continue
            except (OSError, ValueError):
                since = 0.0
            gone = time.time() - since > RETIRE_GRACE
        if gone:
            shutil.rmtree(p, ignore_errors=True)
            if report is not None:
                report.removed.append(f"removed the leftover folder cards/{name}")


def check_folder(folder: Path) -> dict[str, Any]:
    """The meta of a card data folder whose every file matches it; ValueError if not."""
    from crsearch.store.datadir import file_digest

    meta = read_json(folder / META, "meta")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or not isinstance(meta.get("files"), dict):
        raise ValueError("meta.json is not card data's")
    for rel, want in meta["files"].items():
        p = folder / rel
        if not p.is_file() or file_digest(p) != list(want):
            raise ValueError(f"{rel} is {'damaged' if p.is_file() else 'missing'}")
    problem = entry_problem({**meta.get("entry", {}), "dir": folder.name})
    if problem:
        raise ValueError(f"meta.json has {problem}")
    return meta


def repair_cards(cards: CardStore, report: RepairReport) -> None:
    """Check the card data in use file by file, fall back to the newest whole folder,
    set damaged folders aside, rewrite the catalog and sweep leftovers.

    The caller holds the store's lock.  Card data cannot be rebuilt from
    anything else: a damaged set must be imported again.
    """
    from crsearch.store.datadir import DAMAGED, write_json_atomic

    root = _path(cards.dir)
    if not root.is_dir():
        return
    try:
        entry = cards.catalog()
    except DamagedStore as e:
        report.fixed.append(f"rebuilt the damaged card catalog ({e})".replace(f"; {REPAIR}", ""))
        entry = None
    folders = sorted((p for p in root.iterdir() if p.is_dir() and DIR_NAME.fullmatch(p.name)),
                     key=lambda p: (p.name == (entry or {}).get("dir"),
                                    not (p / RETIRED).exists(), p.name), reverse=True)
    chosen: dict[str, Any] | None = None
    for p in folders:
        try:
            meta = check_folder(p)
        except (OSError, ValueError) as e:
            damaged = p.with_name(DAMAGED + p.name)
            try:
                os.replace(p, damaged)
            except OSError:
                pass
            report.dropped.append(f"card data {p.name.split('.')[0]}: {short(e, 60)}; set aside as "
                                  f"cards/{damaged.name}: {UPDATE}")
            continue
        chosen = {**meta["entry"], "dir": p.name}
        (p / RETIRED).unlink(missing_ok=True)
        break
    if chosen != entry:
        if chosen is None:
            (root / CATALOG).unlink(missing_ok=True)
        else:
            write_json_atomic(root / CATALOG, {"format": FORMAT, "current": chosen})
            if entry is not None:
                report.fixed.append(f"card data: now using {chosen['date']} ({chosen['dir']})")
    if chosen is not None:
        report.cards = f"card data {chosen['date']} ({chosen['count']:,} cards)"
    sweep_cards(cards, report)


def _read_at(f: BinaryIO, offset: int, length: int) -> bytes:
    f.seek(offset)
    return f.read(length)


__all__ = ["CARDS", "CardData", "CardStore", "check_folder", "entry_problem", "repair_cards",
           "sweep_cards"]
