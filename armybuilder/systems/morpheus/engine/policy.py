"""The players of a Ragnarok (Morpheus Engine) battle: every choice the rules leave to a player,
behind one interface (the engine protocol, ``armybuilder/core/engine.py``).

The rules (the phase modules) decide what is legal and what happens; a :class:`Policy` answers
when they ask: which model activates next, what it spends its next AP on (an :class:`Act`, which
the rules check and play: :meth:`~.activation.Activation.perform`), which weapon it strikes with,
whether it Clashes, which friend a Tactician directs. A battle holds one policy per side, so two
policies can play each other (``battle.POLICIES``): the default player is
:class:`~.ai.WarlordPolicy` (:mod:`ai`), the yardstick :class:`BrawlerPolicy` here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .fighters import BASES, Fighter, Weapon

if TYPE_CHECKING:
    from ..catalog import GodPower
    from .battle import Battle

#: what a model may spend its next AP on (Act.kind), as the rules play them
ACTS = ("stand", "douse", "power", "heal", "disengage", "focus", "attack", "shoot", "taunt", "spot", "advance", "close", "end")


class Act:
    """One decision of an activation: ``kind`` (one of :data:`ACTS`), the model it is aimed at,
    the weapon, the God power, the Focus bonuses, the other models to close with if the first
    cannot be reached (``close``), whether a Charge is wanted (``close``), how near to stop
    (``advance``), and what to do instead when the rules find it impossible (``fallback``)."""

    __slots__ = ("kind", "target", "weapon", "power", "focus", "others", "charge", "stop_at", "fallback")

    def __init__(self, kind: str, target: Fighter | None = None, weapon: Weapon | None = None, power: GodPower | None = None,
                 focus: dict[str, int] | None = None, others: list[Fighter] | None = None, charge: bool = True,
                 stop_at: float = 0.0, fallback: Act | None = None) -> None:  # fmt: skip
        self.kind = kind
        self.target = target
        self.weapon = weapon
        self.power = power
        self.focus = focus
        self.others = others
        self.charge = charge
        self.stop_at = stop_at
        self.fallback = fallback


END = Act("end")


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests script players: a subclass in Python)
class Policy:
    """The interface, with the answers every player shares."""

    name = "policy"

    def __init__(self) -> None:
        pass

    def next_model(self, g: Battle, side: int) -> Fighter | None:
        """The side's next model to activate (None: none is ready): the ready model nearest to an
        enemy (squared centre distance, kept as models move), then the lowest index."""
        if not g.living[1 - side]:
            for f in g.living[side]:
                if not f.activated:
                    return f
            return None
        best: Fighter | None = None
        best_near = math.inf
        for f in g.living[side]:
            if not f.activated:
                near = min(f.d2)
                if best is None or near < best_near:
                    best, best_near = f, near
        return best

    def directed(self, g: Battle, tactician: Fighter, helpers: list[Fighter]) -> Fighter | None:
        """[Tactician] the friend within range the Tactician directs next (None: nobody): the least
        gap to an enemy (99 with none left), then the lowest index."""
        best, best_gap = helpers[0], math.inf
        for o in helpers:
            ox, oy = o.x, o.y
            near: float | None = None
            for e in g.living[1 - o.side]:
                gp = math.hypot(ox - e.x, oy - e.y) - BASES
                if gp < 0.0:
                    gp = 0.0
                if near is None or gp < near:
                    near = gp
            key = 99 if near is None else near
            if key < best_gap or (key == best_gap and o.index < best.index):
                best, best_gap = o, key
        return best

    def step(self, g: Battle, f: Fighter, engaged: list[Fighter], low: float) -> Act:
        """What ``f`` spends its next AP on (``engaged``: the enemies engaged with it; ``low``: its
        least squared distance to an enemy). :data:`END` ends its activation."""
        return END

    def melee_weapon(self, g: Battle, f: Fighter, t: Fighter, charge: bool = False) -> Weapon | None:
        """The melee weapon ``f`` strikes ``t`` with (any reach when about to charge): the one with
        the best expected Damage; None when none reaches."""
        weapons, used = f._melee, f.used_weapons
        if len(weapons) == 1:
            w = weapons[0]
            if w._cumbersome and w.name in used:
                return None
            if not charge:
                gp = math.hypot(f.x - t.x, f.y - t.y) - BASES
                if (gp if gp > 0.0 else 0.0) > w._touch:
                    return None
            return w
        usable = []
        if charge:
            for w in weapons:
                if not (w._cumbersome and w.name in used):
                    usable.append(w)
        else:
            gp = math.hypot(f.x - t.x, f.y - t.y) - BASES
            if gp < 0.0:
                gp = 0.0
            for w in weapons:
                if gp <= w._touch and not (w._cumbersome and w.name in used):
                    usable.append(w)
        if len(usable) <= 1:
            return usable[0] if usable else None
        best, best_value = None, -1.0
        for w in usable:
            value = g.attack_value(f, t, w, charge)
            if value > best_value:
                best, best_value = w, value
        return best

    def clash(self, g: Battle, t: Fighter, f: Fighter) -> bool:
        """[Clash] ``t``, hit in melee by ``f``, initiates a Clash (when it may)?"""
        return True

    def taunted(self, g: Battle, f: Fighter, fresh: list[Fighter]) -> Fighter:
        """[Taunt] the enemy ``f`` taunts among those it may: the dearest."""
        return max(fresh, key=lambda o: (o.cost, -o.index))


class BrawlerPolicy(Policy):
    """A yardstick player: every model shoots the nearest enemy when it can, else closes with it
    and strikes; no God power, Focus, taunt or healing."""

    name = "brawler"

    def step(self, g: Battle, f: Fighter, engaged: list[Fighter], low: float) -> Act:
        if f.prone:
            return Act("stand")
        if engaged:
            reachable = [e for e in engaged if self.melee_weapon(g, f, e) is not None]
            if reachable:
                return Act("attack", reachable[0])
            return Act("disengage", engaged[0]) if f.ap_left >= 2 else END
        enemies = g.enemies(f)
        if not enemies:
            return END
        target = min(enemies, key=lambda e: (math.hypot(f.x - e.x, f.y - e.y), e.index))
        for w in f._ranged:
            if math.hypot(f.x - target.x, f.y - target.y) - BASES <= w.reach and g.los(f, target):
                return Act("shoot", target, w)
        return Act("close", target, others=[e for e in enemies if e is not target])
