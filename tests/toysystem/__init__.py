"""Pit Fighters: the test suite's toy game system, a fourth system plugged in from outside.

Everything a system needs is here and in ``catalog/``; it is registered with one
line (``registry.register("toy-pit", "toysystem")`` in tests/conftest.py) and then
appears in the CLI, the TUI, PDFs and the shared system tests with no other edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from armybuilder.core.system import Choice, EntryRef, PackagedSystem, Points, StatusItem

from . import editing, rules, sheets
from .model import PitCat, PitCatalog, PitList, totals


class PitFighters(PackagedSystem[PitList, PitCatalog]):
    id = "toy-pit"
    name = "Pit Fighters"
    catalog_model = PitCatalog
    list_model = PitList
    faction_label = "Crew"
    faction_field = "crew"
    faction_facet = "crew"
    catalogue_folder = Path(__file__).parent / "catalog"
    editing_module = editing
    sheets_module = sheets
    rules_module = rules
    format_params = ("leader_share",)
    new_list_name = "New crew"
    game_module = "toysystem.engine"  # the smallest engine on the shared protocol (core/engine.py)

    def factions(self, cat: PitCat) -> list[Choice]:
        return [Choice(c.id, c.name, f"{sum(f.crew == c.id for f in cat.data.fighters)} fighter types") for c in cat.data.crews]

    def faction_fields(self, cat: PitCat, faction: str | None) -> dict[str, Any]:
        return {"crew": faction or cat.data.crews[0].id}

    def points(self, army: PitList, cat: PitCat) -> Points:
        total, leaders = totals(army, cat)
        return Points(total, self.format_limit(army, cat), "coins", (("fighters", total - leaders), ("leaders", leaders)))

    def status(self, army: PitList, cat: PitCat) -> list[StatusItem]:
        total, _ = totals(army, cat)
        limit = self.format_limit(army, cat)
        return [StatusItem("Coins", f"{total}/{limit}", total <= limit), StatusItem("Fighters", str(len(army.fighters)))]

    def scenarios(self, cat: PitCat) -> list[Choice]:
        return [Choice("open-pit", "Open pit", "six rounds"), Choice("sudden-death", "Sudden death", "three rounds")]

    def referenced_entries(self, army: PitList) -> list[tuple[str, EntryRef]]:
        refs = [("crew", EntryRef("crews", army.crew)), ("format", EntryRef("formats", army.format))]
        return refs + [(f"fighters[{i}].type", EntryRef("fighters", f.type)) for i, f in enumerate(army.fighters)]


SYSTEM = PitFighters()
