"""Writes the plain mirrors (:mod:`armybuilder.core.plain`) of pydantic models, as source.

A mirror is generated, never written by hand, so it cannot drift from its model:
``python -m armybuilder.core.plain_gen`` rewrites every bundled mirror module, and
``tests/core/test_core_plain.py`` fails while a committed one differs from what this
module writes now.  A model's methods come from its pydantic-free bases (mixins such as
``ProfileMethods``), which the mirror inherits too; a model with a method of its own
is refused, so every method both paths call is the same code.

This module imports pydantic: it runs at development time and in the tests only.
"""

from __future__ import annotations

import datetime
import enum
import types
import typing
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

#: the core's own mirror module and the models it mirrors (roots; the models they use come along)
CORE_MIRROR: dict[str, tuple[str, ...]] = {
    "armybuilder.core.plain_catalog": (
        "armybuilder.core.catalog_models.Manifest",
        "armybuilder.core.catalog_models.Erratum",
    ),
}


def mirrors() -> dict[str, tuple[str, ...]]:
    """Generated module → the models it mirrors: the core's, and each bundled system's
    ``plain_module`` with its catalogue and list models (one module for both), as the
    registry's systems declare them."""
    from .lazy import dotted_name
    from .registry import BUNDLED_SYSTEMS, get_system

    found = dict(CORE_MIRROR)
    for system_id in BUNDLED_SYSTEMS:
        system = get_system(system_id)
        if system.plain_module is not None:
            found[system.plain_module] = (dotted_name(type(system), "catalog_model"), dotted_name(type(system), "list_model"))
    return found


_LIMITS = {
    annotated_types.Ge: "ge", annotated_types.Gt: "gt", annotated_types.Le: "le", annotated_types.Lt: "lt",
    annotated_types.MinLen: "min_length", annotated_types.MaxLen: "max_length",
}
_PYDANTIC_BASES = frozenset(("BaseModel", "Strict", "CatalogModel", "ArmyListBase"))


class NotMirrored(TypeError):
    """A model this generator cannot mirror exactly (say so, rather than guess)."""


def _load(dotted: str) -> Any:
    import importlib

    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _forward(tp: Any) -> bool:
    """Whether an annotation still holds a forward reference (a name pydantic left as text)."""
    if isinstance(tp, (str, typing.ForwardRef)):
        return True
    return any(_forward(a) for a in typing.get_args(tp) if a is not Ellipsis and not isinstance(a, (str, int, bool)) or isinstance(a, typing.ForwardRef))


def _annotation(model: type[BaseModel], name: str, info: FieldInfo) -> Any:
    """The field's type, its forward references resolved in the model's module."""
    if not _forward(info.annotation):
        return info.annotation
    import sys

    namespace = dict(vars(sys.modules[model.__module__]))
    for klass in reversed(model.__mro__):  # the module of the base that declared the field
        if name in getattr(klass, "__annotations__", {}):
            namespace = {**namespace, **vars(sys.modules[klass.__module__])}
    hints = typing.get_type_hints(model, globalns=namespace, include_extras=True)
    tp = hints[name]
    if typing.get_origin(tp) is typing.Annotated:  # its constraints are in info.metadata already
        return typing.get_args(tp)[0]
    return tp


def _literal(value: Any) -> bool:
    """Whether ``value`` is plain data whose ``repr`` rebuilds it (scalars, lists, tuples, dicts)."""
    if type(value) in (str, int, float, bool, type(None)):
        return True
    if type(value) in (list, tuple):
        return all(_literal(v) for v in value)
    if type(value) is dict:
        return all(_literal(k) and _literal(v) for k, v in value.items())
    return False


