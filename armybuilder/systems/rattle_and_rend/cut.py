"""A warband with about a fifth of its points removed, for the credibility figures
(:mod:`armybuilder.core.credibility`): the full warband should beat it clearly."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .counting import group_cost, normalize

if TYPE_CHECKING:
    from armybuilder.core.catalog import Catalogue

    from .army import RRList
    from .catalog import RRCatalog


def cut_copy(army: RRList, cat: Catalogue[RRCatalog], share: float = 0.2) -> RRList:
    """A copy of *army* with whole groups removed until at least *share* of its points are gone,
    overshooting by at most one point where the groups allow it: the dearest group that fits
    first (the last listed on a tie). A removed group's links go with it (a Champion attached to
    it fights alone, its passengers start on the board); the others are renumbered."""
    army = normalize(army, cat)[0]
    groups = list(army.groups)
    costs = [group_cost(cat, g) for g in groups]
    total = sum(costs)
    target = total * share
    removed = 0
    kept = list(range(len(groups)))
    while removed < target and len(kept) > 1:
        room = target + 1 - removed
        fitting = [i for i in kept if costs[i] <= room]
        pick = max(fitting, key=lambda i: (costs[i], i)) if fitting else min(kept, key=lambda i: (costs[i], -i))
        kept.remove(pick)
        removed += costs[pick]
    renumber = {old: new for new, old in enumerate(kept)}
    out = []
    for old in kept:
        g = groups[old]
        links = {}
        for name in ("attached_to", "transported_by"):
            value = getattr(g, name)
            if isinstance(value, int):
                links[name] = renumber.get(value)
        out.append(g.model_copy(update=links) if links else g)
    percent = round(100 * removed / max(total, 1))
    return army.model_copy(update={"groups": out, "name": f"{army.name} (cut {percent} %)"})
