"""Control characters: removed at parse time, escaped in everything printed.

The crafted releases here are the synthetic ``mini_cr.txt`` with escape
sequences written into it; nothing is read from the network.
"""

from __future__ import annotations

import gzip
import json
import sys
import unicodedata

import pytest
from conftest import run
from hypothesis import given, settings
from hypothesis import strategies as st

from crsearch.ingest.parse import parse_bytes, scrub
from crsearch.rules.safetext import describe, printable, strip_controls

CLEAR = "\x1b[2J"                       # clears the screen
TITLE = "\x1b]0;owned\x07"              # OSC: sets the window title
RLO = "\u202e"                          # right-to-left override
FORGED = "\nError: fake line"


def _dangerous(text: str, *, newlines_ok: bool = True) -> list[str]:
    """The characters in ``text`` a terminal would act on."""
    return [c for c in text
            if (unicodedata.category(c) in ("Cc", "Cf") and c not in "\t\n")
            or (c == "\n" and not newlines_ok)]


# -- printable / strip_controls ----------------------------------------------------

def test_printable_escapes_escape_sequences_and_line_breaks():
    text = f"a{CLEAR}b{TITLE}c{RLO}d{FORGED}\re\x85f"
    out = printable(text)
    assert out == "a\\x1b[2Jb\\x1b]0;owned\\x07c\\u202ed\\nError: fake line\\re\\x85f"
    assert _dangerous(out, newlines_ok=False) == []


def test_printable_keeps_newlines_tabs_and_click_styles_only_when_asked():
    assert printable("one\ntwo\tthree", newlines=True) == "one\ntwo\tthree"
    styled = "\x1b[1mbold\x1b[0m" + CLEAR
    assert printable(styled, styles=True) == "\x1b[1mbold\x1b[0m\\x1b[2J"
    assert printable(styled) == "\\x1b[1mbold\\x1b[0m\\x1b[2J"


def test_printable_json_stays_valid_json_with_the_same_value():
    value = {"text": f"x{CLEAR}{RLO}\x85\U000e0041{FORGED}"}
    dumped = json.dumps(value, ensure_ascii=False, indent=2)
    out = printable(dumped, json=True)
    assert json.loads(out) == value
    assert _dangerous(out) == []


def test_printable_leaves_ordinary_text_alone():
    text = "702.19c Trample — “over planeswalkers” ™ ® é ü\n"
    assert printable(text, newlines=True) == text
    assert printable(text) == text[:-1] + "\\n"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text())
def test_printable_never_lets_a_control_character_through(text):
    out = printable(text)
    assert _dangerous(out, newlines_ok=False) == []
    assert "\u2028" not in out and "\u2029" not in out
    if not _dangerous(text, newlines_ok=False) and not {"\u2028", "\u2029"} & set(text):
        assert out == text


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text())
def test_strip_controls_removes_the_dangerous_characters(text):
    cleaned, removed = strip_controls(text)
    assert _dangerous(cleaned) == []
    assert removed == len(text) - len(cleaned) >= len(_dangerous(text))
    if "\x1b" not in text and "\x9b" not in text:
        assert cleaned == "".join(c for c in text if c not in _dangerous(text))


@pytest.mark.parametrize("text, expected", [
    (f"a{CLEAR}b", "ab"), (f"a{TITLE}b", "ab"), ("a\x1b]2;t\x1b\\b", "ab"),
    ("a\x9b2Jb", "ab"), ("a\x1bcb", "ab"), ("a\x1b]0;no end", "a"),
    (f"r{RLO}o\u2066k\u00ad", "rok"), ("a\x85b\x7fc", "abc"), ("keep\ttab\nand line", "keep\ttab\nand line"),
])
def test_strip_controls_removes_whole_escape_sequences(text, expected):
    assert strip_controls(text)[0] == expected


@pytest.mark.slow
def test_every_format_character_of_this_python_is_removed():
    formats = "".join(chr(c) for c in range(sys.maxunicode + 1)
                      if unicodedata.category(chr(c)) == "Cf")
    cleaned, removed = strip_controls(formats + "ok")
    assert (cleaned, removed) == ("ok", len(formats))


