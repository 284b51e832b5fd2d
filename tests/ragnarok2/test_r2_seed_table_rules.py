"""The seed's rules that need space, each replayed on the table from the seed's own words:
targets of a close unit, template weapons, Engagement, obstacles, contact, flight, the three
reactions, maneuvers, leadership auras and push on (seed: Line of sight, Activation phase,
Movements, Maneuvers, The obstacles, Movement during an assault, Shooting, Fleeing,
Leadership, Push on; R2-D10, R2-T3 to R2-T5)."""

from __future__ import annotations

import numpy as np
import pytest
from r2engine_data import build_catalogue
from r2table import ManyWounds, aside, battle, face_off, reacting, stand

from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.engine.abilities import traits_of
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.chance import Dice
from armybuilder.systems.ragnarok2.engine.fray import unit_key
from armybuilder.systems.ragnarok2.engine.geometry import boxes_overlap
from armybuilder.systems.ragnarok2.engine.sight import aims
from armybuilder.systems.ragnarok2.engine.strategic import aura_centre, aura_gap


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("seed-table"))


def army(people: str, *units) -> R2List:
    """(troops, count, members...) per unit; the templar and the beast chief lead the army."""
    return R2List(
        catalogue="1.0.0", format="1000-ap", name="t", people=people,
        units=[
            Unit(troops=Troops(profile=p, count=n) if n else None,
                 members=[Member(profile=m, commander_in_chief=m in ("templar", "chief")) for m in ms])
            for p, n, *ms in units
        ],
    )  # fmt: skip


class AllWounds(Dice):
    """Every marksman hits and every hit wounds: as many Wounds as the volley can give."""

    def binomial(self, n: int, p: float) -> int:
        return n

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        return len(cdf) - 1


class Passes(Dice):
    """Every test passes (chance() is always won)."""

    def chance(self, p: float) -> bool:
        self.u()
        return True


class Fails(Dice):
    def chance(self, p: float) -> bool:
        self.u()
        return False


def contact_count(bt: Battle, x, y) -> int:
    """Fighters of *x* touching an enemy in the contact of the fray of *x* and *y*."""
    fighters = bt.build_contact(sorted((x, y), key=lambda u: (u.side, u.index)))
    return sum(1 for f in fighters[unit_key(x.side, x.index)] if f.touches)


# -- shooting ---------------------------------------------------------------------------------


def test_only_the_front_of_a_close_unit_can_be_targeted(ecat):
    """Seed (Attributing the targets): "A marksman who shoots at a unit in close formation
    cannot target a fighter even partially behind another element of the same unit"; (Removing
    the losses) "A volley cannot cause more losses than the number of fighters targeted." Nine
    fusiliers, all at short range, whose every shot would kill, take the front rank of ten
    conscripts (five) and no more."""
    bt = battle(ecat, army("griffin", ("fusilier", 9)), army("griffin", ("conscript", 10)))
    shooters, target = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, shooters, target, 15.0)
    assert target.close and target.files == 5
    bt.dice = AllWounds(np.random.default_rng(0))
    bt.shoot(shooters)
    assert target.count == 5


def test_any_fighter_of_a_scattered_unit_can_be_targeted(ecat):
    """Seed (Formations): "a unit of marksmen can target any fighter in a scattered unit": the
    same volley at ten scattered warriors takes them all."""
    bt = battle(ecat, army("griffin", ("fusilier", 9)), army("beasts", ("warrior", 10)))
    shooters, target = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, shooters, target, 15.0)
    bt.dice = AllWounds(np.random.default_rng(0))
    bt.shoot(shooters)
    assert target.count == 0


