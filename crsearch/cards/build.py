"""Importing card data: a file streamed in, the store's files written out.

:func:`import_file` reads a card data file one card at a time
(``read.CardFile``) and writes each card's record to its shard as it comes,
keeping only the names in memory; the name index, the word list and the
mention index are written at the end, then the folder is published
(``store.CardStore.publish``).  The same file twice is "already up to date"
without being parsed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from crsearch.cards import mentions
from crsearch.cards.model import Card
from crsearch.cards.names import (
    KIND_FACE,
    KIND_NAME,
    NAMES_FILE,
    STOP,
    WORDS_FILE,
    Entry,
    fold_word,
    name_words,
    shard_of,
)
from crsearch.cards.read import MAX_JSON_BYTES, CardFile
from crsearch.cards.store import FORMAT, META, SHARDS, CardData, CardStore
from crsearch.errors import short
from crsearch.store.datadir import Store

_LOWER_WORD = re.compile(r"(?<![\w'])[a-z]+(?:'[a-z]+)*(?![\w'])")


class CardImport:
    """What ``cards update`` did: the card data imported (or found up to date)."""

    def __init__(self, data_dir: str, entry: dict[str, Any], unchanged: bool = False,
                 warnings: list[str] | None = None):
        self.data_dir, self.entry, self.unchanged = data_dir, entry, unchanged
        self.warnings = warnings or []

    @property
    def date(self) -> str:
        return str(self.entry["date"])

    @property
    def count(self) -> int:
        return int(self.entry["count"])

    def to_dict(self) -> dict[str, Any]:
        return {"data_dir": self.data_dir, "unchanged": self.unchanged, "warnings": self.warnings,
                **{k: self.entry.get(k) for k in ("date", "version", "kind", "count", "faces",
                                                  "rulings", "source", "dir")}}


def digest(path: str) -> tuple[str, int]:
    """SHA-256 and size of a file."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size


