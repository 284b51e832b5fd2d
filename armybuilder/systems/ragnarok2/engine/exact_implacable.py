"""The Implacable combats of an exact fray: what follows the outcome of the fray, enumerated.

Seed (Outcome of the fray, 4) Implacable fighters; the ability Implacable/X): when the
outcome of the fray is over, the units that have not fled push on, and fighters with
Implacable/X that caused a loss and are in contact with opponents fight new combats at once,
with all their combat dice, without the charge bonus on the Initiative test and without a
morale roll; this repeats up to X times in the round.

What one fray of two units covers, and why (the battle engine's reading, :mod:`.outcome`):

* Push on moves nothing here. A unit pushes on only when it is free of any opponent, which in a
  fray of two units happens only once the other has fled or fallen: then nobody is left in the
  fray to push into. So the new combats are those of the Implacable unit still in contact with
  the same opponent (which held its morale roll, or stayed routed in place by Fanaticism), never
  against a third unit.
* Who fights again is :meth:`~.outcome.OutcomeRules.implacable_combat`, the battle's own rule:
  round *r* (r = 1..X) is fought by each unit with Implacable/X >= r, standing, not in Rout,
  still in contact, that caused at least one loss (removed an opponent, by its exchanges or a
  counter-attack) in the combats just fought (the fray for round 1, round *r* - 1 after), with
  its fighter types of Implacable/X >= r against the whole enemy unit. The new contact is
  :meth:`~.combat.CombatRules.build_contact` of the units as they stand (a new front, combat dice shared again); each combat is the fray's own enumeration
  (:meth:`.exact.ExactFray.combat`) without the charge bonus, and no morale roll follows.
* A state's contact depends on its counts, fallen Fierce fighters, Rout and who caused a loss,
  never on the Wounds carried by wounded fighters: the states are grouped by it and every group
  is enumerated once on its own contact. The difference of Wounds is not tracked (no outcome
  follows); whether each Implacable unit caused a loss is (a bit of the state, for the next
  round). Cells under 1e-12 are pruned and counted as in the fray.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from .exact_layer import Layer

if TYPE_CHECKING:
    from .exact import ExactFray


def implacable_combats(ex: ExactFray, states: dict[tuple, float]) -> dict[tuple, float]:
    """The Implacable combats after the outcome of *ex*'s fray, from *states*: (core, A routs,
    B routs) -> probability, the units in contact. Returns the final (counts, A routs, B routs)
    -> probability, and records P(round r is fought) in ``ex.implacable_fought``."""
    bt, a, b = ex.bt, ex.a, ex.b
    units = sorted((a, b), key=lambda u: (u.side, u.index))
    final: dict[tuple, float] = defaultdict(float)
    ex.diff = False
    for rnd in range(1, 1 + max(a.implacable, b.implacable)):
        groups: dict[tuple, list[tuple[tuple, float]]] = defaultdict(list)
        for (core, ra, rb), p in states.items():
            groups[(tuple((c[0], c[2]) for c in core[0]), ra, rb, core[5])].append((core, p))
        after: dict[tuple, float] = defaultdict(float)
        fought = 0.0
        for (_, ra, rb, flags), members in groups.items():
            # The units as they stand after the last combats (their own contact still held).
            ex.states = {a: "rout" if ra else ex.first_states[a], b: "rout" if rb else ex.first_states[b]}
            ex.held = None
            ex.restore(members[0][0])
            caused = {k for bit, k in ((1, ex.ka), (2, ex.kb)) if flags & bit}
            found = bt.implacable_combat(units, caused, rnd)
            if found is None:
                for core, p in members:
                    final[(tuple(c[0] for c in core[0]), ra, rb)] += p
                continue
            _movers, chain, only = found
            fighters = bt.build_contact(chain, only)
            ex.use_contact(fighters)
            masks = ex.snapshot()[1:]  # the new contact: everyone in it stands, fallen Fierce still strike
            index: dict[tuple, int] = {}
            weights: list[float] = []
            for core, p in members:
                key = ((core[0], *masks, 0), None)
                j = index.get(key)
                if j is None:
                    j = index[key] = len(index)
                    weights.append(0.0)
                weights[j] += p
                fought += p
            layer = Layer(list(index), np.array(weights)[:, None], 0)
            for ckey in bt.combat_sequence(fighters):
                layer = ex.combat(layer, ckey, charge=False)
            for (core, _), q in zip(layer.keys, layer.m.sum(axis=1).tolist(), strict=True):
                after[(core, ra, rb)] += q
        ex.implacable_fought.append(fought)
        states = after
        if not states:
            break
    for (core, ra, rb), p in states.items():
        final[(tuple(c[0] for c in core[0]), ra, rb)] += p
    ex.states = dict(ex.first_states)
    ex.diff = True
    return final
