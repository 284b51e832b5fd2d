"""What Ragnarok (Morpheus Engine) prints: roster, reference sheets and cards, as neutral blocks.

Layout belongs to ``armybuilder.pdf``; this module decides content only.  The
opposed-roll table printed on the sheets is computed from the catalogue's
provisional ME-D1 data, so sheet and engine can never disagree.
"""

from __future__ import annotations

from armybuilder.core.findings import is_legal
from armybuilder.core.organiser import errors_by_index, roster_facts, total_text
from armybuilder.core.summary import SummaryLine
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
from .catalog import MECat, WarriorType, ability_args, ability_id
from .editing import KIND_LABEL, glossary_entry
from .engine.dice import damage_of, rules_from, success_probability
from .rules import run_rules

STATS = ("ap", "sp", "ma", "ra", "df", "rs", "dr", "mn", "hp")
STAT_COLUMNS = ("Warrior", "Glory", *[s.upper() for s in STATS])


def _stats_row(t: WarriorType | None, name: str, cost: int) -> tuple[str, ...]:
    if t is None:
        return (f"{name} (missing)", "missing", *(["-"] * len(STATS)))
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
    if any(pick.imprinted for pick in army.god_powers):
        for term in cat.data.tables.terms:
            if term.id == "imprinted":
                seen["term:imprinted"] = (term.name, f"{term.text} [{term.source}]")
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
        ("Glory", total_text(glory.total, limit, "Glory", missing=sum(1 for w in army.warriors if warrior_type(cat, w.type) is None))),
        ("Models", str(len(army.warriors))),
        *roster_facts(army, cat),
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
    warrior_errors = errors_by_index(findings, "warriors")
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        name = ("✖ " if wi in warrior_errors else "") + f"{wi + 1}. {warrior_name(cat, w)}" + (" (Jarl)" if w.jarl else "")
        rows.append(_stats_row(t, name, warrior_cost(cat, w)))
    blocks.append(Table(STAT_COLUMNS, tuple(rows), widths=(5.0, 1.2, *([0.7] * len(STATS)))))
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        mark = "✖ " if wi in warrior_errors else ""
        cost = f"{warrior_cost(cat, w)} Glory" if t is not None else "missing warrior type (cost unknown)"
        blocks.append(Heading(f"{mark}{wi + 1}. {warrior_name(cat, w)} — {cost}", 2))
        for message in dict.fromkeys(warrior_errors.get(wi, ())):
            blocks.append(Paragraph(message, "error"))
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
    missing = sum(1 for w in army.warriors if warrior_type(cat, w.type) is None)
    blocks.append(KeyValues((("Warriors", f"{glory.warriors} Glory"), ("Equipment", f"{glory.equipment} Glory"), ("Total", total_text(glory.total, limit, "Glory", missing=missing)))))
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
    blocks.append(Heading("Warrior types", 1))
    blocks.append(
        Table(
            ("Warrior", "Glory", *[x.upper() for x in STATS], "SIZE"),
            tuple((w.name + (" (Jarl)" if w.jarl else ""), str(w.cost), *(str(getattr(w, x)) for x in STATS), str(w.size)) for w in d.warriors),
            widths=(3.2, 1, *([0.7] * (len(STATS) + 1))),
        )
    )
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
            note="A warrior's RS with armour is its own RS plus the armour's (a provisional reading: the reference data gives both without saying how they combine).",
            provisional=True,
        )
    )
    blocks.append(Heading("Abilities", 1))
    blocks.append(Table(("Ability", "Summary"), tuple((a.name, a.text) for a in d.abilities), widths=(2, 8)))
    blocks.append(Heading("God powers", 1))
    blocks.append(
        Table(
            ("Power", "Godspark", "RN", "Boosts", "Effect"),
            tuple(
                (f"{p.number} {p.name}", str(p.godspark), str(p.attack.range) if p.attack else "-", "; ".join(f"+{b.cost}: {b.effect}" for b in p.boosts) or "-", p.text)
                for p in d.god_powers
            ),
            widths=(2.6, 1, 0.6, 2.2, 5),
        )
    )
    return Sheets("Ragnarok (Morpheus Engine) reference", tuple(blocks))


def filled(cat: MECat, ref: str) -> tuple[str, str]:
    """A glossary entry with its values filled in: "Tactician (12)" reads "within 12", not "(x)"."""
    title, text = glossary_entry(cat, ref)
    args = [a for a in ability_args(ref) if not a.isalpha()]
    stats = [a.upper() for a in ability_args(ref) if a.isalpha()]
    if args:
        text = text.replace("(x)", args[0])
    if stats:
        text = text.replace("(Stat)", stats[0]).replace("the named Stat", stats[0])
    return title, text


def short_source(source: str) -> str:
    return "reference data (Morpheus)" if source.startswith("reference-data:") else source


def _attack_text(cat: MECat, abilities: list[str]) -> str:
    return ", ".join(filled(cat, a)[0] for a in abilities)


def _names(cat: MECat, refs: list[str]) -> str:
    return ", ".join(filled(cat, a)[0] for a in refs)


