"""How the BattleScribe data writes figures, abilities, mystic ranks and weapons.

The reference files hold free text ("Fire Adept/Primal, Typhon", "7,5",
"Crossbow: STR 5 range 20/30/40"); these parsers turn it into the values the
Rag'Narok 2 catalogue stores.  They are pure functions of the text, so each is
tested on its own with the odd spellings the files contain.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from . import import_assignments as A

# --------------------------------------------------------------------------- small helpers


def slug(text: str) -> str:
    """Lower-case ASCII id with hyphens ("Tir-Nâ-Bor" → "tir-na-bor")."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def clean(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def number(text: str) -> int | float | None:
    """A characteristic as printed: "7,5" → 7.5, "10" → 10, "-" or "" → None."""
    t = clean(text).replace(",", ".").rstrip("-").strip()
    if not re.fullmatch(r"\d+(\.\d+)?", t):
        return None
    value = float(t)
    return int(value) if value.is_integer() else value


def whole(value: int | float | None) -> int | None:
    return None if value is None else int(value)


def value_text(value: str) -> str:
    """The X of "Ability/X": decimal comma to point, spaces tidied."""
    return clean(value).replace(",", ".") if re.fullmatch(r"\s*\d+,\d+\s*", value) else clean(value)


# --------------------------------------------------------------------------- abilities


@dataclass
class Mystic:
    power_rank: int | None = None
    elements: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    cult: str | None = None
    deity: str | None = None
    faith_rank: str | None = None
    faithful: bool = False


_MAGIC_A = re.compile(
    r"^(?P<el>.+?)\s+(?P<rank>initiate|adept|master|virtuoso)\s*/\s*(?P<paths>.+)$", re.I
)
_MAGIC_B = re.compile(
    r"^(?P<rank>initiate|adept|master|virtuoso)(?:\s+of\s+(?P<el>.+?))?\s*/\s*(?P<paths>.+)$", re.I
)
_FAITH = re.compile(
    r"^(?P<rank>devout|zealot|dean|avatar|faithful|faitful|faithfull|faitfull)\s+of\s+(?P<cult>.+?)\s*/\s*[\d.,]+$",
    re.I,
)


def _elements(text: str) -> list[str]:
    t = text.lower()
    for wrong, right in A.ELEMENT_ALIASES.items():
        t = t.replace(wrong, right)
    found: set[str] = set()
    if "4 elements" in t:
        found.update(("air", "earth", "fire", "water"))
    for element in A.ELEMENTS:
        if re.search(rf"\b{element}\b", t):
            found.add(element)
    return sorted(found)


def _paths(text: str) -> list[str]:
    out = []
    for part in re.split(r",|;|\band\b", text):
        key = clean(part).lower()
        if key in A.PATHS and A.PATHS[key] not in out:
            out.append(A.PATHS[key])
    return out


def parse_abilities(text: str) -> tuple[list[str], Mystic, list[str]]:
    """Abilities column → (ability strings, mystic data, remarks for the note)."""
    abilities: list[str] = []
    mystic = Mystic()
    remarks: list[str] = []
    after_magic = False
    for raw in re.split(r";|(?<!\d),|,(?!\d)", text or ""):
        token = clean(raw)
        if not token:
            continue
        low = token.lower()
        if low in A.ABILITY_REMARKS:
            if A.ABILITY_REMARKS[low]:
                remarks.append(A.ABILITY_REMARKS[low])
            continue
        magic = _MAGIC_A.match(token) or _MAGIC_B.match(token)
        if magic:
            mystic.power_rank = A.INITIATION_RANKS[magic.group("rank").lower()]
            mystic.elements = _elements(magic.group("el") or "")
            mystic.paths += [p for p in _paths(magic.group("paths")) if p not in mystic.paths]
            after_magic = True
            continue
        if after_magic and _paths(token):
            mystic.paths += [p for p in _paths(token) if p not in mystic.paths]
            continue
        after_magic = False
        faith = _FAITH.match(token)
        if faith:
            rank = faith.group("rank").lower()
            mystic.faithful = True
            mystic.faith_rank = rank if rank in A.FAITH_RANKS else None
            deity = slug(faith.group("cult"))
            mystic.cult, mystic.deity = A.CULTS.get(deity, (deity, clean(faith.group("cult"))))
            continue
        name, sep, value = token.partition("/")
        ability = slug(name)
        if not ability:
            remarks.append(f"reference card entry '{token}' not understood")
            continue
        ability = A.ABILITY_ALIASES.get(ability, ability)
        if ability == "spirit-of" and not value:
            continue
        if ability.startswith("spirit-of-"):  # "Spirit of Water"
            ability, sep, value = "spirit-of", "/", ability.removeprefix("spirit-of-")
        if ability in A.AFFILIATIONS:
            remarks.append(A.AFFILIATIONS[ability])
            continue
        entry = f"{ability}/{value_text(value)}" if sep and clean(value) else ability
        if entry not in abilities:
            abilities.append(entry)
    if mystic.power_rank:
        # Paths listed apart from the magic entry ("...; Regeneration/5; Fayry").
        for entry in list(abilities):
            path = A.PATHS.get(entry.replace("-", " "))
            if path is not None:
                abilities.remove(entry)
                if path not in mystic.paths:
                    mystic.paths.append(path)
    return abilities, mystic, remarks


_ASPECTS = re.compile(r"^\s*(\d)\s*[-\\/ ]\s*(\d)\s*[-\\/ ]\s*(\d)\s*(?:\((\w+)\))?\s*$")


def parse_aspects(text: str) -> tuple[dict[str, int] | None, str | None]:
    """Fervour column "C-A-D (rank)" → aspects and faith rank.

    The reference's relic cards name the order of the Aspects "C.A.D.": Creation,
    Alteration, Destruction.
    """
    m = _ASPECTS.match(text or "")
    if not m:
        return None, None
    creation, alteration, destruction = (int(m.group(i)) for i in (1, 2, 3))
    rank = m.group(4).lower() if m.group(4) else None
    return {"alteration": alteration, "creation": creation, "destruction": destruction}, rank


# --------------------------------------------------------------------------- weapons and options


_WEAPON = re.compile(
    r"^(?P<name>[^:]+?)\s*:?\s*STR\s*=?\s*(?P<str>\d+)(?P<dice>\s*\+\s*\d+d6)?[.,]?\s*"
    r"(?:range\s*=?\s*)?(?P<s>\d+)\s*/\s*(?P<m>\d+)\s*/\s*(?P<l>\d+)\s*$",
    re.I,
)


@dataclass
class Weapon:
    name: str
    strength: int
    short: int
    medium: int
    long: int
    cost: int
    line: int


def parse_weapon(name: str, cost: int, line: int) -> Weapon | None:
    m = _WEAPON.match(clean(name))
    if not m:
        return None
    label = clean(m.group("name")).rstrip(":")
    if m.group("dice"):
        label = f"{label} (STR {m.group('str')}{m.group('dice').replace(' ', '')})"
    return Weapon(
        label,
        int(m.group("str")),
        int(m.group("s")),
        int(m.group("m")),
        int(m.group("l")),
        cost,
        line,
    )
