"""Ragnarok (Morpheus Engine) war-clan rules (ME-D2), one small function per rule.

Every message carries the numbers and a way to fix the clan.  The limits come from
the list's format preset (catalogue data), so a later catalogue version can change
them.  Rules run on half-built clans too: an unknown id is reported by its own rule
and simply not counted by the others.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from armybuilder.core.checks import ListContext, PointLimit, plural, unknown_format
from armybuilder.core.findings import Finding, RuleBook, Severity

from .counting import KINDS, breakdown, counts, equipment_kind, warrior_name, warrior_type
from .legality import KIND_WORDS, gear_limit

if TYPE_CHECKING:  # the rules read the models or their plain mirrors alike
    from .army import WarClan
    from .catalog import MECat, MECatalog, MEFormat  # noqa: F401 - the base class names them as text

E, W = Severity.ERROR, Severity.WARNING
SYSTEM_ID = "morpheus-ragnarok"
book = RuleBook(SYSTEM_ID)



@dataclass
class Context(ListContext["WarClan", "MECatalog", "MEFormat"]):

    @functools.cached_property
    def glory(self):
        return breakdown(self.army, self.cat)

    @functools.cached_property
    def jarls(self) -> list[int]:
        return [i for i, w in enumerate(self.army.warriors) if w.jarl]


def run_rules(army: WarClan, cat: MECat) -> list[Finding]:
    return book.run(Context(army, cat))


# --------------------------------------------------------------------------- catalogue


@book.rule(f"{SYSTEM_ID}.format.unknown")
def format_known(ctx: Context) -> Iterator[Finding]:
    return unknown_format(ctx, f"{SYSTEM_ID}.format.unknown", "ME-D2")


@book.rule(f"{SYSTEM_ID}.catalogue.missing-entry")
def unknown_entries(ctx: Context) -> Iterator[Finding]:
    rule = f"{SYSTEM_ID}.catalogue.missing-entry"
    for wi, w in enumerate(ctx.army.warriors):
        if warrior_type(ctx.cat, w.type) is None:
            yield Finding(
                rule,
                E,
                f"warrior type '{w.type}' does not exist in catalogue {ctx.cat.version}; it stays in the "
                "list, marked: choose another type or remove the warrior",
                f"warriors[{wi}].type",
                "ME-D2",
            )
        for ei, item in enumerate(w.equipment):
            if equipment_kind(ctx.cat, item) is None:
                yield Finding(
                    rule,
                    E,
                    f"equipment '{item}' does not exist in catalogue {ctx.cat.version}; remove it or "
                    "choose a catalogued armour, shield, weapon or item",
                    f"warriors[{wi}].equipment[{ei}]",
                    "ME-D2",
                )
    for pi, pick in enumerate(ctx.army.god_powers):
        if ctx.cat.get("god_powers", pick.power) is None:
            yield Finding(
                rule,
                E,
                f"God power '{pick.power}' does not exist in catalogue {ctx.cat.version}; remove it",
                f"god_powers[{pi}]",
                "ME-D2",
            )


# --------------------------------------------------------------------------- clan


POINT_LIMIT = PointLimit(
    f"{SYSTEM_ID}.glory.limit", "the war clan", "Glory", "ME-D2", "warriors", "of warriors or equipment", own_limit_rule=f"{SYSTEM_ID}.glory.own-limit"
)


@book.rule(POINT_LIMIT.rule, also=(f"{SYSTEM_ID}.glory.own-limit",))
def glory_limit(ctx: Context) -> Iterator[Finding]:
    yield from POINT_LIMIT.own_limit(ctx.army.limit, ctx.format_limit)
    yield from POINT_LIMIT.check(ctx.glory.total, ctx.format.limit if ctx.format else None)


@book.rule(f"{SYSTEM_ID}.clan.size")
def clan_size(ctx: Context) -> Iterator[Finding]:
    fmt = ctx.format
    if fmt is None:
        return
    n = len(ctx.army.warriors)
    if n < fmt.min_models:
        yield Finding(
            f"{SYSTEM_ID}.clan.size",
            E,
            f"the war clan has {plural(n, 'model')}, at least {fmt.min_models} are needed: "
            f"add {fmt.min_models - n}",
            "warriors",
            "ME-D2",
        )
    elif n > fmt.max_models:
        yield Finding(
            f"{SYSTEM_ID}.clan.size",
            E,
            f"the war clan has {plural(n, 'model')}, at most {fmt.max_models} are allowed: "
            f"remove {n - fmt.max_models}",
            "warriors",
            "ME-D2",
        )


@book.rule(f"{SYSTEM_ID}.jarl.count")
def jarl_count(ctx: Context) -> Iterator[Finding]:
    wanted = ctx.format.jarls if ctx.format else 1
    n = len(ctx.jarls)
    if n == wanted:
        return
    if n < wanted:
        msg = (
            f"the war clan has {plural(n, 'Jarl')}, exactly {wanted} is needed: add a Jarl "
            "or make a Jarl warrior the clan's Jarl"
        )
        where = "warriors"
    else:
        names = ", ".join(warrior_name(ctx.cat, ctx.army.warriors[i]) for i in ctx.jarls)
        msg = f"the war clan has {n} Jarls ({names}), exactly {wanted} is allowed: keep only one"
        where = f"warriors[{ctx.jarls[wanted]}]"
    yield Finding(f"{SYSTEM_ID}.jarl.count", E, msg, where, "ME-D2")


@book.rule(f"{SYSTEM_ID}.jarl.profile")
def jarl_profile(ctx: Context) -> Iterator[Finding]:
    """Only a Jarl profile leads the clan, and a Jarl profile is always its leader."""
    for wi, w in enumerate(ctx.army.warriors):
        t = warrior_type(ctx.cat, w.type)
        if t is None:
            continue
        if w.jarl and not t.jarl:
            yield Finding(
                f"{SYSTEM_ID}.jarl.profile",
                E,
                f"{t.name} is marked as the clan's Jarl, but only a Jarl warrior type can lead: "
                "unmark it and add a Jarl",
                f"warriors[{wi}]",
                "ME-D2; reference-data War_Clan.cat",
            )
        elif t.jarl and not w.jarl:
            yield Finding(
                f"{SYSTEM_ID}.jarl.profile",
                E,
                f"{t.name} is a Jarl warrior type but is not marked as the clan's Jarl: mark it (set Jarl)",
                f"warriors[{wi}]",
                "ME-D2; reference-data War_Clan.cat",
            )


@book.rule(f"{SYSTEM_ID}.clan.type-limit")
def type_limit(ctx: Context) -> Iterator[Finding]:
    seen = Counter(w.type for w in ctx.army.warriors)
    for type_id, n in seen.items():
        t = warrior_type(ctx.cat, type_id)
        if t is None or t.max_per_clan is None or n <= t.max_per_clan:
            continue
        last = [i for i, w in enumerate(ctx.army.warriors) if w.type == type_id][t.max_per_clan]
        yield Finding(
            f"{SYSTEM_ID}.clan.type-limit",
            E,
            f"the war clan has {n} {t.name} warriors, at most {t.max_per_clan} allowed: remove {n - t.max_per_clan}",
            f"warriors[{last}]",
            "reference-data War_Clan.cat",
        )


# --------------------------------------------------------------------------- equipment


def _gear_rule(kind: str, rule: str):
    @book.rule(rule)
    def check(ctx: Context) -> Iterator[Finding]:
        if ctx.format is None:
            return
        limit = gear_limit(ctx.format, kind)
        one, many = KIND_WORDS[kind]
        for wi, w in enumerate(ctx.army.warriors):
            n = counts(ctx.cat, w)[kind]
            if n > limit:
                yield Finding(
                    rule,
                    E,
                    f"{warrior_name(ctx.cat, w)} carries {plural(n, one, many)}, at most {limit} allowed: "
                    f"remove {n - limit}",
                    f"warriors[{wi}].equipment",
                    "ME-D2",
                )

    return check


_gear_rule("armour", f"{SYSTEM_ID}.gear.armour")
_gear_rule("shields", f"{SYSTEM_ID}.gear.shield")
_gear_rule("weapons", f"{SYSTEM_ID}.gear.weapons")
_gear_rule("items", f"{SYSTEM_ID}.gear.items")


# --------------------------------------------------------------------------- God powers


@book.rule(f"{SYSTEM_ID}.godspark.count")
def god_power_count(ctx: Context) -> Iterator[Finding]:
    if ctx.format is None:
        return
    n = len(ctx.army.god_powers)
    if n > ctx.format.max_god_powers:
        yield Finding(
            f"{SYSTEM_ID}.godspark.count",
            E,
            f"the war clan has {plural(n, 'God power')}, at most {ctx.format.max_god_powers} allowed: "
            f"remove {n - ctx.format.max_god_powers}",
            "god_powers",
            "reference-data Ragnarok.gst",
        )


@book.rule(f"{SYSTEM_ID}.godspark.duplicate")
def god_power_duplicate(ctx: Context) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for pi, pick in enumerate(ctx.army.god_powers):
        if pick.power in seen:
            p = ctx.cat.get("god_powers", pick.power)
            yield Finding(
                f"{SYSTEM_ID}.godspark.duplicate",
                E,
                f"the God power {p.name if p else pick.power} is chosen twice (entries {seen[pick.power] + 1} "
                f"and {pi + 1}): remove one",
                f"god_powers[{pi}]",
                "reference-data Ragnarok.gst",
            )
        seen.setdefault(pick.power, pi)


assert set(KINDS) == set(KIND_WORDS)
