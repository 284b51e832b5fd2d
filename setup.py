"""Build step of armybuilder: the battle engines' hot modules compiled by mypyc, when possible.

Everything else about the package lives in pyproject.toml; this file exists only because
extension modules need code at build time. Why compile: a playtest plays thousands of games and
the engines are plain, fully typed Python, which mypyc turns into C with the same behaviour. The
.py files stay beside the compiled modules and remain the reference: `armybuilder._native`
loads them instead when ARMYBUILDER_PURE_PYTHON is set or when a source changed after the build,
and the parity tests check that both play the same games.

The compiled build is optional. It is skipped, and the package installs as pure Python, when
ARMYBUILDER_NO_COMPILE is set, when mypyc is not available, or when type checking or the C
compiler fails (a warning says why). Each compiled engine gets a manifest
(``_native_build.json``: module -> sha256 of the source compiled) so a stale build is noticed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# Engine package -> its modules compiled together (one mypyc group, one shared library).
# A module left out stays Python (the exact-odds code runs once per question, not per game).
NATIVE_ENGINES: dict[str, list[str]] = {
    "armybuilder/systems/ragnarok2/engine": [
        "abilities", "ai", "assault", "base", "battle", "battlefield", "chance", "combat", "contact", "dice",
        "field_ai", "flight", "formation", "fray", "geometry", "line_ai", "maintenance", "movement",
        "mystic_phase", "mystics", "narration", "odds", "outcome", "policy", "recorder", "shooting", "sight",
        "space", "state", "strategic", "tables", "wounds",
    ],
    "armybuilder/systems/rattle_and_rend/engine": [
        "state", "board", "dice", "gamestate", "geometry", "scenario", "setup", "combat", "reactions",
        "actions", "policy", "ai_values", "ai", "game",
    ],
    "armybuilder/systems/morpheus/engine": [
        "fighters", "gamestate", "dice", "geometry", "combat", "movement", "powers", "policy", "activation", "ai", "battle",
    ],
}  # fmt: skip
MANIFEST = "_native_build.json"


def _warn(text: str) -> None:
    print(f"armybuilder build: {text}; installing the pure-Python engines", file=sys.stderr)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _native_extensions() -> list:
    """The mypyc extensions, or none (with a warning) when they cannot be built here."""
    if os.environ.get("ARMYBUILDER_NO_COMPILE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    extensions: list = []
    old = Path.cwd()
    os.chdir(ROOT)  # mypyc reads pyproject.toml's [tool.mypy] and writes build/ here
    try:
        for package, modules in NATIVE_ENGINES.items():
            group = package.replace("/", ".") + ".native"  # the shared library lives in the package
            paths = [f"{package}/{name}.py" for name in modules]
            extensions += mypycify(paths, group_name=group, opt_level="3")
        for extension in extensions:
            # Every float operation rounded on its own, as the interpreter does: a C compiler
            # may otherwise fuse a*b+c into one instruction (GCC does by default where the CPU
            # has FMA, e.g. aarch64), and the compiled engine would round differently from
            # its .py sources and could play different games.
            extension.extra_compile_args = [*(extension.extra_compile_args or []), "-ffp-contract=off"]
    except (Exception, SystemExit) as error:  # type errors end mypycify with SystemExit
        _warn(f"mypyc could not compile the engines ({error!r})")
        return []
    finally:
        os.chdir(old)
    return extensions


class NativeBuild(build_ext):
    """build_ext that falls back to pure Python and records what it compiled."""

    def finalize_options(self) -> None:
        # The real extensions are made here, not when setup.py is read: pip reads it more than
        # once, and mypyc's type check and C generation take a while.
        self.distribution.ext_modules = _native_extensions()
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        if self.editable_mode:
            self.inplace = True  # an editable install runs the sources: the modules go beside them
        try:
            super().run()
        except Exception as error:  # no C compiler, missing headers...
            _warn(f"the C compiler failed ({error!r})")
            self._remove_outputs()
            return
        self._write_manifests()

    def _targets(self) -> list[Path]:
        """Where the built package lives: the build tree, and the sources for an editable install."""
        targets = [Path(self.build_lib)]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(ROOT)
        return targets

    def _remove_outputs(self) -> None:
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)
        for target in self._targets():
            for package in NATIVE_ENGINES:
                (target / package / MANIFEST).unlink(missing_ok=True)

    def _write_manifests(self) -> None:
        for package, modules in NATIVE_ENGINES.items():
            manifest = {
                "compiler": "mypyc",
                "modules": {name: _digest(ROOT / package / f"{name}.py") for name in modules},
            }
            text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
            for target in self._targets():
                folder = target / package
                folder.mkdir(parents=True, exist_ok=True)
                (folder / MANIFEST).write_text(text)


if sys.argv[1:] == ["--print-native-sources"]:  # for scripts/_setup.sh: what a compile reads
    print("\n".join(f"{package}/{name}.py" for package, modules in NATIVE_ENGINES.items() for name in modules))
    sys.exit(0)

# A placeholder per engine: it makes setuptools run build_ext (and tag the wheel for this
# platform); NativeBuild.finalize_options() replaces it with mypyc's extensions or with nothing.
# Asked for a pure build: no placeholder, so the wheel is a plain pure-Python one.
PLACEHOLDERS = [Extension(package.replace("/", ".") + ".native__mypyc", sources=[]) for package in NATIVE_ENGINES]
setup(ext_modules=[] if os.environ.get("ARMYBUILDER_NO_COMPILE") else PLACEHOLDERS, cmdclass={"build_ext": NativeBuild})
