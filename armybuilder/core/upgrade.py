"""What moving a list to another catalogue version changes, for that very list.

Upgrading never drops anything the player chose: entries missing from the target
version stay in the list and are reported (and flagged by validation as errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .catalog import Change, diff
from .findings import Finding, Severity
from .records import EntryRef

if TYPE_CHECKING:
    from .system import ArmyListBase, GameSystem


@dataclass
class UpgradeImpact:
    from_version: str
    to_version: str
    points_before: float
    points_after: float
    changes: list[Change] = field(default_factory=list)  # catalogue changes touching this list
    missing: list[tuple[str, EntryRef]] = field(default_factory=list)
    new_findings: list[Finding] = field(default_factory=list)
    gone_findings: list[Finding] = field(default_factory=list)
    #: house catalogue pins that change: "wolfen-of-yllia 1.0.0 → 1.1.0" (core/house.py)
    house: list[str] = field(default_factory=list)
    #: the list as it would be after the upgrade
    moved: Any = None

    @property
    def moves(self) -> bool:
        """Whether the upgrade changes the list (its catalogue version or a house pin)."""
        return self.from_version != self.to_version or bool(self.house)

    def lines(self) -> list[str]:
        moved = f"{self.from_version} → {self.to_version}" if self.from_version != self.to_version else f"{self.to_version} (unchanged)"
        out = [
            f"catalogue {moved}",
            *(f"house catalogue {h}" for h in self.house),
            f"points: {self.points_before:g} → {self.points_after:g}",
        ]
        out += [f"changed: {c.describe()}" for c in self.changes]
        out += [f"missing in {self.to_version}: {ref.collection} '{ref.id}' at {where}" for where, ref in self.missing]
        out += [f"new finding: [{f.severity}] {f.message}" for f in self.new_findings]
        out += [f"no longer: [{f.severity}] {f.message}" for f in self.gone_findings]
        if len(out) == 2 + len(self.house) and self.points_before == self.points_after:
            out.append("nothing else changes for this list")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "from": self.from_version,
            "to": self.to_version,
            "points_before": self.points_before,
            "points_after": self.points_after,
            "changes": [c.describe() for c in self.changes],
            "missing": [{"where": w, "collection": r.collection, "id": r.id} for w, r in self.missing],
            "new_findings": [f.as_json() for f in self.new_findings],
            "gone_findings": [f.as_json() for f in self.gone_findings],
            "house": self.house,
        }


def upgrade_impact(
    system: GameSystem[Any, Any], army: ArmyListBase, to_version: str | None = None,
    house: list[dict[str, str]] | None = None,
) -> UpgradeImpact:
    """What moving ``army`` to ``to_version`` (the latest by default) changes; ``house``:
    the house catalogue pins it would have instead of its own (:func:`.house_use.latest_pins`)."""
    old_cat = system.catalogue_for(army)
    target = to_version or system.source.latest
    update: dict[str, Any] = {"catalogue": target}
    house_moves: list[str] = []
    if house is not None:
        pinned = {p.id: p for p in army.house}
        for pin in house:
            old = pinned.get(pin["id"])
            if old is None:
                house_moves.append(f"{pin['id']} {pin['version']} added")
            elif (old.version, old.hash) != (pin["version"], pin["hash"]):
                same = " (its data changed since the list was pinned)" if old.version == pin["version"] else ""
                house_moves.append(f"{pin['id']} {old.version} → {pin['version']}{same}")
        if house_moves:  # a list being edited (pydantic): pins as the model holds them
            from .list_model import HousePin

            update["house"] = [HousePin(**p) for p in house]
    moved = army.model_copy(update=update)
    # as the list was read: a plain list is judged against plain catalogues (no pydantic)
    new_cat = system.catalogue_for(moved)
    refs = system.referenced_entries(army)
    used = {(r.collection, r.id) for _, r in refs}
    changes = [c for c in diff(old_cat.raw, new_cat.raw) if (c.collection, c.entry) in used]
    missing = [(w, r) for w, r in refs if new_cat.get(r.collection, r.id) is None]
    before = system.validate(army, old_cat)
    after = system.validate(moved, new_cat)

    def key(f: Finding) -> tuple[str, str]:
        return f.rule, f.message

    before_keys = {key(f) for f in before}
    after_keys = {key(f) for f in after}
    return UpgradeImpact(
        old_cat.version,
        new_cat.version,
        system.points(army, old_cat).total,
        system.points(moved, new_cat).total,
        changes,
        missing,
        [f for f in after if key(f) not in before_keys],
        [f for f in before if key(f) not in after_keys],
        house_moves,
        moved,
    )


def newer_version(system: GameSystem[Any, Any], army: ArmyListBase) -> str | None:
    """The latest catalogue version when it is newer than the list's pin (and the pin exists)."""
    latest = system.source.latest
    if army.catalogue == latest or not system.source.has_version(army.catalogue):
        return None
    return latest


def newer_version_finding(system: GameSystem[Any, Any], army: ArmyListBase, *, impact: bool = True) -> Finding | None:
    """The one "a newer catalogue version exists" finding (the command line and the editor).

    With ``impact`` it says what upgrading changes for this list (two validations and
    a catalogue diff); without, it only points at the upgrade, which the editor
    offers on a key, so that an edit stays fast.
    """
    latest = newer_version(system, army)
    if latest is None:
        return None
    text = f"catalogue {latest} exists (this list is pinned to {army.catalogue})"
    if impact:
        found = upgrade_impact(system, army, latest)
        parts = [f"points {found.points_before:g} → {found.points_after:g}"]
        if found.changes:
            parts.append(f"{len(found.changes)} changed entries used by this list")
        if found.missing:
            parts.append(f"{len(found.missing)} entries missing")
        errors_after = sum(1 for f in found.new_findings if f.severity is Severity.ERROR)
        if errors_after:
            parts.append(f"{errors_after} new errors")
        text += "; upgrading changes: " + "; ".join(parts)
    return Finding(
        f"{system.id}.catalogue.newer-version",
        Severity.INFO,
        text + ". 'armybuilder list upgrade' (in the editor: u) shows what changes and applies it",
        "catalogue",
        "design: Army lists",
    )
