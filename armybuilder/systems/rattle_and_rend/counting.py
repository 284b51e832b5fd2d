"""Rattle and Rend point counting, group references and the reading of names (RR-D3).

Plain functions over a warband and its catalogue, read the same way from the pydantic
models (army.py, catalog.py) and from their plain mirrors (plain.py), so validation
need not import pydantic.  ``army.py`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from armybuilder.core.checks import list_format

if TYPE_CHECKING:
    from .army import Group, RRList
    from .catalog import GroupType, RRCat, RRCatalog

#: A choice the rules want exactly one of.  A file may list several (``[a, b]``) so that
#: validation can say "2 champion actions: remove 1" instead of refusing to load it;
#: :func:`normalize` keeps the first for everything but the rules.
OneOf = str | list[str] | None


def choices_of(value: OneOf) -> list[str]:
    """The ids a one-of field holds, as a list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def group_type(cat: RRCat, group: Group) -> GroupType | None:
    return cat.get("group_types", group.type)


def group_cost(cat: RRCat, group: Group) -> int:
    gt = group_type(cat, group)
    return gt.cost if gt is not None else 0


def group_title(cat: RRCat, group: Group, index: int) -> str:
    """How a group is named in messages and rosters: its label, else its type."""
    gt = group_type(cat, group)
    kind = gt.name if gt is not None else group.type
    return f"{group.label} ({kind})" if group.label else kind


def as_index(value: int | str | None) -> int | None:
    """A group reference as an index: after :func:`normalize` names have become indexes
    (or None when nothing matched), so a name still there reads as no reference."""
    return value if isinstance(value, int) else None


def attachment_target(army: RRList, index: int) -> int | None:
    """Index of the group that group ``index`` is attached to, if that group exists."""
    target = army.groups[index].attached_to
    if not isinstance(target, int) or target == index or not 0 <= target < len(army.groups):
        return None
    return target


def counted_groups(army: RRList, cat: RRCat) -> int:
    """Groups for the 4–8 rule: an attached Champion counts with its group (RR-D1).

    Only an attachment that lands on an existing group other than itself merges;
    a broken attachment is reported by its own rule and the Champion counts alone.
    """
    merged = 0
    for i, g in enumerate(army.groups):
        gt = group_type(cat, g)
        if gt is not None and gt.can_attach and attachment_target(army, i) is not None:
            merged += 1
    return len(army.groups) - merged


@dataclass(frozen=True)
class PointsBreakdown:
    total: int
    by_type: tuple[tuple[str, int], ...]  # (group type name, points), catalogue order
    line: int  # points in the format's line types (Fighters, Shooters, Skirmishers)


def breakdown(army: RRList, cat: RRCat) -> PointsBreakdown:
    fmt = list_format(army, cat)
    line_types = set(fmt.line_types) if fmt is not None else {"fighters", "shooters", "skirmishers"}
    per: dict[str, int] = {}
    line = 0
    total = 0
    for g in army.groups:
        cost = group_cost(cat, g)
        total += cost
        per[g.type] = per.get(g.type, 0) + cost
        if g.type in line_types:
            line += cost
    names = [(gt.name, per[gt.id]) for gt in cat.data.group_types if gt.id in per]
    names += [(k, v) for k, v in per.items() if cat.get("group_types", k) is None]
    return PointsBreakdown(total, tuple(names), line)


def transport_capacity(army: RRList, cat: RRCat, index: int) -> int:
    """Points group ``index`` may carry: its heavy trait, or Riders (seed: Transport, Riders)."""
    g = army.groups[index]
    if g.type != "heavy":
        return 0
    trait = cat.get("heavy_traits", g.heavy_trait) if g.heavy_trait else None
    capacity = trait.transport if trait is not None else 0
    for tid in army.traits:
        wt = cat.get("warband_traits", tid)
        if wt is None:
            continue
        if capacity and wt.transport_trait:
            capacity = max(capacity, wt.transport_trait)
        elif wt.transport:
            capacity = max(capacity, wt.transport)
    return capacity


@dataclass(frozen=True)
class Stats:
    """A group's stats in play: its type's, changed by its heavy trait and warband traits."""

    mov: str | None
    rng: str | None
    fury: int | None
    guile: int | None
    will: int | None


