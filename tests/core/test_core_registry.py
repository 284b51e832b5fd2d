"""The registry checks a system when it loads: a half-written one fails loudly, never skipped."""

from __future__ import annotations

import sys
import types

import pytest

from armybuilder.core import registry
from armybuilder.core.errors import InputError
from armybuilder.core.registry import SystemDefinitionError, get_system


def _module(monkeypatch, name: str, **attributes) -> str:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    monkeypatch.setitem(sys.modules, name, module)
    return name


def test_an_unknown_id_is_a_user_error_naming_the_known_ones():
    with pytest.raises(InputError, match="unknown game system 'chess'.*ragnarok2.*toy-pit"):
        get_system("chess")


@pytest.mark.parametrize(
    "attributes,message",
    [
        ({}, "defines no SYSTEM"),
        ({"SYSTEM": object()}, "defines no SYSTEM"),
    ],
)
def test_a_module_without_a_system_fails(monkeypatch, attributes, message):
    monkeypatch.setitem(registry.KNOWN_SYSTEMS, "broken", _module(monkeypatch, "broken_sys", **attributes))
    with pytest.raises(SystemDefinitionError, match=message):
        get_system("broken")
    with pytest.raises(SystemDefinitionError):
        registry.all_systems()  # listing every system fails too: nothing is skipped


def test_a_module_that_does_not_import_fails(monkeypatch):
    monkeypatch.setitem(registry.KNOWN_SYSTEMS, "missing", "no_such_module_anywhere")
    with pytest.raises(SystemDefinitionError, match="does not import"):
        get_system("missing")


def test_a_system_whose_id_or_faction_field_is_wrong_fails(monkeypatch):
    import toysystem

    class WrongId(toysystem.PitFighters):
        id = "other"

    class WrongField(toysystem.PitFighters):
        faction_field = "clan"

    monkeypatch.setitem(registry.KNOWN_SYSTEMS, "toy-copy", _module(monkeypatch, "toy_copy", SYSTEM=WrongId()))
    with pytest.raises(SystemDefinitionError, match="says its id is 'other'"):
        get_system("toy-copy")
    monkeypatch.setitem(registry.KNOWN_SYSTEMS, "toy-pit-2", _module(monkeypatch, "toy_pit_2", SYSTEM=WrongField()))
    WrongField.id = "toy-pit-2"
    with pytest.raises(SystemDefinitionError, match="faction_field 'clan' is not a field of PitList"):
        get_system("toy-pit-2")


def test_the_environment_adds_systems(monkeypatch):
    monkeypatch.setenv(registry.ENVIRONMENT, "toy-env=toysystem, ")
    monkeypatch.setattr(registry, "KNOWN_SYSTEMS", dict(registry.KNOWN_SYSTEMS))
    registry._from_environment()
    assert registry.KNOWN_SYSTEMS["toy-env"] == "toysystem"
    monkeypatch.setenv(registry.ENVIRONMENT, "no-module-here")
    with pytest.raises(SystemDefinitionError, match="id=module"):
        registry._from_environment()
