"""The narrated log read against the seed: English counts, the Initiative rolls a combat was
decided on, morale rolls that agree with their verdict, units named by side when both armies
have a unit of that name, and a narrated game that is the game counted in the statistics."""

from __future__ import annotations

import re

import numpy as np
import pytest

from armybuilder.core.playtest import load_sample
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.narration import count, initiative_rolls
from armybuilder.systems.ragnarok2.engine.tables import opposed_chance

SAMPLES = ["acheron-undead-host", "akkylannie-griffin-crusade", "alahan-lions", "tir-na-bor-plains-guard"]


def _logs(first: str, second: str, seeds=range(3)) -> list[list[str]]:
    system = get_system("ragnarok2")
    a, b = load_sample(system, first), load_sample(system, second)
    cat = system.catalogue_for(a)
    return [Battle(cat, a, b, np.random.default_rng(seed), log=True).play().log for seed in seeds]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    out: list[str] = []
    for i, first in enumerate(SAMPLES):
        for log in _logs(first, SAMPLES[(i + 1) % len(SAMPLES)]) + _logs(first, first, range(2)):
            out.extend(log)
    return out


def test_counts_are_english():
    assert count(1, "die") == "1 die" and count(3, "die") == "3 dice"
    assert count(1, "Wound") == "1 Wound" and count(2, "Wound") == "2 Wounds"
    assert count(0, "loss", none="no loss") == "no loss" and count(2, "loss") == "2 losses"
    assert count(1, "successful attack") == "1 successful attack"


def test_no_number_disagrees_with_its_noun(lines):
    text = "\n".join(lines)
    for wrong in (r"\b1 dice\b", r"\b1 hits\b", r"\b1 Wounds\b", r"\b1 fighters\b", r"\b1 successful attacks\b",
                  r"\b[02-9] die\b", r"\b1 losses\b", r" strike first", r"\b1 rounds\b"):  # fmt: skip
        assert not re.search(wrong, text), wrong
    assert "1 die" in text and "dice" in text  # both forms are used


INI = r"(?P<{n}>.+?) INI (?P<{n}v>-?\d+)(?P<{n}c> \+ 3 \(charge\))?, rolls (?P<{n}r>[0-9+]+): (?P<{n}t>-?\w+)"
COMBAT = re.compile(
    r"^  combat: .+; Initiative test: " + INI.format(n="a") + " against " + INI.format(n="b")
    + r"; (?P<first>.+) strikes first(?P<tie> \(a tie: side \d won the tactical roll\)| \(both fail: .*\))?$"
)


def test_every_combat_shows_the_initiative_rolls_that_decided_it(lines):
    """Seed (Initiative test): each player rolls an Initiative test, the side which won strikes
    first; the log shows both rolls and the total each made (a natural 1 fails, R2-D2)."""
    combats = [line for line in lines if line.startswith("  combat: ")]
    assert len(combats) > 50
    for line in combats:
        m = COMBAT.match(line)
        assert m, line
        ta, tb = m["at"], m["bt"]
        if ta == "fails" and tb == "fails":
            assert m["tie"] and "both fail" in m["tie"], line
            continue
        if ta == "fails" or tb == "fails":
            winner = m["b"] if ta == "fails" else m["a"]
            assert m["first"] == winner and not m["tie"], line
            continue
        # the die shown and the total agree (a 6 rolled again and added)
        for who in "ab":
            bonus = 3 if m[who + "c"] else 0
            die = sum(int(x) for x in m[who + "r"].split("+"))
            assert int(m[who + "v"]) + bonus + die == int(m[who + "t"]), line
        a_total, b_total = int(ta), int(tb)
        if a_total != b_total:
            assert m["first"] == (m["a"] if a_total > b_total else m["b"]) and not m["tie"], line
        else:
            assert m["tie"], line


