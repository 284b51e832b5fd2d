"""Pit Fighters' battle engine: the smallest engine on the shared protocol (core/engine.py).

A state (:class:`PitState`), the rules by phase (a round of blows, the end), one chance step as
an explicit distribution (:func:`blow`: ``[(probability, outcome)]``, sampled with the game's
one :class:`~armybuilder.core.rng.Uniforms`, enumerated by :func:`expected_blow`), and the
players apart: two policies (``POLICIES``) that can play each other. The rules of the toy game:

- each round, the crews take turns; in a turn a crew gives one blow: its policy picks one of its
  fighters that has not struck this round and an enemy fighter; a blow hits with probability
  attack / (attack + guard) and puts the target out;
- a crew's leader (Gull Captain, Crab Matriarch), while standing, may once a game let the striker
  strike again (the option ``second-blow``, reported in the record's ``used``);
- scenarios: ``open-pit`` (6 rounds) and ``sudden-death`` (3 rounds); the side that put out
  more coins of enemies wins, a crew with nobody standing loses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from armybuilder.core.engine import Chance, Policy, expectation, sample
from armybuilder.core.rng import Uniforms
from armybuilder.core.system import GameRecord, UnitRecord

from .model import PitCat, PitList, fighter_type, name

SCENARIOS = {"open-pit": 6, "sudden-death": 3}


@dataclass(eq=False)
class PitFighter:
    side: int
    name: str
    cost: int
    attack: int
    guard: int
    leader: bool
    standing: bool = True
    struck: bool = False
    put_out: int = 0  # coins of enemies this fighter put out


def blow(attack: int, guard: int) -> Chance[bool]:
    """The chance step of a blow: True (the target is out) with probability attack / (attack + guard)."""
    p = attack / (attack + guard) if attack + guard else 0.0
    return [(p, True), (1.0 - p, False)]


def expected_blow(attack: int, guard: int) -> float:
    """The same step enumerated: the chance that a blow puts its target out."""
    return expectation(blow(attack, guard), float)


class PitPolicy(Policy, Protocol):
    """The choices Pit Fighters' rules hand to a player."""

    def blow(self, state: PitState, side: int, ready: list[PitFighter], foes: list[PitFighter]) -> tuple[PitFighter, PitFighter]:
        """Which ready fighter strikes which enemy."""
        ...

    def second_blow(self, state: PitState, side: int, striker: PitFighter, foes: list[PitFighter]) -> bool:
        """Whether the leader spends the game's second blow now."""
        ...