def test_a_later_volley_aims_at_the_rank_laid_bare(ecat):
    """Seed (Resolving volleys): "If the targets previously aimed at have been eliminated by a
    previous volley, the marksmen can aim at newly visible fighters." The fusiliers' front rank
    is at short range and kills the conscripts' front rank; the second rank, at medium range,
    shoots after it at the fighters now exposed."""
    bt = battle(ecat, army("griffin", ("fusilier", 10)), army("griffin", ("conscript", 10)))
    shooters, target = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, shooters, target, 19.0)  # front rank 19 cm (short, <= 20), second rank 21.5 cm (medium)
    bands = sorted({round(a.distance) for a in aims(bt, shooters, 0, target, 0)})
    assert bands[0] <= 20 < bands[-1]
    bt.dice = AllWounds(np.random.default_rng(0))
    bt.lines.clear()
    bt.shoot(shooters)
    assert target.count == 0
    assert any("short range" in line for line in bt.lines) and any("medium range" in line for line in bt.lines)


def test_a_unit_eliminated_by_a_volley_no_longer_hides_what_stood_behind_it(ecat):
    """Seed (Line of sight; Resolving volleys): what blocks a sight line is what stands on the
    table now. Ten warriors stand between the fusiliers and ten more; the volley eliminates the
    first ten, and the fusiliers see the second unit at once, in the same phase, with no unit
    having moved since."""
    bt = battle(ecat, army("griffin", ("fusilier", 9)), army("beasts", ("warrior", 10), ("warrior", 10)))
    shooters, screen, behind = bt.sides[0][0], bt.sides[1][0], bt.sides[1][1]
    aside(bt, shooters, screen, behind)
    stand(bt, shooters, 90.0, 40.0)
    stand(bt, screen, 90.0, 55.0)
    stand(bt, behind, 90.0, 75.0)
    assert bt.sees(shooters, screen) and not bt.sees(shooters, behind)
    bt.dice = AllWounds(np.random.default_rng(0))
    bt.shoot(shooters)
    assert screen.state == "gone"
    assert bt.sees(shooters, behind)


# A building (12 cm high: Very large) between the two units.
BUILDING = {"name": "building", "kind": "building", "width": 30, "depth": 8, "height": 12, "impassable": True, "x": 90, "y": 55}


def test_a_template_weapon_needs_no_line_of_sight(ecat):
    """Seed (Shooting): "Template weapons (area of effect artillery) are not subjected to this
    rule. The Wound rolls it inflicts can eliminate target even partially covered by the
    template, even if they are out of the marksmen's line of sight." Behind a building no
    fusilier sees the warriors; the same crew with a template (heavy zone artillery) hits them."""
    bt = battle(ecat, army("griffin", ("fusilier", 5)), army("beasts", ("warrior", 10)), BUILDING)
    crew, target = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, crew, target, 30.0)
    assert aims(bt, crew, 0, target, 0) == [] and not bt.sees(crew, target)
    bt.dice = ManyWounds(np.random.default_rng(0))
    bt.shoot(crew)
    assert target.count == 10  # plain marksmen: nobody to shoot at
    crew.groups[0].traits = traits_of(("heavy-zone-artillery",))
    crew.__post_init__()
    bt.lines.clear()
    bt.shoot(crew)
    assert target.count < 10
    assert any("no line of sight needed" in line for line in bt.lines)


# -- assaults -------------------------------------------------------------------------------------


SMALL_BUILDING = {"name": "building", "kind": "building", "width": 8, "depth": 6, "height": 12, "impassable": True, "x": 90, "y": 53}


def test_an_engagement_goes_round_the_building_without_the_charge_bonus(ecat):
    """Seed (Assault (Engagement)): "The Engagement allows to assault a unit within the angle of
    vision of the unit ... but on which it doesn't have a line of sight (obstacle, etc.)...
    This Movement can be done bypassing obstacles... If the assault succeeds, the assailing unit
    does not benefit from the charge bonus." The warriors behind the building are engaged
    round it; the brontops riders (MOV 15) end in contact, clear of the building, with no +3."""
    bt = battle(ecat, army("beasts", ("brontops", 2)), army("beasts", ("warrior", 2)), SMALL_BUILDING)
    u, e = bt.sides[0][0], bt.sides[1][0]
    aside(bt, u, e)
    stand(bt, u, 90.0, 48.0)
    stand(bt, e, 104.0, 62.0)  # behind the building's corner, out of sight
    assert not bt.sees(u, e) and bt.in_view(u, e)
    options = bt.assault_options(u)
    assert [(o.foe, o.kind) for o in options] == [(e, "engagement")]
    bt.dice = Passes(np.random.default_rng(0))  # (the riders are frightening: the warriors hold)
    bt.resolve_assault(u, e, "engagement")
    assert e.index in u.engaged and not u.charged and not u.charge_bonus
    assert not boxes_overlap(u.box(), bt.field.blocking[0].box)


