"""The pmf cut of odds payloads: computed in numpy, the same cut as reading from the end."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.core.dice import Distribution
from armybuilder.core.odds import PMF_TAIL, pmf_list


def _cut_by_loop(pmf: np.ndarray) -> list[float]:
    tail, end = 0.0, len(pmf)
    while end > 1 and tail + pmf[end - 1] < PMF_TAIL:
        tail += pmf[end - 1]
        end -= 1
    return [float(x) for x in pmf[:end]]


@given(st.lists(st.sampled_from([0.0, 1e-20, 3e-13, 5e-13, 1e-12, 1e-9, 0.2, 1.0]), min_size=1, max_size=40))
def test_pmf_cut_matches_the_definition(weights):
    pmf = np.array(weights, dtype=float)
    if pmf.sum() == 0:
        pmf[0] = 1.0
    dist = Distribution(pmf / pmf.sum())
    assert pmf_list(dist) == _cut_by_loop(dist.pmf)
    assert all(type(x) is float for x in pmf_list(dist))
