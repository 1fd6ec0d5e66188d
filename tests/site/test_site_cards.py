"""``site build --cards``: the card data as files by letter, escaped, and a default
site that does not change.

The site is built once from 2026-08-07 and the fixture cards (with a card made
of markup, ``conftest.MARKUP_CARD``); the browser side is in
``test_browser_cards.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from bs4 import BeautifulSoup
from click.testing import CliRunner

from crsearch.cli.main import cli

FILE = re.compile(r"window\.crsearchCards\(\"(?P<letter>[^\"]+)\",(?P<body>.*)\);\n\Z", re.S)


def letter_files(site: Path) -> dict[str, dict]:
    """Each letter file of a built site, parsed, by letter."""
    out = {}
    for p in sorted((site / "cards").glob("*.js")):
        m = FILE.match(p.read_text(encoding="utf-8"))
        assert m, p.name
        out[m.group("letter")] = json.loads(m.group("body"))
    return out


def index_of(site: Path) -> dict:
    """The map of letter files that ``cards.js`` carries."""
    m = re.search(r"var INDEX = (\{.*?\});\n", (site / "cards.js").read_text(encoding="utf-8"))
    assert m, "cards.js has no INDEX"
    return json.loads(m.group(1))


def test_cards_are_split_by_first_letter_into_hashed_files(cards_site):
    site = cards_site.result.out
    index = index_of(site)
    files = sorted(p.relative_to(site).as_posix() for p in (site / "cards").iterdir())
    assert sorted(index["files"].values()) == files
    for letter, path in index["files"].items():
        data = (site / path).read_bytes()
        assert path == f"cards/{letter}.{hashlib.sha256(data).hexdigest()[:10]}.js"
    parsed = letter_files(site)
    # Every card sits in the file of its folded name's first letter, once.
    homes = {c["name"]: letter for letter, d in parsed.items() for c in d["cards"]}
    assert homes["Notion Thief"] == "n" and homes["Jötun Grunt"] == "j"
    assert homes["Lim-Dûl's Vault"] == "l" and homes["Fire // Ice"] == "f"
    assert sum(len(d["cards"]) for d in parsed.values()) == index["count"] == 15
    assert index["date"] == "2026-11-20" and index["release"] == "2026-08-07"
    result = cards_site.to_dict()["cards"]
    assert result["count"] == 15 and result["date"] == "2026-11-20"
    assert result["bytes"] == sum(p.stat().st_size for p in (site / "cards").iterdir()) + \
        (site / "cards.js").stat().st_size


def test_a_card_carries_its_faces_and_the_rules_its_text_uses(cards_site, markup_cards_dir):
    from crsearch.api import Rules

    site = cards_site.result.out
    n = letter_files(site)["n"]
    (thief,) = [c for c in n["cards"] if c["name"] == "Notion Thief"]
    (face,) = thief["faces"]
    assert face["mana_cost"] == "{2}{U}{B}" and face["type_line"] == "Creature \u2014 Human Rogue"
    assert face["text"].startswith("Flash\n") and (face["power"], face["toughness"]) == ("3", "1")
    ids = [r if isinstance(r, str) else r[0] for r in thief["rules"]]
    assert {"702.8", "121"} <= set(ids) and any(i.startswith("614") for i in ids)
    # The same terms as `crsearch card`, in its reading order, each rule once.
    cli_ids = list(dict.fromkeys(t["id"] for t in Rules.open(markup_cards_dir).card("Notion Thief").terms))
    assert ids == cli_ids
    assert "rulings" not in thief
    # Every rule id links to its place on the site, with its term.
    for i in ids:
        url = n["rules"][i][0]
        page, _, anchor = url.partition("#")
        assert (site / page).is_file(), url
        if anchor:
            soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
            assert soup.find(id=anchor) is not None, url
    assert n["rules"]["702.8"] == ["702.html#702.8", "Flash", "keyword ability"]


def test_every_name_and_face_is_listed_under_each_of_its_words_letters(cards_site):
    parsed = letter_files(cards_site.result.out)
    # "Fire // Ice": its own name under f; the face "Ice" under i, pointing at f.
    assert ["fire ice", "f", "Fire // Ice"] in parsed["f"]["names"]
    assert ["ice", "f", "Fire // Ice", "f"] in parsed["i"]["names"]
    # "Vedalken Shackles" under v and s, so "shackles" finds it from s.
    assert ["vedalken shackles", "v", "Vedalken Shackles"] in parsed["s"]["names"]
    assert ["vedalken shackles", "v", "Vedalken Shackles"] in parsed["v"]["names"]
    assert ["jace the mind sculptor", "j", "Jace, the Mind Sculptor"] in parsed["m"]["names"]
    index = index_of(cards_site.result.out)
    assert "the" in index["stop"] and index["fold"]["æ"] == "ae" and index["face_join"] == "\n//\n"


def test_markup_and_control_characters_in_cards_are_escaped(cards_site):
    site = cards_site.result.out
    for p in [site / "cards.js", *(site / "cards").iterdir()]:
        data = p.read_text(encoding="utf-8")
        if p.name != "cards.js":
            assert "<" not in data, p.name  # "<" is \u003c: no "</script>" in any file
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", data), p.name
    parsed = letter_files(site)
    (card,) = [c for c in parsed["i"]["cards"] if "onerror" in c["name"]]
    assert card["name"] == '<img src=x onerror="alert(1)"> & Co'
    assert card["faces"][0]["mana_cost"] == "{1}<b>{U}</b>"
    assert "</script><script>alert(2)</script>" in card["faces"][0]["text"]
    assert "\x1b" not in card["faces"][0]["text"] and "\x00" not in card["faces"][0]["text"]


def test_card_lookup_is_on_the_search_and_explain_pages_only(cards_site):
    site = cards_site.result.out

    def scripts(name: str) -> list[str]:
        soup = BeautifulSoup((site / name).read_text(encoding="utf-8"), "html.parser")
        return [s.get("src") for s in soup.find_all("script") if s.get("src")]

    assert "cards.js" in scripts("search.html") and "cards.js" in scripts("explain.html")
    assert "cards.js" not in scripts("index.html") and "cards.js" not in scripts("702.html")
    explain = BeautifulSoup((site / "explain.html").read_text(encoding="utf-8"), "html.parser")
    assert explain.find("input", id="card-name") is not None
    # Loaded on demand: the service worker precaches cards.js, never the letter files.
    sw = (site / "sw.js").read_text(encoding="utf-8")
    assert '"cards.js"' in sw and '"cards/' not in sw


def test_the_default_site_is_unchanged_by_card_lookup(cards_site, latest_site):
    """Without --cards nothing is written or linked; with it, only the search and
    explain pages, the worker's list and the card files differ."""
    site = cards_site.result.out
    plain = {p.relative_to(latest_site).as_posix(): p for p in latest_site.rglob("*") if p.is_file()}
    with_cards = {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}
    assert not any(n == "cards.js" or n.startswith("cards/") for n in plain)
    assert not [n for n, p in plain.items() if n.endswith(".html") and b"cards.js" in p.read_bytes()]
    # The offline bundles hold the pages, so the bundles of the two changed
    # pages are new files (content-hashed names); no other bundle changes.
    added = {n for n in set(with_cards) - set(plain) if not n.startswith("offline/")}
    assert added == {"cards.js", *(n for n in with_cards if n.startswith("cards/"))}
    bundles = {n for n in set(with_cards) ^ set(plain) if n.startswith("offline/")}
    assert len(bundles) <= 4, bundles
    changed = {n for n in plain if n in with_cards
               and plain[n].read_bytes() != with_cards[n].read_bytes()}
    assert changed <= {"search.html", "explain.html", "sw.js", ".crsearch-site-files.json"}, changed
    assert {"search.html", "explain.html", "sw.js"} <= changed


