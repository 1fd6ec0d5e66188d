"""Embeddings at import: the newest release's now, the others' on first use."""

from __future__ import annotations

import pytest

from crsearch.store.datadir import Store

QUESTION = "what happens when my widget is zapped twice by the lever?"


@pytest.fixture()
def two_releases(tmp_path, mini_bytes):
    from crsearch.ingest.pipeline import import_sources
    from crsearch.ingest.sources import Source

    older = mini_bytes.replace(b"March 3, 2031", b"March 3, 2030")
    data = tmp_path / "data"
    results = import_sources([Source("old.txt", older), Source("new.txt", mini_bytes)], Store(data))
    assert [r.error for r in results] == [None, None]
    return data


def test_only_the_newest_release_gets_its_embeddings_at_import(two_releases):
    from crsearch.search import semantic

    store = Store(two_releases)
    old, new = store.pick("2030-03-03"), store.pick()
    assert (new.index_dir / semantic.META).exists()
    assert not (old.index_dir / semantic.META).exists()
    assert (old.index_dir / "terms.json").exists()


def test_a_question_on_an_older_release_builds_its_embeddings_once(two_releases):
    from crsearch import Rules
    from crsearch.search import semantic
    from crsearch.search.schema import EMBEDDINGS_BUILT

    old = Store(two_releases).pick("2030-03-03")
    first = Rules.open(two_releases, release="2030-03-03").search(QUESTION)
    assert [n for n in first.notes if n.startswith(EMBEDDINGS_BUILT)]
    assert (old.index_dir / semantic.META).exists()
    again = Rules.open(two_releases, release="2030-03-03").search(QUESTION)
    assert not [n for n in again.notes if n.startswith(EMBEDDINGS_BUILT)]


def test_the_cli_says_on_stderr_that_it_built_the_embeddings(two_releases):
    from click.testing import CliRunner

    from crsearch.cli.main import cli

    args = ["--data-dir", str(two_releases), "search", "--release", "2030-03-03", QUESTION]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output + r.stderr
    assert "built the embeddings of the 2030-03-03 rules" in r.stderr
    assert "built the embeddings" not in r.stdout
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0 and "built the embeddings" not in r.stderr + r.stdout


def test_a_single_newer_release_gets_its_embeddings_while_staged(tmp_path, mini_bytes, monkeypatch):
    from crsearch.ingest import pipeline
    from crsearch.ingest.sources import Source
    from crsearch.search import semantic

    later = []
    monkeypatch.setattr(pipeline, "embedder", lambda store, stored: later.append(1) or (lambda: None))
    data = tmp_path / "data"
    assert pipeline.import_sources([Source("new.txt", mini_bytes)], Store(data))[0].error is None
    assert (Store(data).pick().index_dir / semantic.META).exists() and later == []
