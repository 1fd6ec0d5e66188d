"""The parser on a synthetic release (each edge case) and on the whole archive."""

import codecs

import pytest
from conftest import LATEST, archive_files

from crsearch.errors import NotACR
from crsearch.ingest.parse import parse_bytes, parse_date


def test_effective_date_and_front_matter(mini_release):
    r = mini_release
    assert r.effective_date == "2031-03-03"
    assert r.title == "Magic: The Gathering Comprehensive Rules"
    assert r.front_matter[0] == "Draft copy - do not distribute"  # stray text kept
    assert any(a.kind == "stray-preamble" for a in r.anomalies)
    assert r.introduction and r.introduction[0].startswith("This made-up document")


def test_table_of_contents_is_not_the_body(mini_release):
    r = mini_release
    assert r.contents[:3] == ["1. Test Concepts", "100. Basics", "101. Widgets"]
    assert r.contents[-2:] == ["Glossary", "Credits"]
    assert [s.id for s in r.sections] == ["1", "2"]
    assert [c.id for c in r.chapters] == ["100", "101", "200", "201"]
    assert r.get("101").title == "Widgets"


def test_rules_subrules_and_examples(mini_release):
    r = mini_release
    assert r.get("100.1").kind == "rule" and r.get("100.1a").kind == "subrule"
    assert r.get("100.2").examples == ["Ann starts with forty invented cards.",
                                       "Bob starts with sixty invented cards."]


def test_example_after_a_blank_line_belongs_to_its_rule(mini_release):
    assert mini_release.get("100.4").examples == ["Ann sets a widget aside before she plays."]


def test_indented_continuation_paragraph_stays_with_its_subrule(mini_release):
    text = mini_release.get("101.2c").text
    assert text.split("\n") == ["The third part is the spring.",
                                "An indented paragraph continues this subrule. See rule 999.9."]


def test_official_typos_parse_as_what_they_mean(mini_release):
    r = mini_release
    assert r.get("101.2b").kind == "subrule"            # "101.2b." like 119.1d.
    assert r.get("100.3").kind == "rule"                # "100.3" like 606.5
    kinds = {a.kind for a in r.anomalies}
    assert {"subrule-with-period", "rule-without-period"} <= kinds


def test_subrule_letters_skip_l_and_o(mini_release):
    ids = [x.id for x in mini_release.rules if x.id.startswith("101.2")]
    assert "101.2k" in ids and "101.2m" in ids
    assert ids.index("101.2m") == ids.index("101.2k") + 1


def test_keyword_rules_carry_their_title(mini_release):
    assert mini_release.get("201.1").title == "Zap"
    assert mini_release.get("201.10").title == "Zing"
    assert mini_release.get("100.1").title is None


def test_glossary_terms_aliases_obsolete_and_senses(mini_release):
    g = {e.term: e for e in mini_release.glossary}
    assert g["Gadget"].obsolete and g["Gadget"].heading == "Gadget (Obsolete)"
    assert g["Team, Teammate"].aliases == ["Team", "Teammate"]
    assert g["Lever"].senses == ["A part of a widget. See rule 101.2b.",
                                 "To use the lever of a widget. See rule 101.2."]
    assert not any(s.title.startswith("A part") for s in mini_release.sections)


def test_credits_and_nothing_unplaced(mini_release):
    assert mini_release.credits[0].startswith("Written for the crsearch test suite")
    assert mini_release.unplaced == []
    assert mini_release.complete


def _fragments(r):
    """Every piece of text the model holds, split into its lines."""
    out = set(r.front_matter + r.introduction + r.contents + r.credits)
    out |= {"Introduction", "Contents", "Glossary", "Credits"}
    out |= {f"{x.id}. {x.title}" for x in [*r.sections, *r.chapters]}
    for x in r.rules:
        out |= set(x.text.split("\n"))
        out |= {"Example: " + e for e in x.examples}
    for g in r.glossary:
        out.add(g.heading)
        out |= set(g.text.split("\n"))
        out |= {"Example: " + e for e in g.examples}
    return out


def _strip_number(line):
    import re

    m = re.match(r"^\d{3}\. ?\d+[a-z]*\.?\s*(?=\S)", line)
    return line[m.end():] if m else line


def assert_nothing_lost(data, release):
    from crsearch.ingest.decode import decode

    fragments = _fragments(release)
    lost = [line for line in (l.strip().replace("\u00a0", " ") for l in decode(data).lines)
            if line and line not in fragments and _strip_number(line) not in fragments]
    assert lost == []


def test_every_nonblank_line_lands_in_the_model(mini_bytes, mini_release):
    assert_nothing_lost(mini_bytes, mini_release)