def test_describe_names_what_was_removed():
    assert describe(f"a{CLEAR}{CLEAR}{RLO}") == "U+001B ×2, U+202E"


# -- parse time ---------------------------------------------------------------------

@pytest.fixture
def crafted_bytes(mini_bytes) -> bytes:
    text = mini_bytes.decode("utf-8")
    text = text.replace("101.2a The first part is the handle.",
                        f"101.2a The first{CLEAR} part is the{TITLE} handle.{RLO}", 1)
    text = text.replace("\nLever\n1. A part of a widget.",
                        f"\nLever\n1. A part{CLEAR} of a widget\x9b2J.", 1)
    assert text != mini_bytes.decode("utf-8")
    return text.encode("utf-8")


def test_control_characters_in_a_release_are_removed_and_reported(crafted_bytes):
    r = parse_bytes(crafted_bytes, "crafted.txt")
    assert r.get("101.2a").text == "The first part is the handle."
    lever = next(e for e in r.glossary if e.term == "Lever")
    assert lever.senses[0] == "A part of a widget. See rule 101.2b."
    everything = json.dumps(r.to_dict(), ensure_ascii=False)
    assert _dangerous(json.loads(everything).__repr__()) == []
    assert "\x1b" not in everything and RLO not in everything and "\x9b" not in everything
    found = [a for a in r.anomalies if a.kind == "control-characters"]
    assert [a.text.split()[0] for a in found] == ["101.2a", "1."]
    assert "U+001B ×2" in found[0].message and "U+202E" in found[0].message
    assert r.unplaced == []


def test_a_hostile_source_name_is_kept_printable(mini_bytes):
    r = parse_bytes(mini_bytes, f"x{CLEAR}{FORGED}.txt")
    assert r.source.name == "x\\x1b[2J\\nError: fake line.txt"


def test_scrub_cleans_a_release_read_from_html(mini_release):
    from crsearch.rules.model import Release

    r = Release.from_dict(mini_release.to_dict())
    r.get("101.2a").text = f"The first{CLEAR} part."
    r.get("100.2").examples[0] = f"Ann{TITLE} starts."
    r.glossary[0].term = f"{RLO}{r.glossary[0].term}"
    r.credits[0] += CLEAR
    scrub(r)
    assert r.get("101.2a").text == "The first part."
    assert r.get("100.2").examples[0] == "Ann starts."
    assert r.glossary[0].term == mini_release.glossary[0].term
    assert "\x1b" not in json.dumps(r.to_dict())
    kinds = [a.text for a in r.anomalies if a.kind == "control-characters"]
    assert kinds == [r.title, "100.2", "101.2a", mini_release.glossary[0].term]


@pytest.mark.slow
def test_a_crafted_site_folder_imports_without_control_characters(tmp_path, mini_release):
    from crsearch.ingest.pipeline import release_from_site
    from crsearch.site import build as site

    site.build(mini_release, tmp_path / "s", search=False)
    page = tmp_path / "s" / "101.html"
    html = page.read_text(encoding="utf-8")
    assert "The first part is the handle." in html
    page.write_text(html.replace("The first part is the handle.",
                                 f"The first{CLEAR} part&#27;[2J is the handle.{RLO}"),
                    encoding="utf-8")
    back = release_from_site(tmp_path / "s")
    assert back.get("101.2a").text == "The first part is the handle."
    assert any(a.kind == "control-characters" and a.text == "101.2a" for a in back.anomalies)


# -- the command line ----------------------------------------------------------------

