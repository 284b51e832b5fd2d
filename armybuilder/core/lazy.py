"""Modules imported on first use, so a command pays only for what it runs.

A game system names its editing, sheets and rules modules as class attributes;
importing them all when the system is registered made ``validate`` pay for the
editor's code (tens of milliseconds a process).  :func:`lazy_module` stands in for
the module and imports it when an attribute is first read.
"""

from __future__ import annotations

import importlib
from typing import Any

#: attributes Python looks up on every value of a class body as the class is created
_PROBES = frozenset({"__set_name__", "__isabstractmethod__"})


class _LazyModule:
    """A stand-in that imports the named module on first attribute access."""

    __slots__ = ("_lazy_name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_lazy_name", name)

    def __getattr__(self, attr: str) -> Any:
        if attr in _PROBES:
            # Python's own probes when the class holding this stand-in is created:
            # answering them by importing made every lazy module load with its system.
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._lazy_name), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._lazy_name!r}>"


def lazy_module(name: str) -> Any:
    """A module imported on first use (``importlib`` caches it after that).

    Typed ``Any``: it stands for whatever protocol the attribute it fills declares.
    """
    return _LazyModule(name)
