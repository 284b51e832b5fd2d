"""Memoised rule tables: contest columns and distributions, tests, balance rows, aim."""

from __future__ import annotations

import itertools
import operator
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import health
from ..catalog import Profile, R2Catalog
from .dice import (
    ContestColumn,
    characteristic_test_total,
    column_index,
    contest_dist,
    die_successes,
    fear_test_success,
    opposed_test_win_probability,
    test_success_probability,
)

TABLE_DEPTH = 120.0
DEPLOYMENT = 20.0
SCOUT_ADVANCE = 20.0
MAX_ROUNDS = 6
DRAW_MARGIN = 0.05
CLOSE_MIN_FRONT = 5
TEMPLATE_FIGHTERS = {"close": 4, "scattered": 2}  # fighters under an artillery template
DEFAULT_RANGES = {"short": 4, "medium": 7, "long": 10}  # seed values if the catalogue has none
VERY_LARGE = ("enormous", "colossal", "gigantic")


CONTEST_TABLES: dict[str, tuple[ContestColumn, ...]] = {}
TACTICAL_ROWS: dict[str, tuple[object, dict[tuple[int, int, int], int]]] = {}  # catalogue hash -> (table, {(total, category, staffs): points})
ACTIVATION_RANK = {"support": 0, "reaction": 3, "assault": 1}  # supports first, reactions last
BALANCE_ROW_CACHE: dict[str, tuple[object, tuple[BalanceRow, ...], tuple[BalanceRow, ...]]] = {}  # catalogue hash -> (tables, outcome rows, fear rows)
NO_TACTIC: dict[str, int] = {}  # shared "no tactic" (never mutated)
TACTIC_KEYS = {
    "att": "attack",
    "def": "defense",
    "str": "strength",
    "res": "resistance",
    "ini": "initiative",
}


first_item = operator.itemgetter(0)


def _cdf(pmf: np.ndarray) -> tuple[float, ...]:
    return tuple(itertools.accumulate(float(x) for x in pmf))


@lru_cache(maxsize=16384)
def table_column(table: str, difference: int, shift: int, reroll: str = "") -> ContestColumn:
    cols = CONTEST_TABLES[table]
    col = cols[column_index(cols, difference, shift)]
    return col.with_reroll(reroll) if reroll else col


@lru_cache(maxsize=16384)
def contest_cdf(
    table: str, difference: int, dice: int, shift: int, reroll: str = ""
) -> tuple[float, ...]:
    """CDF of contest successes; ``table`` names a contest table registered in CONTEST_TABLES."""
    return _cdf(contest_dist(table_column(table, difference, shift, reroll), dice).pmf)


@lru_cache(maxsize=4096)
def mean_per_die(table: str, att_diff: int, str_diff: int, a_shift: int, w_shift: int) -> float:
    """Expected Wounds of one attack die (for the AI's choices), halving ignored."""
    a = die_successes(table_column(table, att_diff, a_shift)).mean()
    w = die_successes(table_column(table, str_diff, w_shift)).mean()
    return a * w * (0.5 if table_column(table, att_diff, a_shift).halved else 1.0)


CIC_FACTS: dict[tuple[str, str], tuple[int, bool]] = {}  # (catalogue hash, profile id) -> (rank category, Leadership)



@lru_cache(maxsize=4096)
def effect_weight(effects: tuple[tuple[str, int], ...], fighting: bool, moving: bool, shaken: bool) -> float:
    """The AI's value of tactic effects for a unit (fighting this round or not; moving: a free
    unit under an Assault or Progress order; shaken: Disorganized or routed). A drawback that
    forbids what the unit is set to do (Unfailing wall's no charge for an Assault order, no run
    for a move) weighs against the tactic, so tactical points go to units that will use them."""
    score = 0.0
    for key, v in effects:
        if key in ("attack_shift", "wound_shift", "attack", "strength", "extra_exchange"):
            score += v * (3.0 if fighting else 0.2)
        elif key in ("defense_shift", "toughness_shift", "defense", "resistance"):
            score += v * (2.0 if fighting else 0.5)
        elif key == "initiative":
            score += v * (0.8 if fighting else 0.0)
        elif key in ("courage", "discipline", "power"):
            score += v * (1.0 if fighting else 0.3)
        elif key == "movement":
            score += v * (0.3 if moving else 0.0)
        elif key == "rally":
            score += v * (3.0 if shaken else 0.0)
        elif key == "no_charge":
            score -= v * (3.0 if fighting and moving else 0.0)  # a unit set to assault could not charge
        elif key == "change_order":
            score += v * (1.0 if moving else 0.3)  # a free unit re-reads the table when it acts
        elif key == "no_run":
            score -= v * (1.0 if moving else 0.0)
    return score


