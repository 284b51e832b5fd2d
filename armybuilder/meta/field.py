"""The lists of a meta run: read, checked, and paired.

A meta matrix only means something between lists of one game system on one
catalogue version (``play_game`` takes one catalogue), so a mixed folder is a
usage error, not a silent half-run.  Illegal lists are reported and left out
unless the organiser asks for them; unreadable files are always left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from armybuilder.core.errors import InputError
from armybuilder.core.findings import errors
from armybuilder.core.system import ArmyListBase, GameSystem


@dataclass
class MetaList:
    """One list of the matrix: where it came from, what it is, whether it is legal."""

    path: str
    name: str
    fingerprint: str
    system: GameSystem
    army: ArmyListBase
    catalogue: str
    problems: list[str] = field(default_factory=list)
    #: the field's label of this list (see :func:`label_field`); the file's stem until then
    display: str = ""
    #: at most :data:`~.labels.SHORT` characters, distinct within the field
    short: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def label(self) -> str:
        """The list's label in the matrix: the file's stem (names repeat, files do not)."""
        return self.display or Path(self.path).stem

    @property
    def short_label(self) -> str:
        return self.short or self.label

    @property
    def player(self) -> str:
        return getattr(self.army, "player", "") or ""

    def content(self) -> dict[str, Any]:
        return self.army.model_dump(mode="json")

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "label": self.label,
            "short_label": self.short_label,
            "player": self.player,
            "fingerprint": self.fingerprint,
            "legal": self.legal,
        }


@dataclass
class LeftOut:
    path: str
    reason: str

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


def read_list(path: Path) -> MetaList:
    """Load, validate and fingerprint one file (raises InputError if unreadable)."""
    from armybuilder.core.lists import list_fingerprint, load_list

    lf = load_list(path)
    cat = lf.system.catalogue_for(lf.army)
    problems = [f.message for f in errors(lf.system.findings(lf.army, cat))]
    return MetaList(
        path=str(path),
        name=lf.army.name,
        fingerprint=list_fingerprint(lf.army, cat),
        system=lf.system,
        army=lf.army,
        catalogue=lf.army.catalogue,
        problems=problems,
    )


def from_army(system: GameSystem, army: ArmyListBase, label: str) -> MetaList:
    """A list being edited (maybe unsaved) as a row of the matrix."""
    from armybuilder.core.lists import list_fingerprint

    cat = system.catalogue_for(army)
    problems = [f.message for f in errors(system.findings(army, cat))]
    return MetaList(label, army.name, list_fingerprint(army, cat), system, army, army.catalogue, problems)


#: Problems named in a left-out list's reason; the rest are counted (``validate`` lists all).
SHOWN_PROBLEMS = 3


def summarised(problems: list[str]) -> str:
    """A few problems on one line, then how many more: a list with hundreds of errors
    must not flood the organiser's terminal."""
    text = "; ".join(problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    return text + (f"; and {more} more (armybuilder validate lists them)" if more > 0 else "")


def read_lists(paths: Iterable[Path], include_illegal: bool = False) -> tuple[list[MetaList], list[LeftOut]]:
    """The usable lists of *paths* and the files left out, with the reason for each."""
    kept: list[MetaList] = []
    left: list[LeftOut] = []
    for path in paths:
        try:
            item = read_list(path)
        except InputError as exc:
            left.append(LeftOut(str(path), "unreadable: " + summarised([str(p) for p in exc.problems])))
            continue
        if item.legal or include_illegal:
            kept.append(item)
        else:
            left.append(LeftOut(str(path), "not legal: " + summarised(item.problems)))
    return kept, left


def check_same_game(lists: list[MetaList]) -> tuple[GameSystem, str]:
    """The one system and catalogue version of *lists*; InputError naming the odd ones out."""
    if not lists:
        raise InputError.at("no usable list: a meta matrix needs at least two lists")
    by_system: dict[str, list[str]] = {}
    for item in lists:
        by_system.setdefault(item.system.id, []).append(item.path)
    if len(by_system) > 1:
        parts = "; ".join(f"{sid}: {', '.join(paths[:3])}{' …' if len(paths) > 3 else ''}" for sid, paths in by_system.items())
        raise InputError.at(f"the lists belong to different game systems ({parts}); a meta matrix compares one system")
    by_version: dict[str, list[str]] = {}
    for item in lists:
        by_version.setdefault(item.catalogue, []).append(item.path)
    if len(by_version) > 1:
        parts = "; ".join(f"{v}: {', '.join(paths[:3])}{' …' if len(paths) > 3 else ''}" for v, paths in sorted(by_version.items()))
        raise InputError.at(
            f"the lists pin different catalogue versions ({parts}); "
            "move them to one with 'armybuilder list upgrade LIST --to VERSION'"
        )
    system = lists[0].system
    if not system.engine_ready():
        raise InputError.at(f"{system.name} has no battle simulator yet")
    return system, lists[0].catalogue


def label_field(lists: Iterable[MetaList]) -> None:
    """Give every list of a run a distinct label and a distinct short label."""
    from .labels import path_labels, short_labels

    lists = list(lists)
    paths = list(dict.fromkeys(x.path for x in lists))  # a file in the rows and in the field: one label
    labels = dict(zip(paths, path_labels(paths), strict=True))
    shorts = dict(zip(paths, short_labels([labels[p] for p in paths]), strict=True))
    for item in lists:
        item.display, item.short = labels[item.path], shorts[item.path]


def pairings(rows: list[MetaList], cols: list[MetaList], square: bool) -> list[tuple[int, int]]:
    """Ordered (row, column) pairings to play.

    Square (every list against every list): all ordered pairs but a list against
    itself.  Against a field (``--vs``): every row against every field list, but
    a file against the very same file.
    """
    out = []
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            if square and i == j:
                continue
            if not square and Path(a.path).resolve() == Path(b.path).resolve():
                continue
            out.append((i, j))
    return out
