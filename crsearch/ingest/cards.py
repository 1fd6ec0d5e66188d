"""Where card data comes from: MTGJSON's AtomicCards, downloaded, or a local file.

``crsearch cards update`` downloads MTGJSON's AtomicCards (compressed:
``.json.xz``, or ``.json.gz`` where Python has no lzma) under the same rules
as a release (``sources.fetch_to``: http(s) only, a size cap, a deadline,
progress), streamed to a file in the data folder's staging area, checked
against MTGJSON's published SHA-256 and imported from there
(``cards.build.import_file``).  MTGJSON's small ``Meta.json`` is read first:
when its date is the stored card data's, nothing is downloaded.

MTGJSON's data is MIT licensed; the card texts in it are Wizards of the
Coast's, shown under its Fan Content Policy.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from crsearch.cards.build import CardImport, import_file
from crsearch.cards.store import CardStore
from crsearch.errors import BadInput, KeptCards, SourceError, short
from crsearch.ingest import sources

if TYPE_CHECKING:
    from crsearch.store.datadir import Store

MTGJSON_API = "https://mtgjson.com/api/v5/"
META_URL = MTGJSON_API + "Meta.json"
#: The compressed AtomicCards is about 20-40 MB; a plain one about 150 MB.
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def atomic_cards_url() -> str:
    """MTGJSON's AtomicCards in the smallest form this Python can read."""
    try:
        import lzma  # noqa: F401  (some builds of Python lack it)
    except ImportError:
        return MTGJSON_API + "AtomicCards.json.gz"
    return MTGJSON_API + "AtomicCards.json.xz"


def update_cards(store: Store, source: str | None = None, *, rulings: str | None = None,
                 force: bool = False, download: sources.Progress | None = None,
                 progress: Callable[[int], None] | None = None, deadline: float | None = None,
                 max_bytes: int | None = None) -> CardImport:
    """Download MTGJSON's AtomicCards (``source`` None), or import ``source``
    (a local file or an http(s) URL), and store it as the card data in use.

    :param rulings: Scryfall's rulings bulk file, beside an oracle-cards file.
    :param force: replace the stored card data even by an older or smaller copy.
    :param download: called with (bytes so far, total or None) while downloading.
    :param progress: called with the number of cards read, every thousand.
    """
    if rulings is not None and _URL.match(rulings):
        raise BadInput("--rulings takes a local file (download Scryfall's rulings bulk file first)")
    if source is not None and not source.strip():
        raise BadInput("--from needs a card data file or an http(s) URL (got an empty string)")
    if source is not None and not _URL.match(source):
        path = os.path.expanduser(source)
        return import_file(store, path, shown=sources.display_name(os.path.basename(path) or path),
                           rulings=rulings, force=force, progress=progress)
    if source is not None and source.split(":", 1)[0].lower() not in ("http", "https"):
        raise BadInput(f"unsupported URL scheme {short(source.split(':', 1)[0], 20)!r}: {short(source)}")
    url = source or atomic_cards_url()
    budget = sources.Budget(deadline)
    cards = CardStore(store)
    warnings: list[str] = []
    if source is None and not force:
        current = cards.current_or_none()
        published = _published_date(budget, warnings)
        if current is not None and published is not None:
            if published == current.date:
                return CardImport(str(store.root), current.entry, unchanged=True, warnings=warnings)
            if published < current.date:
                raise KeptCards(f"kept the stored card data of {current.date}: MTGJSON's is older "
                                f"({published}); use --force to replace it")
    staged = cards.stage()
    try:
        name = sources.display_name(url.rsplit("/", 1)[-1].split("?", 1)[0] or "AtomicCards.json")
        target = staged / "download"
        with open(target, "wb") as out:
            final = sources.fetch_to(url, out, progress=download, deadline=budget.left(),
                                     max_bytes=max_bytes or DEFAULT_MAX_BYTES)
        if source is None:
            _check_sha256(url, str(target), budget, warnings)
        result = import_file(store, str(target), shown=name, force=force, url=final,
                             progress=progress)
    finally:
        import shutil

        shutil.rmtree(staged, ignore_errors=True)
    result.warnings[:0] = warnings
    return result


def _published_date(budget: sources.Budget, warnings: list[str]) -> str | None:
    """The date of MTGJSON's current build (its Meta.json), or None if unreadable."""
    import json

    try:
        data: Any = json.loads(sources.fetch(META_URL, deadline=budget.left(), max_bytes=1 << 20))
        meta = data.get("meta") or data.get("data") or {}
        date = str(meta.get("date", ""))[:10]
        return date if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) else None
    except SourceError as e:
        warnings.append(f"could not read MTGJSON's Meta.json ({e}); downloading anyway")
    except (ValueError, AttributeError, UnicodeDecodeError):
        warnings.append("MTGJSON's Meta.json is not what it should be; downloading anyway")
    return None


def _check_sha256(url: str, path: str, budget: sources.Budget, warnings: list[str]) -> None:
    """Compare the download with the SHA-256 MTGJSON publishes beside it."""
    from crsearch.cards.build import digest

    try:
        text = sources.fetch(url + ".sha256", deadline=budget.left(), max_bytes=4096)
    except SourceError as e:
        warnings.append(f"could not read the published checksum ({e}); not checked")
        return
    m = re.search(rb"\b[0-9a-fA-F]{64}\b", text)
    if m is None:
        warnings.append("the published checksum is not a SHA-256; not checked")
        return
    if digest(path)[0] != m.group().decode().lower():
        raise SourceError(f"the download of {short(url)} does not match its published SHA-256 "
                          "(damaged in transit?); nothing was changed")


__all__ = ["DEFAULT_MAX_BYTES", "META_URL", "atomic_cards_url", "update_cards"]
