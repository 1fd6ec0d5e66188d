"""The data directory: atomic writes, release by date, fast partial loads."""

import json
import os
import time

import pytest
from pathlib import Path

from crsearch.errors import BadInput, NotFound, StoreError
from crsearch.store import Store, normalize_date


def test_saved_release_loads_back_identically(tmp_path, mini_release):
    stored = Store(tmp_path).save(mini_release)
    assert stored.release().to_dict() == mini_release.to_dict()
    assert [r.id for r in stored.chapter_rules("201")][:2] == ["201.1", "201.1a"]
    assert stored.meta()["counts"] == mini_release.counts()


def test_pick_chooses_the_release_in_effect_on_a_date(latest_data_dir):
    store = Store(latest_data_dir)
    assert store.pick().effective_date == "2026-08-07"
    assert store.pick("2026-07-01").effective_date == "2026-06-19"
    assert store.pick("2026-08-07").effective_date == "2026-08-07"
    assert store.pick("2027").effective_date == "2026-08-07"
    with pytest.raises(NotFound):
        store.pick("2020-01-01")


def test_empty_store_says_what_to_do(tmp_path):
    with pytest.raises(StoreError, match="crsearch update"):
        Store(tmp_path).pick()


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "26-1-1", "2026-02-40"])
def test_bad_dates_are_input_errors(bad):
    with pytest.raises(BadInput):
        normalize_date(bad)


def test_a_failed_save_leaves_the_previous_state_intact(tmp_path, mini_release):
    store = Store(tmp_path)
    first = store.save(mini_release)
    before = (tmp_path / "catalog.json").read_bytes()

    def explode(release, folder):
        raise KeyboardInterrupt  # as if the user pressed Ctrl-C mid-write

    with pytest.raises(KeyboardInterrupt):
        store.save(mini_release, extra=explode)
    assert (tmp_path / "catalog.json").read_bytes() == before
    assert store.pick().path == first.path and first.path.exists()
    assert sorted(p.name for p in (tmp_path / "releases").iterdir()) == [first.path.name]


def test_reimport_replaces_the_release_and_removes_the_old_folder(tmp_path, mini_release):
    store = Store(tmp_path)
    first = store.save(mini_release)
    second = store.save(mini_release)
    assert not first.path.exists() and second.path.exists()
    assert len(store.catalog()) == 1


def test_leftovers_of_an_interrupted_write_are_swept(tmp_path, mini_release):
    store = Store(tmp_path)
    store.save(mini_release)
    junk = tmp_path / "releases" / ".tmp-2031-03-03-dead"
    junk.mkdir()
    (junk / "release.json").write_text("{half")
    fresh = tmp_path / "releases" / ".tmp-2031-03-03-busy"
    fresh.mkdir()
    hours_ago = time.time() - 2 * 3600
    os.utime(junk, (hours_ago, hours_ago))
    store.save(mini_release)
    assert not junk.exists()
    assert fresh.exists()  # another process may be staging into it


def test_damaged_catalog_is_a_clear_error(tmp_path):
    (tmp_path / "catalog.json").write_text("{not json")
    with pytest.raises(StoreError, match="damaged"):
        Store(tmp_path).pick()


def test_index_replacement_is_atomic(tmp_path, mini_release):
    store = Store(tmp_path)
    stored = store.save(mini_release)

    def build(path):
        (path / "marker").write_text("new")

    store.replace_index(stored, build)
    assert (stored.index_dir / "marker").read_text() == "new"

    def broken(path):
        (path / "marker").write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        store.replace_index(stored, broken)
    assert (stored.index_dir / "marker").read_text() == "new"
    assert json.loads((tmp_path / "catalog.json").read_text())["releases"]


def test_default_data_dir_follows_the_environment(monkeypatch, tmp_path):
    import platformdirs

    from crsearch.store import default_data_dir

    monkeypatch.setenv("CRSEARCH_DATA", str(tmp_path / "x"))
    assert default_data_dir() == tmp_path / "x"
    monkeypatch.delenv("CRSEARCH_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == Path(platformdirs.user_data_dir("crsearch", appauthor=False))
