"""mkdocs hooks for the generated command reference (docs/cli/reference.md).

- The ``crsearch`` group loads its search, site, desk and changes commands on
  first use, so that ``crsearch rule`` never imports them; mkdocs-click reads
  ``group.commands`` directly, which holds them only once they are listed.
- A command's help ends with an ``Example:`` block that click prints as is
  (``\\b``); in Markdown its indented lines would run into the paragraph, so
  they become a code block.
"""

from __future__ import annotations

import re
from typing import Any

_INDENTED_BLOCK = re.compile(r"<p>([^<\n]*:)\n((?: {4}[^\n]*(?:\n|(?=</p>)))+)</p>")


def on_config(config: Any) -> Any:
    import click

    from crsearch.cli.main import cli

    cli.list_commands(click.Context(cli))
    return config


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri != "cli/reference.md":
        return html

    def block(m: re.Match[str]) -> str:
        lines = "\n".join(line[4:] for line in m.group(2).rstrip("\n").split("\n"))
        return f'<p>{m.group(1)}</p>\n<pre><code class="language-sh">{lines}</code></pre>'

    return _INDENTED_BLOCK.sub(block, html)
