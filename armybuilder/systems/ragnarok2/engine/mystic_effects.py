"""The ritual and communion effects the battle engine knows: whom each targets and what it does.

A module of its own, below the phase that casts them (:mod:`.mystic_phase`) and the pieces of a
side (:mod:`.state`, which reads which communions have an effect): it names the battle and its
units only in annotations, so both can import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .formation import member_point
from .geometry import point_box_distance
from .tables import TEMPLATE_FIGHTERS, contest_cdf

if TYPE_CHECKING:
    from .base import BattleBase
    from .state import Fighting, Group


@dataclass(frozen=True)
class MysticEffect:
    """A named ritual/communion effect: who it targets and what it does on the battlefield."""

    id: str
    summary: str
    choose: Callable[..., Fighting | None]  # (battle, unit, reach, caster group or None)
    apply: Callable[[BattleBase, Fighting, Fighting], None]


def caster_gap(b: BattleBase, u: Fighting, g: Group | None, e: Fighting) -> float:
    """From the caster's base (group *g* of *u*, where it stands in its unit) to the nearest
    base of *e*, edge to edge (mystics seed: "measured on the ground, from the mystic's base to
    the target's"); the unit's edge when no caster is named."""
    point = member_point(u, u.groups.index(g)) if g is not None else None
    if point is None:
        return b.gap(u, e)
    d = point_box_distance(point[0], point[1], e.box()) - point[2]
    return d if d > 0.0 else 0.0


def _enemy_in_range(
    pick: Callable[[Fighting], float],
) -> Callable[..., Fighting | None]:
    def choose(b: BattleBase, u: Fighting, reach: float, g: Group | None = None) -> Fighting | None:
        foes = [
            e
            for e in b.sides[1 - u.side]
            if e.alive and e.state != "rout" and not e.hidden and b.gap(u, e) <= reach
            and caster_gap(b, u, g, e) <= reach and b.sees(u, e)
        ]  # fmt: skip
        return max(foes, key=pick) if foes else None

    return choose


def _friend_in_range(
    pick: Callable[[Fighting], float],
) -> Callable[..., Fighting | None]:
    def choose(b: BattleBase, u: Fighting, reach: float, g: Group | None = None) -> Fighting | None:
        friends = [
            f
            for f in b.sides[u.side]
            if f.alive and f.state != "rout"
            and (f is u or (b.gap(u, f) <= reach and caster_gap(b, u, g, f) <= reach and b.sees(u, f)))
        ]  # fmt: skip
        friends = [f for f in friends if pick(f) > 0]
        return max(friends, key=pick) if friends else None

    return choose


def _insensitive(b: BattleBase, target: Fighting) -> bool:
    xs = [g.traits.insensitive for g in target.groups if g.count]
    return bool(xs) and all(xs) and b.dice.d6() >= max(x for x in xs if x)


def _column_of_light(b: BattleBase, u: Fighting, target: Fighting) -> None:
    if _insensitive(b, target):
        return
    hit = min(target.count, TEMPLATE_FIGHTERS[target.current_formation])
    wounds = b.dice.from_cdf(
        contest_cdf(b.table, 4 - target.stat("res"), hit, b.wound_shift_against(target))
    )
    killed = b.deal(u, target, wounds, hit, False)
    if b.logging:
        b.say(f"  the column of light strikes {hit} {target.name}: {killed} eliminated")


def _terror(b: BattleBase, u: Fighting, target: Fighting) -> None:
    if _insensitive(b, target):
        return
    target.state = "rout"
    if b.logging:
        b.say(f"  {target.name} is in Rout")
    if not target.engaged and not target.activated:
        before = b.phase
        b.flee(target)
        b.phase = before


def _galvanise(b: BattleBase, u: Fighting, target: Fighting) -> None:
    target.round_effects["war-fury"] = 1
    if b.logging:
        b.say(f"  {target.name} gains War fury")


def _downpour(b: BattleBase, u: Fighting, target: Fighting) -> None:
    b.field_effects["downpour"] = 1


def _divine_anger(b: BattleBase, u: Fighting, target: Fighting) -> None:
    if not _insensitive(b, target):
        target.round_effects["anger"] = 1


def _divine_grace(b: BattleBase, u: Fighting, target: Fighting) -> None:
    target.round_effects["grace"] = 1


def _divine_hospice(b: BattleBase, u: Fighting, target: Fighting) -> None:
    g = target.troops
    lost = (target.start_count - target.count) if g is target.groups[0] else 0
    back = min(lost, u.faith // max(g.power_each, 1))
    if back:
        u.faith -= back * g.power_each
        g.count += back
        target.recount()
        b.scores[1 - target.side] -= back * g.cost
        if b.logging:
            b.say(f"  {back} × {g.profile.name} {'comes' if back == 1 else 'come'} back")


def _divine_arsenal(b: BattleBase, u: Fighting, target: Fighting) -> None:
    # Sacred weapon (Destruction) for units about to fight; sacred armour otherwise.
    # Provisional reading: +1 STR or +1 RES (the card text is not in the seed).
    key = "str" if target.engaged or target.order == "assault" else "res"
    target.round_effects[key] = target.round_effects.get(key, 0) + 1


def _weakness(b: BattleBase, u: Fighting, target: Fighting) -> None:
    if not _insensitive(b, target):
        target.round_effects["def"] = -target.troops.profile.def_


RITUAL_EFFECTS: dict[str, MysticEffect] = {
    e.id: e
    for e in (
        MysticEffect(
            "column-of-light",
            "template: Wound roll STR 4 on the fighters under it",
            _enemy_in_range(lambda e: e.count),
            _column_of_light,
        ),
        MysticEffect(
            "terror",
            "the target unit is in Rout",
            _enemy_in_range(lambda e: e.points_alive() * (not e.all_have("fear_immune"))),
            _terror,
        ),
        MysticEffect(
            "igneous-galvanisation",
            "the target unit gains War fury (one extra exchange)",
            _friend_in_range(
                lambda f: f.points_alive() * (bool(f.engaged) or f.order == "assault")
            ),
            _galvanise,
        ),
        MysticEffect(
            "downpour",
            "medium and long range shots fail this round",
            lambda b, u, r, g=None: (
                u if any(b.shooters(e) for e in b.sides[1 - u.side] if e.alive) else None
            ),
            _downpour,
        ),
    )
}  # teleportation and telluric manipulation move units or terrain: no effect on the abstract field.

COMMUNION_EFFECTS: dict[str, MysticEffect] = {
    e.id: e
    for e in (
        MysticEffect(
            "divine-anger",
            "the target suffers the Wounds it inflicts",
            _enemy_in_range(lambda e: e.points_alive() * bool(e.engaged)),
            _divine_anger,
        ),
        MysticEffect(
            "divine-grace",
            "the target re-rolls its failed dice once",
            _friend_in_range(
                lambda f: f.points_alive() * (bool(f.engaged) or f.order == "assault")
            ),
            _divine_grace,
        ),
        MysticEffect(
            "divine-hospice",
            "eliminated troops come back (T.F. = their Power)",
            _friend_in_range(lambda f: f.start_count - f.count),
            _divine_hospice,
        ),
        MysticEffect(
            "divine-arsenal",
            "sacred weapon (+1 STR) or armour (+1 RES), provisional reading",
            _friend_in_range(lambda f: f.points_alive()),
            _divine_arsenal,
        ),
        MysticEffect(
            "weakness",
            "the target's DEF is 0",
            _enemy_in_range(lambda e: e.points_alive() * bool(e.engaged)),
            _weakness,
        ),
    )
}  # oracle-of-destiny only reveals orders: no effect for this AI.


