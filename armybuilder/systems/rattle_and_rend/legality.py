"""Rattle and Rend legality predicates shared by the validator and the editor's pickers.

Each function answers "why may this not be chosen here?" with a sentence, or "" when it
may.  The rules (rules.py) read the same loads and limits; the editor (editing.py) hides
a choice or an edit that has a reason, or greys it out with that reason when the player
asks to see everything.  So a picker never offers what the validator then rejects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from armybuilder.core.checks import a_or_an, list_format, plural

from .counting import as_index, breakdown, group_cost, group_type, transport_capacity

if TYPE_CHECKING:  # the predicates read the models or their plain mirrors alike
    from .army import RRList
    from .catalog import GroupType, RRCat

#: the list field holding each secondary trait, the catalogue collection it names, its words
TRAIT_FIELDS: dict[str, tuple[str, str, str]] = {
    "champion-action": ("champion_action", "actions", "champion action"),
    "heavy-trait": ("heavy_trait", "heavy_traits", "heavy trait"),
    "warding-reaction": ("warding_reaction", "reactions", "warding reaction"),
}


def points_left(army: RRList, cat: RRCat) -> int | None:
    """Points still free under the warband's limit (None: the format is unknown)."""
    fmt = list_format(army, cat)
    return None if fmt is None else fmt.limit - breakdown(army, cat).total


def budget_refusal(cost: int, left: int | None) -> str:
    """Why something costing ``cost`` points does not fit the ``left`` points still free."""
    if left is not None and cost > left:
        return f"costs {plural(cost, 'point')}; only {plural(max(left, 0), 'point')} left under the limit"
    return ""


def carried_load(army: RRList, cat: RRCat, carrier: int) -> int:
    """Points aboard group ``carrier``: the groups it carries and the Champions attached to them."""
    groups = army.groups
    load = 0
    for gi, g in enumerate(groups):
        if as_index(g.transported_by) != carrier or gi == carrier or g.attached_to is not None:
            continue
        gt = group_type(cat, g)
        if gt is not None and gt.id == "heavy":
            continue  # a Heavy is never carried (its own rule says so)
        load += group_cost(cat, g)
        load += sum(group_cost(cat, c) for ci, c in enumerate(groups) if c.attached_to == gi and ci != gi)
    return load


def carrier_refusal(army: RRList, cat: RRCat, index: int, carrier: int) -> str:
    """Why group ``index`` may not start inside group ``carrier`` ("" when it may)."""
    capacity = transport_capacity(army, cat, carrier)
    if capacity == 0:
        return "carries no groups (only a Heavy with the Transport trait, or any Heavy of a Riders warband)"
    g = army.groups[index]
    gt = group_type(cat, g)
    if gt is not None and gt.id == "heavy":
        return "a Heavy cannot be carried"
    aboard = carried_load(army, cat, carrier)
    if as_index(g.transported_by) == carrier:
        return ""
    own = group_cost(cat, g) + sum(group_cost(cat, c) for ci, c in enumerate(army.groups) if c.attached_to == index and ci != index)
    if aboard + own > capacity:
        return f"holds {plural(capacity, 'point')} and carries {aboard} already; this group needs {own}"
    return ""


def attach_refusal(army: RRList, cat: RRCat, index: int, target: int) -> str:
    """Why group ``index`` may not be attached to group ``target`` ("" when it may)."""
    carrier = as_index(army.groups[target].transported_by)
    if carrier is None or as_index(army.groups[index].transported_by) == carrier:
        return ""
    capacity = transport_capacity(army, cat, carrier)
    aboard = carried_load(army, cat, carrier)
    cost = group_cost(cat, army.groups[index])
    if capacity and aboard + cost > capacity:
        return f"that group rides in a transport holding {plural(capacity, 'point')}, {aboard} aboard already"
    return ""


def trait_refusal(army: RRList, wanted: int, trait: str) -> str:
    """Why the warband trait ``trait`` may not be added ("" when it may)."""
    if trait in army.traits:
        return "chosen already"
    if len(set(army.traits)) >= wanted:
        return f"the warband has its {plural(wanted, 'trait')} already: remove one first"
    return ""


def type_refusal(army: RRList, cat: RRCat, index: int, gt: GroupType) -> str:
    """Why group ``index`` may not become a group of type ``gt`` ("" when it may)."""
    g = army.groups[index]
    if gt.id == g.type:
        return ""
    if gt.trait is not None:
        fld, _, words = TRAIT_FIELDS[gt.trait]
        if getattr(g, fld) is None:
            return f"{a_or_an(gt.name)} takes its {words}: add a new {gt.name} (which asks for it) instead"
    return budget_refusal(gt.cost - group_cost(cat, g), points_left(army, cat))
