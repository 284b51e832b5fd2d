"""What Ragnarok (Morpheus Engine) prints: roster, reference sheets and cards, as neutral blocks.

Layout belongs to ``armybuilder.pdf``; this module decides content only.  The
opposed-roll table printed on the sheets is computed from the catalogue's
provisional ME-D1 data, so sheet and engine can never disagree.
"""

from __future__ import annotations

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

from .army import (
    WarClan,
    breakdown,
    equipment_entry,
    equipment_kind,
    fmt_of,
    warrior_cost,
    warrior_name,
    warrior_type,
)
from .catalog import MECat, WarriorType, ability_id
from .editing import KIND_LABEL, glossary_entry
from .engine.dice import damage_of, rules_from, success_probability
from .rules import run_rules

STATS = ("ap", "sp", "ma", "ra", "df", "rs", "dr", "mn", "hp")
STAT_COLUMNS = ("Warrior", "Glory", *[s.upper() for s in STATS])


def _stats_row(t: WarriorType | None, name: str, cost: int) -> tuple[str, ...]:
    if t is None:
        return (f"{name}", str(cost), *(["-"] * len(STATS)))
    return (name, str(cost), *(str(getattr(t, s)) for s in STATS))


def effective_rs(cat: MECat, equipment: list[str], t: WarriorType | None) -> int:
    """The profile's RS plus the RS of the armour worn (provisional reading, see tables.engine.notes)."""
    base = t.rs if t else 0
    return base + sum(a.rs for e in equipment if (a := cat.get("armour", e)) is not None)


def used_abilities(army: WarClan, cat: MECat) -> list[tuple[str, str]]:
    refs: list[str] = []
    for w in army.warriors:
        t = warrior_type(cat, w.type)
        if t:
            refs += t.abilities
        for e in w.equipment:
            weapon = cat.get("weapons", e)
            if weapon:
                refs += weapon.abilities
    for pick in army.god_powers:
        p = cat.get("god_powers", pick.power)
        if p:
            refs += p.grants + (p.attack.abilities if p.attack else [])
    seen: dict[str, tuple[str, str]] = {}
    for ref in refs:
        key = ability_id(ref)
        entry = cat.get("abilities", key) if key not in seen else None
        if entry is not None:
            seen[key] = (entry.name, f"{entry.text} [{entry.source}]")
    return sorted(seen.values())