class Writer:
    """Writes one card data folder: shards as cards come, indexes at the end."""

    def __init__(self, folder: Path):
        self.folder = folder
        (folder / SHARDS).mkdir(parents=True, exist_ok=True)
        self.shards: dict[str, tuple[IO[bytes], Any]] = {}
        self.pos: dict[str, int] = {}
        self.names: list[str] = []
        self.sources: list[tuple[list[str], str, list[list[str]], tuple[str, int, int]]] = []
        self.vocab: set[str] = set()
        self.text_words: set[str] = set()
        self.count = self.faces = self.rulings = self.nameless = 0

    def add(self, card: Card) -> None:
        """Write one card's record to its shard and remember its names."""
        words = name_words(card.name)
        # A name of no letters ("_____") is its own key, found only as typed.
        key = " ".join(words) or card.name.strip()
        if not key:
            self.nameless += 1
            return
        shard = shard_of(key)
        data = json.dumps(card.stored(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if shard not in self.shards:
            f = open(self.folder / SHARDS / f"{shard}.json", "wb")
            self.shards[shard] = (f, hashlib.sha256())
            self.pos[shard] = 0
            self._write(shard, b"[\n")
        else:
            self._write(shard, b",\n")
        at = (shard, self.pos[shard], len(data))
        self._write(shard, data)
        self.names.append(Entry.line(key, KIND_NAME, card.name, *at))
        face_words = []
        for face in card.faces:
            fw = words if face.name == card.name else name_words(face.name)
            face_words.append(fw)
            self.vocab.update(fw)
            fk = " ".join(fw)
            if fk and fk != key:
                self.names.append(Entry.line(fk, KIND_FACE, card.name, *at))
            if face.text:
                # Words in lower case are ordinary words; capitalised ones are
                # mostly names ("Whenever Prowl attacks").
                self.text_words.update(_LOWER_WORD.findall(face.text))
        self.vocab.update(words)
        if words:
            self.sources.append((words, card.name, face_words, at))
        self.count += 1
        self.faces += len(card.faces) > 1
        self.rulings += len(card.rulings)

    def _write(self, shard: str, data: bytes) -> None:
        f, h = self.shards[shard]
        f.write(data)
        h.update(data)
        self.pos[shard] += len(data)

    def finish(self, entry: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
        """Close the shards, write the indexes and meta.json; return the files' manifest."""
        files: dict[str, list[Any]] = {}
        for shard, (f, h) in sorted(self.shards.items()):
            self._write(shard, b"\n]\n")
            f.flush()
            os.fsync(f.fileno())
            f.close()
            files[f"{SHARDS}/{shard}.json"] = [self.pos[shard], h.hexdigest()]
        common_words = {fold_word(t) for t in self.text_words} | STOP
        texts = {
            NAMES_FILE: "".join(sorted(self.names, key=lambda line: line.encode("utf-8"))),
            WORDS_FILE: "".join(w + "\n" for w in sorted(self.vocab)),
            mentions.MENTIONS_FILE: "".join(mentions.index_lines(
                self.sources, lambda ws: all(w in common_words for w in ws))),
        }
        for name, text in texts.items():
            data = text.encode("utf-8")
            _write_synced(self.folder / name, data)
            files[name] = [len(data), hashlib.sha256(data).hexdigest()]
        meta = {"format": FORMAT, "entry": entry, "files": files, "warnings": warnings}
        _write_synced(self.folder / META, json.dumps(meta, ensure_ascii=False, sort_keys=True,
                                                     separators=(",", ":")).encode("utf-8"))
        return files

    def close(self) -> None:
        for f, _ in self.shards.values():
            f.close()


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def import_file(store: Store, path: str, *, shown: str | None = None, rulings: str | None = None,
                force: bool = False, url: str | None = None,
                progress: Callable[[int], None] | None = None,
                max_bytes: int = MAX_JSON_BYTES) -> CardImport:
    """Import a card data file (AtomicCards or Scryfall oracle-cards, compressed or not).

    :param rulings: Scryfall's rulings bulk file, read beside an oracle-cards file.
    :param force: replace the stored card data even by an older or smaller copy.
    :param progress: called with the number of cards read, every thousand.
    :param url: where the file was downloaded from (kept in the catalog).
    """
    import shutil

    from crsearch.errors import BadInput

    cards = CardStore(store)
    store.check_ours()
    shown = short(shown or os.path.basename(path), 80)
    if not os.path.exists(path):
        raise BadInput(f"no such file: {shown}")
    if os.path.isdir(path):
        raise BadInput(f"{shown} is a folder, not a card data file")
    try:
        sha, size = digest(path)
        if rulings is not None:
            rsha, rsize = digest(rulings)
            sha = hashlib.sha256(f"{sha} {rsha}".encode()).hexdigest()
            size += rsize
    except OSError as e:
        raise BadInput(f"cannot read {short(getattr(e, 'filename', None) or shown)}: "
                       f"{e.strerror or e}") from None
    current = cards.current_or_none()
    if current is not None and current.entry.get("source", {}).get("sha256") == sha and not force:
        return CardImport(str(store.root), current.entry, unchanged=True)
    import gc

    staged = cards.stage()
    writer = Writer(staged)
    collecting = gc.isenabled()
    # The parser makes a dict or a list for every value of a 100 MB file, all
    # freed by reference counting: the cycle collector would only scan them.
    gc.disable()
    try:
        source = CardFile(path, shown, rulings, max_bytes)
        for card in source.cards(progress):
            writer.add(card)
        assert source.date is not None and source.kind is not None
        entry = {"date": source.date, "version": source.version, "kind": source.kind,
                 "count": writer.count, "faces": writer.faces, "rulings": writer.rulings,
                 "source": {"name": shown, "sha256": sha, "size": size, "url": url}}
        warnings = list(source.warnings)
        if writer.nameless:
            warnings.append(f"left out {writer.nameless:,} card(s) without a name")
        writer.finish(entry, warnings)
        data: CardData = cards.publish(staged, entry, force)
    finally:
        if collecting:
            gc.enable()
        writer.close()
        if staged.exists():
            shutil.rmtree(staged, ignore_errors=True)
    return CardImport(str(store.root), data.entry, warnings=warnings)


__all__ = ["CardImport", "Writer", "digest", "import_file"]