class _Writer:
    def __init__(self) -> None:
        self.order: list[type[BaseModel]] = []  # dependencies first
        self.imports: set[tuple[str, str]] = set()
        self.names: dict[type, str] = {}

    def visit(self, model: type[BaseModel]) -> None:
        if model in self.names:
            return
        self.names[model] = model.__name__  # claimed before the fields: recursion stops here
        if model.__name__ in [self.names[m] for m in self.order]:
            raise NotMirrored(f"two models named {model.__name__}")
        for name, info in model.model_fields.items():
            self.kind(_annotation(model, name, info), list(info.metadata), f"{model.__name__}.{name}")
            factory = info.default_factory
            if isinstance(factory, type) and issubclass(factory, BaseModel):
                self.visit(factory)
        self.order.append(model)

    def kind(self, tp: Any, metadata: list[Any], where: str) -> str:
        """The source of the kind of ``tp`` (with constraints ``metadata``)."""
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Annotated:
            extra = [m for meta in tp.__metadata__ for m in (meta.metadata if isinstance(meta, FieldInfo) else [meta])]
            return self.kind(args[0], [*metadata, *extra], where)
        limits: dict[str, Any] = {}
        for m in metadata:
            key = _LIMITS.get(type(m))
            if key is None:
                return '("unsure",)'  # a validator or a pattern: pydantic checks such a field
            limits[key] = getattr(m, key)
        if origin in (typing.Union, types.UnionType):
            members = [a for a in args if a is not type(None)]
            if len(members) == 1:
                inner = self.kind(members[0], metadata, where)
            else:
                inner = "(\"union\", (" + "".join(self.kind(m, [], where) + ", " for m in members) + "))"
                if metadata:
                    inner = '("unsure",)'
            return f'("opt", {inner})' if len(members) < len(args) else inner
        if limits and not (tp in (int, float, str) or origin is list):
            return '("unsure",)'
        shown = repr(limits) if limits else "None"
        if tp in (str, int, float):
            if tp is not str and {"min_length", "max_length"} & limits.keys():
                return '("unsure",)'
            if tp is str and {"ge", "gt", "le", "lt"} & limits.keys():
                return '("unsure",)'
            return f'("{tp.__name__}", {shown})'
        if tp is bool:
            return '("bool",)'
        if tp is Any:
            return '("any",)'
        if tp is type(None):
            return '("none",)'
        if tp is datetime.date:
            return '("unsure",)'  # pydantic reads texts as dates: it decides
        if origin is typing.Literal:
            if not all(type(a) in (str, int, bool) for a in args):
                raise NotMirrored(f"{where}: literal {tp!r}")
            return f'("lit", {args!r})'
        if origin is list:
            if {"ge", "gt", "le", "lt"} & limits.keys():
                return '("unsure",)'
            return f'("list", {self.kind(args[0], [], where)}, {shown})'
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return f'("tuplev", {self.kind(args[0], [], where)})'
            return '("tuple", (' + "".join(self.kind(a, [], where) + ", " for a in args) + "))"
        if origin is dict:
            return f'("dict", {self.kind(args[0], [], where)}, {self.kind(args[1], [], where)})'
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            self.visit(tp)
            return f'("model", {tp.__name__})'
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            self.imports.add((tp.__module__, tp.__qualname__))
            return f'("enum", {tp.__qualname__})'
        raise NotMirrored(f"{where}: type {tp!r}")

    def mixins(self, model: type[BaseModel]) -> list[type]:
        """The pydantic-free bases of ``model`` (where its methods live)."""
        own = [
            name for name, value in vars(model).items()
            if callable(value) or isinstance(value, (property, classmethod, staticmethod))
            if not name.startswith("__") and name not in ("model_config", "model_fields", "model_computed_fields")
            and not name.startswith(("_", "model_"))
        ]
        if own:
            raise NotMirrored(f"{model.__name__} defines {', '.join(sorted(own))} itself: move them to a mixin")
        found = []
        for base in model.__mro__[1:]:
            if issubclass(base, BaseModel) or base is object:
                continue
            if base.__module__.startswith("pydantic") or base.__name__ in ("Generic",):
                continue
            found.append(base)
        return [b for b in found if not any(b is not o and issubclass(o, b) for o in found)]

    def field(self, model: type[BaseModel], name: str, info: FieldInfo, where: str) -> str:
        kind = self.kind(_annotation(model, name, info), list(info.metadata), where)
        parts = [repr(name), kind]
        factory = info.default_factory
        if factory is not None:
            if factory in (list, dict):
                parts.append(f"factory={factory.__name__}")
            elif isinstance(factory, type) and issubclass(factory, BaseModel):
                parts.append(f"factory={factory.__name__}")
            elif _literal(made := factory()) and isinstance(made, (list, dict)):  # type: ignore[call-arg]
                parts.append(f"factory=lambda: {made!r}")  # a fresh copy of a constant each time
            else:
                raise NotMirrored(f"{where}: default factory {factory!r}")
        elif not info.is_required():
            default = info.default
            if not _literal(default) or isinstance(default, (list, dict)):
                raise NotMirrored(f"{where}: default {default!r}")
            parts.append(repr(default))
        if info.alias and info.alias != name:
            parts.append(f"alias={info.alias!r}")
        return "Field(" + ", ".join(parts) + ")"

    def render(self, target: str, roots: tuple[str, ...]) -> str:
        bodies = []
        for model in self.order:
            bases = self.mixins(model)
            for base in bases:
                self.imports.add((base.__module__, base.__qualname__))
            names = ", ".join([b.__qualname__ for b in bases] + ["PlainModel"])
            lines = [f"class {model.__name__}({names}):", f'    """{model.__module__}.{model.__qualname__}"""', "", "    fields = ("]
            for name, info in model.model_fields.items():
                lines.append(f"        {self.field(model, name, info, f'{model.__name__}.{name}')},")
            lines.append("    )")
            bodies.append("\n".join(lines))
        imports = sorted(self.imports)
        head = [
            f'"""Plain mirrors of {", ".join(roots)} and the models they use.',
            "",
            "Generated by armybuilder.core.plain_gen (``python -m armybuilder.core.plain_gen``): do not",
            "edit; a test fails while this file differs from what the generator writes.",
            '"""',
            "",
            "# ruff: noqa: E501",
            "from __future__ import annotations",
            "",
        ]
        by_module: dict[str, list[str]] = {"armybuilder.core.plain": ["Field", "PlainModel"]}
        for module, name in imports:
            by_module.setdefault(module, []).append(name)
        for module in sorted(by_module):  # as ruff's isort writes them (a test runs ruff)
            imported = sorted(by_module[module])
            line = f"from {module} import {', '.join(imported)}"
            if len(line) > 100:
                line = f"from {module} import (\n" + "".join(f"    {n},\n" for n in imported) + ")"
            head.append(line)
        return "\n".join(head) + "\n\n\n" + "\n\n\n".join(bodies) + "\n"


def generate(target: str) -> str:
    """The source of the mirror module ``target`` (a key of :func:`mirrors`)."""
    roots = mirrors()[target]
    writer = _Writer()
    for root in roots:
        writer.visit(_load(root))
    return writer.render(target, roots)


def path_of(target: str) -> Path:
    import armybuilder

    return Path(armybuilder.__file__).parent.joinpath(*target.split(".")[1:]).with_suffix(".py")


def main() -> None:
    for target in mirrors():
        path_of(target).write_text(generate(target), encoding="utf-8")
        print(f"wrote {path_of(target)}")


if __name__ == "__main__":
    main()