def _weapon_rows(cat: MECat, equipment: list[str]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for e in equipment:
        w = cat.get("weapons", e)
        if w is not None:
            rows.append((w.name, str(w.st), w.range, ", ".join(w.abilities + (["no shield"] if w.no_shield else [])) or "-"))
    return rows


def roster(army: WarClan, cat: MECat, fingerprint: str) -> Roster:
    findings = tuple(run_rules(army, cat))
    fmt = fmt_of(army, cat)
    glory = breakdown(army, cat)
    limit = fmt.limit if fmt else 0
    jarl = next((w for w in army.warriors if w.jarl), None)
    header = (
        ("System", "Ragnarok (Morpheus Engine)"),
        ("Format", fmt.name if fmt else army.format),
        ("Glory", f"{glory.total} / {limit}"),
        ("Models", str(len(army.warriors))),
        ("Catalogue", f"{cat.version} (hash {cat.hash})"),
        ("Fingerprint", fingerprint),
    )
    blocks: list[Block] = [
        KeyValues(
            (
                ("Jarl", warrior_name(cat, jarl) if jarl else "none"),
                ("Warriors", f"{glory.warriors} Glory"),
                ("Equipment", f"{glory.equipment} Glory"),
            )
        ),
        Heading("Warriors", 1),
    ]
    rows = []
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        name = f"{wi + 1}. {warrior_name(cat, w)}" + (" (Jarl)" if w.jarl else "")
        rows.append(_stats_row(t, name, warrior_cost(cat, w)))
    blocks.append(Table(STAT_COLUMNS, tuple(rows), widths=(5.0, 1.2, *([0.7] * len(STATS)))))
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        blocks.append(Heading(f"{wi + 1}. {warrior_name(cat, w)} — {warrior_cost(cat, w)} Glory", 2))
        gear = []
        for e in w.equipment:
            entry = equipment_entry(cat, e)
            kind = equipment_kind(cat, e)
            gear.append(f"{entry.name} ({KIND_LABEL.get(kind or '', kind)}, {entry.cost} Glory)" if entry else f"{e} (missing)")
        blocks.append(
            KeyValues(
                (
                    ("Equipment", ", ".join(gear) or "none"),
                    ("RS with armour", str(effective_rs(cat, w.equipment, t))),
                    ("Abilities", ", ".join(glossary_entry(cat, a)[0] for a in t.abilities) if t and t.abilities else "-"),
                )
            )
        )
        weapons = _weapon_rows(cat, w.equipment)
        if weapons:
            blocks.append(Table(("Weapon", "ST", "RN", "Abilities"), tuple(weapons), widths=(4, 1, 1, 6)))
        if w.notes:
            blocks.append(Paragraph(f"Notes: {w.notes}", "note"))
    if not army.warriors:
        blocks.append(Paragraph("No warriors yet.", "note"))
    if army.god_powers:
        blocks.append(Heading("God powers", 1))
        prow = []
        for pick in army.god_powers:
            p = cat.get("god_powers", pick.power)
            if p is None:
                prow.append((f"{pick.power} (missing)", "-", "-", ""))
                continue
            boosts = "; ".join(f"+{b.cost}: {b.effect}" for b in p.boosts) or "-"
            prow.append((p.name + (" (imprinted)" if pick.imprinted else ""), str(p.godspark), boosts, p.text))
        blocks.append(Table(("Power", "Godspark", "Boosts", "Effect"), tuple(prow), widths=(3, 1, 3, 6)))
    if army.notes:
        blocks.append(Paragraph(f"Notes: {army.notes}", "note"))
    return Roster(army.name, header, is_legal(findings), findings, tuple(blocks), tuple(used_abilities(army, cat)), fingerprint)


def opposed_rows(cat: MECat) -> tuple[tuple[str, ...], ...]:
    rules = rules_from(cat)
    rows = []
    for diff in range(-6, 7):
        tn = rules.tn(diff, 0)
        p = success_probability(rules, tn)
        plus_one = tn + rules.step_normal
        rows.append(
            (
                f"{diff:+d}",
                str(tn),
                f"{100 * p:.1f}%",
                f"{plus_one}+" if plus_one <= rules.dice * rules.sides else "-",
            )
        )
    return tuple(rows)


def sheets(cat: MECat) -> Sheets:
    d = cat.data
    t = d.tables
    blocks: list[Block] = [Heading("Opposed rolls (ME-D1, provisional)", 1)]
    if t.opposed:
        for r in t.opposed.rules:
            blocks.append(Paragraph(r, "provisional"))
        blocks.append(Paragraph(f"{t.opposed.fixed_note} {t.opposed.natural_rules}", "provisional"))
    blocks.append(
        Table(
            ("X - Y", "TN (2d6)", "P(success)", "+1 Damage on"),
            opposed_rows(cat),
            title="X versus Y",
            note="Provisional reading ME-D1; a later catalogue version may correct it.",
            provisional=True,
        )
    )
    rules = rules_from(cat)
    stage_rows = tuple(
        (str(s), str(damage_of(s, rules.step_normal)), str(damage_of(s, rules.step_savage)), str(damage_of(s, rules.step_lethal)))
        for s in range(0, 8)
    )
    blocks.append(Table(("Success stages", "Damage", "Savage", "Lethal"), stage_rows, title="Success stages and Damage", provisional=True))
    blocks.append(Heading("Actions", 1))
    blocks.append(Table(("Action", "AP", "Effect"), tuple((a.name, str(a.ap), a.text) for a in t.actions), widths=(2, 0.6, 8)))
    for title, mods in (("Charge", t.charge), ("Overwhelm", t.overwhelm), ("Prone", t.prone), ("Cover", t.cover), ("Ranged attacks", t.ranged)):
        if mods:
            blocks.append(Heading(title, 2))
            blocks.append(Table(("", "Effect"), tuple((m.name, m.effect) for m in mods), widths=(2, 8)))
    if t.clash:
        blocks.append(Heading("Clash", 2))
        for line in t.clash:
            blocks.append(Paragraph(line))
    if t.terrain:
        blocks.append(Heading("Terrain keywords", 1))
        blocks.append(Table(("Keyword", "Effect"), tuple((k.name, k.text) for k in t.terrain), widths=(2, 8)))
    blocks.append(Heading("Weapons", 1))
    blocks.append(
        Table(
            ("Weapon", "Glory", "ST", "RN", "Abilities"),
            tuple((w.name, str(w.cost), str(w.st), w.range, ", ".join(w.abilities + (["no shield"] if w.no_shield else [])) or "-") for w in d.weapons),
            widths=(3, 1, 1, 1, 5),
        )
    )
    blocks.append(
        Table(
            ("Armour / shield", "Glory", "Effect"),
            tuple((a.name, str(a.cost), f"RS {a.rs}") for a in d.armour) + tuple((s.name, str(s.cost), f"+{s.overwhelm_size} Size against Overwhelm") for s in d.shields),
        )
    )
    blocks.append(Heading("Abilities", 1))
    blocks.append(Table(("Ability", "Summary"), tuple((a.name, a.text) for a in d.abilities), widths=(2, 8)))
    blocks.append(Heading("God powers", 1))
    blocks.append(
        Table(
            ("Power", "Godspark", "Effect"),
            tuple((f"{p.number} {p.name}", str(p.godspark), p.text) for p in d.god_powers),
            widths=(3, 1, 7),
        )
    )
    if t.engine and t.engine.provisional:
        blocks.append(Heading("Simulator assumptions (provisional)", 2))
        for note in t.engine.notes:
            blocks.append(Paragraph(note, "provisional"))
    return Sheets("Ragnarok (Morpheus Engine) reference", tuple(blocks))


def cards(army: WarClan, cat: MECat) -> list[Card]:
    out: list[Card] = []
    for w in army.warriors:
        t = warrior_type(cat, w.type)
        if t is None:
            continue
        stats = tuple((s.upper(), str(getattr(t, s))) for s in STATS)
        text: list[tuple[str, str]] = [glossary_entry(cat, a) for a in t.abilities]
        for e in w.equipment:
            entry = equipment_entry(cat, e)
            if entry is None:
                continue
            kind = equipment_kind(cat, e)
            if kind == "weapons":
                text.append((entry.name, f"ST {entry.st}, RN {entry.range}" + (", " + ", ".join(entry.abilities) if entry.abilities else "") + (", no shield" if entry.no_shield else "")))
            elif kind == "armour":
                text.append((entry.name, f"RS {entry.rs}"))
            else:
                text.append((entry.name, kind or ""))
        out.append(
            Card(warrior_name(cat, w), "warrior", ("Jarl" if w.jarl else t.name), stats, tuple(text), f"{warrior_cost(cat, w)} Glory · {t.source}")
        )
    for pick in army.god_powers:
        p = cat.get("god_powers", pick.power)
        if p is None:
            continue
        power_text = [("Effect", p.text)] + [(f"Boost +{b.cost}", b.effect) for b in p.boosts]
        power_stats = [("Godspark", str(p.godspark))]
        if p.attack is not None:
            power_stats.append(("RN", str(p.attack.range)))
            power_text.append(("Attack", ", ".join(glossary_entry(cat, a)[0] for a in p.attack.abilities)))
        out.append(Card(p.name, "god-power", f"God power {p.number}", tuple(power_stats), tuple(power_text), p.source))
    return out
