"""Whole Rag'Narok 2 battles on a table with scenery: the game loop and the engine's map.

The package, by what each module holds
--------------------------------------
- :mod:`.state`: the battle state — units (:class:`~.state.Fighting`), their fighter types
  (:class:`~.state.Group`: the troops, each Character and each independent with its own
  characteristics, combat dice, Wound levels and abilities), positions, spirit, orders;
  building a side from a list.
- :mod:`.chance`: the game's dice (uniforms from the injected generator, drawn in blocks);
  :mod:`.fray`: the fray's pure pieces — contact model, dice sharing, the contact's index of
  every combat's fighters (:class:`~.fray.Contact`: a combat reads its fighters, the enemies
  each touches and their dice without scanning the units), and every chance step of a
  combat as an explicit outcome distribution ``[(probability, outcome)]`` that the battle
  samples and an exact calculator can enumerate; :mod:`.tables`: memoised rule tables (contest
  columns, tests, balance rows, aim), keyed by value; :mod:`.wounds`: dealing Wounds.
- :mod:`.base`: :class:`~.base.BattleBase`, every field of a battle and the moves one phase
  asks of another, declared once. Every phase mixin below is a subclass of it, and
  :class:`Battle` is the one concrete class that combines them: so each phase's ``self`` is
  typed (mypy checks the engine) and the optional compiled build (mypyc) reads the fields and
  calls the moves natively. mypyc compiles several bases only when all but one are *traits*,
  hence the ``@trait`` marks (``mypy_extensions``: no-ops in plain Python). The players get the
  concrete :class:`Battle` (``cast`` where a phase hands itself to a policy).
- Rules by phase, one mixin each: :mod:`.strategic` (leadership, tactical roll, orders,
  tactics, rallying, Mutagenic dice), :mod:`.movement` (activations, assaults, Courage tests,
  flight), :mod:`.shooting`, :mod:`.combat` (frays, combats, exchanges), :mod:`.outcome`
  (outcome of the fray, morale, rout, push on, Implacable), :mod:`.mystic_phase` (rituals,
  communions, mana and faith), :mod:`.maintenance`.
- The players: :mod:`.policy` (the interface every choice goes through; one policy per side,
  so two policies can play each other), :mod:`.ai` (the yardsticks of the classic policy) and
  :mod:`.line_ai` (the line player: a posture each round, no lone charge into a gang-up in
  any round, a line that keeps its pace, targets on the exchange) and :mod:`.field_ai` (the
  default field player: opponents across the table, charges together, lanes and cover;
  :mod:`.field_deploy`, its deployment against the enemy's line).
- :mod:`.credibility`: mirror matches, full lists against cut copies, the samples' matrix.
- :mod:`.narration`: the narrated log's wording (the seed's words, English counts, the
  Initiative and morale rolls read back from the draw that decided them).

The battlefield model
---------------------
- **A table with two dimensions** (:mod:`.battlefield`, :mod:`.geometry`, :mod:`.space`): 180 ×
  120 cm with 20 cm deployment zones (decisions R2-T1, R2-T2 in the catalogue), the loser of a
  deployment roll deploying first and the other seeing it (R2-T8); a layout of
  scenery (open, standard, dense or a player's file: :mod:`..layouts`), the standard one placed
  afresh for each game from its seed. Units stand as blocks of bases in ranks and files
  (:mod:`.formation`, R2-T3, R2-T4) with a facing; distances are base edge to base edge; a
  unit's field of view is the 180 degrees before its front; sight between units and fighter by
  fighter follows R2-D10 (:mod:`.space`, :mod:`.sight`).
- **Movement** (seed: Movement table): March = MOV round obstacles, Run = MOV × 2 in a straight
  line, Charge and Engagement = MOV × 2 (the slowest member's MOV); a scattered unit files
  through gaps its close neighbours cannot pass, and a step aside where it stops counts in its
  allowance. Maneuvers with their Discipline tests (7) (:mod:`.movement`): a close unit
  reorients once, at the start of its activation, wheeling round a front corner within
  MOV × 2 or turning each fighter exactly 90° or 180° (never on cavalry bases), then moves no
  more; a Rearrangement widens its rows again; a scattered unit turns under 90° freely;
  sideward and backward moves (no backward move under an Assault order). Assaults with their
  reactions (Counter-charge, Withstand charge, Retreat) and Courage tests, and contact placed on
  the face reached, are in :mod:`.assault` and :mod:`.contact`; flight toward an edge or along
  the assault, round friends and scenery, in :mod:`.flight`.
- **Contact** (see :mod:`.fray`): a scattered unit can bring every fighter into contact, a close
  one its front (two ranks, at least 5 wide); independents lead the front; a unit engaged by
  several enemies splits its front between them; each side of a pair brings at most twice the
  other's fighters plus one; fighters touch along a common line.
- **The fray** (seed: Combat phase): combats between fighter types, picked in turn; combat dice
  shared between a fighter's combats (never rolled twice; DEF 0 where it kept none); an
  Initiative test per combat (+3 after a successful charge when the assailant's Power is at least the assailed unit's: the Assault section's condition); the first striker's losses are
  removed before the reply; Wounds go to the opponents in contact, the surplus spreads over a
  scattered unit and is lost on a close one; extra exchanges for the fighters that used a die and
  are still in contact. Outcome per pair of units designated in turn, morale by balance of
  Power; rout eliminates the fighters in contact and the others flee MOV × 2; routed units are
  never designated; push on; Implacable combats. A unit in a fray may try Progress
  (Disengagement): INI or STR less the lowest RES in contact, (8); the fighters engaged on two
  sides fall and the rest march away, or it cannot attack in that combat phase.
- **Shooting** uses the weapon's bands on the distance; Aim difficulties and modifiers from the
  catalogue's table; only marksmen with a line of sight shoot, only visible fighters (of a close
  unit, those on the faces turned to the marksmen) can be eliminated, surplus Wounds are lost,
  and a later volley aims at the fighters an earlier one laid bare; template weapons need no
  sight; half the hits of a volley into a fray go to the friends in it (:mod:`.shooting`,
  :mod:`.sight`).
- **Tactics** (:mod:`.strategic`): a tactic is given only to a unit that meets its card's
  condition then (order, rank, formation, numbers: Brutality under an Assault order); rank I
  units suffer its drawback (Unfailing wall: no Run, no charge, no counter-charge); the player
  weighs a drawback that forbids what the unit is set to do against the tactic.
- **Leadership auras** and mystic ranges are measured on the table, from the base of the
  commander, musician, standard bearer or caster where he stands to the nearest base of the
  other unit (edge to edge); only Valiant
  commanders share; standard bearer, musician and war staff bonuses go on the final result; the
  Commander-in-Chief's privilege within his aura; routed units rally with the auras they stand in.
- **Victory** (the seed names none): after six rounds, or when an army has no unit left that
  still fights, the side that eliminated or routed the larger share of the enemy army's A.P.
  wins; shares closer than 5 points are a draw.

Remaining simplifications, each with its reason
-----------------------------------------------
- The table is flat: no levels, so the seed's rules for another altitude (Aim +2, a mystic's
  -2, a counter-charge "at the same level of altitude") never apply; the layouts have no hills
  to stand on (decision R2-T5), and scenery acts only as an obstacle and as cover (the seed
  names no movement penalty for scenery on the ground).
- A unit is one rectangular block with one facing: its fighters keep their slots in the block
  (1 cm apart when scattered) rather than being placed one by one, and the whole unit sees
  through its front's 180° (the seed has every fighter of a unit face the same way; one view
  per unit keeps sight to one test per pair of units).
- A move round obstacles is planned in at most two straight legs (one corner of a piece or a
  unit): a target right behind the middle of a piece, reachable only round two corners, is not
  offered as an Engagement; a fleeing unit likewise steps off its line once and runs on along
  it. A grid path planner would cost the playtests' speed for rare cases.
- Contact stays a model fed by positions (:mod:`.contact`): the assailants on the face they
  reached, as many as the face and the target's flanks hold, the rest following; each side of
  a pair brings at most twice the other's fighters plus one (a Withstand charge brings that
  many), and who faces whom inside a unit (independents in the middle of the front rank) is
  fixed, not chosen: the exact fray enumerates combats over those contacts.
- A fighter's DEF in a combat is its type's: it is 0 only when none of the fighters of that
  type in the combat kept a die there (the seed gives each fighter its own DEF; one roll per
  combat needs one DEF).
- A group keeps at most one wounded fighter (Wound levels): enough for the seed's allocation
  (eliminate as many as possible finishes the wounded first); fighters regenerated together
  come back whole but one.
- Surplus Wounds on a scattered unit reach every fighter of the type (the seed: those within
  2.5 cm, which a scattered unit's coherence makes nearly all).
- Push on moves a free unit into an enemy still in the fray within MOV; the order of pushes is
  the side that inflicted most Wounds first; a unit free of opponents pursues nobody else.
- Implacable combats take the Implacable fighter types still in contact after the outcome, when
  their unit caused a loss (removed an opponent) in the combats just fought: the seed's "causes
  at least one loss" is read per unit, since the fray does not follow which fighter struck whom.
- Mutagenic bonuses go to ATT only (the AI's use of them); Concentration to ATT.
- Powers doubled in a charge are also those of the outcome's balance of Power in that round.
- Tactics, rituals and communions act through data and named hooks (:mod:`.mystic_phase`);
  teleportation, telluric manipulation and the oracle of destiny do nothing (they would move
  units or scenery the AI does not plan with).
- Abilities outside the seeds (Confrontation cards) are listed as unhandled, not simulated.
- The AI (policies) is a heuristic player; its choices are legal, not optimal.

The same .py files run as plain Python or compiled by mypyc (see docs/architecture.md); both play the
same games (``tests/ragnarok2/test_r2_native_parity.py``). Annotations are what the values
are: compiled code enforces them (a ``float`` field would store 10 as 10.0 and change a log).

All randomness comes from the injected ``numpy.random.Generator``; every choice is broken by a
stable order (unit and group indices, integer scores), so fixed-seed games are the same on any
number of workers (golden narrated games: ``tests/ragnarok2/test_r2_digests.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.shapes import BattleMap, MapFrame, MapPiece, MapUnit
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import R2List
from ..catalog import Profile
from .ai import AIRules
from .assault import AssaultRules
from .battlefield import Battlefield, battlefield_for
from .chance import Dice
from .combat import CombatRules
from .field_ai import POLICIES, FieldPolicy
from .flight import FlightRules
from .geometry import Box
from .maintenance import MaintenanceRules
from .movement import ActivationPhase
from .mystic_effects import COMMUNION_EFFECTS, RITUAL_EFFECTS, MysticEffect  # noqa
from .mystic_phase import MysticRules
from .narration import say_end
from .odds import contest_columns
from .outcome import OutcomeRules
from .policy import Policy
from .recorder import Recorder
from .shooting import ShootingRules
from .space import SpaceRules

# The engine's public names, for callers and tests that import them from here.
from .state import LAST_SIDE_TEMPLATE, SIDE_TEMPLATES, Fighting, Group, build_side  # noqa: E402,F401
from .strategic import StrategicPhase
from .tables import (  # noqa: E402,F401
    BALANCE_ROW_CACHE,
    CONTEST_TABLES,
    MAX_ROUNDS,
    aim_difficulty,
    balance_of_power,
    balance_rows,  # noqa: E402
    combat_dice,
    contest_cdf,
    opposed_chance,
    pass_chance,
    power_of,
    row_value,
    wound_levels,
)
from .wounds import allocate_wounds  # noqa: E402,F401

DRAW_MARGIN_PERCENT = 5  # shares of the enemy army destroyed closer than 5 points: a draw

# layout_spec() answers by (catalogue hash, layout name): a playtest reads its layout once.
_SPECS: dict[tuple[str, str | None], dict[str, Any]] = {}

#: the phases a game's A.P. are destroyed in (GameRecord.figures: "ap <phase>")
PHASES = ("shooting", "fray", "rout", "disengagement", "mystic", "other")


def table_spec(cat: Catalogue, table: str | dict[str, Any] | None) -> dict[str, Any]:
    """The layout a game is played on: a spec as it is, a bundled layout's name or a file's
    path (read once per catalogue), or None for the default (the standard table)."""
    if isinstance(table, dict):
        return table
    key = (cat.hash, table)
    spec = _SPECS.get(key)
    if spec is None:
        from ..layouts import layout_spec

        if len(_SPECS) > 32:
            _SPECS.clear()
        spec = _SPECS[key] = layout_spec(cat, table)
    return spec


# --------------------------------------------------------------------------- the game


class Battle(
    AIRules, StrategicPhase, ActivationPhase, AssaultRules, FlightRules, ShootingRules, MysticRules, CombatRules,
    OutcomeRules, MaintenanceRules, SpaceRules,
):  # fmt: skip
    """One game between two lists on a table; ``play()`` returns its :class:`GameRecord`."""

    # Slots: every phase reads self.x in its hot loops, and slot reads stay fast however many
    # fields the engine keeps (a plain instance dict gets slower past 29 keys on CPython 3.11).
    __slots__ = (
        "cat", "data", "table", "dice", "logging", "max_rounds", "lines", "sides", "info",
        "winner_of_roll", "scores", "cic_index", "cic_profile", "temporary_cic", "dis_penalty",
        "aura_units", "mystic_units", "outcome_rows", "fear_rows", "round", "field_effects",
        "_tactic_cost", "_tactical_memo", "_mystic_sums", "_charge_bound",
        "_cic_seen", "_upkeep", "policies", "round_memo", "loss_caused",
        "field", "gaps", "sight_memo", "sight_lines", "spot_memo", "world", "trials", "table_changes", "plans", "plans_layout", "reshape_to", "recorder", "phase", "destroyed", "frays_fought", "_logged", "deployed",
    )  # fmt: skip

    def __init__(
        self, cat: Catalogue, first: R2List, second: R2List, rng: np.random.Generator, log: bool = False,
        rounds: int = MAX_ROUNDS, policies: tuple[Policy, Policy] | None = None,
        table: str | dict[str, Any] | None = None, record: bool = False,
    ) -> None:  # fmt: skip
        self.cat = cat
        self.round_memo: dict = {}  # the players' answers that hold for a round (cleared each round)
        # Unit keys that removed at least one opponent in the combats being fought (Implacable/X
        # reads it: "causes at least one loss"); emptied when a fray or an Implacable round begins.
        self.loss_caused: set[int] = set()
        self.policies = policies if policies is not None else (FieldPolicy(), FieldPolicy())
        self.data = cat.data
        self.table = cat.hash
        if self.table not in CONTEST_TABLES:
            CONTEST_TABLES[self.table] = tuple(contest_columns(cat))
        # The table first, from the game's generator (scattered scenery), then the dice.
        self.field: Battlefield = battlefield_for(table_spec(cat, table), rng)
        self.dice = Dice(rng)
        self.logging = log
        self.max_rounds = rounds
        self.lines: list[str] = []
        self.gaps: dict[int, tuple[int, int, float]] = {}
        self.sight_memo: dict[int, tuple[int, bool]] = {}
        self.sight_lines: dict[int, tuple[Box, Box, list[tuple[Box, int]], bool]] = {}
        self.spot_memo: dict[int, tuple[int, tuple[int, float, float, float, float]]] = {}
        self.world = 0
        self.trials = 0
        self.plans: dict = {}
        self.plans_layout: list = []
        self.reshape_to = 0
        self.recorder: Recorder | None = Recorder() if record else None
        self.phase = "other"
        self.destroyed: dict[str, float] = {}
        self.frays_fought = 0
        self._logged = 0
        a, info_a = build_side(cat, first, 0)
        b, info_b = build_side(cat, second, 1)
        self.sides = [a, b]
        self.table_changes = [0]
        for u in a + b:
            u.table_changes = self.table_changes
        self.info = [info_a, info_b]
        self.winner_of_roll = 0
        self.scores = [0.0, 0.0]  # A.P. each side eliminated or routed
        self.cic_index: list[int | None] = [
            info_a["cic"][0] if info_a["cic"] else None,
            info_b["cic"][0] if info_b["cic"] else None,
        ]
        self.cic_profile: list[Profile | None] = [
            info_a["cic"][1] if info_a["cic"] else None,
            info_b["cic"][1] if info_b["cic"] else None,
        ]
        self.temporary_cic = [False, False]
        self.dis_penalty = [0, 0]
        # Units with a commander, musician or standard bearer, in side order: these fields are
        # fixed for the game, so update_leadership() scans only them for auras.
        self.aura_units = [[a[i] for i in info_a["aura_at"]], [b[i] for i in info_b["aura_at"]]]
        # Units with magicians, faithful, Devotion or Martyr (fixed for the game): the mystic phase's only concern.
        self.mystic_units = [[a[i] for i in info_a["mystic_at"]], [b[i] for i in info_b["mystic_at"]]]
        tables = self.data.tables
        rows = BALANCE_ROW_CACHE.get(self.table)  # by the catalogue's content hash
        if rows is None:
            if len(BALANCE_ROW_CACHE) > 32:
                BALANCE_ROW_CACHE.clear()
            # Tuples: row_value() takes a tuple as already sorted (strongest balance first).
            rows = BALANCE_ROW_CACHE[self.table] = (
                tables, balance_rows(tables.outcome_of_fray), balance_rows(tables.fear_balance)
            )
        self.outcome_rows, self.fear_rows = rows[1], rows[2]
        self.round = 0
        self.field_effects: dict[str, int] = {}
        self._tactic_cost = tables.tactical.tactic_cost if tables.tactical else 2
        self._tactical_memo: Any = None  # tactical_roll()'s points by (total, category, staffs)
        # mystic_phase(): per mystic unit, (its damage_memo when computed, its members' sums: see there)
        self._mystic_sums: dict[Fighting, tuple] = {}
        self._charge_bound: tuple = (None, -1)
        self._cic_seen: list[tuple | None] = [None, None]  # (profile, _cic_facts()) of each side's C.-in-C.
        # Units maintenance() must visit: dealt Wounds since the last one, or with Reinforcements
        # waiting or a wounded Regenerating fighter (filled by deal(), renewed by maintenance()).
        self._upkeep: set[Fighting] = set()
        self.deployed: list[int] = []
        roll = self.deploy()
        if log:
            for line in self.field.describe():
                self.say(line)
            self.say("positions: (x, y) in cm, x from the left edge as side 1 sees the table, y from side 1's edge;"
                     " a unit's is the middle of its front edge; distances are base edge to base edge")  # fmt: skip
            for side, info in enumerate(self.info):
                if info["unhandled"]:
                    # Abilities outside the seeds (Confrontation cards): kept, not simulated.
                    self.say(f"side {side + 1}: abilities without a simulated effect: {', '.join(info['unhandled'])}")
            self.say(roll)
            for side in self.deployed:
                placed = ", ".join(f"{u.name} at ({u.x:.0f}, {u.y:.0f}){' (hidden Scouts)' if u.hidden else ''}" for u in self.sides[side])
                self.say(f"side {side + 1} deploys: {placed}")
        self.snapshot("deployment")

    # -- the whole game -------------------------------------------------------

    def standing(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[side] if u.alive and u.state != "rout"]

    def any_standing(self, side: int) -> bool:
        for u in self.sides[side]:
            if u.alive and u.state != "rout":
                return True
        return False

    def snapshot(self, caption: str) -> None:
        """A frame of the replay: every unit where it stands, and the log since the last frame."""
        rec = self.recorder
        if rec is None:
            return
        units = []
        for side in (0, 1):
            for u in self.sides[side]:
                if not u.alive or u.state == "gone":
                    continue
                corners = u.box().corners()
                outline = (corners[0], corners[1], corners[2], corners[3])
                units.append(MapUnit(u.side, u.name, outline, (u.ux, u.uy), u.count, u.state, u.order, bool(u.engaged)))
        events = tuple(self.lines[self._logged:])
        self._logged = len(self.lines)
        rec.frames.append(MapFrame(self.round, caption, tuple(units), events))

    def battle_map(self, names: tuple[str, str]) -> BattleMap | None:
        """The game's replay (None unless the battle was asked to record one)."""
        rec = self.recorder
        if rec is None:
            return None
        field = self.field
        pieces = tuple(
            MapPiece(p.name, tuple(p.box.corners()), p.height, p.impassable, p.round) for p in field.pieces
        )
        return BattleMap(
            f"{field.title} ({field.name})", field.width, field.depth, (field.zone(0), field.zone(1)), pieces,
            tuple(rec.frames), names,
        )  # fmt: skip

    def play(self) -> GameRecord:
        rounds = 0
        for rounds in range(1, self.max_rounds + 1):
            self.round = rounds
            self.field_effects = {}
            self.round_memo = {}
            if self.logging:
                self.say(f"— round {rounds} —")
            self.phase = "other"
            self.update_leadership()
            points = self.tactical_roll()
            points = self.give_orders(points)
            self.buy_and_give_tactics(points)
            self.rally()
            self.mutagenic_dice()
            self.phase = "activation"
            self.activation()
            self.combat()
            self.snapshot("combat phase")
            self.phase = "mystic"
            self.mystic_phase()
            self.phase = "other"
            self.maintenance()
            if not self.any_standing(0) or not self.any_standing(1):
                break
        # Units still routing at the end count as routed (their A.P. to the enemy).
        self.phase = "rout"
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state == "rout":
                    self.scores[1 - side] += u.points_alive()
                    self.record_loss(side, u.points_alive())
        costs = []
        for side in (0, 1):
            # The list's total cost, once per template (its units' costs are fixed).
            info = self.info[side]
            total = info.get("total_cost")
            if total is None:
                total = info["total_cost"] = sum(u.cost for u in self.sides[side])
            costs.append(total)
        # The winner destroyed the larger share of the enemy army (A.P. eliminated or routed over
        # the enemy list's A.P.); shares within DRAW_MARGIN of each other are a draw. Shares, not
        # raw A.P.: a smaller list has fewer A.P. to lose, so raw A.P. favoured it (the seed
        # names no victory condition; see the module doc). Integer cross-products: no float ties.
        a_share_num, a_share_den = int(self.scores[0]), max(costs[1], 1)
        b_share_num, b_share_den = int(self.scores[1]), max(costs[0], 1)
        gap_num = a_share_num * b_share_den - b_share_num * a_share_den  # (share A - share B) * dens
        winner = None if abs(gap_num) * 100 < DRAW_MARGIN_PERCENT * a_share_den * b_share_den else (0 if gap_num > 0 else 1)
        standing = [self.any_standing(0), self.any_standing(1)]
        if standing[0] and not standing[1]:
            winner = 0
        elif standing[1] and not standing[0]:
            winner = 1
        if self.logging:
            say_end(self, rounds, costs, winner, standing)
        self.snapshot("end of the game")
        records = []
        for side in (0, 1):
            for u in self.sides[side]:
                up = u.alive and u.state != "rout"
                # Characters are named apart from their unit (their own A.P., fate and kills).
                characters = [g for g in u.groups if g.character and g is not u.groups[0]]
                own = sum(g.kills for g in characters)
                records.append(UnitRecord(u.side, u.name, float(u.cost - sum(g.cost for g in characters)), up, u.kills - own))
                for g in characters:
                    records.append(
                        UnitRecord(u.side, f"{g.profile.name} (Character, {u.name})", float(g.cost), up and g.count > 0, g.kills)
                    )
        figures = {f"ap {phase}": points for phase, points in self.destroyed.items()}
        figures["frays"] = float(self.frays_fought)
        record = GameRecord(winner, rounds, (self.scores[0], self.scores[1]), records, self.lines, figures=figures)
        return record


def play_game(
    cat: Catalogue,
    first: R2List,
    second: R2List,
    rng: np.random.Generator,
    log: bool = False,
    rounds: int = MAX_ROUNDS,
    *,
    table: str | dict[str, Any] | None = None,
    replay: bool = False,
    policies: tuple[str, str] | None = None,
) -> GameRecord:
    """One simulated game on *table* (a layout spec, name or file; None: the standard table);
    all randomness from *rng*. *replay*: keep the frames of its replay (``GameRecord.map``);
    *policies*: both sides' players by name (``POLICIES``; else ``field``)."""
    players = None if policies is None else (POLICIES[policies[0]](), POLICIES[policies[1]]())
    battle = Battle(cat, first, second, rng, log, rounds, players, table=table, record=replay)
    result = battle.play()
    if replay:
        result.map = battle.battle_map((first.name, second.name))
    return result
