"""`crsearch mcp`, driven as an assistant drives it: the SDK's own client over stdio.

Each tool must answer exactly what its command prints with --json; bad input
and a damaged or empty data folder must give error answers from a server that
keeps answering.  Every request has a timeout, so a hung server fails the
test instead of holding CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from conftest import run
from mcp import Client, MCPError, StdioServerParameters

from crsearch import Rules

#: Every test here starts `crsearch mcp` or serves 2026-08-07 with its index.
pytestmark = pytest.mark.slow

#: Seconds one request may take: the first search loads the index and the
#: embeddings on a machine shared with other tests.
TIMEOUT = 120
TOOLS = {"rule", "search", "define", "keyword", "explain", "cite_check", "history", "diff"}


class Remote:
    """A connected client, called from the test's thread; every call has a timeout."""

    def __init__(self, portal: Any, client: Client):
        self.portal, self.client = portal, client

    def __call__(self, method: str, *args: Any, **kwargs: Any) -> Any:
        async def run() -> Any:
            with anyio.fail_after(TIMEOUT):
                return await getattr(self.client, method)(*args, **kwargs)

        return self.portal.call(run)

    def tool(self, tool: str, /, **arguments: Any) -> Any:
        return self("call_tool", tool, arguments)

    def read(self, uri: str) -> str:
        return self("read_resource", uri).contents[0].text


