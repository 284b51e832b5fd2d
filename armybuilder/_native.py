"""Which battle engines run compiled, and the way back to their pure-Python sources.

setup.py may compile an engine's hot modules with mypyc; the compiled modules sit beside the .py
files they were built from, and Python would load them first. The .py files stay the reference:
the engine must play the same games either way, so this module can make an engine load its
sources instead, for three reasons:

- ``ARMYBUILDER_PURE_PYTHON`` is set (the parity tests and a user who wants to compare);
- a compiled module's source changed after the build (its sha256 no longer matches the build
  manifest): an edit must never be hidden by an old binary;
- a compiled module is missing (a partial or failed build).

The choice is made once per engine, when its package is imported (each engine's ``__init__``
calls :func:`choose`), and for all its compiled modules together: mypyc compiles them as one
group that calls itself directly, so mixing compiled and source modules is never allowed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PURE_ENV = "ARMYBUILDER_PURE_PYTHON"
MANIFEST = "_native_build.json"

# Engine package -> how it runs: "compiled", or "pure Python (<why>)".
_CHOSEN: dict[str, str] = {}


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules' .py files, ahead of the compiled modules beside them."""

    def __init__(self, folder: Path, names: set[str]) -> None:
        self.folder = folder
        self.names = names

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = self.folder / (fullname.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(fullname, source)


def _why_pure(folder: Path, modules: dict[str, str]) -> str | None:
    """The reason the compiled modules must not be used, or None when they can be."""
    if os.environ.get(PURE_ENV):
        return f"{PURE_ENV} is set"
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for name, digest in sorted(modules.items()):
        if not any((folder / f"{name}{suffix}").is_file() for suffix in suffixes):
            return f"{name} was not compiled"
        source = folder / f"{name}.py"
        try:
            current = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return f"{name}.py cannot be read"
        if current != digest:
            return f"{name}.py changed after the build (rebuild: ./scripts/compile)"
    return None


def choose(package: str, path: list[str]) -> None:
    """Called by an engine package's ``__init__``: use its compiled modules, or its sources."""
    folder = Path(path[0])
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        modules: dict[str, str] = dict(manifest["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        _CHOSEN[package] = "pure Python (not compiled)"
        return
    why = _why_pure(folder, modules)
    if why is None:
        _CHOSEN[package] = f"compiled ({manifest.get('compiler', 'native')})"
        return
    names = {f"{package}.{name}" for name in modules}
    sys.meta_path.insert(0, _SourcesFirst(folder, names))
    _CHOSEN[package] = f"pure Python ({why})"


def _engine_package(system: str) -> str:
    """The engine package of the registered system *system* (its ``engine_package``), or
    *system* itself, taken as an engine package's dotted name."""
    from armybuilder.core.registry import KNOWN_SYSTEMS, get_system

    if system in KNOWN_SYSTEMS:
        package = get_system(system).engine_package
        if package is None:
            raise LookupError(f"game system '{system}' declares no engine package")
        return package
    return system


def build_of(system: str) -> str:
    """How *system*'s engine runs in this process ("compiled (mypyc)" or "pure Python (why)");
    *system* is a registered system's id or an engine package's dotted name."""
    package = _engine_package(system)
    importlib.import_module(package)
    return _CHOSEN.get(package, "pure Python (not compiled)")


def compiled(system: str) -> bool:
    """True when *system*'s engine runs its compiled modules in this process."""
    return build_of(system).startswith("compiled")


def builds() -> dict[str, str]:
    """System id -> how its engine runs in this process, for every registered system with one."""
    from armybuilder.core.registry import get_system, system_ids

    return {system: build_of(system) for system in system_ids() if get_system(system).engine_package is not None}


def main(argv: list[str]) -> int:
    """``python -m armybuilder._native``: how each engine runs here, one line each (the setup
    scripts print it); ``--any-compiled``: exit 0 when at least one engine runs compiled."""
    from armybuilder import _native  # the module the engines report to (this one is __main__)

    found = _native.builds()
    if argv == ["--any-compiled"]:
        return 0 if any(build.startswith("compiled") for build in found.values()) else 1
    for system, build in found.items():
        print(f"  {system} engine: {build}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
