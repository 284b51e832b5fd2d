"""The one table of game systems: every part of armybuilder finds systems here.

The command line (``new``, ``validate``, ``catalog``, ``import-bsdata``), the TUI's
home screen, ``armybuilder bench`` and the test suite all iterate :func:`system_ids`
and ask :func:`get_system`; nothing else names a system package.  Adding a system
is one row of :data:`KNOWN_SYSTEMS` (bundled) or one :func:`register` call (a
system living elsewhere, such as the tests' toy game), plus its package.

A system is imported on first use, then checked: a half-written one fails
loudly with :class:`SystemDefinitionError` instead of being skipped.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, TypeAlias

from .errors import InputError

if TYPE_CHECKING:  # imported when a system is loaded: the table alone needs no pydantic
    from .system import GameSystem

#: id → module defining ``SYSTEM``.  Adding a bundled system is one line here plus a package.
KNOWN_SYSTEMS: dict[str, str] = {
    "ragnarok2": "armybuilder.systems.ragnarok2",
    "rattle-and-rend": "armybuilder.systems.rattle_and_rend",
    "morpheus-ragnarok": "armybuilder.systems.morpheus",
}
#: The bundled table alone (the findings cache covers these systems' code and catalogues).
BUNDLED_SYSTEMS: dict[str, str] = dict(KNOWN_SYSTEMS)

#: Extra systems for a process started from outside (``id=module,id=module``); the
#: module must be importable (on ``PYTHONPATH``).
ENVIRONMENT = "ARMYBUILDER_SYSTEMS"

AnySystem: TypeAlias = "GameSystem[Any, Any]"

_loaded: dict[str, AnySystem] = {}


class SystemDefinitionError(Exception):
    """A registered system that cannot be used: a bug in that system, never a user error."""


def register(system_id: str, module: str) -> None:
    """Add a system (its id and the module defining ``SYSTEM``) to the table."""
    KNOWN_SYSTEMS[system_id] = module
    _loaded.pop(system_id, None)


def _from_environment() -> None:
    for item in filter(None, (part.strip() for part in os.environ.get(ENVIRONMENT, "").split(","))):
        system_id, _, module = item.partition("=")
        if not module:
            raise SystemDefinitionError(f"{ENVIRONMENT}: '{item}' is not of the form id=module")
        KNOWN_SYSTEMS.setdefault(system_id.strip(), module.strip())


_from_environment()


def system_ids() -> list[str]:
    """Every registered system id, bundled ones first."""
    return list(KNOWN_SYSTEMS)


def _checked(system_id: str, module_name: str) -> AnySystem:
    """The ``SYSTEM`` of ``module_name``, after checking it is a complete game system."""
    from .system import GameSystem

    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SystemDefinitionError(f"game system '{system_id}': module {module_name} does not import ({exc})") from exc
    system = getattr(module, "SYSTEM", None)
    if not isinstance(system, GameSystem):
        raise SystemDefinitionError(f"game system '{system_id}': {module_name} defines no SYSTEM (a GameSystem instance)")
    if system.id != system_id:
        raise SystemDefinitionError(f"game system '{system_id}': {module_name}.SYSTEM says its id is '{system.id}'")
    for attribute in ("name", "catalog_model", "list_model"):
        # looked up, not read: a model declared with lazy_class is imported on first read
        if not any(attribute in klass.__dict__ for klass in type(system).__mro__):
            raise SystemDefinitionError(f"game system '{system_id}': {type(system).__name__} has no '{attribute}'")
    if system.faction_field is not None and system.faction_field not in system.list_field_names():
        raise SystemDefinitionError(
            f"game system '{system_id}': faction_field '{system.faction_field}' is not a field of {system.list_model.__name__}"
        )
    return system


def get_system(system_id: str) -> AnySystem:
    """The system registered as ``system_id``; an :class:`InputError` naming the known ones otherwise."""
    if system_id not in _loaded:
        module_name = KNOWN_SYSTEMS.get(system_id)
        if module_name is None:
            known = ", ".join(KNOWN_SYSTEMS)
            raise InputError.at(f"unknown game system '{system_id}' (known: {known})")
        _loaded[system_id] = _checked(system_id, module_name)
    return _loaded[system_id]


def all_systems() -> list[AnySystem]:
    """Every registered system, loaded (a broken one raises)."""
    return [get_system(system_id) for system_id in KNOWN_SYSTEMS]


def importers() -> dict[str, str]:
    """System id → module converting BattleScribe data, for the systems that have one."""
    return {s.id: s.importer_module for s in all_systems() if s.importer_module is not None}


def bench_workload(name: str) -> tuple[AnySystem, Any]:
    """(system, value) of the first registered system whose bench module
    (``GameSystem.bench_module``) holds ``name``: ``armybuilder bench`` asks the systems for
    what it measures beyond the protocol (a fray, a planted weakness...) instead of naming one."""
    for system_id in system_ids():
        system = get_system(system_id)
        if system.bench_module is not None:
            module = importlib.import_module(system.bench_module)
            if hasattr(module, name):
                return system, getattr(module, name)
    raise LookupError(f"no game system offers the bench workload {name!r}")
