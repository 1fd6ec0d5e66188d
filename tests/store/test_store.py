"""The data directory: atomic writes, release by date, fast partial loads."""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crsearch.errors import BadInput, DamagedStore, KeptRelease, NoData, NotFound, StoreError
from crsearch.rules.model import Release
from crsearch.store.datadir import OWNER, RETIRED, Store, mark_owner, normalize_date, valid_date


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
    with pytest.raises(NoData, match="crsearch update") as e:
        Store(tmp_path).pick()
    assert e.value.exit_code == 3


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


def test_reimport_replaces_the_release_and_retires_the_old_folder(tmp_path, mini_release,
                                                                  monkeypatch):
    store = Store(tmp_path)
    first = store.save(mini_release)
    second = store.save(mini_release)
    # The old folder outlives the swap, for readers that still hold it ...
    assert first.path.exists() and (first.path / ".retired").exists()
    assert second.path.exists() and len(store.catalog()) == 1
    assert store.pick().path == second.path
    # ... and goes once the grace period is over.
    monkeypatch.setattr("crsearch.store.repair.RETIRE_GRACE", 0)
    third = store.save(mini_release)
    assert not first.path.exists() and third.path.exists()


def test_leftovers_of_an_interrupted_write_are_swept(tmp_path, mini_release):
    store = Store(tmp_path)
    store.save(mini_release)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    junk = tmp_path / "releases" / ".tmp-2031-03-03-dead"
    junk.mkdir()
    (junk / "release.json").write_text("{half")
    mark_owner(junk, dead.pid)  # its writer is gone
    fresh = tmp_path / "releases" / ".tmp-2031-03-03-busy"
    fresh.mkdir()
    mark_owner(fresh)  # this very process is still writing it
    store.save(mini_release)
    assert not junk.exists()
    assert fresh.exists()


def test_a_staging_mark_read_while_it_is_written_keeps_the_folder(tmp_path, mini_release):
    # A batch import's parent swept while a worker had created its staging
    # folder's mark but not yet written the pid: the empty mark was taken for
    # a dead writer's and the worker's folder vanished under it (CI, stop 30).
    store = Store(tmp_path)
    store.save(mini_release)
    busy = tmp_path / "releases" / ".tmp-2031-03-03-busy"
    busy.mkdir()
    (busy / OWNER).write_text("")
    store.save(mini_release)
    assert busy.exists()
    old = time.time() - 2 * 3600  # ... unless it has sat empty past the grace
    os.utime(busy, (old, old))
    store.save(mini_release)
    assert not busy.exists()


def test_marks_are_written_in_one_step(tmp_path, monkeypatch):
    from crsearch.store.datadir import retire

    writes = []
    real = Path.write_text
    monkeypatch.setattr(Path, "write_text", lambda self, *a, **k: (writes.append(self.name),
                                                                  real(self, *a, **k))[1])
    folder = tmp_path / ".tmp-2031-03-03-x"
    folder.mkdir()
    mark_owner(folder, 4242)
    retire(folder)
    assert writes == []  # not opened (and emptied) in place, where a sweep may read it
    assert sorted(p.name for p in folder.iterdir()) == sorted([OWNER, RETIRED])
    assert (folder / OWNER).read_text() == "4242"
    assert abs(float((folder / RETIRED).read_text()) - time.time()) < 60


def test_the_sweep_never_deletes_folders_it_did_not_make(tmp_path, mini_release):
    store = Store(tmp_path)
    store.save(mini_release)
    mine = [tmp_path / "releases" / n for n in ("notes", ".tmp-unmarked", "2031-03-03.zz.zz")]
    for p in mine:
        p.mkdir()
        (p / "keep.txt").write_text("precious")
    store.save(mini_release)
    store.repair()
    assert all((p / "keep.txt").read_text() == "precious" for p in mine)


