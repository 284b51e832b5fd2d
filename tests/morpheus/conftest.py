"""Fixtures of the Ragnarok (Morpheus Engine) tests: the real catalogue and a legal base clan."""

from __future__ import annotations

import pytest

from armybuilder.systems.morpheus import SYSTEM
from armybuilder.systems.morpheus.army import GodPowerPick, WarClan, Warrior


@pytest.fixture(scope="session")
def me_cat():
    return SYSTEM.catalogue("1.0.0")


def base_clan() -> WarClan:
    """Legal: 8 models, one Jarl, 610 Glory of 800, gear within every limit."""
    return WarClan(
        catalogue="1.0.0",
        format="800-glory",
        name="Base clan",
        warriors=[
            Warrior(type="jarl", jarl=True, equipment=["scale-chain-armor", "shield", "axe-sword-hammer"]),  # 185
            *[Warrior(type="bondi", equipment=["light-leathers", "shield", "spear"]) for _ in range(4)],  # 4 x 65
            Warrior(type="huskarl", equipment=["scale-chain-armor", "shield", "spear"]),  # 90
            Warrior(type="skald", equipment=[]),  # 70
            Warrior(type="gothi", equipment=[]),  # 60
        ],
        god_powers=[GodPowerPick(power="touch-of-life")],
    )


@pytest.fixture
def me_base() -> WarClan:
    return base_clan()
