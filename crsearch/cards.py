"""Cards that are rules topics: the names judges hear and the rules they answer with.

Questions name cards ("I cast Humility with two Opalescence out..."), and card
names are normally dropped from a question because their words match rules
words by accident.  Some cards, though, are famous *because* of a rule: Humility
and Opalescence mean layers and dependency, Mindslaver means controlling
another player, Blood Moon means rule 305.7.  This table maps such cards to the
rule ids (2026-08-07 numbering) that decide the questions about them, best
first, so a search can rank those rules when a question names the card.

Only cards whose questions turn on a general rule are listed, not cards whose
answer is "read the card".  Names are lowercase, as printed, with straight
apostrophes.  A name with a comma ("Tomorrow, Azami's Familiar") is also found
by the part before the comma, unless that part is an ordinary word or is shared
by two cards of the table.  Standard library only: this module is imported on
the query path.
"""

from __future__ import annotations

import re

from crsearch.text import fold, words

# One row per card: "name": "rule ids, best first".  Kept as text so the table
# reads like a judge's cheat sheet; RULES_CARDS is the typed view of it.
_TABLE: dict[str, str] = {
    # --- Layers, timestamps and dependency (613) ---
    "humility": "613.1f 613.4b 613.7 613.8",
    "opalescence": "613.1d 613.7 613.8a 613.4b",
    "blood moon": "305.7 613.1d 613.8a",
    "magus of the moon": "305.7 613.1d 613.8a",
    "urborg, tomb of yawgmoth": "305.7 613.8a 613.1d",
    "yavimaya, cradle of growth": "305.7 613.8a 613.1d",
    "prismatic omen": "305.7 613.1d 613.8a",
    "spreading seas": "305.7 613.1d",
    "song of the dryads": "305.7 613.1d 613.1f",
    "mycosynth lattice": "613.1d 613.1e 613.8a",
    "march of the machines": "613.1d 613.4b 613.8a 704.5f",
    "kormus bell": "613.8a 613.1d 613.4b",
    "life and limb": "613.8a 613.1d 613.1e",
    "painter's servant": "613.1e 105.2",
    "darksteel mutation": "613.1d 613.1f 613.4b",
    "imprisoned in the moon": "613.1d 613.1f 613.1e",
    "kenrith's transformation": "613.1d 613.1f 613.4b",
    "oko, thief of crowns": "613.1d 613.1f 613.4b",
    "turn to frog": "613.1f 613.4b 613.7",
    "ensoul artifact": "613.4b 613.1d 613.7",
    "tarmogoyf": "604.3 613.4a 611.3a 205.2a",
    "glorious anthem": "613.4c 611.3a",
    "dress down": "613.1f 603.6a 613.7",
    "mirrorweave": "707.2 613.2a 611.2c",
    "brudiclad, telchor engineer": "707.2 613.2a 613.7",
    "elesh norn, grand cenobite": "613.4c 704.5f",
    # --- Control-changing effects (613.1b, 302.6) ---
    "act of treason": "613.1b 302.6 611.2a 613.6",
    "threaten": "613.1b 302.6 611.2a",
    "zealous conscripts": "613.1b 302.6",
    "control magic": "613.1b 303.4e",
    "treachery": "613.1b 303.4e",
    "sower of temptation": "611.2b 613.1b",
    "donate": "613.1b 110.2",
    "humble defector": "613.1b 302.6 110.2",
    "gilded drake": "701.12b 701.12a 613.1b",
    # --- Controlling another player, ending turns, restarts, subgames ---
    "mindslaver": "723.1 723.5 723.3 723.1a",
    "emrakul, the promised end": "723.1 723.5 723.3",
    "word of command": "723.2 723.5a",
    "opposition agent": "723.2 701.23",
    "time stop": "724.1 724.1b",
    "sundial of the infinite": "724.1 724.1a 724.1f 514.3a",
    "day's undoing": "724.1 724.1a",
    "mandate of peace": "724.2",
    "karn liberated": "727.1 104.6 727.2 727.5",
    "shahrazad": "729.1 729.2 729.5",
    "time walk": "500.7",
    "temporal mastery": "702.94a 500.7",
    "relentless assault": "500.8 505.1a",
    "aurelia, the warleader": "500.8 508.2a",
    "paradox haze": "500.9",
    # --- Winning, losing, draws and loops (104, 732) ---
    "platinum angel": "101.2 104.3e 104.3b 704.5a",
    "abyssal persecutor": "101.2 104.3b 704.5a",
    "lich's mirror": "614.1a 704.7 104.3b 704.5a",
    "phyrexian unlife": "119.6 704.5a 120.3",
    "laboratory maniac": "614.11 121.6a 104.2b 121.4",
    "jace, wielder of mysteries": "614.11 121.6a 104.2b 121.4",
    "thassa's oracle": "104.2b 700.5 608.2h",
    "approach of the second sun": "104.2b 401.7",
    "felidar sovereign": "104.2b 603.4",
    "worldgorger dragon": "104.4b 732.4 610.3",
    "animate dead": "303.4f 704.5m 613.4c 603.6c",
    "necromancy": "303.4f 704.5m 603.6c",
    # --- Draws and their replacement (121, 614.11) ---
    "necropotence": "614.10 119.4 614.1a 603.7",
    "sylvan library": "121.2 119.4 608.2h",
    "chains of mephistopheles": "614.11a 614.11 121.6 616.1",
    "notion thief": "614.11 121.6 616.1",
    "tomorrow, azami's familiar": "614.11 121.6 616.1",
    "uba mask": "614.11 121.6 614.1a",
    "abundance": "614.11 121.6 616.1",
    "alhammarret's archive": "614.11 616.1 121.2",
    "golgari grave-troll": "702.52a 614.11 121.6",
    "life from the loam": "702.52a 614.11 121.6",
    "spirit of the labyrinth": "121.2b 101.2",
    "narset, parter of veils": "121.2b 101.2",
    "leovold, emissary of trest": "121.2b 101.2",
    "consecrated sphinx": "121.2 603.2c",
    "orcish bowmasters": "121.2 603.2c 504.1",
    "smothering tithe": "121.2 603.2c 118.12a",
    # --- Replacement effects and their order (614, 616) ---
    "doubling season": "616.1 614.1a 122.6 616.1g",
    "hardened scales": "614.1a 616.1 122.6 122.6a",
    "winding constrictor": "614.1a 616.1 122.6",
    "vorinclex, monstrous raider": "614.1a 616.1 122.6 306.5b",
    "parallel lives": "614.16 616.1 111.1",
    "anointed procession": "614.16 616.1 111.1",
    "academy manufactor": "614.16 616.1 111.10",
    "chatterfang, squirrel general": "614.16 616.1 111.1",
    "containment priest": "614.1a 614.6 400.7",
    "rest in peace": "614.1a 614.6 700.4",
    "leyline of the void": "614.1a 614.6 103.6a",
    "torbran, thane of red fell": "614.1a 616.1 609.7",
    "furnace of rath": "614.1a 616.1",
    "gisela, blade of goldnight": "614.1a 616.1 615.1a",
    "fiery emancipation": "614.1a 701.11 616.1",
    "worship": "614.1a 120.3 119.3",
    "pariah": "614.9 614.1a",
    "blind obedience": "614.1d 614.12",
    "mox diamond": "614.12 614.1a 614.6",
    "amulet of vigor": "603.6d 614.1d 603.6a",
    "vizier of remedies": "614.1a 122.6 702.79a",
    "solemnity": "614.17d 101.2 122.6",
    "melira, sylvok outcast": "614.17d 101.2 702.90c",
    "mana reflection": "106.6a 616.1",
    "nyxbloom ancient": "106.6a 616.1",
    # --- Triggered abilities: ETB, dies, look back (603) ---
    "torpor orb": "603.6a 603.2 603.6d",
    "hushbringer": "603.6a 603.6c 603.2",
    "panharmonicon": "603.2d 603.6a",
    "yarok, the desecrated": "603.2d 603.6a",
    "elesh norn, mother of machines": "603.2d 603.6a",
    "teysa karlov": "603.2d 603.10a",
    "isshin, two heavens as one": "603.2d 508.3a",
    "strionic resonator": "707.10 707.10c 603.3",
    "rings of brighthearth": "707.10 605.3b",
    "skullclamp": "603.10a 704.5f 603.6c",
    "blood artist": "603.10a 603.6c 700.4",
    "grave pact": "603.10a 101.4",
    "butcher of malakir": "603.10a 603.3b 101.4",
    "wurmcoil engine": "603.10a 702.15b 702.2b",
    "kitchen finks": "702.79a 122.3 603.10a",
    "mikaeus, the unhallowed": "702.93a 122.3 603.10a",
    "rancor": "603.10a 704.5m 603.6c",
    "dark depths": "603.8 707.2 122.1",
    "thespian's stage": "707.4 707.2 603.8",
    "living end": "702.62a 702.85a 603.10a 603.6a",
    "living death": "603.10a 603.6a 101.4",
    "wrath of god": "701.8 603.10a 702.12b",
    "chromatic star": "605.5 605.1a 603.6c",
    # --- Blink, linked exile, "until" effects (400.7, 607, 610.3) ---
    "cloudshift": "400.7 603.6a 603.6c",
    "ephemerate": "400.7 702.88a 603.6a",
    "restoration angel": "400.7 603.6a 702.8a",
    "flickerwisp": "400.7 603.7 603.6a",
    "oblivion ring": "607.2a 603.6c 400.7",
    "fiend hunter": "607.2a 603.6c 400.7",
    "journey to nowhere": "607.2a 603.6c 400.7",
    "detention sphere": "607.2a 603.6c 400.7",
    "banishing light": "610.3 610.3a 610.3c",
    "banisher priest": "610.3 610.3a 610.3c",
    "palace jailer": "610.3 725.1 725.3",
    "brutal cathar": "610.3 712.18 702.145b",
    "chrome mox": "607.2a 106.5 605.1a",
    "isochron scepter": "707.12 607.2a",
    # --- Copies (707) ---
    "phyrexian metamorph": "707.9b 707.5 707.2 614.1c",
    "spark double": "707.9b 707.9a 704.5j",
    "mirror image": "707.5 707.2 707.6",
    "vesuva": "707.5 614.1c 707.2",
    "helm of the host": "707.9b 704.5j 707.9a",
    "kiki-jiki, mirror breaker": "707.2 707.9a 603.7",
    "splinter twin": "707.9a 707.2 603.7",
    "vesuvan doppelganger": "707.4 707.9 707.3 707.6",
    "sakashima of a thousand faces": "707.9b 704.5j 707.2",
    "mirror gallery": "704.5j",
    "twincast": "707.10 707.10c",
    "reverberate": "707.10 707.10c",
    "fork": "707.10 707.10c",
    "dualcaster mage": "707.10 707.10c",
    "thousand-year storm": "707.10 702.40a",
    "mizzix's mastery": "707.12 707.12a",
    # --- Face-down, double-faced and other special cards (708, 712, 715) ---
    "ixidron": "708.2a 708.8 708.9",
    "exalted angel": "702.37a 708.7 116.2b",
    "whisperwood elemental": "701.40a 708.3",
    "delver of secrets": "701.27a 712.18 712.8e",
    "brisela, voice of nightmares": "712.8g 712.4a 202.3c",
    "bonecrusher giant": "715.3 715.3d 715.4",
    # --- Costs: alternative, additional, increases (118, 601.2f) ---
    "force of will": "118.9 118.9a 601.2f",
    "fireblast": "118.9 118.9a",
    "misdirection": "118.9 115.7b 115.7",
    "mindbreak trap": "118.9 406.2",
    "bolas's citadel": "118.9 119.4 401.5 601.2f",
    "thalia, guardian of thraben": "601.2f 118.7",
    "sphere of resistance": "601.2f 118.7",
    "trinisphere": "601.2f 118.7",
    "lodestone golem": "601.2f 118.7",
    "helm of awakening": "601.2f 118.7d",
    "snapcaster mage": "702.34a 118.9a 601.2f",
    "treasure cruise": "702.66a 702.66b 601.2f",
    "chord of calling": "702.51a 702.51b 107.3",
    "frogmite": "702.41a 601.2f",
    "shriekmaw": "702.74a 603.6a",
    "cyclonic rift": "702.96a 702.96b 118.9",
    "aetherflux reservoir": "119.4 603.2",
    "angel of jubilation": "119.4 118.3 101.2",
    # --- X and mana value (107.3, 202.3) ---
    "chalice of the void": "202.3e 107.3m 122.6a",
    "counterbalance": "202.3 202.3e",
    "dark confidant": "202.3 202.3e",
    "gaddock teeg": "601.3 202.3e",
    "walking ballista": "107.3m 122.6a 614.1c",
    "hangarback walker": "107.3m 122.6a 603.10a",
    "heliod, sun-crowned": "702.15b 119.9",
    "birthing pod": "608.2h 202.3",
    "fling": "608.2h 601.2h",
    # --- Casting permission and prohibition (601.3), searching (701.23) ---
    "sen triplets": "601.3 110.2 108.3",
    "grafdigger's cage": "614.17d 601.3 101.2",
    "drannith magistrate": "601.3 101.2",
    "iona, shield of emeria": "601.3 201.4",
    "meddling mage": "601.3 201.4",
    "pithing needle": "602.5 605.1a 201.4",
    "sorcerous spyglass": "602.5 605.1a 201.4",
    "cursed totem": "602.5 605.1a",
    "stony silence": "602.5 605.1a",
    "linvala, keeper of silence": "602.5 605.1a",
    "teferi, time raveler": "307.1 117.1a 601.3",
    "panglacial wurm": "701.23 601.2 601.3",
    "aven mindcensor": "701.23f 701.23",
    "leonin arbiter": "701.23 116.2d 101.2",
    "stranglehold": "701.23 101.2 614.10",
    "lurrus of the dreamden": "702.139a 601.3 116.2g",
    "yorion, sky nomad": "702.139a 702.139b 116.2g",
    "lutri, the spellchaser": "702.139a 702.139d 116.2g",
    "aether vial": "701.5a 601.2",
    "sneak attack": "701.5a 702.10 603.7",
    "show and tell": "101.4 701.5a",
    "eureka": "101.4 701.5a",
    # --- Mana abilities (605, 106) ---
    "lion's eye diamond": "605.1a 605.3b 601.2g",
    "ashnod's altar": "605.1a 605.3b",
    "cryptolith rite": "302.6 605.1a",
    "llanowar elves": "302.6 605.1a",
    "birds of paradise": "302.6 605.1a",
    "wild growth": "605.1b 106.12a",
    "cavern of souls": "106.6 101.2 701.6a",
    "mishra's workshop": "106.6",
    "upwelling": "500.5 106.4",
    "kruphix, god of horizons": "500.5 106.4",
    "omnath, locus of mana": "500.5 106.4",
    # --- The stack: countering abilities, split second, storm (701.6, 702) ---
    "stifle": "701.6a 605.3b 603.3",
    "disallow": "701.6a 605.3b",
    "trickbind": "702.61a 701.6a 605.3b",
    "sudden shock": "702.61a 702.61b",
    "krosan grip": "702.61a 702.61b",
    "grapeshot": "702.40a 707.10",
    "tendrils of agony": "702.40a 707.10",
    "spellskite": "115.7 115.7a",
    "terminus": "702.94a 702.94b",
    "sensei's divining top": "702.94a 121.2",
    "bloodbraid elf": "702.85a 702.85b",
    "shardless agent": "702.85a 702.85b",
    "violent outburst": "702.85a",
    "maelstrom wanderer": "702.85a 702.85c",
    "ancestral vision": "702.62a 702.62b 202.3a",
    "uro, titan of nature's wrath": "702.138a 702.138b",
    "fiery temper": "702.35a 702.35b",
    # --- Phasing, protection, hexproof, indestructible (702) ---
    "teferi's protection": "702.26b 702.16j 702.26g 119.8",
    "oubliette": "702.26b 702.26g",
    "progenitus": "702.16j 702.16b 702.16e",
    "true-name nemesis": "702.16k 702.16b 702.16f",
    "mother of runes": "702.16b 702.16e 704.5m",
    "emrakul, the aeons torn": "702.86a 702.16b 500.7 603.6",
    "slippery bogle": "702.11b 303.4a",
    "leyline of sanctity": "702.11c 103.6a",
    "darksteel colossus": "702.12b 614.1a",
    "blightsteel colossus": "702.12b 702.90b 702.90c 614.1a",
    "basilisk collar": "702.2c 702.19b 702.15b",
    "questing beast": "509.1b 615.12 510.1",
    "lightning greaves": "702.6a 702.18a 301.5",
    "batterskull": "702.92a 301.5c",
    "ninja of the deep hours": "702.49a 702.49c",
    "yuriko, the tiger's shadow": "702.49d 702.49a",
    "atraxa, praetors' voice": "701.34a",
    "thrasios, triton hero": "702.124h 702.124c",
    "command beacon": "903.8 903.9",
    # --- Combat (506-510) ---
    "lure": "509.1c 509.1a",
    "propaganda": "508.1h 508.1j 508.1d",
    "ghostly prison": "508.1h 508.1j",
    "norn's annex": "508.1h 508.1j",
    "ensnaring bridge": "508.1c",
    "moat": "508.1c",
    "silent arbiter": "508.1c 509.1b",
    "crawlspace": "508.1c",
    "maze of ith": "506.4b 615.1a",
    "hero of bladehold": "508.4 508.3a 506.3",
    "geist of saint traft": "508.4 506.3",
    # --- Cards the rules name (the answer is that one rule) ---
    "exchange of words": "612.5 701.12h",
    "volrath's shapeshifter": "612.6 707.2",
    "drain power": "106.13 106.4",
    "golgothian sylex": "206.3b",
    "city in a bottle": "206.3a",
    "garth one-eye": "707.13 707.12",
    "magar of the magic strings": "707.14 707.12",
    "power play": "103.1c 103.1",
    "circling vultures": "116.2e",
    "cryptic spires": "207.5",
    # --- Life (119), turn structure (502), hand and opening hand ---
    "sulfuric vortex": "119.7",
    "erebos, god of the dead": "119.7",
    "platinum emperion": "119.7 119.8",
    "tree of redemption": "701.12g 119.5",
    "mirror universe": "701.12c 119.7",
    "winter orb": "502.3",
    "stasis": "614.10 502.3",
    "seedborn muse": "502.3",
    "reliquary tower": "402.2 514.1",
    "serum powder": "103.5",
    "gemstone caverns": "103.6a",
    "chancellor of the annex": "103.6b",
    "relentless rats": "100.2a",
    "dryad arbor": "305.9 302.6 205.3c",
    "exploration": "305.2 305.2a",
    "azusa, lost but seeking": "305.2 305.2a",
    "the chain veil": "606.3",
    "oath of teferi": "606.3",
    "vampire hexmage": "704.5i 122.1e",
    "queen marchesa": "725.1 725.3",
    "white plume adventurer": "726.1 726.3",
}

