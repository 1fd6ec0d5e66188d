"""Tests for crsearch.sources, over a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from crsearch.errors import BadInput, SourceError
from crsearch.ingest import sources
from crsearch.ingest.sources import Source, fetch, fetch_latest, find_txt_url, read_from

ROOT = Path(__file__).resolve().parents[2]
from local_server import CR_FILE, CR_NAME, CR_PATH, SITE  # noqa: F401

# ---------------------------------------------------------------- find_txt_url


def test_find_absolute_link_newest_and_decoys_ignored():
    html = (SITE / "rules.html").read_text().replace("__ORIGIN__", "https://media.example.test")
    url = find_txt_url(html, "https://magic.example.test/en/rules")
    # not the PDF/DOCX, not the older TXT, not the (newer-dated) tournament rules
    assert url == "https://media.example.test/downloads/MagicCompRules%2020300501.txt"


def test_find_newest_regardless_of_order():
    html = """<a href="https://m.test/2030/MagicCompRules%2020300101.txt">a</a>
              <a href="https://m.test/2031/MagicCompRules_20310202.txt">b</a>
              <a href="https://m.test/2029/MagicCompRules%2020291111.txt">c</a>"""
    assert find_txt_url(html, "https://x.test/") == "https://m.test/2031/MagicCompRules_20310202.txt"


def test_find_relative_link_and_bytes_input():
    html = (SITE / "relative.html").read_bytes()
    url = find_txt_url(html, "https://magic.example.test/en/rules")
    assert url == "https://magic.example.test/en/downloads/MagicCompRules%2020300501.txt"
    url = find_txt_url(b'<a href="/d/MagicCompRules%2020300501.txt">t</a>', "https://h.test/en/rules")
    assert url == "https://h.test/d/MagicCompRules%2020300501.txt"


def test_find_link_inside_script_json():
    html = ('<html><script>window.__DATA__={"txt":"https:\\/\\/media.example.test\\/2030\\/downloads'
            '\\/MagicCompRules%2020300501.txt","pdf":"https:\\/\\/media.example.test\\/x.pdf"}'
            '</script></html>')
    assert find_txt_url(html, "https://magic.example.test/en/rules") == \
        "https://media.example.test/2030/downloads/MagicCompRules%2020300501.txt"


def test_find_link_with_raw_space_is_encoded():
    html = '<a href="https://m.test/2030/downloads/MagicCompRules 20300501.txt">TXT</a>'
    assert find_txt_url(html, "https://x.test/") == \
        "https://m.test/2030/downloads/MagicCompRules%2020300501.txt"


def test_find_no_link():
    with pytest.raises(SourceError, match=r"no Comprehensive Rules TXT link found on https://h.test/r"):
        find_txt_url((SITE / "nolink.html").read_text(), "https://h.test/r")
    with pytest.raises(SourceError):
        find_txt_url("", "https://h.test/r")


# ----------------------------------------------------------------------- fetch


def test_fetch_with_progress(server):
    calls: list[tuple[int, int | None]] = []
    data = fetch(server + CR_PATH, progress=lambda done, total: calls.append((done, total)))
    expected = CR_FILE.read_bytes()
    assert data == expected
    assert calls[0] == (0, len(expected))
    assert calls[-1] == (len(expected), len(expected))
    assert all(total == len(expected) for _, total in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_fetch_without_content_length(server):
    calls: list[tuple[int, int | None]] = []
    data = fetch(server + "/no-length.txt", progress=lambda d, t: calls.append((d, t)))
    assert data == CR_FILE.read_bytes()
    assert calls[-1] == (len(data), None)


def test_fetch_404(server):
    with pytest.raises(SourceError, match=r"^HTTP 404 for http://127\.0\.0\.1:\d+/nope\.txt$"):
        fetch(server + "/nope.txt")


def test_fetch_connection_refused(closed_port):
    with pytest.raises(SourceError, match=r"^cannot reach 127\.0\.0\.1: ") as info:
        fetch(f"http://127.0.0.1:{closed_port}/x.txt", timeout=2)
    assert "\n" not in str(info.value)
    assert "refused" in str(info.value).lower()


def test_fetch_truncated(server):
    with pytest.raises(SourceError, match=r"download truncated: got 100 of 1000 bytes"):
        fetch(server + "/truncated.txt")


def test_fetch_timeout_waiting_for_response(server):
    with pytest.raises(SourceError, match=r"timed out"):
        fetch(server + "/slow-headers.txt", timeout=0.3)


def test_fetch_timeout_during_body(server):
    with pytest.raises(SourceError, match=r"timed out .* \(got 10 bytes\)"):
        fetch(server + "/slow-body.txt", timeout=0.3)


def test_fetch_rejects_non_http():
    with pytest.raises(SourceError, match="not an http"):
        fetch("ftp://example.test/x.txt")


# ---------------------------------------------------------------- fetch_latest


def test_fetch_latest_end_to_end(server):
    calls = []
    src = fetch_latest(server + "/rules.html", progress=lambda d, t: calls.append((d, t)),
                       timeout=5)
    assert isinstance(src, Source)
    assert src.name == CR_NAME
    assert src.url == server + CR_PATH
    assert src.data == CR_FILE.read_bytes()
    assert src.path is None and src.kind == "txt"
    # progress reports the TXT download only
    assert calls[-1] == (len(src.data), len(src.data))


def test_fetch_latest_no_link(server):
    with pytest.raises(SourceError, match="no Comprehensive Rules TXT link found on"):
        fetch_latest(server + "/nolink.html")


def test_fetch_latest_page_404(server):
    with pytest.raises(SourceError, match="HTTP 404"):
        fetch_latest(server + "/missing.html")


# ------------------------------------------------------------------- read_from


def test_read_from_file():
    [src] = read_from(str(CR_FILE))
    assert src == Source(name=CR_NAME, data=CR_FILE.read_bytes(), path=str(CR_FILE))


def test_read_from_directory_sorted(tmp_path):
    for name in ["b.txt", "a.txt", "C.TXT", "notes.md", "c.txt"]:
        (tmp_path / name).write_bytes(name.encode())
    (tmp_path / "sub.txt").mkdir()  # a directory, not a file
    got = read_from(str(tmp_path))
    assert [s.name for s in got] == ["C.TXT", "a.txt", "b.txt", "c.txt"]
    assert all(s.data == s.name.encode() for s in got)
    assert all(s.path == str(tmp_path / s.name) and s.kind == "txt" for s in got)


def test_read_from_empty_directory(tmp_path):
    (tmp_path / "readme.md").write_text("x")
    with pytest.raises(BadInput, match="no .txt files"):
        read_from(str(tmp_path))


def test_read_from_site_directory(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html></html>")
    (site / "rules.txt").write_text("ignored")
    [src] = read_from(str(site))
    assert src.kind == "site"
    assert src.data == b""
    assert src.path == str(site)
    assert src.name == "site"


def test_read_from_missing_path(tmp_path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(BadInput, match=r"^no such file or directory: .*nope\.txt$"):
        read_from(str(missing))


def test_read_from_url_txt(server):
    calls = []
    [src] = read_from(server + CR_PATH, progress=lambda d, t: calls.append((d, t)))
    assert src.name == CR_NAME
    assert src.url == server + CR_PATH
    assert src.data == CR_FILE.read_bytes()
    assert calls and calls[-1] == (len(src.data), len(src.data))


def test_read_from_url_html_follows_link(server):
    calls = []
    [src] = read_from(server + "/rules.html", progress=lambda d, t: calls.append((d, t)))
    assert src.name == CR_NAME and src.url == server + CR_PATH
    assert src.data == CR_FILE.read_bytes()
    assert all(t == len(src.data) for _, t in calls)  # the page itself is not reported


def test_read_from_url_redirect_resolves_relative_link_against_final_url(server):
    [src] = read_from(server + "/en/rules")
    assert src.url == server + CR_PATH
    assert src.data == CR_FILE.read_bytes()


def test_read_from_url_html_sniffed_from_bytes(server):
    # served as text/plain, but it is an HTML page
    [src] = read_from(server + "/page-served-as-text.txt")
    assert src.url == server + CR_PATH


def test_read_from_url_html_without_link(server):
    with pytest.raises(SourceError, match="no Comprehensive Rules TXT link"):
        read_from(server + "/nolink.html")


def test_read_from_url_errors(server, closed_port):
    with pytest.raises(SourceError, match="HTTP 404"):
        read_from(server + "/downloads/nothing.txt")
    with pytest.raises(SourceError, match="cannot reach"):
        read_from(f"http://127.0.0.1:{closed_port}/x.txt")
    with pytest.raises(BadInput, match="unsupported URL scheme"):
        read_from("ftp://example.test/x.txt")


# ------------------------------------------------------------- known releases


def test_known_releases():
    releases = sources.known_releases()
    assert len(releases) == 114
    dates = [r["file_date"] for r in releases]
    assert dates == sorted(dates) and len(set(dates)) == len(dates)
    for r in releases:
        assert set(r) == {"file_date", "effective_date", "url", "sha256", "size"}
        compact = r["file_date"].replace("-", "")
        assert r["url"] == (f"https://media.wizards.com/{compact[:4]}/downloads/"
                            f"MagicCompRules%20{compact}.txt")
        assert len(r["sha256"]) == 64 and r["size"] > 0
    assert releases[-1]["file_date"] == "2026-08-07"


@pytest.mark.archive
def test_known_releases_match_shared_archive():
    archive = ROOT.parent / "shared" / "cr" / "archive"
    assert archive.is_dir(), f"{archive} is missing: the tests read the official archive from ../shared"
    for r in sources.known_releases():
        data = (archive / f"{r['file_date']}.txt").read_bytes()
        assert hashlib.sha256(data).hexdigest() == r["sha256"]
        assert len(data) == r["size"]


def test_releases_json_format():
    text = (ROOT / "data" / "releases.json").read_text()
    assert text == json.dumps(json.loads(text), indent=1, sort_keys=True) + "\n"


# ------------------------------------------------------------------ lightness


def test_import_does_not_load_bs4():
    code = "import crsearch.ingest.sources, sys; assert 'bs4' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# ------------------------------------------------------------ hostile servers


def test_a_redirect_to_another_scheme_is_refused(server):
    with pytest.raises(SourceError, match="non-http\\(s\\) URL: ftp://"):
        fetch(server + "/to-ftp.txt")
    with pytest.raises(SourceError, match="non-http"):
        read_from(server + "/to-ftp.txt")


def test_a_redirect_loop_says_so(server):
    with pytest.raises(SourceError, match="too many redirects") as e:
        fetch(server + "/loop.txt")
    assert "HTTP 3" not in str(e.value)


def test_the_size_cap_stops_a_download(server):
    with pytest.raises(SourceError, match="over the limit of 100"):
        fetch(server + CR_PATH, max_bytes=100)
    with pytest.raises(SourceError, match="more than the limit of 100"):
        fetch(server + "/no-length.txt", max_bytes=100)
    assert fetch(server + CR_PATH, max_bytes=CR_FILE.stat().st_size) == CR_FILE.read_bytes()


def test_the_deadline_covers_the_whole_download(server):
    # /slow-body.txt sends 10 bytes and then waits: the per-read timeout is
    # generous, the overall deadline is not.
    with pytest.raises(SourceError, match="timed out after 0.3 s"):
        fetch(server + "/slow-body.txt", timeout=30, deadline=0.3)


@pytest.mark.parametrize("spec", ["", "  "])
def test_an_empty_from_is_an_error_not_the_current_folder(spec):
    with pytest.raises(BadInput, match="empty"):
        read_from(spec)


def test_an_unreadable_file_in_a_folder_is_marked_not_fatal(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_bytes(b"one")
    (tmp_path / "b.txt").write_bytes(b"two")
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "a.txt":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    a, b = read_from(str(tmp_path))
    assert a.error == "cannot read a.txt: Permission denied" and a.data == b""
    assert b.error is None and b.data == b"two"


def test_long_arguments_are_cut_in_messages(tmp_path):
    with pytest.raises(BadInput) as e:
        read_from(str(tmp_path / ("z" * 300)))
    assert len(str(e.value)) < 120 and "zzz…" in str(e.value)
