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
@click.option("--all", "all_releases", is_flag=True,
              help="Every stored release: the latest at the root, older ones under OUT/<date>/, "
                   "with what changed between them.")
@click.option("--cards", is_flag=True,
              help="Add card lookup from the imported card data (see `crsearch cards update`): "
                   "the search box and the explain page find a card by name.")
@click.option("--json", "as_json", is_flag=True, help="Print what was built as JSON.")
@click.pass_context
def build_cmd(ctx: click.Context, out: str, strict: bool, no_search: bool,
              all_releases: bool, cards: bool, as_json: bool) -> None:
    """Render the release to static HTML in OUT (replacing an earlier build).

    Only the files an earlier build wrote are replaced or removed: a
    .git, a CNAME or notes beside the site stay.  A file the build would
    overwrite that no build wrote (or that was changed since) stops it,
    with nothing changed.

    Pages link every cross-reference and every rule has a page of its own;
    the search box ranks like `crsearch search`, api/ holds the rules as
    JSON, and a service worker keeps the site offline.  Use the global
    --release DATE to pick a release other than the latest, or --all for
    every stored release.  --cards adds the imported card data, loaded
    a letter at a time as names are typed.

    \b
    Example:
        crsearch site build public/
        crsearch site build public/ --all
        crsearch site build public/ --cards
        crsearch --release 2026-06-19 site build old-site/ --strict
    """
    from crsearch.cli.common import emit_json, rules

    warn = lambda msg: click.echo(f"Warning: {msg}", err=True)
    built = rules(ctx).build_site(out, all_releases=all_releases, search=not no_search,
                                  strict=strict, warn=warn, cards=cards)
    if as_json:
        emit_json(built.to_dict())
        return
    result, dates = built.result, built.releases
    what = (f"{len(dates)} releases ({dates[-1]} at the root)" if all_releases
            else f"the {dates[-1]} rules")
    click.echo(f"Built {result.pages} pages of {what} into "
               f"{result.out} in {built.seconds:.1f} s ({result.files} files, {result.bytes / 1e6:.1f} MB): "
               f"{result.links} links, {len(result.dangling)} dangling"
               + ("" if result.search else ", no search index")
               + (f", {result.cards.count:,} cards ({result.cards.bytes / 1e6:.1f} MB)"
                  if result.cards is not None else "") + ".")


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
    from crsearch.site import build as site

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
