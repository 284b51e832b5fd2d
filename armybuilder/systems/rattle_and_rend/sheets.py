"""What Rattle and Rend prints: roster, reference sheets and cards, as neutral blocks.

Layout belongs to ``armybuilder.pdf``; this module only decides content.  The
roster shows each group's stats *in play* (heavy trait and warband traits applied,
see :func:`army.effective_stats`) next to its type's, so a player never has to
redo the arithmetic at the table.
"""

from __future__ import annotations

from armybuilder.core.checks import list_format, plural
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
    RRList,
    attachment_target,
    breakdown,
    choices_of,
    counted_groups,
    effective_stats,
    group_cost,
    group_title,
    group_type,
    normalize,
    transport_capacity,
)
from .catalog import RRCat
from .editing import band_text, group_detail, option_names, stat_text
from .rules import run_rules

GROUP_COLUMNS = ("Group", "Pts", "MOV", "RNG", "FURY", "GUILE", "WILL", "Reaction")


def _name(cat: RRCat, collection: str, entry_id: str | None) -> str:
    if entry_id is None:
        return "none"
    entry = cat.get(collection, entry_id)
    return entry.name if entry is not None else f"{entry_id} (missing)"


def roster(army: RRList, cat: RRCat, fingerprint: str) -> Roster:
    findings = tuple(run_rules(army, cat))  # on the warband as written
    army = normalize(army, cat)[0]  # shown with names and the seed's spellings read as ids
    fmt = list_format(army, cat)
    points = breakdown(army, cat)
    limit = fmt.limit if fmt else 0
    header = (
        ("System", "Rattle and Rend"),
        ("Format", fmt.name if fmt else army.format),
        ("Points", total_text(points.total, limit, "points")),
        ("Groups", f"{counted_groups(army, cat)} (attached Champions counted with their group)"),
        *roster_facts(army, cat),
        ("Fingerprint", fingerprint),
    )
    blocks: list[Block] = [
        KeyValues(
            (
                ("Warband traits", ", ".join(_name(cat, "warband_traits", t) for t in army.traits) or "none"),
                ("Drive", ", ".join(_name(cat, "drives", d) for d in choices_of(army.drive)) or "none"),
                ("Starting momentum", f"{points.total} (points of groups in play, RR-D2)"),
            )
        ),
        Heading("Groups", 1),
    ]
    rows = []
    group_errors = errors_by_index(findings, "groups")
    for gi, g in enumerate(army.groups):
        gt = group_type(cat, g)
        s = effective_stats(army, cat, g)
        detail = group_detail(army, cat, gi)
        name = ("✖ " if gi in group_errors else "") + f"{gi + 1}. " + (group_title(cat, g, gi) if gt else f"{g.type} (missing)") + (f" — {detail}" if detail else "")
        if gt is None or s is None:
            rows.append((name, "-", "-", "-", "-", "-", "-", "-"))
            continue
        rows.append(
            (
                name,
                str(group_cost(cat, g)),
                band_text(s.mov),
                band_text(s.rng),
                stat_text(s.fury),
                stat_text(s.guile),
                stat_text(s.will),
                _name(cat, "reactions", gt.reaction),
            )
        )
    if rows:
        blocks.append(
            Table(
                GROUP_COLUMNS,
                tuple(rows),
                note="Stats include the heavy trait and the warband traits; checks succeed on a d20 at or above the stat.",
                widths=(5.0, 0.5, 0.6, 0.8, 0.7, 0.7, 0.7, 1.4),
            )
        )
    else:
        blocks.append(Paragraph("No groups yet.", "note"))
    for gi, messages in sorted(group_errors.items()):
        for message in dict.fromkeys(messages):
            blocks.append(Paragraph(f"Group {gi + 1}: {message}", "error"))
    notes = [(gi, g) for gi, g in enumerate(army.groups) if g.notes]
    for gi, g in notes:
        blocks.append(Paragraph(f"Group {gi + 1}: {g.notes}", "note"))
    blocks.append(
        KeyValues(tuple((name, plural(pts, "point")) for name, pts in points.by_type) + (("Total", total_text(points.total, limit, "points")),))
    )
    if army.notes:
        blocks.append(Paragraph(f"Notes: {army.notes}", "note"))
    return Roster(army.name, header, is_legal(findings), findings, tuple(blocks), tuple(_glossary(army, cat)), fingerprint)


