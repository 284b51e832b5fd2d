"""Ragnarok (Morpheus Engine) edits as pure functions: outline, actions at a place, apply.

The TUI shows what :func:`actions` offers and calls :func:`apply`; it never knows
what a Jarl or a shield is.  Every edit returns a new list (models are values), so
the editor's undo stack is a list of snapshots.
"""

from __future__ import annotations

import re
from typing import Any

from armybuilder.core.checks import plural
from armybuilder.core.editing import apply_list_edit, list_actions, need, parse_path
from armybuilder.core.shapes import BrowserEntry, Detail, EditAction, OutlineNode, Param
from armybuilder.core.system import Choice, EntryRef

from .army import (
    KINDS,
    GodPowerPick,
    WarClan,
    Warrior,
    counts,
    equipment_cost,
    equipment_entry,
    equipment_kind,
    warrior_cost,
    warrior_name,
    warrior_type,
)
from .catalog import MECat, WarriorType, ability_args, ability_id
from .legality import budget_refusal, equipment_refusal, glory_left, power_refusal, warrior_refusal

KIND_LABEL = {"armour": "armour", "shields": "shield", "weapons": "weapon", "items": "item"}


def item_label(cat: MECat, item_id: str) -> tuple[str, str]:
    """(name, detail) of an equipment id for the outline."""
    kind = equipment_kind(cat, item_id)
    entry = equipment_entry(cat, item_id)
    if entry is None:
        return f"{item_id} (missing from catalogue)", ""
    if kind == "weapons":
        return entry.name, f"weapon, ST {entry.st}, {entry.range}" + (
            ", " + ", ".join(glossary_entry(cat, a)[0] for a in entry.abilities) if entry.abilities else ""
        ) + (", no shield" if entry.no_shield else "")
    if kind == "armour":
        return entry.name, f"armour, RS {entry.rs}"
    if kind == "shields":
        return entry.name, f"shield, +{entry.overwhelm_size} Size against Overwhelm"
    return entry.name, "item"


def warrior_tags(cat: MECat, w: Warrior) -> str:
    tags = []
    if w.jarl:
        tags.append("Jarl")
    c = counts(cat, w)
    tags.append(f"{c['weapons']} weapon{'s' if c['weapons'] != 1 else ''}")
    if c["armour"]:
        tags.append("armour")
    if c["shields"]:
        tags.append("shield")
    if c["items"]:
        tags.append(plural(c["items"], "item"))
    return ", ".join(tags)


def outline(army: WarClan, cat: MECat) -> list[OutlineNode]:
    warriors = []
    for wi, w in enumerate(army.warriors):
        children = []
        for ei, item in enumerate(w.equipment):
            name, detail = item_label(cat, item)
            kind = equipment_kind(cat, item) or "items"
            children.append(
                OutlineNode(f"warriors[{wi}].equipment[{ei}]", name, detail, equipment_cost(cat, item), EntryRef(kind, item))
            )
        warriors.append(
            OutlineNode(
                f"warriors[{wi}]",
                warrior_name(cat, w),
                warrior_tags(cat, w),
                warrior_cost(cat, w),
                EntryRef("warriors", w.type),
                tuple(children),
            )
        )
    powers = []
    for pi, pick in enumerate(army.god_powers):
        p = cat.get("god_powers", pick.power)
        name = p.name if p else f"{pick.power} (missing from catalogue)"
        detail = (f"{p.godspark} Godspark" if p else "") + (", imprinted" if pick.imprinted else "")
        powers.append(OutlineNode(f"god_powers[{pi}]", name, detail, None, EntryRef("god_powers", pick.power)))
    return [
        OutlineNode("warriors", "Warriors", plural(len(army.warriors), "model"), sum(warrior_cost(cat, w) for w in army.warriors), None, tuple(warriors)),
        OutlineNode("god_powers", "God powers", f"{len(army.god_powers)} chosen", None, None, tuple(powers)),
    ]


def _type_choice(t: WarriorType, refused: str = "") -> Choice:
    return Choice(t.id, t.name, f"{t.cost} Glory, AP {t.ap} MA {t.ma} RA {t.ra} DF {t.df} HP {t.hp}" + (", Jarl" if t.jarl else ""), refused)


def type_choices(cat: MECat, army: WarClan | None = None, replacing: int | None = None) -> tuple[Choice, ...]:
    """Warrior types; given the clan, each that may not join says why (legality.py)."""
    return tuple(
        _type_choice(t, warrior_refusal(army, cat, t, replacing) if army is not None else "") for t in cat.data.warriors
    )


