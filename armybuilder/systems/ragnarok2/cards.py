"""Rag'Narok 2 cards and the glossary they point to, as neutral shapes.

A profile card is what a player looks at mid-game: characteristics with the Wound
levels, where the profile serves (unit numbers and the fighters' own names), its
mystic characteristics, weapon and options, and the *names* of its abilities.  Each
ability's rule is written once per export, in the roster's glossary (the PDF prints
it as glossary faces beside the cards); a card never repeats it.  Tactics,
communions, miracles and rituals are cards of their own: their text is their rule.
Data-source remarks (what the reference data lacks, what the project assigned) are
not printed: ``catalog check`` and the catalogue's decisions hold them.
"""

from __future__ import annotations

import re

from armybuilder.core.checks import plural
from armybuilder.core.system import Card

from .army import R2List, profile
from .catalog import Profile, R2Cat
from .editing import unit_title
from .health import wound_levels
from .legality import lore_word

STAT_COLUMNS = ("Fighter", "N", "A.P.", "MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "COU/FEAR", "DIS", "POW", "WL")


def stats_row(p: Profile | None, name: str, count: str, cost: str, wounds: int | None = None) -> tuple[str, ...]:
    """A fighter's row: name, count, cost, characteristics and Wound levels (``wounds``)."""
    if p is None:
        return (f"{name} (missing)", count, cost, *(["-"] * 11))
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
        "-" if wounds is None else str(wounds),
    )


def ability_name(cat: R2Cat, ability: str) -> str:
    """The ability as a card and the roster name it: "Leadership/15", "Personal enemy/Azael"."""
    name, _, value = ability.partition("/")
    entry = cat.get("abilities", name)
    return (entry.name if entry else name) + (f"/{value}" if value else "")


def glossary_text(entry) -> str:
    """An ability's rule with its source; a provisional reading says so (its source names the
    decision)."""
    provisional = getattr(entry, "provisional", False)
    mark = " Provisional reading." if provisional else ""
    source = entry.source if not provisional or entry.decision in entry.source else f"{entry.source}; {entry.decision}"
    return f"{entry.text}{mark} [{source}]"


def _taken_options(army: R2List) -> set[str]:
    return {o for u in army.units for o in ((u.troops.options if u.troops else []) + [x for m in u.members for x in m.options])}


def used_abilities(army: R2List, cat: R2Cat) -> list[tuple[str, str]]:
    """The glossary: every ability the list's fighters and taken options bring, once."""
    seen: dict[str, tuple[str, str]] = {}
    taken = _taken_options(army)
    for unit in army.units:
        ids = ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]
        for pid in ids:
            p = profile(cat, pid)
            if p is None:
                continue
            refs = list(p.abilities) + [g for o in p.options if o.id in taken for g in o.grants]
            for ability in refs:
                key = ability.partition("/")[0]
                entry = cat.get("abilities", key)
                if entry is not None and key not in seen:
                    seen[key] = (entry.name + ("/X" if entry.takes_value else ""), glossary_text(entry))
    return sorted(seen.values())


def short_source(source: str) -> str:
    """A source a player can look up: "Confrontation C5", not a file path and line."""
    if source.startswith("reference-data:"):
        return "Confrontation C5"
    return source


def weapon_text(w) -> tuple[str, str]:
    """The ranged weapon line; a name that already gives the strength is not repeated."""
    name = w.name
    strength = f"STR {w.strength}"
    if re.search(r"\bSTR\b", name):
        name, _, extra = name.partition("(")
        strength = extra.rstrip(") ").strip() or strength
        name = name.strip()
    return f"Ranged weapon: {name}", f"{strength}; range {w.short} / {w.medium} / {w.long} cm (short / medium / long)."


def mystic_text(cat: R2Cat, p: Profile) -> list[tuple[str, str]]:
    out = []
    if p.has_role("magician") or p.power is not None and p.elements:
        elements = ", ".join(lore_word(e) for e in p.elements) or "-"
        path = lore_word(p.path)
        rank = f"initiation rank {p.initiation_rank}" if p.initiation_rank is not None else "initiation rank not given"
        out.append(("Magician", f"Element: {elements}; path: {path}; {rank}; Power {p.power if p.power is not None else '-'}."))
    if p.aspects is not None or p.cult or p.faith_rank:
        a = p.aspects
        aspects = f"Alteration {a.alteration}, Creation {a.creation}, Destruction {a.destruction}" if a else "-"
        out.append(("Faithful", f"Aspects: {aspects}; cult: {lore_word(p.cult)}; faith rank: {lore_word(p.faith_rank)}."))
    return out


