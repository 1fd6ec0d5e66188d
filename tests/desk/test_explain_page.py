"""The site's "Explain a card" page: offline, and the same terms as the CLI."""

from __future__ import annotations

import json

import pytest

from crsearch.desk import explain


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory, latest_release):
    from crsearch.site import build as site

    files, _ = site.render(latest_release)
    out = tmp_path_factory.mktemp("explain-site")
    for name, data in files.items():
        (out / name).write_bytes(data)
    return out


@pytest.mark.slow
def test_the_site_has_the_page_and_its_data(site_dir, latest_release):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site_dir / "explain.html").read_text(encoding="utf-8"), "html.parser")
    scripts = [s.get("src") for s in soup.find_all("script") if s.get("src")]
    assert "explain-terms.js" in scripts and "explain.js" in scripts
    assert soup.find("textarea", id="card-text") is not None
    nav = BeautifulSoup((site_dir / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert nav.find("a", href="explain.html") is not None
    data = (site_dir / "explain-terms.js").read_text(encoding="utf-8")
    assert data.startswith("window.CRSEARCH_EXPLAIN=")
    table = json.loads(data[len("window.CRSEARCH_EXPLAIN="):].rstrip().rstrip(";"))
    assert table["release"] == latest_release.effective_date
    assert table["urls"]["701.21"] == "701.html#701.21"


def bench_texts() -> list[str]:
    from bench.explain_bench import FILES, load_cards

    return [c["text"] for _, path in FILES for c in load_cards(path)]


@pytest.mark.slow
def test_the_page_finds_what_the_cli_finds_offline(site_dir, latest_release, browser):
    table = explain.build(latest_release)
    texts = bench_texts()
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site_dir / "explain.html").as_uri())  # file://: no server, no network
        got = page.evaluate("texts => texts.map(t => window.crsearchExplain(t)"
                            ".map(x => [x.span, x.id]))", texts)
        page.fill("#card-text", texts[0])
        page.click("#explain-form button")
        marks = page.locator("#explain-text mark").all_inner_texts()
        items = page.locator("#explain-terms li").count()
        trigger = page.locator("#explain-text span.reading").first.inner_text()
        nested = page.locator("#explain-text span.reading mark").all_inner_texts()
    finally:
        context.close()
    assert errors == []
    for text, js in zip(texts, got):
        py = [[t["span"], t["id"]] for t in explain.find(text, table)]
        assert js == py, text
    assert marks[:3] == ["cast", "creature", "quest counter"]
    assert items == len(explain.find(texts[0], table))
    # The trigger condition is marked around the terms it holds.
    assert trigger == "Whenever you cast a creature spell"
    assert nested[:2] == ["cast", "creature"]
