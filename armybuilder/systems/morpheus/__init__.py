"""Ragnarok: Heavy Metal Combat in the Viking Age (Morpheus Engine)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from armybuilder.core.checks import list_format
from armybuilder.core.lazy import lazy_class, lazy_module
from armybuilder.core.system import Choice, EntryRef, PackagedSystem, Points, StatusItem

from .counting import KINDS, breakdown, counts, equipment_kind

if TYPE_CHECKING:  # pydantic is not needed to validate a list
    from armybuilder.core.catalog import Catalogue

    from .army import WarClan
    from .catalog import MECatalog


class Morpheus(PackagedSystem["WarClan", "MECatalog"]):
    id = "morpheus-ragnarok"
    name = "Ragnarok (Morpheus Engine)"
    # the pydantic models, imported on first use: validate reads the plain mirrors
    catalog_model = lazy_class(f"{__name__}.catalog.MECatalog")
    list_model = lazy_class(f"{__name__}.army.WarClan")
    plain_module = f"{__name__}.plain"
    schema_fingerprint = "ed878a81c539658ea060968d78819ca8da2cb00be041e37d5e2609fad83e74d3"  # tests/core/test_catalog_cache.py checks it
    faction_label = "Clan"
    importer_module = f"{__name__}.importer"
    house_skeleton_module = f"{__name__}.house_skeleton"
    # imported on first use: validating a list needs the rules, not the editor or the sheets
    editing_module = lazy_module(f"{__name__}.editing")
    sheets_module = lazy_module(f"{__name__}.sheets")
    rules_module = lazy_module(f"{__name__}.rules")
    odds_module = f"{__name__}.engine.odds"
    game_module = f"{__name__}.engine.battle"
    engine_package = f"{__name__}.engine"  # compiled by setup.py when it can (armybuilder._native)
    playtest_budget = 230  # games per reference-loop-second (design.md: bench's normalised rate)
    format_params = (
        "min_models",
        "max_models",
        "jarls",
        "max_armour",
        "max_shields",
        "max_weapons",
        "max_items",
        "max_god_powers",
    )
    new_list_name = "New war clan"  # one faction: the war clan

    def factions(self, cat: Catalogue[MECatalog]) -> list[Choice]:
        return [Choice("war-clan", "War Clan", f"{len(cat.data.warriors)} warrior types")]

    def option_study(self, games: int, seed: int) -> list:
        from .engine.options import option_study

        return option_study(self.catalogue(), games, seed)

    def cut_copy(self, army: WarClan, cat: Catalogue[MECatalog], share: float = 0.2) -> WarClan:
        from .cut import cut_copy

        return cut_copy(army, cat, share)

    def points(self, army: WarClan, cat: Catalogue[MECatalog]) -> Points:
        b = breakdown(army, cat)
        return Points(b.total, self.format_limit(army, cat), "Glory", (("warriors", b.warriors), ("equipment", b.equipment)))

    def status(self, army: WarClan, cat: Catalogue[MECatalog]) -> list[StatusItem]:
        fmt = list_format(army, cat)
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

    def referenced_entries(self, army: WarClan) -> list[tuple[str, EntryRef]]:
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



SYSTEM = Morpheus()
