"""Rattle and Rend warband-building rules, one small function per rule (RR-D1).

Every message carries the numbers and a way to fix the warband.  Limits (12 points,
4–8 groups, 4 points of line groups, two traits, one drive) are read from the
list's format in the catalogue it is pinned to, never from code.  Rules run on any
half-built warband and never raise (the RuleBook also guards against a bug).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from armybuilder.core.checks import ListContext, PointLimit, a_or_an, plural, unknown_format
from armybuilder.core.findings import Finding, RuleBook, Severity

from .counting import (
    PointsBreakdown,
    as_index,
    attachment_target,
    breakdown,
    choices_of,
    counted_groups,
    find_group,
    group_title,
    group_type,
    normalize,
    transport_capacity,
)
from .legality import TRAIT_FIELDS, carried_load

if TYPE_CHECKING:  # the rules read the models or their plain mirrors alike
    from .army import RRList
    from .catalog import RRCat, RRCatalog, RRFormat  # noqa: F401 - the base class names them as text

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
SYSTEM = "rattle-and-rend"
book = RuleBook(SYSTEM)
SEED = "rattle-and-rend-alpha02"

OPTION_KIND = {fld: kind for kind, (fld, _, _) in TRAIT_FIELDS.items()}


@dataclass
class Context(ListContext["RRList", "RRCatalog", "RRFormat"]):
    """The warband as the rules read it (names read as ids), and as it was written."""

    written: RRList | None = None  # the warband before normalising (several picks still there)
    aliases: list[tuple[str, str, str]] = field(default_factory=list)  # (where, given, id) read by normalize

    @classmethod
    def of(cls, army: RRList, cat: RRCat) -> Context:
        """The context of ``army``, its names read as catalogue ids first (RR-D3)."""
        try:
            shown, aliases = normalize(army, cat)
        except Exception:  # noqa: BLE001 - a half-built list is judged as it stands
            shown, aliases = army, []
        return cls(shown, cat, army, aliases)

    @functools.cached_property
    def points(self) -> PointsBreakdown:
        return breakdown(self.army, self.cat)

    def title(self, index: int) -> str:
        return f"group {index + 1} ({group_title(self.cat, self.army.groups[index], index)})"


def _option_entry_ok(ctx: Context, kind: str, value: str) -> bool:
    """Does ``value`` name an entry of the right kind (a champion action is an action of kind champion)?"""
    _, collection, _ = TRAIT_FIELDS[kind]
    entry = ctx.cat.get(collection, value)
    if entry is None:
        return False
    if kind == "champion-action":
        return entry.kind == "champion"
    if kind == "warding-reaction":
        return entry.kind == "warding"
    return True


# --------------------------------------------------------------------------- catalogue


@book.rule("rattle-and-rend.catalogue.missing-entry")
def missing_entries(ctx: Context) -> Iterator[Finding]:
    """Ids the pinned catalogue does not know: the entry stays in the list, marked."""
    for gi, g in enumerate(ctx.army.groups):
        if group_type(ctx.cat, g) is None:
            known = ", ".join(gt.id for gt in ctx.data.group_types)
            yield Finding(
                "rattle-and-rend.catalogue.missing-entry",
                E,
                f"group {gi + 1}: group type '{g.type}' does not exist in catalogue {ctx.cat.version} "
                f"(known: {known}); change its type or remove it",
                f"groups[{gi}].type",
                "design: Army lists",
            )
        for fld, kind in OPTION_KIND.items():
            value = getattr(g, fld)
            if value is not None and not _option_entry_ok(ctx, kind, value):
                words = TRAIT_FIELDS[kind][2]
                exists = ctx.cat.get(TRAIT_FIELDS[kind][1], value) is not None
                what = f"is not {a_or_an(words)}" if exists else f"does not exist in catalogue {ctx.cat.version}"
                yield Finding(
                    "rattle-and-rend.catalogue.missing-entry",
                    E,
                    f"group {gi + 1}: {words} '{value}' {what}; "
                    f"choose one of: {', '.join(_choices(ctx, kind))}",
                    f"groups[{gi}].{fld}",
                    "design: Army lists",
                )
    for ti, tid in enumerate(ctx.army.traits):
        if ctx.cat.get("warband_traits", tid) is None:
            yield Finding(
                "rattle-and-rend.catalogue.missing-entry",
                E,
                f"warband trait '{tid}' does not exist in catalogue {ctx.cat.version}; replace it "
                f"with one of: {', '.join(t.id for t in ctx.data.warband_traits)}",
                f"traits[{ti}]",
                "design: Army lists",
            )
    if ctx.army.drive is not None and ctx.cat.get("drives", ctx.army.drive) is None:
        yield Finding(
            "rattle-and-rend.catalogue.missing-entry",
            E,
            f"drive '{ctx.army.drive}' does not exist in catalogue {ctx.cat.version}; choose one of: "
            f"{', '.join(d.id for d in ctx.data.drives)}",
            "drive",
            "design: Army lists",
        )


def _choices(ctx: Context, kind: str) -> list[str]:
    _, collection, _ = TRAIT_FIELDS[kind]
    return [e.id for e in getattr(ctx.data, collection) if _option_entry_ok(ctx, kind, e.id)]


@book.rule("rattle-and-rend.format.unknown")
def format_known(ctx: Context) -> Iterator[Finding]:
    return unknown_format(ctx, "rattle-and-rend.format.unknown", f"{SEED}: Your Warband")


# --------------------------------------------------------------------------- points and groups


POINT_LIMIT = PointLimit(
    "rattle-and-rend.points.limit", "the warband", "points", f"{SEED}: Your Warband", "groups", "of groups",
    unspent_rule="rattle-and-rend.points.unspent", own_limit_rule="rattle-and-rend.points.own-limit",
)


@book.rule(POINT_LIMIT.rule, also=("rattle-and-rend.points.unspent", "rattle-and-rend.points.own-limit"))
def point_limit(ctx: Context) -> Iterator[Finding]:
    yield from POINT_LIMIT.own_limit(ctx.army.limit, ctx.format_limit)
    yield from POINT_LIMIT.check(ctx.points.total, ctx.format.limit if ctx.format else None, bool(ctx.army.groups))


@book.rule("rattle-and-rend.groups.count")
def group_count(ctx: Context) -> Iterator[Finding]:
    if ctx.format is None:
        return
    n, low, high = counted_groups(ctx.army, ctx.cat), ctx.format.min_groups, ctx.format.max_groups
    attached = len(ctx.army.groups) - n
    note = f" ({len(ctx.army.groups)} entries; attached Champions count with their group)" if attached else ""
    if n < low:
        yield Finding(
            "rattle-and-rend.groups.count",
            E,
            f"the warband has {plural(n, 'group')}{note}; it needs {low} to {high}: add {low - n}",
            "groups",
            f"{SEED}: Your Warband; RR-D1",
        )
    elif n > high:
        yield Finding(
            "rattle-and-rend.groups.count",
            E,
            f"the warband has {plural(n, 'group')}{note}; it may have {low} to {high}: remove {n - high} "
            "or attach a Champion to a group",
            "groups",
            f"{SEED}: Your Warband; RR-D1",
        )


@book.rule("rattle-and-rend.groups.line-points")
def line_points(ctx: Context) -> Iterator[Finding]:
    if ctx.format is None or not ctx.army.groups:
        return
    spent, needed = ctx.points.line, ctx.format.min_line_points
    if spent < needed:
        names = ", ".join(
            gt.name for t in ctx.format.line_types if (gt := ctx.cat.get("group_types", t)) is not None
        )
        yield Finding(
            "rattle-and-rend.groups.line-points",
            E,
            f"{spent} points are spent on {names}; at least {needed} are needed: add {needed - spent} points of them",
            "groups",
            f"{SEED}: Your Warband",
        )


# --------------------------------------------------------------------------- traits and drive


@book.rule("rattle-and-rend.traits.count", also=("rattle-and-rend.traits.distinct",))
def trait_count(ctx: Context) -> Iterator[Finding]:
    if ctx.format is None:
        return
    distinct = list(dict.fromkeys(ctx.army.traits))
    wanted = ctx.format.traits
    for ti, tid in enumerate(ctx.army.traits):
        if tid in ctx.army.traits[:ti]:
            yield Finding(
                "rattle-and-rend.traits.distinct",
                E,
                f"warband trait '{tid}' is chosen twice; the {wanted} traits must differ: replace one",
                f"traits[{ti}]",
                f"{SEED}: Warband Traits; RR-D1",
            )
    if len(distinct) != wanted:
        fix = f"add {wanted - len(distinct)}" if len(distinct) < wanted else f"remove {len(distinct) - wanted}"
        yield Finding(
            "rattle-and-rend.traits.count",
            E,
            f"the warband has {plural(len(distinct), 'distinct warband trait')}; it needs exactly {wanted}: {fix}",
            "traits",
            f"{SEED}: Warband Traits; RR-D1",
        )


@book.rule("rattle-and-rend.drive.required")
def drive_required(ctx: Context) -> Iterator[Finding]:
    if not any(d.strip() for d in choices_of(ctx.army.drive)):
        yield Finding(
            "rattle-and-rend.drive.required",
            E,
            f"the warband has no drive; it needs exactly 1: choose one of "
            f"{', '.join(d.name for d in ctx.data.drives)}",
            "drive",
            f"{SEED}: Drives; RR-D1",
        )


# --------------------------------------------------------------------------- group traits


@book.rule(
    "rattle-and-rend.group.option-not-allowed",
    also=("rattle-and-rend.champion.action", "rattle-and-rend.heavy.trait", "rattle-and-rend.ward.reaction"),
)
def group_traits(ctx: Context) -> Iterator[Finding]:
    """A Champion takes one champion action, a Heavy one heavy trait, a Ward one warding reaction."""
    rule_of = {
        "champion-action": "rattle-and-rend.champion.action",
        "heavy-trait": "rattle-and-rend.heavy.trait",
        "warding-reaction": "rattle-and-rend.ward.reaction",
    }
    for gi, g in enumerate(ctx.army.groups):
        gt = group_type(ctx.cat, g)
        if gt is None:
            continue
        for fld, kind in OPTION_KIND.items():
            value = getattr(g, fld)
            words = TRAIT_FIELDS[kind][2]
            if gt.trait == kind and value is None:
                yield Finding(
                    rule_of[kind],
                    E,
                    f"{ctx.title(gi)} has no {words}; {a_or_an(gt.name)} takes exactly 1: choose one of "
                    f"{', '.join(_choices(ctx, kind))}",
                    f"groups[{gi}]",
                    f"{SEED}: {gt.name}; RR-D1",
                )
            elif gt.trait != kind and value is not None:
                yield Finding(
                    "rattle-and-rend.group.option-not-allowed",
                    E,
                    f"{ctx.title(gi)} has {a_or_an(words)} ('{value}'), but only "
                    f"{_holder(ctx, kind)} take one: remove it",
                    f"groups[{gi}].{fld}",
                    f"{SEED}: About Group Stats; RR-D1",
                )


def _holder(ctx: Context, kind: str) -> str:
    names = [gt.name + "s" for gt in ctx.data.group_types if gt.trait == kind]
    return " and ".join(names) or "no group type"


# --------------------------------------------------------------------------- attachments


@book.rule(
    "rattle-and-rend.attachment.target",
    also=("rattle-and-rend.attachment.source", "rattle-and-rend.attachment.one-per-group"),
)
def attachments(ctx: Context) -> Iterator[Finding]:
    groups = ctx.army.groups
    per_target: dict[int, list[int]] = {}
    for gi, g in enumerate(groups):
        if g.attached_to is None:
            continue
        gt = group_type(ctx.cat, g)
        where = f"groups[{gi}].attached_to"
        source = f"{SEED}: Group Attachments; RR-D1"
        if gt is not None and not gt.can_attach:
            yield Finding(
                "rattle-and-rend.attachment.source",
                E,
                f"{ctx.title(gi)} is attached to another group, but only "
                f"{' and '.join(t.name + 's' for t in ctx.data.group_types if t.can_attach) or 'no group'} "
                "may be attached: remove the attachment",
                where,
                source,
            )
            continue
        target = as_index(g.attached_to)
        if target is None:
            continue  # a name that matched no group: reported by the several() rule
        if target == gi or not 0 <= target < len(groups):
            yield Finding(
                "rattle-and-rend.attachment.target",
                E,
                f"{ctx.title(gi)} is attached to group {target + 1}, "
                + ("itself" if target == gi else f"but the warband has {plural(len(groups), 'group')}")
                + ": attach it to an existing Heavy, Fighters, Shooters or Skirmishers group or detach it",
                where,
                source,
            )
            continue
        tt = group_type(ctx.cat, groups[target])
        allowed = gt.attach_targets if gt is not None else []
        if tt is not None and tt.id not in allowed:
            names = ", ".join(n.name for t in allowed if (n := ctx.cat.get("group_types", t)) is not None)
            yield Finding(
                "rattle-and-rend.attachment.target",
                E,
                f"{ctx.title(gi)} is attached to {ctx.title(target)}; a {gt.name if gt else g.type} may join "
                f"only {names}: attach it elsewhere or detach it",
                where,
                source,
            )
            continue
        if groups[target].attached_to is not None:
            yield Finding(
                "rattle-and-rend.attachment.target",
                E,
                f"{ctx.title(gi)} is attached to {ctx.title(target)}, which is itself attached: "
                "attach it to a group that stands on its own",
                where,
                source,
            )
            continue
        per_target.setdefault(target, []).append(gi)
    for target, champions in per_target.items():
        if len(champions) > 1:
            numbers = ", ".join(str(c + 1) for c in champions)
            yield Finding(
                "rattle-and-rend.attachment.one-per-group",
                E,
                f"{ctx.title(target)} has {len(champions)} Champions attached (groups {numbers}); "
                f"a group takes 1: detach {len(champions) - 1}",
                f"groups[{champions[1]}].attached_to",
                f"{SEED}: Group Attachments; RR-D1",
            )


# --------------------------------------------------------------------------- transport


@book.rule(
    "rattle-and-rend.transport.carrier",
    also=("rattle-and-rend.transport.cargo", "rattle-and-rend.transport.capacity", "rattle-and-rend.transport.attached"),
)
def transports(ctx: Context) -> Iterator[Finding]:
    groups = ctx.army.groups
    loads: dict[int, list[int]] = {}
    source = f"{SEED}: Heavy Traits (Transport), Warband Traits (Riders)"
    for gi, g in enumerate(groups):
        carrier = as_index(g.transported_by)
        if carrier is None:
            continue
        where = f"groups[{gi}].transported_by"
        if carrier == gi or not 0 <= carrier < len(groups):
            yield Finding(
                "rattle-and-rend.transport.carrier",
                E,
                f"{ctx.title(gi)} rides in group {carrier + 1}, "
                + ("itself" if carrier == gi else f"but the warband has {plural(len(groups), 'group')}")
                + ": choose a Transport Heavy or remove the transport",
                where,
                source,
            )
            continue
        capacity = transport_capacity(ctx.army, ctx.cat, carrier)
        if capacity == 0:
            yield Finding(
                "rattle-and-rend.transport.carrier",
                E,
                f"{ctx.title(gi)} rides in {ctx.title(carrier)}, which carries nothing (only a Heavy with "
                "the Transport trait, or any Heavy of a Riders warband, carries groups): choose another",
                where,
                source,
            )
            continue
        gt = group_type(ctx.cat, g)
        if gt is not None and gt.id == "heavy":
            yield Finding(
                "rattle-and-rend.transport.cargo",
                E,
                f"{ctx.title(gi)} is a Heavy and cannot be carried: remove the transport",
                where,
                source,
            )
            continue
        target = attachment_target(ctx.army, gi)
        if target is not None:  # an attached Champion is one entity with its group (seed: Group Attachments)
            yield Finding(
                "rattle-and-rend.transport.attached",
                E,
                f"{ctx.title(gi)} is attached to {ctx.title(target)} and goes where it goes: remove its own "
                f"transport (to carry both, put {ctx.title(target)} in {ctx.title(carrier)})",
                where,
                f"{SEED}: Group Attachments, Heavy Traits (Transport)",
            )
            continue
        loads.setdefault(carrier, []).append(gi)
    for carrier, cargo in loads.items():
        capacity = transport_capacity(ctx.army, ctx.cat, carrier)
        carried = carried_load(ctx.army, ctx.cat, carrier)  # the pickers' own count
        if carried > capacity:
            yield Finding(
                "rattle-and-rend.transport.capacity",
                E,
                f"{ctx.title(carrier)} carries {carried} points; it holds {capacity}: "
                f"take {plural(carried - capacity, 'point')} out",
                f"groups[{cargo[-1]}].transported_by",
                source,
            )


@book.rule("rattle-and-rend.groups.none")
def has_groups(ctx: Context) -> Iterator[Finding]:
    if not ctx.army.groups:
        yield Finding(
            "rattle-and-rend.groups.none",
            INFO,
            "the warband has no groups yet: start with Fighters, Shooters or Skirmishers",
            "groups",
            f"{SEED}: Your Warband",
        )


@book.rule(
    "rattle-and-rend.drive.count",
    also=(
        "rattle-and-rend.champion.action",
        "rattle-and-rend.heavy.trait",
        "rattle-and-rend.ward.reaction",
        "rattle-and-rend.attachment.target",
        "rattle-and-rend.transport.carrier",
    ),
)
def several(ctx: Context) -> Iterator[Finding]:
    """Several champion actions, heavy traits, warding reactions or drives where one is taken.

    Read on the warband as written: normalising keeps the first of several picks.
    """
    army, cat = ctx.written or ctx.army, ctx.cat
    rule_of = {
        "champion_action": ("rattle-and-rend.champion.action", "champion action", "a Champion"),
        "heavy_trait": ("rattle-and-rend.heavy.trait", "heavy trait", "a Heavy"),
        "warding_reaction": ("rattle-and-rend.ward.reaction", "warding reaction", "a Ward"),
    }
    for gi, g in enumerate(army.groups):
        for fld, (rule, words, holder) in rule_of.items():
            values = choices_of(getattr(g, fld))
            if len(values) > 1:
                yield Finding(
                    rule,
                    E,
                    f"group {gi + 1} ({group_title(cat, g, gi)}) has {len(values)} {words}s ({', '.join(values)}); "
                    f"{holder} takes exactly 1: remove {len(values) - 1}",
                    f"groups[{gi}].{fld}",
                    f"{SEED}: Your Warband; RR-D1",
                )
    for gi, g in enumerate(army.groups):  # attachments and transports given by name
        for fld, rule in (("attached_to", "rattle-and-rend.attachment.target"), ("transported_by", "rattle-and-rend.transport.carrier")):
            value = getattr(g, fld)
            if isinstance(value, str):
                index, why = find_group(army, cat, value, gi)
                if index is None:
                    yield Finding(
                        rule,
                        E,
                        f"group {gi + 1} ({group_title(cat, g, gi)}) names '{value}' in {fld}, but {why}",
                        f"groups[{gi}].{fld}",
                        f"{SEED}: Group Attachments, Heavy Traits",
                    )
    drives = choices_of(army.drive)
    if len(drives) > 1:
        yield Finding(
            "rattle-and-rend.drive.count",
            E,
            f"the warband has {len(drives)} drives ({', '.join(drives)}); it takes exactly 1: remove {len(drives) - 1}",
            "drive",
            f"{SEED}: Drives; RR-D1",
        )


@book.rule("rattle-and-rend.catalogue.alias")
def aliases(ctx: Context) -> Iterator[Finding]:
    """What a name or the seed's spelling was read as (RR-D3)."""
    for where, given, canonical in ctx.aliases:
        yield Finding(
            "rattle-and-rend.catalogue.alias",
            INFO,
            f"'{given}' is read as '{canonical}' (a name or the seed's spelling; RR-D3)",
            where,
            "RR-D3",
        )


def run_rules(army: RRList, cat: RRCat) -> list[Finding]:
    """All findings, every rule inside the RuleBook's crash guard; names are read as ids first (RR-D3)."""
    return book.run(Context.of(army, cat))


def type_counts(army: RRList) -> Counter[str]:
    return Counter(g.type for g in army.groups)