def test_initiative_rolls_always_agree_with_the_decision():
    rng = np.random.default_rng(4)
    for _ in range(2000):
        a, b = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        ties = bool(rng.integers(0, 2))
        p = opposed_chance(a, b, ties)
        u = float(rng.random())
        a_first = u < p
        da, db = initiative_rolls(a, b, ties, a_first, u, p)
        if da == 0 or db == 0:
            assert (da == 0 and db == 0 and a_first == ties) or (db == 0) == a_first
        else:
            ta, tb = a + da, b + db
            assert a_first == (ta > tb or (ta == tb and ties))


MORALE = re.compile(r"(?P<verdict>passes|fails) its morale roll \((?:COU|DIS) (?P<value>-?\d+) against difficulty (?P<diff>\d+)(?:, (?P<roll>[^)]*))?\)")


def test_morale_rolls_agree_with_their_verdict(lines):
    seen = 0
    for line in lines:
        m = MORALE.search(line)
        if not m or not m["roll"]:
            continue
        seen += 1
        total = m["roll"].rsplit(": ", 1)[1]
        if m["verdict"] == "passes":
            assert int(total) >= int(m["diff"]), line
        else:
            assert total.endswith("fails") or int(total) < int(m["diff"]), line
    assert seen > 5


def test_mirror_match_names_units_by_side():
    log = _logs("alahan-lions", "alahan-lions", [1])[0]
    charges = [line for line in log if re.search(r"\) charges ", line)]  # a named unit's charge (not "it charges first")
    assert charges and all(re.search(r"\(side [12]\) charges .+ \(side [12]\)", line) for line in charges)
    other = _logs("alahan-lions", "acheron-undead-host", [1])[0]
    assert not any("(side 1)" in line or "(side 2)" in line for line in other)


def test_the_narrated_game_is_the_counted_game():
    """Logging draws nothing: the same seed gives the same game with and without the log."""
    system = get_system("ragnarok2")
    a, b = load_sample(system, "alahan-lions"), load_sample(system, "tir-na-bor-plains-guard")
    cat = system.catalogue_for(a)
    for seed in range(4):
        quiet = Battle(cat, a, b, np.random.default_rng(seed)).play()
        told = Battle(cat, a, b, np.random.default_rng(seed), log=True).play()
        assert (quiet.winner, quiet.scores, quiet.rounds) == (told.winner, told.scores, told.rounds)
    end = told.log[-1]
    assert end.startswith(f"end after {told.rounds} rounds: side 1 eliminated or routed")
    assert ("a draw" in end) == (told.winner is None)


# -- a log a player can audit: orders, moves, distances and every test's roll --------------

POSITION = r"\((?P<{n}x>-?\d+), (?P<{n}y>-?\d+)\)"
MOVE = re.compile(r" (?:moves|runs|marches back|marches|flees [^:]*?:) (?P<d>\d+\.\d) cm from " + POSITION.format(n="a")
                  + " to " + POSITION.format(n="b"))  # fmt: skip


def test_the_log_says_how_positions_are_read(lines):
    assert any(line.startswith("positions: (x, y) in cm") for line in lines)


def test_every_round_shows_each_sides_orders(lines):
    """Seed (Attribution of the orders): each unit is given one order; the log shows them all,
    round by round, side by side."""
    rounds = [i for i, line in enumerate(lines) if line.startswith("— round ")]
    assert len(rounds) > 20
    for start, stop in zip(rounds, rounds[1:] + [len(lines)], strict=True):
        orders = [line for line in lines[start:stop] if " orders, face down: " in line]
        assert orders, lines[start]
        for line in orders:
            assert re.fullmatch(r"side [12] orders, face down: (?:.+ (?:Progress|Assault|Support|Reaction)(?:, |$))+", line), line


