"""Rag'Narok 2 (Rackham): the main game system of armybuilder."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from armybuilder.core.checks import Share, plural
from armybuilder.core.lazy import lazy_class, lazy_module
from armybuilder.core.system import Choice, EntryRef, PackagedSystem, Points, StatusItem

from .counting import breakdown, referenced_entries

if TYPE_CHECKING:  # neither the odds shapes nor pydantic are needed to validate a list
    from armybuilder.core.catalog import Catalogue
    from armybuilder.core.system import OddsResult

    from .army import R2List
    from .catalog import R2Catalog


class Ragnarok2(PackagedSystem["R2List", "R2Catalog"]):
    id = "ragnarok2"
    name = "Rag'Narok 2"
    # the pydantic models, imported on first use: validate reads the plain mirrors
    catalog_model = lazy_class(f"{__name__}.catalog.R2Catalog")
    list_model = lazy_class(f"{__name__}.army.R2List")
    plain_module = f"{__name__}.plain"
    schema_fingerprint = "d9ca7b102c7a14ac6cf3941164940f930aa930d5dcd150f2369e9aa47e9ecafa"  # tests/core/test_catalog_cache.py checks it
    faction_label = "People"
    faction_field = "people"
    faction_facet = "people"
    importer_module = f"{__name__}.importer"
    house_skeleton_module = f"{__name__}.house_skeleton"
    playtest_budget = 230  # games per reference-loop-second (design.md: bench's normalised rate)
    # imported on first use: validating a list needs the rules, not the editor or the sheets
    editing_module = lazy_module(f"{__name__}.editing")
    sheets_module = lazy_module(f"{__name__}.sheets")
    rules_module = lazy_module(f"{__name__}.rules")
    odds_module = f"{__name__}.engine.odds"
    odds_calculator = f"{__name__}.odds_calculator"  # run by `armybuilder odds` without the system
    bench_module = f"{__name__}.bench_workloads"  # what `armybuilder bench` measures beyond the protocol
    game_module = f"{__name__}.engine.battle"
    engine_package = f"{__name__}.engine"  # compiled by setup.py when it can (armybuilder._native)
    # its modules compiled together (one mypyc group); the others stay Python
    compiled_engine_modules = (
        "abilities", "ai", "assault", "base", "battle", "battlefield", "chance", "combat", "contact", "dice",
        "field_ai", "field_deploy", "flight", "formation", "fray", "fray_worth", "geometry", "line_ai", "maintenance", "movement",
        "mystic_effects", "mystic_phase", "mystics", "narration", "odds", "outcome", "policy", "recorder", "shooting", "sight",
        "space", "state", "strategic", "tables", "wounds",
    )  # fmt: skip
    format_params = ("character_share", "war_machine_share")
    new_list_name = "New army"

    def factions(self, cat: Catalogue[R2Catalog]) -> list[Choice]:
        counts: dict[str, int] = {}
        for p in cat.data.profiles:
            counts[p.people] = counts.get(p.people, 0) + 1
        # a people without profiles cannot field an army: it is not offered (issue 13)
        return [
            Choice(p.id, p.name, f"{p.formation} formation, {plural(counts[p.id], 'profile')}")
            for p in cat.data.peoples
            if counts.get(p.id)
        ]

    def faction_fields(self, cat: Catalogue[R2Catalog], faction: str | None) -> dict[str, Any]:
        """The people of a new list: the chosen one, else the first that has profiles."""
        people = faction or next((p.id for p in cat.data.peoples if any(q.people == p.id for q in cat.data.profiles)), "alahan")
        return {"people": people}

    def fray_units(self, army: R2List, cat: Catalogue[R2Catalog]) -> list[Choice]:
        from .fray_panel import fray_units

        return fray_units(army, cat)

    def fray_odds(
        self, cat: Catalogue[R2Catalog], army: R2List, unit: int, other: R2List, other_unit: int, charge: bool
    ) -> OddsResult:
        """The exact fray (engine.exact) of two units named by their index in their lists."""
        from .fray_panel import fray_odds

        return fray_odds(cat, army, unit, other, other_unit, charge)

    def table_spec(self, cat: Catalogue[R2Catalog], table: str | None) -> dict[str, Any] | None:
        """A bundled layout (open, standard, dense) or a player's YAML file, as the engine's spec
        (:mod:`.layouts`); None: the catalogue's default layout (standard), placed afresh per game."""
        from .layouts import layout_spec

        return layout_spec(cat, table)

    def table_layouts(self, cat: Catalogue[R2Catalog]) -> list[tuple[str, str]]:
        from .layouts import layout_names

        return layout_names(cat)

    def points(self, army: R2List, cat: Catalogue[R2Catalog]) -> Points:
        b = breakdown(army, cat)
        return Points(
            b.total,
            self.format_limit(army, cat),
            "A.P.",
            (("units", b.units), ("rituals", b.rituals), ("Characters", b.characters), ("war machines", b.war_machines)),
        )

    def status(self, army: R2List, cat: Catalogue[R2Catalog]) -> list[StatusItem]:
        from collections import Counter

        from .legality import litany_budget
        from .rules import Context, war_staffs

        ctx = Context(army, cat)
        fmt = ctx.format
        b = ctx.points
        limit = fmt.limit if fmt else 0
        counts = Counter(c for c in ctx.categories if c)
        corps, others = counts["army-corps"], counts["shock-troops"] + counts["support"]
        staffs, complete = war_staffs(ctx)
        items = [
            StatusItem("A.P.", f"{b.total}/{limit}", b.total <= limit if fmt else False),
        ]
        budget, spent = litany_budget(cat, army)
        if budget or spent:  # the faithful's Aspects against the communions and miracles bought
            items.append(StatusItem("Litany", f"{spent}/{budget}", spent <= budget))
        if fmt:
            items.append(
                StatusItem(
                    "Characters",
                    f"{100 * b.characters / limit:.0f}%/{fmt.character_share}%",
                    b.characters <= Share.allowed(fmt.character_share, limit),
                )
            )
            items.append(
                StatusItem(
                    "War machines",
                    f"{100 * b.war_machines / limit:.0f}%/{fmt.war_machine_share}%",
                    b.war_machines <= Share.allowed(fmt.war_machine_share, limit),
                )
            )
        items += [
            StatusItem("Corps", str(corps), corps >= others),
            StatusItem("Shock", str(counts["shock-troops"])),
            StatusItem("Support", str(counts["support"])),
            StatusItem("War staffs", f"{staffs} ({complete} complete, +{complete} TP)" if staffs else "none"),
        ]
        return items

    def referenced_entries(self, army: R2List) -> list[tuple[str, EntryRef]]:
        return referenced_entries(army)



SYSTEM = Ragnarok2()
