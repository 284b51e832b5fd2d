"""Rattle and Rend (Alpha #02): 12-point warbands of groups, momentum and reactions."""

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
from .army import RRList, breakdown, choices_of, counted_groups, normalize
from .catalog import RRCatalog


class RattleAndRend(GameSystem):
    id = "rattle-and-rend"
    name = "Rattle and Rend"
    catalog_model = RRCatalog
    list_model = RRList
    faction_label = "Warband"

    def formats(self, cat: Catalogue) -> list[Format]:
        return [
            Format(
                f.id,
                f.name,
                f.limit,
                f.unit,
                f.default,
                {
                    "min_groups": f.min_groups,
                    "max_groups": f.max_groups,
                    "min_line_points": f.min_line_points,
                    "traits": f.traits,
                },
            )
            for f in cat.data.formats
        ]

    def factions(self, cat: Catalogue) -> list[Choice]:
        """Rattle and Rend has no factions: warbands are miniatures-agnostic (one choice)."""
        return [Choice("warband", "Warband", "any miniatures; choose groups, two traits and a drive")]

    def new_list(
        self,
        cat: Catalogue,
        *,
        faction: str | None = None,
        format: str | None = None,
        name: str | None = None,
    ) -> RRList:
        del faction  # no factions in this game
        return RRList(catalogue=cat.version, format=format or self.default_format(cat).id, name=name or "New warband")

    def points(self, army: RRList, cat: Catalogue) -> Points:  # type: ignore[override]
        army, _ = normalize(army, cat)
        b = breakdown(army, cat)
        fmt = cat.get("formats", army.format)
        return Points(b.total, fmt.limit if fmt else 0, "points", b.by_type)

    def validate(self, army: RRList, cat: Catalogue) -> list[Finding]:  # type: ignore[override]
        from .rules import run_rules

        return run_rules(army, cat)

    def status(self, army: RRList, cat: Catalogue) -> list[StatusItem]:  # type: ignore[override]
        army, _ = normalize(army, cat)
        fmt = cat.get("formats", army.format)
        b = breakdown(army, cat)
        groups = counted_groups(army, cat)
        traits = len(set(army.traits))
        if fmt is None:
            return [StatusItem("Points", f"{b.total}/?", False)]
        return [
            StatusItem("Points", f"{b.total}/{fmt.limit}", b.total <= fmt.limit),
            StatusItem("Groups", f"{groups} ({fmt.min_groups}–{fmt.max_groups})", fmt.min_groups <= groups <= fmt.max_groups),
            StatusItem("Line", f"{b.line}/{fmt.min_line_points}+ pts", b.line >= fmt.min_line_points),
            StatusItem("Traits", f"{traits}/{fmt.traits}", traits == fmt.traits and len(army.traits) == fmt.traits),
            StatusItem("Drive", army.drive or "none", army.drive is not None),
        ]

    def referenced_entries(self, army: RRList) -> list[tuple[str, EntryRef]]:  # type: ignore[override]
        refs: list[tuple[str, EntryRef]] = [("format", EntryRef("formats", army.format))]
        for gi, g in enumerate(army.groups):
            refs.append((f"groups[{gi}].type", EntryRef("group_types", g.type)))
            for fld, collection in (("champion_action", "actions"), ("heavy_trait", "heavy_traits"), ("warding_reaction", "reactions")):
                refs += [(f"groups[{gi}].{fld}", EntryRef(collection, v)) for v in choices_of(getattr(g, fld))]
        refs += [(f"traits[{i}]", EntryRef("warband_traits", t)) for i, t in enumerate(army.traits)]
        refs += [("drive", EntryRef("drives", d)) for d in choices_of(army.drive)]
        return refs

    # -- editor ---------------------------------------------------------------

    def outline(self, army: RRList, cat: Catalogue) -> list[OutlineNode]:  # type: ignore[override]
        return editing.outline(normalize(army, cat)[0], cat)

    def actions(self, army: RRList, cat: Catalogue, path: str) -> list[EditAction]:  # type: ignore[override]
        return editing.actions(army, cat, path)

    def apply(self, army: RRList, cat: Catalogue, path: str, action: str, args: dict[str, Any]) -> tuple[RRList, str]:  # type: ignore[override]
        return editing.apply(army, cat, path, action, args)

    def browse(self, cat: Catalogue) -> list[BrowserEntry]:
        return editing.browse(cat)

    def detail(self, cat: Catalogue, ref: EntryRef) -> Detail:
        return editing.detail(cat, ref)

    # -- printing -------------------------------------------------------------

    def roster(self, army: RRList, cat: Catalogue, fingerprint: str) -> Roster:  # type: ignore[override]
        return sheets.roster(army, cat, fingerprint)

    def sheets(self, cat: Catalogue) -> Sheets:
        return sheets.sheets(cat)

    def cards(self, army: RRList, cat: Catalogue) -> list[Card]:  # type: ignore[override]
        return sheets.cards(normalize(army, cat)[0], cat)

    # -- engine ---------------------------------------------------------------

    def odds_parameters(self) -> tuple[Param, ...]:
        import importlib.util

        if importlib.util.find_spec("armybuilder.systems.rattle_and_rend.engine.odds") is None:
            return ()
        from .engine import odds

        return odds.PARAMETERS

    def odds(self, cat: Catalogue, params: dict[str, Any]) -> OddsResult:
        from .engine import odds

        return odds.odds(cat, params)

    def odds_units(self, army: RRList, cat: Catalogue) -> list[Choice]:
        """Groups of a warband the odds panel can pit against each other (index, label)."""
        from .engine import odds

        return [Choice(i, label) for i, label in odds.unit_choices(normalize(army, cat)[0], cat)]

    def unit_odds_params(self, cat: Catalogue, army: RRList, unit: int, other: RRList, other_unit: int) -> dict[str, Any]:
        """Parameters of :meth:`odds` for group ``unit`` of ``army`` attacking ``other_unit`` of ``other``."""
        from .engine import odds

        return odds.unit_odds_params(normalize(army, cat)[0], unit, normalize(other, cat)[0], other_unit, cat)

    def engine_ready(self) -> bool:
        import importlib.util

        return importlib.util.find_spec("armybuilder.systems.rattle_and_rend.engine.game") is not None

    def play_game(self, cat: Catalogue, first, second, rng: np.random.Generator, log: bool = False) -> GameRecord:
        from .engine import game

        return game.play_game(cat, first, second, rng, log)


SYSTEM = RattleAndRend()
