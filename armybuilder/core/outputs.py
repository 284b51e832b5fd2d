"""Outputs never replace inputs: where an export, a report or sheets may be written.

``export -o lions.yaml`` once wrote the PDF over the list it came from, with exit 0 and
"Export done".  Every command that writes a file the user names (``export``, ``sheets``,
``meta -o``, the editor's export dialog) asks :func:`output_conflict` first:

* a path that is one of the command's input files (the same file by any name: a
  symlink, a hard link, ``./x`` and ``x``) is refused;
* a path ending in ``.yaml`` or ``.yml`` is refused: list files (and catalogues) are
  YAML, and no export writes YAML, so such a name is a slip of the keyboard or of the
  shell's completion.

``--force`` (the command line) or a confirmation (the editor) writes anyway.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .errors import InputError

#: Suffixes of the files armybuilder reads as lists and catalogues.
LIST_SUFFIXES = (".yaml", ".yml")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        try:
            return a.resolve() == b.resolve()
        except OSError:
            return False


def output_conflict(target: str | Path, inputs: Iterable[str | Path] = ()) -> str | None:
    """Why writing ``target`` would replace an input (a sentence), or None."""
    path = Path(target)
    for source in inputs:
        if _same_file(path, Path(source)):
            return "it is a list being read (writing there would replace it)"
    if path.suffix.lower() in LIST_SUFFIXES:
        exists = "an existing " if path.exists() else "a "
        return f"it is {exists}{path.suffix} file, the kind lists are kept in (an export is never YAML)"
    return None


def as_list_path(path: Path) -> Path:
    """``path`` with ".yaml" added when it lacks a list's suffix: a player who types "my-army"
    for a new list means the file every list command reads, "my-army.yaml"."""
    if path.suffix.lower() in LIST_SUFFIXES:
        return path
    return path.with_name(path.name + ".yaml")


def check_output(target: str | Path, inputs: Iterable[str | Path] = (), force: bool = False, flag: str = "--force") -> None:
    """Raise InputError when ``target`` would replace an input, unless ``force``."""
    if force:
        return
    reason = output_conflict(target, inputs)
    if reason is not None:
        raise InputError.at(f"not written: {reason}; choose another file, or add {flag} to write there anyway", target)


__all__ = ["LIST_SUFFIXES", "as_list_path", "check_output", "output_conflict"]
