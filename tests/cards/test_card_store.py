"""The card store: its files, atomic publishing, refusals, and repair."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from conftest import ATOMIC, ORACLE, RULINGS

from crsearch.cards.build import import_file
from crsearch.cards.names import Entry
from crsearch.cards.store import CardStore, check_folder, repair_cards
from crsearch.errors import BadInput, DamagedStore, KeptCards, NoData
from crsearch.store.datadir import DAMAGED, OWNER, RETIRED, Store
from crsearch.store.repair import RETIRE_GRACE, RepairReport


def current(root):
    return CardStore(Store(root)).require()


def folders(root):
    return sorted(p.name for p in (root / "cards").iterdir() if p.is_dir())


def test_an_import_writes_the_index_the_shards_and_a_manifest(cards_only_dir):
    data = current(cards_only_dir)
    folder = cards_only_dir / "cards" / data.entry["dir"]
    assert data.date == "2026-11-20" and data.count == 14
    assert data.entry["dir"].startswith("2026-11-20.0a844dad.")
    assert {p.name for p in folder.iterdir()} == {"meta.json", "names.tsv", "words.txt",
                                                   "mentions.tsv", "shards"}
    meta = check_folder(folder)  # every file matches its size and SHA-256
    assert meta["entry"]["count"] == 14 and len(meta["files"]) == 3 + len(list((folder / "shards").iterdir()))
    for shard in (folder / "shards").iterdir():
        assert all("name" in c for c in json.loads(shard.read_text(encoding="utf-8")))
    # Every line of the index leads to the bytes of its card.
    for line in (folder / "names.tsv").read_bytes().splitlines():
        e = Entry(line)
        assert data.read(e.shard, e.offset, e.length).name == e.name
    assert ATOMIC.name not in os.listdir(folder)  # the source file is not kept


def test_a_lookup_reads_the_index_and_one_shard(cards_only_dir, monkeypatch):
    import builtins

    opened = []
    real = builtins.open
    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: opened.append(str(f)) or real(f, *a, **k))
    assert current(cards_only_dir).card("notion thief").name == "Notion Thief"
    read = sorted(os.path.basename(p) for p in opened if "/cards/" in p)
    assert read == ["catalog.json", "n.json", "names.tsv"]


def test_the_same_file_again_is_already_up_to_date(cards_only_dir):
    again = import_file(Store(cards_only_dir), str(ATOMIC))
    assert again.unchanged and again.date == "2026-11-20"
    assert len(folders(cards_only_dir)) == 1


def test_an_older_card_data_file_is_refused_without_force(tmp_path):
    store = Store(tmp_path)
    import_file(store, str(ORACLE), rulings=str(RULINGS))  # 2026-11-25
    with pytest.raises(KeptCards, match=r"kept the stored card data of 2026-11-25 \(14 cards\): "
                                        r"AtomicCards.json is older \(2026-11-20\); use --force"):
        import_file(store, str(ATOMIC))
    assert current(tmp_path).date == "2026-11-25"
    assert [p for p in folders(tmp_path) if p.startswith(".tmp-")] == []
    forced = import_file(store, str(ATOMIC), force=True)
    assert forced.date == "2026-11-20" and current(tmp_path).date == "2026-11-20"


def test_a_smaller_copy_is_refused_without_force(tmp_path):
    store = Store(tmp_path)
    import_file(store, str(ATOMIC))
    small = tmp_path / "small.json"
    doc = json.loads(ATOMIC.read_text(encoding="utf-8"))
    doc["data"] = dict(list(doc["data"].items())[:5])
    small.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(KeptCards, match=r"small.json has fewer cards \(5\)"):
        import_file(store, str(small))
    doc["meta"]["date"] = "2026-12-01"  # newer, but a third of the cards
    small.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(KeptCards, match="fewer cards"):
        import_file(store, str(small))
    assert import_file(store, str(small), force=True).count == 5


def test_a_failed_import_leaves_the_card_data_as_it_was(cards_only_dir):
    bad = cards_only_dir / "bad.json"
    bad.write_bytes(ATOMIC.read_bytes()[:5000])
    with pytest.raises(BadInput):
        import_file(Store(cards_only_dir), str(bad))
    assert current(cards_only_dir).card("Fire").name == "Fire // Ice"
    assert [p for p in folders(cards_only_dir) if not p.startswith("2026-11-20.")] == []


def test_a_missing_file_or_a_folder_is_bad_input(tmp_path):
    with pytest.raises(BadInput, match="no such file"):
        import_file(Store(tmp_path), str(tmp_path / "nope.json"))
    with pytest.raises(BadInput, match="is a folder"):
        import_file(Store(tmp_path), str(tmp_path))


def test_a_foreign_data_folder_is_refused(tmp_path):
    from crsearch.errors import StoreError

    (tmp_path / "releases").mkdir()
    (tmp_path / "releases" / "holiday-photos").mkdir()
    with pytest.raises(StoreError, match="did not make"):
        import_file(Store(tmp_path), str(ATOMIC))


def test_no_card_data_is_nodata(tmp_path):
    with pytest.raises(NoData, match="no card data imported yet"):
        current(tmp_path)


def test_a_damaged_index_names_the_file_and_the_fix(cards_only_dir):
    data = current(cards_only_dir)
    (cards_only_dir / "cards" / data.entry["dir"] / "names.tsv").write_bytes(b"notion thief\tn\n")
    with pytest.raises(DamagedStore, match=r"card data 2026-11-20: names.tsv is damaged; run `crsearch repair`"):
        current(cards_only_dir).card("notion thief")


def test_every_card_and_name_can_be_read_shard_by_shard(cards_only_dir):
    data = current(cards_only_dir)
    shards = data.shards()
    assert shards == sorted(shards) and {"f", "n", "j"} <= set(shards)
    cards = [c for s in shards for c in data.shard_cards(s)]
    assert len(cards) == data.count == 14
    assert [c.name for c in data.shard_cards("f")] == ["Fire // Ice", "Flash"]
    entries = data.name_entries()
    assert {e.name for e in entries} == {c.name for c in cards}
    assert any(e.key == "ice" and e.kind == "f" and e.shard == "f" for e in entries)


def test_a_damaged_shard_or_meta_names_the_file_and_the_fix(cards_only_dir):
    data = current(cards_only_dir)
    folder = cards_only_dir / "cards" / data.entry["dir"]
    (folder / "shards" / "n.json").write_bytes(b"[\n{\"name\": 1")
    with pytest.raises(DamagedStore, match=r"shards/n.json is damaged; run `crsearch repair`"):
        data.shard_cards("n")
    with pytest.raises(DamagedStore, match=r"shards/../x.json is not a shard"):
        data.shard_cards("../x")
    (folder / "meta.json").unlink()
    with pytest.raises(DamagedStore, match=r"meta.json is missing"):
        data.shards()


def test_a_damaged_catalog_is_damagedstore_and_repair_rebuilds_it(cards_only_dir):
    (cards_only_dir / "cards" / "catalog.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DamagedStore, match="card catalog"):
        current(cards_only_dir)
    store = Store(cards_only_dir)
    report = RepairReport()
    with store.lock():
        repair_cards(CardStore(store), report)
    assert any("rebuilt the damaged card catalog" in line for line in report.fixed)
    assert report.cards == "card data 2026-11-20 (14 cards)"
    assert current(cards_only_dir).card("stomp").name == "Bonecrusher Giant // Stomp"


def test_repair_sets_a_damaged_set_aside_and_falls_back_to_the_previous(tmp_path):
    store = Store(tmp_path)
    import_file(store, str(ATOMIC))
    old = current(tmp_path).entry["dir"]
    import_file(store, str(ORACLE), rulings=str(RULINGS))
    new = current(tmp_path).entry["dir"]
    assert (tmp_path / "cards" / old / RETIRED).exists()
    shard = tmp_path / "cards" / new / "shards" / "n.json"
    shard.write_bytes(shard.read_bytes().replace(b"Thief", b"Thing"))
    report = RepairReport()
    with store.lock():
        repair_cards(CardStore(store), report)
    assert any("shards/n.json is damaged" in line and DAMAGED in line for line in report.dropped)
    assert current(tmp_path).entry["dir"] == old
    assert not (tmp_path / "cards" / old / RETIRED).exists()
    assert (tmp_path / "cards" / (DAMAGED + new)).is_dir()


def test_repair_with_nothing_whole_left_removes_the_catalog(cards_only_dir):
    data = current(cards_only_dir)
    (cards_only_dir / "cards" / data.entry["dir"] / "meta.json").unlink()
    report = RepairReport()
    store = Store(cards_only_dir)
    with store.lock():
        repair_cards(CardStore(store), report)
    assert report.dropped and report.cards is None
    with pytest.raises(NoData):
        current(cards_only_dir)


def test_leftovers_of_dead_imports_and_old_retired_sets_are_swept(cards_only_dir):
    cards = cards_only_dir / "cards"
    staging = cards / ".tmp-cards-dead"
    staging.mkdir()
    (staging / OWNER).write_text("999999999", encoding="ascii")
    retired = cards / "2026-01-01.00000000.000000"
    shutil.copytree(cards / current(cards_only_dir).entry["dir"], retired)
    (retired / RETIRED).write_text(repr(time.time() - RETIRE_GRACE - 10), encoding="ascii")
    foreign = cards / "my-notes"
    foreign.mkdir()
    report = RepairReport()
    store = Store(cards_only_dir)
    with store.lock():
        repair_cards(CardStore(store), report)
    assert not staging.exists() and not retired.exists() and foreign.exists()
    assert sorted(report.removed) == ["removed the leftover folder cards/.tmp-cards-dead",
                                      "removed the leftover folder cards/2026-01-01.00000000.000000"]
