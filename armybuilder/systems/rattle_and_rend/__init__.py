"""Rattle and Rend (Alpha #02): 12-point warbands of groups, momentum and reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from armybuilder.core.checks import list_format
from armybuilder.core.lazy import lazy_class, lazy_module
from armybuilder.core.system import Choice, EntryRef, PackagedSystem, Points, StatusItem

from .counting import breakdown, choices_of, counted_groups, normalize

if TYPE_CHECKING:  # pydantic is not needed to validate a list
    from armybuilder.core.catalog import Catalogue

    from .army import RRList
    from .catalog import RRCatalog


def _drive_name(cat: Catalogue[RRCatalog], drive_id: str) -> str:
    """A drive's name as the player reads it ("Frenzy"), its id when the catalogue lacks it."""
    drive = cat.get("drives", drive_id)
    return drive.name if drive is not None else drive_id


class RattleAndRend(PackagedSystem["RRList", "RRCatalog"]):
    id = "rattle-and-rend"
    name = "Rattle and Rend"
    # the pydantic models, imported on first use: validate reads the plain mirrors
    catalog_model = lazy_class(f"{__name__}.catalog.RRCatalog")
    list_model = lazy_class(f"{__name__}.army.RRList")
    plain_module = f"{__name__}.plain"
    schema_fingerprint = "62b2891aa25947a66823476261b4c0c300390d4f9be27695415e2fd4b4774270"  # tests/core/test_catalog_cache.py checks it
    faction_label = "Warband"
    # imported on first use: validating a list needs the rules, not the editor or the sheets
    editing_module = lazy_module(f"{__name__}.editing")
    sheets_module = lazy_module(f"{__name__}.sheets")
    rules_module = lazy_module(f"{__name__}.rules")
    odds_module = f"{__name__}.engine.odds"
    game_module = f"{__name__}.engine.game"
    engine_package = f"{__name__}.engine"  # compiled by setup.py when it can (armybuilder._native)
    playtest_budget = 200  # games per reference-loop-second (design.md: bench's normalised rate)
    format_params = ("min_groups", "max_groups", "min_line_points", "traits")
    new_list_name = "New warband"  # no factions in this game

    def shown(self, army: RRList, cat: Catalogue[RRCatalog]) -> RRList:
        """Names and the seed's spellings read as ids, before the outline, cards and odds."""
        return normalize(army, cat)[0]

    def factions(self, cat: Catalogue[RRCatalog]) -> list[Choice]:
        """Rattle and Rend has no factions: warbands are miniatures-agnostic (one choice)."""
        return [Choice("warband", "Warband", "any miniatures; choose groups, two traits and a drive")]

    def option_study(self, games: int, seed: int) -> list:
        from .engine.options import option_study

        return option_study(self.catalogue(), games, seed)

    def scenarios(self, cat: Catalogue[RRCatalog]) -> list[Choice]:
        """The five scenarios of the seed (RR-D4); a game draws one on a d20 unless fixed."""
        return [Choice(s.id, s.name, s.text) for s in cat.data.scenarios]

    def cut_copy(self, army: RRList, cat: Catalogue[RRCatalog], share: float = 0.2) -> RRList:
        from .cut import cut_copy

        return cut_copy(army, cat, share)

    def points(self, army: RRList, cat: Catalogue[RRCatalog]) -> Points:
        army, _ = normalize(army, cat)
        b = breakdown(army, cat)
        return Points(b.total, self.format_limit(army, cat), "points", b.by_type)

    def status(self, army: RRList, cat: Catalogue[RRCatalog]) -> list[StatusItem]:
        """Points, groups, line points, traits and the drive (by its name) against the format."""
        army, _ = normalize(army, cat)
        fmt = list_format(army, cat)
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
            StatusItem("Drive", ", ".join(_drive_name(cat, d) for d in choices_of(army.drive)) or "none", army.drive is not None),
        ]

    def referenced_entries(self, army: RRList) -> list[tuple[str, EntryRef]]:
        refs: list[tuple[str, EntryRef]] = [("format", EntryRef("formats", army.format))]
        for gi, g in enumerate(army.groups):
            refs.append((f"groups[{gi}].type", EntryRef("group_types", g.type)))
            for fld, collection in (("champion_action", "actions"), ("heavy_trait", "heavy_traits"), ("warding_reaction", "reactions")):
                refs += [(f"groups[{gi}].{fld}", EntryRef(collection, v)) for v in choices_of(getattr(g, fld))]
        refs += [(f"traits[{i}]", EntryRef("warband_traits", t)) for i, t in enumerate(army.traits)]
        refs += [("drive", EntryRef("drives", d)) for d in choices_of(army.drive)]
        return refs



SYSTEM = RattleAndRend()
