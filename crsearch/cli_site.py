"""``crsearch site``: build the static rules website, or serve it locally.

Only click and the standard library are imported here: ``cli.py`` imports
this module on every run, a rule lookup included.  jinja2, bs4 and Whoosh
load inside the commands.
"""

from __future__ import annotations

import click


@click.group(name="site")
def site_group() -> None:
    """Build the static rules website, or serve a built one on 127.0.0.1.

    \b
    Example:
        crsearch site build public/
        crsearch site serve public/
    """


@site_group.command(name="build")
@click.argument("out", type=click.Path(path_type=str))
@click.option("--strict", is_flag=True,
              help="Fail on dangling references or unplaced source lines.")
@click.option("--no-search", is_flag=True, help="Skip the search data (the site then has no search).")
@click.pass_context
def build_cmd(ctx: click.Context, out: str, strict: bool, no_search: bool) -> None:
    """Render the release to static HTML in OUT (replacing an earlier build).

    Pages link every cross-reference; the search box ranks like `crsearch
    search`.  Use the global --release DATE to pick a release other than the
    latest.

    \b
    Example:
        crsearch site build public/
        crsearch --release 2026-06-19 site build old-site/ --strict
    """
    import time
    from pathlib import Path

    from crsearch import site

    from crsearch.cli_common import rules

    stored = rules(ctx).stored()
    started = time.perf_counter()
    result = site.build(stored.release(), Path(out), search=not no_search, strict=strict,
                        warn=lambda msg: click.echo(f"Warning: {msg}", err=True))
    took = time.perf_counter() - started
    click.echo(f"Built {result.pages} pages of the {stored.effective_date} rules into "
               f"{result.out} in {took:.1f} s: {result.links} links, "
               f"{len(result.dangling)} dangling"
               + ("" if result.search else ", no search index") + ".")


@site_group.command(name="serve")
@click.argument("out", required=False, default="site", type=click.Path(path_type=str))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port on 127.0.0.1.")
def serve_cmd(out: str, port: int) -> None:
    """Serve a built site (default: ./site) on 127.0.0.1 until Ctrl-C.

    Pages and data are sent gzipped to browsers that accept it, with ETag,
    Last-Modified and Cache-Control headers.

    \b
    Example:
        crsearch site serve public/ --port 8080
    """
    from crsearch import site

    server = site.make_server(out, port)
    host, real_port = server.server_address[:2]
    click.echo(f"Serving {out} at http://{host}:{real_port}/ (Ctrl-C stops)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("Stopped.", err=True)
    finally:
        server.server_close()


def register(cli: click.Group) -> None:
    """Add the ``site`` group to the ``crsearch`` command line."""
    cli.add_command(site_group)
