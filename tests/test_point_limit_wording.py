"""The shared points-limit rule words one point and several points as English does."""

from __future__ import annotations

from armybuilder.core.checks import PointLimit

RULE = PointLimit("t.points.limit", "the warband", "points", "seed", "groups", "of groups", unspent_rule="t.points.unspent")
AP = PointLimit("t.points.limit", "the army", "A.P.", "seed", unspent_rule="t.points.unspent")


def _message(rule: PointLimit, total: float, limit: int) -> str:
    (finding,) = rule.check(total, limit)
    return finding.message


def test_one_point_is_singular():
    assert _message(RULE, 13, 12).endswith("remove 1 point of groups")
    assert _message(RULE, 11, 12).endswith("1 point is unspent")


def test_several_points_and_other_currencies_keep_their_form():
    assert _message(RULE, 14, 12).endswith("remove 2 points of groups")
    assert _message(RULE, 10, 12).endswith("2 points are unspent")
    assert _message(AP, 1001, 1000).endswith("remove 1 A.P.")
    assert _message(AP, 999, 1000).endswith("1 A.P. is unspent")
