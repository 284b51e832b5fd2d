"""Import Confrontation C5 BattleScribe data (.gst/.cat) into Rag'Narok 2 catalogue files.

``convert(sources)`` reads the game system file and the catalogues of
``reference-data/confrontation-c5`` and returns ``{relative path: YAML text}``:
``profiles/<people>.yaml`` for every people catalogue and ``miracles.yaml`` for the
miracles catalogue.  The output is deterministic (sorted, fixed key order), so the
committed catalogue files are exactly the importer's output and a test can say so.

What it takes from the reference data: names, characteristics, abilities, ranged
weapons, options and costs (figures only — never the reference descriptions).
What Rag'Narok 2 needs on top (rank, size, roles ...) comes from the documented
tables of :mod:`.import_assignments`, and each such field is listed in the profile's
``assigned`` list (CAT-D1).

The XML is untrusted input: DOCTYPE and ENTITY declarations are refused before
parsing, and every parse error or unexpected shape becomes an :class:`InputError`
naming the file (and line where known).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from armybuilder.core.errors import InputError
from armybuilder.core.yamlio import dump_document, new_document

from . import import_assignments as A
from .catalog import Miracle, Profile
from .import_text import (
    Mystic,
    Weapon,
    clean,
    number,
    parse_abilities,
    parse_aspects,
    parse_weapon,
    slug,
    whole,
)
from .import_xml import XNode, parse_xml, parse_xml_bytes

__all__ = [
    "Mystic",
    "Weapon",
    "XNode",
    "convert",
    "parse_abilities",
    "parse_aspects",
    "parse_weapon",
    "parse_xml",
    "parse_xml_bytes",
]

PROFILE_CARD = "Profile Card"
MIRACLE_CARD = "Miracle Card"


# --------------------------------------------------------------------------- source model


@dataclass
class Source:
    path: Path
    root: XNode
    ids: dict[str, XNode]

    @property
    def name(self) -> str:
        return self.root.get("name")

    def error(self, message: str, node: XNode | None = None) -> InputError:
        return InputError.at(message, self.path, node.line if node else None)


def load_source(path: Path) -> Source:
    root = parse_xml(path)
    if root.tag not in ("catalogue", "gameSystem"):
        raise InputError.at(
            f"not a BattleScribe file: the root element is <{root.tag}>, expected <catalogue> or <gameSystem>",
            path,
            root.line,
        )
    if not root.get("name"):
        raise InputError.at(f"the <{root.tag}> element has no name", path, root.line)
    ids = {n.get("id"): n for n in root.iter() if n.get("id")}
    return Source(path, root, ids)


@dataclass
class Context:
    """Look-ups shared by one catalogue and the game system (links cross files)."""

    source: Source
    system: Source | None

    def target(self, node: XNode) -> XNode | None:
        tid = node.get("targetId")
        found = self.source.ids.get(tid)
        if found is None and self.system is not None:
            found = self.system.ids.get(tid)
        return found

    def category_names(self, entry: XNode) -> list[str]:
        names = []
        for link in entry.findall("categoryLinks/categoryLink"):
            target = self.target(link)
            name = link.get("name") or (target.get("name") if target is not None else "")
            if not name:
                hint = "" if self.system else ": give the game system file (.gst) too"
                raise InputError.at(
                    f"category '{link.get('targetId')}' of '{entry.get('name')}' is not defined{hint}",
                    self.source.path,
                    link.line,
                )
            names.append(clean(name))
        return names


def points(entry: XNode, src: Source) -> int:
    for cost in entry.findall("costs/cost"):
        if cost.get("typeId") == "points" or cost.get("name") == "pts":
            value = number(cost.get("value", "0"))
            if value is None:
                raise src.error(
                    f"cost '{cost.get('value')}' of '{entry.get('name')}' is not a number", cost
                )
            return int(value)
    return 0


def card_of(entry: XNode, type_name: str) -> XNode | None:
    return next(
        (p for p in entry.findall("profiles/profile") if p.get("typeName") == type_name), None
    )


def characteristics(card: XNode) -> dict[str, str]:
    return {c.get("name"): c.text for c in card.findall("characteristics/characteristic")}


# --------------------------------------------------------------------------- options

# Rule reminders, bookkeeping entries ("[Griffin] Cairn 1" spell lists, "_BUGS") and the
# promotions that Rag'Narok 2 handles with profiles of their own.
_SKIPPED_OPTIONS = re.compile(r"^(\[|rule\b|_)|^make (musician|standard-bearer)$", re.I)
_SKIPPED_GROUPS = re.compile(
    r"artifact|artefact|rule|choose how many|magician|faithful|mystic", re.I
)


def option_entries(ctx: Context, entry: XNode) -> Iterator[XNode]:
    """Upgrades a model entry offers: its own upgrades and linked single entries.

    Shared groups (artifacts, mystic rule groups, baronies ...) are army-wide lists
    that Rag'Narok 2 does not use as per-profile options, so they are left out.
    """
    containers = [entry]
    while containers:
        node = containers.pop(0)
        for child in node.findall("selectionEntries/selectionEntry"):
            if card_of(child, PROFILE_CARD) is None and child.get("type") == "upgrade":
                yield child
        for link in node.findall("entryLinks/entryLink"):
            if link.get("type") == "selectionEntry":
                target = ctx.target(link)
                if target is not None and card_of(target, PROFILE_CARD) is None:
                    yield target
        for group in node.findall("selectionEntryGroups/selectionEntryGroup"):
            if not _SKIPPED_GROUPS.search(group.get("name")):
                containers.append(group)


# --------------------------------------------------------------------------- profiles


@dataclass
class Card:
    """A Profile Card with the entry that carries it."""

    entry: XNode
    card: XNode
    name: str
    character: bool
    war_machine_category: bool


def profile_cards(ctx: Context) -> list[Card]:
    """Every distinct Profile Card of a catalogue, first occurrence first.

    BattleScribe repeats a card where an entry is nested in another (the Drune
    Lanyfh appear under their Character too); identical repeats are dropped.
    """
    cards: list[Card] = []
    seen: dict[str, tuple[str, ...]] = {}
    for entry in ctx.source.root.iter("selectionEntry"):
        card = card_of(entry, PROFILE_CARD)
        if card is None:
            continue
        # The selection's name tells variants apart ("Heavy centaur (1) [Brutish charge]");
        # an upgrade carrying a card ("Dislocated") is better named by its card.
        primary = entry.get("name") if entry.get("type") in ("model", "unit") else card.get("name")
        name = clean(primary or card.get("name") or entry.get("name"))
        if not name:
            raise ctx.source.error("a Profile Card has no name", card)
        key = name.lower()
        figures = tuple(clean(v) for v in characteristics(card).values())
        if key in seen:
            if seen[key] != figures:
                raise ctx.source.error(f"two different Profile Cards are both named '{name}'", card)
            continue
        seen[key] = figures
        categories = [c.lower() for c in ctx.category_names(entry)]
        cards.append(
            Card(entry, card, name, "characters" in categories, "war machine" in categories)
        )
    return cards


def _has(abilities: list[str], ability: str) -> bool:
    return any(a.partition("/")[0] == ability for a in abilities)


def _value(abilities: list[str], ability: str) -> float | None:
    for a in abilities:
        name, _, value = a.partition("/")
        if name == ability:
            m = re.match(r"\d+(\.\d+)?", value)
            return float(m.group()) if m else 0.0
    return None


def _band(bands: list[tuple[int, str]], cost: int) -> str:
    rank = bands[0][1]
    for low, name in bands:
        if cost >= low:
            rank = name
    return rank


def _sort_remarks(remarks: list[str], notes: list[str], data_notes: list[str]) -> None:
    """A remark about the game goes to the profile's note (printed on its card), one about
    the reference data itself to its data note (``catalog check``)."""
    for remark in remarks:
        (data_notes if any(mark in remark for mark in A.DATA_REMARKS) else notes).append(remark)


def build_profile(ctx: Context, people: str, card: Card, incarnates: set[str]) -> dict[str, Any]:
    src = ctx.source
    chars = characteristics(card.card)
    for needed in ("Mov", "Atk-Str", "Def-Res", "Cou/Fea", "Abilities"):
        if needed not in chars:
            raise src.error(
                f"the Profile Card '{card.name}' has no '{needed}' characteristic", card.card
            )
    pid = f"{people}-{slug(card.name)}"
    assigned: list[str] = []
    notes: list[str] = []  # what a player reads on the card (clan, cult, flight, remarks)
    data_notes: list[str] = []  # what the reference lacked and what was done (catalog check)

    abilities, mystic, remarks = parse_abilities(chars.get("Abilities", ""))
    _sort_remarks(remarks, notes, data_notes)
    fervour = clean(chars.get("Fervour", ""))
    aspects, aspect_rank = parse_aspects(fervour)
    if aspects is None and fervour not in ("", "-") and not number(fervour):
        # A misplaced Abilities entry in the Fervour column (it happens in the data).
        more, more_mystic, more_remarks = parse_abilities(fervour)
        abilities += [a for a in more if a not in abilities]
        _sort_remarks(more_remarks, notes, data_notes)
        if more_mystic.power_rank and not mystic.power_rank:
            mystic = more_mystic

    # Characteristics --------------------------------------------------------
    mov_text = clean(chars.get("Mov", ""))
    ground, _, flying = mov_text.partition("/")
    mov = number(ground)
    if flying and number(flying) is not None:
        notes.append(f"flying MOV {number(flying)} (MOV above: on the ground)")
    att_str = re.match(r"^\s*(\d+)?\s*-\s*(\d+)?\s*$", chars.get("Atk-Str", "") or "")
    def_res = re.match(r"^\s*(\d+)?\s*-\s*(\d+)?\s*$", chars.get("Def-Res", "") or "")
    values: dict[str, int | float | None] = {
        "mov": mov,
        "ini": number(chars.get("Ini", "")),
        "att": whole(number(att_str.group(1) or "")) if att_str else None,
        "str": whole(number(att_str.group(2) or "")) if att_str else None,
        "def": whole(number(def_res.group(1) or "")) if def_res else None,
        "res": whole(number(def_res.group(2) or "")) if def_res else None,
        "dis": number(chars.get("Dis", "")),
    }
    missing = [k for k, v in values.items() if v is None]
    for key in missing:
        values[key] = 0
        assigned.append(key)
    if missing:
        data_notes.append(
            f"the reference card gives no {', '.join(k.upper() for k in missing)}: 0 assigned"
        )
    aim = whole(number(chars.get("Aim", "")))
    cou = fear = None
    courage = clean(chars.get("Cou/Fea", "")).upper()
    m = re.match(r"^(\d+)\s*([CF])?$", courage)
    if m:
        if m.group(2) == "F":
            fear = int(m.group(1))
        else:
            cou = int(m.group(1))
    else:
        data_notes.append("the reference card gives no COU or FEAR value")
    pow_value = whole(number(chars.get("Pow", "")))
    cost = points(card.entry, src)
    override = A.OVERRIDES.get(pid)
    fixed = override[0] if override else {}
    # Misprinted figures are corrected before the heuristics read them.
    cost = int(fixed.get("cost", cost))  # type: ignore[call-overload]
    values["mov"] = fixed.get("mov", values["mov"])  # type: ignore[assignment]

    # Roles ------------------------------------------------------------------
    name_low = card.name.lower()
    roles: list[str] = []
    roles_assigned = False
    if card.character:
        roles.append("character")
    if card.name in incarnates:
        roles.append("incarnate")
        roles_assigned = True
    musician = A.matches(A.MUSICIAN_PATTERN, card.name)
    standard = A.matches(A.STANDARD_PATTERN, card.name)
    if musician:
        roles.append("musician")
        roles_assigned = True
    if standard:
        roles.append("standard-bearer")
        roles_assigned = True
    if _has(abilities, "leadership") and not (musician or standard):
        roles.append("commander")
    magician = bool(mystic.power_rank) or (pow_value is not None and pow_value > 0)
    warrior_mage = _has(abilities, "warrior-mage")
    faithful = aspects is not None or mystic.faithful
    warrior_monk = _has(abilities, "warrior-monk")
    construct = _has(abilities, "construct")
    living_dead = _has(abilities, "living-dead")
    war_machine = card.war_machine_category or any(
        _has(abilities, a) for a in A.ARTILLERY_ABILITIES
    )
    if magician:
        roles.append("magician")
    if warrior_mage:
        roles.append("warrior-mage")
    if faithful:
        roles.append("faithful")
    if warrior_monk:
        roles.append("warrior-monk")
    if war_machine:
        roles.append("war-machine")
    if construct:
        roles.append("construct")
    if living_dead:
        roles.append("living-dead")
    if A.matches(A.FAMILIAR_PATTERN, card.name):
        roles.append("familiar")
        roles_assigned = True

    # Weapons and options ---------------------------------------------------------
    ranged: dict[str, Any] | None = None
    options: list[dict[str, Any]] = []
    option_ids: set[str] = set()
    for opt in option_entries(ctx, card.entry):
        opt_name = clean(opt.get("name"))
        if not opt_name or _SKIPPED_OPTIONS.search(opt_name):
            continue
        opt_cost = points(opt, src)
        weapon = parse_weapon(opt_name, opt_cost, opt.line)
        if weapon is not None and ranged is None and weapon.cost == 0:
            ranged = {
                "name": weapon.name,
                "strength": weapon.strength,
                "short": weapon.short,
                "medium": weapon.medium,
                "long": weapon.long,
            }
            continue
        oid = slug(weapon.name if weapon else opt_name.partition(":")[0]) or "option"
        base, n = oid, 2
        while oid in option_ids:
            oid, n = f"{base}-{n}", n + 1
        option_ids.add(oid)
        option: dict[str, Any] = {
            "id": oid,
            "name": weapon.name if weapon else opt_name,
            "cost": opt_cost,
        }
        if weapon:
            option["text"] = (
                f"ranged weapon: STR {weapon.strength}, ranges {weapon.short}/{weapon.medium}/{weapon.long} cm"
            )
        option["source"] = f"reference-data: {src.path.name}, line {opt.line}"
        options.append(option)
    if ranged is not None:
        roles.append("marksman")
        roles_assigned = True

    # Leader: may lead a unit (R2-D5 restrictions applied here, once).
    can_lead = not (
        musician
        or standard
        or construct
        or (magician and not warrior_mage)
        or (faithful and not warrior_monk)
        or (living_dead and not magician and not faithful)
    )
    if can_lead and (card.character or "commander" in roles):
        roles.append("leader")
        roles_assigned = True

    # Size -------------------------------------------------------------------------
    size = A.PEOPLE_SIZE.get(people, "medium")
    if _has(abilities, "large"):  # the card itself says so
        abilities.remove("large")
        size = "large"
    else:
        assigned.append("size")
    for pattern, pattern_size in A.SIZE_PATTERNS:
        if "size" not in assigned:
            break
        if A.matches(pattern, card.name):
            size = pattern_size
            break
    else:
        mounted_speed = A.MOUNTED_MOV.get(size, 99)
        if any(_has(abilities, a) for a in A.MOUNT_ABILITIES) or (
            not flying and float(values["mov"] or 0) >= mounted_speed and not war_machine
        ):
            size = "large"  # FAQ III: cavalry is Large

    # Rank -------------------------------------------------------------------------
    if card.character:
        rank = _band(A.CHARACTER_RANK_BANDS, cost)
        if (_value(abilities, "leadership") or 0) >= 20:
            rank = "living-legend"
    elif war_machine:
        rank = A.WAR_MACHINE_RANK
    elif A.matches(A.CREATURE_PATTERNS, card.name):
        rank = "creature"
    elif any(_has(abilities, a) for a in A.IRREGULAR_ABILITIES):
        rank = "irregular"
    else:
        rank = _band(A.TROOP_RANK_BANDS, cost)
        if "veteran" in name_low and rank == "regular":
            rank = "veteran"
    assigned.append("rank")
    if rank == "living-legend":
        roles.append("living-legend")
        roles_assigned = True

    # Mystic fields ----------------------------------------------------------------
    profile: dict[str, Any] = {
        "id": pid,
        "name": card.name,
        "people": people,
        "rank": rank,
        "size": size,
        "roles": roles,
        "cost": cost,
        "mov": values["mov"],
        "ini": whole(values["ini"]),
        "att": values["att"],
        "str": values["str"],
        "def": values["def"],
        "res": values["res"],
    }
    if aim is not None:
        profile["aim"] = aim
    if cou is not None:
        profile["cou"] = cou
    if fear is not None:
        profile["fear"] = fear
    profile["dis"] = whole(values["dis"])
    if magician:
        if pow_value:
            profile["power"] = pow_value
        if mystic.elements:
            profile["elements"] = mystic.elements
        if mystic.paths:
            profile["path"] = mystic.paths[0]
            if len(mystic.paths) > 1:
                more = mystic.paths[1:]
                notes.append(
                    f"also masters the path{'s' if len(more) > 1 else ''} " + ", ".join(more)
                )
        if mystic.power_rank:
            profile["initiation_rank"] = mystic.power_rank
    if faithful:
        if aspects is not None:
            profile["aspects"] = aspects
        else:
            data_notes.append("the reference card gives no Aspects")
        if mystic.cult:
            profile["cult"] = mystic.cult
            assigned.append("cult")  # the deity is read; its Rag'Narok 2 cult is our mapping
            notes.append(f"faithful of {mystic.deity} (cult of {mystic.cult.capitalize()})")
        faith_rank = aspect_rank or mystic.faith_rank
        if faith_rank not in A.FAITH_RANKS:
            faith_rank = "devout"
            assigned.append("faith_rank")
        profile["faith_rank"] = faith_rank
    if abilities:
        profile["abilities"] = abilities
    if ranged is not None:
        profile["ranged"] = ranged
    if options:
        profile["options"] = options

    # Overrides (seeds' mentions, misprints) ------------------------------------------
    if override is not None:
        fields, reason = override
        for key, value in fields.items():
            profile[key] = value
            if key not in assigned:
                assigned.append(key)
        data_notes.append(reason)
    if cost == 0 and (override is None or "cost" not in override[0]):
        data_notes.append("the reference gives this card no cost of its own")
    if roles_assigned:
        assigned.append("roles")
    profile["assigned"] = sorted(set(assigned))
    profile["source"] = f"reference-data: confrontation-c5/{src.path.name}, line {card.card.line}"
    for key, found in (("note", notes), ("data_note", data_notes)):
        text = "; ".join(n for n in found if n)
        if text:
            profile[key] = text[0].upper() + text[1:] + "."
    try:
        Profile.model_validate(profile)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise src.error(
            f"profile '{card.name}' does not fit the catalogue: {where}: {first['msg']}", card.card
        ) from None
    return profile


def convert_people(ctx: Context, people: str) -> list[dict[str, Any]]:
    cards = profile_cards(ctx)
    names = {c.name for c in cards}
    incarnates: set[str] = set()
    for c in cards:
        second = re.sub(r"\s*\(2nd\)|\s+II$", "", c.name)  # "(2nd)" or "II": a later incarnation
        if second != c.name and c.character:
            incarnates.add(c.name)
            if second in names:
                incarnates.add(second)
    profiles = [build_profile(ctx, people, c, incarnates) for c in cards]
    seen: dict[str, int] = {}
    for p, c in zip(profiles, cards, strict=True):
        if p["id"] in seen:
            raise ctx.source.error(f"two Profile Cards give the id '{p['id']}'", c.card)
        seen[p["id"]] = 1
    return sorted(profiles, key=lambda p: p["id"])


# --------------------------------------------------------------------------- miracles


def convert_miracles(ctx: Context) -> list[dict[str, Any]]:
    """Miracle Cards with figures → Miracle entries (names and summaries from our table)."""
    out = []
    # A miracle may appear twice (a Character's copy with an empty card): the card with
    # figures wins; a miracle known only by an empty card is kept with what our table says.
    cards: dict[str, tuple[XNode, XNode, str]] = {}
    for entry in ctx.source.root.iter("selectionEntry"):
        card = card_of(entry, MIRACLE_CARD)
        if card is None:
            continue
        reference_name = re.sub(r"\s*\([\d ]+\)\s*$", "", clean(entry.get("name")))
        aspects_text = " ".join(clean(characteristics(card).get("Aspetti", "")).split())
        has_figures = re.fullmatch(r"\d \d \d", aspects_text) is not None
        if reference_name not in cards or has_figures:
            if reference_name in cards and cards[reference_name][2]:
                continue  # keep the first card with figures
            cards[reference_name] = (entry, card, aspects_text if has_figures else "")
    for reference_name, (entry, card, aspects_text) in cards.items():
        chars = characteristics(card)
        known = A.MIRACLES.get(reference_name)
        if known is None:
            if not aspects_text:
                continue  # an empty card we know nothing about
            raise ctx.source.error(
                f"miracle '{reference_name}' has no English name and summary in import_assignments.MIRACLES",
                entry,
            )
        creation, alteration, destruction = (int(x) for x in (aspects_text or "0 0 0").split())
        aspects = [
            name
            for name, value in (
                ("alteration", alteration),
                ("creation", creation),
                ("destruction", destruction),
            )
            if value > 0
        ]
        fervor = known.get("fervor", number(chars.get("Fervore", "")))
        difficulty = clean(chars.get("Difficolta`", ""))
        miracle: dict[str, Any] = {
            "id": slug(str(known["name"])),
            "name": known["name"],
            "cults": known["cults"],
        }
        if fervor is not None:
            miracle["fervor"] = int(str(fervor))
        miracle["aspects"] = aspects
        if known.get("difficulty"):
            miracle["difficulty"] = known["difficulty"]
        elif re.fullmatch(r"\d+", difficulty):
            miracle["difficulty"] = difficulty
        miracle["text"] = known["text"]
        miracle["source"] = (
            f"reference-data: confrontation-c5/{ctx.source.path.name}, line {card.line} "
            + (
                f"({reference_name}; Aspects C/A/D {creation}/{alteration}/{destruction})"
                if aspects_text
                else f"({reference_name}; the card gives no figures)"
            )
        )
        try:
            Miracle.model_validate(miracle)
        except ValidationError as exc:
            raise ctx.source.error(
                f"miracle '{reference_name}' does not fit the catalogue: {exc.errors()[0]['msg']}",
                card,
            ) from None
        out.append(miracle)
    ids = [m["id"] for m in out]
    if len(set(ids)) != len(ids):
        raise ctx.source.error("two miracles give the same id")
    return sorted(out, key=lambda m: m["id"])


# --------------------------------------------------------------------------- output


def _header(kind: str, source: Path, system: Path | None) -> str:
    lines = [
        f"{kind} of the Rag'Narok 2 catalogue.",
        "GENERATED by `armybuilder catalog import-bsdata ragnarok2` from the BattleScribe file",
        f"  confrontation-c5/{source.name}" + (f" (with {system.name})" if system else ""),
        "Do not edit by hand: change armybuilder/systems/ragnarok2/import_assignments.py",
        "and run the importer again (see docs/catalogue.md).",
    ]
    if kind.startswith("Profiles"):
        lines += [
            "Figures come from the reference data; fields listed in a profile's `assigned`",
            "were assigned by this project (CAT-D1), see import_assignments.py for the rules.",
        ]
    else:
        lines += [
            "Names and one-line summaries are this project's own words; figures from the reference data."
        ]
    return "\n".join(lines)


def _dump(key: str, entries: list[dict[str, Any]], header: str) -> str:
    return dump_document(new_document({key: entries}, header))


def convert(sources: list[Path], people: str | None = None) -> dict[str, str]:
    """Convert BattleScribe sources into catalogue files: {relative path: YAML text}.

    ``people``: the people id of a catalogue the bundled table does not map (a community
    file for a people the bundled data lacks, imported into a house catalogue)."""
    loaded = [load_source(Path(p)) for p in sources]
    systems = [s for s in loaded if s.root.tag == "gameSystem"]
    if len(systems) > 1:
        raise InputError.at("give at most one game system file (.gst)", systems[1].path)
    system = systems[0] if systems else None
    out: dict[str, str] = {}
    for src in loaded:
        if src.root.tag != "catalogue":
            continue
        ctx = Context(src, system)
        name = clean(src.name)
        if name in A.IGNORED_CATALOGUES:
            continue
        if name == A.MIRACLES_CATALOGUE:
            miracles = convert_miracles(ctx)
            out["miracles.yaml"] = _dump("miracles", miracles, _header("Miracles", src.path, None))
            continue
        people_id = A.PEOPLE_BY_CATALOGUE.get(name, people)
        if people_id is None:
            known = ", ".join(sorted(A.PEOPLE_BY_CATALOGUE))
            raise InputError.at(
                f"catalogue '{name}' is not mapped to a Rag'Narok 2 people (known: {known}); "
                "name its people with --people",
                src.path,
                src.root.line,
            )
        profiles = convert_people(ctx, people_id)
        rel = f"profiles/{people_id}.yaml"
        if rel in out:
            raise InputError.at(f"two catalogues give the people '{people_id}'", src.path)
        out[rel] = _dump(
            "profiles",
            profiles,
            _header(f"Profiles of {people_id}", src.path, system.path if system else None),
        )
    if not out:
        raise InputError.at(
            "none of the sources is a people, miracles or game system file of Confrontation C5"
        )
    return out
