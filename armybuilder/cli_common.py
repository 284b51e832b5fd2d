"""What every ``armybuilder`` command shares: exit codes, the usage-error parser, sanitised
output, and how a list is read (kept apart from cli.py so the command modules can use it
without importing the whole command table)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from armybuilder.core.filesets import expand_paths  # noqa: F401 - re-exported for the commands

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors share one path."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _out(text: str = "") -> None:
    """Every line the CLI prints: user text in it can never reach the terminal raw."""
    from armybuilder.core.sanitize import visible_lines

    sys.stdout.write(visible_lines(text) + "\n")


def _err(text: str) -> None:
    from armybuilder.core.sanitize import visible_lines

    sys.stderr.write(visible_lines(text) + "\n")


def _json(value: Any, **options: Any) -> None:
    """Print JSON with every control character escaped (the data itself unchanged)."""
    from armybuilder.core.sanitize import safe_json

    sys.stdout.write(safe_json(value, **options) + "\n")


# --------------------------------------------------------------------------- helpers



def _system(system_id: str):
    from armybuilder.core.registry import get_system

    return get_system(system_id)


def _load(path: str):
    """A list to edit and save: the round-trip loader (comments and layout kept)."""
    from armybuilder.core.lists import load_list

    return load_list(path)


def _read(path: str):
    """A list only read (fingerprint, export, odds, playtest): libyaml's fast path, whose
    answers and errors are the round trip's (it hands anything unusual to it), at a fraction
    of the cost on a long list."""
    from armybuilder.core.lists import read_list

    return read_list(path)


def _sound_catalogue(lf):
    """The catalogue a list is pinned to, refused (exit 2) if it fails ``catalog check``."""
    cat = lf.system.catalogue_for(lf.army)
    lf.system.source.require_sound(cat.version)
    return cat
