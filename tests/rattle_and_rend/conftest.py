"""Fixtures for the Rattle and Rend tests: the bundled catalogue and a legal base warband."""

from __future__ import annotations

import pytest

from armybuilder.core.registry import get_system
from armybuilder.systems.rattle_and_rend.army import Group, RRList


@pytest.fixture(scope="session")
def system():
    return get_system("rattle-and-rend")


@pytest.fixture(scope="session")
def cat(system):
    return system.catalogue("1.0.0")


@pytest.fixture
def base() -> RRList:
    """12 points, 6 groups (the attached Champion counts with its Fighters), every choice made."""
    return RRList(
        catalogue="1.0.0",
        format="12-points",
        name="Base warband",
        traits=["elites", "zealots"],
        drive="frenzy",
        groups=[
            Group(type="fighters", label="Spears"),
            Group(type="champion", champion_action="spot-weakness", attached_to=0),
            Group(type="shooters"),
            Group(type="skirmishers"),
            Group(type="heavy", heavy_trait="colossal"),
            Group(type="ward", warding_reaction="defiance"),
            Group(type="champion", champion_action="scheming-plot"),
        ],
    )
