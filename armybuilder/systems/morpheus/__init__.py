"""Ragnarok: Heavy Metal Combat in the Viking Age (Morpheus Engine)."""

from __future__ import annotations

from typing import Any

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.findings import Finding
from armybuilder.core.system import (
    BrowserEntry,
    Card,
    Choice,
    Detail,
    EditAction,
    EntryRef,
    Format,
    GameRecord,
    GameSystem,
    OddsResult,
    OutlineNode,
    Param,
    Points,
    Roster,
    Sheets,
    StatusItem,
)

from . import editing, sheets
from .army import KINDS, WarClan, breakdown, counts, data, equipment_kind
from .catalog import MECatalog


class Morpheus(GameSystem):
    id = "morpheus-ragnarok"
    name = "Ragnarok (Morpheus Engine)"
    catalog_model = MECatalog
    list_model = WarClan
    faction_label = "Clan"

    def formats(self, cat: Catalogue) -> list[Format]:
        return [
            Format(
                f.id,
                f.name,
                f.limit,
                f.unit,
                f.default,
                {
                    "min_models": f.min_models,
                    "max_models": f.max_models,
                    "jarls": f.jarls,
                    "max_armour": f.max_armour,
                    "max_shields": f.max_shields,
                    "max_weapons": f.max_weapons,
                    "max_items": f.max_items,
                    "max_god_powers": f.max_god_powers,
                },
            )
            for f in data(cat).formats
        ]

    def factions(self, cat: Catalogue) -> list[Choice]:
        return [Choice("war-clan", "War Clan", f"{len(data(cat).warriors)} warrior types")]

    def new_list(
        self,
        cat: Catalogue,
        *,
        faction: str | None = None,
        format: str | None = None,
        name: str | None = None,
    ) -> WarClan:
        del faction  # one faction: the war clan
        return WarClan(catalogue=cat.version, format=format or self.default_format(cat).id, name=name or "New war clan")

    def points(self, army: WarClan, cat: Catalogue) -> Points:  # type: ignore[override]
        b = breakdown(army, cat)
        fmt = cat.get("formats", army.format)
        return Points(b.total, fmt.limit if fmt else 0, "Glory", (("warriors", b.warriors), ("equipment", b.equipment)))

    def validate(self, army: WarClan, cat: Catalogue) -> list[Finding]:  # type: ignore[override]
        from .rules import run_rules

        return run_rules(army, cat)

    def status(self, army: WarClan, cat: Catalogue) -> list[StatusItem]:  # type: ignore[override]
        fmt = cat.get("formats", army.format)
        b = breakdown(army, cat)
        n = len(army.warriors)
        jarls = sum(1 for w in army.warriors if w.jarl)
        items = [StatusItem("Glory", f"{b.total}/{fmt.limit if fmt else '?'}", b.total <= fmt.limit if fmt else False)]
        if fmt:
            items.append(StatusItem("Models", f"{n} ({fmt.min_models}-{fmt.max_models})", fmt.min_models <= n <= fmt.max_models))
            items.append(StatusItem("Jarl", str(jarls), jarls == fmt.jarls))
            over = sum(
                1
                for w in army.warriors
                for kind, limit in zip(KINDS, (fmt.max_armour, fmt.max_shields, fmt.max_weapons, fmt.max_items), strict=True)
                if counts(cat, w)[kind] > limit
            )
            items.append(StatusItem("Gear", "ok" if not over else f"{over} over the limits", over == 0))
            items.append(StatusItem("God powers", f"{len(army.god_powers)}/{fmt.max_god_powers}", len(army.god_powers) <= fmt.max_god_powers))
        return items

    def referenced_entries(self, army: WarClan) -> list[tuple[str, EntryRef]]:  # type: ignore[override]
        refs: list[tuple[str, EntryRef]] = [("format", EntryRef("formats", army.format))]
        cat = None
        try:
            cat = self.catalogue_for(army)
        except Exception:  # noqa: BLE001 - an unknown version: equipment kinds unknown
            cat = None
        for wi, w in enumerate(army.warriors):
            refs.append((f"warriors[{wi}].type", EntryRef("warriors", w.type)))
            for ei, e in enumerate(w.equipment):
                kind = (equipment_kind(cat, e) if cat is not None else None) or "weapons"
                refs.append((f"warriors[{wi}].equipment[{ei}]", EntryRef(kind, e)))
        for pi, p in enumerate(army.god_powers):
            refs.append((f"god_powers[{pi}]", EntryRef("god_powers", p.power)))
        return refs

    # -- editor ---------------------------------------------------------------

    def outline(self, army: WarClan, cat: Catalogue) -> list[OutlineNode]:  # type: ignore[override]
        return editing.outline(army, cat)

    def actions(self, army: WarClan, cat: Catalogue, path: str) -> list[EditAction]:  # type: ignore[override]
        return editing.actions(army, cat, path)

    def apply(self, army: WarClan, cat: Catalogue, path: str, action: str, args: dict[str, Any]) -> tuple[WarClan, str]:  # type: ignore[override]
        return editing.apply(army, cat, path, action, args)

    def browse(self, cat: Catalogue) -> list[BrowserEntry]:
        return editing.browse(cat)

    def detail(self, cat: Catalogue, ref: EntryRef) -> Detail:
        return editing.detail(cat, ref)

    # -- printing -------------------------------------------------------------

    def roster(self, army: WarClan, cat: Catalogue, fingerprint: str) -> Roster:  # type: ignore[override]
        return sheets.roster(army, cat, fingerprint)

    def sheets(self, cat: Catalogue) -> Sheets:
        return sheets.sheets(cat)

    def cards(self, army: WarClan, cat: Catalogue) -> list[Card]:  # type: ignore[override]
        return sheets.cards(army, cat)

    # -- engine ---------------------------------------------------------------

    def odds_parameters(self) -> tuple[Param, ...]:
        from .engine import odds

        return odds.PARAMETERS

    def odds(self, cat: Catalogue, params: dict[str, Any]) -> OddsResult:
        from .engine import odds

        return odds.attack_odds(cat, params)

    def odds_units(self, army: WarClan, cat: Catalogue) -> list[Choice]:
        """Warriors the odds panel can pit against each other (index, label)."""
        from .engine import odds

        return [Choice(i, label) for i, label in odds.unit_choices(army, cat)]

    def unit_odds_params(self, cat: Catalogue, army: WarClan, unit: int, other: WarClan, other_unit: int) -> dict[str, Any]:
        """Parameters of :meth:`odds` for warrior *unit* of *army* attacking *other_unit* of *other*."""
        from .engine import odds

        return odds.unit_odds_params(army, unit, other, other_unit, cat)

    def engine_ready(self) -> bool:
        import importlib.util

        return importlib.util.find_spec("armybuilder.systems.morpheus.engine.battle") is not None

    def play_game(self, cat: Catalogue, first, second, rng: np.random.Generator, log: bool = False) -> GameRecord:
        from .engine import battle

        return battle.play_game(cat, first, second, rng, log)


SYSTEM = Morpheus()
