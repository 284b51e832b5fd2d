"""The data files ``armybuilder catalog new ragnarok2 --people P`` writes: a commented
profile for each kind of fighter a people's cards show, in this system's schema
(catalog.py), which a player overwrites with the figures of their own cards."""

from __future__ import annotations

from typing import Any

PROFILES = """\
# Profiles of {people_name} ({people}): one entry per card. Copy each figure from the card;
# the comments say which field is which. Check with: armybuilder catalog check {folder}
# Ids are lower-case words joined by hyphens; begin them with the people ("{people}-...")
# so they never meet a bundled id. Delete the example entries once yours are written.
profiles:
  # A trooper: the fighters a unit is made of.
  - id: {people}-example-warrior
    name: Example warrior               # the card's name
    people: {people}                    # the people id (armybuilder catalog show ragnarok2 lists them)
    rank: regular                       # irregular, regular, veteran, creature, elite, special, living-legend, major-ally
    size: medium                        # small, medium, large, enormous, colossal, gigantic
    roles: []                           # marksman, musician, standard-bearer, character, commander, leader, magician, faithful...
    cost: 10                            # A.P. per fighter
    mov: 10                             # MOV in cm (half steps allowed: 12.5)
    ini: 2                              # INI
    att: 3                              # ATT
    str: 4                              # STR
    def: 3                              # DEF
    res: 4                              # RES
    cou: 4                              # COU (a fighter with FEAR writes fear: instead)
    dis: 2                              # DIS
    abilities: []                       # glossary ids, a value after a slash: [bravery, leadership/10]
    source: "card: Example warrior"     # where the figures come from
  # A shooter: AIM and a ranged weapon (strength, then short / medium / long range in cm).
  - id: {people}-example-archer
    name: Example archer
    people: {people}
    rank: regular
    size: medium
    roles: [marksman]
    cost: 12
    mov: 10
    ini: 2
    att: 2
    str: 3
    def: 2
    res: 4
    aim: 3                              # AIM
    cou: 3
    dis: 2
    ranged: {{name: Bow, strength: 4, short: 10, medium: 20, long: 30}}
    source: "card: Example archer"
  # A Character who may lead the army: roles and Leadership.
  - id: {people}-example-chief
    name: Example chief
    people: {people}
    rank: elite
    size: medium
    roles: [character, commander, leader]
    cost: 40
    mov: 10
    ini: 4
    att: 5
    str: 6
    def: 4
    res: 6
    fear: 6                             # FEAR (in place of COU)
    dis: 4
    abilities: [leadership/10]
    source: "card: Example chief"
  # A magician has power:, elements: [fire], path: and initiation_rank: (1 initiate .. 4 virtuoso);
  # a faithful has aspects: {{alteration: 1, creation: 1, destruction: 0}}, cult: and faith_rank: (devout...).
"""

GLOSSARY = """\
# Abilities and miracles the bundled catalogue lacks, in your own words (a short summary and
# where it comes from). Leave the lists empty when the cards use only the bundled glossary.
abilities: []
#  - id: moon-fury
#    name: Moon fury
#    text: "What the ability does, in a sentence of your own."
#    source: "card: Pack chieftain"
miracles: []
#  - id: howl-of-yllia
#    name: Howl of Yllia
#    cults: [destiny]
#    fervor: 2
#    aspects: [creation]
#    difficulty: '6'
#    text: "What the miracle does, in a sentence of your own."
#    source: "card: Howl of Yllia"
"""


def people_choices(cat: Any) -> dict[str, str]:
    """Every people of the catalogue (those without bundled profiles too): id → name."""
    return {p.id: p.name for p in cat.data.peoples}


def files(cat: Any, people: str, folder: str) -> dict[str, str]:
    """{file name: text} of the skeleton for ``people`` (a people id of ``cat``)."""
    names = people_choices(cat)
    values = {"people": people, "people_name": names.get(people, people), "folder": folder}
    return {"profiles.yaml": PROFILES.format(**values), "glossary.yaml": GLOSSARY}