def equipment_choices(cat: MECat, army: WarClan | None = None, warrior: Warrior | None = None) -> tuple[Choice, ...]:
    """Equipment; given the warrior, each piece it may not take says why (legality.py)."""
    out = []
    for kind in KINDS:
        for entry in getattr(cat.data, kind):
            name, detail = item_label(cat, entry.id)
            why = equipment_refusal(army, cat, warrior, entry.id) if army is not None and warrior is not None else ""
            out.append(Choice(entry.id, name, f"{entry.cost} Glory, {detail}", why))
    return tuple(out)


def power_choices(cat: MECat, army: WarClan | None = None) -> tuple[Choice, ...]:
    """God powers; given the clan, those it may not choose say why (legality.py)."""
    return tuple(
        Choice(p.id, p.name, f"{p.godspark} Godspark · {p.text}", power_refusal(army, cat, p.id) if army is not None else "")
        for p in cat.data.god_powers
    )


def actions(army: WarClan, cat: MECat, path: str) -> list[EditAction]:
    parts = parse_path(path)
    add_warrior = EditAction(
        "add-warrior", "Add a warrior", (Param("type", "Warrior type", "choice", type_choices(cat, army)),), "warriors"
    )
    add_power = EditAction(
        "add-god-power", "Choose a God power", (Param("power", "God power", "choice", power_choices(cat, army)),), "god_powers"
    )
    if not parts:
        return [
            add_warrior,
            add_power,
            *list_actions(army, cat, "war clan", "Clan name", "clan"),
        ]
    head, index = parts[0]
    if head == "warriors" and index is None:
        return [add_warrior]
    if head == "god_powers":
        if index is None or index >= len(army.god_powers):
            return [add_power]
        return [
            EditAction("toggle-imprinted", "Imprint this power (on/off)", (), "god_power"),
            EditAction("remove-god-power", "Remove this God power", (), "god_power", destructive=True),
            add_power,
        ]
    if head != "warriors" or index is None or index >= len(army.warriors):
        return []
    w = army.warriors[index]
    wt = warrior_type(cat, w.type)
    jarl = []
    if not w.jarl:  # only a Jarl warrior type leads (the jarl.profile rule)
        why = "" if wt is not None and wt.jarl else f"only a Jarl warrior type leads the clan; {warrior_name(cat, w)} is not one"
        jarl.append(EditAction("set-jarl", "Make this warrior the clan's Jarl", (), "warrior", refused=why))
    warrior_actions = [
        EditAction("add-equipment", "Add equipment", (Param("item", "Equipment", "choice", equipment_choices(cat, army, w)),), "warrior"),
        *jarl,
        EditAction("set-label", "Give a personal name", (Param("label", "Name", "text", default=w.label),), "warrior"),
        EditAction("edit-warrior-notes", "Edit the warrior's notes", (Param("notes", "Notes", "text", default=w.notes),), "warrior"),
        EditAction(
            "set-type", "Change the warrior type",
            (Param("type", "Warrior type", "choice", type_choices(cat, army, replacing=index), default=w.type),), "warrior",
        ),
        EditAction(
            "duplicate-warrior", "Duplicate the warrior", (), "warrior",
            refused=_duplicate_refusal(army, cat, w) if wt is not None else "this warrior type is not in the catalogue",
        ),
        EditAction("move-up", "Move up", (), "warrior"),
        EditAction("move-down", "Move down", (), "warrior"),
        EditAction("remove-warrior", "Remove the warrior", (), "warrior", destructive=True),
    ]
    if len(parts) > 1 and parts[1][0] == "equipment" and parts[1][1] is not None and parts[1][1] < len(w.equipment):
        return [EditAction("remove-equipment", "Remove this equipment", (), "equipment", destructive=True), *warrior_actions]
    return warrior_actions


def _duplicate_refusal(army: WarClan, cat: MECat, w: Warrior) -> str:
    """Why a copy of ``w`` (its type and gear) may not join the clan ("" when it may)."""
    t = warrior_type(cat, w.type)
    if t is None:
        return "this warrior type is not in the catalogue"
    why = warrior_refusal(army, cat, t)
    if why:
        return why
    gear = sum(equipment_cost(cat, e) for e in w.equipment)
    left = glory_left(army, cat)
    return budget_refusal(t.cost + gear, left)


# --------------------------------------------------------------------------- apply


def _lead(clan: WarClan, cat: MECat, index: int) -> None:
    """A warrior of a Jarl type leads the clan unless a warrior of a Jarl type already does:
    the mark then leaves any warrior whose type cannot lead (ME-D2, the jarl rules)."""
    t = warrior_type(cat, clan.warriors[index].type)
    if t is None or not t.jarl:
        return
    if any(o.jarl and (ot := warrior_type(cat, o.type)) is not None and ot.jarl for o in clan.warriors):
        return
    for o in clan.warriors:
        o.jarl = False
    clan.warriors[index].jarl = True


