"""Cross-references on the synthetic release: every form, cited-by, dangling ones."""

from crsearch.rules.refs import cited_ids, unresolved


def refs_of(release, id):
    return [(r.text, r.targets) for r in release.get(id).references]


def test_chapter_reference_with_title(mini_release):
    assert refs_of(mini_release, "100.1") == [("rule 101", ["101"])]


def test_range_expands_to_exactly_the_members(mini_release):
    assert refs_of(mini_release, "100.1b") == [("rules 101.2a–c", ["101.2a", "101.2b", "101.2c"])]


def test_range_across_the_skipped_letter_and_rule_range(mini_release):
    assert cited_ids(mini_release.get("101.2p")) == ["101.2k", "101.2m", "100.1", "100.2"]


def test_list_of_rules(mini_release):
    assert cited_ids(mini_release.get("101.2")) == ["100.1a", "100.1b"]


def test_section_reference(mini_release):
    assert cited_ids(mini_release.get("101.1")) == ["2"]


def test_glossary_definitions_cite_rules(mini_release):
    g = {e.term: e for e in mini_release.glossary}
    assert cited_ids(g["Lever"]) == ["101.2b", "101.2"]
    assert cited_ids(g["Zap"]) == ["201.1"]


def test_cited_by_lists_rules_and_glossary_entries(mini_release):
    assert mini_release.get("101.2b").cited_by == ["100.1b", "glossary:Lever"]
    assert mini_release.get("101").cited_by == ["100.1", "glossary:Widget"]
    assert mini_release.get("2").cited_by == ["101.1"]
    assert "201.1a" in mini_release.get("201.2a").cited_by or \
        "201.2a" in mini_release.get("201.1a").cited_by


def test_references_to_nothing_are_reported_not_dropped(mini_release):
    found = {(u["from"], u["text"]) for u in unresolved(mini_release)}
    assert found == {("101.2c", "rule 999.9"), ("glossary:Zonk", "rule 300.1")}
    ref = mini_release.get("101.2c").references[0]
    assert ref.targets == [] and ref.missing == ["999.9"]


def test_every_reference_in_the_latest_release_resolves(latest_release):
    assert unresolved(latest_release) == []
    total = sum(len(x.references) for x in [*latest_release.rules, *latest_release.glossary])
    assert total > 1800
    assert "702.19" in latest_release.get("glossary:Trample").references[0].targets
    assert latest_release.get("510").cited_by  # "rule 510, “Combat Damage Step.”"