#: Card name (lowercase, as printed, straight apostrophes) -> rule ids, best first.
RULES_CARDS: dict[str, tuple[str, ...]] = {name: tuple(ids.split()) for name, ids in _TABLE.items()}

#: What players call some cards instead of their names.
ALIASES: dict[str, str] = {
    "o-ring": "oblivion ring",
    "goyf": "tarmogoyf",
    "thoracle": "thassa's oracle",
    "lab man": "laboratory maniac",
    "labman": "laboratory maniac",
    "tnn": "true-name nemesis",
    "tef pro": "teferi's protection",
    "kiki": "kiki-jiki, mirror breaker",
    "ballista": "walking ballista",
    "hexmage": "vampire hexmage",
    "finks": "kitchen finks",
    "wurmcoil": "wurmcoil engine",
    "blightsteel": "blightsteel colossus",
    "resonator": "strionic resonator",
    "needle": "pithing needle",
    "lattice": "mycosynth lattice",
    "chain veil": "the chain veil",
    "aetherflux": "aetherflux reservoir",
    "citadel": "bolas's citadel",
    "bowmasters": "orcish bowmasters",
    "metamorph": "phyrexian metamorph",
    "resto": "restoration angel",
    "fow": "force of will",
}

#: Short names (the part before a comma) left out: ordinary words, or names
#: many printed cards share ("Teferi", "Jace"), so typed alone they don't say
#: which card is meant.
AMBIGUOUS_SHORT = frozenset([
    "tomorrow", "teferi", "jace", "heliod", "narset", "omnath", "erebos", "gisela", "linvala",
    "aurelia", "oko", "atraxa", "thalia", "elesh norn", "emrakul", "vorinclex", "mikaeus",
])
#: Aliases and single-word card names that are ordinary English or rules words:
#: ``cards_in`` finds them only when the question capitalises them.
PLAIN_WORDS = frozenset([
    "abundance", "disallow", "donate", "eureka", "exploration", "fling",
    "fork", "lure", "moat", "necromancy", "oubliette", "pariah", "propaganda",
    "rancor", "stasis", "stifle", "terminus", "threaten", "treachery", "upwelling",
    "vesuva", "worship", "citadel", "resto", "kiki", "metamorph", "needle", "lattice",
])


