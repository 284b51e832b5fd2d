"""A war clan with about a fifth of its Glory removed, for the credibility figures
(:mod:`armybuilder.core.credibility`): the full clan should beat it clearly."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .counting import warrior_cost

if TYPE_CHECKING:
    from armybuilder.core.catalog import Catalogue

    from .army import WarClan
    from .catalog import MECatalog


def cut_copy(army: WarClan, cat: Catalogue[MECatalog], share: float = 0.2) -> WarClan:
    """A copy of *army* less its dearest warriors (never the Jarl) while at least ``1 - share``
    of its Glory (less two points of a hundred) stays: a warrior who would take it below is
    skipped and a cheaper one tried."""
    glory = sum(warrior_cost(cat, w) for w in army.warriors)
    keep = (1 - share - 0.02) * glory
    warriors = list(army.warriors)
    for w in sorted((w for w in army.warriors if not w.jarl), key=lambda w: -warrior_cost(cat, w)):
        if sum(warrior_cost(cat, x) for x in warriors) - warrior_cost(cat, w) >= keep:
            warriors.remove(w)
    left = sum(warrior_cost(cat, w) for w in warriors)
    percent = round(100 * (glory - left) / max(glory, 1))
    return army.model_copy(update={"warriors": warriors, "name": f"{army.name} (cut {percent} %)"})
