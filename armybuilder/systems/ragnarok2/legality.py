"""Rag'Narok 2 legality predicates shared by the validator and the editor's pickers.

Each function answers "why may this not go there?" with a sentence, or "" when it
may.  The rules (rules.py) turn a non-empty answer into a finding; the editor
(editing.py) hides the choice or greys it out with the same sentence.  Keeping one
copy means a picker can never offer what the validator then rejects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from armybuilder.core.checks import a_or_an

from .counting import is_commander, profile, slot_of

if TYPE_CHECKING:  # the predicates read the models or their plain mirrors alike
    from armybuilder.core.catalog import Catalogue

    from .army import R2List, Unit
    from .catalog import Communion, Miracle, Profile, R2Catalog, Ritual

SLOT_NAMES = {
    "commander": "commander",
    "musician": "musician",
    "standard-bearer": "standard bearer",
    "independent": "other independent",
}


def _data(cat: Catalogue) -> R2Catalog:
    return cat.data


def people_name(cat: Catalogue, people_id: str) -> str:
    people = cat.get("peoples", people_id)
    return people.name if people is not None else people_id


def lore_word(word: str | None) -> str:
    """A path, cult, Element or faith rank as a player reads it: the profiles store them as
    lower-case ids ("black-magic", "darkness"), the books print "Black magic", "Darkness"."""
    return (word or "-").replace("-", " ").capitalize()


def is_independent_profile(p: Profile) -> bool:
    """Profiles that may stand beside a unit's troops rather than be troops themselves."""
    return any(
        p.has_role(r)
        for r in (
            "character",
            "commander",
            "musician",
            "standard-bearer",
            "independent",
            "leader",
            "magician",
            "faithful",
            "familiar",
        )
    )


def member_slot(cat: Catalogue, p: Profile) -> str:
    """The limited place a member takes in its unit, or "character" (no limit).

    R2-D5 clarified: a commander counts against the one-commander limit whether or
    not it is a Character, so a Character commander takes the "commander" place.
    """
    for r in _data(cat).restrictions:
        if r.slot and r.match.lower() in p.name.lower():
            return r.slot
    if p.has_role("character") and is_commander(p):
        return "commander"
    return slot_of(p)


def troop_only(p: Profile) -> str:
    """Why a magician or faithful that is not a Character never joins another unit (R2-D5)."""
    if p.has_role("character"):
        return ""
    for role, noun in (("magician", "magician"), ("faithful", "faithful")):
        if p.has_role(role):
            return (
                f"{p.name} is {a_or_an(noun)} but not a Character: it is a troop and forms a unit of its "
                "own profile, never a member of another unit"
            )
    return ""


def unit_people(cat: Catalogue, army: R2List, unit: Unit) -> str:
    """The people of a unit: its troops', else its first member's, else the army's."""
    for pid in ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]:
        p = profile(cat, pid)
        if p is not None:
            return p.people
    return army.people


def rank_category(cat: Catalogue, p: Profile) -> int:
    rank = cat.get("ranks", p.rank)
    return rank.category if rank is not None else 1


def rank_refusal(cat: Catalogue, unit: Unit, p: Profile, leader: bool = False, label: str = "this unit") -> str:
    """A Character or leader joins only units of equal or lower rank category (R2-D5)."""
    troop = profile(cat, unit.troops.profile) if unit.troops else None
    if troop is None or not (p.has_role("character") or leader):
        return ""
    if p.has_role("warrior-mage") or p.has_role("warrior-monk"):
        return ""
    mine, theirs = rank_category(cat, p), rank_category(cat, troop)
    if theirs > mine:
        return (
            f"{p.name} (rank category {mine}) cannot join {label} whose troops are of rank category {theirs}: a "
            f"Character or leader joins only units of rank category {mine} or lower"
        )
    return ""


