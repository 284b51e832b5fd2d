"""The default player's choice of a turn (``ScoringPolicy.act``) is the option ``max`` picks from
the full list (``ScoringPolicy.options``: the best score, the lower uid, then the first listed), on
every choice of whole games of the sample pairings: the two-pass fast path never picks another.

The check subclasses the policy; with the compiled engine installed it runs on the pure-Python
one, in a subprocess (the same code, and test_rr_native_parity.py shows both builds play the same
games)."""

from __future__ import annotations

import itertools

from rr_builds import compiled, run_pure

from armybuilder.core.playtest import game_rngs, load_sample, sample_names
from armybuilder.core.registry import get_system


def checked_choices() -> int:
    """Play two games of every ordered sample pairing, each choice checked; how many were made."""
    from armybuilder.systems.rattle_and_rend.engine.ai import ScoringPolicy
    from armybuilder.systems.rattle_and_rend.engine.game import Game

    class CheckedPolicy(ScoringPolicy):
        """A player whose every choice is also made the slow way and compared."""

        checked = 0

        def act(self, g, side):
            listed = self.options(g, side)
            expected = max(listed, key=lambda item: (item[0], -item[1].unit.uid)) if listed else None
            found = super().act(g, side)
            if expected is None or expected[0] <= 0.05:
                assert found is None
            else:
                assert found is not None
                assert (found.unit.uid, found.name, found.score) == (expected[1].unit.uid, expected[1].name, expected[0])
            CheckedPolicy.checked += 1
            return found

    system = get_system("rattle-and-rend")
    armies = [load_sample(system, n) for n in sample_names(system)]
    for first, second in itertools.product(armies, repeat=2):
        cat = system.catalogue_for(first)
        for rng in game_rngs(3, 0, 2):
            Game(cat, first, second, rng, False, policies=(CheckedPolicy(), CheckedPolicy())).play()
    return CheckedPolicy.checked


def test_choose_gives_the_best_of_the_listed_options():
    if compiled():
        checked = int(run_pure("from test_rr_choice import checked_choices\nprint(checked_choices())"))
    else:
        checked = checked_choices()
    assert checked > 200  # the pairings' games make many choices
