"""The AI's choice of a turn (``Game.choose``) is the option ``max`` picks from the full list
(``Game.options``: the best score, the lower uid, then the first listed), on every choice of
whole games of the sample pairings: the fast path builds one Option, never a different one.

The check subclasses ``Game``, which compiled classes do not allow: with the compiled engine
installed it runs on the pure-Python one, in a subprocess (the same code, and
test_rr_native_parity.py shows both builds play the same games)."""

from __future__ import annotations

import itertools

from rr_builds import compiled, run_pure

from armybuilder.core.playtest import game_rngs, load_sample, sample_names
from armybuilder.core.registry import get_system


def checked_choices() -> int:
    """Play two games of every ordered sample pairing, each choice checked; how many were made."""
    from armybuilder.systems.rattle_and_rend.engine.game import Game

    class CheckedGame(Game):
        """A game whose every choice is also made the slow way and compared."""

        checked = 0

        def choose(self, side):
            listed = self.options(side)
            expected = max(listed, key=lambda o: (o.score, -o.unit.uid)) if listed else None
            found = super().choose(side)
            if expected is None:
                assert found is None
            else:
                assert found is not None
                assert (found.unit.uid, found.name, found.score, found.cost) == (expected.unit.uid, expected.name, expected.score, expected.cost)
            CheckedGame.checked += 1
            return found

    system = get_system("rattle-and-rend")
    armies = [load_sample(system, n) for n in sample_names(system)]
    for first, second in itertools.product(armies, repeat=2):
        cat = system.catalogue_for(first)
        for rng in game_rngs(3, 0, 2):
            CheckedGame(cat, first, second, rng, False).play()
    return CheckedGame.checked


def test_choose_gives_the_best_of_the_listed_options():
    if compiled():
        checked = int(run_pure("from test_rr_choice import checked_choices\nprint(checked_choices())"))
    else:
        checked = checked_choices()
    assert checked > 200  # the pairings' games make many choices
