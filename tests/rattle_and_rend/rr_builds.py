"""The two builds of the Rattle and Rend engine, for the tests that compare them.

The engine's modules may be compiled in place by mypyc (``.so`` files beside the ``.py``
files); the same checkout without them is the pure-Python path.  A test that needs the pure
path while the compiled one is installed runs it in a subprocess that loads the ``.py``
files: the lead's switch (``ARMYBUILDER_PURE_PYTHON=1``, :mod:`armybuilder._native`) where it
exists, and an import hook of its own where it does not, so the comparison never compares
the compiled build with itself (the subprocess checks what it loaded).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ENGINE = "armybuilder.systems.rattle_and_rend.engine"
ROOT = Path(__file__).resolve().parents[2]

#: run first in the subprocess: load the engine's modules from their sources
_SOURCE_HOOK = f'''
import importlib.util, os, sys

class _EngineSources:
    """Finds the engine's modules as .py files, ahead of any compiled module beside them."""

    def find_spec(self, name, path, target=None):
        if not name.startswith("{ENGINE}.") or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.exists(source):
                return importlib.util.spec_from_file_location(name, source)
        return None

sys.meta_path.insert(0, _EngineSources())
import {ENGINE}.game as _game
assert _game.__file__.endswith(".py"), _game.__file__
'''


def compiled() -> bool:
    """Is the compiled engine what this process imports?"""
    try:
        from armybuilder._native import compiled as native_compiled  # type: ignore[import-not-found]
    except ImportError:
        from armybuilder.systems.rattle_and_rend.engine import game

        return not str(game.__file__).endswith(".py")
    return bool(native_compiled("rattle_and_rend"))


def run_pure(code: str) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python engine; its standard output."""
    env = dict(os.environ, ARMYBUILDER_PURE_PYTHON="1", PYTHONPATH=os.pathsep.join([str(ROOT), str(Path(__file__).parent), str(ROOT / "tests")]))
    out = subprocess.run([sys.executable, "-c", _SOURCE_HOOK + code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout
