"""Whole Ragnarok (Morpheus Engine) games between two war clans, on an abstract board.

The board is a square of ``tables.engine.board`` inches with a few terrain pieces
(circles with the seed's keywords: a forest of Difficult Light Cover, rocks of
Heavy Cover that Block LOS, a magma pool that is Hazardous (2) and sets Fire (3),
shallow water).  Models are round bases; positions are in inches.

What is simulated (seed morpheus-ragnarok-page3, ME-D1, reference data):
action points; movement with Difficult and Hazardous terrain; Charge (+3 SP,
+1 ST, +1 DR, at least half SP, Brace, Heavy Charge, Bullrush); Clash (DR versus
DR, -1 DF, strike back at -1 MA, half the AP per Round); Overwhelm (Sizes,
Shield +2, Stalwart +2, Teamwork); Free Strikes; cover (Light, Heavy,
controlling cover); distance penalty; firing at engaged models (a miss hits the
friend, DR (D4)); Prone and Stand; Focus; Disengage (Grapple); blast, spray and
line attacks (blast misses scatter 1d6 + 1d8 in a d8 direction, at most half the
distance); the status effects of the catalogued weapons and powers (Savage,
Lethal, Cumbersome, Rapid Attack, Knockdown, Shock, Blind, Fire, Ice, Restrain,
Push, Pull, Aid, Drain, Deceptive, Psi, Delusional, Terrifying, Berserker,
Concealment, Healer and Incapacitated, Tactician, Taunt, Weapon Master); God
powers bought with Godspark.

Victory (an engine assumption, ``tables.engine.notes``): a side wiped out loses at once;
otherwise the side that took the larger *share* of the enemy's Glory wins (a removed model
counts its Glory, a wounded survivor the part in proportion to the HP it lost; equal shares:
a draw); the record's scores stay the Glory each side removed (the playtest margins
are in Glory), and the log's last line gives both.  Counting Glory
removed in absolute terms rewarded a smaller clan, which exposes less Glory: a Wolves
clan cut by a fifth did as well as the full clan; by shares the full clan wins 67 % (Ravens
of Hrafnsey) and 73 % (Wolves of the Fjord) of 1,000 games against such a copy.

Not simulated: climbing, falling, jumping and Levels, Hills, Walls, Deep Water and the
weaponized terrain (no such pieces are placed), objectives, Invasion, Phasing and other
abilities no catalogued warrior or power has.  Movement is a straight line (turning aside
when the way is blocked) that only checks where it ends.

Assumptions the seed page does not settle are catalogue data
(``tables.engine`` with its ``notes``, provisional).  All
randomness comes from the injected ``numpy.random.Generator``.

Code layout and speed: the state and the dice are :class:`gamestate.GameState`'s; the rules
are a chain of subclasses of it, one per phase (:mod:`geometry`, :mod:`combat`,
:mod:`movement`, :mod:`powers`, then the AI's policy in :mod:`activation`), so every phase
reads typed attributes and calls the others' rules directly (what mypyc needs to compile the
engine: setup.py); :class:`Battle`, the last of the chain, holds setup and rounds; the records
are in :mod:`fighters`.  What no game of two
clans changes is built once per pairing (:class:`fighters.Pairing`: the fighters, copied for
each game, the God powers, the engagement distance of every pair of foes); 2d6 are drawn
1,024 dice at a time and summed in one block; each side keeps a list of its models still on
the table; every model keeps its squared distance to each enemy, updated by :meth:`place`
(the one way a model moves), which choosing who activates, finding who is engaged, the
nearest enemy and Overwhelm read; the models on the table are kept sorted by x (also by
:meth:`place`), so a free spot or a line of fire looks only at the bases in its band; the
nearest enemy's kept distance proves most moves passed no foe (no Free Strike to look for)
and most models engaged with no one; terrain is sorted by keyword once; box tests come before
segment distances; the expected Damage of an attack is memoised; each shot is weighed once
per decision (its cover once for the hit and the Strength) and the foes engaged with a model
once per AI step; log lines are only written when a log is kept.  :class:`Battle` and
:class:`fighters.Fighter` keep their state in slots: each has more attributes than CPython
3.11's shared-key layout holds, and an instance with a dictionary of its own sends every
method call on it down the interpreter's slow, unspecialised path; for the same reason the hot
arithmetic and comparisons keep to two floats or two small ints (``BASES``, a weapon's
``_touch``), the only pairs CPython 3.11 specialises, and hot calls pass no keywords to C
functions (each parses them).  Speed work keeps fixed-seed games identical (same draws, decisions and
logs: ``tests/morpheus/me_digests.json``).
"""

