"""The narrated log's wording: counts, unit names by side, and the Initiative and morale rolls shown.

The log (``armybuilder playtest --log``) is read against the seed, so it uses the seed's words
(combat dice, successful attacks, Wounds, losses, morale roll, Initiative test) and English a
player would write: "1 die", "2 dice", "1 Wound", "no loss".

Initiative rolls. The battle decides an Initiative test with one uniform draw against the
probability that the first side wins (the speed of thousands of games a second rests on that).
:func:`initiative_rolls` turns that same draw into the two rolls: the joint outcomes of the
two tests (1d6 each, a 6 rolled again and added, a natural 1 an automatic failure; R2-D2) are
laid out in a fixed order, those where the first side wins first, so the draw that decided the
test also picks, inside the decided half, the pair of rolls that gave it (:func:`test_roll` does
the same for a morale roll). Logging draws nothing more: a narrated game is the same game as the
one counted in the statistics.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .dice import encoded_test_result

if TYPE_CHECKING:
    from .base import BattleBase
    from .state import Fighting

_IRREGULAR = {"die": "dice", "loss": "losses"}


def count(n: int, one: str, many: str | None = None, none: str | None = None) -> str:
    """``count(1, "die") == "1 die"``, ``count(2, "die") == "2 dice"``, ``count(0, "loss", none="no loss")``."""
    if n == 0 and none is not None:
        return none
    if n == 1:
        return f"1 {one}"
    return f"{n} {many if many is not None else _IRREGULAR.get(one, one + 's')}"


def name(b: BattleBase, u: Fighting) -> str:
    """The unit's name, with its side when the other army has a unit of the same name (a mirror
    match, a list against its cut copy). Only the narrated game asks, so nothing is kept."""
    if any(v.name == u.name for v in b.sides[1 - u.side]):
        return f"{u.name} (side {u.side + 1})"
    return u.name


def _die_text(total: int) -> str:
    """What was rolled for a die total *total* (>= 1): a 6 is rolled again and added."""
    parts = []
    while total > 6:
        parts.append("6")
        total -= 6
    parts.append(str(total))
    return "+".join(parts)


@lru_cache(maxsize=4096)
def _joint(a: int, b: int, a_wins_ties: bool) -> tuple[tuple[tuple[int, int, float], ...], tuple[tuple[int, int, float], ...]]:
    """The joint outcomes of two Initiative tests, as (die total of A, of B, probability):
    A's wins and B's wins, each in a fixed order (die 0 = a natural 1, an automatic failure)."""
    offset = max(0, -min(a, b))
    pa, pb = encoded_test_result(a + offset, 1, True).pmf, encoded_test_result(b + offset, 1, True).pmf
    wins: list[tuple[int, int, float]] = []
    losses: list[tuple[int, int, float]] = []
    for ka, qa in enumerate(pa):
        if qa <= 0.0:
            continue
        for kb, qb in enumerate(pb):
            if qb <= 0.0:
                continue
            a_first = ka > kb or (ka == kb and a_wins_ties)
            # Encoded results: 0 is a failure, else the final result (value + offset + die).
            da = 0 if ka == 0 else ka - a - offset
            db = 0 if kb == 0 else kb - b - offset
            (wins if a_first else losses).append((da, db, qa * qb))
    return tuple(wins), tuple(losses)


def initiative_rolls(a: int, b: int, a_wins_ties: bool, a_first: bool, u: float, p: float) -> tuple[int, int]:
    """The die totals (0: a natural 1) of the Initiative tests of A (value *a*) and B (value *b*)
    that the draw *u* decided against *p* (A strikes first when u < p), as the module doc says."""
    wins, losses = _joint(a, b, a_wins_ties)
    cells = wins if a_first else losses
    mass = sum(c[2] for c in cells)
    # The draw rescaled inside the decided half: u / p among A's wins, (u - p) / (1 - p) among B's.
    x = (u / p if a_first else (u - p) / (1.0 - p)) if 0.0 < p < 1.0 else 0.5
    x = min(max(x, 0.0), 1.0) * mass
    seen = 0.0
    for da, db, q in cells:
        seen += q
        if x < seen:
            return da, db
    return cells[-1][0], cells[-1][1]


@lru_cache(maxsize=1024)
def _test_cells(value: int, difficulty: int, best_of: int, ones_fail: bool, reroll: bool) -> tuple[tuple[str, bool, float], ...]:
    """Every way a characteristic test can come out, as (what was rolled, passed, probability),
    in a fixed order: 1d6 + *value* against *difficulty*, a 6 rolled again and added, a natural
    1 an automatic failure when *ones_fail*; *reroll*: a first natural 1 that fails is rolled
    again once (Bravery on morale rolls); the best of *best_of* dice kept (R2-D2)."""
    sixes = 1
    while 6.0**-sixes >= 1e-12:
        sixes += 1
    single: list[tuple[int, str, bool, float]] = []  # (rank, text, passed, probability); rank orders the dice kept

    def one_die(prefix: str, weight: float, may_reroll: bool) -> None:
        for x in range(1, 6 * sixes + 1):
            if x % 6 == 0:
                continue
            q = weight * 6.0 ** -((x - 1) // 6 + 1)
            total = value + x
            if x == 1 and may_reroll and (ones_fail or total < difficulty):
                one_die(prefix + "1, rolls again ", q, False)
                continue
            if x == 1 and ones_fail:
                single.append((-1, f"{prefix}1: fails", False, q))
                continue
            text = f"{prefix}{_die_text(x)}: {total}"
            single.append((total, text, total >= difficulty and total > 0, q))

    one_die("", 1.0, reroll)
    single.sort(key=lambda c: c[0])
    if best_of == 1:
        return tuple((text, passed, q) for _rank, text, passed, q in single)
    # The best of several dice: P(the best is cell i) = F(i)^n - F(i-1)^n over the cells in order.
    out = []
    below = 0.0
    for _rank, text, passed, q in single:
        shown = f"{best_of} dice: all 1s, fails" if text.endswith("1: fails") else f"{best_of} dice, keeps {text}"
        out.append((shown, passed, (below + q) ** best_of - below**best_of))
        below += q
    return tuple(out)


def test_roll(
    value: int, difficulty: int, best_of: int, passed: bool, u: float, p: float, ones_fail: bool = True, reroll: bool = False
) -> str:
    """The roll of a characteristic test (see :func:`_test_cells`) that the draw *u* decided
    against *p* (passed when u < p), as Initiative rolls are found: ``"rolls 4: 11"``,
    ``"rolls 1: fails"`` (a natural 1), ``"rolls 1, rolls again 5: 12"`` (Bravery)."""
    cells = [(text, q) for text, ok, q in _test_cells(value, difficulty, best_of, ones_fail, reroll) if ok == passed and q > 0.0]
    if not cells:
        return ""
    x = (u / p if passed else (u - p) / (1.0 - p)) if 0.0 < p < 1.0 else 0.5
    x = min(max(x, 0.0), 1.0) * sum(q for _, q in cells)
    seen, pick = 0.0, cells[-1][0]
    for text, q in cells:
        seen += q
        if x < seen:
            pick = text
            break
    return f"rolls {pick}"


def at(u: Fighting) -> str:
    """Where a unit stands: the middle of its front edge, ``(62, 48)`` (cm across the table, cm
    from the first army's edge)."""
    return f"({u.x:.0f}, {u.y:.0f})"


def turning(u: Fighting, ux: float, uy: float) -> str:
    """``", turning 90° where it stands"`` when a move ended with the unit facing another way than
    (ux, uy) (seed: Orientation at the end of a move): its fighters turn on the spot, the block
    on its middle, so the middle of its front edge moves by more than the path."""
    import math

    dot = max(-1.0, min(1.0, ux * u.ux + uy * u.uy))
    angle = math.degrees(math.acos(dot))
    return f", turning {angle:.0f}° where it stands" if angle >= 3.0 else ""


def test_words(b: BattleBase, label: str, value: int, difficulty: int, best_of: int, passed: bool, ones_fail: bool = True) -> str:
    """``DIS 7 against 7, rolls 3: 10: passes``: a test just decided by the battle's last draw."""
    from .tables import pass_chance

    p = pass_chance(value, difficulty, best_of, ones_fail)
    roll = test_roll(value, difficulty, best_of, passed, b.dice.buffer[b.dice.index - 1], p, ones_fail)
    verdict = "passes" if passed else "fails"
    if roll.endswith("fails"):
        return f"{label} {value} against {difficulty}, {roll}"
    return f"{label} {value} against {difficulty}{', ' + roll if roll else ''}: {verdict}"


def fear_roll(b: BattleBase, diff: int, bonus: int, best_of: int, passed: bool, p: float) -> str:
    """``needs 4+ on the die, rolls 5``: the die of a Courage test against Fear just decided by the
    battle's last draw (R2-D1: the column's first number, a natural 1 fails, 6* fails)."""
    from .tables import table_column

    col = table_column(b.table, diff, 0)
    if col.halved:
        return "the threshold of impossible: fails whatever the die"
    need = col.success - bonus
    good = [f for f in range(2, 7) if f + bonus >= col.success]
    bad = [f for f in range(1, 7) if f not in good]
    u = b.dice.buffer[b.dice.index - 1]
    cells = good if passed else bad
    x = (u / p if passed else (u - p) / (1.0 - p)) if 0.0 < p < 1.0 else 0.5
    face = cells[min(int(min(max(x, 0.0), 0.999999) * len(cells)), len(cells) - 1)] if cells else 1
    dice = "rolls" if best_of == 1 else f"rolls {best_of} dice, keeps"
    return f"needs {max(need, 2)}+ on the die, {dice} {face}"


ORDER_NAMES = {"assault": "an Assault", "progress": "a Progress", "support": "a Support", "reaction": "a Reaction"}


def initiative_text(who: str, value: int, die: int, bonus: int = 0) -> str:
    """``"Red Karnagh INI 4 + 3 (charge), rolls 5: 12"``, or the automatic failure of a natural 1."""
    ini = f"INI {value - bonus} + {bonus} (charge)" if bonus else f"INI {value}"
    if die == 0:
        return f"{who} {ini}, rolls 1: fails"
    return f"{who} {ini}, rolls {_die_text(die)}: {value + die}"


# -- the combat phase's sentences ---------------------------------------------------------


def say_combat(
    b: BattleBase, a: Fighting, ga: int, na: int, c: Fighting, gc: int, nc: int, ini_a: int, ini_c: int, a_first: bool, p_first: float,
    charge: bool,
) -> None:  # fmt: skip
    """``combat: Red Karnagh ×1 (Karnaghs) against Drune Minotaur ×1 (Drune minotaur); Initiative
    test: Red Karnagh INI 4 + 3 (charge), rolls 3: 10 against Drune Minotaur INI 3, rolls 2: 5;
    Red Karnagh strikes first`` (ties go to the tactical roll's winner)."""
    u = b.dice.buffer[b.dice.index - 1]  # the draw that decided the test (Dice.chance() just used it)
    ta, tc = a.groups[ga].profile.name, c.groups[gc].profile.name
    da, dc = initiative_rolls(ini_a, ini_c, a.side == b.winner_of_roll, a_first, u, p_first)
    tie = ""
    if da and dc and ini_a + da == ini_c + dc:
        tie = f" (a tie: side {b.winner_of_roll + 1} won the tactical roll)"
    elif not da and not dc:
        tie = f" (both fail: side {b.winner_of_roll + 1} won the tactical roll)"
    bonus_a = 3 if charge and a.charge_bonus else 0  # (CombatRules.combat_ini(): +3 after a successful charge)
    bonus_c = 3 if charge and c.charge_bonus else 0
    b.say(
        f"  combat: {ta} ×{na} ({name(b, a)}) against {tc} ×{nc} ({name(b, c)}); Initiative test: "
        f"{initiative_text(ta, ini_a, da, bonus_a)} against {initiative_text(tc, ini_c, dc, bonus_c)}; "
        f"{ta if a_first else tc} strikes first{tie}"
    )


def say_exchange(
    b: BattleBase, x: Fighting, gx, y: Fighting, gy, extra_round: int, dice: int, fierce_dice: int, att: int, d_def: int,
    attacks: int, strength: int, d_res: int, dealt: int, killed: int,
) -> None:  # fmt: skip
    """``Red Karnagh (Karnaghs) strikes with 1 die, ATT 4 against DEF 3: 1 successful attack;
    Wound rolls, STR 8 against RES 10: no Wound; no loss``."""
    label = f", extra exchange {extra_round}" if extra_round else ""
    with_dice = f"{count(dice, 'die')} at ATT {att}"
    if fierce_dice:
        with_dice += f" and {count(fierce_dice, 'die')} of its fallen Fierce or Possessed fighters at ATT 0"
    no_die = f" ({gy.profile.name} kept no combat die for this combat)" if d_def == 0 and gy.base["def"] > 0 else ""
    head = f"    {gx.profile.name} ({name(b, x)}{label}) strikes with {with_dice} against DEF {d_def}{no_die}: "
    if not attacks:
        b.say(head + "no successful attack")
        return
    wounding = f"Wound rolls, STR {strength} against RES {d_res}: {count(dealt, 'Wound', none='no Wound')}"
    losses = f"{killed} {gy.profile.name} eliminated" if killed else "no loss"
    b.say(head + f"{count(attacks, 'successful attack')}; {wounding}; {losses}")


def say_fray(b: BattleBase, units: list[Fighting]) -> None:
    """``fray: side 1 Drune warriors (12 fighters), Karnaghs (5 fighters); side 2 Drune archers (7 fighters)``."""
    sides = []
    for side in (0, 1):
        mine = [f"{u.name} ({count(u.count, 'fighter')})" for u in units if u.side == side]
        if mine:
            sides.append(f"side {side + 1} " + ", ".join(mine))
    b.say("fray: " + "; ".join(sides))


def say_outcome(b: BattleBase, a: Fighting, c: Fighting, wa: int, wc: int, loser: Fighting) -> None:
    """``outcome of the fray, Karnaghs against Drune hammers: 0 Wounds inflicted against 2;
    Karnaghs loses`` (a tie goes against the tactical roll's loser); the morale roll follows."""
    tie = f" (a tie: side {b.winner_of_roll + 1} won the tactical roll)" if wa == wc else ""
    b.say(
        f"  outcome of the fray, {name(b, a)} against {name(b, c)}: {count(wa, 'Wound')} inflicted against {wc};"
        f" {name(b, loser)} loses{tie}"
    )


def say_end(b: BattleBase, rounds: int, costs: list[int], winner: int | None, standing: list[bool]) -> None:
    """``end after 6 rounds: side 1 eliminated or routed 180 A.P. of side 2's 791 (22.8 %), side 2
    190 A.P. of side 1's 996 (19.1 %); shares 3.7 points apart, under 5: a draw``."""
    shares = [100.0 * b.scores[side] / max(costs[1 - side], 1) for side in (0, 1)]
    parts = [
        f"side {side + 1} eliminated or routed {b.scores[side]:g} A.P. of side {2 - side}'s {costs[1 - side]:g} ({shares[side]:.1f} %)"
        for side in (0, 1)
    ]
    gap = abs(shares[0] - shares[1])
    if standing[0] != standing[1]:
        verdict = f"side {1 if standing[0] else 2} is the only army with a unit still fighting: it wins"
    elif winner is None:
        verdict = f"shares {gap:.1f} points apart, under 5: a draw"
    else:
        verdict = f"side {winner + 1} destroyed the larger share ({gap:.1f} points more): it wins"
    b.say(f"end after {count(rounds, 'round')}: " + ", ".join(parts) + "; " + verdict)