GAP_PIECES = (
    {"name": "left", "kind": "ruin", "width": 26, "depth": 1, "height": 5, "impassable": True, "x": 73, "y": 41.5},
    {"name": "right", "kind": "ruin", "width": 26, "depth": 1, "height": 5, "impassable": True, "x": 107, "y": 41.5},
)  # an 8 cm gap between x 86 and 94, 1.5 cm before a unit standing at y 40


def test_a_scattered_unit_files_through_a_gap_a_close_unit_cannot(ecat):
    """Seed (The obstacles): "If the unit is in close formation it must bypass the obstacle
    making sure all the fighters stay in formation in this movement. If the unit is in
    scattered formation, it can bypass the obstacle freely; its fighters only need to be in
    formation at the end of the movement." An 8 cm gap: the scattered warriors (16.5 cm wide)
    march through it and stand in formation beyond; the close conscripts (12.5 cm) cannot."""
    for people, profile, through in (("beasts", "warrior", True), ("griffin", "conscript", False)):
        bt = battle(ecat, army(people, (profile, 10)), army("beasts", ("warrior", 5)), *GAP_PIECES)
        u = bt.sides[0][0]
        aside(bt, u)
        stand(bt, u, 90.0, 40.0)
        assert u.close == (not through) and u.width > 8.0
        bt.move_unit(u, 90.0, 60.0, False, 0.0, "Progress")
        for piece in bt.field.blocking:
            assert not boxes_overlap(u.box(), piece.box)
        beyond = u.box().bounds()[1] > 42.0  # its rear beyond the ruins' line
        assert beyond == through, (people, u.x, u.y)


def test_assailants_are_placed_on_the_closest_fighters_as_many_as_the_bases_allow(ecat):
    """Seed (Movement during an assault): "Each assailant must be moved in contact with the
    closest fighter among the unit targeted... They must assail as many enemies as their base
    allows them to... The units of fighters which are not within assault reach do not engage
    any opponent. They simply follow their companions into combat." Twelve warriors charge five
    conscripts in one rank 12.5 cm wide: the face and its two ends hold seven of them; all five
    conscripts are assailed; the others follow behind."""
    bt = battle(ecat, army("beasts", ("warrior", 12)), army("griffin", ("conscript", 5)))
    u, e = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, u, e, 5.0)
    bt.resolve_assault(u, e, "charge")
    assert e.index in u.engaged
    touching = contact_count(bt, u, e)
    assert 5 <= touching <= 7
    assert contact_count(bt, e, u) == 5


def test_creature_bases_assail_two_opponents_each(ecat):
    """Seed (Movement during an assault): "Miniatures on creature or Large creature bases can
    assail two opponents at a time. They use this advantage against opponents on infantry or
    cavalry (front and rear only) bases." (R2-T3: Large fighters on foot stand on creature
    bases.) Two marauders assail four conscripts of a rank of ten; two warriors on infantry
    bases assail fewer."""
    seen = {}
    for profile in ("marauder", "warrior"):
        bt = battle(ecat, army("beasts", (profile, 2)), army("griffin", ("conscript", 10)))
        u, e = bt.sides[0][0], bt.sides[1][0]
        face_off(bt, u, e, 5.0)
        bt.resolve_assault(u, e, "charge")
        assert e.index in u.engaged
        seen[profile] = contact_count(bt, e, u)
    assert seen["marauder"] >= 4 and seen["marauder"] > seen["warrior"]



