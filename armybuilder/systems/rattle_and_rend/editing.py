"""Rattle and Rend edits as pure functions: outline, the actions allowed at a place, apply.

The TUI shows what :func:`actions` offers and calls :func:`apply`; it never knows
what a group is.  Each edit returns a new warband.  Attachments and transports
point at groups by index, so every edit that adds, removes or reorders groups
renumbers them (:func:`_renumber`) and a Champion never silently changes group.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from armybuilder.core.checks import a_or_an, list_format, plural
from armybuilder.core.editing import apply_list_edit, list_actions, need, parse_path
from armybuilder.core.shapes import BrowserEntry, Detail, EditAction, OutlineNode, Param
from armybuilder.core.system import Choice, EntryRef

from .army import (
    Group,
    RRList,
    as_index,
    group_cost,
    group_title,
    group_type,
    normalize,
    transport_capacity,
)
from .catalog import GroupType, RRCat
from .counting import counted_groups
from .legality import (
    attach_refusal,
    budget_refusal,
    carrier_refusal,
    points_left,
    trait_refusal,
    type_refusal,
)
from .rules import OPTION_KIND, TRAIT_FIELDS


def stat_text(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def band_text(band: str | None) -> str:
    return {"B": "B-to-B", None: "-"}.get(band, band or "-")


def option_names(cat: RRCat, group: Group) -> list[str]:
    """Names of the group's champion action, heavy trait and warding reaction."""
    out = []
    for fld in OPTION_KIND:
        value = getattr(group, fld)
        if value is not None:
            collection = TRAIT_FIELDS[OPTION_KIND[fld]][1]
            entry = cat.get(collection, value)
            out.append(entry.name if entry is not None else f"{value} (missing)")
    return out


def group_detail(army: RRList, cat: RRCat, index: int) -> str:
    g = army.groups[index]
    parts = option_names(cat, g)
    target, carrier = as_index(g.attached_to), as_index(g.transported_by)
    if target is not None:
        if 0 <= target < len(army.groups) and target != index:
            parts.append(
                f"attached to {group_title(cat, army.groups[target], target)} "
                f"(group {target + 1}): acts with its stats, its Will checks with a bonus"
            )
        else:
            parts.append(f"attached to group {target + 1} (missing)")
    if carrier is not None:
        parts.append(f"carried by group {carrier + 1}")
    capacity = transport_capacity(army, cat, index)
    if capacity:
        parts.append(f"carries {capacity} points")
    return ", ".join(parts)


def _group_node(army: RRList, cat: RRCat, index: int, children: tuple[OutlineNode, ...] = ()) -> OutlineNode:
    g = army.groups[index]
    gt = group_type(cat, g)
    label = group_title(cat, g, index) if gt is not None else f"{g.type} (missing from catalogue)"
    return OutlineNode(
        f"groups[{index}]",
        label,
        group_detail(army, cat, index),
        group_cost(cat, g),
        EntryRef("group_types", g.type),
        children,
    )


def outline(army: RRList, cat: RRCat) -> list[OutlineNode]:
    """Groups with their attached Champions beneath them, then traits, drive, settings."""
    attached: dict[int, list[int]] = {}
    for i, g in enumerate(army.groups):
        t = as_index(g.attached_to)
        if t is not None and t != i and 0 <= t < len(army.groups) and army.groups[t].attached_to is None:
            attached.setdefault(t, []).append(i)
    shown_under = {i for kids in attached.values() for i in kids}
    nodes = []
    for i in range(len(army.groups)):
        if i in shown_under:
            continue
        kids = tuple(_group_node(army, cat, c) for c in attached.get(i, []))
        nodes.append(_group_node(army, cat, i, kids))
    traits = []
    for ti, tid in enumerate(army.traits):
        t = cat.get("warband_traits", tid)
        traits.append(
            OutlineNode(
                f"traits[{ti}]",
                t.name if t is not None else f"{tid} (missing from catalogue)",
                t.summary if t is not None else "",
                None,
                EntryRef("warband_traits", tid),
            )
        )
    drive = cat.get("drives", army.drive) if army.drive else None
    fmt = list_format(army, cat)
    return [
        OutlineNode("groups", "Groups", plural(len(army.groups), "entry", "entries"), None, None, tuple(nodes)),
        OutlineNode("traits", "Warband traits", f"{len(army.traits)} of 2", None, None, tuple(traits)),
        OutlineNode(
            "drive",
            "Drive: " + (drive.name if drive else (f"{army.drive} (missing from catalogue)" if army.drive else "none")),
            drive.setup if drive else "",
            None,
            EntryRef("drives", army.drive) if isinstance(army.drive, str) and army.drive else None,
        ),
        OutlineNode("", "Warband settings", fmt.name if fmt else army.format),
    ]


