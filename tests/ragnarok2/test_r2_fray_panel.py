"""The protocol face of the exact fray (``Ragnarok2.fray_units`` / ``fray_odds``), which the
editor's fray view calls: units named by their place in the list, the CLI's payload and text."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.core.lists import parse_list
from armybuilder.core.playtest import load_sample
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2 import fray_odds
from armybuilder.systems.ragnarok2.fray_panel import battle_indices


@pytest.fixture(scope="module")
def bundled():
    system = get_system("ragnarok2")
    lions = load_sample(system, "alahan-lions")
    undead = load_sample(system, "acheron-undead-host")
    return system, system.catalogue_for(lions), lions, undead


def test_fray_units_are_the_battle_units_by_list_index(bundled):
    system, cat, lions, _ = bundled
    choices = system.fray_units(lions, cat)
    assert [c.value for c in choices] == list(range(len(lions.units)))
    assert [c.label for c in choices] == fray_odds.unit_names(cat, lions)


def test_a_unit_the_battle_skips_keeps_the_list_indices_right(bundled):
    """A unit whose profiles the catalogue does not know is not built by the battle: the units
    after it keep their list index in the view, and the fray is the one of the right unit."""
    system, cat, lions, undead = bundled
    ghost = lions.units[0].model_copy(update={"troops": lions.units[0].troops.model_copy(update={"profile": "no-such-profile"}), "members": []})
    army = lions.model_copy(update={"units": [ghost, *lions.units]})
    assert battle_indices(cat, army) == list(range(1, len(army.units)))
    choices = system.fray_units(army, cat)
    assert [c.value for c in choices] == list(range(1, len(army.units)))
    royal = next(c.value for c in choices if c.label == "Royal guard")
    assert royal == 4  # list index (the ghost is unit 0)
    result = system.fray_odds(cat, army, royal, undead, 4, True)
    direct = fray_odds.payload(fray_odds.compute(cat, lions, 3, undead, 4, True))
    assert result.payload == direct and result.payload["attacker"]["unit"] == "Royal guard"
    assert result.lines == tuple(fray_odds.lines(fray_odds.compute(cat, lions, 3, undead, 4, True)))
    with pytest.raises(ValueError, match="cannot fight"):
        system.fray_odds(cat, army, 0, undead, 4, True)


# Thallion riders (Executioner) are Implacable/1: a new combat after the outcome of the fray.
THALLION = (Path(__file__).parents[1] / "ragnarok2" / "data" / "thallion-implacable.yaml").read_text(encoding="utf-8")


def test_an_implacable_fray_is_answered_with_its_new_combats(bundled):
    system, _, _, undead = bundled
    riders = parse_list(THALLION).army
    result = system.fray_odds(system.catalogue_for(riders), riders, 0, undead, 4, True)
    assert result.payload["attacker"]["unit"] == "Thallion riders"
    (fought,) = result.payload["implacable_combats"]
    assert 0.0 < fought < 1.0
    assert any(line.startswith("  Implacable combat after the outcome: fought") for line in result.lines)