def test_creature_bases_assail_one_opponent_on_a_flank(ecat):
    """Seed (Movement during an assault): creature bases use their two opponents at a time
    "against opponents on infantry or cavalry (front and rear only, see the diagram) bases".
    Two marauders charge the left flank of ten conscripts (five files, two ranks): they assail
    the two fighters at the ends of the ranks, as two warriors on infantry bases do, not four."""
    seen = {}
    for profile in ("marauder", "warrior"):
        bt = battle(ecat, army("beasts", (profile, 2)), army("griffin", ("conscript", 10)))
        u, e = bt.sides[0][0], bt.sides[1][0]
        aside(bt, u, e)
        stand(bt, u, 90.0, 40.0)
        stand(bt, e, 90.0 + e.depth / 2.0, 45.0 + e.width / 2.0, facing=(1.0, 0.0))  # its left flank toward u
        bt.resolve_assault(u, e, "charge")
        assert e.index in u.engaged and e.faces[u.index] in (1, 3)  # a flank
        seen[profile] = contact_count(bt, e, u)
    assert seen["marauder"] == seen["warrior"] == 2


def test_creature_bases_assail_one_opponent_on_a_creature_base(ecat):
    """Seed (Movement during an assault): the two opponents at a time are taken on infantry or
    cavalry bases only. Two marauders charge the front of six marauders: they meet the three
    bases their frontage overlaps, not four."""
    bt = battle(ecat, army("beasts", ("marauder", 2)), army("beasts", ("marauder", 6)))
    u, e = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, u, e, 5.0)
    bt.resolve_assault(u, e, "charge")
    assert e.index in u.engaged and e.faces[u.index] == 0
    assert contact_count(bt, e, u) == 3


# -- flight -----------------------------------------------------------------------------------------


def test_a_fleeing_unit_heads_for_the_closest_edge(ecat):
    """Seed (Fleeing): "If an assault caused the flight, the unit moves in the same direction as
    the assault. In any other case, it must head for the closest edge of the table." Routed
    warriors 25 cm from the left edge, far from the others, flee MOV x 2 toward it."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 10)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 25.0 + u.width / 2.0, 60.0)
    u.state = "rout"
    x0, y0 = u.box().cx, u.box().cy
    bt.flee(u)
    # its fighters turn where they stand and run MOV x 2 (the block's middle moves that far)
    assert u.alive and (u.box().cx, u.box().cy) == pytest.approx((x0 - 2 * u.mov, y0), abs=0.6)
    assert (u.ux, u.uy) == pytest.approx((-1.0, 0.0))


def test_a_unit_fleeing_an_assault_runs_the_way_the_assault_went(ecat):
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 10)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 40.0, 50.0)
    u.state = "rout"
    before = u.box()
    bt.flee(u, (0.0, 1.0))  # assailed from behind (from y < 50): it runs toward y > 50
    after = u.box()
    assert after.cy - before.cy == pytest.approx(2 * u.mov, abs=0.6) and abs(after.cx - before.cx) < 0.6


def test_a_fleeing_unit_goes_round_a_friend_and_never_through_it(ecat):
    """Seed (Fleeing): "When a unit flees, it must bypass all friendly units and elements of
    scenery." A friendly unit stands in the line of flight: the routed unit turns off its line
    and runs past it."""
    bt = battle(ecat, army("beasts", ("warrior", 6), ("warrior", 6)), army("griffin", ("conscript", 10)))
    u, friend = bt.sides[0][0], bt.sides[0][1]
    aside(bt, u, friend)
    stand(bt, u, 60.0, 50.0)
    stand(bt, friend, 66.0, 66.0)  # 10 cm ahead, half across the line of flight (y grows)
    u.state = "rout"
    y0 = u.box().cy
    bt.flee(u, (0.0, 1.0))
    assert u.alive and not boxes_overlap(u.box(), friend.box())
    # round the friend and on its way: more than half its MOV x 2 along the line of flight
    assert u.box().cy - y0 > u.mov


def test_a_unit_that_flees_off_the_table_is_eliminated(ecat):
    """Seed (Fleeing): "A fleeing unit is eliminated in the following cases: At least one of its
    members leaves the battlefield by any edge"."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 10)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 8.0 + u.width / 2.0, 60.0)
    u.state = "rout"
    bt.flee(u)
    assert not u.alive and u.state == "gone"
    assert any("off the table" in line for line in bt.lines)


