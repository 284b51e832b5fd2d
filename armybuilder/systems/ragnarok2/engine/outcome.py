"""Outcome of the fray, morale rolls and rout; the combat phase's order of frays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Fighting
from .tables import _row_value, balance_of_power

if TYPE_CHECKING:
    from .battle import Battle  # noqa



class OutcomeRules:
    __slots__ = ()

    def outcome(self, a: Fighting, b: Fighting, wa: int, wb: int) -> None:
        """Outcome of the fray: more Wounds wins (ties: winner of the tactical roll); morale roll."""
        self.logging and self.say(f"fray {a.name} vs {b.name}: {wa} Wounds dealt, {wb} taken")
        if not a.alive or not b.alive:
            return
        if wa != wb:
            winner, loser = (a, b) if wa > wb else (b, a)
        else:
            winner, loser = (a, b) if a.side == self.winner_of_roll else (b, a)
        self.morale(winner, loser)

    def morale_difficulty(self, winner: Fighting, loser: Fighting) -> int:
        # (winner.frightening and not loser.frightening, inlined)
        lower = 1 if winner.troops.profile.fear is not None and loser.troops.profile.fear is None else 0
        balance = balance_of_power(
            loser.power(loser.charged, loser.was_charged), winner.power(winner.charged, winner.was_charged)
        )
        if self.outcome_rows:
            return _row_value(self.outcome_rows, balance, lower)
        order = [3, 2, 1, -2, -3]
        return (4, 6, 8, 10, 12)[min(order.index(balance) + lower, 4)]

    def morale(self, winner: Fighting, loser: Fighting) -> None:
        if loser.state == "rout" or loser.all_have("auto_morale"):
            return
        difficulty = self.morale_difficulty(winner, loser)
        tactic = loser.tactic
        value = loser.cou_value + loser.cou_bonus + (tactic.get("courage", 0) if tactic else 0)
        if loser.formation == "close" and loser.count >= 5:  # current_formation == "close" (not routed here)
            value = max(value, loser.dis_value + loser.dis_bonus + (tactic.get("discipline", 0) if tactic else 0))
        ones_fail = not loser.all_have("morale_no_auto_fail")
        if self.test(value, difficulty, loser.best_of, ones_fail):
            return
        if loser.all_have("fanaticism") and self.test(
            loser.dis_value + loser.dis_bonus, difficulty, loser.best_of
        ):
            loser.state = "rout"  # routed, but does not flee
            self.logging and self.say(f"{loser.name} loses the fray; fanaticism keeps it in place (routed)")
            return
        self.logging and self.say(f"{loser.name} loses the fray (COU {value} vs {difficulty}) and routs")
        loser.state = "rout"
        self.kill_in_contact(loser, winner)
        if loser.alive:
            self.flee(loser)

    def combat(self) -> None:
        """Frays in order: the tactical roll's winner picks first, then in turn (largest first)."""
        keyed = []  # (-(points of both), discovery order, a, b): a stable sort on the points, written out
        enemies = self.sides[1]
        for u in self.sides[0]:
            if u.engaged:
                for j in sorted(u.engaged) if len(u.engaged) > 1 else u.engaged:
                    e = enemies[j]
                    keyed.append((-(u.points + e.points), len(keyed), u, e))  # points_alive(), inlined
        if not keyed:
            return
        keyed.sort()
        results = []
        for _, _, a, b in keyed:
            if a.alive and b.alive and b.index in a.engaged:
                wa, wb = self.fray(a, b)
                results.append((a, b, wa, wb))
        for a, b, wa, wb in results:
            self.outcome(a, b, wa, wb)
        # Implacable/X: new combats after pushing on, for fighters that caused a loss.
        for a, b, wa, wb in results:
            if not (a.implacable or b.implacable):
                continue  # (the usual case: nothing below would run)
            for unit, foe, dealt in ((a, b, wa), (b, a, wb)):
                x = unit.implacable
                for _ in range(x):
                    if not dealt or not unit.fighting:
                        break
                    target = foe if foe.alive and foe.index in unit.engaged else None
                    if target is None:
                        near = [
                            e
                            for e in self.sides[1 - unit.side]
                            if e.alive and self.distance(unit, e) <= unit.mov
                        ]
                        target = min(near, key=lambda e: self.distance(unit, e)) if near else None
                    if target is None:
                        break
                    self.logging and self.say(f"{unit.name} is implacable and strikes {target.name} again")
                    w_unit, _ = self.fray(unit, target, implacable=True)
                    dealt = w_unit

