"""Setting units on the table for the engine's tests (an open table: no scenery unless asked)."""

from __future__ import annotations

import copy

import numpy as np

from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.chance import Dice
from armybuilder.systems.ragnarok2.layouts import layout_spec


def table_with(ecat, *pieces, name: str = "scenario") -> dict:
    """The open table with *pieces* set where they stand."""
    spec = copy.deepcopy(layout_spec(ecat, "open"))
    spec["name"] = spec["title"] = name
    spec["pieces"] = [dict(p) for p in pieces]
    return spec


def battle(ecat, first, second, *pieces, seed: int = 0) -> Battle:
    """A narrated battle of *first* against *second* on the open table (with *pieces*), its
    leaders' auras in place."""
    bt = Battle(ecat, first, second, np.random.default_rng(seed), log=True, table=table_with(ecat, *pieces) if pieces else "open")
    bt.update_leadership()
    return bt


class ManyWounds(Dice):
    """Every marksman hits and every Wound roll gives three Wounds: what the losses are capped by shows."""

    def binomial(self, n: int, p: float) -> int:
        return n

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        return 3


def stand(bt, u, x: float, y: float, facing: tuple[float, float] | None = None) -> None:
    """Unit *u* with the middle of its front edge at (x, y), facing its enemy's edge (or *facing*)."""
    fx, fy = facing if facing is not None else ((0.0, 1.0) if u.side == 0 else (0.0, -1.0))
    u.place(x, y, fx, fy)
    bt.moved(u)


def face_off(bt, a, b, gap: float, x: float = 90.0, y: float = 40.0) -> None:
    """*a* (side 0) facing *b* (side 1) across the table, their front edges *gap* cm apart."""
    stand(bt, a, x, y)
    stand(bt, b, x, y + gap)


def aside(bt, *keep) -> None:
    """Every other unit out of the way, at the table's far corners."""
    k = 0
    for side in (0, 1):
        for u in bt.sides[side]:
            if u in keep:
                continue
            stand(bt, u, 10.0 + 26.0 * (k % 6), 16.0 if side == 0 else 104.0)
            k += 1


def scripted(base, choice: str | None):
    """A player of *base*'s kind that assaults whatever it may and answers every assault with one
    Reaction (a subclass, so the compiled engine takes it as a policy)."""

    class Scripted(type(base)):
        def reaction(self, b, unit, assailant):
            return choice

        def assault_target(self, b, unit, options):
            return options[0] if options else None

    return Scripted()


def reacting(bt, side: int, choice: str) -> None:
    """Side *side* reacts with *choice*; the other side assaults what it can."""
    policies = list(bt.policies)
    policies[side] = scripted(policies[side], choice)
    policies[1 - side] = scripted(policies[1 - side], None)
    bt.policies = (policies[0], policies[1])
