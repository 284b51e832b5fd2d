"""Do the players use what a warband has? Every choice the seed gives a player (champion actions,
standard and warding reactions, the choices of traits, a Colossal Heavy's extra targets), each in
a warband built around it, played against the same warband whose player may not use it
(``armybuilder bench --options``).

A free option should never make a warband worse: with it against without it, the win rate's 95 %
interval must hold 50 % or lie above it; and the option must be used in some games. Traits that
act by themselves (Elites, Fusiliers, Poisoners...) are no choice and are not listed here.
"""

from __future__ import annotations

from armybuilder.core.catalog import Catalogue
from armybuilder.core.credibility import OptionFigure
from armybuilder.core.playtest import game_rngs, wilson_interval

from ..army import Group, RRList
from .ai import ScoringPolicy
from .game import Game

CHAMPION_ACTIONS = ("banishment", "battle-summons", "crashing-wave", "distant-doom", "push-to-the-brink", "scheming-plot", "spot-weakness")
WARDING = ("defiance", "vengeance", "reversal", "confusion", "sacrifice", "pursuit", "detonate", "rally")
TRAIT_CHOICES = ("ambushers", "coordinated", "resurrectionists", "soothsayers", "tacticians", "teleporters")


def _warband(name: str, groups: list[Group], traits: tuple[str, str] = ("zealots", "blessed")) -> RRList:
    """A warband of ``groups``; its traits (Zealots and Blessed unless given) give no choice to make."""
    return RRList(catalogue="1.0.0", format="12-points", name=name, traits=list(traits), drive="frenzy", groups=groups)


def _g(kind: str, **fields: object) -> Group:
    return Group(type=kind, **fields)


def built_around() -> list[tuple[str, str, RRList]]:
    """(option id, label, a legal warband built around it) for every option a player chooses."""
    out: list[tuple[str, str, RRList]] = []
    for action in CHAMPION_ACTIONS:
        if action == "battle-summons":  # the Champions bring back 1- and 2-point groups
            groups = [_g("fighters"), _g("fighters"), _g("shooters"), _g("skirmishers"), *[_g("champion", champion_action=action) for _ in range(3)],
                      _g("ward", warding_reaction="defiance")]  # fmt: skip
        else:  # four line groups, each with a Champion of the action attached
            groups = []
            for kind in ("fighters", "shooters", "skirmishers", "fighters"):
                groups += [_g(kind), _g("champion", champion_action=action, attached_to=len(groups))]
        out.append((action, f"champion action {action}", _warband(f"Four {action}", groups)))
    line = [_g("fighters"), _g("shooters"), _g("skirmishers")]
    standard = {
        "intimidate": [_g("heavy", heavy_trait="colossal"), _g("heavy", heavy_trait="flyer"), _g("fighters"), _g("shooters"), _g("champion", champion_action="spot-weakness"), _g("ward", warding_reaction="defiance")],
        "countercharge": [*[_g("fighters") for _ in range(4)], _g("heavy", heavy_trait="colossal"), _g("ward", warding_reaction="defiance")],
        "suppression": [*[_g("shooters") for _ in range(4)], _g("heavy", heavy_trait="colossal"), _g("champion", champion_action="spot-weakness")],
        "evade": [*[_g("skirmishers") for _ in range(4)], _g("heavy", heavy_trait="colossal"), _g("ward", warding_reaction="defiance")],
        "regroup": [*[_g("champion", champion_action="spot-weakness") for _ in range(4)], _g("fighters"), _g("shooters"), _g("skirmishers"), _g("fighters")],
        "follow": [*[_g("ward", warding_reaction=w) for w in ("defiance", "sacrifice", "detonate")], *line, _g("heavy", heavy_trait="colossal")],
    }  # fmt: skip
    for reaction, groups in standard.items():
        out.append((reaction, f"reaction {reaction}", _warband(f"Built for {reaction}", groups)))
    for reaction in WARDING:
        groups = [*line, _g("fighters"), _g("ward", warding_reaction=reaction), _g("ward", warding_reaction=reaction),
                  _g("champion", champion_action="spot-weakness"), _g("champion", champion_action="scheming-plot")]  # fmt: skip
        out.append((reaction, f"warding reaction {reaction}", _warband(f"Two {reaction} Wards", groups)))
    base = [_g("fighters"), _g("champion", champion_action="spot-weakness", attached_to=0), _g("shooters"), _g("skirmishers"),
            _g("heavy", heavy_trait="colossal"), _g("ward", warding_reaction="defiance"), _g("champion", champion_action="scheming-plot")]  # fmt: skip
    for trait in TRAIT_CHOICES:
        out.append((trait, f"trait {trait}", _warband(f"Base with {trait}", list(base), (trait, "zealots"))))
    out.append(("colossal", "heavy trait colossal (up to three targets)", _warband("Two Colossal Heavies",
               [_g("heavy", heavy_trait="colossal"), _g("heavy", heavy_trait="colossal"), _g("fighters"), _g("shooters"), _g("champion", champion_action="spot-weakness"), _g("ward", warding_reaction="defiance")])))  # fmt: skip
    return out


def measure(cat: Catalogue, option: str, label: str, army: RRList, games: int, seed: int) -> OptionFigure:
    """``army`` with ``option`` against the same warband whose player may not use it, ``games``
    games, the sides swapped every other game (so who deploys first evens out)."""
    wins = 0.0
    used = 0
    for i, rng in enumerate(game_rngs(seed, 0, games)):
        swapped = i % 2 == 1
        players = (ScoringPolicy(frozenset({option})), ScoringPolicy()) if swapped else (ScoringPolicy(), ScoringPolicy(frozenset({option})))
        record = Game(cat, army, army, rng, False, None, players).play()
        mine = 1 if swapped else 0
        wins += 1.0 if record.winner == mine else 0.5 if record.winner is None else 0.0
        used += record.used[mine].get(option, 0) > 0
    return OptionFigure(option, label, army.name, games, used, wins / games, wilson_interval(wins, games))


def option_study(cat: Catalogue, games: int, seed: int) -> list[OptionFigure]:
    return [measure(cat, option, label, army, games, seed) for option, label, army in built_around()]
