"""``crsearch mcp``: the rules inside AI assistants (a Model Context Protocol server).

The server itself is ``mcp_server``; it needs the official MCP SDK (the
``mcp`` extra), imported only when this command runs, so loading this
module costs the other commands nothing.
"""

from __future__ import annotations

import sys

import click

from crsearch.cli.common import State


@click.command("mcp")
@click.pass_context
def mcp_command(ctx: click.Context) -> None:
    """Serve the rules to AI assistants: a Model Context Protocol server on stdio.

    An assistant (Claude, VS Code, Cursor, ...) starts it and calls its tools:
    rule, search, define, keyword, explain, cite_check, history and diff, each
    answering with that command's --json, and reads cr://DATE/ID and
    cr://latest/toc.  --release sets the default release and --data-dir the
    data folder, as for every command.  Needs the mcp extra:
    pip install 'crsearch[mcp]'.

    \b
    Example:
        claude mcp add crsearch -- crsearch mcp
        crsearch mcp --data-dir ~/cr-data --release 2026-08-07
    """
    from crsearch.errors import BadInput

    try:
        import mcp.server.mcpserver  # noqa: F401 - the SDK, from the mcp extra
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] != "mcp":
            raise
        raise BadInput("the MCP server needs the mcp package: pip install 'crsearch[mcp]'") from None
    state = ctx.find_object(State)
    assert state is not None  # the group always makes one
    from crsearch.cli.mcp_server import make_server

    if sys.stdin.isatty():
        click.echo("crsearch mcp: an MCP server, waiting for an assistant on stdin (Ctrl-C "
                   "stops it); see `crsearch mcp --help`", err=True)
    make_server(state.data_dir, state.release_date).run("stdio")


def register(cli: click.Group) -> None:
    """Add ``mcp`` to the ``crsearch`` group."""
    cli.add_command(mcp_command)
