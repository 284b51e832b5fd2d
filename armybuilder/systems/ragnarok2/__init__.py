"""Rag'Narok 2 (Rackham): the main game system of armybuilder."""

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
from .army import R2List, breakdown
from .catalog import R2Catalog


class Ragnarok2(GameSystem):
    id = "ragnarok2"
    name = "Rag'Narok 2"
    catalog_model = R2Catalog
    list_model = R2List
    faction_label = "People"

    def formats(self, cat: Catalogue) -> list[Format]:
        return [
            Format(
                f.id,
                f.name,
                f.limit,
                f.unit,
                f.default,
                {"character_share": f.character_share, "war_machine_share": f.war_machine_share},
            )
            for f in cat.data.formats
        ]

    def factions(self, cat: Catalogue) -> list[Choice]:
        counts: dict[str, int] = {}
        for p in cat.data.profiles:
            counts[p.people] = counts.get(p.people, 0) + 1
        return [
            Choice(p.id, p.name, f"{p.formation}, {counts.get(p.id, 0)} profiles")
            for p in cat.data.peoples
        ]

    def new_list(
        self,
        cat: Catalogue,
        *,
        faction: str | None = None,
        format: str | None = None,
        name: str | None = None,
    ) -> R2List:
        people = faction or next((p.id for p in cat.data.peoples if any(q.people == p.id for q in cat.data.profiles)), "alahan")
        return R2List(
            catalogue=cat.version,
            format=format or self.default_format(cat).id,
            name=name or "New army",
            people=people,
        )

    def points(self, army: R2List, cat: Catalogue) -> Points:  # type: ignore[override]
        b = breakdown(army, cat)
        fmt = cat.get("formats", army.format)
        return Points(
            b.total,
            fmt.limit if fmt else 0,
            "A.P.",
            (("units", b.units), ("rituals", b.rituals), ("Characters", b.characters), ("war machines", b.war_machines)),
        )

    def validate(self, army: R2List, cat: Catalogue) -> list[Finding]:  # type: ignore[override]
        from .rules import run_rules

        return run_rules(army, cat)

    def status(self, army: R2List, cat: Catalogue) -> list[StatusItem]:  # type: ignore[override]
        from collections import Counter

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
        if fmt:
            items.append(
                StatusItem(
                    "Characters",
                    f"{100 * b.characters / limit:.0f}%/{fmt.character_share}%",
                    b.characters * 100 <= limit * fmt.character_share,
                )
            )
            items.append(
                StatusItem(
                    "War machines",
                    f"{100 * b.war_machines / limit:.0f}%/{fmt.war_machine_share}%",
                    b.war_machines * 100 <= limit * fmt.war_machine_share,
                )
            )
        items += [
            StatusItem("Corps", str(corps), corps >= others),
            StatusItem("Shock", str(counts["shock-troops"])),
            StatusItem("Support", str(counts["support"])),
            StatusItem("War staffs", f"{staffs} ({complete} complete, +{complete} TP)"),
        ]
        return items

    def referenced_entries(self, army: R2List) -> list[tuple[str, EntryRef]]:  # type: ignore[override]
        refs: list[tuple[str, EntryRef]] = [("people", EntryRef("peoples", army.people)), ("format", EntryRef("formats", army.format))]
        for ui, unit in enumerate(army.units):
            if unit.troops is not None:
                refs.append((f"units[{ui}].troops", EntryRef("profiles", unit.troops.profile)))
            for mi, member in enumerate(unit.members):
                where = f"units[{ui}].members[{mi}]"
                refs.append((where, EntryRef("profiles", member.profile)))
                refs += [(where, EntryRef("miracles", m)) for m in member.miracles]
        for field in ("tactics", "communions", "rituals"):
            refs += [(f"{field}[{i}]", EntryRef(field, x)) for i, x in enumerate(getattr(army, field))]
        return refs

    # -- editor ---------------------------------------------------------------

    def outline(self, army: R2List, cat: Catalogue) -> list[OutlineNode]:  # type: ignore[override]
        return editing.outline(army, cat)

    def actions(self, army: R2List, cat: Catalogue, path: str) -> list[EditAction]:  # type: ignore[override]
        return editing.actions(army, cat, path)

    def apply(self, army: R2List, cat: Catalogue, path: str, action: str, args: dict[str, Any]) -> tuple[R2List, str]:  # type: ignore[override]
        return editing.apply(army, cat, path, action, args)

    def browse(self, cat: Catalogue) -> list[BrowserEntry]:
        return editing.browse(cat)

    def detail(self, cat: Catalogue, ref: EntryRef) -> Detail:
        return editing.detail(cat, ref)

    # -- printing -------------------------------------------------------------

    def roster(self, army: R2List, cat: Catalogue, fingerprint: str) -> Roster:  # type: ignore[override]
        return sheets.roster(army, cat, fingerprint)

    def sheets(self, cat: Catalogue) -> Sheets:
        return sheets.sheets(cat)

    def cards(self, army: R2List, cat: Catalogue) -> list[Card]:  # type: ignore[override]
        return sheets.cards(army, cat)

    # -- engine ---------------------------------------------------------------

    def odds_parameters(self) -> tuple[Param, ...]:
        from .engine import odds

        return odds.PARAMETERS

    def odds(self, cat: Catalogue, params: dict[str, Any]) -> OddsResult:
        from .engine import odds

        return odds.combat_odds(cat, params)

    def odds_units(self, army: R2List, cat: Catalogue) -> list[Choice]:
        """Units of a list the odds panel can pit against each other (index, label)."""
        from .engine import odds

        return [Choice(i, label) for i, label in odds.unit_choices(army, cat)]

    def unit_odds_params(self, cat: Catalogue, army: R2List, unit: int, other: R2List, other_unit: int) -> dict[str, Any]:
        """Parameters of :meth:`odds` for *unit* of *army* attacking *other_unit* of *other*."""
        from .engine import odds

        return odds.unit_odds_params(army, unit, other, other_unit, cat)

    def engine_ready(self) -> bool:
        import importlib.util

        return importlib.util.find_spec("armybuilder.systems.ragnarok2.engine.battle") is not None

    def play_game(self, cat: Catalogue, first, second, rng: np.random.Generator, log: bool = False) -> GameRecord:
        from .engine import battle

        return battle.play_game(cat, first, second, rng, log)


SYSTEM = Ragnarok2()