# --------------------------------------------------------------------------- choices


def _type_words(cat: RRCat, gt: GroupType) -> str:
    """A group type's cost and reaction as a choice's detail ("2 pts, reaction Countercharge")."""
    reaction = cat.get("reactions", gt.reaction)
    return f"{plural(gt.cost, 'pt')}, reaction {reaction.name if reaction is not None else gt.reaction}"


def type_choices(cat: RRCat, army: RRList | None = None) -> tuple[Choice, ...]:
    """Group types; given the warband, a new group of each type that does not fit says why."""
    return tuple(
        Choice(gt.id, gt.name, _type_words(cat, gt), new_group_refusal(army, cat, gt) if army is not None else "")
        for gt in cat.data.group_types
    )


def new_group_refusal(army: RRList, cat: RRCat, gt: GroupType) -> str:
    """Why a new group of type ``gt`` may not join the warband: the points, or the warband's
    count of groups when the new one cannot be attached to another (a Champion can)."""
    fmt = list_format(army, cat)
    if fmt is not None and not gt.can_attach and counted_groups(army, cat) >= fmt.max_groups:
        return f"the warband has its {plural(fmt.max_groups, 'group')} already (attached Champions count with their group)"
    return budget_refusal(gt.cost, points_left(army, cat))


def option_choices(cat: RRCat, kind: str) -> tuple[Choice, ...]:
    data = cat.data
    if kind == "champion-action":
        return tuple(Choice(a.id, a.name, a.summary) for a in data.actions if a.kind == "champion")
    if kind == "warding-reaction":
        return tuple(Choice(r.id, r.name, r.summary) for r in data.reactions if r.kind == "warding")
    return tuple(Choice(t.id, t.name, t.summary) for t in data.heavy_traits)


def trait_choices(cat: RRCat, army: RRList | None = None) -> tuple[Choice, ...]:
    """Warband traits; given the warband, those it may not add say why."""
    fmt = list_format(army, cat) if army is not None else None
    wanted = fmt.traits if fmt is not None else 2
    return tuple(
        Choice(t.id, t.name, t.summary, trait_refusal(army, wanted, t.id) if army is not None else "")
        for t in cat.data.warband_traits
    )


def drive_choices(cat: RRCat) -> tuple[Choice, ...]:
    return tuple(Choice(d.id, d.name, d.setup) for d in cat.data.drives)


def attach_choices(army: RRList, cat: RRCat, index: int) -> tuple[Choice, ...]:
    gt = group_type(cat, army.groups[index])
    allowed = set(gt.attach_targets) if gt is not None else set()
    taken = {g.attached_to for i, g in enumerate(army.groups) if i != index}
    return tuple(
        Choice(i, f"{i + 1}. {group_title(cat, g, i)}", "", attach_refusal(army, cat, index, i))
        for i, g in enumerate(army.groups)
        if i != index and g.type in allowed and i not in taken and g.attached_to is None
    )