from __future__ import annotations

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.engine import collector_paused
from armybuilder.core.rng import Uniforms
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import WarClan
from ..catalog import GodPower
from .activation import Activation
from .ai import WarlordPolicy
from .dice import DAMAGE_MEMOS, rules_from
from .fighters import Fighter, Terrain, Weapon, pairing_for
from .geometry import dist, gap
from .policy import BrawlerPolicy, Policy

# --------------------------------------------------------------------------- the game


class Battle(Activation):
    """One battle in play: setup and rounds; the state and the dice are :class:`GameState`'s,
    the rules and the AI the phases' of the chain below this class."""

    __slots__ = ()  # the state's slots are GameState's

    def __init__(self, cat: Catalogue, first: WarClan, second: WarClan, rng: np.random.Generator, log: bool = False,
                 policies: tuple[Policy, Policy] | None = None) -> None:  # fmt: skip
        self.cat = cat
        self.data = cat.data
        self.dice = Uniforms(rng)
        self.policies = list(policies) if policies is not None else [WarlordPolicy(), WarlordPolicy()]
        self.used = ({}, {})
        self.rules = rules_from(cat)
        # the Damage step of each kind of attack (rules.step(), looked up by the weapon's kind)
        self.steps = {"normal": self.rules.step(), "savage": self.rules.step(savage=True), "lethal": self.rules.step(lethal=True)}
        # expected Damage by (attack - defence, strength - resistance, kind), shared by every
        # battle under the same rules: the AI weighs thousands of attacks per game
        self.damage_memo = DAMAGE_MEMOS.setdefault(self.rules, {})
        engine = self.data.tables.engine
        self.max_rounds = engine.rounds if engine else 6
        self.board = float(engine.board if engine else 48)
        self.depth = float(engine.deployment_depth if engine else 6)
        self.godspark = [engine.godspark_start if engine else 0] * 2
        self.godspark_income = engine.godspark_per_round if engine else 3
        pairing = pairing_for(cat, first, second)  # built once for every game of these clans
        self.sides = [[f.fresh() for f in pairing.templates[0]], [f.fresh() for f in pairing.templates[1]]]
        self.everyone = self.sides[0] + self.sides[1]  # both clans, removed models included
        self.powers: list[list[GodPower]] = pairing.powers  # never changed
        self.power_rows = pairing.power_rows  # the same as (power, id, cost), read by the AI
        self.powers_used: list[set[str]] = [set(), set()]
        # Godspark below which a side can afford none of its powers, even Attuned (1 off each)
        self.cheapest = pairing.cheapest
        self.power_kinds: dict[str, str] = {}  # power id -> what the AI uses it for
        self.scores = [0.0, 0.0]
        self.round = 0
        self.logging = log
        self.lines: list[str] = []
        self.terrain: list[Terrain] = []
        self.index_terrain()
        # Who is still on the table, per side: rebuilt (never changed in place) when a model
        # is removed, so a list handed out earlier stays a valid snapshot.
        self.living: list[list[Fighter]] = [list(self.sides[0]), list(self.sides[1])]
        # Per fighter, the squared centre distance to each enemy (in self.sides order) within
        # which the two are engaged (bases touching plus the longer melee reach).
        self.engage_limits: list[dict[int, tuple[float, ...]]] = pairing.limits
        self.engage_loose = pairing.loose  # the same, widened by a hair (Overwhelm's quick test)
        self.strike_span = pairing.strike_span
        # per side, the models that can be Terrifying (None: any, a God power can grant it)
        self.terror = [None if slots is None else [side[k] for k in slots] for slots, side in zip(pairing.terror, self.sides, strict=True)]
        self.healers = pairing.healers
        self._sums = _faces_of(self.rules.dice, self.rules.sides)  # every equally likely roll's total
        self._faces = len(self._sums)
        self._base = self.rules.base
        self.index_positions()  # every model at (0, 0) until setup() or place() moves it
        self.clan_names = [first.name, second.name]
        self._name_models()

    def _name_models(self) -> None:
        """Every model named so that a line says whose it is: a model whose name the other clan's
        list also has carries its clan in brackets (its list's name, or 1 / 2 in a mirror)."""
        tags = list(self.clan_names) if self.clan_names[0] != self.clan_names[1] else ["clan 1", "clan 2"]
        shared = {f.name for f in self.sides[0]} & {f.name for f in self.sides[1]}
        for side in (0, 1):
            for f in self.sides[side]:
                if f.name in shared:
                    f.name = f"{f.name} [{tags[side]}]"

    # -- setup --------------------------------------------------------------

    def setup(self) -> None:
        kinds = [
            ("forest", frozenset({"difficult", "light-cover"}), 0, None, 0),
            ("rocks", frozenset({"heavy-cover", "blocks-los"}), 0, None, 3),
            ("magma pool", frozenset({"difficult", "hazardous"}), 2, 3, 0),
            ("shallow water", frozenset({"difficult", "light-cover"}), 0, None, 0),
        ]
        for _ in range(3 + self.dice.below(3)):
            name, keywords, hazard, fire, size = kinds[self.dice.below(len(kinds))]
            ux, uy, ur = self.dice.u(), self.dice.u(), self.dice.u()
            x = 6.0 + ((self.board - 6) - 6.0) * ux  # uniform(6, board - 6)
            y = self.board * 0.3 + (self.board * 0.7 - self.board * 0.3) * uy  # uniform(30 %, 70 % of the board)
            r = 1.5 + (3.5 - 1.5) * ur  # uniform(1.5, 3.5)
            self.terrain.append(Terrain(name, x, y, r, keywords, hazard, fire, size))
        for side in (0, 1):
            fighters = self.sides[side]
            n = max(1, len(fighters))
            for k, f in enumerate(fighters):
                f.x = self.board * (k + 1) / (n + 1)
                depth = self.depth * (0.35 if k % 2 else 0.75)
                f.y = depth if side == 0 else self.board - depth
                if f.has("stealth"):  # at least 12" from enemies, on a flank
                    f.y = self.board * (0.35 if side == 0 else 0.65)
                    f.x = 3.0 if k % 2 else self.board - 3.0
            if self.logging:
                self.say(f"clan {side + 1}, {self.clan_names[side]}: " + ", ".join(f.name for f in fighters))
        for side in (0, 1):  # Combat Sense: no Stealth deployment within 18" of it
            sensers = [e for e in self.sides[1 - side] if e.has("combat-sense")]
            for f in self.sides[side]:
                if f.has("stealth"):
                    while any(dist(f, e) < 18 for e in sensers) and 0 < f.y < self.board:
                        f.y += -1.0 if side == 0 else 1.0
                    f.y = min(self.board, max(0.0, f.y))
        self.index_terrain()
        self.index_positions()
        for f in self.sides[0]:  # every distance between the clans, both ways
            self.place(f, f.x, f.y)
        for t in self.terrain:
            if self.logging:
                self.say(f"terrain: {t.name} at ({t.x:.0f}, {t.y:.0f}), radius {t.r:.1f}\"")

    def index_terrain(self) -> None:
        """The pieces each rule looks at, sorted once by keyword (the terrain never changes
        after setup): most moves, shots and lines of sight then skip the loop altogether."""
        self.hazards = [t for t in self.terrain if "hazardous" in t.keywords]
        self.difficult = [t for t in self.terrain if "difficult" in t.keywords]
        # each Difficult piece as (x, y, r) and its box widened by a hair, read by terrain_penalty()
        self.difficult_boxes = [
            (t.x, t.y, t.r, t.x - (t.r + 1e-6), t.x + (t.r + 1e-6), t.y - (t.r + 1e-6), t.y + (t.r + 1e-6))
            for t in self.difficult
        ]  # fmt: skip
        self.los_blockers = [t for t in self.terrain if "blocks-los" in t.keywords]
        self.covers = [
            (t, "heavy" if "heavy-cover" in t.keywords else "light")
            for t in self.terrain if "heavy-cover" in t.keywords or "light-cover" in t.keywords
        ]  # fmt: skip

    # -- queries --------------------------------------------------------------

    # -- damage and removal -----------------------------------------------------

    # -- statuses -------------------------------------------------------------

    # -- attacks ----------------------------------------------------------------

    # -- area attacks ------------------------------------------------------------

    # -- movement ---------------------------------------------------------------

    # -- God powers -------------------------------------------------------------

    # -- an activation ------------------------------------------------------------

    # -- rounds ---------------------------------------------------------------------

    def end_phase(self) -> None:
        for side in (0, 1):
            for f in self.living[side]:  # a removed model's statuses are never read again
                if f.incapacitated:
                    near = any(o.has("healer") and (not o.removed and not o.incapacitated) and gap(o, f) <= max(0, o.value("healer") or 0) + 0.05 for o in self.friends(f))
                    if not near:
                        self.remove(f, None, "not tended by a Healer")
                for stat in list(f.aid) if f.aid else ():
                    f.aid[stat] -= 1
                    if f.aid[stat] <= 0:
                        del f.aid[stat]
                for stat in list(f.drain) if f.drain else ():
                    f.drain[stat] -= 1
                    if f.drain[stat] <= 0:
                        del f.drain[stat]
                if f.berserk and not f.berserk_hit_this_round:
                    f.berserk = False
                    f.berserk_penalty = True
                f.berserk_hit_this_round = False
                if f.focus:
                    f.focus = {}
                f.shocked = f.terrified = f.blind = f.ice_sp = False
                if f.temp:
                    f.temp = {}
                f.sp_bonus = 0
                f.range_override = None
                f.clashes = 0
                if f.used_weapons:
                    f.used_weapons = set()
                f.war_god_used = False
                f.taunted_by = None
                f.taunt_forced = f.foresight_used = f.spotted = False
                f.activated = False
        self.powers_used = [set(), set()]

    def play_round(self) -> None:
        for side in (0, 1):
            self.godspark[side] += self.godspark_income
        a, b = self.natural(), self.natural()  # a 2d6 roll-off (engine assumption, tables.engine.notes)
        side = 0 if a >= b else 1
        living = self.living
        if self.logging:
            self.say(f"— round {self.round} — roll-off {a} / {b}: clan {side + 1} activates first (Godspark {self.godspark[0]} / {self.godspark[1]})")
        while True:
            f = self.policies[side].next_model(self, side)
            if f is None:
                f = self.policies[1 - side].next_model(self, 1 - side)
                if f is None:
                    break
                side = 1 - side
            self.activate(f)
            if not (living[0] and living[1]):  # a side wiped out (living lists only the unremoved)
                return
            # [Tactician] a model still on the table directs a friend within X" (one taken out or
            # incapacitated by its own activation directs nobody)
            x = f._values.get("tactician") if not f.removed and not f.incapacitated else None
            if x is None and f.temp and not f.removed and not f.incapacitated:
                x = f.value("tactician")
            if x is not None:
                helper = [o for o in self.friends(f) if not o.activated and (not o.removed and not o.incapacitated) and dist(f, o) <= x]
                follower = self.policies[f.side].directed(self, f, helper) if helper else None
                if follower is not None and follower in helper:
                    self.note(f.side, "tactician")
                    if self.logging:
                        self.say(f"  {f.name} directs {follower.name} (Tactician)")
                    self.activate(follower)
                    if not (living[0] and living[1]):
                        return
            side = 1 - side
        self.end_phase()

    def shares(self) -> tuple[float, float]:
        """Per side, the percentage of the *enemy's* Glory it took: what decides the game.

        A removed model counts its whole Glory, a wounded survivor the part of its Glory in
        proportion to the HP it lost (an Incapacitated model all of it).  Shares rather than
        absolute Glory let a stronger clan win clearly: by absolute Glory a clan cut by a fifth
        exposed a fifth less Glory and did as well as the full clan; the wounds make the score
        finer than whole models.
        """
        totals = [sum(f.cost for f in self.sides[s]) for s in (0, 1)]
        taken = [
            self.scores[1 - s] + sum(f.cost * (f.hp_max - max(f.hp, 0)) / f.hp_max for f in self.sides[s] if not f.removed and f.hp_max > 0)
            for s in (0, 1)
        ]  # Glory taken from side s
        return (
            100.0 * taken[1] / totals[1] if totals[1] else 0.0,
            100.0 * taken[0] / totals[0] if totals[0] else 0.0,
        )

    def play(self) -> GameRecord:
        """The whole game, from setup to the record (the garbage collector paused meanwhile:
        :func:`~armybuilder.core.engine.collector_paused`)."""
        with collector_paused():
            return self._play()

    def _play(self) -> GameRecord:
        self.setup()
        rounds = 0
        for rounds in range(1, self.max_rounds + 1):
            self.round = rounds
            self.play_round()
            if not (self.living[0] and self.living[1]):  # a side wiped out (living: the unremoved)
                break
        wiped = [not self.living[0], not self.living[1]]
        shares = self.shares()
        if wiped[0] and not wiped[1]:
            winner: int | None = 1
        elif wiped[1] and not wiped[0]:
            winner = 0
        elif shares[0] > shares[1]:
            winner = 0
        elif shares[1] > shares[0]:
            winner = 1
        else:
            winner = None
        if self.logging:
            self.say(f"result: {shares[0]:.0f} % to {shares[1]:.0f} % of the enemy's Glory taken "
                 f"({self.scores[0]:.0f} to {self.scores[1]:.0f} Glory in models removed); "
                 + ("draw" if winner is None else f"clan {winner + 1} wins"))  # fmt: skip
        records = [UnitRecord(f.side, f.name, float(f.cost), (not f.removed), f.kills) for s in (0, 1) for f in self.sides[s]]
        return GameRecord(winner, rounds, (self.scores[0], self.scores[1]), records, self.lines, None, self.used)


def _faces_of(dice: int, sides: int) -> list[int]:
    """The total of each of the ``sides ** dice`` equally likely rolls of ``dice`` dice, in order
    (2d6: 36 totals, 2 once ... 12 once): a uniform picks one, the exact chance step of the roll."""
    totals = [0]
    for _ in range(dice):
        totals = [t + face for t in totals for face in range(1, sides + 1)]
    return totals


#: the players (engine protocol): name -> a policy for one side of one game, the default first
POLICIES = {"warlord": WarlordPolicy, "brawler": BrawlerPolicy}


def play_game(cat: Catalogue, first: WarClan, second: WarClan, rng: np.random.Generator, log: bool = False, *,
              policies: tuple[str, str] | None = None) -> GameRecord:  # fmt: skip
    """One simulated game; all randomness from *rng*; ``policies`` names both sides' players
    (``POLICIES``; else ``warlord``)."""
    players = None if policies is None else (POLICIES[policies[0]](), POLICIES[policies[1]]())
    return Battle(cat, first, second, rng, log, players).play()


__all__ = ["POLICIES", "Battle", "Fighter", "Weapon", "play_game"]
