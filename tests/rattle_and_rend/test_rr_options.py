"""The players use what a warband has: every choice of the seed (champion actions, reactions, the
choices of traits) in a legal warband built around it, used in some of a handful of games against
the same warband whose player may not use it. (How the warband does with the option against
without it over 1,500 games is ``armybuilder bench --options``'s figure.)"""

from __future__ import annotations

import pytest

from armybuilder.core.findings import Severity
from armybuilder.systems.rattle_and_rend.engine.options import built_around, measure

AROUND = built_around()
# Follow and Pursuit answer an enemy leaving a range it was in: a group that stands and fights
# rarely does, so they show in a few games of 64 (about 7 s each) rather than of 16.
GAMES = {"follow": 64, "pursuit": 64}


def test_every_option_of_the_catalogue_has_a_legal_warband_built_around_it(system, cat):
    options = {o for o, _, _ in AROUND}
    assert {a.id for a in cat.data.actions if a.kind == "champion"} <= options
    assert {r.id for r in cat.data.reactions} <= options  # standard and warding reactions
    for _, _, army in AROUND:
        assert not [f for f in system.validate(army, cat) if f.severity is Severity.ERROR], army.name


@pytest.mark.parametrize(("option", "label", "army"), AROUND, ids=[o for o, _, _ in AROUND])
def test_the_player_uses_the_option(cat, option, label, army):
    games = GAMES.get(option, 16)
    figure = measure(cat, option, label, army, games, seed=5)
    assert figure.used > 0, f"{label}: never used in {games} games"
