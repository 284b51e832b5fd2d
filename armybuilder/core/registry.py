"""Game systems registered under stable ids, imported only when first asked for."""

from __future__ import annotations

import importlib

from .errors import InputError
from .system import GameSystem

#: id → module defining ``SYSTEM``.  Adding a system is one line here plus a package.
KNOWN_SYSTEMS: dict[str, str] = {
    "ragnarok2": "armybuilder.systems.ragnarok2",
    "rattle-and-rend": "armybuilder.systems.rattle_and_rend",
    "morpheus-ragnarok": "armybuilder.systems.morpheus",
}

_loaded: dict[str, GameSystem] = {}


def get_system(system_id: str) -> GameSystem:
    if system_id not in _loaded:
        module_name = KNOWN_SYSTEMS.get(system_id)
        if module_name is None:
            known = ", ".join(KNOWN_SYSTEMS)
            raise InputError.at(f"unknown game system '{system_id}' (known: {known})")
        module = importlib.import_module(module_name)
        _loaded[system_id] = module.SYSTEM
    return _loaded[system_id]


def all_systems() -> list[GameSystem]:
    return [get_system(system_id) for system_id in KNOWN_SYSTEMS]