def test_a_unit_that_flees_into_an_enemy_is_eliminated(ecat):
    """Seed (Fleeing): "As it flees, it comes in contact with an enemy unit"."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 10)))
    u, e = bt.sides[0][0], bt.sides[1][0]
    aside(bt, u, e)
    stand(bt, u, 60.0, 50.0)
    stand(bt, e, 60.0, 65.0)
    u.state = "rout"
    bt.flee(u, (0.0, 1.0))
    assert not u.alive
    assert any("into an enemy unit" in line for line in bt.lines)


# -- reactions ---------------------------------------------------------------------------------------


def reacting_conscripts(ecat, conscripts: int, gap: float, reaction: str, dice: type[Dice], *, turned: bool = False, order: str = "reaction"):
    """Five warriors (side 1) *gap* cm in front of *conscripts* griffin conscripts (side 2) whose
    player answers an assault with *reaction*, under scripted *dice*; *turned*: the conscripts
    stand with their back to the warriors. Returns (battle, warriors, conscripts)."""
    bt = battle(ecat, army("beasts", ("warrior", 5)), army("griffin", ("conscript", conscripts)))
    u, e = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, u, e, gap)
    if turned:
        e.place(e.x, e.y - e.depth, 0.0, 1.0)  # the same block turned round: its back to the warriors
        bt.moved(e)
    e.order = order
    reacting(bt, 1, reaction)
    bt.dice = dice(np.random.default_rng(0))
    return bt, u, e


def test_withstand_charge_brings_every_fighter_into_contact(ecat):
    """Seed (Reaction (Withstand charge)): "If the assault is a success, the fighters from the
    unit withstanding the charge who are not in contact with any opponent can move by MOV cm to
    come in contact with the assailing unit." Test INI 6; five warriors charge twelve conscripts:
    withstanding, the conscripts bring as many as can touch the five; without it, only those
    the assailants reach."""
    counts = {}
    for choice, dice in (("withstand", Passes), (None, Passes)):
        bt, u, e = reacting_conscripts(ecat, 12, 5.0, choice or "withstand", dice, order="reaction" if choice else "progress")
        bt.lines.clear()
        bt.assault(u)
        assert e.index in u.engaged
        counts[choice] = contact_count(bt, e, u)
        if choice:
            assert any("Withstand charge): INI" in line and "against 6" in line for line in bt.lines)
    # (the fray's contact model: a side brings at most twice the other's fighters plus one)
    assert counts["withstand"] == min(12, 2 * 5 + 1) and counts[None] < counts["withstand"]


def test_a_failed_withstand_test_leaves_the_unit_as_it_stood(ecat):
    bt, u, e = reacting_conscripts(ecat, 12, 5.0, "withstand", Fails)
    bt.assault(u)
    assert e.index in u.engaged and u.index not in e.withstood and contact_count(bt, e, u) < 12


def test_a_retreat_takes_the_unit_out_of_reach_and_the_charge_fails(ecat):
    """Seed (Reaction (Retreat)): "The unit can march backwards up to MOV cm without any
    orientation change"; (Courage tests) "If this distance is too long or if the assailing unit
    cannot reach the assailed unit for any other reason (such as a Reaction (Retreat))..."; a
    charge that fails: "The assailing unit must move over MOV x 2 in the direction of the unit
    targeted. The unit is Disorganized." Conscripts 15 cm from warriors (reach 20) step back
    10 cm: the charge fails."""
    bt, u, e = reacting_conscripts(ecat, 10, 15.0, "retreat", Passes)
    facing = (e.ux, e.uy)
    bt.assault(u)
    assert (e.ux, e.uy) == facing and e.y == pytest.approx(55.0 + e.mov, abs=0.6)
    assert not u.engaged and u.state == "disorganized"
    assert any("marches back" in line for line in bt.lines)


def test_no_retreat_from_an_assault_begun_outside_the_field_of_view(ecat):
    """Seed (Reaction (Retreat)): "It begins its assault within the field of view carrying out
    the reaction." Assailed from behind, the conscripts cannot retreat."""
    bt, u, e = reacting_conscripts(ecat, 10, 15.0, "retreat", Passes, turned=True)
    assert bt.react(e, u, "charge") == ""
    assert e.index not in u.engaged and not any("marches back" in line for line in bt.lines)


