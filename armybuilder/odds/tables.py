"""A system's odds tables, remembered so that ``armybuilder odds`` loads no game system.

The odds of one roll need a few rows of the catalogue (Rag'Narok 2's contest table,
Rattle and Rend's check dice and group types, the Morpheus Engine's opposed-roll table).
Loading the system to read them imports pydantic, the system's models and its catalogue:
most of the command's time.  So a process that did load the system (the command's first
run, or any later one whose files changed) stores the plain tables in the authenticated
cache (:mod:`armybuilder.core.catalog_cache`), and the next runs read them back.

They are believed only while what they were read from is unchanged: the catalogue folder's
files (errata and data alike; samples aside), the system package's ``__init__`` and
``catalog`` modules (the model fills in defaults), its odds module (``GameSystem.odds_module``,
which reads the tables) and the calculator module (which takes them) are hashed again, standard library
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


def _module_file(module: str, name: str, *, direct: bool = False) -> Path | None:
    """The source of ``name``, a module inside the system package ``module`` (``direct``:
    directly inside it), found without importing the package."""
    inner = name.removeprefix(module + ".")
    parts = inner.split(".")
    if inner == name or not all(part.isidentifier() for part in parts) or (direct and len(parts) > 1):
        return None
    folder = _package_folder(module)
    return folder.joinpath(*parts[:-1], f"{parts[-1]}.py") if folder is not None else None


def _calculator_file(module: str, calculator: str) -> Path | None:
    """The source of ``calculator``, a module directly inside the system package ``module``."""
    return _module_file(module, calculator, direct=True)


def _digest(system_id: str, module: str, calculator: str, folder: Path, odds_module: str = "") -> str | None:
    """A digest of everything the stored tables were read from (the catalogue's files, the
    package's ``__init__`` and ``catalog`` modules, the odds module that reads the tables and
    the calculator that takes them); None when it cannot be made."""
    digest = hashlib.sha256(f"{__version__}\0{system_id}\0{module}\0{calculator}\0{odds_module}\0".encode())
    try:
        calc = _calculator_file(module, calculator)
        if calc is None or not calc.is_file():
            return None
        package = calc.parent
        reader = _module_file(module, odds_module) if odds_module else None
        for path in (package / "__init__.py", package / "catalog.py", reader, calc):
            if path is not None and path.is_file():
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
    folder, calc, reader = entry.get("folder"), entry.get("calculator"), entry.get("odds_module", "")
    if not isinstance(folder, str) or not isinstance(calc, str) or not isinstance(reader, str):
        return None
    if entry.get("digest") != _digest(system_id, module, calc, Path(folder), reader):
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


def remember(system_id: str, module: str, folder: object, calculator: str, name: str, version: str, tables: Any,
             odds_module: str = "") -> None:  # fmt: skip
    """Store a loaded system's tables (nothing when its folder is not a plain directory);
    ``odds_module``: the system's module that read them (its ``odds_module``)."""
    if not isinstance(folder, Path):
        return
    digest = _digest(system_id, module, calculator, folder, odds_module)
    if digest is not None:
        catalog_cache.write(_name(system_id), {
            "module": module, "folder": str(folder), "calculator": calculator, "odds_module": odds_module,
            "name": name, "version": version, "tables": tables, "digest": digest,
        })
