"""The 2026-08-07 site in a real browser: Debian's Chromium, headless, via Playwright.

The site is served on 127.0.0.1 from a thread.  Screenshots of the home page,
a chapter page, a search and the phone/dark views go to ``test-output/screenshots``
(their paths are printed; run with ``-s`` or see the CI artifact).
"""

from __future__ import annotations

from conftest import PHONE, shot


def in_view(pg, id: str) -> bool:
    return pg.evaluate(
        """id => { const r = document.getElementById(id).getBoundingClientRect();
                   return r.top >= -1 && r.top < window.innerHeight; }""", id)


def test_home_page_shows_contents_and_date(page, base_url):
    page.goto(base_url)
    assert "2026-08-07" in page.locator("header .effective").inner_text()
    assert page.locator("ul.contents a[href='702.html']").count() == 1
    shot(page, "home")


def test_follow_a_cross_reference_to_its_anchor(page, base_url):
    page.goto(base_url + "index.html")
    page.click("ul.contents a[href='510.html']")
    page.wait_for_url("**/510.html")
    link = page.locator("article.rule a.xref[href*='#']").first
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url("**/" + href)
    target = href.split("#", 1)[1]
    assert in_view(page, target)
    shot(page, "chapter-510-after-link")
    page.goto(base_url + "702.html#702.19")
    assert in_view(page, "702.19")
    shot(page, "chapter-702")


def test_search_deathtouch_reaches_702_2(page, base_url):
    page.goto(base_url)
    page.fill("#q", "deathtouch")
    page.press("#q", "Enter")
    page.wait_for_url("**/search.html?q=deathtouch")
    page.wait_for_selector("#results li[data-id]")
    assert page.locator("#results a[href$='702.html#702.2']").count() >= 1
    shot(page, "search-deathtouch")
    page.locator("#results a[href$='702.html#702.2']").first.click()
    page.wait_for_url("**/702.html#702.2")
    assert in_view(page, "702.2")


def test_a_typo_still_finds_its_rule(page, base_url):
    page.goto(base_url + "search.html?q=deathtuch")
    page.wait_for_selector("#results li[data-id]")
    first = page.locator("#results li[data-id] a").first
    assert first.get_attribute("href").endswith("702.html#702.2")
    page.goto(base_url + "index.html")
    page.fill("#q", "trampel")
    page.wait_for_selector("#suggest:not([hidden]) [role=option]")
    assert page.locator("#suggest [data-href$='702.html#702.19']").count() == 1
    shot(page, "suggest-typo")


def test_typing_a_rule_number_lands_on_it(page, base_url):
    page.goto(base_url + "glossary.html")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("CR 702.19c")
    page.keyboard.press("Enter")
    page.wait_for_url("**/702.html#702.19c")
    assert in_view(page, "702.19c")
    page.fill("#q", "702.99z")
    page.press("#q", "Enter")
    page.wait_for_url("**/search.html?q=702.99z")
    page.wait_for_selector("#results .error")
    assert "no subrule 702.99z" in page.locator("#results").inner_text()


def test_open_a_glossary_term(page, base_url):
    page.goto(base_url + "702.html#702.2")
    page.click("article:has([id='702.2']) .cited a[href='glossary.html#g-deathtouch']")
    page.wait_for_url("**/glossary.html#g-deathtouch")
    assert in_view(page, "g-deathtouch")
    assert page.locator("#g-deathtouch").inner_text().startswith("Deathtouch")
    shot(page, "glossary-deathtouch")


def test_phone_width_dark_mode_has_no_sideways_scroll(browser, base_url):
    context = browser.new_context(**PHONE, color_scheme="dark")
    pg = context.new_page()
    try:
        pg.goto(base_url + "510.html#510.1c")
        wide = pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        bg = pg.evaluate("getComputedStyle(document.body).backgroundColor")
        shot(pg, "phone-dark-510")
    finally:
        context.close()
    assert wide
    assert bg == "rgb(21, 21, 21)"