def test_every_move_shows_its_length_from_and_to(lines):
    """A move reads "moves 7.5 cm from (102, 20) to (99, 27)": the path is never shorter than
    the straight line between the two positions (rounded to the centimetre), unless the unit
    ended it "turning ... where it stands" (seed: Orientation at the end of a move)."""
    moves = [m for line in lines if (m := MOVE.search(line))]
    assert len(moves) > 100
    assert any("turning" in m.string for m in moves)
    for m in moves:
        if "turning" in m.string:
            continue  # it turned where it stands: the middle of its front moved round the block's middle
        straight = ((int(m["bx"]) - int(m["ax"])) ** 2 + (int(m["by"]) - int(m["ay"])) ** 2) ** 0.5
        assert float(m["d"]) >= straight - 1.5, m.string


def test_every_charge_and_shot_shows_its_distance(lines):
    """Seed (Movement during an assault; Shooting): the distance of an assault is measured edge
    to edge before it is resolved, each marksman's to its target; the log shows both."""
    declared = [line for line in lines if re.search(r"\((?:Assault|Reaction), (?:Charge|Engagement)\) declares ", line)]
    assert declared and all(re.search(r"declares .+, \d+\.\d cm away \(reach \d+(?:\.\d+)? cm\)", line) for line in declared)
    contact = [line for line in lines if re.search(r" (?:charges|engages) .+: \d+\.\d cm from \(", line)]
    assert contact
    shots = [line for line in lines if " shoots " in line or " fires a template at " in line]
    assert len(shots) > 20
    for line in shots:
        assert re.search(r"\((?:short|medium|long) range, \d+\.\d(?:-\d+\.\d)? cm", line), line


TEST = re.compile(
    r"(?P<label>INI|DIS|COU|STR less RES \d+) (?P<v>-?\d+) against (?:difficulty )?(?P<d>\d+), rolls (?P<roll>.+?)"
    r"(?:: (?P<verdict>passes|fails)|(?=\))|$)"
)


def _check_roll(value: int, difficulty: int, roll: str, verdict: str | None, line: str) -> None:
    """The roll shown ("3: 6", "2 dice, keeps 6+1: 17", "1, rolls again 5: 8", a natural "1"
    or "2 dice: all 1s, fails") agrees with the value, the difficulty and the verdict."""
    if ": " not in roll or roll.endswith("fails"):  # natural 1s: an automatic failure
        assert verdict in (None, "fails"), line
        return
    faces, total = roll.rsplit(": ", 1)
    faces = faces.split(" ")[-1]
    assert value + sum(int(f) for f in faces.split("+")) == int(total), line
    if verdict is not None:
        assert (int(total) >= difficulty) == (verdict == "passes"), line


def test_every_test_shows_its_value_difficulty_and_roll(lines):
    """Reactions (INI 6), maneuvers (DIS 7), disengagements (8), morale rolls after shots (8)
    and rallying tests (8): passed or failed, each line shows the value, the difficulty and the
    roll, and they agree with the verdict (a 6 rolled again and added, a natural 1 fails)."""
    kinds = {"Reaction (Withstand charge)": 0, "Disengagement": 0, "rallying test": 0, "reorients": 0, "morale roll": 0}
    for line in lines:
        kind = next((k for k in kinds if k in line), None)
        if kind is None or "automatically" in line:
            continue
        m = TEST.search(line)
        assert m, line
        kinds[kind] += 1
        _check_roll(int(m["v"]), int(m["d"]), m["roll"], m["verdict"], line)
    assert all(kinds.values()), kinds


def test_passed_and_failed_rallying_tests_are_both_told(lines):
    """Seed (Rallying): "a Courage or Discipline test ... against a difficulty of 8. If the test
    is a success, the unit is Valiant; otherwise it remains in the same spirit"."""
    rallies = [line for line in lines if "rolls its rallying test" in line]
    assert any("it is Valiant again" in line for line in rallies)
    assert any("it stays" in line for line in rallies)
    for line in rallies:
        assert re.search(r"rolls its rallying test: (?:COU|DIS) -?\d+ against 8, rolls ", line), line


