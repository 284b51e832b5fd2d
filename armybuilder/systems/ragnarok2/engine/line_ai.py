"""The line player: units that support each other.

Three habits on top of the classic player's (:class:`.policy.Policy`):

- **No lone charges into gang-ups.** Before ordering an assault the unit counts the enemy
  units that could reach its target's spot in their next activation (their MOV × 2) and the
  friends that could reach it to support; it charges only when it would not be outnumbered
  there, or when the exchange it expects is worth the risk (its expected gain covers what the
  extra enemies would take from it), or late in the game. Otherwise it closes in with the line
  under a Progress order.
- **Supports move with the line.** A unit under Progress stops where it would stand more than
  a few centimetres ahead of its side's line (the median position of its standing units),
  so that no unit arrives alone in reach of the whole enemy army — unless the enemy has clearly
  more marksmen, when waiting under its fire loses and the whole line runs and charges.
- **Targets on the exchange.** Charge targets are ranked on the exchange expected (A.P. it
  inflicts minus A.P. it suffers) with the number of friends able to join as a tie-breaker.

Integer scores and unit indices break every tie.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .policy import Policy, _score
from .tables import TABLE_DEPTH

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Fighting

LINE_LEAD = 6.0  # cm a unit under Progress may stand ahead of its side's line
LATE_ROUND = 2  # from this round on, waiting wins nothing: charge anyway (measured: later made games passive and drawn)
GANG_MARGIN = 0  # enemies beyond the friends able to join that make a charge a gang-up


def _reach(u: Fighting) -> float:
    tactic = u.tactic
    return (u._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0


def _marksmen(b: Battle, side: int) -> int:
    return sum(g.count for u in b.sides[side] if u.alive and u.state != "rout" for g in u.shooting_groups)


class LinePolicy(Policy):
    name = "line"

    def outshot(self, b: Battle, side: int) -> bool:
        """The enemy has clearly more marksmen: waiting under its fire loses, so close in fast
        (counted once a round, at the player's first question)."""
        key = ("outshot", side)
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = 2 * _marksmen(b, 1 - side) > 3 * _marksmen(b, side)
        return known

    def outnumbered(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[int, int]:
        """(enemies able to join the fight at the target's spot, friends able to join it)."""
        spot = target.pos
        enemies = 0
        for e in b.sides[1 - unit.side]:
            if e is target or not e.alive or e.state == "rout":
                continue
            if e.engaged and target.index not in {j for j in e.engaged}:
                continue  # busy elsewhere
            if abs(e.pos - spot) <= _reach(e):
                enemies += 1
        friends = 0
        for f in b.sides[unit.side]:
            if f is unit or not f.alive or f.state != "valiant":
                continue
            if f.engaged and target.index not in f.engaged:
                continue
            if abs(f.pos - spot) <= _reach(f):
                friends += 1
        return enemies, friends

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting], spots: list[float]) -> str:
        order = b.choose_order(unit, foes, spots)
        if order != "assault" or unit.engaged:
            return order
        target = self.charge_target(b, unit, foes, _reach(unit))
        if target is None:
            return "reaction"
        enemies, friends = self.outnumbered(b, unit, target)
        if enemies > friends + GANG_MARGIN and b.round < LATE_ROUND and not self.outshot(b, unit.side):
            mine, theirs = b._exchange_values(unit, target)
            risk = (enemies - friends) * theirs
            if _score(mine - theirs) <= _score(risk):
                return "progress"  # close in with the line instead of charging alone
        return "assault"

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        """Disengage from a fray it expects to lose badly (the enemies in contact expect to take
        more than twice the A.P. it takes from them), else fight on."""
        mine = theirs = 0.0
        for j in sorted(unit.engaged):
            e = b.sides[1 - unit.side][j]
            if e.alive:
                m, t = b._exchange_values(unit, e)
                mine, theirs = mine + m, theirs + t
        return "progress" if _score(theirs) > 2 * _score(mine) and _score(theirs) > 0 else "assault"

    def charge_target(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> Fighting | None:
        scored = []
        for e in foes:
            if not e.alive or e.state == "gone" or abs(e.pos - unit.pos) > reach:
                continue
            mine, theirs = b._exchange_values(unit, e)
            gain = mine - theirs + (e.points if e.state == "rout" else 0) + (0.25 * e.points if e.engaged else 0)
            scored.append((-_score(gain), e.index, e))
        if not scored:
            return None
        best = min(s[0] for s in scored)
        tied = [s for s in scored if s[0] == best]
        if len(tied) == 1:
            return tied[0][2]
        # Equal exchanges: the target where fewer enemies than friends can join, then the index.
        return min(tied, key=lambda s: (self._balance(b, unit, s[2]), s[1]))[2]

    def _balance(self, b: Battle, unit: Fighting, target: Fighting) -> int:
        enemies, friends = self.outnumbered(b, unit, target)
        return enemies - friends

    def advance_limit(self, b: Battle, unit: Fighting) -> float | None:
        # Positions read forward from each side's own edge, so both sides reckon alike.
        def forward(f: Fighting) -> float:
            return f.pos if f.side == 0 else TABLE_DEPTH - f.pos

        if self.outshot(b, unit.side):
            return None  # under the enemy's fire the whole line runs
        line = sorted(forward(f) for f in b.sides[unit.side] if f.alive and f.state != "rout" and not f.engaged and f is not unit)
        if not line:
            return None
        median = line[(len(line) - 1) // 2]
        return max(0.0, LINE_LEAD - (forward(unit) - median))
