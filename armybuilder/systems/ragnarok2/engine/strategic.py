"""Strategic phase: leadership, tactical roll, orders, tactics, rallying, Mutagenic dice."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from armybuilder.core.catalog import Catalogue

from ..army import is_commander
from ..catalog import Profile
from .base import BattleBase
from .formation import member_point, shape
from .geometry import point_box_distance
from .narration import ORDER_NAMES, name, test_words
from .state import Fighting
from .tables import (
    CIC_FACTS,
    NO_TACTIC,
    TACTICAL_ROWS,
    characteristic_test_cdf,
    effect_weight,
    first_item,
)

if TYPE_CHECKING:
    from .battle import Battle  # noqa

def _cic_facts(cat: Catalogue, p: Profile) -> tuple[int, bool]:
    """(rank category, has Leadership/X) of a Commander-in-Chief, cached."""
    key = (cat.hash, p.id)  # by value: the catalogue's content hash and the profile id
    facts = CIC_FACTS.get(key)
    if facts is None:
        if len(CIC_FACTS) > 1024:
            CIC_FACTS.clear()
        rank = cat.get("ranks", p.rank)
        facts = CIC_FACTS[key] = (rank.category if rank is not None else 1, p.has_ability("leadership"))
    return facts



def aura_centre(c: Fighting, role: str = "commander") -> tuple[float, float, float]:
    """(x, y, half its base) of the unit's fighter whose aura is measured: its commander (or
    the Commander-in-Chief's profile, *role* "cic"), musician or standard bearer, where it
    stands in the unit (formation.py puts the independents in the middle of the front rank);
    the middle of the front rank when that fighter is gone. Kept until the unit moves or
    changes shape (its ``geo``: a loss reshapes it)."""
    known = c.aura_memo.get(role)
    if known is not None and known[0] == c.geo:
        return known[1]
    gi = _role_group(c, role)
    point = member_point(c, gi) if gi is not None else None
    if point is None:
        depth = c.first_depth / 2.0
        point = (c.x - c.ux * depth, c.y - c.uy * depth, 0.0)
    c.aura_memo[role] = (c.geo, point)
    return point


def _role_group(c: Fighting, role: str) -> int | None:
    for gi, g in enumerate(c.groups):
        if g.count <= 0:
            continue
        p = g.profile
        if role == "commander" and g.commander and not p.has_role("musician") and not p.has_role("standard-bearer"):
            return gi
        if role in ("musician", "standard-bearer") and p.has_role(role):
            return gi
    return None


def aura_gap(centre: tuple[float, float, float], u: Fighting) -> float:
    """From the edge of the aura holder's base to the nearest member of *u*, base edge to base
    edge (seed: if one member of the unit is within the leadership aura, the whole unit is)."""
    d = point_box_distance(centre[0], centre[1], u.box()) - centre[2]
    return d if d > 0.0 else 0.0


def within(centre: tuple[float, float, float], u: Fighting, reach: float) -> bool:
    return aura_gap(centre, u) <= reach


RALLY_DIFFICULTY = 8  # seed: Rallying, "a Courage or Discipline test ... against a difficulty of 8"

# A unit that may be given a tactic this round: (unit, situation key into the deck's weights,
# gain scale, rank I) (see _tactic_pool()).
PoolEntry = tuple[Fighting, int, float, bool]

@trait
class StrategicPhase(BattleBase):
    __slots__ = ()

    # -- leadership ------------------------------------------------------------

    def update_leadership(self) -> None:
        """COU/DIS values, bonuses and the privilege of every unit (seed: Leadership)."""
        for side in (0, 1):
            units = self.sides[side]
            cic = self.cic_index[side]
            cic_unit = units[cic] if cic is not None else None
            privilege = (
                cic_unit is not None
                and cic_unit.alive
                and cic_unit.state == "valiant"
                and not self.temporary_cic[side]
            )
            cic_pos = self._cic_point(side, cic_unit) if cic_unit is not None else (0.0, 0.0, 0.0)
            # (Bounds as floats, here and below: float-to-float comparisons are the interpreter's
            # fast path, and an int's float is exact, so every comparison answers the same.)
            cic_x = float(cic_unit.commander_x or 0) if cic_unit is not None else 0.0
            # (unit, position, aura, COU, DIS, complete war staff) of each valiant commander
            cmds = []
            bearers = []  # (unit, position, standard aura or None, musician aura or None)
            for c in self.aura_units[side]:
                if not c.alive or c.state != "valiant":
                    continue
                if c.commander_x is not None:
                    cmd = None
                    for g in c.groups:
                        if g.count and g.commander:
                            cmd = g.profile
                            break
                    if cmd is not None:
                        cmds.append(
                            (
                                c, aura_centre(c), float(c.commander_x or 0),
                                cmd.cou if cmd.cou is not None else (cmd.fear or 0), cmd.dis,
                                c.musician_x is not None and c.standard_x is not None,
                            )
                        )  # fmt: skip
                if c.standard_x is not None or c.musician_x is not None:
                    bearers.append((
                        c, aura_centre(c, "standard-bearer") if c.standard_x is not None else None, c.standard_x,
                        aura_centre(c, "musician") if c.musician_x is not None else None, c.musician_x,
                    ))  # fmt: skip
            penalty = self.dis_penalty[side]
            if not cmds and not bearers:
                # No aura at all on this side: own values only (the loop below, without auras).
                for u in units:
                    if not u.alive:
                        continue
                    troops = u.troops
                    u.cou_value, u.dis_value = troops.own_cou, troops.own_dis - penalty
                    u.cou_bonus = u.dis_bonus = 0
                    u.best_of = 2 if privilege and (u is cic_unit or within(cic_pos, u, cic_x)) else 1
                    u.has_leader = u.has_leader and u.count > 0
                continue
            for u in units:
                if not u.alive:
                    continue
                troops = u.troops
                cou = troops.own_cou
                dis = troops.own_dis
                cou_b = dis_b = 0
                # Seed (Leadership): only Valiant commanders share (cmds holds only them), and a routed
                # unit in their aura hears them like any other unit when it rallies.
                for c, c_pos, c_x, ccou, cdis, complete in cmds:
                    if c is u or within(c_pos, u, c_x):
                        if ccou > cou:
                            cou = ccou
                        if cdis > dis:
                            dis = cdis
                        if complete:
                            cou_b = dis_b = 2
                if not (cou_b and dis_b):  # both bonuses already won: a bearer adds nothing
                    for c, s_pos, standard_x, m_pos, musician_x in bearers:  # musicians and standard bearers
                        if s_pos is not None and standard_x is not None and cou_b < 1 and (c is u or aura_gap(s_pos, u) <= standard_x):
                            cou_b = 1
                        if m_pos is not None and musician_x is not None and dis_b < 1 and (c is u or aura_gap(m_pos, u) <= musician_x):
                            dis_b = 1
                u.cou_value = cou
                u.dis_value = dis - penalty
                u.cou_bonus = cou_b
                u.dis_bonus = dis_b
                if privilege:
                    u.best_of = 2 if u is cic_unit or within(cic_pos, u, cic_x) else 1
                else:
                    u.best_of = 1
                if u.has_leader and not u.count:
                    u.has_leader = False

    def _cic_point(self, side: int, unit: Fighting) -> tuple[float, float, float]:
        """Where the Commander-in-Chief stands (his own base), for his privilege's aura."""
        p = self.cic_profile[side]
        if p is not None:
            for gi, g in enumerate(unit.groups):
                if g.count and g.pid == p.id:
                    point = member_point(unit, gi)
                    if point is not None:
                        return point
        return aura_centre(unit)

    # -- strategic phase ------------------------------------------------------

    def tactical_roll(self) -> list[int]:
        """Tactical roll with the Commander-in-Chief's DIS; a routed (or missing) one fails."""
        totals = [0, 0]
        points = [0, 0]
        rolled = [False, False]  # (the log: a side without a Valiant Commander-in-Chief does not roll)
        no_roll = "no roll (no Valiant Commander-in-Chief)"
        table = self.data.tables.tactical
        memo = self._tactical_memo  # {(total, category, staffs): points} of this tactical table
        if memo is None and table is not None and table.rows:
            rows = TACTICAL_ROWS.get(self.table)  # by the catalogue's content hash
            if rows is None:
                if len(TACTICAL_ROWS) > 32:
                    TACTICAL_ROWS.clear()
                rows = TACTICAL_ROWS[self.table] = (table, {})
            memo = self._tactical_memo = rows[1]  # the catalogue's: kept for the game
        for side in (0, 1):
            units = self.sides[side]
            cic = self.cic_index[side]
            p = self.cic_profile[side]
            total = 0
            # A routed Commander-in-Chief still reads his rank's column.
            if p is None:
                category, leadership = 1, False
            else:
                facts = self._cic_seen[side]  # (profile, facts) of the last call: _cic_facts() once a game
                if facts is None or facts[0] is not p:
                    facts = self._cic_seen[side] = (p, _cic_facts(self.cat, p))
                category, leadership = facts[1]
            present = False  # the profile still has a fighter in the unit
            if cic is not None and p is not None:
                unit = units[cic]
                if unit.alive and unit.state == "valiant":  # seed: only Valiantness allows the tactical roll
                    pid = p.id
                    for g in unit.groups:
                        if g.count and g.pid == pid:
                            present = True
                            break
            rolled[side] = present
            if present and cic is not None and p is not None:  # (present: both known)
                best_of = 2 if leadership and not self.temporary_cic[side] else 1
                bonus = units[cic].dis_bonus - self.dis_penalty[side]
                total = self.dice.from_cdf(characteristic_test_cdf(max(p.dis + bonus, 0), best_of))
            else:
                self.appoint_temporary_cic(side)
            totals[side] = total
            tp: Any = 0
            if memo is not None and table is not None:  # (a memo only with a table)
                staffs = self.info[side]["staffs"]
                tp = memo.get((total, category, staffs))
                if tp is None:
                    if total <= 0:
                        row = table.rows[0]
                    else:
                        row = next(
                            (
                                r
                                for r in table.rows
                                if r.low is not None
                                and r.low <= total
                                and (r.high is None or total <= r.high)
                            ),
                            table.rows[-1],
                        )
                    tp = row.points[min(max(category, 1), len(row.points)) - 1]
                    tp += staffs * table.per_complete_war_staff
                    memo[(total, category, staffs)] = tp
            points[side] = tp
        if totals[0] != totals[1]:
            self.winner_of_roll = 0 if totals[0] > totals[1] else 1
        else:
            self.winner_of_roll = 0 if self.dice.u() < 0.5 else 1
        if self.logging:
            self.say(
            f"tactical roll: side 1 {totals[0] if rolled[0] else no_roll}, side 2 {totals[1] if rolled[1] else no_roll};"
            f" side {self.winner_of_roll + 1} wins{' (a tie: drawn by lot)' if totals[0] == totals[1] else ''};"
            f" tactical points {points[0]} and {points[1]}"
        )
        return points

    def appoint_temporary_cic(self, side: int) -> None:
        """Eliminated Commander-in-Chief: the best valiant fighter of the people takes over next round."""
        units = self.sides[side]
        cic = self.cic_index[side]
        if cic is not None and units[cic].alive and units[cic].state != "gone" and any(
            g.count and g.pid == self.cic_profile[side].id for g in units[cic].groups  # type: ignore[union-attr]
        ):
            return  # still there but Disorganized or routed: the roll fails, no replacement
        best = None
        for u in units:
            if u.alive and u.state == "valiant":
                for g in u.groups:
                    if g.count and (
                        best is None
                        or (is_commander(g.profile), g.profile.dis)
                        > (is_commander(best[1]), best[1].dis)
                    ):
                        best = (u.index, g.profile)
        if best is None:
            return
        self.cic_index[side], self.cic_profile[side] = best
        self.temporary_cic[side] = True
        self.dis_penalty[side] = 1 if is_commander(best[1]) else 2
        if self.logging:
            self.say(f"side {side + 1} appoints {best[1].name} temporary Commander-in-Chief")

    def give_orders(self, points: list[int]) -> list[int]:
        """Orders (free with a leader or in a commander's aura, else one tactical point each)."""
        for side in (0, 1):
            units = self.sides[side]
            foes = [e for e in self.sides[1 - side] if e.alive]
            commanders = None  # the valiant commanders, found for the first unit without a leader
            unordered = []  # units that could take an order for a tactical point, in side order
            for u in units:
                u.tactic, u.tactic_name = NO_TACTIC, ""
                u.charged = u.was_charged = u.charge_bonus = u.activated = u.no_attack = False
                u.moved = u.maneuvered = u.maneuver_failed = False
                u.slack = 0.0
                u.assailed_from = None
                u.new_foes.clear()
                u.assailed_by_me.clear()
                u.withstood.clear()
                if u.loose and not u.engaged:
                    u.loose = False  # re-formed out of the fray
                    shape(u)
                u.order, u.order_by_points = "", False
                if u.round_effects:
                    u.round_effects = {}
                u.wounds_dealt_round = 0
                if not u.alive:
                    continue
                if u.state != "valiant":
                    if u.state == "disorganized":
                        unordered.append(u)
                    continue
                if u.has_leader:
                    # (an engaged unit: choose_order()'s first answer, without the call)
                    u.order = self.policies[side].engaged_order(cast("Battle", self), u) if u.engaged else self.policies[side].choose_order(cast("Battle", self), u, foes)
                else:
                    if commanders is None:
                        commanders = [
                            c for c in self.aura_units[side]
                            if c.alive and c.state == "valiant" and c.commander_x is not None
                        ]  # fmt: skip
                    for c in commanders:
                        if within(aura_centre(c), u, float(c.commander_x or 0)):
                            u.order = self.policies[side].choose_order(cast("Battle", self), u, foes)
                            break
                if not u.order:
                    unordered.append(u)
            for u in unordered:
                if points[side] < 1:
                    break
                order = self.policies[side].choose_order(cast("Battle", self), u, foes)
                if order:
                    u.order, u.order_by_points = order, True
                    points[side] -= 1
                    if self.logging:
                        self.say(f"side {side + 1} spends a tactical point to give {name(self, u)} {ORDER_NAMES.get(order, order)} order")
            if self.logging:
                given = [f"{name(self, u)} {ORDER_NAMES[u.order].split()[-1]}" for u in units if u.alive and u.order]
                if given:
                    self.say(f"side {side + 1} orders, face down: " + ", ".join(given))
        return points

    def tactic_fits(self, tactic, unit: Fighting) -> bool:
        """The tactic's machine-readable condition (R2-D9) against the unit."""
        if tactic.min_rank_category is not None and unit.rank_category < tactic.min_rank_category:
            return False
        if tactic.formation is not None and unit.current_formation != tactic.formation:
            return False
        if tactic.scheme is not None and unit.scheme != tactic.scheme:
            return False
        if tactic.min_effective is not None and unit.count < tactic.min_effective:
            return False
        if tactic.orders and unit.order not in tactic.orders:
            return False  # e.g. Brutality: an Assault order (R2-T7)
        return True

    def _deck(self, side: int) -> list[tuple]:
        """The side's tactics, merged once: (tactic, to_enemy, rally, pros, rank-I effects, AI weights)."""
        # Kept in the list's template info, shared by every game of a playtest.
        cached = self.info[side].get("merged_deck")
        if cached is None:
            cached = []
            for tactic in self.info[side]["deck"]:
                pros = {k: v for k, v in tactic.effects.items() if k != "to_enemy"}
                rank1 = dict(pros)
                for k, v in tactic.cons_effects.items():
                    if k != "to_enemy":
                        rank1[k] = rank1.get(k, 0) + v
                # AI weights by situation, indexed fighting * 4 + moving * 2 + shaken (see buy_and_give_tactics)
                weights = {
                    which: [
                        effect_weight(tuple(effects.items()), f, m, sh)
                        for f in (False, True) for m in (False, True) for sh in (False, True)
                    ]
                    for which, effects in (("pros", pros), ("rank1", rank1))
                }
                to_enemy = tactic.effects.get("to_enemy", 0) > 0
                # Signed weights (a tactic given to the enemy gains its opposite): -(w * s) == (-w) * s exactly.
                signed = {k: [-w for w in ws] if to_enemy else ws for k, ws in weights.items()}
                cached.append(
                    (
                        tactic, to_enemy, "rally" in tactic.effects, pros, rank1,
                        weights["pros"], weights["rank1"],
                        tactic.min_rank_category, tactic.formation, tactic.scheme, tactic.min_effective,
                        signed["pros"], signed["rank1"],
                        tactic.min_rank_category is None and tactic.formation is None
                        and tactic.scheme is None and tactic.min_effective is None
                        and not tactic.orders,  # no condition to test
                        tactic.id, tactic.name,  # (read once here, not once per offer)
                        tuple(tactic.orders),  # the orders it may be given under (none: any)
                    )
                )  # fmt: skip
            # At most one of each tactic is given a round: caps the tactics bought (see buy_and_give_tactics).
            self.info[side]["deck_ids"] = len({entry[0].id for entry in cached})
            self.info[side]["merged_deck"] = cached
        return cached

    def buy_and_give_tactics(self, points: list[int]) -> None:
        """The winner of the tactical roll buys and gives first (seed: Attribution of the tactics)."""
        cost = self._tactic_cost
        pools: dict[int, tuple[list[PoolEntry], list[PoolEntry]]] = {}
        for side in (self.winner_of_roll, 1 - self.winner_of_roll):
            deck = self._deck(side)
            budget = points[side] // cost if cost else len(deck)
            if budget <= 0 or not deck:
                continue
            # Each gift uses up a tactic id: no more than the deck's distinct ids are ever given, so
            # the offers' loop below may stop after that many (the same gifts as running on).
            distinct = self.info[side]["deck_ids"]
            if budget > distinct:
                budget = distinct
            offers = []
            for (
                _tactic, to_enemy, rally, pros, rank1, _w_pros, _w_rank1, min_rank, formation, scheme, min_eff,
                s_pros, s_rank1, free, tid, tname, orders,
            ) in deck:  # fmt: skip
                pool_side = 1 - side if to_enemy else side
                pool = pools.get(pool_side)
                if pool is None:
                    pool = pools[pool_side] = self._tactic_pool(pool_side)
                ordered, shaken = pool
                for u, key, scale, first_rank in shaken if rally else ordered:
                    # Offers worth nothing are never taken: left out before sorting, and before the
                    # tactic's condition is tested (scale >= 1: the gain has the weight's sign).
                    weight = s_rank1[key] if first_rank else s_pros[key]
                    if weight <= 0.0:  # (float literals against floats here: the fast comparison)
                        continue
                    # tactic_fits(), inlined (the hot loop of the strategic phase)
                    if not free and (
                        (min_rank is not None and u.rank_category < min_rank)
                        or (formation is not None and ("close" if u.close else "scattered") != formation)
                        or (scheme is not None and u.scheme != scheme)
                        or (min_eff is not None and u.count < min_eff)
                        or (orders and u.order not in orders)
                    ):
                        continue
                    offers.append((weight * scale, tid, tname, u, rank1 if first_rank else pros))
            offers.sort(key=first_item, reverse=True)  # stable: equal gains keep their order
            used_tactics: set[str] = set()
            for gain, tid, tname, u, effects in offers:
                if gain <= 0.0 or tid in used_tactics or u.tactic_name:
                    continue
                u.tactic, u.tactic_name = effects, tname
                used_tactics.add(tid)
                if self.logging:
                    self.say(f"side {side + 1} gives {tname} to {name(self, u)}")
                budget -= 1
                if budget <= 0:
                    break

    def _tactic_pool(self, side: int) -> tuple[list[PoolEntry], list[PoolEntry]]:
        """The units of *side* that may be given a tactic this round, as buy_and_give_tactics()
        reads them: (unit, situation key, gain scale, rank I) of the ordered Valiant
        units and of the shaken ones. Built once a round and side, when a tactic first needs
        it: giving a tactic changes none of it, and units that already hold one are skipped
        when the offers are taken."""
        ordered: list[PoolEntry] = []
        shaken: list[PoolEntry] = []
        for u in self.sides[side]:
            if not u.alive or u.tactic_name:
                continue
            order = u.order
            not_valiant = u.state != "valiant"
            if u.order_by_points or (not not_valiant and not order):
                continue  # seed: a unit ordered with a tactical point cannot be given a tactic
            # (fighting, moving, shaken) as an index into the deck's weight lists
            key = (4 if order == "assault" or u.engaged else 0) + (
                2 if (order == "assault" or order == "progress") and not u.engaged else 0
            ) + (1 if not_valiant else 0)
            entry = (u, key, 1.0 + u.points / 500.0, u.rank_category == 1)
            if not_valiant:
                shaken.append(entry)
            else:
                ordered.append(entry)
        return ordered, shaken

    def rally(self) -> None:
        """Rallying: COU or DIS test (difficulty 8) for each Disorganized or routed unit."""
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state in ("rout", "disorganized"):
                    bonus = u.tactic.get("rally", 0)
                    cou = u.cou_value + u.cou_bonus + bonus
                    dis = u.dis_value + u.dis_bonus + bonus
                    value, label = (cou, "COU") if cou >= dis else (dis, "DIS")
                    ok = self.test(value, RALLY_DIFFICULTY, u.best_of)
                    if self.logging:
                        spirit = "in Rout" if u.state == "rout" else "Disorganized"
                        words = test_words(self, label, value, RALLY_DIFFICULTY, u.best_of, ok)
                        self.say(f"{name(self, u)} ({spirit}) rolls its rallying test: {words}"
                                 + (", it is Valiant again" if ok else f", it stays {spirit}"))  # fmt: skip
                    if ok:
                        u.state = "valiant"

    def mutagenic_dice(self) -> None:
        """One Mutagenic die per 500 A.P. section of Mutagenic fighters, each to one unit."""
        for side in (0, 1):
            if not self.info[side].get("mutagenic", True):
                continue  # no Mutagenic fighter in the list at all
            units = [
                u for u in self.sides[side] if u.alive and u.troops.traits.mutagenic is not None
            ]
            if not units:
                continue
            points = sum(u.points_alive() for u in units)
            dice = math.ceil(points / 500)
            for u in sorted(units, key=lambda u: (not u.engaged, u.order != "assault"))[:dice]:
                # The die is rolled once for the round (seed: Mutagenic/X, 3): a 1 fails, no re-roll.
                x = u.troops.traits.mutagenic or 0
                roll = self.dice.d6()
                u.round_effects["mutagenic"] = 0 if roll == 1 else max(0, roll + x)


