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


class LazyClass:
    """A class attribute naming a class by its dotted name, imported on first read.

    A game system's pydantic models (``catalog_model``, ``list_model``) are declared so:
    validating a list through its plain mirror then never imports pydantic, and the
    catalogue cache still knows the model's name (:attr:`dotted`) without importing it.
    """

    __slots__ = ("dotted",)

    def __init__(self, dotted: str) -> None:
        self.dotted = dotted

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        module, _, name = self.dotted.rpartition(".")
        return getattr(importlib.import_module(module), name)

    def __repr__(self) -> str:
        return f"<lazy class {self.dotted!r}>"


def lazy_class(dotted: str) -> Any:
    """A class imported on first read of the attribute holding it (see :class:`LazyClass`)."""
    return LazyClass(dotted)


def dotted_name(owner: type, attribute: str) -> str:
    """The dotted name of the class ``owner.attribute`` holds, without importing a lazy one."""
    for klass in owner.__mro__:
        if attribute in klass.__dict__:
            value = klass.__dict__[attribute]
            if isinstance(value, LazyClass):
                return value.dotted
            return f"{value.__module__}.{value.__qualname__}"
    raise AttributeError(f"{owner.__name__} has no {attribute!r}")