def test_imported_crafted_release_prints_no_escape_sequence(tmp_path, crafted_bytes):
    name = f"evil{CLEAR}{TITLE}{FORGED}.txt"
    path = tmp_path / name
    path.write_bytes(crafted_bytes)
    data = str(tmp_path / "data")
    r = run(data, "update", "--from", str(path), "--no-index")
    assert r.exit_code == 0, r.output
    assert r.output.endswith("\n") and _dangerous(r.output[:-1], newlines_ok=False) == []
    assert "\\nError: fake line.txt" in r.output
    for args in (["rule", "101.2a"], ["report"], ["report", "--json"], ["releases"],
                 ["export", "--json"], ["rule", "101.2", "--json"]):
        r = run(data, *args)
        assert r.exit_code == 0, (args, r.output)
        assert "\x1b" not in r.output and RLO not in r.output, args
        assert not any(line.startswith("Error: fake") for line in r.output.splitlines()), args
    report = run(data, "report").output
    assert "control-characters" in report
    assert "evil\\x1b[2J\\x1b]0;owned\\x07\\nError: fake line.txt" in report


def test_error_messages_escape_what_they_quote(tmp_path, mini_data_dir):
    from crsearch.store.datadir import chapter_ids, pack_chapters, read_chapter

    # A stored release altered by hand still prints no raw escape sequence.
    altered = json.dumps(f"Altered{CLEAR}{TITLE}")
    for stored in mini_data_dir.glob("releases/*/**/*.json"):
        text = stored.read_text(encoding="utf-8")
        stored.write_text(text.replace('"The first part is the handle."', altered), encoding="utf-8")
    for stored in mini_data_dir.glob("releases/*/chapters.z"):  # the chapters, a zlib block each
        chapters = {c: json.loads(read_chapter(stored, c).replace('"The first part is the handle."', altered))
                    for c in chapter_ids(stored)}
        stored.write_bytes(pack_chapters(chapters))
    for stored in mini_data_dir.glob("releases/*/**/*.json.gz"):  # the whole release, compressed
        text = gzip.decompress(stored.read_bytes()).decode("utf-8")
        stored.write_bytes(gzip.compress(text.replace('"The first part is the handle."', altered).encode()))
    bad = tmp_path / f"missing{CLEAR}{FORGED}.txt"
    r = run(mini_data_dir, "update", "--from", str(bad))
    assert r.exit_code != 0 and r.output.startswith("Error:")
    assert "\x1b" not in r.output and "\nError: fake" not in r.output
    afile = tmp_path / f"file{CLEAR}{FORGED}"
    afile.write_text("x")
    r = run(afile, "rule", "100.1")
    assert r.exit_code == 2 and "\x1b" not in r.output and "\nError: fake" not in r.output
    r = run(mini_data_dir, "rule", f"1{CLEAR}")
    assert r.exit_code == 2 and "\x1b" not in r.output
    r = run(mini_data_dir, f"ru{CLEAR}le")
    assert r.exit_code == 2 and "\x1b" not in r.output
    for args in (["rule", "101.2a"], ["rule", "101.2a", "--json"], ["export", "--json"]):
        r = run(mini_data_dir, *args, color=True)
        assert r.exit_code == 0, r.output
        assert CLEAR not in r.output and TITLE not in r.output and "Altered" in r.output
        assert "\x1b[2m" in r.output or "--json" in args  # click's own styles stay


def test_a_server_chosen_file_name_cannot_forge_a_line(tmp_path, mini_bytes):
    import http.server
    import threading

    target = "/x%1b[2J%1b]0;owned%07%0aError: fake line.txt"

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/latest.txt":
                self.send_response(302)
                self.send_header("Location", target)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(mini_bytes)))
            self.end_headers()
            self.wfile.write(mini_bytes)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/latest.txt"
        data = str(tmp_path / "data")
        r = run(data, "update", "--from", url, "--no-index")
        assert r.exit_code == 0, r.output
        for args in (["update", "--from", url, "--no-index"], ["report"], ["report", "--json"],
                     ["releases"], ["releases", "--json"]):
            r = run(data, *args)
            assert "\x1b" not in r.output, args
            assert not any(line.startswith("Error: fake") for line in r.output.splitlines()), args
        assert "x\\x1b[2J\\x1b]0;owned\\x07\\nError: fake line.txt" in run(data, "report").output
    finally:
        server.shutdown()
        server.server_close()
