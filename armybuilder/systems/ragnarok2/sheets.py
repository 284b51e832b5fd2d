"""What Rag'Narok 2 prints: roster, reference sheets and cards, as neutral blocks.

Layout belongs to ``armybuilder.pdf``; this module only decides content, so the
text roster and the PDF roster can never disagree about what a list holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from armybuilder.core.findings import is_legal
from armybuilder.core.system import (
    Block,
    Card,
    Heading,
    KeyValues,
    Paragraph,
    Roster,
    Sheets,
    Table,
)

from .army import R2List, breakdown, effective, member_cost, profile, unit_cost
from .catalog import Profile, R2Cat
from .editing import SCHEME_LABEL, member_tags, unit_title
from .rules import Context, run_rules, unit_category, war_staffs

STAT_COLUMNS = ("Fighter", "N", "A.P.", "MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "COU/FEAR", "DIS", "POW")


def _stats_row(p: Profile | None, name: str, count: str, cost: str) -> tuple[str, ...]:
    if p is None:
        return (f"{name} (missing)", count, cost, *(["-"] * 10))
    courage = f"{p.cou}" if p.cou is not None else (f"F{p.fear}" if p.fear is not None else "-")
    return (
        name,
        count,
        cost,
        str(p.mov),
        str(p.ini),
        str(p.att),
        str(p.str_),
        str(p.def_),
        str(p.res),
        "-" if p.aim is None else str(p.aim),
        courage,
        str(p.dis),
        "-" if p.power is None else str(p.power),
    )


def used_abilities(army: R2List, cat: R2Cat) -> list[tuple[str, str]]:
    seen: dict[str, tuple[str, str]] = {}
    for unit in army.units:
        ids = ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]
        for pid in ids:
            p = profile(cat, pid)
            if p is None:
                continue
            for ability in p.abilities:
                key = ability.partition("/")[0]
                entry = cat.get("abilities", key)
                if entry is not None and key not in seen:
                    seen[key] = (entry.name + ("/X" if entry.takes_value else ""), f"{entry.text} [{entry.source}]")
    return sorted(seen.values())


def roster(army: R2List, cat: R2Cat, fingerprint: str) -> Roster:
    findings = tuple(run_rules(army, cat))
    data = cat.data
    fmt = cat.get("formats", army.format)
    people = cat.get("peoples", army.people)
    points = breakdown(army, cat)
    limit = fmt.limit if fmt else 0
    staffs, complete = war_staffs(Context(army, cat))
    header = (
        ("System", "Rag'Narok 2"),
        ("People", people.name if people else army.people),
        ("Formation", people.formation if people else "-"),
        ("Format", fmt.name if fmt else army.format),
        ("Points", f"{points.total} / {limit} A.P."),
        ("Catalogue", f"{cat.version} (hash {cat.hash})"),
        ("Fingerprint", fingerprint),
    )
    blocks: list[Block] = []
    cic = next(
        (
            (u, m)
            for u in army.units
            for m in u.members
            if m.commander_in_chief
        ),
        None,
    )
    standard = next(((u, m) for u in army.units for m in u.members if m.army_standard), None)

    def who(pair) -> str:
        if pair is None:
            return "none"
        unit, member = pair
        p = profile(cat, member.profile)
        return f"{p.name if p else member.profile} ({unit_title(cat, unit, army.units.index(unit))})"

    blocks.append(
        KeyValues(
            (
                ("Commander-in-Chief", who(cic)),
                ("Army standard", who(standard)),
                ("War staffs", f"{staffs} ({complete} complete: +{complete} tactical points per round)"),
                ("Characters", f"{points.characters} A.P. ({_pct(points.characters, limit)} of the limit)"),
                ("War machines", f"{points.war_machines} A.P. ({_pct(points.war_machines, limit)} of the limit)"),
            )
        )
    )
    blocks.append(Heading("Units", 1))
    for ui, unit in enumerate(army.units):
        category = unit_category(cat, unit)
        title = f"{ui + 1}. {unit_title(cat, unit, ui)} — {SCHEME_LABEL.get(category or '', 'no category')}, {effective(unit)} fighters, {unit_cost(cat, unit)} A.P."
        blocks.append(Heading(title, 2))
        rows = []
        if unit.troops:
            p = profile(cat, unit.troops.profile)
            name = (p.name if p else unit.troops.profile) + (" (leader promoted)" if unit.troops.leader else "")
            if unit.troops.options:
                name += " + " + ", ".join(_option_name(p, o) for o in unit.troops.options)
            per = (p.cost if p else 0)
            rows.append(_stats_row(p, name, str(unit.troops.count), f"{unit.troops.count}×{per}"))
        for m in unit.members:
            p = profile(cat, m.profile)
            name = (p.name if p else m.profile) + (f" “{m.label}”" if m.label else "")
            tags = member_tags(m, p)
            if tags:
                name += f" — {tags}"
            if m.options:
                name += " + " + ", ".join(_option_name(p, o) for o in m.options)
            if m.miracles:
                names = [getattr(cat.get("miracles", x), "name", x) for x in m.miracles]
                name += "; miracles: " + ", ".join(names)
            rows.append(_stats_row(p, name, "1", str(member_cost(cat, m))))
        blocks.append(Table(STAT_COLUMNS, tuple(rows), widths=(5.2, 0.7, 1.2, *([0.8] * 10))))
        if unit.notes:
            blocks.append(Paragraph(f"Notes: {unit.notes}", "note"))
    if not army.units:
        blocks.append(Paragraph("No units yet.", "note"))

    def named(field: str, collection: str, extra: Callable[[Any, str], tuple[str, ...]]) -> list[tuple[str, ...]]:
        ids = getattr(army, field)
        if not ids:
            return []
        rows = []
        for entry_id in ids:
            entry = cat.get(collection, entry_id)
            rows.append(extra(entry, entry_id))
        return rows

    tactic_rows = named("tactics", "tactics", lambda e, i: (e.name if e else f"{i} (missing)", e.condition if e else "", "provisional" if e and e.provisional else ""))
    if tactic_rows:
        blocks.append(Heading("Tactical deck", 1))
        blocks.append(Table(("Tactic", "Condition", ""), tuple(tactic_rows), provisional=any(r[2] for r in tactic_rows), note="Tactic texts are provisional (R2-D9)." if any(r[2] for r in tactic_rows) else ""))
    communion_rows = named("communions", "communions", lambda e, i: (e.name if e else f"{i} (missing)", e.cult if e else "", str(e.power) if e else "-"))
    if communion_rows:
        blocks.append(Heading("Communions", 1))
        blocks.append(Table(("Communion", "Cult", "Power"), tuple(communion_rows)))
    ritual_rows = named("rituals", "rituals", lambda e, i: (e.name if e else f"{i} (missing)", e.element if e else "", str(e.power) if e else "-"))
    if ritual_rows:
        blocks.append(Heading("Rituals", 1))
        blocks.append(Table(("Ritual", "Element", "A.P."), tuple(ritual_rows)))
    blocks.append(
        KeyValues(
            (
                ("Units", f"{points.units} A.P."),
                ("Rituals", f"{points.rituals} A.P."),
                ("Total", f"{points.total} / {limit} A.P."),
            )
        )
    )
    if army.notes:
        blocks.append(Paragraph(f"Notes: {army.notes}", "note"))
    del data
    return Roster(
        army.name,
        header,
        is_legal(findings),
        findings,
        tuple(blocks),
        tuple(used_abilities(army, cat)),
        fingerprint,
    )


def _option_name(p: Profile | None, option_id: str) -> str:
    if p is not None:
        for o in p.options:
            if o.id == option_id:
                return f"{o.name} (+{o.cost})"
    return option_id


def _pct(value: int, limit: int) -> str:
    return f"{100 * value / limit:.0f} %" if limit else "-"


# --------------------------------------------------------------------------- sheets


def sheets(cat: R2Cat) -> Sheets:
    t = cat.data.tables
    blocks: list[Block] = []
    if t.contest:
        blocks.append(Heading("Contest table", 1))
        blocks.append(
            Table(
                ("Attacker − defender", *(c.label for c in t.contest.columns)),
                (("Result", *(c.result for c in t.contest.columns)),),
                provisional=t.contest.provisional,
                note=f"Reconstructed by armybuilder ({t.contest.decision}); the seed lost the die glyphs."
                if t.contest.provisional
                else "",
            )
        )
        for rule in t.contest.rules:
            blocks.append(Paragraph(rule))
    if t.tactical:
        blocks.append(Heading("Tactical table", 1))
        blocks.append(
            Table(
                ("Tactical roll", "1 Leadership point", "2", "3", "4"),
                tuple((r.label, *(str(x) if x else "-" for x in r.points)) for r in t.tactical.rows),
                note=f"Each tactic costs {t.tactical.tactic_cost} points; each complete war staff adds "
                f"{t.tactical.per_complete_war_staff} point.",
                provisional=t.tactical.provisional,
            )
        )
    if t.army_scheme:
        blocks.append(Heading("Army scheme", 1))
        blocks.append(
            Table(
                ("Category", "Regiment (close)", "Horde (scattered)"),
                tuple((r.name, f"{r.regiment[0]}–{r.regiment[1]}", f"{r.horde[0]}–{r.horde[1]}") for r in t.army_scheme.rows),
                note="The army corps must have at least as many units as shock troops and support together. "
                f"A profile worth {t.army_scheme.solo_unit_cost} A.P. or more may form a unit alone.",
            )
        )
    if t.sizes:
        blocks.append(Heading("Size, Power and Wound levels", 1))
        blocks.append(
            Table(
                ("Size", "Power", "Wound levels"),
                tuple((s.name, str(s.power), str(s.wound_levels)) for s in t.sizes)
                + (("Incarnate Character", "-", str(t.incarnate_wound_levels)),),
            )
        )
    if t.outcome_of_fray:
        blocks.append(Heading("Outcome of the fray", 1))
        blocks.append(
            Table(
                ("Balance of Power (loser)", "Loser's morale roll"),
                tuple((r.balance, f"COU ({r.value})") for r in t.outcome_of_fray),
                note="Read one row lower when only the winner is frightening.",
            )
        )
    if t.fear_balance:
        blocks.append(Heading("Fear and balance of Power", 1))
        blocks.append(Table(("Balance of Power", "Fear modifier"), tuple((r.balance, f"{r.value:+d}") for r in t.fear_balance)))
    if t.shooting:
        blocks.append(Heading("Shooting", 1))
        blocks.append(Table(("Range", "Aim difficulty"), tuple((r.band, str(r.difficulty)) for r in t.shooting.ranges)))
        blocks.append(Table(("Circumstance", "Difficulty"), tuple((m.condition, f"{m.modifier:+d}") for m in t.shooting.modifiers)))
    if t.movement:
        blocks.append(Heading("Movement potentials", 1))
        blocks.append(Table(("Action", "Distance"), tuple((m.action, f"MOV × {m.multiplier:g} cm") for m in t.movement)))
    if t.phases:
        blocks.append(Heading("The round", 1))
        for phase in t.phases:
            blocks.append(Paragraph(f"{phase.name}: " + "; ".join(phase.steps)))
    if t.orders:
        blocks.append(Heading("Orders and actions", 1))
        for order in t.orders:
            blocks.append(Heading(order.name, 2))
            if order.text:
                blocks.append(Paragraph(order.text))
            blocks.append(
                Table(
                    ("Action", "Condition", "Test", "Effect"),
                    tuple((a.name, a.condition or "-", a.test or "-", a.text) for a in order.actions),
                    widths=(1.2, 1.5, 1, 3),
                )
            )
    provisional = [d for d in cat.data.decisions if d.provisional]
    if provisional:
        blocks.append(Heading("Provisional rules", 1))
        for d in provisional:
            blocks.append(Paragraph(f"{d.id} {d.title}: {d.summary}", "provisional"))
    return Sheets(f"Rag'Narok 2 — reference sheets (catalogue {cat.version})", tuple(blocks))


# --------------------------------------------------------------------------- cards


def _profile_card(cat: R2Cat, p: Profile) -> Card:
    row = _stats_row(p, p.name, "", "")
    stats = tuple(zip(STAT_COLUMNS[3:], row[3:], strict=True))
    text = []
    for ability in p.abilities:
        name, _, value = ability.partition("/")
        entry = cat.get("abilities", name)
        text.append(((entry.name if entry else name) + (f"/{value}" if value else ""), entry.text if entry else ""))
    if p.ranged:
        text.append(("Ranged weapon", f"{p.ranged.name}: STR {p.ranged.strength}, {p.ranged.short}/{p.ranged.medium}/{p.ranged.long} cm"))
    people = cat.get("peoples", p.people)
    rank = cat.get("ranks", p.rank)
    return Card(
        p.name,
        "profile",
        f"{people.name if people else p.people} · {rank.name if rank else p.rank} · {p.size}",
        stats,
        tuple(text),
        f"{p.cost} A.P. · catalogue {cat.version}",
    )


def cards(army: R2List, cat: R2Cat) -> list[Card]:
    out: list[Card] = []
    seen: set[str] = set()
    for unit in army.units:
        for pid in ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]:
            p = profile(cat, pid)
            if p is not None and p.id not in seen:
                seen.add(p.id)
                out.append(_profile_card(cat, p))
    for tid in dict.fromkeys(army.tactics):
        t = cat.get("tactics", tid)
        if t is not None:
            out.append(Card(t.name, "tactic", "Tactic", (), (("Condition", t.condition), ("Pros", t.pros), ("Cons", t.cons)), t.source, t.provisional))
    for cid in dict.fromkeys(army.communions):
        c = cat.get("communions", cid)
        if c is not None:
            out.append(
                Card(
                    c.name,
                    "communion",
                    f"Cult: {c.cult}",
                    (("Fervor", f"{c.fervor} ({'/'.join(c.aspects)})"), ("Diff.", str(c.difficulty)), ("Range", c.range), ("Duration", c.duration), ("Power", str(c.power))),
                    (("Effect", c.text),),
                    c.source,
                )
            )
    miracles = dict.fromkeys(mid for u in army.units for m in u.members for mid in m.miracles)
    for mid in miracles:
        m = cat.get("miracles", mid)
        if m is not None:
            out.append(
                Card(
                    m.name,
                    "miracle",
                    f"Cults: {', '.join(m.cults) or '-'}",
                    (("Fervor", str(m.budget_cost)), ("Diff.", m.difficulty or "-")),
                    (("Effect", m.text),),
                    m.source,
                )
            )
    for rid in dict.fromkeys(army.rituals):
        r = cat.get("rituals", rid)
        if r is not None:
            out.append(
                Card(
                    r.name,
                    "ritual",
                    f"Path: {r.path}",
                    (("Cost", f"{r.mana} ({r.element})"), ("Diff.", str(r.difficulty)), ("Range", r.range), ("Duration", r.duration), ("Power", str(r.power))),
                    (("Effect", r.text),),
                    r.source,
                )
            )
    return out
