"""What Rag'Narok 2 prints: roster, reference sheets and cards, as neutral blocks.

Layout belongs to ``armybuilder.pdf``; this module only decides content, so the
text roster and the PDF roster can never disagree about what a list holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from armybuilder.core.checks import list_format, plural
from armybuilder.core.findings import is_legal
from armybuilder.core.organiser import errors_by_index, roster_facts, total_text
from armybuilder.core.summary import SummaryLine
from armybuilder.core.system import (
    Block,
    Heading,
    KeyValues,
    Paragraph,
    Roster,
    Sheets,
    Table,
)

from .army import R2List, breakdown, effective, member_cost, profile, troop_fighter_cost, unit_cost
from .cards import STAT_COLUMNS, ability_name, cards, stats_row, used_abilities, weapon_text
from .catalog import Profile, R2Cat
from .editing import SCHEME_LABEL, member_tags, unit_title
from .health import FAQ_SOURCE, wound_levels

__all__ = ["STAT_COLUMNS", "cards", "roster", "sheets", "summary_checks", "summary_lines", "used_abilities"]
from .rules import Context, litany, run_rules, unit_category, war_staffs


def roster(army: R2List, cat: R2Cat, fingerprint: str) -> Roster:
    findings = tuple(run_rules(army, cat))
    data = cat.data
    fmt = list_format(army, cat)
    people = cat.get("peoples", army.people)
    points = breakdown(army, cat)
    limit = fmt.limit if fmt else 0
    staffs, complete = war_staffs(Context(army, cat))
    missing = sum(
        1 for u in army.units for pid in ([u.troops.profile] if u.troops else []) + [m.profile for m in u.members] if profile(cat, pid) is None
    )
    total = total_text(points.total, limit, "A.P.", missing=missing)
    unit_errors = errors_by_index(findings, "units")
    header = (
        ("System", "Rag'Narok 2"),
        ("People", people.name if people else army.people),
        ("Formation", people.formation if people else "-"),
        ("Format", fmt.name if fmt else army.format),
        ("Points", total),
        *roster_facts(army, cat),
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
                ("War staffs", f"{staffs} ({complete} complete: +{plural(complete, 'tactical point')} per round)"),
                ("Characters", _share(points.characters, limit, fmt.character_share if fmt else None)),
                ("War machines", _share(points.war_machines, limit, fmt.war_machine_share if fmt else None)),
            )
        )
    )
    blocks.append(Heading("Units", 1))
    for ui, unit in enumerate(army.units):
        category = unit_category(cat, unit)
        lacking = sum(1 for pid in ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members] if profile(cat, pid) is None)
        cost = f"{unit_cost(cat, unit)} A.P." + (" + a missing profile (cost unknown)" if lacking else "")
        mark = "✖ " if ui in unit_errors else ""
        title = f"{mark}{ui + 1}. {unit_title(cat, unit, ui)} — {SCHEME_LABEL.get(category or '', 'no category')}, {plural(effective(unit), 'fighter')}, {cost}"
        blocks.append(Heading(title, 2))
        for message in dict.fromkeys(unit_errors.get(ui, ())):
            blocks.append(Paragraph(message, "error"))
        rows = []
        if unit.troops:
            p = profile(cat, unit.troops.profile)
            name = (p.name if p else unit.troops.profile) + (" (leader promoted)" if unit.troops.leader else "")
            if unit.troops.options:
                name += " + " + ", ".join(_option_name(p, o) for o in unit.troops.options)
            name += _carries(cat, p)
            per = f"{unit.troops.count}×{troop_fighter_cost(cat, unit.troops)}" if p else "missing"
            rows.append(stats_row(p, name, str(unit.troops.count), per, wound_levels(cat.data.tables, p) if p else None))
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
            name += _carries(cat, p)
            rows.append(stats_row(p, name, "1", str(member_cost(cat, m)) if p else "missing", wound_levels(cat.data.tables, p) if p else None))
        # the unit's notes are the table's note: printed under its last row, never alone on a page
        note = f"Notes: {unit.notes}" if unit.notes else ""
        blocks.append(Table(STAT_COLUMNS, tuple(rows), widths=(6.5, 0.7, 1.2, *([0.8] * 11)), note=note))
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
                ("Total", total),
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


def _carries(cat: R2Cat, p: Profile | None) -> str:
    """The second line of a fighter in the roster: its mystic characteristics (a magician's
    Element and Power, a faithful's cult and Aspects), abilities (glossary names) and weapon."""
    if p is None:
        return ""
    parts = []
    if p.has_role("magician") or p.power is not None and p.elements:
        elements = "/".join(e.capitalize() for e in p.elements) or "no Element"
        parts.append(f"{elements} magician, Power {p.power if p.power is not None else '-'}")
    if p.aspects is not None or p.cult:
        a = p.aspects
        aspects = f"Aspects {a.alteration}/{a.creation}/{a.destruction}" if a else "no Aspects"
        parts.append(f"faithful of {(p.cult or '-').replace('-', ' ').capitalize()}, {aspects}")
    if p.abilities:
        parts.append(", ".join(ability_name(cat, a) for a in p.abilities))
    if p.ranged:
        heading, body = weapon_text(p.ranged)
        parts.append(f"{heading.removeprefix('Ranged weapon: ')} ({body.split(';')[0]}, {p.ranged.short}/{p.ranged.medium}/{p.ranged.long} cm)")
    return ("\n" + " · ".join(parts)) if parts else ""


def _option_name(p: Profile | None, option_id: str) -> str:
    if p is not None:
        for o in p.options:
            if o.id == option_id:
                return f"{o.name} (+{o.cost})"
    return option_id


def _pct(value: int, limit: int) -> str:
    return f"{100 * value / limit:.0f} %" if limit else "-"


def _share(value: int, limit: int, cap: int | None) -> str:
    """``192 A.P. (19 % of the limit; at most 50 % = 500 A.P.)``, marked when over the cap."""
    if cap is None or not limit:
        return f"{value} A.P. ({_pct(value, limit)} of the limit)"
    allowed = limit * cap // 100
    over = f" — OVER the cap by {value - allowed} A.P." if value > allowed else ""
    return f"{value} A.P. ({_pct(value, limit)} of the limit; at most {cap} % = {allowed} A.P.){over}"


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
                note=f"A reconstruction by armybuilder ({t.contest.decision}): check it against your rulebook."
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
                ("Tactical roll", *(plural(k, "Leadership point") for k in range(1, 5))),
                tuple((r.label, *(str(x) if x else "-" for x in r.points)) for r in t.tactical.rows),
                note=f"Tactical points gained. Each tactic costs {plural(t.tactical.tactic_cost, 'point')}; each complete war staff adds "
                f"{plural(t.tactical.per_complete_war_staff, 'point')}.",
                provisional=t.tactical.provisional,
                widths=(1.6, 1, 1, 1, 1),
            )
        )
    if t.army_scheme:
        blocks.append(Heading("Army scheme", 1))
        blocks.append(
            Table(
                ("Category", "Regiment (close): fighters per unit", "Horde (scattered): fighters per unit"),
                tuple((r.name, f"{r.regiment[0]}–{r.regiment[1]}", f"{r.horde[0]}–{r.horde[1]}") for r in t.army_scheme.rows),
                note="The figures count fighters in one unit. The army corps must have at least as many units as shock troops and support together. "
                f"A profile worth {t.army_scheme.solo_unit_cost} A.P. or more may form a unit alone.",
            )
        )
    if t.sizes:
        blocks.append(Heading("Size, Power and Wound levels", 1))
        blocks.append(
            Table(
                ("Size", "Power", "Wound levels"),
                tuple((s.name, str(s.power), str(s.wound_levels)) for s in t.sizes)
                + (
                    ("Incarnate Character", "by Size", str(t.incarnate_wound_levels)),
                    ("Warrior-mage or warrior-monk Character", "by Size", f"+{t.mystic_warrior_wound_levels} (once, even with both)"),
                ),
                note=f"Wound levels: seed, Health status; the warrior-mage and warrior-monk Characters' extra level: {FAQ_SOURCE}.",
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
    blocks += _mystic_blocks(cat)
    provisional = [d for d in cat.data.decisions if d.provisional]
    if provisional:
        blocks.append(Heading("Provisional rules", 1))
        for d in provisional:
            blocks.append(Paragraph(f"{d.id} {d.title}: {d.summary}", "provisional"))
    return Sheets(f"Rag'Narok 2 — reference sheets (catalogue {cat.version})", tuple(blocks))


def _mystic_blocks(cat: R2Cat) -> list[Block]:
    """The mystic rules a player looks up (catalogue ``tables.mystic_rules``): each in the
    project's words with its source; procedures as numbered steps; the T.F. bonus by rank."""
    t = cat.data.tables
    if not t.mystic_rules:
        return []
    blocks: list[Block] = [Heading("Mystics: mana, faith, casting and calling", 1)]
    for rule in t.mystic_rules:
        blocks.append(Heading(rule.title, 2))
        if rule.text:
            blocks.append(Paragraph(rule.text))
        if rule.steps:
            blocks.append(Table(("Step", "What to do"), tuple((str(i), step) for i, step in enumerate(rule.steps, start=1)), widths=(0.5, 9)))
        if rule.id == "faith-recovery" and t.faith_recovery:
            blocks.append(Table(("Faithful's rank", "T.F. bonus"), tuple((rank.capitalize(), f"+{bonus}") for rank, bonus in t.faith_recovery.items())))
        if rule.source:
            blocks.append(Paragraph(f"Source: {rule.source}.", "note"))
    return blocks


# --------------------------------------------------------------------------- summary


def summary_lines(army: R2List, cat: R2Cat, findings) -> tuple[list[SummaryLine], list[tuple[str, str]], str]:
    """One line per unit for the one-page summary (core.summary): troops, then independents."""
    flagged = errors_by_index(findings, "units")
    lines = []
    for ui, unit in enumerate(army.units):
        parts = []
        if unit.troops:
            p = profile(cat, unit.troops.profile)
            parts.append(f"{unit.troops.count} {p.name if p else unit.troops.profile + ' (missing)'}" + (" (leader)" if unit.troops.leader else ""))
        for m in unit.members:
            p = profile(cat, m.profile)
            roles = [r for r, on in (("CiC", m.commander_in_chief), ("army standard", m.army_standard), ("leader", m.leader)) if on]
            parts.append((p.name if p else f"{m.profile} (missing)") + (f" ({', '.join(roles)})" if roles else ""))
        lacking = any(profile(cat, pid) is None for pid in ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members])
        category = SCHEME_LABEL.get(unit_category(cat, unit) or "", "no category")
        text = f"{unit_title(cat, unit, ui)} [{category}]: " + ", ".join(parts)
        lines.append(SummaryLine(str(ui + 1), text, f"{unit_cost(cat, unit)} A.P." + ("+?" if lacking else ""), ui in flagged))
    extras = []
    for label, field, collection in (("Tactics", "tactics", "tactics"), ("Communions", "communions", "communions"), ("Rituals", "rituals", "rituals")):
        ids = getattr(army, field)
        if ids:
            extras.append((label, ", ".join(getattr(cat.get(collection, i), "name", f"{i} (missing)") for i in ids)))
    return lines, extras, "Units"


def summary_checks(army: R2List, cat: R2Cat) -> list[tuple[str, str]]:
    """What an organiser counts on a Rag'Narok 2 list, as the rules count it: points, army
    scheme, shares, command, the Aspect budget of the mystics (R2-D3, R2-D6, R2-D7, R2-D8)."""
    ctx = Context(army, cat)
    fmt = ctx.format
    points = ctx.points
    limit = fmt.limit if fmt else 0
    counts = Counter(c for c in ctx.categories if c)
    corps, shock, support = counts["army-corps"], counts["shock-troops"], counts["support"]
    scheme = "ok" if corps >= shock + support else "too few army corps"
    staffs, complete = war_staffs(ctx)
    budget, communions, miracles = litany(ctx)
    spent = communions + miracles
    cic = sum(1 for u in army.units for m in u.members if m.commander_in_chief)
    if budget or spent:
        aspects = f"{spent} of {budget} litany points (communions {communions}, miracles {miracles})" + (f" — OVER by {spent - budget}" if spent > budget else "")
    else:
        aspects = "no faithful, no communion or miracle"
    out = [
        ("Army scheme", f"{plural(corps, 'army corps unit')} against {shock} shock + {support} support: {scheme}"),
        ("Characters", _share(points.characters, limit, fmt.character_share if fmt else None)),
        ("War machines", _share(points.war_machines, limit, fmt.war_machine_share if fmt else None)),
        ("Command", f"{plural(cic, 'Commander-in-Chief', 'Commanders-in-Chief')} (exactly 1); {plural(staffs, 'war staff')}, {complete} complete"),
        ("Aspect budget", aspects),
    ]
    if army.rituals:
        out.append(("Rituals", f"{points.rituals} A.P. (in the total)"))
    return out
