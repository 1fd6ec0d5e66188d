"""The rules topics a judge recognises in a player's question.

A hand-kept "hot topics" index: the situations players ask about again and
again, in the words players use, each mapped to the rule ids (2026-08-07
numbering) that answer it, best answer first.  A topic matches a question when
all the words of any one of its cues occur in the question, in any order,
compared after stemming (``matching``); a search can then rank the topic's
rules first.

Cues are 1-4 plain lowercase words.  A one-word cue is used only for a word
that names the topic by itself ("humility", "mulligan"); common words always
come in pairs or threes ("counters bounce", "dies same time").  Word forms the
Porter stemmer keeps apart ("dies"/"die", "sacrifice"/"sacrificed") get a
cue each.  Standard library only (the caller passes its stemmer): this module is
imported on the query path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crsearch.text import STOP_WORDS, words


@dataclass(frozen=True)
class Topic:
    """One question topic: the words that reveal it and the rules that answer it."""

    #: Each cue is 1-4 lowercase words; the topic matches a question when all
    #: the words of any cue occur in it (any order, compared after stemming).
    cues: tuple[str, ...]
    #: Rule ids (2026-08-07 numbering), best answer first.
    rules: tuple[str, ...]


def _t(cues: str, rules: str) -> Topic:
    """A topic from ';'-separated cues and space-separated rule ids."""
    return Topic(tuple(c.strip() for c in cues.split(";") if c.strip()), tuple(rules.split()))


TOPICS: tuple[Topic, ...] = (
    # --- 1. Game concepts ------------------------------------------------
    _t("card contradicts rules; card text overrides; card text contradicts;"
       " card overrides rules; golden rule",
       "101.1"),
    _t("can't beats can; can't trumps; cant trumps; cant beats can", "101.2"),
    _t("players choose same time; choose same time; choices same time; simultaneous choices apnap",
       "101.4 101.4a"),
    _t("who goes first; who plays first; who starts game; starting player; choose play draw;"
       " starting player choose",
       "103.1"),
    _t("first player skips draw; skip first draw; starting player draw; first turn draw;"
       " skip draw first turn",
       "103.8a 103.8c"),
    _t("mulligan; london mulligan; mulligan bottom", "103.5 103.5c"),
    _t("opening hand leyline; begin game battlefield; start game battlefield",
       "103.6a 103.6"),
    _t("starting life total; commander life 40", "103.4 103.4c"),
    _t("concede any time; concede game; concedes", "104.3a"),
    _t("players lose same time; both players lose; game tie; both lose simultaneously;"
       " win lose same time;"
       " win same time",
       "104.4a 104.3f"),
    _t("infinite loop draw; mandatory loop; loop mandatory actions", "104.4b 732.4"),
    _t("poison counters ten; 10 poison; poison counter; ten poison; poison counters lose",
       "704.5c 104.3d"),
    _t("zero life lose; negative life; life below 0; life below zero; 0 life lose;"
       " life total zero",
       "704.5a 104.3b"),
    _t("colorless color; multicolored color choose", "105.2c 105.4"),
    _t("mana pool empties; mana pool; unused mana; leftover mana; mana carry over; mana burn;"
       " floating mana; mana empties step",
       "500.5 106.4 703.4q"),
    _t("mana restriction spend; mana only spend", "106.6"),
    _t("could produce mana; mana type could produce", "106.7"),
    _t("hybrid mana; hybrid mana pay", "107.4e 118.13a"),
    _t("phyrexian mana; pay life phyrexian", "107.4f 118.13a"),
    _t("x spell value; value x; x cost choose; choose x", "107.3a 107.3"),
    _t("x zero outside stack; x mana value hand", "107.3g 202.3e"),
    _t("fractional damage; half rounded; round up; round down", "107.1a"),
    _t("negative number power; negative power damage", "107.1b"),
    _t("who owns card; card owner who; owner vs controller; owner controller difference",
       "108.3 110.2"),
    _t("who controls permanent; who controls spell", "109.4 110.2"),
    _t("you refers controller; you means controller", "109.5"),
    _t("token copy owner; tokens owner; who owns token", "111.2"),
    _t("token leaves battlefield; token cease exist; token ceases; token disappears;"
       " token return hand; token come back; token graveyard; token hand; token exile return;"
       " token bounce; token blink; token flicker",
       "111.7 111.8 704.5d"),
    _t("treasure token; food token; clue token; blood token; map token",
       "111.10 111.10a 111.10b 111.10f"),
    _t("spell copy card; copy spell owner", "112.1a 707.10"),
    _t("ability independent source; ability still resolves; kill respond ability;"
       " destroy respond ability; kill source; source dies; source die;"
       " source leaves battlefield; source gone ability; destroy source ability;"
       " source removed ability resolves;"
       " trigger source leaves;"
       " ability stack creature destroyed",
       "113.7a"),
    _t("ability counterspell; counter activated ability; counter ability spell;"
       " abilities not spells; counter triggered ability",
       "113.9"),
    _t("gains loses ability; lose all abilities; remove abilities added", "113.10 613.1f"),
    _t("emblem; emblem removed; emblem destroyed", "114.1 114.4 114.5"),
    _t("same target twice; target twice; choose same target", "115.3"),
    _t("target itself; spell targets itself", "115.5"),
    _t("change target; retarget; choose new targets; redirect spell", "115.7 115.7d"),
    _t("not targeted; hexproof sacrifice; edict; hexproof destroy all; shroud destroy all;"
       " hexproof sweeper; doesn't target hexproof; doesn't target protection;"
       " without targeting; untargeted effect; affect without targeting; hexproof wrath;"
       " each opponent target; each player target;"
       " hexproof board wipe; shroud wrath", "115.10 115.1"),
    _t("play land special action; land special action; respond land",
       "116.2a 305.1"),
    _t("morph turn face up; unmorph; unmorph respond; face up special action",
       "116.2b 702.37e"),
    _t("special action stack; special action; special actions priority", "116.1 116.3"),
    _t("priority pass; priority after resolves; receives priority; priority after spell;"
       " who gets priority; hold priority",
       "117.3 117.3b 117.3c 117.3d"),
    _t("resolve top stack; lifo; last first out; stack resolve order", "117.4 405.5"),
    _t("respond instant speed; instant any time", "117.1a 304.1"),
    _t("respond trigger; respond triggered ability", "117.1a 603.3"),
    _t("cost reduction; reduce colored; reduction colored; cheaper spell; costs less;"
       " reduce cost; cost increase; tax cost",
       "601.2f 118.7"),
    _t("additional cost; extra cost pay", "118.8 118.8d"),
    _t("alternative cost; without paying; without paying mana cost; free cast",
       "118.9 118.9a 118.9d"),
    _t("two alternative costs; flashback evoke; alternative costs combine;"
       " evoke flashback alternative",
       "118.9a"),
    _t("cost zero; no mana cost; unpayable cost", "118.6 118.5"),
    _t("pay life more; pay life don't; pay life dont; can't pay life; cant pay life;"
       " pay life zero; life payment",
       "119.4 119.4b"),
    _t("same sacrifice two costs; one sacrifice two; payment one spell", "118.10"),
    _t("unless pays; unless player pays", "118.12a"),
    _t("set life total; life total becomes", "119.5"),
    _t("can't gain life; cant gain life; can't lose life; cant lose life", "119.7 119.8"),
    _t("lifegain trigger once; lifelink trigger once; gain life trigger each", "119.9 119.10"),
    _t("damage causes life loss; damage life loss; damage loses life; infect damage;"
       " wither damage",
       "120.3"),
    _t("lifelink; lifelink damage; lifelink gain", "702.15b 120.3f"),
    _t("damage destroy creature; damage doesn't destroy; damage wears off",
       "120.5 120.6 514.2"),
    _t("zero damage trigger; 0 damage dealt; deal 0 damage", "120.8 614.7a"),
    _t("excess damage", "120.4a 120.10"),
    _t("draw empty library; empty deck; no cards library; deck out; draw no cards; library empty",
       "704.5b 121.4 104.3c"),
    _t("draw multiple cards; draws one each; draw cards replaced",
       "121.2 121.6"),
    _t("put hand not draw; not drawing card", "121.5"),
    _t("counters bounce; counters return hand; counters come back; counters reset;"
       " keep counters; counters exile; lose counters; counters blink; counters flicker;"
       " counters leave battlefield;"
       " counters zone change; counters stay; counters graveyard", "122.2 400.7"),
    _t("plus minus counters; plus minus; positive negative counters; counters cancel;"
       " counters annihilate; counters same creature;"
       " both counters",
       "704.5q 122.3"),
    _t("shield counter", "122.1c"),
    _t("stun counter", "122.1d"),
    _t("keyword counter; lifelink counter; deathtouch counter; trample counter;"
       " hexproof counter; menace counter; reach counter; vigilance counter; flying counter",
       "122.1b"),
    _t("move counters", "122.5"),
    _t("counters put enters; enters counters trigger put", "122.6 122.6a"),
    _t("can't countered; cant countered; uncounterable", "701.6a 101.2"),
    _t("without paying x; free x spell; cast free x", "107.3b"),
    _t("divide damage; split damage; distribute damage", "601.2d 115.7f"),
    _t("ability works graveyard; ability functions zone; abilities work hand",
       "113.6 113.6b"),
    _t("activated triggered difference; activated vs triggered; kinds abilities",
       "113.3 113.3b 113.3c"),
    _t("can't pay cost; cant pay cost; pay part cost; pay partial", "118.3 119.4"),
    _t("state based actions when; sba checked; when sba; priority state based", "117.5 704.3"),
    _t("tapped status; enters untapped; permanent status; flipped status", "110.5 110.5b"),
    _t("token name; token type name", "111.4"),
    _t("put onto battlefield control; enters under control; whose control enters", "110.2a 110.2"),
    # --- 2. Parts of a card ----------------------------------------------
    _t("same name; share name", "201.2 201.2a"),
    _t("name card choose; naming card", "201.4"),
    _t("refers own name; card name refers itself", "201.5"),
    _t("mana value; converted mana cost; cmc; mv", "202.3"),
    _t("mana value x; cmc x; x mana value stack", "202.3e 107.3"),
    _t("mana value split card; cmc split card", "202.3d 709.4b"),
    _t("mana value double faced; mana value back face; cmc transformed", "202.3b 712.8e"),
    _t("hybrid mana value; hybrid cmc", "202.3f"),
    _t("color mana symbols; what color card; color indicator", "202.2 204.2"),
    _t("additional cost mana value; kicker mana value", "202.4 118.8d"),
    _t("type changing; becomes artifact creature; loses other types", "205.1a 205.1b"),
    _t("creature type choose; changeling types", "205.3m 702.73a"),
    _t("legendary supertype; basic land supertype; snow permanent", "205.4d 205.4c 205.4g"),
    _t("reminder text; flavor text; ability word", "207.2 207.2a 207.2c"),
    _t("power toughness star; characteristic defining power", "208.2 604.3"),
    _t("base power toughness; base power", "208.4 613.4b"),
    _t("noncreature power toughness; vehicle power not creature", "208.3 301.7a"),
    _t("creature sorcery speed; cast creature timing; cast creature main phase", "302.1 307.1"),
    # --- 3. Card types ----------------------------------------------------
    _t("equipment controller different; equip opponent creature; equipment stays control;"
       " control equipped creature; steal equipped",
       "301.5d 702.6a"),
    _t("equipment creature unattached; equipment becomes creature", "301.5c 704.5n"),
    _t("vehicle crew; crew turn; crew summoning sick", "702.122a 301.7 302.6"),
    _t("summoning sickness; came turn tap; entered turn tap; sick creature;"
       " came under control turn; attack turn came; tap ability summoning; new creature tap;"
       " tap mana turn came; tap creature mana turn",
       "302.6 702.10b"),
    _t("summoning sickness control change; gain control attack; steal attack haste",
       "302.6 702.10b"),
    _t("aura controller", "303.4e"),
    _t("aura illegal; aura falls; aura goes graveyard; enchanted creature bounced;"
       " aura falls off; aura graveyard protection; enchant illegal;"
       " aura bounce; enchanted creature leaves; enchanted creature dies; aura creature dies",
       "704.5m 303.4c"),
    _t("aura put onto battlefield; aura enters without cast; aura returned battlefield",
       "303.4f 303.4g"),
    _t("role token; role attached; second role", "303.7a 704.5z"),
    _t("land play count; play two lands; extra land drop; additional land", "305.2 305.2a"),
    _t("play land opponent turn; land instant speed; play land stack", "305.3 305.1"),
    _t("put land not play; put onto battlefield land", "305.4"),
    _t("basic land type; becomes island; land loses abilities type", "305.6 305.7"),
    _t("modal double faced land; mdfc land; land back face", "712.12 305.9"),
    _t("planeswalker uniqueness; two planeswalkers same name", "306.4 704.5j"),
    _t("planeswalker loyalty enters; planeswalker starting loyalty", "306.5b 306.5c"),
    _t("planeswalker damage redirect; attack planeswalker damage; damage removes loyalty;"
       " damage planeswalker loyalty; burn planeswalker; damage planeswalker",
       "306.8 120.3c 306.7"),
    _t("planeswalker zero loyalty; loyalty 0", "704.5i 306.9"),
    _t("loyalty ability once; loyalty ability twice; two loyalty abilities;"
       " loyalty abilities same turn; planeswalker ability twice;"
       " planeswalker activate twice; planeswalker twice turn; activate loyalty twice;"
       " loyalty ability timing;"
       " loyalty instant speed",
       "606.3 606.4"),
    _t("battle defense; attack battle; siege protector; battle protector",
       "310.9 310.6 310.7 310.8 704.5v"),
    _t("aura protection; protection aura falls; equipment protection", "702.16c 702.16d 704.5m"),
    _t("tapped creature block; tapped block; tapped blocker", "509.1a"),
    _t("tapped creature attack; attack tapped", "508.1a"),
    _t("attack planeswalker; planeswalker defending",
       "508.1b 506.4c"),
    _t("land not spell; land isn't spell; lands aren't spells; land creature cast", "305.9"),
    _t("blood moon; urborg", "613.8a 613.1d 305.7"),
    _t("can't lose game; cant lose game; can't win game; cant win game", "101.2 104.3"),
    _t("gain control sacrifice; sacrifice control own; sacrificed control own;"
       " sacrificed stolen; sacrifice opponent's creature; sacrifice don't own;"
       " sacrifice dont own; sacrifice stolen; steal sacrifice",
       "701.21a"),
    _t("until next turn; until your next turn", "611.2a 500.4"),
    # --- 4. Zones ---------------------------------------------------------
    _t("zone change new object; comes back same; came back same; returns same creature;"
       " same object; reanimate same; different object; new object summoning; new object;"
       " memory previous; blink new object;"
       " flicker new object; bounce new object", "400.7"),
    _t("owner graveyard goes; who's graveyard; whos graveyard; stolen destroyed;"
       " stolen creature dies; stolen creature die; gain control dies; gain control die;"
       " goes opponent graveyard; card goes owner; stolen card graveyard; whose graveyard;"
       " stolen dies; steal dies", "400.3"),
    _t("graveyard order; reorder graveyard; look graveyard; examine graveyard", "404.2 400.5"),
    _t("library order; count library; cards left library", "401.2 401.3"),
    _t("maximum hand size; hand size seven; no maximum hand", "402.2 514.1"),
    _t("look own hand; reveal hand", "402.3"),
    _t("exile face down look; face down exile", "406.3 406.3a"),
    _t("exiled card return; leaves before etb; exiled forever; exiled permanently; o ring;"
       " oring; exile until leaves; oblivion ring; leaves before exile",
       "610.3 610.3a 610.3b 610.3c"),
    _t("outside game; sideboard card; wish sideboard", "400.11 400.11a"),
    _t("instant sorcery battlefield; instant enters battlefield", "400.4a 304.4"),
    _t("turn structure; phases order; phases steps; steps phases turn", "500.1 500.2"),
    _t("can't block; cant block; block alone", "509.1b 509.1c"),
    _t("attacking tap cost; attacking taps creature; attack tap", "508.1f 702.20b"),
    _t("who can attack; attack opponent planeswalker battle", "506.3 508.1b"),
    _t("damage step priority; combat damage respond; after damage respond", "510.3 510.4"),
    # --- 5. Turn structure ------------------------------------------------
    _t("extra turn; extra turns order; additional turn", "500.7"),
    _t("extra combat; second combat; two combats; extra combat step; additional combat phase",
       "500.8"),
    _t("skip step; skip turn; skip untap", "614.10 500.11"),
    _t("until end turn ends; until end turn wears", "514.2 500.5b"),
    _t("untap step priority; respond untap", "502.4"),
    _t("upkeep trigger; beginning upkeep", "503.1 503.1a"),
    _t("draw step priority; draw step respond", "504.1 504.2"),
    _t("main phase sorcery; sorcery speed; sorcery timing; cast sorcery opponent",
       "307.1 117.1a 505.6a"),
    _t("precombat main phase; second main phase; postcombat main", "505.1 505.1a"),
    _t("removed combat", "506.4"),
    _t("tap attacker still attacking; tapped blocker deals damage; tapped attacker damage",
       "506.4b 510.1"),
    _t("leave battlefield combat; blocker removed combat; attacker removed combat;"
       " blocking creature dies;"
       " blocker dies before damage", "506.4 509.1h 510.1c"),
    _t("beginning combat; before attackers tap", "507.1 507.2"),
    _t("declare attackers; attack planeswalker choose; attack requirements restrictions",
       "508.1 508.1a 508.1c 508.1d"),
    _t("must attack; must attack tapped; attacks each turn; attacks each combat; attack able",
       "508.1d"),
    _t("attack trigger; whenever attacks", "508.3a 508.2a"),
    _t("put onto battlefield attacking; never declared attacker; wasn't declared attacker;"
       " enters attacking; token attacking trigger",
       "508.4 508.4c"),
    _t("attack tax; cost attack; pay attack", "508.1g 508.1h"),
    _t("declare blockers; block more than one; block two; block multiple;"
       " block two attackers; blocking restrictions",
       "509.1 509.1a 509.1b 509.1c"),
    _t("blocked creature removed; remains blocked; stays blocked; blocker removed;"
       " blocker leaves battlefield; creature remains blocked; blocker removed still blocked",
       "509.1h 506.4"),
    _t("becomes blocked trigger; becomes blocked; blocked twice; blocks trigger", "509.3a 509.3c"),
    _t("damage assignment order; blocked three creatures; damage one blocker; all damage one;"
       " double blocked; multiple blockers; damage assignment; blocked two creatures;"
       " blocked multiple creatures; assigns damage blockers; assign combat damage;"
       " divide combat damage;"
       " two blockers damage; damage among blockers;"
       " multiple blockers damage", "510.1c 510.1a"),
    _t("blocker damage multiple attackers; blocks two attackers damage", "510.1d"),
    _t("combat damage simultaneous; creatures trade; both deal damage;"
       " combat damage same time",
       "510.2"),
    _t("first strike; first strike step; gains first strike; first strike damage step;"
       " first striker",
       "702.7b 510.4 702.7c"),
    _t("double strike; double strike trample; double strike damage", "702.4b 510.4"),
    _t("end combat step; end combat", "511.2 511.3"),
    _t("end step trigger; beginning end step", "513.1 513.2"),
    _t("cleanup step discard; discard down seven; discard seven; too many cards hand;"
       " eight cards hand; discard hand size; cleanup discard; cleanup cards;"
       " discard end turn", "514.1"),
    _t("cleanup step trigger; priority cleanup", "514.3 514.3a"),
    _t("damage removed cleanup; damage heal; damage stay; damage persist; damage carry over;"
       " damage marked end turn; damage wears end turn; damage removed end turn",
       "514.2"),
    _t("combat damage trigger; deals combat damage trigger; combat damage player trigger",
       "510.3a 510.2"),
    _t("cast trigger resolves; whenever cast trigger; cast trigger stack", "601.2i 603.3"),
    _t("can't effect replacement; cant happen effect", "614.17"),
    _t("exchange life; swap life; exchange control; swap control; switch control",
       "701.12a 701.12b 701.12c"),
    _t("double power; double counters; double mana pool", "701.10a 701.10b 701.10e 701.10f"),
    _t("put counters another; move counters trigger", "122.8 122.5"),
    _t("trigger during resolution; triggers while resolving; trigger mid resolution",
       "603.2a 117.2a 603.3"),
    _t("leaves before trigger resolves; left before trigger; gone trigger resolves",
       "113.7a 608.2h 603.10"),
    # --- 6. Spells, abilities and effects ---------------------------------
    _t("casting process; announce spell; spell moves stack; cast spell process;"
       " casting order steps",
       "601.2"),
    _t("modes chosen; choose mode; modal spell; modes cast; choose modes when;"
       " modal spell choose",
       "601.2b 700.2a"),
    _t("targets chosen cast; choosing targets; choose targets when", "601.2c"),
    _t("total cost; determine total cost; cost calculation; cost locked", "601.2f"),
    _t("mana abilities during casting; mana abilities middle; mana abilities while casting;"
       " mana ability middle casting; tap mana while casting",
       "601.2g"),
    _t("sacrifice cost respond; cost respond; respond paying cost; respond sacrifice;"
       " can't respond cost; cant respond cost;"
       " sacrificed cost respond", "601.2h 602.2b"),
    _t("spell becomes cast; cast trigger resolve first; cast trigger before spell;"
       " cast trigger resolves before; cast triggers when",
       "601.2i"),
    _t("cast graveyard; cast permission; cast exile", "601.3 601.2a"),
    _t("cast though flash; flash granted", "601.3b 601.3c"),
    _t("activate ability process; activation cost; activating process", "602.2 602.1a"),
    _t("tap ability summoning sick; tap symbol creature", "602.5a 302.6"),
    _t("activate once each turn; once per turn ability; activate multiple times;"
       " times ability activated;"
       " activate many times", "602.5b"),
    _t("activate sorcery; activate only sorcery", "602.5d"),
    _t("trigger condition; when whenever", "603.1 603.2"),
    _t("trigger during casting; trigger while casting", "603.2a 117.2a"),
    _t("trigger once event; trigger per event; triggers multiple times;"
       " trigger once each turn",
       "603.2c 603.2d 603.2h"),
    _t("replaced event trigger; prevented damage trigger; trigger prevented;"
       " prevented event trigger",
       "603.2g"),
    _t("whose trigger; who controls trigger", "603.3a"),
    _t("trigger order; multiple triggers; triggers resolve first; triggers same time;"
       " active player trigger first; order put triggers; simultaneous triggers; apnap;"
       " stack triggers same time",
       "603.3b"),
    _t("trigger targets chosen; trigger target choose when; target trigger no legal",
       "603.3d 603.3c"),
    _t("intervening; clause trigger condition", "603.4"),
    _t("optional trigger; may trigger; choose not trigger; may choose not;"
       " may ability optional; may ability choose resolve",
       "603.5"),
    _t("etb trigger; enters trigger; enters battlefield trigger; when enters",
       "603.6a 603.2"),
    _t("dies same time; sweep dies; sweep die; wipe dies; wipe die;"
       " whenever another creature dies; both die; both died; die simultaneously;"
       " dies simultaneously; dies together; die together; both destroyed;"
       " destroy all trigger; look back trigger; die same time; destroyed same time see;"
       " look back time; wrath trigger; board wipe trigger; sees die",
       "603.10a 603.10"),
    _t("ltb trigger; death trigger; dies trigger; die trigger; dying trigger;"
       " leaves battlefield trigger; leaves trigger",
       "603.6c 603.10a"),
    _t("delayed trigger; delayed triggered ability; next end step return",
       "603.7 603.7b 603.7c"),
    _t("state trigger; trigger game state", "603.8"),
    _t("phase out trigger; phased out leaves", "603.10b 702.26d"),
    _t("static ability continuous; static abilities", "604.1 604.2"),
    _t("characteristic defining ability; cda", "604.3 613.3"),
    _t("static ability last known; static lki", "604.7"),
    _t("mana ability; counter mana ability; respond mana ability",
       "605.1a 605.3b"),
    _t("mana ability target; treasure mana ability; mana ability trigger",
       "605.5a 605.1b 605.4a"),
    _t("linked abilities; linked exile; exiled card linked", "607.1 607.2a"),
    _t("fizzle; kill target respond; destroy target respond; exile target respond;"
       " no legal targets; target dies respond; target die respond; target no longer;"
       " illegal target; all targets illegal; target gone; only target;"
       " target removed; target bounced",
       "608.2b 701.6a"),
    _t("partial targets illegal; one target illegal; some targets illegal", "608.2b"),
    _t("spell resolves order; instructions order; follow instructions", "608.2c"),
    _t("last known information; lki; last known", "608.2h 113.7a"),
    _t("counts when resolves; number locked; count locked; number determined resolves;"
       " count resolution",
       "608.2h"),
    _t("instant graveyard last; instant graveyard resolving; instant go graveyard;"
       " instant goes graveyard; sorcery graveyard resolve; instant resolves stack",
       "608.2n"),
    _t("permanent spell resolves; creature spell resolves", "608.3"),
    _t("one shot effect; continuous effect duration", "610.1 611.1"),
    _t("continuous effect new permanents; affects later creatures; enters after effect",
       "611.2c 611.3a"),
    _t("control effect ends; back wears off; regain control; control reverts;"
       " control goes back; control go back; control returns owner; steal until end turn;"
       " control wears off;"
       " threaten effect ends", "611.2a 613.1b 800.4c"),
    _t("long duration never starts; duration never starts", "611.2b"),
    _t("text changing", "612.1 612.2"),
    _t("layers; effects apply order; layer system", "613.1"),
    _t("humility; opalescence; humility opalescence", "613.1 613.8 613.7"),
    _t("copy layer; layer 1 copy", "613.2a 613.1a"),
    _t("control change layer; control layer; layer 2", "613.1b"),
    _t("layer 4 type; type changing layer", "613.1d"),
    _t("ability adding layer; lose abilities layer; layer 6", "613.1f"),
    _t("power toughness layer; set power; swap power toughness; exchange power toughness;"
       " switching power; layer 7; set power toughness; switch power toughness",
       "613.4 613.4b 613.4c 613.4d"),
    _t("timestamp; effect applies first; later effect wins; most recent effect;"
       " timestamp order",
       "613.7 613.7a"),
    _t("dependency layer; dependent effect; dependency effects apply", "613.8 613.8a"),
    _t("cda layers; characteristic defining first", "613.3 613.4a"),
    _t("replacement effect; instead replacement", "614.1 614.1a"),
    _t("enters counters; enters tapped; enters copy",
       "614.1c 614.1d 614.12"),
    _t("etb replacement; enters replacement; replacement versus trigger; etb tapped",
       "614.12 614.1c"),
    _t("replacement once; replacement twice; replacement more than once;"
       " apply more than once; replacement apply twice",
       "614.5"),
    _t("replaced event never happens; replacement event didn't happen", "614.6 614.7"),
    _t("regeneration shield; regenerate", "701.19a 614.8"),
    _t("damage redirection", "614.9"),
    _t("skip replacement; skip effect replacement", "614.10 614.10a"),
    _t("draw replacement", "614.11 121.6"),
    _t("self replacement", "614.15 616.1a"),
    _t("token doubling; token doubler; twice many tokens; tokens replacement", "614.16 616.1"),
    _t("prevent damage; prevention effect", "615.1 615.6"),
    _t("can't prevented; cant prevented; unpreventable damage", "615.12"),
    _t("replacement order; two replacement effects; who chooses replacement;"
       " replacement effects order; multiple replacement effects;"
       " replacement first; affected player chooses replacement",
       "616.1 616.1e 616.1f"),
    _t("replacement control enters; replacement copy enters", "616.1b 616.1c"),
    _t("choices resolution; choose resolution; choice resolves", "608.2d"),
    _t("blink returns owner; flicker returns owner; blink stolen; flicker stolen;"
       " bounce stolen", "610.3c 400.7 110.2a"),
    _t("fetch land respond; crack fetch; fetchland respond", "602.2b 601.2h"),
    _t("cast top library; play top library", "601.3 401.5"),
    _t("aura fizzle; aura spell target illegal; respond aura; response aura; aura spell fizzles",
       "608.3b 303.4a"),
    # --- 7. Additional rules ----------------------------------------------
    _t("modal choose same mode; choose mode twice", "700.2d"),
    _t("dies meaning; exile dying; die meaning; sacrifice count dies; sacrifice counts die;"
       " dies graveyard battlefield; exiled die; exiled dies",
       "700.4"),
    _t("attach aura; attach equipment; unattach equipment", "701.3a 701.3b 701.3c"),
    _t("counter spell graveyard; countered mana back; countered spell go;"
       " countered spell goes; countered cost refund",
       "701.6a 701.6b"),
    _t("destroy vs sacrifice; sacrifice indestructible; sacrificed indestructible",
       "701.21a 701.8b 702.12b"),
    _t("discard choice; random discard", "701.9b"),
    _t("fight; fight damage; fight deathtouch", "701.14a 701.14b 701.14d"),
    _t("goad", "701.15a 701.15b"),
    _t("tutor; search library; fail find", "701.23a 701.23b"),
    _t("shuffle", "701.24a"),
    _t("transform", "701.27a 712.18"),
    _t("proliferate", "701.34a"),
    _t("mill", "701.17a"),
    _t("scry; surveil", "701.22a 701.25a"),
    _t("investigate", "701.16a"),
    _t("manifest; manifest dread; cloak", "701.40a 701.62a 701.58a"),
    _t("explore", "701.44a"),
    _t("amass", "701.47a"),
    _t("connive", "701.50a"),
    _t("deathtouch; deathtouch damage", "702.2b 702.2c"),
    _t("defender can't attack; defender cant attack", "702.3b"),
    _t("equip ability; equip cost; pay equip; move equipment; equip sorcery; equip target",
       "702.6a"),
    _t("flash", "702.8a"),
    _t("flying; flier; flyer; flying block; reach block", "702.9b 702.17b"),
    _t("haste", "702.10b 702.10c"),
    _t("hexproof; hexproof own spells; target hexproof", "702.11b 702.11d"),
    _t("indestructible; indestructible lethal damage; indestructible zero toughness",
       "702.12b 704.5f"),
    _t("protection; pro red; pro black; pro blue; pro green; protection color; pro white;"
       " debt protection",
       "702.16a 702.16b 702.16e 702.16f"),
    _t("protection wrath; protection destroy all; protection non targeted;"
       " protection boardwipe",
       "702.16b 702.16e"),
    _t("protection everything", "702.16j"),
    _t("shroud; shroud own", "702.18a"),
    _t("trample; trampler; trample assign; trample lethal; trample blocker removed;"
       " trample blocker dies",
       "702.19b 702.19d"),
    _t("trample deathtouch; deathtouch trample one damage", "702.2c 702.19b"),
    _t("trample planeswalker; trample over planeswalkers", "702.19c 702.19e"),
    _t("ward; ward counter; ward pay", "702.21a"),
    _t("phase out", "702.26b 702.26d"),
    _t("cumulative upkeep", "702.24a"),
    _t("kicker; kicked; multikicker", "702.33a 702.33d"),
    _t("flashback", "702.34a"),
    _t("madness", "702.35a"),
    _t("morph; megamorph; face down creature", "702.37c 708.2"),
    _t("storm; storm count", "702.40a"),
    _t("ninjutsu; ninja", "702.49a 702.49c"),
    _t("convoke", "702.51a 702.51b"),
    _t("delve", "702.66a"),
    _t("split second", "702.61a 702.61b"),
    _t("suspend", "702.62a"),
    _t("evoke", "702.74a"),
    _t("persist counter; persist returns; persist creature", "702.79a"),
    _t("undying", "702.93a"),
    _t("undying persist counters", "702.93a 702.79a 122.3"),
    _t("cascade", "702.85a"),
    _t("miracle", "702.94a"),
    _t("bestow", "702.103a 702.103e"),
    _t("menace", "702.111b"),
    _t("crew", "702.122a 702.122b"),
    _t("escape cast; escaped; escape graveyard", "702.138a"),
    _t("companion", "702.139a 116.2g"),
    _t("mutate; mutate under", "702.140a 702.140c 702.140e 730.2"),
    _t("foretell", "702.143a 702.143b"),
    _t("partner; partner commanders", "702.124a 702.124b"),
    _t("daybound nightbound; becomes night; becomes day; day night", "702.145a 731.2"),
    _t("plot; plotted", "702.170a 702.170d"),
    _t("spree", "702.172a"),
    _t("prowess", "702.108a"),
    _t("vigilance; vigilance attack", "702.20b"),
    _t("infect", "702.90b 120.3b"),
    _t("toxic", "702.164a"),
    _t("afterlife", "702.135a"),
    _t("backup", "702.165a"),
    _t("disguise", "702.168a"),
    _t("station", "702.184a 721.2"),
    _t("warp", "702.185a"),
    _t("banding", "702.22a"),
    _t("rampage", "702.23a"),
    _t("flanking", "702.25a"),
    _t("buyback", "702.27a"),
    _t("shadow creature", "702.28a"),
    _t("cycling; cycle card", "702.29a"),
    _t("echo", "702.30a"),
    _t("horsemanship", "702.31a"),
    _t("fading", "702.32a"),
    _t("fear evasion", "702.36a"),
    _t("amplify", "702.38a"),
    _t("provoke", "702.39a"),
    _t("affinity", "702.41a"),
    _t("entwine", "702.42a"),
    _t("modular", "702.43a"),
    _t("sunburst", "702.44a"),
    _t("bushido", "702.45a"),
    _t("soulshift", "702.46a"),
    _t("splice", "702.47a"),
    _t("offering cast; patron offering", "702.48a"),
    _t("epic", "702.50a"),
    _t("dredge", "702.52a"),
    _t("transmute", "702.53a"),
    _t("bloodthirst", "702.54a"),
    _t("haunt", "702.55a"),
    _t("replicate", "702.56a"),
    _t("forecast", "702.57a"),
    _t("graft", "702.58a"),
    _t("ripple", "702.60a"),
    _t("vanishing", "702.63a"),
    _t("absorb", "702.64a"),
    _t("aura swap", "702.65a"),
    _t("fortify", "702.67a"),
    _t("frenzy", "702.68a"),
    _t("gravestorm", "702.69a"),
    _t("poisonous trigger; poisonous keyword", "702.70a"),
    _t("transfigure", "702.71a"),
    _t("champion", "702.72a"),
    _t("changeling", "702.73a"),
    _t("hideaway", "702.75a"),
    _t("prowl", "702.76a"),
    _t("reinforce", "702.77a"),
    _t("conspire", "702.78a"),
    _t("retrace", "702.81a"),
    _t("devour", "702.82a"),
    _t("exalted", "702.83a"),
    _t("unearth", "702.84a"),
    _t("annihilator", "702.86a"),
    _t("rebound", "702.88a"),
    _t("umbra armor; totem armor", "702.89a"),
    _t("battle cry", "702.91a"),
    _t("living weapon; germ token", "702.92a"),
    _t("soulbond", "702.95a"),
    _t("overload", "702.96a"),
    _t("scavenge", "702.97a"),
    _t("unleash", "702.98a"),
    _t("cipher", "702.99a"),
    _t("evolve", "702.100a"),
    _t("extort", "702.101a"),
    _t("tribute", "702.104a"),
    _t("dethrone", "702.105a"),
    _t("hidden agenda", "702.106a"),
    _t("outlast", "702.107a"),
    _t("dash", "702.109a"),
    _t("exploit", "702.110a"),
    _t("renown", "702.112a"),
    _t("awaken", "702.113a"),
    _t("devoid", "702.114a"),
    _t("ingest", "702.115a"),
    _t("myriad", "702.116a"),
    _t("surge", "702.117a"),
    _t("skulk", "702.118a"),
    _t("emerge", "702.119a"),
    _t("escalate", "702.120a"),
    _t("melee", "702.121a"),
    _t("fabricate", "702.123a"),
    _t("undaunted", "702.125a"),
    _t("improvise", "702.126a"),
    _t("aftermath", "702.127a"),
    _t("embalm", "702.128a"),
    _t("eternalize", "702.129a"),
    _t("afflict", "702.130a"),
    _t("ascend; citys blessing", "702.131a"),
    _t("assist", "702.132a"),
    _t("jump start", "702.133a"),
    _t("mentor", "702.134a"),
    _t("riot", "702.136a"),
    _t("spectacle", "702.137a"),
    _t("encore", "702.141a"),
    _t("boast", "702.142a"),
    _t("demonstrate", "702.144a"),
    _t("disturb", "702.146a"),
    _t("decayed", "702.147a"),
    _t("cleave", "702.148a"),
    _t("training", "702.149a"),
    _t("compleated", "702.150a"),
    _t("reconfigure", "702.151a"),
    _t("blitz", "702.152a"),
    _t("casualty", "702.153a"),
    _t("enlist", "702.154a"),
    _t("read ahead", "702.155a"),
    _t("ravenous", "702.156a"),
    _t("squad", "702.157a"),
    _t("living metal", "702.161a"),
    _t("more than meets eye", "702.162a"),
    _t("mirrodin", "702.163a"),
    _t("bargain", "702.166a"),
    _t("craft", "702.167a"),
    _t("saddle", "702.171a"),
    _t("freerunning", "702.173a"),
    _t("gift", "702.174a"),
    _t("offspring", "702.175a"),
    _t("impending", "702.176a"),
    _t("exhaust", "702.177a"),
    _t("max speed", "702.178a"),
    _t("start your engines; speed increase", "702.179a"),
    _t("harmonize", "702.180a"),
    _t("mobilize", "702.181a"),
    _t("job select", "702.182a"),
    _t("tiered", "702.183a"),
    _t("mayhem", "702.187a"),
    _t("web slinging", "702.188a"),
    _t("firebending", "702.189a"),
    _t("sneak", "702.190a"),
    _t("increment", "702.191a"),
    _t("paradigm", "702.192a"),
    _t("teamwork", "702.194a"),
    _t("storied", "702.195a"),
    _t("venture dungeon; dungeon room; complete dungeon", "701.49a 309.4 309.7"),
    _t("ring tempts; tempts; ring bearer", "701.54a 701.54b"),
    _t("landfall", "207.2c 603.6a"),
    _t("must block; blocks able", "509.1c"),
    _t("already attacking; already blocking; already declared attacker", "506.4a"),
    _t("damage doubler; double damage replacement; furnace rath", "614.1a 616.1"),
    _t("sacrificed power; sacrificed creature power; sacrificed toughness", "608.2h"),
    _t("token dies trigger; token die trigger", "603.6c 603.10a 704.5d"),
    _t("turn based actions", "703.1 703.4"),
    _t("state based actions; sba; state based", "704.3 704.5"),
    _t("zero toughness; 0 toughness; minus toughness dies",
       "704.5f"),
    _t("lethal damage; damage equal toughness; damage marked toughness", "704.5g"),
    _t("legend rule; copy legendary; second legendary; two copies legendary; same legendary;"
       " two legendary; legendary same name; legends same",
       "704.5j"),
    _t("copy spell left stack; copy ceases exist", "704.5e 707.10a"),
    _t("sba simultaneous; state based actions simultaneously", "704.3"),
    _t("coin flip; flipping coin", "705.1 705.2"),
    _t("roll die", "706.2"),
    _t("copiable values; clone copy; clone", "707.2 707.3"),
    _t("copy counters; copy tapped; clone counters; copy aura attached", "707.2"),
    _t("clone etb; clone enters trigger; copy enters trigger", "707.5 603.6a"),
    _t("token mana value; token cmc", "202.3a 111.3 707.2"),
    _t("copy choices; clone choices; copy chosen", "707.6"),
    _t("copy spell; copy spell targets", "707.10 707.10c"),
    _t("copy ability; copy triggered ability", "707.10"),
    _t("copy cast; copy not cast", "707.10 707.12"),
    _t("clone face down; copy face down; copy transformed; copy double faced",
       "707.2 708.10 707.8"),
    _t("face down; face down characteristics", "708.2 708.2a"),
    _t("face down leaves; face down dies; face down die", "708.9"),
    _t("split card; fuse; fused split", "709.3 709.4 709.4d"),
    _t("room door; unlock door; locked half; room unlock; room enters",
       "709.5 709.5d 709.5e 709.5f"),
    _t("flip card", "710.1 710.2"),
    _t("level up; level counters; leveler card", "711.2 702.87a"),
    _t("double faced; transformed creature; transform back face; dfc", "712.8 712.8d 712.8e"),
    _t("modal double faced; play land side; land side mdfc; mdfc; mdfc cast back;"
       " mdfc mana value",
       "712.11b 712.8f 712.8a"),
    _t("double faced enters transformed; enters transformed", "712.14a"),
    _t("meld", "712.4 712.21"),
    _t("saga; final chapter; last chapter; chapter ability; lore counter; saga final chapter",
       "714.2 714.3c 714.4"),
    _t("adventure; adventure exile", "715.3 715.3d 715.4"),
    _t("class level; class enchantment; class card", "716.2 716.2a"),
    _t("prototype", "718.2 718.3"),
    _t("case solved; case cards solved", "719.3 702.169a"),
    _t("omen", "720.3 720.3d"),
    _t("control another player turn; control next turn; mindslaver; opposition agent",
       "723.1 723.5 723.5a"),
    _t("turn ends immediately; time stop; sundial", "724.1"),
    _t("monarch", "725.2 725.3 725.4"),
    _t("initiative", "726.2 726.3"),
    _t("restart game", "727.1 727.2"),
    _t("merged permanent; merged", "730.1 730.2"),
    _t("shortcut; loop shortcut", "732.1 732.2"),
    _t("illegal action; rewind action; undo action", "733.1 733.2"),
    _t("mill empty library; mill more library", "701.17b"),
    _t("indestructible exile", "702.12b 701.13a"),
    _t("copy permanent spell; copy creature spell token", "707.10f 111.13"),
    _t("double faced graveyard; back face graveyard; double faced hand", "712.8a"),
    _t("wither creature; infect creature", "702.80a 702.90c 120.3d"),
    _t("face down revealed; morph revealed", "708.9 708.11"),
    _t("special action foretell; foretell special; plot special action;"
       " companion hand special",
       "116.2h 116.2k 116.2g"),
    _t("intimidate; landwalk; islandwalk; swampwalk; forestwalk; mountainwalk",
       "702.13a 702.14a 702.14c"),
    _t("enchant ability; enchant creature target; aura target cast", "702.5a 303.4a"),
    _t("reach", "702.17a 702.9b"),
    _t("defender attack; defender block", "702.3b"),
    # --- 8. Multiplayer rules ---------------------------------------------
    _t("player leaves game; player concedes multiplayer; left game; loses multiplayer;"
       " opponent leaves game; leaves game multiplayer;"
       " concede stack; concede spells;"
       " concede multiplayer; leaves game permanents; concede control; concede creature;"
       " concede stolen; left game control", "800.4a 800.4"),
    _t("stolen permanent leaves game; control effect ends leaves; steal leaves game",
       "800.4a 800.4c"),
    _t("player left game turn; player loses own turn; turn continue multiplayer;"
       " lose during turn multiplayer", "800.4j 800.4k"),
    _t("multiplayer first draw; multiplayer mulligan free", "800.7 800.6 103.8c"),
    _t("range influence; attack left; attack right; attack next", "801.1 801.2 803.1"),
    _t("attack multiple players; attack different players", "802.1 802.3"),
    _t("two headed giant; two headed; 2hg poison counters; 2hg; 2hg poison; 2hg life",
       "810.1 810.4 810.9 810.10"),
    _t("shared team turns; team turn; teammate priority", "805.2 810.2"),
    _t("attack all opponents; multiplayer attack", "802.1 802.2 506.2"),
    # --- 9. Casual variants -----------------------------------------------
    _t("commander tax; command zone cast; commander cost; commander costs more", "903.8"),
    _t("commander dies; commander dies trigger; commander death trigger; commander exiled;"
       " commander graveyard; commander exile command zone;"
       " commander return command zone; choose command zone", "903.9a 704.6d"),
    _t("commander hand library; commander bounce; commander shuffle", "903.9b"),
    _t("commander damage; commander damage stolen; commander damage control;"
       " 21 damage commander; commander combat damage",
       "903.10a 704.6c"),
    _t("color identity; commander colors", "903.4"),
    _t("commander deck; singleton; commander deck construction", "903.5"),
    _t("commander mulligan; commander starting life", "903.7"),
    _t("planechase", "901.1"),
    _t("archenemy", "904.1"),
    _t("commander copy; commander token", "903.3d 903.3"),
    _t("commander zone change replacement; commander goes graveyard first;"
       " commander command zone sba",
       "903.9a 704.6d"),
)


def cue_words() -> set[str]:
    """Every word of every cue (the index keeps their stems ready)."""
    return {w for t in TOPICS for c in t.cues for w in words(c)}


def question_stems(question_words: list[str], stem: Callable[[str], str]) -> set[str]:
    """The stems a question's words offer to the cues ("opponent's" meets
    the cue word "opponent")."""
    return {stem(w[:-2] if w.endswith("'s") else w) for w in question_words if w not in STOP_WORDS}


class Cues:
    """Every cue of ``TOPICS`` stemmed once, for matching many questions.

    ``keep`` says which rule ids exist (an older release numbers rules
    otherwise): a topic none of whose rules is kept is left out.
    """

    def __init__(self, stem: Callable[[str], str], keep: Callable[[str], bool] = lambda id: True):
        self.stem = stem
        self.cues: list[tuple[frozenset[str], str, Topic]] = []
        for topic in TOPICS:
            rules = tuple(r for r in topic.rules if keep(r))
            if rules:
                kept = Topic(topic.cues, rules)
                self.cues.extend((frozenset(stem(w) for w in words(c)), c, kept)
                                 for c in topic.cues)

    def found(self, question_words: list[str]) -> list[tuple[str, Topic]]:
        """``(cue, topic)`` for every cue all of whose words the question has."""
        have = question_stems(question_words, self.stem)
        return [(c, t) for stems, c, t in self.cues if stems <= have]


def matching(question: str, stem: Callable[[str], str]) -> list[Topic]:
    """The topics whose cues all occur in ``question``, in table order.

    ``stem`` is the search's own stemmer (Porter), so cue and question words
    are compared the way the index compares them.
    """
    return list(dict.fromkeys(t for _, t in Cues(stem).found(words(question))))
