"""One engine searched from many threads at once answers as it does alone."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from crsearch.errors import CRSearchError

QUERIES = [
    # Rule numbers, ranges, and numbers that name no rule.
    "702.19c", "CR 702.19", "510.1c-d", "rule 104.3a", "702.99z", "7020",
    # Keywords, glossary terms, keywords together.
    "trample", "deathtouch", "lethal damage", "state-based actions", "hexproof from",
    "ward counter spell", "deathtouch trample", "first strike double strike", "mulligan",
    # Typos.
    "deathtuch", "tramplle", "hexprof", "flyng blockers",
    # Phrases and filters (Whoosh answers these).
    '"lethal damage" deathtouch', "kind:glossary lethal damage", "section:5 first strike",
    "chapter:510 first strike", '"maximum hand size" vanguard',
    # Questions: the short ones lexical, the long ones with meaning and learned weights.
    "can a tapped creature block", "when does a player lose the game",
    "my opponent bounced my creature, do the +1/+1 counters stay?",
    "What happens with Humility and a creature that gets +2/+2 from an Aura?",
    "Both of our creatures die in combat at the same time. Does my Gravecaller's "
    "'when another creature dies' ability still trigger?",
    "if I deck out, do I lose right away or at the end of the turn?",
    "can I swing with a creature that came into play this turn?",
    "Ghave gets bounced with Unsummon. Do the +1/+1 counters make it die as a 0/0 "
    "instead of going back to my hand?",
    "I cast a creature spell and my opponent counters it, then I sacrifice a land in "
    "response, do I get my mana back?",
    "who chooses first when players make choices at the same time",
    # Pasted passages, some with their rule numbers lost.
    "If at least one attacking or blocking creature has first strike or double strike "
    "as the combat damage step begins, the only creatures that assign",
    "Double strike is a static ability that modifies the rules for the combat damage step. "
    "(See rule , \u201cCombat Damage Step.\u201d)",
    "A card of this kind has two faces and the player may turn it over. "
    "See 712, \u201cDouble-Faced Cards.\u201d",
    "See rule , \u201cCombat Damage Step.\u201d",
    # Jargon and other wordings.
    "ETB tapped", "unmorph a creature face down rules", "blockable", "commander tax",
]
THREADS = 8


def answer(engine, query: str) -> Any:
    """Everything a search says: results with their --why, notes, errors."""
    try:
        result = engine.search(query, 10, features=True)
    except CRSearchError as e:
        return (type(e).__name__, str(e))
    return (result.to_dict(why=True), [h.highlights for h in result.results], result.notes,
            result.backend, result.features)


@pytest.mark.slow
@pytest.mark.parametrize("fast", [True, False], ids=["fast-files", "whoosh-only"])
def test_eight_threads_get_the_answers_of_one(indexed_data_dir, fast):
    from crsearch.search.engine import Engine
    from crsearch.store.datadir import Store

    index_dir = Store(indexed_data_dir).pick().index_dir
    alone = Engine(index_dir, fast=fast)
    want = {q: answer(alone, q) for q in QUERIES}
    assert len({w[0]["results"][0]["id"] for w in want.values() if isinstance(w[0], dict)
                and w[0]["results"]}) > 30
    assert {w[3] for w in want.values() if len(w) == 5} == ({"fast", "whoosh"} if fast else {"whoosh"})

    # A fresh engine: its first loads (Whoosh, the embeddings, the tables) race too.
    shared = Engine(index_dir, fast=fast)
    start = threading.Barrier(THREADS)
    got: list[dict[str, Any]] = [{} for _ in range(THREADS)]
    failed: list[BaseException] = []

    def run(n: int) -> None:
        try:
            order = QUERIES[n * 5:] + QUERIES[:n * 5]  # each thread starts elsewhere
            start.wait()
            for q in order:
                got[n][q] = answer(shared, q)
        except BaseException as e:  # noqa: BLE001 - reported below
            failed.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shared.close()
    alone.close()
    assert not failed, failed
    for n in range(THREADS):
        differ = [q for q in QUERIES if got[n][q] != want[q]]
        assert not differ, (n, differ)