def cards(army: WarClan, cat: MECat) -> list[Card]:
    """One card per warrior (its name, the stats it fights with: RS with its armour, its
    gear) and per God power; abilities are named, their rules are in the glossary."""
    out: list[Card] = []
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        if t is None:
            continue
        rs = effective_rs(cat, w.equipment, t)
        stats = tuple((s.upper(), str(rs if s == "rs" else getattr(t, s))) for s in STATS) + (("SIZE", str(t.size)),)
        text: list[tuple[str, str]] = []
        if t.abilities:
            text.append(("Abilities", _names(cat, t.abilities) + " (rules: glossary)"))
        for e in w.equipment:
            entry = equipment_entry(cat, e)
            if entry is None:
                text.append((e, "not in this catalogue version"))
                continue
            kind = equipment_kind(cat, e)
            if kind == "weapons":
                extra = [_names(cat, entry.abilities)] if entry.abilities else []
                if entry.no_shield:
                    extra.append("no shield while fighting with it")
                text.append((f"Weapon: {entry.name}", f"ST {entry.st}, RN {entry.range}" + ("; " + "; ".join(extra) if extra else "") + "."))
            elif kind == "armour":
                text.append((f"Armour: {entry.name}", f"RS {entry.rs}, in the RS above ({t.rs} + {entry.rs}, a provisional reading)."))
            elif kind == "shields":
                text.append((f"Shield: {entry.name}", f"+{entry.overwhelm_size} Size against Overwhelm (Size {t.size + entry.overwhelm_size})."))
            else:
                text.append((entry.name, (kind or "").replace("_", " ").rstrip("s") + "."))
        if w.notes:
            text.append(("Notes", w.notes))
        role = " · Jarl" if w.jarl and t.name.lower() != "jarl" else ""
        out.append(
            Card(
                warrior_name(cat, w),
                "warrior",
                f"Warrior {wi + 1}{role} · {t.name} · Size {t.size}",
                stats,
                tuple(text),
                f"{warrior_cost(cat, w)} Glory · {short_source(t.source)}",
            )
        )
    for pick in army.god_powers:
        p = cat.get("god_powers", pick.power)
        if p is None:
            continue
        power_text = [("Effect", p.text)] + [(f"Boost +{b.cost} Godspark", b.effect) for b in p.boosts]
        power_stats = [("Godspark", str(p.godspark))]
        if p.attack is not None:
            power_stats.append(("RN", str(p.attack.range)))
            if p.attack.st is not None:
                power_stats.append(("ST", str(p.attack.st)))
            if p.attack.abilities:
                power_text.append(("Attack", _names(cat, p.attack.abilities) + " (rules: glossary)"))
        if p.grants:
            power_text.append(("Grants", _names(cat, p.grants) + " (rules: glossary)"))
        subtitle = f"God power {p.number}" + (" · imprinted (see the glossary)" if pick.imprinted else "")
        out.append(Card(p.name, "god-power", subtitle, tuple(power_stats), tuple(power_text), short_source(p.source)))
    return out


# --------------------------------------------------------------------------- summary


def summary_lines(army: WarClan, cat: MECat, findings) -> tuple[list[SummaryLine], list[tuple[str, str]], str]:
    """One line per warrior for the one-page summary (core.summary): type, gear, Glory."""
    flagged = errors_by_index(findings, "warriors")
    lines = []
    for wi, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        gear = [getattr(equipment_entry(cat, e), "name", f"{e} (missing)") for e in w.equipment]
        text = warrior_name(cat, w) + (" (Jarl)" if w.jarl else "") + (": " + ", ".join(gear) if gear else "")
        lines.append(SummaryLine(str(wi + 1), text, f"{warrior_cost(cat, w)} Glory" if t else "missing", wi in flagged))
    extras = []
    if army.god_powers:
        names = []
        for pick in army.god_powers:
            p = cat.get("god_powers", pick.power)
            names.append((p.name if p else f"{pick.power} (missing)") + (" (imprinted)" if pick.imprinted else ""))
        extras.append(("God powers", ", ".join(names)))
    return lines, extras, "Warriors"


def summary_checks(army: WarClan, cat: MECat) -> list[tuple[str, str]]:
    """What an organiser counts on a war clan (ME-D2): Glory, models, the Jarl, God powers."""
    fmt = fmt_of(army, cat)
    glory = breakdown(army, cat)
    limit = fmt.limit if fmt else 0
    missing = sum(1 for w in army.warriors if warrior_type(cat, w.type) is None)
    out = [("Glory", total_text(glory.total, limit, "Glory", missing=missing) + f" (warriors {glory.warriors}, equipment {glory.equipment})")]
    if fmt is not None:
        jarls = sum(1 for w in army.warriors if w.jarl)
        out += [
            ("Models", f"{len(army.warriors)} of {fmt.min_models}–{fmt.max_models}"),
            ("Jarl", f"{jarls} (exactly {fmt.jarls})"),
            ("God powers", f"{len(army.god_powers)} (at most {fmt.max_god_powers})"),
        ]
    return out
