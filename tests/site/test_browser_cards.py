"""Card lookup (``site build --cards``) in a real browser.

Debian's Chromium, headless, via Playwright, on the site ``conftest.cards_site``
builds from 2026-08-07 and the fixture cards (a card made of markup among
them), served on 127.0.0.1 from a thread.  The service worker is blocked, so
the requests seen are the page's own: a typed name loads one letter file.
Screenshots go to ``test-output/screenshots``.
"""

from __future__ import annotations

import threading
from urllib.parse import quote

import pytest
from conftest import MARKUP_CARD_NAME, shot

#: The card panel's name, once the lookup has answered (null before).
CARD_NAME = """() => { const h = document.querySelector('#card-result .card-name');
                       return h ? h.textContent : null; }"""


@pytest.fixture(scope="module")
def cards_url(cards_site):
    from crsearch.site import build as site

    server = site.make_server(cards_site.result.out, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class Page:
    """A page with the URLs it asked for, failing on JavaScript errors and dialogs."""

    def __init__(self, pg, base: str):
        self.pg, self.base = pg, base
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        pg.on("request", lambda r: self.requests.append(r.url))
        pg.on("pageerror", lambda e: self.errors.append(str(e)))

        def dialog(d):
            self.dialogs.append(d.message)
            d.dismiss()

        pg.on("dialog", dialog)

    def card_files(self) -> list[str]:
        return [u[len(self.base):] for u in self.requests if u.startswith(self.base + "cards/")]


@pytest.fixture
def cpage(browser, cards_url):
    context = browser.new_context(viewport={"width": 1200, "height": 900}, service_workers="block")
    p = Page(context.new_page(), cards_url)
    yield p
    context.close()
    assert p.errors == [], "JavaScript errors"
    assert p.dialogs == [], "a card's text ran as script"
    assert all(u.startswith(cards_url) for u in p.requests), "requests left the site"


def test_typing_a_card_name_shows_its_text_and_rules(cpage, cards_url, axe_violations):
    pg = cpage.pg
    pg.goto(cards_url + "search.html")
    pg.fill("#q2", "notion thief")
    pg.wait_for_function(CARD_NAME)
    panel = pg.locator("#card-result .card-panel")
    assert pg.evaluate(CARD_NAME) == "Notion Thief"
    text = panel.locator(".card-text").inner_text()
    assert text.startswith("Flash") and "skips that draw" in text
    assert panel.locator(".card-type").inner_text() == "Creature \u2014 Human Rogue"
    assert panel.locator(".card-stats").inner_text() == "3/1"
    flash = panel.locator("a.card-rule", has_text="702.8")
    assert flash.get_attribute("href") == cards_url + "702.html#702.8"
    assert panel.locator("a.card-rule", has_text="121").count() == 1
    # Only the letter file of "notion" was loaded.
    assert [f.split(".")[0] for f in cpage.card_files()] == ["cards/n"]
    shot(pg, "cards-search-notion-thief")
    assert axe_violations(pg) == []
    flash.click()
    pg.wait_for_url("**/702.html#702.8")


def test_a_name_typed_in_the_header_box_of_any_page_opens_the_card(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "index.html")
    assert cpage.card_files() == []  # pages other than search and explain load no card code
    assert not any(u.endswith("/cards.js") for u in cpage.requests)
    pg.fill("#q", "Fire")
    pg.press("#q", "Enter")
    pg.wait_for_url("**/search.html?q=Fire")
    pg.wait_for_function(CARD_NAME)
    assert pg.evaluate(CARD_NAME) == "Fire // Ice"
    faces = pg.locator("#card-result .card-face-name").all_inner_texts()
    assert faces == ["Fire", "Ice"]


def test_a_searched_card_sits_above_the_rule_results(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "search.html?q=" + quote("Teferi\u2019s Protection"))
    pg.wait_for_function(CARD_NAME)
    pg.wait_for_function("() => !document.getElementById('results').getAttribute('aria-busy')")
    assert pg.evaluate(CARD_NAME) == "Teferi's Protection"
    order = pg.evaluate("""() => { const c = document.getElementById('card-result'),
                                         r = document.getElementById('results');
                                   return !!(c.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    assert order
    assert pg.locator("#results li[data-id]").count() > 0
    assert [f.split(".")[0] for f in cpage.card_files()] == ["cards/t"]


def test_a_rule_number_or_a_word_no_card_has_shows_no_card(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "search.html?q=702.19c")
    pg.wait_for_function("() => !document.getElementById('results').getAttribute('aria-busy')")
    assert cpage.card_files() == []
    pg.goto(cards_url + "search.html?q=trample")
    pg.wait_for_function("() => !document.getElementById('results').getAttribute('aria-busy')")
    pg.wait_for_load_state("networkidle")
    assert pg.locator("#card-result").inner_text() == ""
    assert [f.split(".")[0] for f in cpage.card_files()] == ["cards/t"]


@pytest.mark.parametrize("typed", [
    "NOTION THIEF",             # case
    "jotun grunt",              # accents
    "lim-dul's vault",
    "limdul vault",             # two words of the name typed as one
    "LIM-DU\u0302L\u2019S VAULT",   # a decomposed accent, a curly apostrophe
    "jace mind sculptor",       # partial, stop words left out
    "vedalken shack",           # a prefix
    "Shackles",                 # a card's own name before a word of another's
    "fire",                     # a face finds its card
    "ice",                      # ... from the face's letter file
    "insectile aberration",
    "notion theif",             # a misspelt word
    "jace",                     # ambiguous: the candidates
    "bonecrusher",
    "no such card anywhere",    # nothing
])
def test_lookup_finds_what_the_cli_finds(cpage, cards_url, markup_cards_dir, typed):
    from crsearch.api import Rules
    from crsearch.errors import NotFound

    try:
        want: object = Rules.open(markup_cards_dir).card(typed).name
    except NotFound as e:
        want = sorted(e.suggestions) or None
    if "vault" in typed.lower():
        assert want == "Lim-Dûl's Vault"
    pg = cpage.pg
    pg.goto(cards_url + "search.html")
    got = pg.evaluate("""typed => window.crsearchCardLookup(typed).then(f =>
        !f ? null : f.card ? f.card.name : f.candidates.slice().sort())""", typed)
    assert got == want


def test_explain_fills_a_cards_text_from_its_name(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "explain.html")
    pg.fill("#card-name", "notion thief")
    pg.press("#card-name", "Enter")
    pg.wait_for_function("() => document.querySelectorAll('#explain-terms li').length > 0")
    assert pg.input_value("#card-text").startswith("Flash\nIf an opponent would draw")
    assert "Notion Thief" in pg.locator("#card-name-note").inner_text()
    terms = pg.locator("#explain-terms").inner_text()
    assert "702.8" in terms and "614" in terms
    assert [f.split(".")[0] for f in cpage.card_files()] == ["cards/n"]
    shot(pg, "cards-explain-notion-thief")


def test_explain_takes_a_card_from_the_address_and_joins_faces(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "explain.html?card=" + quote("Fire"))
    pg.wait_for_function("() => document.getElementById('card-text').value !== ''")
    assert pg.input_value("#card-text") == ("Fire deals 2 damage divided as you choose among one or "
                                            "two targets.\n//\nTap target permanent.\nDraw a card.")
    pg.wait_for_function("() => document.querySelectorAll('#explain-terms li').length > 0")


def test_a_card_made_of_markup_shows_as_text(cpage, cards_url):
    pg = cpage.pg
    pg.goto(cards_url + "search.html?q=" + quote("img src x onerror alert"))
    pg.wait_for_function(CARD_NAME)
    name = MARKUP_CARD_NAME.replace("\u0007", "")
    assert pg.evaluate(CARD_NAME) == name
    panel = pg.locator("#card-result .card-panel")
    assert panel.locator("img, script, b, i").count() == 0
    assert panel.locator(".card-cost").inner_text() == "{1}<b>{U}</b>"
    assert "</script><script>alert(2)</script>" in panel.locator(".card-text").inner_text()
    # The explain link carries the name in its address, encoded.
    href = panel.locator(".card-foot a").get_attribute("href")
    assert href == cards_url + "explain.html?card=" + quote(name, safe="!*'()")
    pg.goto(href)
    pg.wait_for_function("() => document.getElementById('card-text').value !== ''")
    assert "alert(2)" in pg.input_value("#card-text")
    assert pg.locator("#explain-text img, #explain-text script").count() == 0