def _glossary(army: RRList, cat: RRCat) -> list[tuple[str, str]]:
    """Every rule the warband's choices bring to the table, in our own words with source."""
    seen: dict[str, tuple[str, str]] = {}
    for tid in army.traits:
        t = cat.get("warband_traits", tid)
        if t is not None:
            seen[f"t:{t.id}"] = (t.name, f"{t.text} [{t.source}]")
    for g in army.groups:
        gt = group_type(cat, g)
        if gt is not None and (r := cat.get("reactions", gt.reaction)) is not None:
            critical = f" Critical: {r.critical}" if r.critical else ""
            seen[f"r:{r.id}"] = (f"{r.name} (reaction)", f"Trigger: {r.trigger} Effect: {r.effect}{critical} [{r.source}]")
        if g.champion_action and (a := cat.get("actions", g.champion_action)) is not None:
            critical = f" Critical: {a.critical}" if a.critical else ""
            seen[f"a:{a.id}"] = (f"{a.name} (champion action)", f"{a.effect}{critical} [{a.source}]")
        if g.heavy_trait and (h := cat.get("heavy_traits", g.heavy_trait)) is not None:
            seen[f"h:{h.id}"] = (f"{h.name} (heavy trait)", f"{h.text} [{h.source}]")
        if g.warding_reaction and (w := cat.get("reactions", g.warding_reaction)) is not None:
            critical = f" Critical: {w.critical}" if w.critical else ""
            seen[f"r:{w.id}"] = (f"{w.name} (warding reaction)", f"Trigger: {w.trigger} Effect: {w.effect}{critical} [{w.source}]")
    if army.drive and (d := cat.get("drives", army.drive)) is not None:
        seen[f"d:{d.id}"] = (f"{d.name} (drive)", f"{d.question} {d.setup}" + (" A preview of Alpha #02: provisional." if d.provisional else "") + f" [{d.source}]")
    return sorted(seen.values())


# --------------------------------------------------------------------------- sheets


def _roll(low: int, high: int) -> str:
    return f"{low}–{high}"


