"""Pit Fighters' printed roster, reference sheets and cards, as neutral blocks."""

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

from .model import PitCat, PitList, fighter_type, name, totals
from .rules import run_rules


def roster(army: PitList, cat: PitCat, fingerprint: str) -> Roster:
    findings = tuple(run_rules(army, cat))
    total, leaders = totals(army, cat)
    fmt = cat.get("formats", army.format)
    rows = []
    for i, f in enumerate(army.fighters):
        t = fighter_type(cat, f)
        rows.append((str(i + 1), name(cat, f), str(t.attack) if t else "?", str(t.guard) if t else "?", str(t.cost) if t else "?"))
    blocks: list[Block] = [
        Heading("Fighters"),
        Table(("#", "Fighter", "Attack", "Guard", "Coins"), tuple(rows)),
        KeyValues((("Total", f"{total} / {fmt.limit if fmt else '?'} coins"), ("On leaders", f"{leaders} coins"))),
    ]
    if army.notes:
        blocks.append(Paragraph(army.notes, "note"))
    header = (("System", "Pit Fighters"), ("Catalogue", f"{cat.version} (hash {cat.hash})"), ("Fingerprint", fingerprint))
    return Roster(army.name, header, is_legal(findings), findings, tuple(blocks), (), fingerprint)


def sheets(cat: PitCat) -> Sheets:
    rows = tuple((t.name, t.crew, str(t.attack), str(t.guard), str(t.cost)) for t in cat.data.fighters)
    return Sheets("Pit Fighters reference", (Heading("Fighter types"), Table(("Fighter", "Crew", "Attack", "Guard", "Coins"), rows)))


def cards(army: PitList, cat: PitCat) -> list[Card]:
    out = []
    for f in army.fighters:
        t = fighter_type(cat, f)
        if t is not None:
            out.append(Card(name(cat, f), "profile", t.crew, (("ATT", str(t.attack)), ("GRD", str(t.guard))), (("Rules", t.text),) if t.text else (), f"{t.cost} coins"))
    return out