@pytest.mark.slow
@pytest.mark.archive
@pytest.mark.parametrize("name", ["2003-03-15.txt", "2009-07-11.txt", "2013-02-01.txt",
                                  "2016-08-26.txt", "2022-11-18.txt", "2026-08-07.txt"])
def test_every_nonblank_line_of_real_releases_lands_in_the_model(name):
    data = (LATEST.parent / name).read_bytes()
    assert_nothing_lost(data, parse_bytes(data))


def test_truncated_release_is_kept_and_flagged():
    text = (LATEST.read_bytes().decode("utf-8-sig"))
    cut = text[: text.index("\nAttack Multiple Players") + 200]  # stop mid-glossary
    r = parse_bytes(cut.encode("utf-8"))
    assert not r.complete
    assert any(a.kind == "truncated" and "no Credits" in a.message for a in r.anomalies)
    assert len(r.glossary) > 10 and r.unplaced == []


@pytest.mark.parametrize("codec", ["utf-16", "cp1252", "utf-8-sig"])
def test_same_release_in_other_encodings_parses_identically(mini_bytes, mini_release, codec):
    text = mini_bytes.decode("utf-8").replace("\n", "\r")
    again = parse_bytes(text.encode(codec))
    assert [x.to_dict() for x in again.rules] == [x.to_dict() for x in parse_bytes(mini_bytes).rules]


@pytest.mark.parametrize("data", [
    b"Just some notes about a card game.\nNothing else here.",
    b"<html><body>Magic: The Gathering Comprehensive Rules</body></html>",
    b"Magic: The Gathering Comprehensive Rules\nThese rules are effective as of May 1, 2030.\n",
])
def test_text_that_is_not_a_cr_is_rejected(data):
    with pytest.raises(NotACR):
        parse_bytes(data)


def test_parse_date_forms():
    assert parse_date("These rules are effective as of August 7, 2026.") == "2026-08-07"
    assert parse_date("These rules are current as of March 15, 2003.") == "2003-03-15"
    assert parse_date("no date here") is None


# -- the whole archive ------------------------------------------------------

def test_latest_release_counts_exactly(latest_release):
    assert latest_release.counts() == {"sections": 9, "chapters": 147, "rules": 1173,
                                       "subrules": 1989, "examples": 277, "glossary": 739}
    assert latest_release.get("119.1d").kind == "subrule"
    assert latest_release.get("606.5").kind == "rule"
    assert latest_release.get("704.5aa").kind == "subrule"
    assert "\n" in latest_release.get("205.4c").text
    assert "\n" in latest_release.get("509.1b").text


@pytest.fixture(scope="module")
def parsed_archive():
    # archive_files() fails when ../shared/cr/archive is missing or short, so
    # none of the archive-wide tests below can pass on an empty loop.
    return {p.name: parse_bytes(p.read_bytes(), p.name) for p in archive_files()}


@pytest.mark.slow
@pytest.mark.archive
def test_archive_has_all_114_releases(parsed_archive):
    assert len(parsed_archive) == 114


@pytest.mark.slow
@pytest.mark.archive
def test_every_archived_release_parses_cleanly(parsed_archive):
    problems = []
    for name, r in parsed_archive.items():
        c = r.counts()
        text = "\n".join(x.text for x in r.rules)
        if r.unplaced:
            problems.append((name, "unplaced", r.unplaced[:3]))
        if "\ufffd" in text or "â€" in text:
            problems.append((name, "bad decoding"))
        if not (5 <= c["sections"] <= 9 and 60 <= c["chapters"] <= 160 and c["rules"] > 250
                and c["subrules"] > 250 and c["examples"] > 50):
            problems.append((name, "odd counts", c))
        if r.complete and c["glossary"] < 250:
            problems.append((name, "short glossary", c["glossary"]))
    assert problems == []


@pytest.mark.slow
@pytest.mark.archive
def test_only_the_truncated_archive_release_is_incomplete(parsed_archive):
    incomplete = [n for n, r in parsed_archive.items() if not r.complete]
    assert incomplete == ["2013-02-01.txt"]
    r = parsed_archive["2013-02-01.txt"]
    assert r.glossary[-1].term == "Attack Multiple Players"


@pytest.mark.slow
@pytest.mark.archive
def test_effective_dates_are_unique_across_the_archive(parsed_archive):
    dates = [r.effective_date for r in parsed_archive.values()]
    assert len(set(dates)) == 114


@pytest.mark.slow
@pytest.mark.archive
def test_the_2026_typos_are_reported(parsed_archive):
    r = parsed_archive["2026-08-07.txt"]
    found = {(a.kind, a.text.split()[0]) for a in r.anomalies}
    assert ("subrule-with-period", "119.1d.") in found
    assert ("rule-without-period", "606.5") in found