def sheets(cat: RRCat) -> Sheets:
    data = cat.data
    t = data.tables
    blocks: list[Block] = []
    if t.check_dice:
        d = t.check_dice
        blocks.append(Heading("Dice checks", 1))
        blocks.append(
            Table(
                ("Check", "Dice"),
                (
                    ("Standard", f"{d.standard}d20"),
                    ("Penalty (any number)", f"{d.penalty}d20"),
                    ("Bonus (any number)", f"{d.bonus}d20"),
                    ("Bonus and penalty", f"{d.standard}d20: they cancel"),
                ),
                note=f"Success: at least one die at or above the stat. Critical: {d.critical_dice} dice at or above it. "
                "Lower stats are better. [rattle-and-rend-alpha02: Core Dice Mechanic]",
            )
        )
    if t.ranges:
        blocks.append(Heading("Range bands", 1))
        blocks.append(
            Table(
                ("Band", "Distance (centre to centre)", "Pivots when moving"),
                tuple((f"{r.band} ({r.name})", f"up to {r.distance_mm} mm" if r.distance_mm else "bases touching", str(r.pivots)) for r in t.ranges),
            )
        )
    if data.group_types:
        blocks.append(Heading("Group types", 1))
        blocks.append(
            Table(
                ("Group", "Pts", "MOV", "RNG", "FURY", "GUILE", "WILL", "Reaction", "Takes"),
                tuple(
                    (
                        g.name,
                        str(g.cost),
                        band_text(g.mov),
                        band_text(g.rng),
                        stat_text(g.fury),
                        stat_text(g.guile),
                        stat_text(g.will),
                        _name(cat, "reactions", g.reaction),
                        (g.trait or "-").replace("-", " "),
                    )
                    for g in data.group_types
                ),
                note="A warband has 4 to 8 groups; an attached Champion and its group count as one, and the Champion acts with "
                "that group's stats (RR-D1). Lower check stats are better.",
            )
        )
    for kind, title in (("standard", "Standard actions"), ("champion", "Champion actions")):
        rows = tuple(
            (a.name, a.movement.replace("mov+1", "MOV + 1 band").replace("mov", "MOV").replace("none", "stay"), (a.check or "-") + (" (penalty)" if a.penalty else ""), a.effect, a.critical or "-")
            for a in data.actions
            if a.kind == kind
        )
        if rows:
            blocks.append(Heading(title, 1))
            blocks.append(Table(("Action", "Move", "Check", "Effect", "Critical"), rows, widths=(1.2, 0.9, 0.9, 4, 2)))
    for kind, title in (("standard", "Reactions"), ("warding", "Warding reactions")):
        reaction_rows = tuple((r.name, r.trigger, r.effect, r.critical or "-") for r in data.reactions if r.kind == kind)
        if reaction_rows:
            blocks.append(Heading(title, 1))
            blocks.append(Table(("Reaction", "Trigger", "Effect", "Critical"), reaction_rows, widths=(1.1, 2.2, 3, 1.7)))
    if t.momentum:
        blocks.append(Heading("Momentum and turns", 1))
        for line in t.momentum:
            blocks.append(Paragraph(line))
    if t.attack_modifiers:
        blocks.append(Heading("Attacks", 1))
        for line in t.attack_modifiers:
            blocks.append(Paragraph(line))
    if t.will_results:
        blocks.append(Heading("Will checks", 1))
        blocks.append(Table(("Result", "Name", "Effect"), tuple((w.id, w.name, w.text) for w in t.will_results)))
    if data.heavy_traits:
        blocks.append(Heading("Heavy traits", 1))
        blocks.append(Table(("Trait", "Effect"), tuple((h.name, h.text) for h in data.heavy_traits), widths=(1, 5)))
    if data.warband_traits:
        blocks.append(Heading("Warband traits", 1))
        blocks.append(Table(("Trait", "Effect"), tuple((w.name, w.text) for w in data.warband_traits), widths=(1.2, 5)))
    if data.drives:
        blocks.append(Heading("Drives", 1))
        blocks.append(
            Table(("Drive", "Setup rules"), tuple((d.name, d.setup) for d in data.drives), provisional=any(d.provisional for d in data.drives), note="Drives are previews in Alpha #02.")
        )
    if data.scenarios:
        blocks.append(Heading("Scenarios (d20)", 1))
        blocks.append(
            Table(
                ("d20", "Scenario", "Setup", "Victory"),
                tuple((_roll(s.low, s.high), s.name, s.setup, s.victory) for s in data.scenarios),
                note="RR-D4: the d20 roll selects the scenario.",
                widths=(0.6, 1.3, 2.2, 3.5),
            )
        )
    if data.deployments:
        blocks.append(Heading("Deployment (d20)", 1))
        blocks.append(Table(("d20", "Deployment", "Rules"), tuple((_roll(d.low, d.high), d.name, d.text) for d in data.deployments), widths=(0.6, 1.4, 5)))
    if data.terrain_densities or data.terrain_types:
        blocks.append(Heading("Terrain", 1))
        if data.terrain_densities:
            blocks.append(Table(("d20", "Density", "Placement"), tuple((_roll(d.low, d.high), d.name, d.text) for d in data.terrain_densities), widths=(0.6, 1.3, 5)))
        if data.terrain_types:
            blocks.append(Table(("Type", "For example", "Rules"), tuple((tt.name, tt.examples, tt.text) for tt in data.terrain_types), widths=(1.2, 1.8, 4)))
    return Sheets(f"Rattle and Rend — reference sheets (catalogue {cat.version})", tuple(blocks))


# --------------------------------------------------------------------------- cards