def test_a_removed_catalog_is_rebuilt_not_a_reason_to_delete(tmp_path, mini_release):
    store = Store(tmp_path)
    kept = store.save(mini_release)
    (tmp_path / "catalog.json").unlink()
    report = store.repair()
    assert report.releases == 1 and kept.path.exists()
    assert store.pick().path == kept.path


def test_an_import_after_the_catalog_was_removed_keeps_the_other_releases(tmp_path, mini_release):
    store = Store(tmp_path)
    kept = store.save(mini_release)
    (tmp_path / "catalog.json").unlink()
    other = Release.from_dict({**mini_release.to_dict(), "effective_date": "2032-04-04"})
    store.save(other)
    assert [r["effective_date"] for r in store.catalog()] == ["2031-03-03", "2032-04-04"]
    assert kept.path.exists() and store.pick("2031-12-31").path == kept.path


def test_an_unlisted_release_folder_gets_a_grace_period(tmp_path, mini_release, monkeypatch):
    import shutil

    store = Store(tmp_path)
    stored = store.save(mini_release)
    stray = stored.path.with_name("2031-03-03.00000000.abcdef")
    shutil.copytree(stored.path, stray)  # as if an import was killed after its rename
    store.save(Release.from_dict({**mini_release.to_dict(), "effective_date": "2032-04-04"}))
    assert (stray / ".retired").exists()
    monkeypatch.setattr("crsearch.store.repair.RETIRE_GRACE", 0)
    store.save(Release.from_dict({**mini_release.to_dict(), "effective_date": "2033-05-05"}))
    assert not stray.exists() and stored.path.exists()


def test_a_foreign_releases_folder_is_refused(tmp_path, mini_release):
    (tmp_path / "releases" / "v1.0").mkdir(parents=True)
    (tmp_path / "releases" / "v1.0" / "notes.md").write_text("mine")
    with pytest.raises(StoreError, match="did not make"):
        Store(tmp_path).save(mini_release)
    with pytest.raises(StoreError, match="did not make"):
        Store(tmp_path).repair()
    assert (tmp_path / "releases" / "v1.0" / "notes.md").read_text() == "mine"


@pytest.mark.parametrize("good", ["2026-08-07", "1993-08-05", "2100-12-31"])
def test_valid_dates_pass(good):
    assert valid_date(good) == good


@pytest.mark.parametrize("bad", ["", "banana", "2026-02-30", "0000-01-01", "1900-01-01",
                                 "2026-8-7", "../../x", "<b>2026-08-07</b>", None, 20260807])
def test_impossible_dates_are_refused(bad):
    with pytest.raises(BadInput):
        valid_date(bad)


@pytest.mark.parametrize("date", ["", "banana", "2026-02-30", "../../.."])
def test_a_release_with_a_bad_date_is_never_written(tmp_path, mini_release, date):
    release = Release.from_dict({**mini_release.to_dict(), "effective_date": date})
    with pytest.raises(BadInput):
        Store(tmp_path / "data").save(release)
    assert not (tmp_path / "data" / "catalog.json").exists()
    assert list(tmp_path.rglob("release.json.gz")) == []


def test_a_crafted_hash_cannot_pick_the_folder_name(tmp_path, mini_release):
    release = Release.from_dict(mini_release.to_dict())
    release.source.sha256 = "./../../"
    stored = Store(tmp_path).save(release)
    assert stored.path.parent == tmp_path / "releases"
    assert re.fullmatch(r"2031-03-03\.[0-9a-f]{8}\.[0-9a-f]{6}", stored.path.name)


def test_incomplete_or_smaller_copies_do_not_replace_a_release(tmp_path, mini_release):
    store = Store(tmp_path)
    first = store.save(mini_release)
    half = Release.from_dict(mini_release.to_dict())
    half.complete = False
    with pytest.raises(KeptRelease, match="kept the stored 2031-03-03 release.*incomplete.*--force"):
        store.save(half)
    fewer = Release.from_dict(mini_release.to_dict())
    fewer.rules = fewer.rules[:-3]
    with pytest.raises(KeptRelease, match="fewer"):
        store.save(fewer)
    assert store.pick().path == first.path
    assert [p.name for p in (tmp_path / "releases").iterdir()] == [first.path.name]
    forced = store.save(half, force=True)
    assert store.pick().path == forced.path and store.catalog()[0]["complete"] is False