def carrier_choices(army: RRList, cat: RRCat, index: int) -> tuple[Choice, ...]:
    return tuple(
        Choice(
            i, f"{i + 1}. {group_title(cat, g, i)}", f"carries {plural(transport_capacity(army, cat, i), 'point')}",
            carrier_refusal(army, cat, index, i),
        )
        for i, g in enumerate(army.groups)
        if i != index and transport_capacity(army, cat, i) > 0
    )


def add_group_actions(cat: RRCat, army: RRList | None = None) -> list[EditAction]:
    """"Add a group" for the plain types, and one add per type that must take a trait.

    A Heavy needs its heavy trait, a Ward its warding reaction, a Champion its action
    (RR-D1): their add forms ask for it at once, so a new group is never born illegal.
    """
    plain = tuple(c for c in type_choices(cat, army) if (gt := group_type(cat, Group(type=c.value))) is None or gt.trait is None)
    out = [
        EditAction(
            "add-group",
            "Add a group",
            (Param("type", "Group type", "choice", plain), Param("label", "Label (optional)", "text", default="")),
            "groups",
        )
    ]
    for gt in cat.data.group_types:
        if gt.trait is None:
            continue
        fld, _, words = TRAIT_FIELDS[gt.trait]
        own = tuple(c for c in type_choices(cat, army) if c.value == gt.id)
        out.append(
            EditAction(
                "add-group",
                f"Add {a_or_an(gt.name)} (with its {words})",
                (
                    Param("type", "Group type", "choice", own, default=gt.id),
                    Param(fld, words.capitalize(), "choice", option_choices(cat, gt.trait)),
                    Param("label", "Label (optional)", "text", default=""),
                ),
                "groups",
                refused=own[0].refused if own else "",
            )
        )
    return out


def actions(army: RRList, cat: RRCat, path: str) -> list[EditAction]:
    army = normalize(army, cat)[0]  # names and lists read as single ids, for the defaults shown
    parts = parse_path(path)
    adders = add_group_actions(cat, army)
    set_traits = EditAction(
        "set-traits",
        "Choose the two warband traits",
        (
            Param("first", "First trait", "choice", trait_choices(cat), default=army.traits[0] if army.traits else None),
            Param("second", "Second trait", "choice", trait_choices(cat), default=army.traits[1] if len(army.traits) > 1 else None),
        ),
        "traits",
    )
    add_trait = EditAction("add-trait", "Add a warband trait", (Param("trait", "Trait", "choice", trait_choices(cat, army)),), "traits")
    set_drive = EditAction("set-drive", "Choose the drive", (Param("drive", "Drive", "choice", drive_choices(cat), default=army.drive),), "drive")
    if not parts:
        return [
            *adders,
            set_traits,
            add_trait,
            set_drive,
            *list_actions(army, cat, "warband", "Warband name"),
        ]
    head, index = parts[0]
    if head == "groups" and index is None:
        return adders
    if head == "traits":
        out = [set_traits, add_trait]
        if index is not None and index < len(army.traits):
            out.insert(0, EditAction("remove-trait", "Remove this trait", (), "traits", destructive=True))
        return out
    if head == "drive":
        return [set_drive, EditAction("clear-drive", "Clear the drive", (), "drive", destructive=True)]
    if head != "groups" or index is None or index >= len(army.groups):
        return []
    g = army.groups[index]
    gt = group_type(cat, g)
    out = [
        EditAction("rename-group", "Label the group", (Param("label", "Label", "text", default=g.label),), "group"),
        EditAction("edit-group-notes", "Edit the group notes", (Param("notes", "Notes", "text", default=g.notes),), "group"),
        EditAction("set-type", "Change the group type", (Param("type", "Group type", "choice", _retype_choices(army, cat, index), default=g.type),), "group"),
    ]
    if gt is not None and gt.trait is not None:
        fld, _, words = TRAIT_FIELDS[gt.trait]
        out.insert(
            0,
            EditAction(
                f"set-{fld.replace('_', '-')}",
                f"Choose the {words}",
                (Param("id", words.capitalize(), "choice", option_choices(cat, gt.trait), default=getattr(g, fld)),),
                "group",
            ),
        )
    if gt is not None and gt.can_attach:
        choices = attach_choices(army, cat, index)
        if choices:
            out.append(EditAction("attach", "Attach to a group", (Param("target", "Group", "choice", choices),), "group"))
        if g.attached_to is not None:
            out.append(EditAction("detach", "Detach from its group", (), "group"))
    carriers = carrier_choices(army, cat, index)
    if carriers and (gt is None or gt.id != "heavy"):
        out.append(EditAction("set-transport", "Start inside a transport", (Param("carrier", "Transport", "choice", carriers),), "group"))
    if g.transported_by is not None:
        out.append(EditAction("leave-transport", "Start outside the transport", (), "group"))
    out += [
        EditAction("duplicate-group", "Duplicate the group", (), "group", refused=new_group_refusal(army, cat, gt) if gt is not None else "this group type is not in the catalogue"),
        EditAction("move-up", "Move the group up", (), "group"),
        EditAction("move-down", "Move the group down", (), "group"),
        EditAction("remove-group", "Remove the group", (), "group", destructive=True),
    ]
    return out


