"""List paths: the one typed address of a place in an army list.

Findings, the outline, edit actions and the editor all name places of a list as
text (``units[2].members[0]``: stable, JSON-able, what a player reads in a
report).  That text is parsed here and only here into a :class:`ListPath`, which
then answers every question the layers ask of a place: its parent and
ancestors, the model object it names, the line of the file it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)((?:\[\d+\])*)")
_INDEX = re.compile(r"\[(\d+)\]")


class PathError(ValueError):
    """A text that is not a list path."""


@dataclass(frozen=True)
class Step:
    """One field of a path, with the index of an item when the field holds a list."""

    name: str
    index: int | None = None

    def __str__(self) -> str:
        return self.name if self.index is None else f"{self.name}[{self.index}]"


@dataclass(frozen=True)
class ListPath:
    """A place in a list: ``ListPath.parse("units[2].members[0]")``; the list itself is ``ROOT``."""

    steps: tuple[Step, ...] = ()

    @classmethod
    def parse(cls, text: str | ListPath) -> ListPath:
        """Read a path; :class:`PathError` when ``text`` is not one (``""`` is the list)."""
        if isinstance(text, ListPath):
            return text
        if not text:
            return ROOT
        steps: list[Step] = []
        for chunk in text.split("."):
            match = _STEP.fullmatch(chunk)
            if match is None:
                raise PathError(f"'{text}' is not a list path (at '{chunk}')")
            indexes = [int(i) for i in _INDEX.findall(match[2])]
            if len(indexes) > 1:
                raise PathError(f"'{text}' is not a list path (two indexes in '{chunk}')")
            steps.append(Step(match[1], indexes[0] if indexes else None))
        return cls(tuple(steps))

    @classmethod
    def of(cls, *parts: str | int) -> ListPath:
        """A path from names and indexes: ``ListPath.of("units", 2, "members", 0)``."""
        steps: list[Step] = []
        for part in parts:
            if isinstance(part, int):
                if not steps or steps[-1].index is not None:
                    raise PathError(f"index {part} follows no field")
                steps[-1] = Step(steps[-1].name, part)
            else:
                steps.append(Step(part))
        return cls(tuple(steps))

    def __str__(self) -> str:
        return ".".join(str(step) for step in self.steps)

    def words(self) -> str:
        """The place as a reader counts it, from 1: ``units[0].members[1]`` → "unit 1, member 2",
        ``god_powers[2]`` → "god power 3", ``limit`` → "limit" (prints number units from 1)."""
        parts = []
        for step in self.steps:
            name = step.name.replace("_", " ")
            if step.index is None:
                parts.append(name)
            else:
                singular = name[:-1] if name.endswith("s") and not name.endswith("ss") else name
                parts.append(f"{singular} {step.index + 1}")
        return ", ".join(parts)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def keys(self) -> list[str | int]:
        """The mapping keys and sequence indexes to follow in a document, in order."""
        out: list[str | int] = []
        for step in self.steps:
            out.append(step.name)
            if step.index is not None:
                out.append(step.index)
        return out

    def child(self, name: str, index: int | None = None) -> ListPath:
        return ListPath((*self.steps, Step(name, index)))

    @property
    def parent(self) -> ListPath:
        """The enclosing place: ``units[2]`` for ``units[2].members[0]``, ``units`` for ``units[2]``."""
        if not self.steps:
            return self
        last = self.steps[-1]
        if last.index is not None:
            return ListPath((*self.steps[:-1], Step(last.name)))
        return ListPath(self.steps[:-1])

    def ancestors(self) -> Iterator[ListPath]:
        """This place, then each enclosing one up to the list itself."""
        path = self
        while True:
            yield path
            if not path:
                return
            path = path.parent

    def item(self) -> tuple[str, int] | None:
        """(field, index) when this path is one item of a top-level collection (``units[2]``)."""
        if len(self.steps) == 1 and self.steps[0].index is not None:
            return self.steps[0].name, self.steps[0].index
        return None

    def resolve(self, root: Any) -> Any:
        """The object at this place of a list model (or of plain data); None when it is not there."""
        node = root
        for key in self.keys():
            if isinstance(key, int):
                if not isinstance(node, (list, tuple)) or not 0 <= key < len(node):
                    return None
                node = node[key]
            elif isinstance(node, dict):
                node = node.get(key)
            else:
                node = getattr(node, key, None)
            if node is None:
                return None
        return node


ROOT = ListPath()
"""The list itself."""


def parse_path(text: str) -> list[tuple[str, int | None]]:
    """``"units[2].members[0]"`` → ``[("units", 2), ("members", 0)]``; ``""`` → ``[]``.

    The systems' editing modules walk these pairs; an unreadable path reads as the
    steps it starts with, as an edit at a place that no longer exists is refused later.
    """
    try:
        return [(s.name, s.index) for s in ListPath.parse(text).steps]
    except PathError:
        return []


def ancestors(text: str) -> list[str]:
    """``units[1].members[0]`` → itself, ``units[1].members``, ``units[1]``, ``units``, ``""``.

    A text that is not a path has only itself and the list as places.
    """
    try:
        return [str(p) for p in ListPath.parse(text).ancestors()]
    except PathError:
        return [text, ""] if text else [""]


def place_words(where: str) -> str:
    """A finding's place as words for a print ("unit 1, member 2"); a text that is not a
    list path is returned as it is, and the list itself is ""."""
    try:
        return ListPath.parse(where).words()
    except PathError:
        return where
