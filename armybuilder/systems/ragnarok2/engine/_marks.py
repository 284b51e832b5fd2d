"""mypyc's class markers from mypy_extensions, or stand-ins where that package is not installed.

The engine's optional compiled build (mypyc) needs two markers: ``trait`` on the phase mixins
(mypyc compiles a class with several bases only when all but one are traits, see
:mod:`.base`) and ``mypyc_attr(allow_interpreted_subclasses=True)`` on the classes that a
Python subclass may replace (the exact fray's tests drive the battle with scripted dice).
Both change nothing in plain Python, so the pure-Python engine does not need the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr, trait
else:
    try:
        from mypy_extensions import mypyc_attr, trait
    except ImportError:  # the pure-Python engine without mypy_extensions installed

        def trait(cls):
            return cls

        def mypyc_attr(*args, **kwargs):
            return lambda cls: cls


__all__ = ["mypyc_attr", "trait"]