@pytest.mark.slow
@pytest.mark.archive
def test_every_archived_encoding_is_seen(parsed_archive):
    encodings = {r.source.encoding for r in parsed_archive.values()}
    assert {"utf-8", "utf-8-sig", "cp1252", "utf-16", "mac_roman"} <= encodings


@pytest.mark.slow
@pytest.mark.archive
def test_utf16_big_endian_release_decodes(parsed_archive, mini_bytes):
    # 2022-11-18 (and 2013-04-29) are archived as UTF-16 with a big-endian BOM.
    data = (LATEST.parent / "2022-11-18.txt").read_bytes()
    assert data.startswith(codecs.BOM_UTF16_BE)
    r = parsed_archive["2022-11-18.txt"]
    assert (r.source.encoding, r.source.bom) == ("utf-16", True)
    assert r.get("702.19").title == "Trample" and r.unplaced == []
    # The same text as UTF-16 big-endian, with and without a BOM, parses like the UTF-8.
    text = mini_bytes.decode("utf-8")
    utf8 = parse_bytes(mini_bytes)
    for encoded in (codecs.BOM_UTF16_BE + text.encode("utf-16-be"), text.encode("utf-16-be")):
        again = parse_bytes(encoded)
        assert again.source.encoding in ("utf-16", "utf-16-be")
        assert [x.to_dict() for x in again.rules] == [x.to_dict() for x in utf8.rules]
        assert [g.to_dict() for g in again.glossary] == [g.to_dict() for g in utf8.glossary]


GLUED = ["Ability", "Ante", "Archenemy", "Draw", "Exile", "Face Down", "Face Up",
         "Graveyard", "Hand", "Library", "Loyalty"]


@pytest.mark.slow
@pytest.mark.archive
def test_glossary_terms_glued_to_their_first_sense_are_split(parsed_archive):
    # 2021-06-09.txt prints "Ability1. Text on an object...", "Face Down1. ..."
    r = parsed_archive["2021-06-09.txt"]
    assert r.effective_date == "2021-06-18"
    assert len(r.glossary) == 591 and r.unplaced == []
    g = {e.term: e for e in r.glossary}
    for term in GLUED:
        assert g[term].heading == term
        assert g[term].text.startswith("1. ") and len(g[term].senses) >= 2, term
    assert g["Face Down"].senses[1].startswith("A status a permanent may have.")
    assert "Face Up" in g and "Face Down" not in g["Fabricate"].text
    assert "Face Up" not in g["Fabricate"].text and "1." not in g["Fabricate"].text
    assert not any(t.endswith("1.") or "1. " in t for t in g)
    glued = [a for a in r.anomalies if a.kind == "glued-glossary-term"]
    assert [a.text.split("1. ")[0] for a in glued] == GLUED
    assert all(a.line > 0 and "1." in a.message for a in glued)


@pytest.mark.slow
@pytest.mark.archive
def test_no_other_release_has_a_glued_glossary_term(parsed_archive):
    glued = {n for n, r in parsed_archive.items()
             if any(a.kind == "glued-glossary-term" for a in r.anomalies)}
    assert glued == {"2021-06-09.txt"}


def test_a_definition_mentioning_a_numbered_sense_is_not_split(mini_bytes):
    text = mini_bytes.decode("utf-8")
    # "Lever1." with no sense "2." after it is not read as a glued term.
    lone = text.replace("\nLever\n1. A part of a widget. See rule 101.2b.\n2. To use the lever of a widget. See rule 101.2.\n",
                        "\nLever1. A part of a widget. See rule 101.2b.\n", 1)
    assert lone != text
    r = parse_bytes(lone.encode("utf-8"))
    assert not any(a.kind == "glued-glossary-term" for a in r.anomalies)
    assert "Lever" not in {e.term for e in r.glossary}
    glued = text.replace("\nLever\n1. ", "\nLever1. ", 1)
    r = parse_bytes(glued.encode("utf-8"))
    lever = next(e for e in r.glossary if e.term == "Lever")
    assert lever.senses[0] == "A part of a widget. See rule 101.2b."
    assert [a.kind for a in r.anomalies].count("glued-glossary-term") == 1


def test_reference_typo_with_a_comma_still_resolves():
    from crsearch.rules.refs import references_in

    refs = references_in("See rule 419,8, “Sources of Damage.”", ["419", "419.8"], {"419", "419.8"})
    assert [(r.text, r.targets, r.missing) for r in refs] == [("rule 419,8", ["419.8"], [])]