def slots_taken(cat: Catalogue, unit: Unit, skip: int | None = None) -> Counter[str]:
    """How many members of the unit fill each limited place (``skip``: a member index left out)."""
    taken: Counter[str] = Counter()
    for mi, m in enumerate(unit.members):
        p = profile(cat, m.profile)
        if mi == skip or p is None or not is_independent_profile(p):
            continue
        taken[member_slot(cat, p)] += 1
    return taken


def member_refusal(cat: Catalogue, army: R2List, unit: Unit, p: Profile) -> str:
    """Why ``p`` may not be added to ``unit`` as a member ("" when it may)."""
    people = unit_people(cat, army, unit)
    if (unit.troops or unit.members) and p.people != people:
        return f"{p.name} belongs to {people_name(cat, p.people)}; the unit is of {people_name(cat, people)}"
    if not is_independent_profile(p):
        return f"{p.name} is a troop profile: add it as a unit of its own"
    why = troop_only(p)
    if why:
        return why
    slot = member_slot(cat, p)
    if slot != "character" and slots_taken(cat, unit)[slot] >= 1:
        return f"the unit already has a {SLOT_NAMES[slot]} (one per unit)"
    why = rank_refusal(cat, unit, p)
    if why:
        return why
    if p.has_role("character") and any(
        m.profile == p.id for u in army.units for m in u.members
    ):
        return f"{p.name} is already in the army (a Character is unique)"
    return ""


def cult_matches(cult: str | None, wanted: str) -> bool:
    return wanted.lower() == "universal" or (cult or "").lower() == wanted.lower()


def miracle_refusal(p: Profile, miracle: Miracle) -> str:
    """Why the faithful ``p`` cannot call ``miracle`` (R2-D8)."""
    if not (p.has_role("faithful") and p.has_role("character")):
        return f"only a Character faithful holds miracles; {p.name} is not one"
    if miracle.cults and not any(cult_matches(p.cult, c) for c in miracle.cults):
        cults = ", ".join(lore_word(c) for c in miracle.cults)
        return f"{miracle.name} belongs to the cult{'s' if len(miracle.cults) > 1 else ''} {cults}; {p.name} follows {lore_word(p.cult) if p.cult else 'no cult'}"
    if miracle.aspects and p.aspects is not None:
        if all(getattr(p.aspects, a.lower(), 0) < 1 for a in miracle.aspects):
            return f"{miracle.name} needs the {' or '.join(miracle.aspects)} Aspect; {p.name} has none"
    return ""


def communion_refusal(faithful: Iterable[Profile], communion: Communion) -> str:
    """Why no faithful of the army can call ``communion`` ("" when one can)."""
    for p in faithful:
        if (
            cult_matches(p.cult, communion.cult)
            and p.aspects is not None
            and any(getattr(p.aspects, a.lower(), 0) >= 1 for a in communion.aspects)
        ):
            return ""
    return (
        f"no faithful of the army can call it (cult {lore_word(communion.cult)}, Aspect "
        f"{' or '.join(communion.aspects)})"
    )


def army_faithful(cat: Catalogue, army: R2List) -> list[Profile]:
    """Every faithful profile of the army (troops and members), once per unit place."""
    out: list[Profile] = []
    for unit in army.units:
        ids = ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]
        out.extend(p for pid in ids if (p := profile(cat, pid)) is not None and p.aspects is not None)
    return out


def army_elements(cat: Catalogue, army: R2List) -> set[str]:
    """The Elements mastered by the army's magicians (lower case)."""
    elements: set[str] = set()
    for unit in army.units:
        ids = ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]
        for pid in ids:
            p = profile(cat, pid)
            if p is not None and p.has_role("magician"):
                elements.update(e.lower() for e in p.elements)
    return elements


def ritual_refusal(elements: set[str], ritual: Ritual) -> str:
    if ritual.element.lower() in elements:
        return ""
    return (
        f"needs a magician who masters {ritual.element}; the army's magicians master "
        f"{', '.join(sorted(elements)) or 'no Element'}"
    )