@lru_cache(maxsize=4096)
def die_mean(table: str, difference: int, shift: int = 0) -> float:
    return die_successes(table_column(table, difference, shift)).mean()


@lru_cache(maxsize=4096)
def pass_chance(value: int, difficulty: int, best_of: int, ones_fail: bool = True) -> float:
    return test_success_probability(value, difficulty, best_of, ones_fail)


@lru_cache(maxsize=1024)
def characteristic_test_cdf(value: int, best_of: int) -> tuple[float, ...]:
    return _cdf(characteristic_test_total(value, best_of).pmf)


@lru_cache(maxsize=4096)
def opposed_chance(a: int, b: int, a_wins_ties: bool) -> float:
    return opposed_test_win_probability(a, b, a_wins_ties)


@lru_cache(maxsize=1024)
def _fear_p(table: str, diff: int, shift: int) -> float:
    return fear_test_success(CONTEST_TABLES[table], diff, shift)


MYSTIC_FIT: dict[tuple[object, ...], tuple[object, object, bool]] = {}


# --------------------------------------------------------------------------- rules helpers (pure)


@lru_cache(maxsize=1024)
def fear_result_p(table: str, diff: int, bonus: int) -> float:
    """Courage test against Fear (R2-D1: the column's first number, a natural 1 fails, ``6*``
    fails), *bonus* added to the die's final result (seed: standard bearer and war staff)."""
    col = table_column(table, diff, 0)
    if col.halved:
        return 0.0
    return sum(1 for face in range(2, 7) if face + bonus >= col.success) / 6.0


def wound_levels(data: R2Catalog, p: Profile) -> int:
    """The system's one Wound-level rule (Size, Incarnate, the FAQ's warrior-mage and
    warrior-monk Characters): ``systems/ragnarok2/health.py``."""
    return health.wound_levels(data.tables, p)


def power_of(data: R2Catalog, p: Profile) -> int:
    """Power by Size (seed: Power table)."""
    by_size = {s.size: s.power for s in data.tables.sizes}
    if p.size in by_size:
        return by_size[p.size]
    return {"small": 1, "medium": 1, "large": 2, "enormous": 3, "colossal": 4, "gigantic": 5}[
        p.size
    ]


def combat_dice(p: Profile, cost: int | None = None) -> int:
    """1, +1 for Large or bigger worth >= 50 A.P., +1 for a Character (seed: Combat dice)."""
    dice = 1
    if p.size not in ("small", "medium") and (cost if cost is not None else p.cost) >= 50:
        dice += 1
    if p.has_role("character"):
        dice += 1
    return dice


def balance_of_power(mine: int, theirs: int) -> int:
    """The seed's balance rows seen from *mine*: 3, 2, 1, -2, -3.

    Higher Power divided by the lower, rounded in favour of the lower one (down),
    at most 3 to 1.  16 conscripts (16) vs 5 brontops riders (10): 1 to 1;
    20 conscripts: 2 to 1 (seed example).
    """
    if theirs <= 0:
        return 3
    if mine <= 0:
        return -3
    if mine >= theirs:
        r = mine // theirs
        return r if r < 3 else 3
    r = theirs // mine
    return 1 if r == 1 else (-r if r < 3 else -3)