class PitState:
    """What a game holds: both crews, the round, the one source of uniforms, the log."""

    def __init__(self, cat: PitCat, first: PitList, second: PitList, rng: np.random.Generator, log: bool,
                 scenario: str | None, policies: tuple[str, str] | None) -> None:  # fmt: skip
        self.dice = Uniforms(rng)
        self.crews = [self._crew(cat, first, 0), self._crew(cat, second, 1)]
        self.names = [first.name, second.name]
        self.round = 0
        self.logging = log
        self.lines: list[str] = []
        self.scenario = scenario if scenario is not None else self.dice.pick(sorted(SCENARIOS))
        chosen = policies if policies is not None else (DEFAULT, DEFAULT)
        self.policies: list[PitPolicy] = [POLICIES[chosen[0]](), POLICIES[chosen[1]]()]
        self.second_blow = [any(f.leader for f in crew) for crew in self.crews]
        self.used: tuple[dict[str, int], dict[str, int]] = ({}, {})

    @staticmethod
    def _crew(cat: PitCat, army: PitList, side: int) -> list[PitFighter]:
        out = []
        for i, f in enumerate(army.fighters):
            t = fighter_type(cat, f)
            if t is not None:
                out.append(PitFighter(side, f"{i + 1}. {name(cat, f)}", t.cost, t.attack, t.guard, t.leader))
        return out

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(f"R{self.round} {text}")

    def standing(self, side: int) -> list[PitFighter]:
        return [f for f in self.crews[side] if f.standing]

    # -- the rules ------------------------------------------------------------------

    def strike(self, striker: PitFighter, target: PitFighter) -> None:
        """One blow: its chance step sampled with one uniform of the game's source."""
        step = blow(striker.attack, target.guard)
        u = self.dice.u()
        if sample(step, u):
            target.standing = False
            striker.put_out += target.cost
            self.say(f"{striker.name} strikes {target.name}: {u:.2f} under {step[0][0]:.2f}, out")
        else:
            self.say(f"{striker.name} strikes {target.name}: {u:.2f}, not under {step[0][0]:.2f}, missed")

    def turn(self, side: int) -> bool:
        """One blow of ``side`` chosen by its policy; False when it has nobody left to strike with."""
        ready = [f for f in self.standing(side) if not f.struck]
        foes = self.standing(1 - side)
        if not ready or not foes:
            return False
        striker, target = self.policies[side].blow(self, side, ready, foes)
        assert striker in ready and target in foes, "a policy chooses among the legal blows"
        striker.struck = True
        self.strike(striker, target)
        foes = self.standing(1 - side)
        leader = any(f.leader for f in self.standing(side))  # a leader put out lends no blow
        if self.second_blow[side] and leader and foes and self.policies[side].second_blow(self, side, striker, foes):
            self.second_blow[side] = False
            self.used[side]["second-blow"] = self.used[side].get("second-blow", 0) + 1
            self.say(f"{self.names[side]}: the leader lets {striker.name} strike again")
            self.strike(striker, self.policies[side].blow(self, side, [striker], foes)[1])
        return True

    def play(self) -> GameRecord:
        rounds = SCENARIOS[self.scenario]
        self.say(f"scenario {self.scenario} ({rounds} rounds)")
        for self.round in range(1, rounds + 1):
            for f in self.crews[0] + self.crews[1]:
                f.struck = False
            side, passes = (self.round + 1) % 2, 0
            while passes < 2 and self.standing(0) and self.standing(1):
                passes = 0 if self.turn(side) else passes + 1
                side = 1 - side
            if not (self.standing(0) and self.standing(1)):
                break
        scores = [float(sum(f.cost for f in self.crews[1 - s] if not f.standing)) for s in (0, 1)]
        alive = [bool(self.standing(0)), bool(self.standing(1))]
        winner = (0 if alive[0] else 1) if alive[0] != alive[1] else (None if scores[0] == scores[1] else int(scores[1] > scores[0]))
        self.say(f"put out {scores[0]:g} to {scores[1]:g} coins: " + ("draw" if winner is None else f"{self.names[winner]} wins"))
        units = [UnitRecord(f.side, f.name, float(f.cost), f.standing, float(f.put_out)) for crew in self.crews for f in crew]
        return GameRecord(winner, self.round, (scores[0], scores[1]), units, self.lines, self.scenario, self.used)


class Reckoner:
    """The default player: the blow most likely to put out the dearest enemy (the striker with
    the best chance on it), and the leader's second blow whenever an enemy stands."""

    name = "reckoner"

    def blow(self, state: PitState, side: int, ready: list[PitFighter], foes: list[PitFighter]) -> tuple[PitFighter, PitFighter]:
        return max(
            ((s, t) for s in ready for t in foes),
            key=lambda pair: (expected_blow(pair[0].attack, pair[1].guard) * pair[1].cost, -ready.index(pair[0]), -foes.index(pair[1])),
        )

    def second_blow(self, state: PitState, side: int, striker: PitFighter, foes: list[PitFighter]) -> bool:
        return True


class Brawler:
    """A yardstick: any striker on any enemy, drawn from the game's uniforms; never the second blow."""

    name = "brawler"

    def blow(self, state: PitState, side: int, ready: list[PitFighter], foes: list[PitFighter]) -> tuple[PitFighter, PitFighter]:
        return state.dice.pick(ready), state.dice.pick(foes)

    def second_blow(self, state: PitState, side: int, striker: PitFighter, foes: list[PitFighter]) -> bool:
        return False


DEFAULT = "reckoner"
POLICIES: dict[str, Callable[[], PitPolicy]] = {"reckoner": Reckoner, "brawler": Brawler}


def play_game(cat: PitCat, first: PitList, second: PitList, rng: np.random.Generator, log: bool = False, *,
              scenario: str | None = None, policies: tuple[str, str] | None = None) -> GameRecord:  # fmt: skip
    """One game, ``first`` as side 0; all randomness from ``rng``."""
    return PitState(cat, first, second, rng, log, scenario, policies).play()