@pytest.mark.parametrize("content", [
    "", "{not json", "\x00\xff\xfe garbage", "[]", "null", '{"releases": 5}',
    '{"releases": [{"dir": "2031-03-03.00000000.000000", "counts": {}}]}',
    '{"releases": [{"effective_date": "2031-03-03", "counts": {}}]}',
    '{"releases": [{"effective_date": "2031-03-03", "dir": "../../etc", "counts": {}}]}',
])
def test_damaged_catalog_is_a_clear_error_and_repair_rebuilds_it(tmp_path, mini_release, content):
    stored = Store(tmp_path).save(mini_release)
    (tmp_path / "catalog.json").write_bytes(content.encode("utf-8", "surrogateescape"))
    with pytest.raises(DamagedStore, match="catalog.*damaged.*crsearch repair") as e:
        Store(tmp_path).pick()
    assert e.value.exit_code == 2
    report = Store(tmp_path).repair()
    assert report.releases == 1 and any("rebuilt" in line for line in report.lines())
    assert Store(tmp_path).pick().path == stored.path


def test_repair_rewrites_a_deleted_chapters_file_and_a_damaged_meta(tmp_path, mini_release):
    stored = Store(tmp_path).save(mini_release)
    (stored.path / "chapters.z").unlink()
    (stored.path / "meta.json").write_text("{trunc")
    with pytest.raises(DamagedStore, match="release 2031-03-03: meta.json is damaged"):
        Store(tmp_path).pick().meta()
    report = Store(tmp_path).repair()
    assert "release 2031-03-03: rewrote chapters.z" in report.lines()
    assert [r.id for r in Store(tmp_path).pick().chapter_rules("201")][:2] == ["201.1", "201.1a"]


def test_a_missing_chapters_file_is_an_error_not_an_empty_chapter(tmp_path, mini_release):
    stored = Store(tmp_path).save(mini_release)
    assert Store(tmp_path).pick().chapter_dicts("999") == []  # no such chapter
    (stored.path / "chapters.z").unlink()
    with pytest.raises(DamagedStore, match="release 2031-03-03: chapters.z is missing; "
                                           "run `crsearch repair`"):
        Store(tmp_path).pick().chapter_dicts("201")


def test_the_chapters_are_one_file_of_one_block_each(tmp_path, mini_release):
    from crsearch.store.datadir import CHAPTERS, by_chapter, chapter_ids, read_chapter

    stored = Store(tmp_path).save(mini_release)
    assert not (stored.path / "chapters").exists()
    want = by_chapter(mini_release)
    assert chapter_ids(stored.path / CHAPTERS) == list(want)
    for chapter, rules in want.items():
        assert json.loads(read_chapter(stored.path / CHAPTERS, chapter)) == rules
        assert stored.chapter_dicts(chapter) == rules
    assert read_chapter(stored.path / CHAPTERS, "999") is None