def row_value(rows, ratio: int, lower: int = 0, default: int = 8) -> int:
    """Value of the balance row for *ratio*, read *lower* rows lower (clamped)."""
    if not rows:
        return default
    ordered = rows if isinstance(rows, tuple) else tuple(sorted(rows, key=lambda r: -r.ratio))
    last = len(ordered) - 1
    index = last
    for i, r in enumerate(ordered):
        if r.ratio <= ratio:
            index = i
            break
    return ordered[index + lower if index + lower < last else last].value


class BalanceRow(NamedTuple):
    """One row of a balance-of-Power table, by value (hashable: memos key on the rows themselves)."""

    ratio: int
    value: int


def balance_rows(rows) -> tuple[BalanceRow, ...]:
    """A catalogue table's rows as value tuples, strongest balance first."""
    return tuple(BalanceRow(r.ratio, r.value) for r in sorted(rows, key=lambda r: -r.ratio))


@lru_cache(maxsize=1024)
def memo_row_value(rows: tuple[BalanceRow, ...], ratio: int, lower: int = 0) -> int:
    """row_value() of sorted value rows, memoised by value."""
    return row_value(rows, ratio, lower)


def aim_difficulty(
    data: R2Catalog, band: str, target_size: str, moved: bool = False, partial: bool = False
) -> int:
    """Aim difficulty: range band + the seed's modifiers (moved +1, partial +1, Large -1, Very Large -2).

    Read from the catalogue's shooting table (modifier ids ``moved``,
    ``partly-visible``, ``large-target``, ``very-large-target``; the seed's values
    when the table lacks one).
    """
    bands, mods = _shooting_table(data)
    difficulty = bands.get(band, DEFAULT_RANGES[band])
    if moved:
        difficulty += mods["moved"]
    if partial:
        difficulty += mods["partial"]
    if target_size == "large":
        difficulty += mods["large"]
    elif target_size in VERY_LARGE:
        difficulty += mods["very-large"]
    return difficulty


# aim_difficulty_of() answers by (catalogue hash, band, target size, moved, partial).
_AIM: dict[tuple[str, str, str, bool, bool], int] = {}


def aim_difficulty_of(
    table: str, data: R2Catalog, band: str, target_size: str, moved: bool = False, partial: bool = False
) -> int:
    """aim_difficulty() memoised by value (*table*: the catalogue's content hash): a volley asks it
    once, and reading the catalogue's shooting table each time cost more than the volley."""
    key = (table, band, target_size, moved, partial)
    value = _AIM.get(key)
    if value is None:
        if len(_AIM) > 4096:
            _AIM.clear()
        value = _AIM[key] = aim_difficulty(data, band, target_size, moved, partial)
    return value


_MODIFIER_IDS = {
    "moved": ("moved",),
    "partial": ("partly-visible", "partially-visible"),
    "large": ("large-target", "large"),
    "very-large": ("very-large-target", "very-large"),
}
_MODIFIER_DEFAULTS = {"moved": 1, "partial": 1, "large": -1, "very-large": -2}


def _shooting_table(data: R2Catalog) -> tuple[dict[str, int], dict[str, int]]:
    """Range bands and modifiers of the catalogue's shooting table (few entries: read each time;
    the hot callers keep their answers per template group)."""
    table = data.tables.shooting
    bands: dict[str, int] = {r.band: r.difficulty for r in table.ranges} if table is not None else dict(DEFAULT_RANGES)
    found = {m.id: m.modifier for m in table.modifiers} if table is not None else {}
    mods = {
        name: next((found[i] for i in ids if i in found), _MODIFIER_DEFAULTS[name])
        for name, ids in _MODIFIER_IDS.items()
    }
    return bands, mods


BAND_LABELS = {"short": "short range", "medium": "medium range", "long": "long range"}


def range_band(weapon, d: float) -> str | None:
    """Range band of a weapon at distance *d* (None: out of range)."""
    if d <= weapon.short:
        return "short"
    if d <= weapon.medium:
        return "medium"
    if d <= weapon.long:
        return "long"
    return None