def _retype_choices(army: RRList, cat: RRCat, index: int) -> tuple[Choice, ...]:
    """The types group ``index`` may change to, each refused with the reason when it may not."""
    return tuple(
        Choice(gt.id, gt.name, _type_words(cat, gt), type_refusal(army, cat, index, gt))
        for gt in cat.data.group_types
    )


# --------------------------------------------------------------------------- apply


def _index(args: dict[str, Any], name: str, size: int) -> int:
    try:
        value = int(need(args, name))
    except (TypeError, ValueError):
        raise ValueError(f"'{name}' must be a group number") from None
    if not 0 <= value < size:
        raise ValueError(f"'{name}' must name one of the {size} groups")
    return value


def _renumber(groups: list[Group], mapping: Mapping[int, int | None]) -> None:
    """Point attachments and transports at the groups' new places (None: gone)."""
    for g in groups:
        if isinstance(g.attached_to, int):
            g.attached_to = mapping.get(g.attached_to, g.attached_to)
        if isinstance(g.transported_by, int):
            g.transported_by = mapping.get(g.transported_by, g.transported_by)


def _known(cat: RRCat, collection: str, value: str, words: str) -> str:
    canonical = cat.data.canonical(collection, str(value))
    if canonical is None:
        raise ValueError(f"no {words} '{value}' in the catalogue")
    return canonical


