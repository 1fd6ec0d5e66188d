"""--cite: paste-ready quotes, plain or Markdown with a link to the site."""

from __future__ import annotations

import pytest
from conftest import run

from crsearch.desk import cite


def test_rule_cite_plain(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19c", "--cite")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("CR 702.19c (effective 2026-08-07): Trample over planeswalkers is")
    assert r.output.count("\n") == 1


def test_rule_cite_markdown_links_to_the_chapter_page(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19c", "--cite=md", "--site-url", "https://cr.example/")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("> [CR 702.19c](https://cr.example/702.html#702.19c) "
                               "(effective 2026-08-07): Trample over")


def test_site_url_from_the_environment(latest_data_dir):
    r = run(latest_data_dir, "rule", "702.19c", "--cite=md",
            env={cite.SITE_URL_ENV: "https://env.example/cr"})
    assert "(https://env.example/cr/702.html#702.19c)" in r.output


def test_a_range_gives_one_quote_per_rule(latest_data_dir):
    r = run(latest_data_dir, "rule", "601.2f-h", "--cite")
    lines = r.output.splitlines()
    assert [line.split(" ")[1] for line in lines] == ["601.2f", "601.2g", "601.2h"]


def test_older_release_quotes_carry_its_date(latest_data_dir):
    r = run(latest_data_dir, "--release", "2026-06-19", "rule", "702.19c", "--cite")
    assert "(effective 2026-06-19)" in r.output


@pytest.mark.slow
def test_search_cite_quotes_each_result(indexed_data_dir):
    r = run(indexed_data_dir, "search", "trample", "--limit", "2", "--cite")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == 2 and all(line.startswith("CR 702.19") for line in lines)


def test_links_follow_the_site_layout():
    assert cite.link("702.19c", "B/") == "B/702.html#702.19c"
    assert cite.link("702", "B/") == "B/702.html"
    assert cite.link("7", "B/") == "B/index.html#7"
    assert cite.link("glossary:Trample", "", "g-trample") == "glossary.html#g-trample"


def test_markdown_escapes_emphasis_marks():
    q = cite.quote("100.1", "a *b* c_d", "2026-08-07", "md")
    assert r"\*b\*" in q and r"c\_d" in q


# -- Markdown quotes carry no links or HTML but their own ---------------------------

EVIL = ("handle [click](https://evil.example/a) <img src=x onerror=alert(1)> "
        "<a href=\"https://evil.example/b\">here</a> ![i](https://evil.example/i.png) "
        "<https://evil.example/c> https://evil.example/d www.evil.example &lt;b&gt; &amp; "
        "`code` **bold** _em_ ~~gone~~ a | b \\*")


def rendered(markdown: str):
    """The quote as a Markdown site shows it (CommonMark with GitHub's
    extensions and bare-URL links), parsed."""
    from bs4 import BeautifulSoup
    from markdown_it import MarkdownIt

    html = MarkdownIt("gfm-like", {"linkify": True}).enable("linkify").render(markdown)
    return BeautifulSoup(html, "html.parser")


def assert_only_our_link(markdown: str, href: str, text: str):
    soup = rendered(markdown)
    assert [a["href"] for a in soup.find_all("a")] == [href], markdown
    assert soup.find_all(["img", "code", "strong", "em", "del", "s", "script"]) == [], markdown
    assert " ".join(text.split()) in soup.get_text(), markdown


@pytest.mark.slow
def test_markdown_escapes_links_html_and_emphasis_in_the_text():
    q = cite.quote("100.1", EVIL, "2031-03-03", "md", base="https://cr.example/")
    assert_only_our_link(q, "https://cr.example/100.html#100.1", EVIL)


def test_markdown_escapes_a_glossary_title():
    title = "Lever [x](https://evil.example) <b>"
    q = cite.quote("glossary:Lever", "A part.", "2031-03-03", "md", title=title,
                   glossary_anchor="lever")
    assert_only_our_link(q, "glossary.html#lever", title)


def test_a_crafted_release_quotes_as_text_in_markdown(tmp_path, mini_bytes):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source
    from crsearch.store.datadir import Store

    evil = mini_bytes.replace(b"The first part is the handle.", EVIL.encode("utf-8"))
    results = import_sources([Source("evil.txt", evil)], Store(tmp_path), build_index=False)
    assert results[0].error is None, results[0].error
    r = run(tmp_path, "rule", "101.2a", "--cite=md", "--site-url", "https://cr.example")
    assert r.exit_code == 0, r.output
    assert_only_our_link(r.output, "https://cr.example/101.html#101.2a", EVIL)


@pytest.mark.parametrize("url", ["javascript:alert(1)", "ftp://cr.example/", "file:///etc/",
                                 "cr.example/rules", "https://", "data:text/html,<b>x</b>"])
def test_only_http_site_urls_are_accepted(latest_data_dir, url):
    r = run(latest_data_dir, "rule", "702.19c", "--cite=md", "--site-url", url)
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and "http" in r.output and "Traceback" not in r.output
    r = run(latest_data_dir, "rule", "702.19c", "--cite=md", env={cite.SITE_URL_ENV: url})
    assert r.exit_code == 2 and cite.SITE_URL_ENV in r.output, r.output


def test_a_site_url_cannot_break_out_of_the_link():
    base = cite.site_url("https://cr.example/a b)[x](https://evil.example/\"<c>")
    q = cite.quote("100.1", "text", "2031-03-03", "md", base=base)
    soup = rendered(q)
    (a,) = soup.find_all("a")
    assert a["href"].startswith("https://cr.example/a%20b%29%5Bx%5D%28https://evil.example/")
    assert a["href"].endswith("100.html#100.1")