def _key(name: str) -> str:
    """A typed name as the table compares it: folded words, one space apart."""
    return " ".join(words(name))


def _index() -> dict[str, str]:
    """Every accepted spelling (folded) -> the table's name."""
    full = {_key(n): n for n in RULES_CARDS}
    short: dict[str, list[str]] = {}
    for name in RULES_CARDS:
        head, comma, _ = name.partition(",")
        if comma and _key(head) not in full and _key(head) not in AMBIGUOUS_SHORT:
            short.setdefault(_key(head), []).append(name)
    index = {k: v[0] for k, v in short.items() if len(v) == 1}  # ambiguous shorts dropped
    index.update({_key(a): n for a, n in ALIASES.items()})
    index.update(full)
    return index


_INDEX = _index()
_LONGEST = max(len(k.split()) for k in _INDEX)


def _lookup(folded: str) -> str | None:
    """The table name for a folded name, trying it without a possessive "'s"."""
    if folded in _INDEX:
        return _INDEX[folded]
    if folded.endswith("'s") and folded[:-2] in _INDEX:
        return _INDEX[folded[:-2]]
    return None


def rules_of(names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """For card names typed in a question (any case, curly or straight apostrophes,
    with or without the part after a comma, "Garruk, Unleashed" vs "Garruk"), the
    (name, rule ids) of those in the table, in the order given, each once."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for typed in names:
        name = _lookup(_key(typed))
        if name is not None and all(name != n for n, _ in found):
            found.append((name, RULES_CARDS[name]))
    return found


_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def cards_in(question: str) -> list[str]:
    """The table's cards named in a free-text question, longest name first at each
    word; a name that is also an ordinary word counts only when capitalised."""
    tokens = _TOKEN.findall(question)
    folded = [fold(t) for t in tokens]
    found: list[str] = []
    i = 0
    while i < len(tokens):
        for n in range(min(_LONGEST, len(tokens) - i), 0, -1):
            typed = " ".join(folded[i:i + n])
            name = _lookup(typed)
            if name is None:
                continue
            bare = typed[:-2] if typed.endswith("'s") and typed not in _INDEX else typed
            if n == 1 and bare in PLAIN_WORDS and not tokens[i][:1].isupper():
                continue
            if name not in found:
                found.append(name)
            i += n - 1
            break
        i += 1
    return found


def table() -> dict[str, object]:
    """The matching data as plain JSON-able values, for the site's search
    (which ports ``cards_in``): every accepted spelling, the plain-word
    names, the rules of each card and the longest name in words."""
    # A name that is its own spelling is found in "rules": "index" holds the rest.
    return {"index": {k: n for k, n in sorted(_INDEX.items()) if k != n},
            "plain": sorted(PLAIN_WORDS),
            "rules": {n: list(r) for n, r in sorted(RULES_CARDS.items())}, "longest": _LONGEST}