def apply(army: RRList, cat: RRCat, path: str, action: str, args: dict[str, Any]) -> tuple[RRList, str]:
    new = army.model_copy(deep=True)
    parts = parse_path(path)
    groups = new.groups
    if action == "add-group":
        gtype = _known(cat, "group_types", need(args, "type"), "group type")
        group = Group(type=gtype, label=str(args.get("label") or ""))
        gt = group_type(cat, group)
        if gt is not None and gt.trait is not None:
            fld, collection, words = TRAIT_FIELDS[gt.trait]
            if args.get(fld):  # the add forms ask for it at once (a Heavy is never born without)
                setattr(group, fld, _known(cat, collection, args[fld], words))
        groups.append(group)
        return new, f"groups[{len(groups) - 1}]"
    if apply_list_edit(new, cat, action, args):
        return new, path
    if action == "set-traits":
        first = _known(cat, "warband_traits", need(args, "first"), "warband trait")
        second = _known(cat, "warband_traits", need(args, "second"), "warband trait")
        if first == second:
            raise ValueError("the two warband traits must differ")
        new.traits = [first, second]
        return new, "traits"
    if action == "add-trait":
        trait = _known(cat, "warband_traits", need(args, "trait"), "warband trait")
        if trait in new.traits:
            raise ValueError(f"the warband has '{trait}' already")
        new.traits.append(trait)
        return new, f"traits[{len(new.traits) - 1}]"
    if action == "remove-trait":
        index = parts[0][1] if parts and parts[0][0] == "traits" else None
        if index is None or index >= len(new.traits):
            raise ValueError("choose a trait first")
        del new.traits[index]
        return new, "traits"
    if action == "set-drive":
        new.drive = _known(cat, "drives", need(args, "drive"), "drive")
        return new, "drive"
    if action == "clear-drive":
        new.drive = None
        return new, "drive"
    if not parts or parts[0][0] != "groups" or parts[0][1] is None or parts[0][1] >= len(groups):
        raise ValueError("choose a group first")
    gi = parts[0][1]
    g = groups[gi]
    where = f"groups[{gi}]"
    if action == "rename-group":
        g.label = str(args.get("label") or "")
        return new, where
    if action == "edit-group-notes":
        g.notes = str(args.get("notes") or "")
        return new, where
    if action == "set-type":
        gtype = _known(cat, "group_types", need(args, "type"), "group type")
        gt = cat.get("group_types", gtype)
        if gt is None:
            raise ValueError(f"no group type '{gtype}' in the catalogue")
        g.type = gtype
        for fld, kind in OPTION_KIND.items():  # a secondary trait belongs to its type only
            if gt.trait != kind:
                setattr(g, fld, None)
        if not gt.can_attach:
            g.attached_to = None
        if gtype == "heavy":
            g.transported_by = None
        carries = transport_capacity(new, cat, gi) > 0
        for other in groups:  # groups this one may no longer hold or carry
            if other.attached_to == gi and gtype not in _attach_targets(cat, other):
                other.attached_to = None
            if other.transported_by == gi and not carries:
                other.transported_by = None
        return new, where
    for fld, kind in OPTION_KIND.items():
        if action == f"set-{fld.replace('_', '-')}":
            value = str(need(args, "id"))
            collection = TRAIT_FIELDS[kind][1]
            canonical = cat.data.canonical(collection, value)
            if canonical is None or canonical not in {c.value for c in option_choices(cat, kind)}:
                raise ValueError(f"no {TRAIT_FIELDS[kind][2]} '{value}' in the catalogue")
            setattr(g, fld, canonical)
            return new, where
    if action == "attach":
        target = _index(args, "target", len(groups))
        if target not in {c.value for c in attach_choices(army, cat, gi)}:
            raise ValueError(f"group {gi + 1} cannot be attached to group {target + 1}")
        g.attached_to = target
        return new, where
    if action == "detach":
        g.attached_to = None
        return new, where
    if action == "set-transport":
        carrier = _index(args, "carrier", len(groups))
        if carrier not in {c.value for c in carrier_choices(army, cat, gi)}:
            raise ValueError(f"group {carrier + 1} carries no groups")
        g.transported_by = carrier
        return new, where
    if action == "leave-transport":
        g.transported_by = None
        return new, where
    if action == "duplicate-group":
        copy = g.model_copy(deep=True)
        copy.attached_to = None  # one Champion per group: the copy starts on its own
        _renumber(groups, {i: (i + 1 if i > gi else i) for i in range(len(groups))})
        groups.insert(gi + 1, copy)
        return new, f"groups[{gi + 1}]"
    if action in ("move-up", "move-down"):
        target = gi - 1 if action == "move-up" else gi + 1
        if not 0 <= target < len(groups):
            return new, where
        groups[gi], groups[target] = groups[target], groups[gi]
        _renumber(groups, {gi: target, target: gi})
        return new, f"groups[{target}]"
    if action == "remove-group":
        del groups[gi]
        _renumber(groups, {gi: None, **{i: i - 1 for i in range(gi + 1, len(groups) + 1)}})
        return new, f"groups[{min(gi, len(groups) - 1)}]" if groups else "groups"
    raise ValueError(f"unknown edit '{action}'")


