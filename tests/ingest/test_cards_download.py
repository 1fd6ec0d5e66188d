"""`cards update` online: MTGJSON's files from a local HTTP server, under the download rules."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import lzma
import threading

import pytest
from conftest import ATOMIC

from crsearch.cards.store import CardStore
from crsearch.errors import BadInput, KeptCards, SourceError
from crsearch.ingest import cards as ingest_cards
from crsearch.ingest.cards import update_cards
from crsearch.store.datadir import Store


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture
def mtgjson(tmp_path, monkeypatch):
    """A folder served on 127.0.0.1 as MTGJSON's API: AtomicCards.json.xz, its
    .sha256 and Meta.json (dated as the fixture)."""
    api = tmp_path / "api"
    api.mkdir()
    packed = lzma.compress(ATOMIC.read_bytes())
    (api / "AtomicCards.json.xz").write_bytes(packed)
    (api / "AtomicCards.json.xz.sha256").write_text(hashlib.sha256(packed).hexdigest())
    (api / "Meta.json").write_text(json.dumps({"meta": {"date": "2026-11-20", "version": "5.2.2"},
                                               "data": {"date": "2026-11-20", "version": "5.2.2"}}))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(api)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    monkeypatch.setattr(ingest_cards, "MTGJSON_API", base)
    monkeypatch.setattr(ingest_cards, "META_URL", base + "Meta.json")
    yield api
    server.shutdown()
    server.server_close()


def test_update_downloads_checks_and_imports_atomiccards(mtgjson, tmp_path):
    seen = []
    result = update_cards(Store(tmp_path / "d"), download=lambda done, total: seen.append((done, total)))
    assert not result.unchanged and result.count == 14 and result.warnings == []
    assert result.entry["source"]["url"].endswith("/AtomicCards.json.xz")
    assert result.entry["source"]["name"] == "AtomicCards.json.xz"
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == (mtgjson / "AtomicCards.json.xz").stat().st_size
    data = CardStore(Store(tmp_path / "d")).require()
    assert data.card("Notion Thief").faces[0].mana_cost == "{2}{U}{B}"
    assert [p.name for p in (tmp_path / "d" / "cards").iterdir() if p.name.startswith(".tmp-")] == []


def test_the_same_build_is_not_downloaded_again(mtgjson, tmp_path):
    store = Store(tmp_path / "d")
    update_cards(store)
    (mtgjson / "AtomicCards.json.xz").unlink()  # a second download would fail
    assert update_cards(store).unchanged


def test_an_older_build_is_refused_before_downloading(mtgjson, tmp_path):
    store = Store(tmp_path / "d")
    update_cards(store)
    (mtgjson / "Meta.json").write_text(json.dumps({"meta": {"date": "2026-10-01"}}))
    with pytest.raises(KeptCards, match="MTGJSON's is older"):
        update_cards(store)


def test_a_download_that_does_not_match_its_checksum_changes_nothing(mtgjson, tmp_path):
    (mtgjson / "AtomicCards.json.xz.sha256").write_text("0" * 64)
    with pytest.raises(SourceError, match="does not match its published SHA-256"):
        update_cards(Store(tmp_path / "d"))
    assert CardStore(Store(tmp_path / "d")).current() is None


def test_without_meta_or_checksum_it_warns_and_imports(mtgjson, tmp_path):
    (mtgjson / "Meta.json").unlink()
    (mtgjson / "AtomicCards.json.xz.sha256").unlink()
    result = update_cards(Store(tmp_path / "d"))
    assert result.count == 14
    assert [w.split(" (")[0] for w in result.warnings] == [
        "could not read MTGJSON's Meta.json", "could not read the published checksum"]


def test_the_size_cap_holds(mtgjson, tmp_path):
    with pytest.raises(SourceError, match="over the limit of 100"):
        update_cards(Store(tmp_path / "d"), max_bytes=100)


def test_from_url_and_the_schemes_refused(mtgjson, tmp_path):
    url = ingest_cards.MTGJSON_API + "AtomicCards.json.xz"
    assert update_cards(Store(tmp_path / "d"), url).count == 14
    with pytest.raises(BadInput, match="unsupported URL scheme 'file'"):
        update_cards(Store(tmp_path / "e"), "file:///etc/passwd")
    with pytest.raises(BadInput, match="--rulings takes a local file"):
        update_cards(Store(tmp_path / "e"), str(ATOMIC), rulings="https://example.test/r.json")
    with pytest.raises(SourceError, match="HTTP 404"):
        update_cards(Store(tmp_path / "e"), ingest_cards.MTGJSON_API + "nope.json")