def test_a_counter_charge_won_charges_first(ecat):
    """Seed (Reaction (Counter-charge)): "The unit which wins the test charges first... A
    counter-charge has the same effects as a charge." The conscripts win the Initiative test and
    charge the warriors (with the charge's bonus when their Power allows)."""
    bt, u, e = reacting_conscripts(ecat, 10, 12.0, "counter-charge", Passes)
    bt.assault(u)
    assert e.charged and not u.charged and u.index in e.engaged
    assert e.charge_bonus == (e.power(True) >= u.power(False, True))


def test_no_counter_charge_from_behind(ecat):
    """Seed (Reaction (Counter-charge)): "The assailing unit begins its assault in the field of
    vision of the unit carrying out the counter-charge"."""
    bt, u, e = reacting_conscripts(ecat, 10, 12.0, "counter-charge", Passes, turned=True)
    assert bt.react(e, u, "charge") == ""
    assert not e.charged


# -- maneuvers ---------------------------------------------------------------------------------------


def test_a_close_unit_reorients_with_a_discipline_test_and_moves_no_more(ecat):
    """Seed (Reorientation): "A unit in close formation can only reorient at the beginning of its
    activation; it must succeed a Discipline test (difficulty 7)... the unit may not carry out any
    other movement than its reorientation." Conscripts told to march behind them turn round
    and stay where they turned."""
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Passes(np.random.default_rng(0))
    centre = (u.box().cx, u.box().cy)
    done = bt.move_unit(u, 90.0, 20.0, False, 0.0, "Progress")
    assert done == 0.0 and (u.ux, u.uy) == pytest.approx((0.0, -1.0))
    assert (u.box().cx, u.box().cy) == pytest.approx(centre)  # the fighters turned where they stand
    assert any("reorients 180°" in line and "DIS" in line and "against 7" in line for line in bt.lines)


def test_a_close_unit_wheels_round_a_front_corner_within_mov_x_2(ecat):
    """Seed (Reorientation): "Either the unit behaves as a uniform block and wheels around an
    axis... The maximum angle of the rotation is determined by the MOV of the fighters composing
    the unit (the maximum distance a fighter can travel is equal to MOV x 2 of his unit)". Five
    conscripts in one rank (12.5 x 2.5 cm) turn 90° to their right: the outer fighter's arc is
    under 18 cm, within their MOV x 2 (20 cm); they wheel round their right front corner."""
    bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Passes(np.random.default_rng(0))
    assert bt.move_unit(u, 130.0, 49.0, False, 0.0, "Progress") == 0.0  # (a close unit moves no more)
    assert (u.ux, u.uy) == pytest.approx((1.0, -0.025), abs=0.03)
    assert (u.x, u.y) == pytest.approx((96.25, 56.25), abs=0.3)
    assert any("wheels round a front corner" in line for line in bt.lines)


def test_a_close_unit_beyond_its_wheel_turns_each_fighter_exactly_ninety_degrees(ecat):
    """Seed (Reorientation): "Either each fighter executes an individual rotation of exactly 90°
    (a quarter of a turn) or 180° (turns around)". Ten conscripts (5 files, 2 ranks) cannot
    wheel 107° (22 cm for the outer fighter, MOV x 2 = 20): each turns a quarter where it stands,
    the ranks becoming files on the same ground."""
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    ground = u.box().bounds()
    bt.dice = Passes(np.random.default_rng(0))
    bt.move_unit(u, 140.0, 35.0, False, 0.0, "Progress")  # 107° to its right
    assert (u.ux, u.uy) == pytest.approx((1.0, 0.0)) and u.files == 2
    assert u.box().bounds() == pytest.approx(ground)
    assert any("each fighter turns 90°" in line for line in bt.lines)
    # Seed (Rearrangement): "He can change the length and the number of rows in the unit" (DIS 7):
    # on a later Progress the unit widens back to five files and marches.
    u.maneuvered = u.maneuver_failed = False
    assert bt.move_unit(u, 160.0, 45.0, False, 0.0, "Progress") > 0.0
    assert u.files == 5 and any("rearrangement into 5 files: DIS" in line for line in bt.lines)