def test_a_counter_charge_shows_both_initiative_rolls(ecat_battle):
    """Seed (Reaction (Counter-charge)): "An Initiative test is done in opposition between the
    assailing unit and the unit performing the counter-charge. The unit which wins the test
    charges first." The log shows both rolls and who charges first."""
    from r2table import aside, face_off, scripted

    bt = ecat_battle
    a, b = bt.sides[0][0], bt.sides[1][0]
    aside(bt, a, b)
    face_off(bt, a, b, 12.0)
    b.order = "reaction"
    bt.policies = (bt.policies[0], scripted(bt.policies[1], "counter-charge"))
    bt.lines.clear()
    bt.react(b, a, "charge")
    line = next(line for line in bt.lines if "Counter-charge" in line)
    m = re.search(INI.format(n="a") + " against " + INI.format(n="b") + r"(?: \(a tie: side \d won the tactical roll\))?; (?P<first>.+) charges first", line)
    assert m, line
    if m["at"] != "fails" and m["bt"] != "fails" and int(m["at"]) != int(m["bt"]):
        assert (int(m["at"]) > int(m["bt"])) == (m["first"] == "it"), line


def test_a_negative_value_still_shows_its_roll():
    """A test at INI -2 (Unfailing wall's drawback on INI 0) is rolled like any other: 1d6 - 2,
    a 6 rolled again and added; the log shows the die."""
    from armybuilder.systems.ragnarok2.engine.narration import test_roll
    from armybuilder.systems.ragnarok2.engine.tables import pass_chance

    p = pass_chance(-2, 6, 1)
    assert test_roll(-2, 6, 1, True, 0.01 * p, p) == "rolls 6+2: 6"  # the least passing roll first
    assert re.fullmatch(r"rolls 6\+\d(?:\+\d)*: \d+", test_roll(-2, 6, 1, True, 0.5 * p, p))
    failed = test_roll(-2, 6, 1, False, 0.99, p)
    assert failed == "rolls 1: fails" or re.fullmatch(r"rolls (?:[2-5]|6\+1): -?\d", failed), failed


def test_a_bravery_morale_roll_shows_the_dice_not_the_characteristic(ecat_battle):
    """Seed (Bravery): "a 1 is not an automatic failure on moral rolls. A 1 on morale rolls can
    be re-rolled"; the log shows the die (and the second one after a 1), then the total."""
    from armybuilder.systems.ragnarok2.engine.narration import test_roll

    shown = {test_roll(3, 8, 1, ok, u, 0.389, False, True) for u, ok in ((k / 200.0, k / 200.0 < 0.389) for k in range(200))}
    assert any(r.startswith("rolls 1, rolls again ") for r in shown), shown
    from armybuilder.systems.ragnarok2.engine.abilities import traits_of

    seen = []
    for seed in range(30):
        bt = fresh_battle(ecat_battle.cat, seed)
        x, y = bt.sides[0][0], bt.sides[1][0]
        for g in y.groups:
            g.traits = traits_of(("bravery",))
        y.__post_init__()
        bt.update_leadership()
        bt.lines.clear()
        bt.morale(x, y)
        line = next(line for line in bt.lines if "morale roll" in line)
        m = MORALE.search(line)
        assert m and m["roll"] and m["roll"].startswith("rolls "), line
        seen.append(m["roll"])
        _check_roll(int(m["value"]), int(m["diff"]), m["roll"][len("rolls "):], m["verdict"], line)
    assert len(set(seen)) > 3


def fresh_battle(cat, seed: int = 0) -> Battle:
    from r2engine_data import engine_army

    return Battle(cat, engine_army("griffin", ("conscript", 10)), engine_army("beasts", ("warrior", 10)), np.random.default_rng(seed), log=True, table="open")


@pytest.fixture
def ecat_battle(tmp_path_factory):
    from r2engine_data import build_catalogue

    return fresh_battle(build_catalogue(tmp_path_factory.mktemp("log-audit")))