def cards(army: RRList, cat: RRCat) -> list[Card]:
    """One card per group: its stats in play, its place and the names of its rules (each
    rule written once, in the glossary; warband traits and the drive are there too).  An
    attached Champion acts with its group's stats, so its card shows those (RR-D1)."""
    out: list[Card] = []
    army = normalize(army, cat)[0]
    for gi, g in enumerate(army.groups):
        gt = group_type(cat, g)
        if gt is None:
            continue
        target = attachment_target(army, gi)
        stats_of = army.groups[target] if target is not None else g
        s = effective_stats(army, cat, stats_of)
        if s is None:
            continue
        text: list[tuple[str, str]] = []
        if target is not None:
            text.append(("Attached", f"to group {target + 1}, {group_title(cat, army.groups[target], target)}: it acts with that group's stats, shown here, and that group's Will checks have a bonus."))
        rules = []
        if (reaction := cat.get("reactions", gt.reaction)) is not None:
            rules.append(f"reaction {reaction.name}")
        if g.champion_action and (a := cat.get("actions", g.champion_action)) is not None:
            rules.append(f"champion action {a.name}")
        if g.heavy_trait and (h := cat.get("heavy_traits", g.heavy_trait)) is not None:
            rules.append(f"heavy trait {h.name}")
        if g.warding_reaction and (w := cat.get("reactions", g.warding_reaction)) is not None:
            rules.append(f"warding reaction {w.name}")
        if rules:
            text.append(("Rules", "; ".join(rules) + " (see the glossary)."))
        if g.transported_by is not None or transport_capacity(army, cat, gi):
            detail = group_detail(army, cat, gi)
            text.append(("Transport", detail))
        if g.notes:
            text.append(("Notes", g.notes))
        cost = group_cost(cat, g)
        out.append(
            Card(
                group_title(cat, g, gi),
                "group",
                f"Group {gi + 1} · {gt.name} · {gt.base}",
                (("MOV", band_text(s.mov)), ("RNG", band_text(s.rng)), ("FURY", stat_text(s.fury)), ("GUILE", stat_text(s.guile)), ("WILL", stat_text(s.will))),
                tuple(text),
                f"{plural(cost, 'point')} · catalogue {cat.version}",
            )
        )
    return out


# --------------------------------------------------------------------------- summary


def summary_lines(army: RRList, cat: RRCat, findings) -> tuple[list[SummaryLine], list[tuple[str, str]], str]:
    """One line per group for the one-page summary (core.summary)."""
    flagged = errors_by_index(findings, "groups")
    army = normalize(army, cat)[0]
    lines = []
    for gi, g in enumerate(army.groups):
        gt = group_type(cat, g)
        detail = ", ".join(option_names(cat, g))
        if g.attached_to is not None:
            # normalize() gives an index; a label or type it could not resolve is shown as written
            joined = f"group {g.attached_to + 1}" if isinstance(g.attached_to, int) else str(g.attached_to)
            detail = (detail + "; " if detail else "") + f"attached to {joined}"
        text = (group_title(cat, g, gi) if gt else f"{g.type} (missing)") + (f": {detail}" if detail else "")
        cost = f"{group_cost(cat, g)} pt{'s' * (group_cost(cat, g) != 1)}" if gt else "missing"
        lines.append(SummaryLine(str(gi + 1), text, cost, gi in flagged))
    extras = [
        ("Warband traits", ", ".join(_name(cat, "warband_traits", t) for t in army.traits) or "none"),
        ("Drive", ", ".join(_name(cat, "drives", d) for d in choices_of(army.drive)) or "none"),
    ]
    return lines, extras, "Groups"


def summary_checks(army: RRList, cat: RRCat) -> list[tuple[str, str]]:
    """What an organiser counts on a warband, as the rules count it: points, groups (an
    attached Champion with its group, RR-D1), line points, traits and drive."""
    army = normalize(army, cat)[0]
    fmt = list_format(army, cat)
    points = breakdown(army, cat)
    groups = counted_groups(army, cat)
    out: list[tuple[str, str]] = []
    if fmt is not None:
        # joined by spaces, as the rules' finding names them, so a narrow column wraps between words
        line_names = ", ".join(gt.name for t in fmt.line_types if (gt := cat.get("group_types", t)) is not None)
        attached = sum(1 for g in army.groups if g.attached_to is not None)
        out += [
            ("Groups", f"{groups} of {fmt.min_groups}–{fmt.max_groups}" + (f" ({len(army.groups)} entries, {attached} attached Champion{'s' * (attached != 1)} counted with {'their groups' if attached != 1 else 'its group'})" if attached else "")),
            ("Line points", f"{points.line} on {line_names} (at least {fmt.min_line_points})"),
            ("Warband traits", f"{len(set(army.traits))} distinct (exactly {fmt.traits})"),
            ("Drive", "chosen" if army.drive else "none (one is needed)"),
        ]
    return out