def test_a_failed_reorientation_leaves_a_close_unit_facing_as_it_was(ecat):
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Fails(np.random.default_rng(0))
    assert bt.move_unit(u, 90.0, 20.0, False, 0.0, "Progress") == 0.0
    assert (u.ux, u.uy) == (0.0, 1.0) and u.maneuver_failed
    # "it can only attempt a single maneuver, no matter if it succeeds or fails"
    bt.dice = Passes(np.random.default_rng(0))
    assert bt.sidestep(u, 1.0, 0.0, u.mov, False) == 0.0


def test_a_scattered_unit_turns_under_ninety_degrees_freely(ecat):
    """Seed (Reorientation): "If the angle of the reorientation is inferior to 90°, no test is
    required... A 90° to 180° reorientation requires a Discipline test (difficulty 7)"."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Fails(np.random.default_rng(0))
    assert bt.move_unit(u, 100.0, 55.0, False, 0.0, "Progress") > 0.0  # about 63° off its facing
    assert not any("reorients" in line for line in bt.lines)
    stand(bt, u, 90.0, 50.0)
    u.maneuvered = u.maneuver_failed = False
    assert bt.move_unit(u, 90.0, 30.0, False, 0.0, "Progress") == 0.0  # behind it: a test, failed
    assert any("reorients 180°" in line for line in bt.lines)


def test_sideward_and_backward_moves_keep_the_facing_within_mov(ecat):
    """Seed (Sideward movement, Backwards movement): "Test: DIS (7)... The distance it travels
    cannot exceed MOV centimeters... The orientation of the unit after this movement is the
    same as at the beginning of it." And a backward move "cannot be executed if the unit is
    carrying out an assault order"."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Passes(np.random.default_rng(0))
    assert bt.sidestep(u, 1.0, 0.0, 30.0, False) == pytest.approx(u.mov)
    assert (u.x, u.y, u.ux, u.uy) == pytest.approx((90.0 + u.mov, 50.0, 0.0, 1.0))
    assert any("sideward movement: DIS" in line for line in bt.lines)
    u.order = "assault"
    assert bt.sidestep(u, 0.0, -1.0, 30.0, True) == 0.0  # no backward move under an Assault order
    u.order = "progress"
    assert bt.sidestep(u, 0.0, -1.0, 30.0, True) == pytest.approx(u.mov)
    assert u.y == pytest.approx(50.0 - u.mov) and (u.ux, u.uy) == (0.0, 1.0)


def test_a_scattered_unit_stops_trying_maneuvers_after_a_failure(ecat):
    """Seed (Maneuvers): "If the unit is in scattered formation, it can execute an unlimited
    number of maneuvers, but if one of them fails, the unit cannot attempt any new maneuver
    requiring a test"."""
    bt = battle(ecat, army("beasts", ("warrior", 6)), army("griffin", ("conscript", 5)))
    u = bt.sides[0][0]
    aside(bt, u)
    stand(bt, u, 90.0, 50.0)
    bt.dice = Passes(np.random.default_rng(0))
    assert bt.sidestep(u, 1.0, 0.0, 5.0, False) > 0.0
    assert bt.sidestep(u, -1.0, 0.0, 5.0, False) > 0.0  # a second one after a success
    bt.dice = Fails(np.random.default_rng(0))
    assert bt.sidestep(u, 1.0, 0.0, 5.0, False) == 0.0
    bt.dice = Passes(np.random.default_rng(0))
    assert bt.sidestep(u, 1.0, 0.0, 5.0, False) == 0.0


