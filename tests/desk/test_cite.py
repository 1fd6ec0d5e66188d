"""--cite: paste-ready quotes, plain or Markdown with a link to the site."""

from __future__ import annotations

from click.testing import CliRunner

from crsearch.cli.main import cli
from crsearch.desk import cite


def run(data_dir, *args, env=None):
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], env=env)


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
