"""Maintenance phase: Fierce removals, Regeneration/X, Reinforcement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from .base import BattleBase
from .narration import name
from .state import Fighting

if TYPE_CHECKING:
    from .battle import Battle  # noqa



@trait
class MaintenanceRules(BattleBase):
    __slots__ = ()

    def maintenance(self) -> None:
        """Fierce removals, Regeneration/X, Reinforcement; formations checked."""
        # Only the units in _upkeep can have a group with lost, fierce_left, reinforcements or a
        # Regenerating wounded fighter, or no fighter left without being gone (deal() adds every unit
        # it touches): for the others the loop below changes nothing and rolls no die.
        upkeep = self._upkeep
        if not upkeep:
            return
        keep: set[Fighting] = set()
        for side in (0, 1):
            for u in self.sides[side]:
                if u not in upkeep:
                    continue
                changed = False  # a count changed (recount() is kept in step with counts elsewhere)
                for g in u.groups:
                    if not (g.lost or g.damage or g.fierce_left or g.reinforcements):
                        continue
                    g.fierce_left = 0
                    x = g.traits.regeneration
                    if x and u.count > 0 and (g.lost or g.damage):
                        back, two = self.dice.regenerations(g.lost, x)
                        healed = g.damage and self.dice.d6() >= x
                        if healed:
                            g.damage = max(0, g.damage - (2 if self.dice.d6() >= x else 1))
                        if back:
                            # Back with one Wound level (two after a second success): the group keeps
                            # one wounded fighter at most (state), so one returns wounded, the others whole.
                            levels = 1 + (1 if two == back else 0)
                            if g.wound_levels > levels and not g.damage:
                                g.damage = g.wound_levels - levels
                            g.count += back
                            changed = True
                            self.scores[1 - side] -= back * g.cost
                            if self.logging:
                                self.say(f"{back} × {g.profile.name} ({name(self, u)}) {'regenerates' if back == 1 else 'regenerate'}")
                    if g.traits.reinforcement and g.lost:
                        g.reinforcements += g.lost
                    if g.reinforcements and u.alive and self.dice.d6() >= 5:
                        g.count += g.reinforcements
                        changed = True
                        self.scores[1 - side] -= g.reinforcements * g.cost
                        if self.logging:
                            self.say(
                            f"{g.reinforcements} × {g.profile.name} ({name(self, u)}) {'returns' if g.reinforcements == 1 else 'return'} as reinforcements"
                        )
                        g.reinforcements = 0
                    g.lost = 0
                    if g.reinforcements or (g.damage and x):
                        keep.add(u)  # something left to do at the next maintenance
                if changed:
                    u.recount()
                if u.count == 0 and u.state != "gone":
                    u.state = "gone"
                    self.break_contacts(u)
        self._upkeep = keep