# -- leadership and push on ---------------------------------------------------------------------


def test_a_leadership_aura_reaches_a_unit_measured_from_the_commanders_base(ecat):
    """Seed (Leadership): "X is a value giving the maximum distance (in cm) over which a
    commander's authority is effective... If at least one member of the unit is located within
    the leadership aura, the whole unit is." The templar (Leadership/20, COU 7) lends his
    Courage to conscripts (COU 4) whose nearest fighter stands 19.5 cm from his base, edge to
    edge, and not at 20.5 cm."""
    bt = battle(ecat, army("griffin", ("conscript", 10, "templar"), ("conscript", 10)), army("beasts", ("warrior", 5)))
    led, other = bt.sides[0][0], bt.sides[0][1]
    aside(bt, led, other)
    stand(bt, led, 60.0, 40.0)
    point = aura_centre(led)
    for gap, inside in ((19.5, True), (20.5, False)):
        # the other unit side by side, its nearest edge *gap* cm from the templar's base edge
        x = point[0] + point[2] + gap + other.width / 2.0
        stand(bt, other, x, point[1] + 1.25)
        assert aura_gap(point, other) == pytest.approx(gap, abs=0.01)
        bt.update_leadership()
        assert (other.cou_value == 7) == inside, gap


def test_push_on_reaches_an_enemy_within_mov_and_no_further(ecat):
    """Seed (Push on): "Only the fighters free from any opponent can push on. They perform a
    movement inferior or equal to MOV cm." A free unit 9.5 cm (MOV 10) from an enemy of the fray
    pushes on into it; at 10.5 cm it cannot."""
    for gap, reaches in ((9.5, True), (10.5, False)):
        bt = battle(ecat, army("griffin", ("conscript", 6), ("conscript", 6)), army("beasts", ("warrior", 6)))
        free, busy = bt.sides[0]
        enemy = bt.sides[1][0]
        face_off(bt, busy, enemy, 0.0, x=60.0, y=60.0)
        busy.engaged.add(enemy.index)
        enemy.engaged.add(busy.index)
        # beside the enemy, *gap* cm from its right flank, edge to edge
        stand(bt, free, 60.0 + enemy.width / 2.0 + gap + free.width / 2.0, 60.0)
        assert bt.gap(free, enemy) == pytest.approx(gap, abs=0.01)
        bt.push_on([free, busy, enemy], {(unit_key(0, 1), unit_key(1, 0)): 1})
        assert (enemy.index in free.engaged) == reaches, gap


def test_a_rituals_range_is_measured_from_the_magisters_base(ecat):
    """Mystics seed: "The distance between the mystic and its target is measured on the ground,
    from the mystic's base to the target's"; (Measurement of the distance) "If it is within the
    ritual's range, the target suffers the effects." The dark mage stands in the middle of his
    warriors' front rank: conscripts 29 cm from the unit's corner but 30.1 cm from his base are
    out of Terror's 30 cm; straight ahead at 29 cm they are in it."""
    from armybuilder.systems.ragnarok2.engine.mystic_effects import RITUAL_EFFECTS, caster_gap

    bt = battle(ecat, army("beasts", ("warrior", 9, "mage")), army("griffin", ("conscript", 10)))
    u, e = bt.sides[0][0], bt.sides[1][0]
    aside(bt, u, e)
    stand(bt, u, 90.0, 40.0)
    mage = next(g for g in u.groups if g.profile.id == "mage")
    terror = RITUAL_EFFECTS["terror"]
    stand(bt, e, 90.0 + u.width / 2.0 + e.width / 2.0, 69.0)  # off the unit's right corner
    assert bt.gap(u, e) == pytest.approx(29.0) and caster_gap(bt, u, mage, e) > 30.0
    assert terror.choose(bt, u, 30.0, mage) is None
    stand(bt, e, 90.0, 69.0)  # straight ahead of the mage
    assert caster_gap(bt, u, mage, e) == pytest.approx(29.0, abs=0.01)
    assert terror.choose(bt, u, 30.0, mage) is e