def _attach_targets(cat: RRCat, g: Group) -> list[str]:
    gt = group_type(cat, g)
    return gt.attach_targets if gt is not None else []


# --------------------------------------------------------------------------- browse


def browse(cat: RRCat) -> list[BrowserEntry]:
    data = cat.data
    out: list[BrowserEntry] = []
    for gt in data.group_types:
        facets = {"kind": "group type", "reaction": gt.reaction, "trait": gt.trait or ""}
        out.append(
            BrowserEntry(
                EntryRef("group_types", gt.id),
                gt.name,
                "group type",
                f"{gt.cost} pt{'s' if gt.cost > 1 else ''}",
                facets,
                f"{gt.name} group {gt.reaction} {gt.trait or ''}".lower(),
            )
        )
    for collection, kind_of in (
        ("actions", lambda e: f"{e.kind} action"),
        ("reactions", lambda e: f"{e.kind} reaction"),
        ("heavy_traits", lambda e: "heavy trait"),
        ("warband_traits", lambda e: "warband trait"),
        ("drives", lambda e: "drive"),
        ("scenarios", lambda e: "scenario"),
        ("deployments", lambda e: "deployment"),
        ("terrain_types", lambda e: "terrain"),
    ):
        for entry in getattr(data, collection):
            kind = kind_of(entry)
            summary = getattr(entry, "summary", "") or getattr(entry, "text", "")
            out.append(
                BrowserEntry(
                    EntryRef(collection, entry.id),
                    entry.name,
                    kind,
                    "",
                    {"kind": kind},
                    " ".join([entry.name, kind, summary, *entry.aliases]).lower(),
                )
            )
    return out


def detail(cat: RRCat, ref: EntryRef) -> Detail:
    entry = cat.get(ref.collection, ref.id)
    if entry is None:
        return Detail(ref.id, f"not in catalogue {cat.version}", (), (("Missing", "This entry does not exist in the warband's catalogue version."),))
    sections: list[tuple[str, str]] = []
    if getattr(entry, "provisional", False):
        sections.append(("Provisional", "A preview in the seed; a later catalogue version may change it."))
    if ref.collection == "group_types":
        gt: GroupType = entry
        reaction = cat.get("reactions", gt.reaction)
        stats = (
            ("MOV", band_text(gt.mov)),
            ("RNG", band_text(gt.rng)),
            ("FURY", stat_text(gt.fury)),
            ("GUILE", stat_text(gt.guile)),
            ("WILL", stat_text(gt.will)),
        )
        sections += [("Base", gt.base), ("About", gt.text)]
        if reaction is not None:
            sections.append((f"Reaction: {reaction.name}", f"{reaction.trigger} {reaction.effect}"))
        if gt.trait:
            sections.append(("Takes", f"one {TRAIT_FIELDS[gt.trait][2]}"))
        sections.append(("Source", gt.source))
        return Detail(gt.name, "group type", stats, tuple(sections), f"{gt.cost} pt{'s' if gt.cost > 1 else ''}")
    fields = entry.model_dump()
    entry_stats: list[tuple[str, str]] = []
    for key in ("kind", "check", "movement", "low", "high", "rounds", "mov", "targets", "transport"):
        value = fields.get(key)
        if value not in (None, "", 0, False):
            entry_stats.append((key.replace("_", " ").capitalize(), str(value)))
    if fields.get("penalty"):
        entry_stats.append(("Penalty", "yes"))
    for key in ("summary", "question", "trigger", "movement_text", "effect", "critical", "text", "setup", "victory", "examples"):
        if fields.get(key):
            sections.append((key.replace("_", " ").capitalize(), str(fields[key])))
    if fields.get("aliases"):
        sections.append(("Also called", ", ".join(fields["aliases"])))
    if fields.get("source"):
        sections.append(("Source", fields["source"]))
    return Detail(entry.name, ref.collection.replace("_", " ").rstrip("s"), tuple(entry_stats), tuple(sections))
