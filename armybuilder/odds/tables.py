"""A system's odds tables, remembered so that ``armybuilder odds`` loads no game system.

The odds of one roll need a few rows of the catalogue (Rag'Narok 2's contest table,
Rattle and Rend's check dice and group types, the Morpheus Engine's opposed-roll table).
Loading the system to read them imports pydantic, the system's models and its catalogue:
most of the command's time.  So a process that did load the system (the command's first
run, or any later one whose files changed) stores the plain tables in the authenticated
cache (:mod:`armybuilder.core.catalog_cache`), and the next runs read them back.

They are believed only while what they were read from is unchanged: the catalogue folder's
files (errata and data alike; samples aside), the system package's ``__init__`` and
``catalog`` modules (the model fills in defaults), its ``engine/odds.py`` (which reads the
tables) and the calculator module (which takes them) are hashed again, standard library
only, and compared with the digest they were stored under, as ``catalog list`` does for its
rows (:mod:`armybuilder.core.catalog_listing`).

The calculator is a module of the system's package (``GameSystem.odds_calculator``), which
imports nothing of its system (an import-linter contract): :func:`calculator` runs its file
without the package's ``__init__``, which would load the game-system protocol.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from armybuilder import __version__
from armybuilder.core import catalog_cache


def _package_folder(module: str) -> Path | None:
    """The folder of the system package ``module``, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or Path(spec.origin).name != "__init__.py":
        return None
    return Path(spec.origin).parent


def _calculator_file(module: str, calculator: str) -> Path | None:
    """The source of ``calculator``, a module directly inside the system package ``module``."""
    parent, _, leaf = calculator.rpartition(".")
    folder = _package_folder(module) if parent == module and leaf.isidentifier() else None
    return folder / f"{leaf}.py" if folder is not None else None


def _digest(system_id: str, module: str, calculator: str, folder: Path) -> str | None:
    """A digest of everything the stored tables were read from; None when it cannot be made."""
    digest = hashlib.sha256(f"{__version__}\0{system_id}\0{module}\0{calculator}\0".encode())
    try:
        calc = _calculator_file(module, calculator)
        if calc is None or not calc.is_file():
            return None
        package = calc.parent
        for path in (package / "__init__.py", package / "catalog.py", package / "engine" / "odds.py", calc):
            if path.is_file():
                digest.update(f"\0{path.name}\0".encode() + path.read_bytes())
        for path in sorted(folder.rglob("*.yaml")):
            rel = path.relative_to(folder)
            if rel.parts[0] != "samples":
                digest.update(f"\0{rel.as_posix()}\0".encode() + path.read_bytes())
    except (ImportError, ValueError, OSError):
        return None
    return digest.hexdigest()


def _name(system_id: str) -> str:
    return f"{system_id}-odds.json"


def cached(system_id: str, module: str) -> dict[str, Any] | None:
    """The stored entry of a system (``name``, ``calculator``, ``version``, ``tables``), if
    its files are still the ones it was read from."""
    entry = catalog_cache.read(_name(system_id))
    if not isinstance(entry, dict) or entry.get("module") != module:
        return None
    folder, calc = entry.get("folder"), entry.get("calculator")
    if not isinstance(folder, str) or not isinstance(calc, str):
        return None
    if entry.get("digest") != _digest(system_id, module, calc, Path(folder)):
        return None
    return entry


def calculator(entry: dict[str, Any]) -> ModuleType:
    """The calculator module of a :func:`cached` entry, run from its file: its package (the
    game system) is not imported, so the command loads neither the protocol nor pydantic."""
    name = entry["calculator"]
    if name in sys.modules:
        return sys.modules[name]
    path = _calculator_file(entry["module"], name)
    spec = importlib.util.spec_from_file_location(name, path) if path is not None else None
    if spec is None or spec.loader is None:
        raise ImportError(f"no odds calculator {name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def remember(system_id: str, module: str, folder: object, calculator: str, name: str, version: str, tables: Any) -> None:
    """Store a loaded system's tables (nothing when its folder is not a plain directory)."""
    if not isinstance(folder, Path):
        return
    digest = _digest(system_id, module, calculator, folder)
    if digest is not None:
        catalog_cache.write(_name(system_id), {
            "module": module, "folder": str(folder), "calculator": calculator, "name": name,
            "version": version, "tables": tables, "digest": digest,
        })