def test_without_card_data_cards_says_so_and_builds_nothing(mini_data_dir, tmp_path):
    out = tmp_path / "site"
    r = CliRunner().invoke(cli, ["--data-dir", str(mini_data_dir), "site", "build", str(out), "--cards"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "no card data" in lines[0] and "cards update" in lines[0]
    assert not out.exists()


def test_a_site_without_cards_writes_no_card_files_even_with_card_data(mini_data_dir, tmp_path):
    from conftest import ATOMIC

    from crsearch.api import Rules
    from crsearch.cards.build import import_file
    from crsearch.store.datadir import Store

    import_file(Store(mini_data_dir), str(ATOMIC))
    built = Rules.open(mini_data_dir).build_site(tmp_path / "site", search=False)
    assert built.to_dict()["cards"] is None
    assert not (tmp_path / "site" / "cards.js").exists() and not (tmp_path / "site" / "cards").exists()
    with_cards = Rules.open(mini_data_dir).build_site(tmp_path / "site2", search=False, cards=True)
    assert with_cards.to_dict()["cards"]["count"] == 14


def test_with_every_release_only_the_root_release_has_card_lookup(cards_only_dir, tmp_path):
    from conftest import make_release

    from crsearch.cards.store import CardStore
    from crsearch.site import build as site
    from crsearch.store.datadir import Store

    rules = {"100.1": "Flash lets a player cast a spell any time they could cast an instant.",
             "101.1": "A player draws a card."}
    old, new = make_release("2026-01-01", rules), make_release("2026-02-01", rules)
    out = tmp_path / "site"
    result = site.build_all([old, new], out, search=False, cards=CardStore(Store(cards_only_dir)).require())
    assert result.cards is not None and result.cards.count == 14
    assert b'src="cards.js"' in (out / "search.html").read_bytes()
    assert b"cards.js" not in (out / "2026-01-01" / "search.html").read_bytes()
    assert b"card-name" not in (out / "2026-01-01" / "explain.html").read_bytes()
    assert not (out / "2026-01-01" / "cards.js").exists()