def _profile_card(cat: R2Cat, p: Profile, serves: list[str], taken: set[str]) -> Card:
    wounds = wound_levels(cat.data.tables, p)
    row = stats_row(p, p.name, "", "", wounds)
    labels = [c if c != "COU/FEAR" else ("FEAR" if p.cou is None and p.fear is not None else "COU") for c in STAT_COLUMNS[3:]]
    stats = tuple(zip(labels, row[3:], strict=True))
    text: list[tuple[str, str]] = []
    if serves:
        text.append(("In", "; ".join(serves)))
    text += mystic_text(cat, p)
    if p.abilities:
        text.append(("Abilities", ", ".join(ability_name(cat, a) for a in p.abilities) + " (rules: glossary)"))
    if p.ranged:
        text.append(weapon_text(p.ranged))
    for o in p.options:
        if o.id in taken:
            granted = ", ".join(ability_name(cat, g) for g in o.grants)
            body = o.text or (f"Grants {granted} (rules: glossary)." if granted else "No effect in the Rag'Narok 2 rules.")
            text.append((f"Option: {o.name} (+{o.cost} A.P.)", body))
    if p.note:
        text.append(("Note", p.note))
    people = cat.get("peoples", p.people)
    rank = cat.get("ranks", p.rank)
    size = next((x.name for x in cat.data.tables.sizes if x.size == p.size), p.size)
    return Card(
        p.name,
        "profile",
        f"{people.name if people else p.people} · {rank.name if rank else p.rank} · {size} · {plural(wounds, 'Wound level')}",
        stats,
        tuple(text),
        f"{p.cost} A.P. · cat. {cat.version} · {short_source(p.source)}",
    )


def _serves(army: R2List, cat: R2Cat) -> dict[str, list[str]]:
    """Where each profile serves: "unit 1, Guards of the Lion" and the names its fighters
    carry there ("unit 2, Paladins: “Bertrand”")."""
    serves: dict[str, list[str]] = {}
    for ui, unit in enumerate(army.units):
        title = unit_title(cat, unit, ui)
        # a card is a table aid: a long unit name is cut there (the roster prints it whole)
        place = f"unit {ui + 1}, " + (title if len(title) <= 60 else title[:59].rstrip() + "…")
        pids = ([unit.troops.profile] if unit.troops else []) + [m.profile for m in unit.members]
        for pid in dict.fromkeys(pids):
            names = [f"“{m.label}”" for m in unit.members if m.profile == pid and m.label]
            entry = place + (": " + ", ".join(names) if names else "")
            places = serves.setdefault(pid, [])
            if entry not in places:
                places.append(entry)
    return serves


def cards(army: R2List, cat: R2Cat) -> list[Card]:
    out: list[Card] = []
    taken = _taken_options(army)
    for pid, places in _serves(army, cat).items():
        p = profile(cat, pid)
        if p is not None:
            out.append(_profile_card(cat, p, places, taken))
    for tid in dict.fromkeys(army.tactics):
        t = cat.get("tactics", tid)
        if t is not None:
            out.append(Card(t.name, "tactic", "Tactic", (), (("Condition", t.condition), ("Pros", t.pros), ("Cons", t.cons)), short_source(t.source), t.provisional))
    for cid in dict.fromkeys(army.communions):
        c = cat.get("communions", cid)
        if c is not None:
            out.append(
                Card(
                    c.name,
                    "communion",
                    f"Cult: {lore_word(c.cult)}",
                    (("Fervor", f"{c.fervor} ({'/'.join(c.aspects)})"), ("Diff.", str(c.difficulty) if c.difficulty is not None else "-"), ("Range", c.range or "-"), ("Duration", c.duration or "-"), ("Power", str(c.power))),
                    (("Target", c.target or "-"), ("Effect", c.text)),
                    short_source(c.source),
                )
            )
    for mid in dict.fromkeys(mid for u in army.units for m in u.members for mid in m.miracles):
        m = cat.get("miracles", mid)
        if m is not None:
            out.append(
                Card(
                    m.name,
                    "miracle",
                    f"Cults: {', '.join(lore_word(c) for c in m.cults) or '-'}",
                    (("Fervor", str(m.budget_cost)), ("Diff.", m.difficulty or "-"), ("Aspects", "/".join(m.aspects) or "-")),
                    (("Effect", m.text),),
                    short_source(m.source),
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
                    (("Mana", f"{r.mana} {r.element}"), ("Diff.", str(r.difficulty)), ("Range", r.range), ("Duration", r.duration), ("Power", f"{r.power} A.P.")),
                    (("Target", r.target), ("Effect", r.text)),
                    short_source(r.source),
                )
            )
    return out