def effective_stats(army: RRList, cat: RRCat, group: Group) -> Stats | None:
    """Stats with the permanent changes (Flyer/Transport MOV, Death-Defiers, Elites,
    Harriers, Fusiliers) applied; round-by-round choices (Tacticians) are not included.
    """
    from .entries import band_plus

    gt = group_type(cat, group)
    if gt is None:
        return None
    mov, rng = gt.mov, gt.rng
    values = {"fury": gt.fury, "guile": gt.guile, "will": gt.will}
    if group.heavy_trait and (trait := cat.get("heavy_traits", group.heavy_trait)) is not None and trait.mov:
        mov = trait.mov
    for tid in dict.fromkeys(army.traits):
        wt = cat.get("warband_traits", tid)
        if wt is None:
            continue
        for m in wt.stat_modifiers:
            if m.group_types and gt.id not in m.group_types:
                continue
            if m.stat == "mov":
                mov = band_plus(mov, m.delta)
            elif m.stat == "rng":
                rng = band_plus(rng, m.delta)
            elif values[m.stat] is not None:
                values[m.stat] = max(1, min(20, values[m.stat] + m.delta))
    return Stats(mov, rng, values["fury"], values["guile"], values["will"])


def find_group(army: RRList, cat: RRCat, name: str, exclude: int) -> tuple[int | None, str]:
    """The index of the group called ``name`` (its label, else its type when only one
    group other than ``exclude`` has that type) and, when none or several match, why."""
    wanted = name.strip().lower()
    if wanted.isdigit():
        return int(wanted), ""
    labelled = [i for i, g in enumerate(army.groups) if i != exclude and g.label.strip().lower() == wanted]
    if len(labelled) == 1:
        return labelled[0], ""
    data: RRCatalog = cat.data
    type_id = data.canonical("group_types", name)
    typed = [i for i, g in enumerate(army.groups) if i != exclude and type_id is not None and (g.type == type_id or data.canonical("group_types", g.type) == type_id)]
    if len(labelled) > 1 or len(typed) > 1:
        count = len(labelled) if len(labelled) > 1 else len(typed)
        return None, f"{count} groups are called '{name}': give the group's index or a unique label"
    if typed:
        return typed[0], ""
    return None, f"no group is called '{name}'"


#: list fields naming catalogue entries: (field of a group or None for the list, collection)
_NAMED = (
    ("type", "group_types"),
    ("champion_action", "actions"),
    ("heavy_trait", "heavy_traits"),
    ("warding_reaction", "reactions"),
)


def normalize(army: RRList, cat: RRCat) -> tuple[RRList, list[tuple[str, str, str]]]:
    """The warband with every name or alias replaced by its catalogue id (RR-D3).

    A hand-written file may say ``Tactitians`` or ``Stand and Shoot`` as the seed
    does; the program reads them as ``tacticians`` and ``suppression``.  Returns
    the (possibly same) warband and, for each replacement, ``(where, given, id)``
    so validation can say what it read.  Unknown names are left as they are (the
    missing-entry rule reports them).
    """
    data: RRCatalog = cat.data
    changes: list[tuple[str, str, str]] = []

    def resolve(collection: str, value: OneOf, where: str) -> str | None:
        if isinstance(value, list):  # several where one is allowed: the rules count them
            value = value[0] if value else None
        if value is None or cat.get(collection, value) is not None:
            return value
        found = data.canonical(collection, value)
        if found is None:
            return value
        changes.append((where, value, found))
        return found

    traits = [resolve("warband_traits", t, f"traits[{i}]") or t for i, t in enumerate(army.traits)]
    drive = resolve("drives", army.drive, "drive")
    groups = []
    collapsed = drive != army.drive
    for gi, g in enumerate(army.groups):
        update = {}
        for fld, collection in _NAMED:
            value = getattr(g, fld)
            new = resolve(collection, value, f"groups[{gi}].{fld}")
            if new != value:
                update[fld] = new
        groups.append(g.model_copy(update=update) if update else g)
        collapsed = collapsed or bool(update)
    for gi, g in enumerate(groups):  # group names → indexes (unresolved names: see find_group)
        links: dict[str, int | None] = {}
        for fld in ("attached_to", "transported_by"):
            value = getattr(g, fld)
            if isinstance(value, str):
                index, _ = find_group(army, cat, value, gi)
                links[fld] = index
        if links:
            groups[gi] = g.model_copy(update=links)
            collapsed = True
    if not changes and not collapsed:
        return army, changes
    return army.model_copy(update={"traits": traits, "drive": drive, "groups": groups}), changes
