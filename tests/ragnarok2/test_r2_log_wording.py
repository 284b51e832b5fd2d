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
from armybuilder.systems.ragnarok2.engine.tables import _opposed_p

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
        p = _opposed_p(a, b, ties)
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
