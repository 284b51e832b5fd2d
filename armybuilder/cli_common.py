"""What every ``armybuilder`` command shares: exit codes, the usage-error parser, sanitised
output, and how a list is read (kept apart from cli.py so the command modules can use it
without importing the whole command table)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from armybuilder.core.errors import InputError
from armybuilder.core.filesets import expand_paths  # noqa: F401 - re-exported for the commands

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors share one path."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


#: Bounds of the count arguments, checked before anything is allocated: a game count
#: beyond these would run for days, a seed must fit numpy's generator.
MAX_GAMES = 10_000_000
MAX_SEED = 2**63 - 1
MAX_WORKERS = 256


def check_range(flag: str, value: float, low: float, high: float) -> None:
    """A count argument within its bounds, else a usage error naming the flag and the value."""
    if not low <= value <= high:
        def shown(v: float) -> str:
            text = str(v) if isinstance(v, int) else str(int(v)) if v.is_integer() else f"{v:g}"
            return text if len(text) <= 24 else text[:24] + "…"

        raise UsageError(f"armybuilder: {flag} must be between {shown(low)} and {shown(high)} (got {shown(value)})")


def _out(line: str = "") -> None:
    """One line the CLI prints.  Always one: every control character in it, line feeds and
    tabs included, shows as an escape (core/sanitize.py), so a name from a file can neither
    talk to the terminal nor start a line of its own."""
    from armybuilder.core.sanitize import visible

    sys.stdout.write(visible(line) + "\n")


def _out_block(text: str) -> None:
    """Text the program laid out in lines, each of whose fields passed ``visible`` (a
    roster, a validation report, an error with several problems): printed a line at a time."""
    for line in text.split("\n"):
        _out(line)


def _err(line: str) -> None:
    """One line on stderr, made visible as :func:`_out` makes it."""
    from armybuilder.core.sanitize import visible

    sys.stderr.write(visible(line) + "\n")


def _err_block(text: str) -> None:
    """Lines on stderr, as :func:`_out_block` prints them."""
    for line in text.split("\n"):
        _err(line)


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


def read_opponent(system, name: str):
    """An opponent for odds and playtest: a list file, or one of *system*'s bundled samples by
    its name (with or without ``.yaml``)."""
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import decode_text, parse_text

    path = Path(name)
    if path.is_file():
        return _read(name)
    samples = dict(system.source.samples())
    wanted = name if name.endswith(".yaml") else f"{name}.yaml"
    if wanted in samples:
        label = f"sample:{name}"
        doc = parse_text(decode_text(samples[wanted].read_bytes(), label), label)
        return list_from_doc(doc, label, None)
    known = ", ".join(s.removesuffix(".yaml") for s in samples)
    raise InputError.at(f"'{name}' is neither a list file nor a bundled sample of {system.name} (samples: {known})")


def resolve_unit(names: list[str], ref: str, where: str) -> int:
    """0-based index of the unit *ref* (a 1-based index, or a name: exact, then the only one that
    starts with it, then the only one containing it; case-insensitive). ValueError otherwise."""
    ref = ref.strip()
    listing = ", ".join(f"{i}. {n}" for i, n in enumerate(names, 1))
    if ref.isdigit():
        i = int(ref)
        if 1 <= i <= len(names):
            return i - 1
        raise ValueError(f"{where}: no unit number {i} (units: {listing})")
    low = ref.casefold()
    for test in (lambda n: n.casefold() == low, lambda n: n.casefold().startswith(low), lambda n: low in n.casefold()):
        hits = [i for i, n in enumerate(names) if test(n)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise ValueError(f"{where}: '{ref}' names several units ({', '.join(names[i] for i in hits)}); use its number")
    raise ValueError(f"{where}: no unit named '{ref}' (units: {listing})")
