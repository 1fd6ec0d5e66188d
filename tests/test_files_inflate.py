"""One bounded decompressor for every compressed thing the store reads."""
from __future__ import annotations

import errno
import gzip
import json
import zlib

import pytest

from crsearch.files import TooLarge, deflate, inflate


def test_zlib_data_inflates_to_what_deflate_wrote():
    data = b"702.19b Trample " * 500
    assert inflate(deflate(data), 1 << 20, "x") == data


def test_gzip_members_are_read_one_after_another_as_gzip_decompress_does():
    data = gzip.compress(b"first ") + gzip.compress(b"second")
    assert inflate(data, 100, "x", gzip=True) == gzip.decompress(data) == b"first second"


@pytest.mark.parametrize("as_gzip", [False, True])
def test_output_past_the_limit_is_refused_however_small_the_input(as_gzip):
    bomb = (gzip.compress if as_gzip else zlib.compress)(b" " * (8 << 20))
    assert len(bomb) < 50_000
    with pytest.raises(TooLarge) as e:
        inflate(bomb, 1 << 20, "bomb.z", "the block", gzip=as_gzip)
    assert e.value.errno == errno.EFBIG and "larger than 1 MB uncompressed" in str(e.value)


def test_the_limit_counts_every_gzip_member_together():
    data = gzip.compress(b"a" * 600) + gzip.compress(b"b" * 600)
    assert len(inflate(data, 1200, "x", gzip=True)) == 1200
    with pytest.raises(TooLarge):
        inflate(data, 1199, "x", gzip=True)


@pytest.mark.parametrize("as_gzip", [False, True])
def test_damaged_and_cut_short_data_say_which(as_gzip):
    whole = (gzip.compress if as_gzip else zlib.compress)(b"rules text " * 200)
    with pytest.raises(ValueError, match="the file is cut short"):
        inflate(whole[: len(whole) // 2], 1 << 20, "x", gzip=as_gzip)
    with pytest.raises(ValueError, match="is damaged"):
        inflate(b"\x78\x9c" + bytes(range(40)), 1 << 20, "x", gzip=as_gzip)


def test_bytes_after_a_zlib_stream_are_refused():
    with pytest.raises(ValueError, match="has bytes after its end"):
        inflate(deflate(b"{}") + b"junk", 100, "x")


def test_a_fast_file_block_is_bounded_and_checked(tmp_path, monkeypatch):
    from crsearch.search.fastindex import read_block
    from crsearch.store import datadir

    block = deflate(json.dumps(["x" * 5000]).encode())
    path = tmp_path / "fast-docs.z"
    path.write_bytes(b"head" + block)
    assert read_block(path, [4, len(block)]) == ["x" * 5000]
    with pytest.raises(ValueError, match="cut short"):
        read_block(path, [4, len(block) + 10])
    monkeypatch.setitem(datadir.LIMITS, "index", 1000)
    with pytest.raises(TooLarge):
        read_block(path, [4, len(block)])