def budget_refusal(cost: int, left: int, unit: str = "A.P.") -> str:
    """Why something costing ``cost`` does not fit the ``left`` points still free."""
    if cost > left:
        return f"costs {cost} {unit}; only {max(left, 0)} {unit} left under the limit"
    return ""


# --------------------------------------------------------------------------- command and leaders


def lead_refusal(cat: Catalogue, p: Profile) -> str:
    """Why ``p`` may never lead a unit (R2-D5 and the catalogue's restrictions), "" when it may."""
    for r in _data(cat).restrictions:
        if r.can_lead is False and r.match.lower() in p.name.lower():
            return f"{r.text} ({r.source})"
    if p.has_role("standard-bearer"):
        return "standard bearers cannot lead a unit"
    if p.has_role("musician"):
        return "musicians cannot lead a unit"
    if p.has_role("construct"):
        return "constructs cannot lead a unit"
    if p.has_role("magician") and not p.has_role("warrior-mage"):
        return "magicians (other than warrior-mages) cannot lead a unit"
    if p.has_role("faithful") and not p.has_role("warrior-monk"):
        return "faithful (other than warrior-monks) cannot lead a unit"
    if p.has_role("living-dead") and p.power is None and p.aspects is None:
        return "a Living-dead fighter can lead only if it has a Power or Faith value"
    return ""


def leader_refusal(cat: Catalogue, unit: Unit, p: Profile, label: str = "this unit") -> str:
    """Why ``p``, a member of ``unit``, may not be made its leader ("" when it may)."""
    return lead_refusal(cat, p) or rank_refusal(cat, unit, p, leader=True, label=label)


def commander_refusal(cat: Catalogue, army: R2List, p: Profile) -> str:
    """Why ``p`` may not be the army's Commander-in-Chief ("" when it may; R2-D6)."""
    if not is_commander(p):
        return f"{p.name} is not a commander (no Leadership/X, or a musician or standard bearer)"
    if p.people != army.people:
        return f"{p.name} is of {people_name(cat, p.people)}, not of the army's people ({people_name(cat, army.people)})"
    return ""


def army_standard_refusal(p: Profile) -> str:
    """Why ``p`` may not be the army standard ("" when it may; R2-D6)."""
    if p.has_role("standard-bearer") and p.has_role("living-legend"):
        return ""
    return f"only a Living-legend standard bearer can be the army standard; {p.name} is not one"


def familiar_refusal(p: Profile) -> str:
    """Why ``p`` brings no familiars ("" when it may bring up to its initiation rank)."""
    if p.has_role("magician") and p.has_role("character"):
        return ""
    return f"only Character magicians bring familiars; {p.name} is not one"


# --------------------------------------------------------------------------- the litany budget


def litany_budget(cat: Catalogue, army: R2List) -> tuple[int, int]:
    """(budget, spent) of the army's litanies (R2-D8, the seed's *Buying communions and
    miracles*): the Aspects of every faithful of the army, troops counted one by one,
    against the Power of its communions and the Fervor of its miracles (2 when none is given)."""
    budget = 0
    spent = 0
    for unit in army.units:
        if unit.troops is not None and (p := profile(cat, unit.troops.profile)) is not None and p.aspects is not None:
            budget += p.aspects.total * unit.troops.count
        for m in unit.members:
            q = profile(cat, m.profile)
            if q is not None and q.aspects is not None:
                budget += q.aspects.total
            for mid in m.miracles:
                miracle = cat.get("miracles", mid)
                if miracle is not None:
                    spent += miracle.budget_cost
    for cid in army.communions:
        communion = cat.get("communions", cid)
        if communion is not None:
            spent += communion.power
    return budget, spent


def litany_refusal(cost: int, budget: int, spent: int) -> str:
    """Why a litany costing ``cost`` does not fit the budget left ("" when it does)."""
    left = budget - spent
    if cost > left:
        points = "litany point" if left == 1 else "litany points"
        aspects = "Aspect point" if budget == 1 else "Aspect points"
        return f"costs {cost}; {max(left, 0)} {points} left of the faithful's {budget} {aspects}"
    return ""