def apply(army: WarClan, cat: MECat, path: str, action: str, args: dict[str, Any]) -> tuple[WarClan, str]:
    new = army.model_copy(deep=True)
    parts = parse_path(path)
    if action == "add-warrior":
        tid = need(args, "type")
        t = warrior_type(cat, tid)
        if t is None:
            raise ValueError(f"no warrior type '{tid}' in the catalogue")
        new.warriors.append(Warrior(type=tid))
        _lead(new, cat, len(new.warriors) - 1)
        return new, f"warriors[{len(new.warriors) - 1}]"
    if action == "add-god-power":
        pid = need(args, "power")
        if cat.get("god_powers", pid) is None:
            raise ValueError(f"no God power '{pid}' in the catalogue")
        if any(p.power == pid for p in new.god_powers):
            raise ValueError("the clan has this God power already")
        new.god_powers.append(GodPowerPick(power=pid))
        return new, f"god_powers[{len(new.god_powers) - 1}]"
    if apply_list_edit(new, cat, action, args):
        return new, path
    if parts and parts[0][0] == "god_powers":
        pi = parts[0][1]
        if pi is None or pi >= len(new.god_powers):
            raise ValueError("choose a God power first")
        if action == "remove-god-power":
            del new.god_powers[pi]
            return new, f"god_powers[{min(pi, len(new.god_powers) - 1)}]" if new.god_powers else "god_powers"
        if action == "toggle-imprinted":
            new.god_powers[pi].imprinted = not new.god_powers[pi].imprinted
            return new, path
        raise ValueError(f"unknown edit '{action}' for a God power")
    if not parts or parts[0][0] != "warriors" or parts[0][1] is None or parts[0][1] >= len(new.warriors):
        raise ValueError("choose a warrior first")
    wi = parts[0][1]
    w = new.warriors[wi]
    where = f"warriors[{wi}]"
    if action == "add-equipment":
        item = need(args, "item")
        if equipment_kind(cat, item) is None:
            raise ValueError(f"no equipment '{item}' in the catalogue")
        w.equipment.append(item)
        return new, f"{where}.equipment[{len(w.equipment) - 1}]"
    if action == "remove-equipment":
        ei = parts[1][1] if len(parts) > 1 and parts[1][0] == "equipment" else None
        if ei is None or ei >= len(w.equipment):
            raise ValueError("choose a piece of equipment first")
        del w.equipment[ei]
        return new, where
    if action == "set-jarl":
        for other in new.warriors:
            other.jarl = False
        w.jarl = True
        return new, where
    if action == "set-label":
        w.label = str(args.get("label") or "")
        return new, where
    if action == "edit-warrior-notes":
        w.notes = str(args.get("notes") or "")
        return new, where
    if action == "set-type":
        tid = need(args, "type")
        t = warrior_type(cat, tid)
        if t is None:
            raise ValueError(f"no warrior type '{tid}' in the catalogue")
        w.type = tid
        if not t.jarl:
            w.jarl = False
        _lead(new, cat, wi)
        return new, where
    if action == "duplicate-warrior":
        copy = w.model_copy(deep=True)
        copy.jarl = False  # one Jarl per clan
        new.warriors.insert(wi + 1, copy)
        return new, f"warriors[{wi + 1}]"
    if action in ("move-up", "move-down"):
        target = wi - 1 if action == "move-up" else wi + 1
        if not 0 <= target < len(new.warriors):
            return new, where
        new.warriors[wi], new.warriors[target] = new.warriors[target], new.warriors[wi]
        return new, f"warriors[{target}]"
    if action == "remove-warrior":
        del new.warriors[wi]
        return new, f"warriors[{min(wi, len(new.warriors) - 1)}]" if new.warriors else "warriors"
    raise ValueError(f"unknown edit '{action}'")


# --------------------------------------------------------------------------- browse and detail


