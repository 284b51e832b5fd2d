"""The data files ``armybuilder catalog new morpheus-ragnarok`` writes: a commented warrior
type and a piece of equipment in this system's schema (catalog.py), which a player
overwrites with the figures of their own cards (a war clan of their own kind of warriors)."""

from __future__ import annotations

from typing import Any

WARRIORS = """\
# Warrior types of a house catalogue: one entry per card. Copy each figure from the card;
# the comments say which field is which. Check with: armybuilder catalog check {folder}
# Ids are lower-case words joined by hyphens, never a bundled id (catalog show lists them).
# Delete the example entry once yours are written.
warriors:
  - id: example-warrior
    name: Example warrior         # the card's name
    cost: 50                      # Glory
    ap: 2                         # AP, action points
    sp: 5                         # SP, speed (inches)
    ma: 2                         # MA, melee attack
    ra: 1                         # RA, ranged attack
    df: 2                         # DF, defence
    rs: 1                         # RS, resilience
    dr: 2                         # DR, drive
    mn: 2                         # MN, mind
    hp: 2                         # HP, hit points
    size: 2                       # base size (2 for a man)
    jarl: false                   # true: may lead the clan as its Jarl
    # max_per_clan: 2             # at most this many in one clan
    abilities: []                 # glossary ids, values after slashes: [savage, tactician/12]
    source: "card: Example warrior"
"""

EQUIPMENT = """\
# Equipment a house catalogue adds (leave the lists empty when the cards use only the
# bundled equipment). Weapons: st (strength), range (ML melee, MR reach, or inches), kind.
weapons: []
#  - id: example-bearded-axe
#    name: Bearded axe
#    cost: 15
#    st: 2
#    range: ML
#    kind: melee
#    abilities: []
#    source: "card: Bearded axe"
abilities: []
#  - id: oath-bound
#    name: Oath-bound
#    kind: special
#    text: "What the ability does, in a sentence of your own."
#    source: "card: Example warrior"
"""


def people_choices(cat: Any) -> dict[str, str]:
    """One faction: the war clan (a house catalogue adds kinds of warriors to it)."""
    return {"war-clan": "War Clan"}


def files(cat: Any, people: str, folder: str) -> dict[str, str]:
    return {"warriors.yaml": WARRIORS.format(folder=folder), "equipment.yaml": EQUIPMENT}
