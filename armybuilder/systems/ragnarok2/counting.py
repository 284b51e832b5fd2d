"""Rag'Narok 2 point counting and a member's place in its unit.

Plain functions over a list and its catalogue, read the same way from the pydantic
models (army.py, catalog.py) and from their plain mirrors (plain.py), so validation
need not import pydantic.  ``army.py`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from armybuilder.core.records import EntryRef

if TYPE_CHECKING:
    from .army import Member, R2List, Troops, Unit
    from .catalog import Profile, R2Cat

Slot = Literal["commander", "musician", "standard-bearer", "character", "independent"]


def profile(cat: R2Cat, profile_id: str) -> Profile | None:
    return cat.get("profiles", profile_id)


def slot_of(p: Profile) -> Slot:
    """The place a member fills in a unit, derived from its profile (R2-D5)."""
    if p.has_role("character"):
        return "character"
    if p.has_role("musician"):
        return "musician"
    if p.has_role("standard-bearer"):
        return "standard-bearer"
    if p.has_role("commander"):
        return "commander"
    return "independent"


def is_commander(p: Profile) -> bool:
    """A commander has Leadership/X and is neither a musician nor a standard bearer."""
    return (p.has_role("commander") or p.has_ability("leadership")) and not (
        p.has_role("musician") or p.has_role("standard-bearer")
    )


def option_cost(p: Profile, option_ids: list[str]) -> int:
    by_id = {o.id: o.cost for o in p.options}
    return sum(by_id.get(o, 0) for o in option_ids)


def troop_fighter_cost(cat: R2Cat, troops: Troops) -> int:
    p = profile(cat, troops.profile)
    return 0 if p is None else p.cost + option_cost(p, troops.options)


def member_cost(cat: R2Cat, member: Member) -> int:
    p = profile(cat, member.profile)
    if p is None:
        return 0
    return p.cost + option_cost(p, member.options) + member.familiars * cat.data.tables.familiar_cost


def unit_cost(cat: R2Cat, unit: Unit) -> int:
    total = sum(member_cost(cat, m) for m in unit.members)
    if unit.troops is not None:
        total += unit.troops.count * troop_fighter_cost(cat, unit.troops)
    return total


def effective(unit: Unit) -> int:
    """Number of fighters in the unit (troops and independents; familiars excluded)."""
    return (unit.troops.count if unit.troops else 0) + len(unit.members)


def ritual_cost(cat: R2Cat, army: R2List) -> int:
    return sum(r.power for rid in army.rituals if (r := cat.get("rituals", rid)) is not None)


@dataclass(frozen=True)
class PointsBreakdown:
    total: int
    units: int
    rituals: int
    characters: int
    war_machines: int


def is_war_machine(cat: R2Cat, p: Profile) -> bool:
    """Artillery rules, or a rank naming artillery (FAQ: such Characters count in both)."""
    rank = cat.get("ranks", p.rank)
    rank_name = rank.name if rank is not None else p.rank
    return p.has_role("war-machine") or "artillery" in rank_name.lower()


def breakdown(army: R2List, cat: R2Cat) -> PointsBreakdown:
    units = sum(unit_cost(cat, u) for u in army.units)
    rituals = ritual_cost(cat, army)
    characters = 0
    war_machines = 0
    for unit in army.units:
        if unit.troops is not None and (p := profile(cat, unit.troops.profile)) is not None:
            if is_war_machine(cat, p):
                war_machines += unit.troops.count * troop_fighter_cost(cat, unit.troops)
        for member in unit.members:
            p = profile(cat, member.profile)
            if p is None:
                continue
            cost = member_cost(cat, member)
            if p.has_role("character"):
                characters += cost
            if is_war_machine(cat, p):
                war_machines += cost
    return PointsBreakdown(units + rituals, units, rituals, characters, war_machines)


def referenced_entries(army: R2List) -> list[tuple[str, EntryRef]]:
    """Every catalogue entry the list names, with where (the protocol's ``referenced_entries``;
    the rules check each one is in the catalogue)."""
    refs: list[tuple[str, EntryRef]] = [("people", EntryRef("peoples", army.people)), ("format", EntryRef("formats", army.format))]
    for ui, unit in enumerate(army.units):
        if unit.troops is not None:
            refs.append((f"units[{ui}].troops", EntryRef("profiles", unit.troops.profile)))
        for mi, member in enumerate(unit.members):
            where = f"units[{ui}].members[{mi}]"
            refs.append((where, EntryRef("profiles", member.profile)))
            refs += [(where, EntryRef("miracles", m)) for m in member.miracles]
    for field in ("tactics", "communions", "rituals"):
        refs += [(f"{field}[{i}]", EntryRef(field, x)) for i, x in enumerate(getattr(army, field))]
    return refs