def browse(cat: MECat) -> list[BrowserEntry]:
    """The catalogue as browser entries, with facets in this game's own words: kind (warrior,
    weapon, armour, shield, item, God power, ability), leads (Jarl) and group (of a God power)."""
    d = cat.data
    out: list[BrowserEntry] = []
    for t in d.warriors:
        facets = {"kind": "warrior", "leads": "Jarl" if t.jarl else "", "group": ""}
        out.append(
            BrowserEntry(EntryRef("warriors", t.id), t.name, "warrior", f"{t.cost} Glory", facets, " ".join([t.name, "warrior", *t.abilities]).lower())
        )
    for kind in KINDS:
        for e in getattr(d, kind):
            out.append(
                BrowserEntry(
                    EntryRef(kind, e.id),
                    e.name,
                    KIND_LABEL[kind],
                    f"{e.cost} Glory",
                    {"kind": KIND_LABEL[kind], "leads": "", "group": ""},
                    f"{e.name} {KIND_LABEL[kind]}".lower(),
                )
            )
    for p in d.god_powers:
        out.append(
            BrowserEntry(
                EntryRef("god_powers", p.id),
                p.name,
                "God power",
                f"{p.godspark} Godspark",
                {"kind": "God power", "leads": "", "group": str(p.group)},
                f"{p.name} god power {p.text}".lower(),
            )
        )
    for a in d.abilities:
        out.append(
            BrowserEntry(EntryRef("abilities", a.id), a.name, "ability", "", {"kind": a.kind, "leads": "", "group": ""}, f"{a.name} {a.kind}".lower())
        )
    return out


def glossary_entry(cat: MECat, ref: str) -> tuple[str, str]:
    entry = cat.get("abilities", ability_id(ref))
    args = ability_args(ref)
    if entry is None:
        return ref, "(no glossary entry in this catalogue version)"
    base = re_name(entry.name)
    title = base + (" (" + ") (".join(a.upper() if len(a) <= 3 else a for a in args) + ")" if args else "")
    return title, entry.text


def re_name(name: str) -> str:
    return re.sub(r"\s*\((?:x|Stat)\)", "", name).strip()


def detail(cat: MECat, ref: EntryRef) -> Detail:
    entry = cat.get(ref.collection, ref.id)
    if entry is None:
        return Detail(ref.id, f"not in catalogue {cat.version}", (), (("Missing", "This entry does not exist in the list's catalogue version."),))
    if ref.collection == "warriors":
        t: WarriorType = entry
        stats = tuple((k.upper(), str(getattr(t, k))) for k in ("ap", "sp", "ma", "ra", "df", "rs", "dr", "mn", "hp", "size"))
        sections = [glossary_entry(cat, a) for a in t.abilities]
        if t.assigned:
            sections.append(("Assigned by armybuilder", ", ".join(a.replace("_", " ") for a in t.assigned) + " (CAT-D1: not in the reference data)"))
        sections.append(("Source", t.source))
        return Detail(t.name, "Jarl" if t.jarl else "warrior", stats, tuple(sections), f"{t.cost} Glory")
    if ref.collection == "weapons":
        stats = (("ST", str(entry.st)), ("Range", entry.range), ("Kind", entry.kind))
        sections = [glossary_entry(cat, a) for a in entry.abilities]
        if entry.no_shield:
            sections.append(("No shield", "While he fights with it, a shield gives its bearer nothing (ME-D3: carrying both is legal)."))
        return Detail(entry.name, "weapon", stats, tuple(sections), f"{entry.cost} Glory")
    if ref.collection == "armour":
        return Detail(entry.name, "armour", (("RS", str(entry.rs)),), (), f"{entry.cost} Glory")
    if ref.collection == "shields":
        return Detail(entry.name, "shield", (("Size vs Overwhelm", f"+{entry.overwhelm_size}"),), (), f"{entry.cost} Glory")
    if ref.collection == "god_powers":
        p = entry
        power_stats: list[tuple[str, str]] = [("Godspark", str(p.godspark))]
        power_sections: list[tuple[str, str]] = [("Effect", p.text)]
        for b in p.boosts:
            power_sections.append((f"Boost +{b.cost} Godspark", b.effect))
        if p.attack is not None:
            power_sections.append(
                ("Attack", f"RN {p.attack.range}" + (f", ST {p.attack.st}" if p.attack.st is not None else "") + ", " + ", ".join(glossary_entry(cat, a)[0] for a in p.attack.abilities))
            )
        power_sections += [glossary_entry(cat, g) for g in p.grants]
        return Detail(p.name, f"God power {p.number} (group {p.group})", tuple(power_stats), tuple(power_sections), f"{p.godspark} Godspark")
    fields = entry.model_dump(exclude={"id", "name"})
    # bools and empty values are not stats ("takes value False" leaked raw values)
    entry_stats = tuple(
        (k.replace("_", " ").capitalize(), str(v))
        for k, v in fields.items()
        if isinstance(v, (int, str)) and not isinstance(v, bool) and k not in ("text", "source") and v != ""
    )
    entry_sections = tuple((k.capitalize(), str(fields[k])) for k in ("text", "source") if fields.get(k))
    return Detail(entry.name, ref.collection.rstrip("s"), entry_stats, entry_sections, f"{fields['cost']} Glory" if "cost" in fields else "")