@contextlib.contextmanager
def serve(data_dir: Path, *options: str) -> Iterator[Remote]:
    """`crsearch --data-dir DATA_DIR mcp OPTIONS` in a subprocess, with a client on it."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "crsearch", "--data-dir", str(data_dir), "mcp", *options])
    with start_blocking_portal() as portal:
        client = Client(params, read_timeout_seconds=TIMEOUT, cache=None)
        with portal.wrap_async_context_manager(client):
            yield Remote(portal, client)


def cli_json(data_dir: Path, *args: str, input: str | None = None) -> tuple[Any, str]:
    """What `crsearch ARGS --json` prints: (data, text).  Exit 1 is allowed: no
    results, no terms and moved citations still print their JSON."""
    r = run(data_dir, *args, "--json", input=input)
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout), r.stdout.rstrip("\n")


def cli_error(data_dir: Path, *args: str) -> str:
    r = run(data_dir, *args)
    assert r.exit_code != 0, r.output
    return r.stderr.rstrip("\n")


def import_into(data_dir: Path, *paths: Path, index: bool) -> None:
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    results = import_sources([Source(p.name, p.read_bytes(), path=str(p)) for p in paths],
                             Store(data_dir), build_index=index)
    assert all(r.error is None for r in results), [r.error for r in results]


@pytest.fixture(scope="module")
def data_dir(latest_indexed_data_dir) -> Path:
    """2026-06-19 and 2026-08-07, the latest with its search index."""
    return latest_indexed_data_dir


@pytest.fixture(scope="module")
def server(data_dir) -> Iterator[Remote]:
    with serve(data_dir) as remote:
        yield remote


# -- tools --------------------------------------------------------------------------

def test_lists_the_tools_with_descriptions_that_say_when_to_use_them(server):
    tools = {t.name: t for t in server("list_tools").tools}
    assert set(tools) - {"card"} == TOOLS
    assert ("card" in tools) == hasattr(Rules, "card")
    for t in tools.values():
        assert t.description and t.output_schema and t.input_schema["type"] == "object"
        assert t.annotations.read_only_hint is True
    assert "check every rule number you cite" in tools["cite_check"].description
    assert "say which release you quote" in tools["rule"].description
    assert {"limit", "why", "release"} <= set(tools["search"].input_schema["properties"])
    assert {"old", "new", "kind", "cosmetic"} <= set(tools["diff"].input_schema["properties"])
    assert set(tools["cite_check"].input_schema["properties"]) == {"text", "as_of"}


def test_the_server_tells_assistants_to_check_their_citations(server):
    assert server.client.server_info.name == "crsearch"
    instructions = server.client.instructions
    assert "cite_check" in instructions and "say which release" in instructions


@pytest.mark.parametrize("tool, arguments, command", [
    ("rule", {"ids": ["702.19c"]}, ["rule", "702.19c"]),
    ("rule", {"ids": ["510.1c-d", "CR 119.7"], "children": False},
     ["rule", "510.1c-d", "CR 119.7", "--no-children"]),
    ("rule", {"ids": ["702.19"], "release": "2026-06-19"}, ["--release", "2026-06-19", "rule", "702.19"]),
    ("search", {"query": "can a tapped creature block", "limit": 5},
     ["search", "can a tapped creature block", "--limit", "5"]),
    ("search", {"query": "deathtuch", "why": True}, ["search", "deathtuch", "--why"]),
    ("search", {"query": '"trample'}, ["search", '"trample']),  # unbalanced quote: read, not refused
    ("search", {"query": "zzzqqxx"}, ["search", "zzzqqxx"]),  # nothing found: still the JSON
    ("define", {"term": "lethal damage"}, ["define", "lethal damage"]),
    ("keyword", {"name": "first strike"}, ["keyword", "first strike"]),
    ("explain", {"text": "Flying, ward {2}"}, ["explain", "Flying, ward {2}"]),
    ("history", {"id": "702.19c"}, ["history", "702.19c"]),
    ("diff", {"kind": "rules", "cosmetic": False}, ["diff", "--kind", "rules", "--no-cosmetic"]),
    ("diff", {"old": "2026-06-19", "new": "2026-08-07", "kind": "glossary"},
     ["diff", "2026-06-19", "2026-08-07", "--kind", "glossary"]),
])
def test_each_tool_answers_its_commands_json(server, data_dir, tool, arguments, command):
    result = server.tool(tool, **arguments)
    expected, text = cli_json(data_dir, *command)
    assert result.is_error is False, result.content[0].text
    assert result.content[0].text == text
    structured = result.structured_content
    assert (structured["result"] if isinstance(expected, list) else structured) == expected


@pytest.mark.parametrize("text, as_of", [
    ("Trample (702.19b) and deathtouch (CR 702.2c); see 702.19z.", None),
    ("Written in June: trample is rule 702.19c.", "2026-06-19"),
])
def test_cite_check_answers_cite_check_json(server, data_dir, text, as_of):
    result = server.tool("cite_check", text=text, **({"as_of": as_of} if as_of else {}))
    expected, printed = cli_json(data_dir, "cite-check", "-", *(["--as-of", as_of] if as_of else []),
                                 input=text)
    assert result.is_error is False
    assert result.structured_content == expected and result.content[0].text == printed


def test_cite_check_catches_a_number_that_does_not_exist(server):
    cites = server.tool("cite_check", text="Trample assigns excess damage (702.19z).").structured_content
    [c] = cites["citations"]
    assert (c["id"], c["status"]) == ("702.19z", "missing")
    assert c["nearest"] and all(n.startswith("702.19") for n in c["nearest"])


def test_the_server_release_is_the_default_and_latest_means_latest(data_dir):
    with serve(data_dir, "--release", "2026-06-19") as remote:
        assert remote.tool("rule", ids=["702.19c"]).structured_content["result"][0]["release"] == "2026-06-19"
        assert remote.tool("rule", ids=["702.19c"], release="latest").structured_content[
            "result"][0]["release"] == "2026-08-07"
        assert remote.read("cr://latest/702.19c").rstrip().endswith("2026-08-07")


# -- bad input: an error answer with the command's message, never a dead server -------

@pytest.mark.parametrize("tool, arguments, command", [
    ("rule", {"ids": ["999.9"]}, ["rule", "999.9"]),  # unknown: with "Did you mean"
    ("rule", {"ids": ["70x"]}, ["rule", "70x"]),  # malformed
    ("search", {"query": "   "}, ["search", "   "]),  # empty
    ("define", {"term": "zzqqy"}, ["define", "zzqqy"]),
    ("keyword", {"name": "flubber"}, ["keyword", "flubber"]),
    ("explain", {"text": ""}, ["explain", ""]),
    ("history", {"id": "999.9"}, ["history", "999.9"]),
    ("diff", {"old": "1990-01-01"}, ["diff", "1990-01-01"]),
    ("rule", {"ids": ["702.19c"], "release": "last tuesday"}, ["--release", "last tuesday", "rule", "702.19c"]),
    ("cite_check", {"text": "702.19c", "as_of": "1999-01-01"}, ["cite-check", "-", "--as-of", "1999-01-01"]),
])
def test_bad_input_is_an_error_answer_with_the_commands_message(server, data_dir, tool, arguments, command):
    result = server.tool(tool, **arguments)
    assert result.is_error is True
    assert result.structured_content is None
    expected = (cli_error(data_dir, *command) if tool != "cite_check"
                else run(data_dir, *command, input="702.19c").stderr.rstrip("\n"))
    assert result.content[0].text == expected
    assert expected.startswith("Error: ")


def test_arguments_outside_the_schema_are_refused_and_the_server_goes_on(server):
    for tool, arguments in [("search", {"query": "trample", "limit": 0}), ("rule", {"ids": []}),
                            ("diff", {"kind": "cards"}), ("rule", {})]:
        result = server.tool(tool, **arguments)
        assert result.is_error is True, (tool, arguments)
    assert server.tool("rule", ids=["702.19c"]).is_error is False


# -- resources --------------------------------------------------------------------------

def test_lists_the_toc_and_the_rule_templates(server):
    assert [str(r.uri) for r in server("list_resources").resources] == ["cr://latest/toc"]
    templates = [t.uri_template for t in server("list_resource_templates").resource_templates]
    assert templates == ["cr://{release}/toc", "cr://{release}/{id}"]


def test_a_rule_resource_is_the_rule_with_its_subrules_as_the_terminal_shows_it(server, data_dir):
    for uri in ("cr://2026-08-07/702.19", "cr://latest/702.19"):
        text = server.read(uri)
        assert text == run(data_dir, "rule", "702.19").stdout.rstrip("\n")
        assert "702.19a" in text and "702.19g" in text and text.endswith("effective 2026-08-07")
    old = server.read("cr://2026-06-19/702.19c")
    assert old.endswith("effective 2026-06-19")


def test_the_toc_resource_lists_sections_and_chapters(server, data_dir):
    text = server.read("cr://latest/toc")
    assert text.startswith("1. Game Concepts\n  100. General")
    assert text.endswith("Comprehensive Rules effective 2026-08-07")
    assert run(data_dir, "toc").stdout.rstrip("\n") in text
    assert server.read("cr://2026-06-19/toc").endswith("effective 2026-06-19")


@pytest.mark.parametrize("uri, code, message", [
    ("cr://latest/999.9", -32602, "Error: there is no rule 999.9"),
    ("cr://latest/70x", -32602, "Error: '70x' is not a rule number"),
    ("cr://1990-01-01/702.19c", -32602, "Error: no imported release was in effect on 1990-01-01"),
])
def test_a_bad_resource_is_an_error_with_the_commands_message(server, uri, code, message):
    with pytest.raises(MCPError) as e:
        server.read(uri)
    assert e.value.error.code == code
    assert e.value.error.message.startswith(message)
    assert server.read("cr://latest/702.19c")  # still answering


# -- the data folder: empty, updated, damaged ------------------------------------------------

def test_nothing_imported_is_an_error_until_a_release_is_imported(tmp_path, mini_bytes):
    empty = tmp_path / "data"
    empty.mkdir()
    with serve(empty) as remote:
        result = remote.tool("rule", ids=["100.1"])
        assert result.is_error is True
        assert result.content[0].text == cli_error(empty, "rule", "100.1")
        assert "no releases imported yet" in result.content[0].text
        import_into(empty, Path(__file__).resolve().parent.parent / "fixtures" / "mini_cr.txt", index=False)
        result = remote.tool("rule", ids=["100.1"])  # the import is seen without a restart
        assert result.is_error is False
        assert result.structured_content["result"][0]["release"] == "2031-03-03"


def test_a_damaged_store_is_an_error_answer_and_the_server_keeps_answering(mini_data_dir):
    catalog = mini_data_dir / "catalog.json"
    good = catalog.read_bytes()
    with serve(mini_data_dir) as remote:
        assert remote.tool("rule", ids=["100.1"]).is_error is False
        catalog.write_bytes(b"\x00garbage{")
        result = remote.tool("rule", ids=["100.1"])
        assert result.is_error is True
        assert result.content[0].text == cli_error(mini_data_dir, "rule", "100.1")
        assert "is damaged" in result.content[0].text and "crsearch repair" in result.content[0].text
        assert remote.tool("define", term="widget").is_error is True
        with pytest.raises(MCPError, match="is damaged"):
            remote.read("cr://latest/100.1")
        assert len(remote("list_tools").tools) >= len(TOOLS)
        catalog.write_bytes(good)
        assert remote.tool("rule", ids=["100.1"]).is_error is False


def test_a_damaged_search_index_is_an_error_answer(tmp_path, mini_bytes):
    from crsearch.store.datadir import Store

    data = tmp_path / "data"
    import_into(data, Path(__file__).resolve().parent.parent / "fixtures" / "mini_cr.txt", index=True)
    index = Store(data).pick().index_dir
    for f in index.rglob("*"):
        if f.is_file():
            f.write_bytes(b"")
    with serve(data) as remote:
        result = remote.tool("search", query="widget")
        assert result.is_error is True
        assert result.content[0].text == cli_error(data, "search", "widget")
        assert remote.tool("rule", ids=["100.1"]).is_error is False


# -- the command -----------------------------------------------------------------------------

def test_without_the_sdk_the_command_says_what_to_install(tmp_path):
    code = ("import sys\nsys.modules['mcp'] = None\n"
            "from crsearch.cli.main import main\nsys.argv = ['crsearch', 'mcp']\nmain()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "CRSEARCH_DATA": str(tmp_path)})
    assert r.returncode == 2
    assert r.stderr.strip() == "Error: the MCP server needs the mcp package: pip install 'crsearch[mcp]'"


def test_a_card_tool_appears_when_rules_can_look_up_cards(mini_data_dir, monkeypatch):
    from crsearch.cli.mcp_server import make_server

    class Card:
        def to_dict(self) -> dict[str, Any]:
            return {"name": "Grizzly Bears", "release": "2031-03-03"}

    monkeypatch.setattr(Rules, "card", lambda self, name: Card(), raising=False)

    async def run() -> tuple[set[str], Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(make_server(str(mini_data_dir))) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                return names, await client.call_tool("card", {"name": "grizzly bears"})

    # In a thread of its own: a session's Playwright (the browser tests) keeps
    # an event loop running in the main thread.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        names, result = pool.submit(anyio.run, run).result()
    assert names == TOOLS | {"card"}
    assert result.structured_content == {"name": "Grizzly Bears", "release": "2031-03-03"}


def test_mcp_help_names_the_tools():
    r = run(None, "mcp", "--help")
    assert r.exit_code == 0
    assert "cite_check" in r.output and "claude mcp add" in r.output