def test_a_chapters_file_cut_or_grown_anywhere_is_damaged(tmp_path, mini_release):
    stored = Store(tmp_path).save(mini_release)
    path = stored.path / "chapters.z"
    whole = path.read_bytes()
    for data in (whole[:-1], whole + b"x", whole[:len(whole) // 2]):
        path.write_bytes(data)
        with pytest.raises(DamagedStore, match="release 2031-03-03: chapters.z is damaged"):
            Store(tmp_path).pick().chapter_dicts("201")


def test_a_chapter_block_that_inflates_past_the_limit_is_refused(tmp_path, mini_release, monkeypatch):
    from crsearch.store import datadir

    stored = Store(tmp_path).save(mini_release)
    # A block of 2 MB of spaces: inflated only up to the limit, then refused.
    (stored.path / "chapters.z").write_bytes(datadir.pack_chapters({"201": [{"id": " " * (2 << 20)}]}))
    monkeypatch.setitem(datadir.LIMITS, "chapter", 1 << 20)
    with pytest.raises(DamagedStore, match="chapters.z is damaged .*larger than 1 MB"):
        Store(tmp_path).pick().chapter_dicts("201")


def test_an_older_release_with_chapter_files_is_read_then_packed_by_repair(tmp_path, mini_release):
    from crsearch.store.datadir import by_chapter

    stored = Store(tmp_path).save(mini_release)
    # The layout before chapters.z: one JSON file per chapter.
    (stored.path / "chapters.z").unlink()
    (stored.path / "chapters").mkdir()
    for chapter, rules in by_chapter(mini_release).items():
        (stored.path / "chapters" / f"{chapter}.json").write_text(json.dumps(rules), "utf-8")
    assert [r.id for r in Store(tmp_path).pick().chapter_rules("201")][:2] == ["201.1", "201.1a"]
    report = Store(tmp_path).repair()
    assert ("release 2031-03-03: packed the chapter files into chapters.z "
            "(the layout of this version)") in report.lines()
    assert not (stored.path / "chapters").exists() and (stored.path / "chapters.z").is_file()
    assert Store(tmp_path).pick().chapter_dicts("201") == by_chapter(mini_release)["201"]
    assert Store(tmp_path).repair().fixed == []


def test_a_truncated_release_json_is_set_aside_by_repair(tmp_path, mini_release):
    stored = Store(tmp_path).save(mini_release)
    data = (stored.path / "release.json.gz").read_bytes()
    (stored.path / "release.json.gz").write_bytes(data[: len(data) // 2])
    with pytest.raises(DamagedStore, match="release.json.gz is damaged"):
        Store(tmp_path).pick().release_text()
    report = Store(tmp_path).repair()
    assert report.dropped and "update --from" in report.dropped[0]
    with pytest.raises(NoData):
        Store(tmp_path).pick()


def test_a_reader_follows_the_catalog_when_its_folder_vanishes(tmp_path, mini_release):
    import shutil

    store = Store(tmp_path)
    reader = store.save(mini_release)
    store.save(mini_release)
    shutil.rmtree(reader.path)  # as if the grace period were over mid-read
    assert [r.id for r in reader.chapter_rules("201")][:1] == ["201.1"]
    assert reader.meta()["effective_date"] == "2031-03-03"


@pytest.mark.slow
def test_index_replacement_is_atomic(tmp_path, mini_release):
    store = Store(tmp_path)
    stored = store.save(mini_release)

    def build(path):
        (path / "marker").write_text("new")

    store.replace_index(stored, build)
    assert (stored.index_dir / "marker").read_text() == "new"

    # Killed between the two renames: no index/, the old one aside, a stray temp.
    from crsearch.search.build import build_index

    store.replace_index(stored, lambda path: build_index(mini_release, path))
    (stored.index_dir / "marker").write_text("real")
    os.replace(stored.index_dir, stored.path / ".index-old")
    (stored.path / ".index-stray").mkdir()
    store.repair()
    assert (stored.index_dir / "marker").read_text() == "real"
    assert [p.name for p in stored.path.glob(".index-*")] == []

    def broken(path):
        (path / "marker").write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        store.replace_index(stored, broken)
    assert (stored.index_dir / "marker").read_text() == "real"
    assert json.loads((tmp_path / "catalog.json").read_text())["releases"]


def test_default_data_dir_follows_the_environment(monkeypatch, tmp_path):
    import platformdirs

    from crsearch.store.datadir import default_data_dir

    monkeypatch.setenv("CRSEARCH_DATA", str(tmp_path / "x"))
    assert default_data_dir() == tmp_path / "x"
    monkeypatch.delenv("CRSEARCH_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == Path(platformdirs.user_data_dir("crsearch", appauthor=False))


def test_a_store_written_before_compression_still_reads(tmp_path, mini_release):
    import gzip

    stored = Store(tmp_path).save(mini_release)
    packed = stored.path / "release.json.gz"
    (stored.path / "release.json").write_bytes(gzip.decompress(packed.read_bytes()))
    packed.unlink()
    again = Store(tmp_path).pick()
    assert again.release().to_dict() == mini_release.to_dict()
    assert json.loads(again.release_text())["effective_date"] == "2031-03-03"
    assert Store(tmp_path).repair().dropped == []


def test_the_whole_release_is_stored_once_compressed(tmp_path, mini_release):
    import gzip

    stored = Store(tmp_path).save(mini_release)
    assert not (stored.path / "release.json").exists()
    packed = (stored.path / "release.json.gz").read_bytes()
    assert json.loads(gzip.decompress(packed)) == mini_release.to_dict()
    assert len(packed) < len(gzip.decompress(packed)) / 2


def test_a_huge_date_argument_is_cut_in_the_message():
    with pytest.raises(BadInput) as e:
        normalize_date("9" * 100_000)
    assert len(str(e.value)) < 100


def test_repair_says_when_a_listed_release_folder_is_gone(tmp_path, mini_release):
    import shutil

    stored = Store(tmp_path).save(mini_release)
    shutil.rmtree(stored.path)
    with pytest.raises(DamagedStore, match="release 2031-03-03: meta.json is missing"):
        Store(tmp_path).pick().meta()
    report = Store(tmp_path).repair()
    assert report.dropped == ["release 2031-03-03: its folder is gone; import it again with "
                              "`crsearch update --from FILE`"]
    assert Store(tmp_path).catalog() == []


def test_read_json_reads_packed_and_plain_json_alike(tmp_path):
    from crsearch.files import deflate
    from crsearch.store.datadir import packed_json, read_json

    data = {"format": 4, "vocab": {"trample": 3}, "ids": ["702.19c"]}
    for name, raw in [("plain.json", json.dumps(data).encode()), ("packed.json", packed_json(data)),
                      ("big.json", packed_json({**data, "pad": "x" * 100_000})),
                      ("list.json", b' [1, "\\u00e9"]'), ("small.json", deflate(b"[8]"))]:
        (tmp_path / name).write_bytes(raw)
    assert read_json(tmp_path / "plain.json", "index") == data
    assert read_json(tmp_path / "packed.json", "index") == data
    assert read_json(tmp_path / "big.json", "index")["pad"] == "x" * 100_000
    assert read_json(tmp_path / "list.json", "index") == [1, "é"]
    assert read_json(tmp_path / "small.json", "index") == [8]
    (tmp_path / "cut.json").write_bytes(packed_json(data)[:-5])
    with pytest.raises(ValueError, match="cut short"):
        read_json(tmp_path / "cut.json", "index")


def test_glossary_texts_are_the_stored_entries_unparsed(tmp_path):
    from conftest import make_release

    from crsearch.store.datadir import loads

    short = make_release("2020-01-01", {"100.1": "A rule."},
                         {"Match": "A contest. See rule 100.1.", "Pool": "Shared “points”."})
    # Longer than the first chunk read (320 KB uncompressed): read in more chunks.
    long = make_release("2020-02-01", {"100.1": "A rule."},
                        {f"Term {k:04}": f"Definition {k} of a long glossary, " * 12 for k in range(900)})
    for r in (short, long):
        stored = Store(tmp_path).save(r)
        texts = stored.glossary_texts()
        assert texts is not None and len(texts) == len(r.glossary)
        assert [loads(t.decode("utf-8")) for t in texts] == stored.glossary_dicts()
    assert sum(map(len, texts)) > 320 * 1024
    empty = Store(tmp_path).save(make_release("2020-03-01", {"100.1": "A rule."}))
    assert empty.glossary_texts() == []
