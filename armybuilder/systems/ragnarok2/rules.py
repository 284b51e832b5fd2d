"""Rag'Narok 2 army-building rules, one small function per rule.

Every message carries the numbers and a way to fix the list.  Rules read the
catalogue the list is pinned to, so a list built on 1.0.0 is judged by 1.0.0.
Rules receive a :class:`Context` with look-ups computed once per validation,
which keeps a 1000 A.P. list well under a millisecond.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from armybuilder.core.checks import ListContext, PointLimit, Share, plural, unknown_format
from armybuilder.core.findings import Finding, RuleBook, Severity

from .counting import (
    breakdown,
    effective,
    is_commander,
    member_cost,
    profile,
    troop_fighter_cost,
    unit_cost,
)
from .legality import (
    SLOT_NAMES,
    army_elements,
    army_faithful,
    army_standard_refusal,
    commander_refusal,
    communion_refusal,
    familiar_refusal,
    is_independent_profile,
    lead_refusal,
    member_slot,
    miracle_refusal,
    rank_refusal,
    ritual_refusal,
    troop_only,
)
from .legality import litany_budget as army_litany_budget

if TYPE_CHECKING:  # the rules read the models or their plain mirrors alike
    from .army import Member, R2List, Unit
    from .catalog import Profile, R2Cat, R2Catalog, R2Format  # noqa: F401 - the base class names them as text

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
book = RuleBook("ragnarok2")

GENERIC = "ragnarok2-generic-rules"
MYSTICS = "ragnarok2-mystics"

SCHEME_NAMES = {"army-corps": "army corps", "shock-troops": "shock troops", "support": "support"}


@dataclass
class Context(ListContext["R2List", "R2Catalog", "R2Format"]):

    @functools.cached_property
    def points(self):
        return breakdown(self.army, self.cat)

    def unit_people(self, unit: Unit) -> str:
        p = self.troop_profile(unit)
        if p is None:
            p = next((m for m in self.member_profiles(unit) if m is not None), None)
        return p.people if p is not None else self.army.people

    def troop_profile(self, unit: Unit) -> Profile | None:
        return profile(self.cat, unit.troops.profile) if unit.troops else None

    def member_profiles(self, unit: Unit) -> list[Profile | None]:
        return [profile(self.cat, m.profile) for m in unit.members]

    def formation(self, people_id: str) -> str:
        people = self.cat.get("peoples", people_id)
        return people.formation if people is not None else "scattered"

    def rank_category(self, p: Profile) -> int:
        rank = self.cat.get("ranks", p.rank)
        return rank.category if rank is not None else 1

    @functools.cached_property
    def categories(self) -> list[str | None]:
        return [unit_category(self.cat, u) for u in self.army.units]


def unit_category(cat: R2Cat, unit: Unit) -> str | None:
    """Army-scheme category of a unit (R2-D3), from its troops, else its lone member."""
    p = profile(cat, unit.troops.profile) if unit.troops and unit.troops.count > 0 else None
    if p is None:
        p = next((q for m in unit.members if (q := profile(cat, m.profile)) is not None), None)
    if p is None:
        return None
    if p.has_role("war-machine") or p.has_role("magician") or p.has_role("faithful"):
        return "support"
    rank = cat.get("ranks", p.rank)
    if rank is not None and rank.scheme is not None:
        return rank.scheme
    return "support" if p.has_role("character") else None


def _unit_label(ctx: Context, index: int, unit: Unit) -> str:
    if unit.name:
        return f"unit {index + 1} ({unit.name})"
    p = ctx.troop_profile(unit)
    if p is not None:
        return f"unit {index + 1} ({p.name})"
    return f"unit {index + 1}"


# --------------------------------------------------------------------------- catalogue


@book.rule("ragnarok2.catalogue.missing-entry")
def missing_entries(ctx: Context) -> Iterator[Finding]:
    from . import SYSTEM  # the protocol lists every reference the list makes

    for where, ref in SYSTEM.referenced_entries(ctx.army):
        if ref.collection in ("peoples", "formats"):
            continue  # their own rules say more (ragnarok2.catalogue.people, .format.unknown)
        if ctx.cat.get(ref.collection, ref.id) is None:
            kind = ref.collection.rstrip("s")
            yield Finding(
                "ragnarok2.catalogue.missing-entry",
                E,
                f"{kind} '{ref.id}' does not exist in catalogue {ctx.cat.version}; it stays in "
                f"the list, marked: replace it or remove it",
                where,
                "design: Army lists",
            )


@book.rule("ragnarok2.catalogue.unknown-option")
def unknown_options(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        holders: list[tuple[str, str, list[str]]] = []
        if unit.troops:
            holders.append((f"units[{ui}].troops", unit.troops.profile, unit.troops.options))
        for mi, m in enumerate(unit.members):
            holders.append((f"units[{ui}].members[{mi}]", m.profile, m.options))
        for where, pid, options in holders:
            p = profile(ctx.cat, pid)
            if p is None:
                continue
            known = {o.id for o in p.options}
            for option in options:
                if option not in known:
                    offered = ", ".join(sorted(known)) or "none"
                    yield Finding(
                        "ragnarok2.catalogue.unknown-option",
                        E,
                        f"{p.name} has no option '{option}' in catalogue {ctx.cat.version} "
                        f"(options offered: {offered}); remove it",
                        where,
                        "catalogue",
                    )


@book.rule("ragnarok2.catalogue.people")
def people_known(ctx: Context) -> Iterator[Finding]:
    if ctx.cat.get("peoples", ctx.army.people) is None:
        yield Finding(
            "ragnarok2.catalogue.people",
            E,
            f"people '{ctx.army.people}' does not exist in catalogue {ctx.cat.version}; "
            "choose one of the catalogue's peoples",
            "people",
            "catalogue",
        )


@book.rule("ragnarok2.format.unknown")
def format_known(ctx: Context) -> Iterator[Finding]:
    return unknown_format(ctx, "ragnarok2.format.unknown", "R2-D7")


# --------------------------------------------------------------------------- points


def _cut_here(candidates: list[tuple[str, int]], excess: int) -> str:
    """Where a fix for ``excess`` points would happen: the cheapest entry whose removal
    alone is enough, else the dearest one (so "jump to" lands on something to cut)."""
    enough = [c for c in candidates if c[1] >= excess]
    if enough:
        return min(enough, key=lambda c: c[1])[0]
    return max(candidates, key=lambda c: c[1])[0] if candidates else ""


POINT_LIMIT = PointLimit("ragnarok2.points.limit", "the army", "A.P.", "R2-D7", own_limit_rule="ragnarok2.points.own-limit")
CHARACTER_SHARE = Share("ragnarok2.points.characters", "Characters", "A.P.", "R2-D7; ragnarok-faq: Limitations")
WAR_MACHINE_SHARE = Share("ragnarok2.points.war-machines", "war machines", "A.P.", "R2-D7; ragnarok-faq: Limitations")


@book.rule(POINT_LIMIT.rule, also=("ragnarok2.points.own-limit",))
def point_limit(ctx: Context) -> Iterator[Finding]:
    limit = ctx.format.limit if ctx.format else None
    yield from POINT_LIMIT.own_limit(ctx.army.limit, ctx.format_limit)
    units = [(f"units[{ui}]", unit_cost(ctx.cat, u)) for ui, u in enumerate(ctx.army.units)]
    for f in POINT_LIMIT.check(ctx.points.total, limit):  # jump to a unit whose cut fixes it
        yield replace(f, where=_cut_here(units, ctx.points.total - (limit or 0)))


@book.rule(CHARACTER_SHARE.rule)
def character_share(ctx: Context) -> Iterator[Finding]:
    fmt = ctx.format
    spent = ctx.points.characters
    characters = [(w, member_cost(ctx.cat, m)) for w, m, p in _members(ctx) if p is not None and p.has_role("character")]
    for f in CHARACTER_SHARE.check(spent, fmt.character_share if fmt else 0, fmt.limit if fmt else None):
        allowed = (fmt.limit * fmt.character_share // 100) if fmt else 0
        yield replace(f, where=_cut_here(characters, spent - allowed))  # the Character to cut


@book.rule(WAR_MACHINE_SHARE.rule)
def war_machine_share(ctx: Context) -> Iterator[Finding]:
    fmt = ctx.format
    return WAR_MACHINE_SHARE.check(ctx.points.war_machines, fmt.war_machine_share if fmt else 0, fmt.limit if fmt else None)


# --------------------------------------------------------------------------- army scheme


@book.rule("ragnarok2.army.no-units")
def has_units(ctx: Context) -> Iterator[Finding]:
    if not ctx.army.units:
        yield Finding(
            "ragnarok2.army.no-units",
            E,
            "the army has no units yet: add a unit of army-corps troops to start",
            "units",
            f"{GENERIC}: The units",
        )


@book.rule("ragnarok2.scheme.corps-majority")
def corps_majority(ctx: Context) -> Iterator[Finding]:
    counts = Counter(c for c in ctx.categories if c)
    corps = counts["army-corps"]
    others = counts["shock-troops"] + counts["support"]
    if corps < others:
        missing = others - corps
        yield Finding(
            "ragnarok2.scheme.corps-majority",
            E,
            f"army corps has {plural(corps, 'unit')}; shock troops ({counts['shock-troops']}) and "
            f"support ({counts['support']}) have {others} together: add {plural(missing, 'army-corps unit')} "
            f"or remove {plural(missing, 'other unit')}",
            "units",
            "R2-D3",
        )


@book.rule("ragnarok2.scheme.unknown-category")
def category_known(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        if ctx.categories[ui] is None and (unit.troops or unit.members):
            p = ctx.troop_profile(unit)
            if p is None:
                continue  # reported as a missing entry or an empty unit
            yield Finding(
                "ragnarok2.scheme.unknown-category",
                W,
                f"{_unit_label(ctx, ui, unit)}: rank '{p.rank}' has no army-scheme category in "
                f"catalogue {ctx.cat.version}; it is left out of the army-scheme count",
                f"units[{ui}]",
                "R2-D3",
            )


@book.rule("ragnarok2.unit.effective")
def unit_effective(ctx: Context) -> Iterator[Finding]:
    scheme = ctx.data.tables.army_scheme
    if scheme is None:
        return
    rows = {r.category: r for r in scheme.rows}
    for ui, unit in enumerate(ctx.army.units):
        category = ctx.categories[ui]
        if category is None or category not in rows:
            continue
        formation = ctx.formation(ctx.unit_people(unit))
        nature = "regiment" if formation == "close" else "horde"
        low, high = getattr(rows[category], nature)
        n = effective(unit)
        solo = _solo_allowed(ctx, unit, scheme.solo_unit_cost)
        if n == 0:
            yield Finding(
                "ragnarok2.unit.effective",
                E,
                f"{_unit_label(ctx, ui, unit)} has no fighters: add troops or remove the unit",
                f"units[{ui}]",
                "R2-D3",
            )
            continue
        if n < low and not (solo and n >= 1):
            yield Finding(
                "ragnarok2.unit.effective",
                E,
                f"{_unit_label(ctx, ui, unit)} has {plural(n, 'fighter')}; {_a(SCHEME_NAMES[category])} "
                f"unit of {_a(nature)} army needs {low} to {high}: add {low - n}",
                f"units[{ui}]",
                "R2-D3",
            )
        elif n > high:
            yield Finding(
                "ragnarok2.unit.effective",
                E,
                f"{_unit_label(ctx, ui, unit)} has {plural(n, 'fighter')}; {_a(SCHEME_NAMES[category])} "
                f"unit of {_a(nature)} army holds {low} to {high}: remove {n - high}",
                f"units[{ui}]",
                "R2-D3",
            )


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _solo_allowed(ctx: Context, unit: Unit, threshold: int) -> bool:
    """FAQ: a troop (or a leader) worth 50 A.P. or more may form a unit on its own."""
    if unit.troops is not None and troop_fighter_cost(ctx.cat, unit.troops) >= threshold:
        return True
    return any(member_cost(ctx.cat, m) >= threshold for m in unit.members if m.leader or not unit.troops)


# --------------------------------------------------------------------------- composition


@book.rule("ragnarok2.unit.one-people")
def one_people(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        people = ctx.unit_people(unit)
        for mi, p in enumerate(ctx.member_profiles(unit)):
            if p is not None and p.people != people:
                yield Finding(
                    "ragnarok2.unit.one-people",
                    E,
                    f"{p.name} belongs to {_people_name(ctx, p.people)} but "
                    f"{_unit_label(ctx, ui, unit)} is of {_people_name(ctx, people)}: all members "
                    "of a unit belong to one people; move it to a unit of its own people",
                    f"units[{ui}].members[{mi}]",
                    "R2-D5",
                )


def _people_name(ctx: Context, people_id: str) -> str:
    people = ctx.cat.get("peoples", people_id)
    return people.name if people is not None else people_id


@book.rule("ragnarok2.unit.one-troop-profile")
def one_troop_profile(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        for mi, p in enumerate(ctx.member_profiles(unit)):
            if p is not None and not is_independent_profile(p):
                troop = ctx.troop_profile(unit)
                what = f"the unit's troops are {troop.name}" if troop else "the unit has no troops"
                yield Finding(
                    "ragnarok2.unit.one-troop-profile",
                    E,
                    f"{p.name} is a troop profile, not an independent, and {what}: troops of a unit "
                    "share one profile; put it in a unit of its own",
                    f"units[{ui}].members[{mi}]",
                    "R2-D5",
                )


@book.rule("ragnarok2.unit.troop-mystic")
def troop_mystics(ctx: Context) -> Iterator[Finding]:
    """R2-D5 clarified: a magician or faithful that is not a Character is a troop."""
    for ui, unit in enumerate(ctx.army.units):
        alone = unit.troops is None and len(unit.members) == 1  # a unit of its own already
        for mi, p in enumerate(ctx.member_profiles(unit)):
            why = troop_only(p) if p is not None and not alone else ""
            if why:
                yield Finding(
                    "ragnarok2.unit.troop-mystic",
                    E,
                    f"{why}: in {_unit_label(ctx, ui, unit)} it cannot stand; remove it and add it "
                    "as the troops of a unit of its own",
                    f"units[{ui}].members[{mi}]",
                    "R2-D5",
                )


@book.rule("ragnarok2.unit.slots")
def unit_slots(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        seen: dict[str, list[int]] = {}
        for mi, p in enumerate(ctx.member_profiles(unit)):
            if p is None or not is_independent_profile(p):
                continue
            slot = member_slot(ctx.cat, p)  # a Character commander takes the commander place
            if slot != "character":
                seen.setdefault(slot, []).append(mi)
        for slot, indexes in seen.items():
            if len(indexes) > 1:
                yield Finding(
                    "ragnarok2.unit.slots",
                    E,
                    f"{_unit_label(ctx, ui, unit)} has {len(indexes)} {SLOT_NAMES[slot]}s; a unit may "
                    f"hold only one (and any number of Characters, but a Character commander is its commander): "
                    f"remove {len(indexes) - 1}",
                    f"units[{ui}].members[{indexes[1]}]",
                    "R2-D5",
                )


@book.rule("ragnarok2.unit.leader")
def unit_leader(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        leaders: list[tuple[str, Profile | None]] = []
        if unit.troops and unit.troops.leader:
            leaders.append((f"units[{ui}].troops", ctx.troop_profile(unit)))
        for mi, member in enumerate(unit.members):
            if member.leader:
                leaders.append((f"units[{ui}].members[{mi}]", profile(ctx.cat, member.profile)))
        if len(leaders) > 1:
            yield Finding(
                "ragnarok2.unit.leader",
                E,
                f"{_unit_label(ctx, ui, unit)} has {len(leaders)} leaders; a unit has one leader: "
                f"unmark {len(leaders) - 1}",
                leaders[1][0],
                "R2-D5",
            )
        for where, p in leaders:
            if p is None:
                continue
            why = lead_refusal(ctx.cat, p)
            if why:
                yield Finding(
                    "ragnarok2.unit.leader",
                    E,
                    f"{p.name} cannot be the leader of {_unit_label(ctx, ui, unit)}: {why}; "
                    "choose another leader",
                    where,
                    "R2-D5",
                )


@book.rule("ragnarok2.unit.rank-category")
def joining_rank(ctx: Context) -> Iterator[Finding]:
    for ui, unit in enumerate(ctx.army.units):
        for mi, member in enumerate(unit.members):
            p = profile(ctx.cat, member.profile)
            label = _unit_label(ctx, ui, unit)
            why = rank_refusal(ctx.cat, unit, p, member.leader, label) if p is not None else ""
            if why:
                yield Finding(
                    "ragnarok2.unit.rank-category",
                    E,
                    f"{why}; move it to such a unit",
                    f"units[{ui}].members[{mi}]",
                    "R2-D5",
                )


@book.rule("ragnarok2.unit.unique-character")
def unique_characters(ctx: Context) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    for ui, unit in enumerate(ctx.army.units):
        for mi, member in enumerate(unit.members):
            p = profile(ctx.cat, member.profile)
            if p is None or not p.has_role("character"):
                continue
            where = f"units[{ui}].members[{mi}]"
            if p.id in seen:
                yield Finding(
                    "ragnarok2.unit.unique-character",
                    E,
                    f"{p.name} is in the army twice; a Character is unique: remove one",
                    where,
                    "Confrontation: Characters",
                )
            seen.setdefault(p.id, where)


# --------------------------------------------------------------------------- command


def _members(ctx: Context) -> Iterator[tuple[str, Member, Profile | None]]:
    for ui, unit in enumerate(ctx.army.units):
        for mi, member in enumerate(unit.members):
            yield f"units[{ui}].members[{mi}]", member, profile(ctx.cat, member.profile)


def _command_error(rule: str, message: str, where: str) -> Finding:
    """An error against the command rules (R2-D6)."""
    return Finding(rule, E, message, where, "R2-D6")


def _marked_too_often(
    rule: str, chosen: list[tuple[str, Member, Profile | None]], mark: str, allowed: str
) -> Iterator[Finding]:
    """An error at the second fighter when more than one carries a mark an army gives once."""
    if len(chosen) > 1:
        yield _command_error(
            rule,
            f"{len(chosen)} fighters are marked {mark}; an army has {allowed}: unmark {len(chosen) - 1}",
            chosen[1][0],
        )


@book.rule("ragnarok2.command.commander-in-chief")
def commander_in_chief(ctx: Context) -> Iterator[Finding]:
    rule = "ragnarok2.command.commander-in-chief"
    chosen = [(w, m, p) for w, m, p in _members(ctx) if m.commander_in_chief]
    if not chosen:
        candidates = [
            (w, p) for w, _, p in _members(ctx) if p is not None and is_commander(p) and p.people == ctx.army.people
        ]
        if len(candidates) == 1:
            hint = f"make {candidates[0][1].name} Commander-in-Chief"
        elif candidates:
            hint = f"make one of the army's {len(candidates)} commanders Commander-in-Chief"
        else:
            hint = (
                f"add a commander (a fighter with Leadership/X) of {_people_name(ctx, ctx.army.people)} to a unit, "
                "then make it Commander-in-Chief"
            )
        # Point at the first commander who could take the post, so "jump to" lands on it.
        where = candidates[0][0] if candidates else ("units" if ctx.army.units else "")
        yield _command_error(rule, f"the army has no Commander-in-Chief: {hint}", where)
        return
    yield from _marked_too_often(rule, chosen, "Commander-in-Chief", "exactly one")
    for where, _, p in chosen:
        if p is None:
            continue
        why = commander_refusal(ctx.cat, ctx.army, p)
        if why:
            yield _command_error(rule, f"{why} and cannot be Commander-in-Chief: choose a commander of the army's people", where)


@book.rule("ragnarok2.command.army-standard")
def army_standard(ctx: Context) -> Iterator[Finding]:
    rule = "ragnarok2.command.army-standard"
    chosen = [(w, m, p) for w, m, p in _members(ctx) if m.army_standard]
    yield from _marked_too_often(rule, chosen, "army standard", "at most one")
    for where, _, p in chosen:
        if p is None:
            continue
        why = army_standard_refusal(p)
        if why:
            yield _command_error(rule, f"{p.name} cannot be the army standard: {why}; unmark it", where)


def war_staffs(ctx: Context) -> tuple[int, int]:
    """(war staffs, complete war staffs): commander with musician and/or standard bearer."""
    staffs = complete = 0
    for unit in ctx.army.units:
        profiles = [p for p in ctx.member_profiles(unit) if p is not None]
        army_standard = any(
            m.army_standard and (p := profile(ctx.cat, m.profile)) is not None and p.has_role("standard-bearer")
            for m in unit.members
        )
        has_commander = any(is_commander(p) for p in profiles)
        has_musician = any(p.has_role("musician") for p in profiles) or army_standard
        has_standard = any(p.has_role("standard-bearer") for p in profiles)
        if has_commander and (has_musician or has_standard):
            staffs += 1
            if has_musician and has_standard:
                complete += 1
    return staffs, complete


@book.rule("ragnarok2.command.war-staffs")
def report_war_staffs(ctx: Context) -> Iterator[Finding]:
    staffs, complete = war_staffs(ctx)
    if staffs:
        yield Finding(
            "ragnarok2.command.war-staffs",
            INFO,
            f"{plural(staffs, 'war staff', 'war staffs')}, {complete} complete: +{complete} tactical "
            f"{'point' if complete == 1 else 'points'} per round",
            "",
            "R2-D6",
        )


# --------------------------------------------------------------------------- mystics


@book.rule("ragnarok2.mystics.familiars")
def familiars(ctx: Context) -> Iterator[Finding]:
    for where, member, p in _members(ctx):
        if p is None or member.familiars == 0:
            continue
        if familiar_refusal(p):
            yield Finding(
                "ragnarok2.mystics.familiars",
                E,
                f"{p.name} has {plural(member.familiars, 'familiar')} but only Character magicians "
                "bring familiars: remove them",
                where,
                "R2-D5",
            )
        elif member.familiars > (p.initiation_rank or 0):
            allowed = p.initiation_rank or 0
            yield Finding(
                "ragnarok2.mystics.familiars",
                E,
                f"{p.name} has {plural(member.familiars, 'familiar')}; its initiation rank allows "
                f"{allowed}: remove {member.familiars - allowed}",
                where,
                "R2-D5",
            )


def litany(ctx: Context) -> tuple[int, int, int]:
    """The Aspect budget of R2-D8: (Aspects of all the army's faithful, litany points of the
    communions, of the miracles). The rule, the organiser's summary and the editor's pickers
    (legality.litany_budget) read the same figures."""
    budget, spent = army_litany_budget(ctx.cat, ctx.army)
    communions = sum(c.power for cid in ctx.army.communions if (c := ctx.cat.get("communions", cid)))
    return budget, communions, spent - communions


@book.rule("ragnarok2.mystics.litany-budget")
def litany_budget(ctx: Context) -> Iterator[Finding]:
    budget, communions, miracles = litany(ctx)
    spent = communions + miracles
    if spent > budget:
        yield Finding(
            "ragnarok2.mystics.litany-budget",
            E,
            f"communions ({communions}) and miracles ({miracles}) cost {plural(spent, 'litany point')}; the "
            f"army's faithful have {plural(budget, 'Aspect point')} in all: drop {plural(spent - budget, 'point')} of "
            "litanies or add faithful",
            "communions",
            "R2-D8",
        )


@book.rule("ragnarok2.mystics.miracle-holder")
def miracle_holders(ctx: Context) -> Iterator[Finding]:
    for where, member, p in _members(ctx):
        for mid in member.miracles:
            miracle = ctx.cat.get("miracles", mid)
            why = miracle_refusal(p, miracle) if miracle is not None and p is not None else ""
            if why:
                yield Finding(
                    "ragnarok2.mystics.miracle-holder",
                    E,
                    f"{p.name} cannot hold the miracle {miracle.name}: {why}; give it to a faithful who may",  # type: ignore[union-attr]
                    where,
                    "R2-D8",
                )


@book.rule("ragnarok2.mystics.communion-cult")
def communion_cult(ctx: Context) -> Iterator[Finding]:
    faithful = army_faithful(ctx.cat, ctx.army)
    for ci, cid in enumerate(ctx.army.communions):
        communion = ctx.cat.get("communions", cid)
        why = communion_refusal(faithful, communion) if communion is not None else ""
        if why:
            yield Finding(
                "ragnarok2.mystics.communion-cult",
                E,
                f"{communion.name}: {why}: add such a faithful or drop the communion",  # type: ignore[union-attr]
                f"communions[{ci}]",
                f"{MYSTICS}: Calling a communion",
            )


@book.rule("ragnarok2.mystics.ritual-element")
def ritual_element(ctx: Context) -> Iterator[Finding]:
    elements = army_elements(ctx.cat, ctx.army)
    for ri, rid in enumerate(ctx.army.rituals):
        ritual = ctx.cat.get("rituals", rid)
        why = ritual_refusal(elements, ritual) if ritual is not None else ""
        if why:
            yield Finding(
                "ragnarok2.mystics.ritual-element",
                E,
                f"the ritual {ritual.name} {why}: add one or drop it",  # type: ignore[union-attr]
                f"rituals[{ri}]",
                "R2-D8",
            )


@book.rule("ragnarok2.mystics.duplicates")
def mystic_duplicates(ctx: Context) -> Iterator[Finding]:
    for field in ("communions", "rituals"):
        for entry_id, n in Counter(getattr(ctx.army, field)).items():
            if n > 1:
                yield Finding(
                    "ragnarok2.mystics.duplicates",
                    E,
                    f"{field[:-1]} '{entry_id}' is bought {n} times; once is enough: remove {n - 1}",
                    field,
                    "R2-D8",
                )


# --------------------------------------------------------------------------- tactics


@book.rule("ragnarok2.tactics.duplicates")
def tactic_duplicates(ctx: Context) -> Iterator[Finding]:
    for tactic_id, n in Counter(ctx.army.tactics).items():
        if n > 1:
            yield Finding(
                "ragnarok2.tactics.duplicates",
                E,
                f"the tactical deck holds '{tactic_id}' {n} times; a deck holds each tactic once: "
                f"remove {n - 1}",
                "tactics",
                "R2-D9",
            )


@book.rule("ragnarok2.tactics.unreachable")
def tactic_reachable(ctx: Context) -> Iterator[Finding]:
    for ti, tactic_id in enumerate(ctx.army.tactics):
        tactic = ctx.cat.get("tactics", tactic_id)
        if tactic is None:
            continue
        if not any(_meets(ctx, ui, unit, tactic) for ui, unit in enumerate(ctx.army.units)):
            yield Finding(
                "ragnarok2.tactics.unreachable",
                W,
                f"no unit of the army can ever meet the condition of {tactic.name} "
                f"({tactic.condition}): it will stay in the deck unused",
                f"tactics[{ti}]",
                "R2-D9",
            )


def _meets(ctx: Context, ui: int, unit: Unit, tactic) -> bool:
    troop = ctx.troop_profile(unit) or next((p for p in ctx.member_profiles(unit) if p), None)
    if troop is None:
        return False
    if tactic.min_rank_category is not None and ctx.rank_category(troop) < tactic.min_rank_category:
        return False
    if tactic.formation is not None:
        n = effective(unit)
        formation = ctx.formation(troop.people) if n >= 5 else "scattered"
        if formation != tactic.formation:
            return False
    if tactic.scheme is not None and ctx.categories[ui] != tactic.scheme:
        return False
    return not (tactic.min_effective is not None and effective(unit) < tactic.min_effective)


def run_rules(army: R2List, cat: R2Cat) -> list[Finding]:
    return book.run(Context(army, cat))
