"""What the BattleScribe importer assigns that the reference data does not say (CAT-D1).

The Confrontation C5 BattleScribe files give characteristics, abilities and costs but
no Rag'Narok 2 rank, size or role.  The importer (``importer.py``) fills these in
from the rules below, which are kept here as plain tables so a reader can check
and correct them one by one.  Every field filled from these tables is listed in the
profile's ``assigned`` list and shown by ``armybuilder catalog check``.

Order of precedence, highest first:

1. ``OVERRIDES``: per-profile decisions, each with its reason (the seeds' explicit
   mentions, e.g. FAQ sizes, and obvious misprints of the reference data);
2. name patterns (``SIZE_PATTERNS``, ``CREATURE_PATTERNS`` ...);
3. abilities and characteristics (Leadership/X, Scout, War horse, artillery ...);
4. cost bands (``TROOP_RANK_BANDS``, ``CHARACTER_RANK_BANDS``).
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- sources

#: BattleScribe catalogue name → people id (/work/briefs/ids.md).
PEOPLE_BY_CATALOGUE: dict[str, str] = {
    "Alahan Lions [C5]": "alahan",
    "Akkylannie Griffins [C5]": "akkylannie",
    "Acheron Undeads [C5]": "acheron",
    "Tir-Na-Bor Dwarves [C5]": "tir-na-bor",
    "Dirz Alchemists [C5]": "syharhalna",
    "Daikinee Elves [C5]": "quithayran",
    "Kelt Sessair [C5]": "avagddu",
    "Kelt Drunes [C5]": "caer-maed",
    "Mid-Nor Dwarves [C5]": "abyss",
}

#: Catalogue holding the miracles.
MIRACLES_CATALOGUE = "A-Miracles"

#: Catalogues the importer reads without producing a file (spells are Confrontation
#: spells, not Rag'Narok 2 rituals).
IGNORED_CATALOGUES = frozenset({"A-Spells"})

# --------------------------------------------------------------------------- abilities

#: Misspellings and synonyms of the reference data → the ability id (slug of the
#: seed's name).  Keys and values are slugs.
ABILITY_ALIASES: dict[str, str] = {
    "harrassment": "harassment",
    "fanaticis": "fanaticism",
    "leardership": "leadership",
    "leaving-dead": "living-dead",
    "liivng-dead": "living-dead",
    "counter-atack": "counter-attack",
    "counterattack": "counter-attack",
    "cunter-attack": "counter-attack",
    "conciousness": "consciousness",
    "consciposiness": "consciousness",
    "cosciusiness": "consciousness",
    "rightous": "righteous",
    "war-futy": "war-fury",
    "war-mage": "warrior-mage",
    "survivial-instinct": "survival-instinct",
    "survivial-istinct": "survival-instinct",
    "reregeration": "regeneration",
    "fegeneration": "regeneration",
    "mutgenic": "mutagenic",
    "paria": "pariah",
    "exhalted": "exalted",
    "autority": "authority",
    "way-cry": "war-cry",
    "chargin-str": "charging-str",
    "charging-strenght": "charging-str",
    "ferocius": "ferocious",
    "mercenaire": "mercenary",
    "possesse": "possessed",
    "large-size": "large",
    "bull-s-eye": "bulls-eye",
    "martir": "martyr",
    "thaumaturgist": "thaumaturge",  # the mystics seed's name
    "recovery": "recuperation",  # mana recovery: Recuperation/X in the mystics seed
    "enlightened": "illuminated",  # same skill, the mystics seed's name
    "light-arthillery": "light-artillery",
    "light-perforating-artillery": "perforating-light-artillery",
}

#: Affiliation keywords printed among the abilities: they go to the note.
AFFILIATIONS: dict[str, str] = {
    "drune-clan": "belongs to the Drune clan",
    "sessair-clan": "belongs to the Sessair clan",
    "kelt-clan": "belongs to a Kelt clan",
    "fomor": "a Fomor",
    "wyrd": "a Wyrd",
}

#: Ability ids that make a piece a war machine (artillery rules, R2-D3).
ARTILLERY_ABILITIES = frozenset(
    {
        "artillery",
        "heavy-artillery",
        "heavy-zone-artillery",
        "light-artillery",
        "perforating-heavy-artillery",
        "perforating-light-artillery",
    }
)

#: Entries of the Abilities column that are not abilities but loose remarks; they go
#: to the profile's note in our words.
ABILITY_REMARKS: dict[str, str] = {
    "(+1 die in combat)": "rolls one extra combat die",
    "1 die less in h-t-h combat": "rolls one combat die less",
    "read wounds 1 level lower": "Wound results are read one level lower",
    "brutal-?": "the reference card marks Brutal as uncertain",
    "5": "",
}
#: words of a remark about the reference data rather than the game: such a remark goes to the
#: profile's data note (listed by ``catalog check``), never to the note printed on its card
DATA_REMARKS = ("the reference card", "not understood")

# --------------------------------------------------------------------------- mystics

ELEMENTS = ("air", "darkness", "earth", "fire", "light", "water")

#: Misspelt Elements of the reference data.
ELEMENT_ALIASES = {"darkenss": "darkness"}

#: Magic paths as the reference spells them → our spelling.
PATHS: dict[str, str] = {
    "affliction": "affliction",
    "biopsy": "biopsy",
    "black magic": "black-magic",
    "cabala": "cabala",
    "cartomancy": "cartomancy",
    "chtonian": "chtonian",
    "chtoninan": "chtonian",
    "circaeus": "circaeus",
    "circeus": "circaeus",
    "corruption": "corruption",
    "druidism": "druidism",
    "ermetism": "hermetism",
    "hermetism": "hermetism",
    "exorcism": "exorcism",
    "exhorcism": "exorcism",
    "fayry": "fayry",
    "forge": "forge",
    "lithomancy": "lithomancy",
    "necromancy": "necromancy",
    "primagy": "primagy",
    "redemption": "redemption",
    "selenism": "selenism",
    "shamanism": "shamanism",
    "shamanesim": "shamanism",
    "solaris": "solaris",
    "sorcery": "sorcery",
    "symbiosis": "symbiosis",
    "technomancy": "technomancy",
    "telluric": "telluric",
    "theurgy": "theurgy",
    "teurgy": "theurgy",
    "typhonism": "typhonism",
    "tyfonism": "typhonism",
    "typhoonism": "typhonism",
}

#: Initiation ranks of magicians (familiars allowed per rank, R2-D5).
INITIATION_RANKS = {"initiate": 1, "adept": 2, "master": 3, "virtuoso": 4}

FAITH_RANKS = ("devout", "zealot", "dean", "avatar")

#: Deities as the reference spells them → the Rag'Narok 2 cult.  The mystics seed gives
#: communions the cults Universal, Light, Destiny (and by the same token Darkness): the
#: cult of the faithful's alliance.  The deity itself goes to the profile's note.
CULTS: dict[str, tuple[str, str]] = {
    "arin": ("light", "Arin"),
    "merin": ("light", "Merin"),
    "danu": ("light", "Danu"),
    "salauel": ("darkness", "Salauel"),
    "arh-tolth": ("darkness", "Arh-Tolth"),
    "mid-nor": ("darkness", "Mid-Nor"),
    "cernunnos": ("darkness", "Cernunnos"),
    "odnir": ("destiny", "Odnir"),
    "earthe": ("destiny", "Earthe"),
}


# --------------------------------------------------------------------------- sizes

#: Default size of a people's fighters (FAQ III: dwarves are Small).
PEOPLE_SIZE = {"tir-na-bor": "small", "abyss": "small"}

#: Name fragments (lower case, whole words) → size; first match wins.
#: FAQ III lists Wolfen, centaurs, elementals, sons of Uren, minotaurs, tigers of Dirz,
#: trolls as Large, Belial and dragons as Very Large; CAT-D1 adds brontops riders.
SIZE_PATTERNS: list[tuple[str, str]] = [
    (r"dragon|belial|alchemical colossus|demon tower", "enormous"),
    (
        r"wolfen|centaur|cerberus|minotaur|troll|tiger of dirz|tiger of shamir|elemental|"
        r"moloch|golem|briareos|cyclops|hydra|hound of scathach|fomor fiend|"
        r"gylfa's son|uren's son|son of uren|great skull|brontops|marauder of vile-tis|"
        r"scavenger|black wolf|dasyatis|sophet drahas|gargoyle",
        "large",
    ),
    (
        r"mounted|rider|on razorback|on assault razorback|knight of redemption|errant knight",
        "large",
    ),
    (r"familiar|goblin|battle toad|\bdwarf\b|dwarven", "small"),
]

#: Abilities of cavalry (FAQ III: any cavalry model is Large).
MOUNT_ABILITIES = frozenset({"war-horse", "war-steed", "large"})

#: Ground MOV from which a fighter of a people of this default size is taken to be
#: mounted, hence Large (foot dwarves move 7.5 cm, foot humans 10 to 12.5 cm).
MOUNTED_MOV = {"small": 15, "medium": 17.5}

# --------------------------------------------------------------------------- ranks

#: Non-Character troops: (lowest cost, rank).  The highest band reached wins.
TROOP_RANK_BANDS: list[tuple[int, str]] = [
    (0, "regular"),
    (14, "veteran"),
    (25, "elite"),
    (45, "special"),
]

#: Characters: (lowest cost, rank).
CHARACTER_RANK_BANDS: list[tuple[int, str]] = [
    (0, "veteran"),
    (40, "elite"),
    (120, "living-legend"),
]

#: Troops of these kinds are Creatures (support): beasts without riders.
CREATURE_PATTERNS = r"molosser|hound|cerberus|gargoyle|scarab|black wolf|briareos|^razorback"

#: Abilities of skirmishers and hired swords: their troops are Irregular (support).
IRREGULAR_ABILITIES = frozenset({"scout", "harassment", "mercenary", "infiltration"})

#: Rank of pieces with artillery rules (they count as support whatever their rank).
WAR_MACHINE_RANK = "special"

# --------------------------------------------------------------------------- roles

MUSICIAN_PATTERN = r"musician|organist|drummer|horn ?blower"
STANDARD_PATTERN = (
    r"standard[- ]bearer|icon bearer|banner bearer|totem bearer|gallow bearer|oriflamme"
)
FAMILIAR_PATTERN = r"familiar"

# --------------------------------------------------------------------------- overrides

#: Per-profile decisions: profile id → (field → value, reason).  The reason goes to the
#: profile's note; the field goes to ``assigned``.
OVERRIDES: dict[str, tuple[dict[str, object], str]] = {
    "alahan-agonn-the-ardent": (
        {"mov": 10},
        "the reference prints MOV 1, a misprint for 10 (his second card has 10)",
    ),
    "alahan-meliador-the-celestial": (
        {"mov": 10},
        "the reference prints MOV 1, a misprint for 10 (his second card has 10)",
    ),
    "alahan-standard-bearer-of-alahan": (
        {"mov": 10},
        "the reference prints MOV 1, a misprint for 10 like every foot fighter of Alahan",
    ),
    "alahan-dragan-d-orianthe": (
        {"mov": 20},
        "the reference prints MOV 2, a misprint for 20 (he rides a war horse)",
    ),
    "syharhalna-dawn-warrior": (
        {"mov": 10},
        "the reference prints MOV 1, a misprint for 10 like every foot fighter of Syharhalna",
    ),
    "syharhalna-dirz-halberdier": (
        {"mov": 10},
        "the reference prints MOV 1, a misprint for 10 like every foot fighter of Syharhalna",
    ),
    "akkylannie-eschelius-the-ardent": (
        {"elements": ["fire"], "path": "exorcism"},
        "the reference says only 'Adept/special'; Fire and Exorcism assigned, as for the "
        "Griffin's other inquisitor magicians (darkness hunters, Celeas Mundi)",
    ),
    "caer-maed-soul-snatcher": (
        {"elements": ["darkness"]},
        "the reference says 'Special Initiate/Affliction'; Darkness assigned, as Tyramon casts "
        "Affliction with Darkness and Fire",
    ),
    "alahan-agent-of-the-chimera": (
        {"mov": 10},
        "the reference prints MOV '1-', a misprint for 10 like every foot fighter of Alahan",
    ),
    "akkylannie-griffin-conscript": (
        {"size": "medium"},
        "CAT-D1: Griffin conscripts have Power 1 (generic rules, Power example)",
    ),
    "tir-na-bor-elghir-the-resolute": (
        {"size": "small"},
        "FAQ III: Elghir is Small even on his cauldron",
    ),
    "acheron-melmoth-crane-warrior": ({"size": "medium"}, "FAQ III: Melmoth is of Normal size"),
    "acheron-melmoth-crane-warrior-2nd": ({"size": "medium"}, "FAQ III: Melmoth is of Normal size"),
    "acheron-alderan-crane-warrior": ({"size": "medium"}, "FAQ III: Alderan is of Normal size"),
    "acheron-sophet-drahas": ({"size": "large"}, "FAQ III: Sophet Drahas is Large"),
    "syharhalna-sasia-samaris-foot-2nd": (
        {"size": "medium"},
        "FAQ III: Sasia Samaris is of Normal size",
    ),
    "alahan-the-red-lioness-2nd-foot": (
        {"cost": 80},
        "the reference gives this card no cost; 80 A.P. assigned (her first card, 70, plus the "
        "difference between the first and second cards of Agonn and Misan, about 10)",
    ),
    "alahan-the-red-lioness-2nd-mounted": (
        {"cost": 95},
        "the reference gives this card no cost; 95 A.P. assigned (her foot card, 80, plus a war steed)",
    ),
}


def matches(pattern: str, name: str) -> bool:
    """Case-insensitive search of a name pattern (patterns are documented above)."""
    return re.search(pattern, name.lower()) is not None


# --------------------------------------------------------------------------- miracles

#: The cult of the Meanders of Darkness (the reference's "[Vie] Darkness" miracles; the
#: Acheron and Dirz miracles are darkness miracles too, their people named in the text).
DARKNESS_CULTS = ["darkness"]

#: The reference miracles are in Italian with Italian descriptions.  For each one:
#: an English name, the cults that may call it, and a one-line summary written by
#: this project (never the reference text).  ``fervor``/``difficulty`` are set here
#: only where the card leaves the field empty or explains it in prose.
MIRACLES: dict[str, dict[str, object]] = {
    "Onore dei Paladini Neri": {
        "name": "Honour of the Black Paladins",
        "cults": DARKNESS_CULTS,
        "text": "Acheron: a miracle of Kain the scourge; the reference card gives no figures, so it "
        "costs the default 2 points of the litany budget (R2-D8).",
    },
    "Lame oscure": {
        "name": "Dark Blades",
        "cults": ["darkness"],
        "text": "Syharhalna: a friendly vicar or Belisarius trades Counter-attack for Ambidextrous, gains a Toxic die, "
        "or adds 4 to its Master strike.",
    },
    "Catena Sepolcrale": {
        "name": "Sepulchral Chain",
        "cults": ["darkness"],
        "fervor": 1,
        "text": "Acheron (gravediggers): the next fighter killed in the faith aura rises as a zombie whose kind follows its size; "
        "the miracle ends once the zombie is made.",
    },
    "Invocazione dell'Ira Tenebrae": {
        "name": "Call of the Ira Tenebrae",
        "cults": DARKNESS_CULTS,
        "text": "Summons an Ira Tenebrae within 10 cm; may be called as many times a round as the faithful's rank.",
    },
    "Sangue degli Abissi": {
        "name": "Blood of the Abyss",
        "cults": DARKNESS_CULTS,
        "difficulty": "target's RES - 1 (at most 9)",
        "text": "The target gains Regeneration/5, or rolls one extra die on its first regeneration roll "
        "of the round if it already regenerates on 5 or better.",
    },
    "Forza delle Tenebre": {
        "name": "Strength of Darkness",
        "cults": DARKNESS_CULTS,
        "difficulty": "chosen Fervor + 4",
        "text": "The target gains STR equal to 1 + the chosen Fervor (at most +5); kept from round to round "
        "for 2 T.F.",
    },
    "Occhio delle tenebre": {
        "name": "Eye of Darkness",
        "cults": DARKNESS_CULTS,
        "text": "The faithful needs no line of sight to the targets of its miracles until the end of the round; "
        "kept for 2 T.F. a round.",
    },
    "Ombra Inafferrabile": {
        "name": "Elusive Shadow",
        "cults": DARKNESS_CULTS,
        "text": "+6 to the faithful's disengagement roll, or, free of enemies, a 10 cm shift ignoring obstacles.",
    },
    "Armi sanguinarie": {
        "name": "Bloodthirsty Weapons",
        "cults": DARKNESS_CULTS,
        "difficulty": "target's STR",
        "text": "The target heals a wound whenever one of its melee Wound rolls inflicts 2 wounds or more (1 with "
        "black weapons), at most 2 a round.",
    },
    "Risveglio del demone": {
        "name": "Awakening of the Demon",
        "cults": ["darkness"],
        "difficulty": "chosen Fervor (1 to 5) + 3",
        "text": "Acheron: the faithful gains the chosen Fervor + 1 bonus points to share among its characteristics "
        "as with Mutagenic/0.",
    },
    "Maleficio di Salauel": {
        "name": "Curse of Salauel",
        "cults": ["darkness"],
        "difficulty": "an even number chosen by the caller",
        "text": "Acheron: a friendly Living-dead adds half the chosen difficulty to the STR of its next Wound roll; "
        "an exceptional wound deals 2 more.",
    },
    "Proroga Miracolosa": {
        "name": "Miraculous Reprieve",
        "cults": ["universal"],
        "text": "Heals one Wound level of the target; Fervor 2, 3 or 4 after its wounds; may be called at the "
        "end of the activation phase.",
    },
    "Versetti della rapidita`": {
        "name": "Verses of Swiftness",
        "cults": ["universal"],
        "difficulty": "the higher of the target's STR and its ranged weapon's STR, +1 above 35 A.P.",
        "text": "The target gains Implacable/1 (or +1 to it); a shooter may turn these points into up to "
        "2 extra shots.",
    },
    "Stretta di Arh Tolth": {
        "name": "Grip of Arh-Tolth",
        "cults": ["darkness"],
        "text": "Syharhalna: the target suffers a wound and can no longer shoot, but gains +2 STR and Fierce for the "
        "rest of the game.",
    },
    "Tunica di sangue": {
        "name": "Robe of Blood",
        "cults": ["darkness"],
        "text": "Syharhalna: a friendly Regular with Mutagenic/X gains +3 STR and RES for the game, loses 1 Mutagenic "
        "and no longer places defence dice.",
    },
}
