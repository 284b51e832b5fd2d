"""Plain mirrors of the pydantic models, for reading lists and catalogues without pydantic.

Importing pydantic and building the model classes costs about five bare interpreter
starts, four times what checking a list costs, so ``armybuilder validate`` reads lists
and catalogues into plain classes instead.  Each mirror is *generated* from its pydantic
model (:mod:`armybuilder.core.plain_gen`, which writes a system's ``plain.py``; a test
regenerates them, so a mirror cannot drift from its model): same field names, defaults,
aliases and methods (the models take their methods from pydantic-free mixins, which the
mirrors share).

Two ways in:

- :meth:`PlainModel.from_dump` rebuilds a mirror from its model's own authenticated dump
  (the cached catalogue), trusting it as :func:`armybuilder.core.construct.construct` does;
- :meth:`PlainModel.checked` reads a document a person wrote (a list file) and accepts it
  only when pydantic would accept it *unchanged*: exact types (no ``"5"`` for 5, no 5.0
  for 5), every constraint met, no unknown or missing field.  Anything else raises
  :class:`Unsure` and the caller validates with pydantic, whose refusal (or coercion)
  is then today's, word for word, with its file:line:column.

A test runs both paths over every sample, the tests' lists and the hostile corpus and
compares findings, messages and fingerprints.  No pydantic here (standard library only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar


class Unsure(Exception):
    """The plain reading is not certain to be pydantic's: validate with pydantic instead."""


#: A field type, as the generator writes it (tuples, cheap to walk):
#: ("str", limits) ("int", limits) ("float", limits) ("list", T, limits) ("bool",) ("any",)
#: ("none",) ("unsure",) ("lit", values) ("opt", T) ("tuple", (T, ...)) ("tuplev", T)
#: ("dict", K, V) ("union", (T, ...)) ("model", cls) ("enum", cls); ``limits`` is a dict of
#: pydantic's constraints (ge, gt, le, lt on numbers; min_length, max_length on sizes)
Kind = tuple[Any, ...]

REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()


class Field:
    """One field of a mirror: name, key in a dump (alias), type, default and constraints."""

    __slots__ = ("name", "key", "kind", "default", "factory")

    def __init__(
        self, name: str, kind: Kind, default: Any = REQUIRED, factory: Callable[[], Any] | None = None,
        alias: str | None = None,
    ) -> None:
        self.name, self.key, self.kind = name, alias or name, kind
        self.default, self.factory = default, factory

    def default_value(self) -> Any:
        return self.factory() if self.factory is not None else self.default


_new = object.__new__


class PlainModel:
    """Base of the generated mirrors: fields in ``__dict__``, pydantic's reading methods."""

    #: the fields in declaration order (inherited ones first), set by the generated class
    fields: ClassVar[tuple[Field, ...]] = ()
    #: name → field (pydantic's ``model_fields`` answers ``in`` and iteration the same way)
    model_fields: ClassVar[dict[str, Field]] = {}
    _by_key: ClassVar[dict[str, Field]] = {}
    #: how :meth:`from_dump` rebuilds this class (renamed keys, fields needing a builder)
    _plan: ClassVar[tuple[list[tuple[str, str]], list[tuple[str, Callable[[Any], Any]]]] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "fields" in cls.__dict__:
            cls.model_fields = {f.name: f for f in cls.fields}
            cls._by_key = {**{f.name: f for f in cls.fields}, **{f.key: f for f in cls.fields}}

    def __init__(self, **values: Any) -> None:
        """A mirror from field values (unchecked), the others at their defaults."""
        unknown = values.keys() - self.model_fields.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        for f in self.fields:
            if f.name not in values:
                if f.default is REQUIRED and f.factory is None:
                    raise TypeError(f"{type(self).__name__}.{f.name} is required")
                values[f.name] = f.default_value()
        self.__dict__.update({f.name: values[f.name] for f in self.fields})

    # -- pydantic's reading API, as far as armybuilder uses it ------------------------

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # as pydantic's (mutable) models

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.fields)
        return f"{type(self).__name__}({inner})"

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        """A shallow copy with ``update`` applied (unchecked, as pydantic's)."""
        if deep:
            raise NotImplementedError("a plain mirror is copied shallowly only")
        copy = _new(type(self))
        copy.__dict__ = {**self.__dict__, **(update or {})}
        return copy

    def model_dump(self, *, mode: str = "json", exclude_defaults: bool = False, by_alias: bool = False) -> dict[str, Any]:
        """pydantic's ``model_dump(mode="json")`` of the mirrored model (optionally without
        the fields equal to their default, or keyed by alias)."""
        if mode != "json":
            raise NotImplementedError("a plain mirror dumps in JSON mode only")
        out: dict[str, Any] = {}
        values = self.__dict__
        for f in self.fields:
            value = values[f.name]
            if exclude_defaults and value == f.default_value():
                continue
            out[f.key if by_alias else f.name] = _dump(value, exclude_defaults, by_alias)
        return out

    # -- building --------------------------------------------------------------------

    @classmethod
    def from_dump(cls, data: dict[str, Any]) -> Any:
        """The mirror of ``model.model_validate(data)`` for ``data`` the model's own full
        dump (by alias, JSON mode, authenticated): no checks, as construct()."""
        plan = cls.__dict__.get("_plan")
        if plan is None:
            plan = cls._plan = _plan(cls)
        renamed, builders = plan
        values = dict(data)
        for name, key in renamed:
            values[name] = values.pop(key)
        for name, build in builders:
            values[name] = build(values[name])
        obj = _new(cls)
        obj.__dict__ = values
        return obj

    @classmethod
    def checked(cls, data: Any) -> Any:
        """The mirror of ``model.model_validate(data)`` when pydantic would accept ``data``
        as it is; :class:`Unsure` otherwise (the caller then asks pydantic)."""
        if not isinstance(data, dict):
            raise Unsure
        by_key = cls._by_key
        values: dict[str, Any] = {}
        for key, value in data.items():
            f = by_key.get(key)
            if f is None or f.name in values:
                raise Unsure  # an unknown field, or one given by both name and alias
            values[f.name] = _checked(f.kind, value)
        for f in cls.fields:
            if f.name not in values:
                if f.default is REQUIRED and f.factory is None:
                    raise Unsure
                values[f.name] = f.default_value()
        obj = _new(cls)
        obj.__dict__ = {f.name: values[f.name] for f in cls.fields}
        return obj


def is_plain(value: object) -> bool:
    """Whether ``value`` is a plain mirror (read without pydantic)."""
    return isinstance(value, PlainModel)


def _dump(value: Any, exclude_defaults: bool, by_alias: bool) -> Any:
    if isinstance(value, PlainModel):
        return value.model_dump(exclude_defaults=exclude_defaults, by_alias=by_alias)
    if isinstance(value, (list, tuple)):
        return [_dump(v, exclude_defaults, by_alias) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v, exclude_defaults, by_alias) for k, v in value.items()}
    if hasattr(value, "value") and hasattr(type(value), "__members__"):  # an enum member
        return value.value
    return value


def _plan(cls: type[PlainModel]) -> tuple[list[tuple[str, str]], list[tuple[str, Callable[[Any], Any]]]]:
    renamed = [(f.name, f.key) for f in cls.fields if f.key != f.name]
    builders = [(f.name, build) for f in cls.fields if (build := _builder(f.kind)) is not None]
    return renamed, builders


def _builder(kind: Kind) -> Callable[[Any], Any] | None:
    """How to rebuild a value of type ``kind`` from its JSON dump, as construct() does
    (None: the dumped value is the value)."""
    tag = kind[0]
    if tag in _AS_IS:
        return None
    if tag == "model":
        return kind[1].from_dump  # type: ignore[no-any-return]
    if tag == "list":
        each = _builder(kind[1])
        if each is None:
            return list
        return lambda value: [each(v) for v in value]
    if tag == "opt":
        present = _builder(kind[1])
        if present is None:
            return None
        return lambda value: None if value is None else present(value)
    if tag == "float":
        return _float
    if tag == "enum":
        return kind[1]  # type: ignore[no-any-return]
    if tag == "tuple":
        parts = [_builder(k) or _same for k in kind[1]]
        return lambda value: tuple(b(v) for b, v in zip(parts, value, strict=True))
    if tag == "tuplev":
        inner = _builder(kind[1])
        return tuple if inner is None else (lambda value: tuple(inner(v) for v in value))
    if tag == "dict":
        key, val = _builder(kind[1]), _builder(kind[2])
        if key is None and val is None:
            return dict
        key_b, val_b = key or _same, val or _same
        return lambda value: {key_b(k): val_b(v) for k, v in value.items()}
    if tag == "union":
        enums = [k[1] for k in kind[1] if k[0] == "enum"]
        if not enums:
            return None
        lookups = [(e, {m.value for m in e}) for e in enums]

        def build(value: Any) -> Any:  # pydantic's smart mode picks an enum member when the value is one
            for e, values in lookups:
                if value in values:
                    return e(value)
            return value

        return build
    raise ValueError(f"a plain mirror cannot rebuild a {tag!r} from a dump")


def _same(value: Any) -> Any:
    return value


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{value!r} is not a number")
    return float(value)


#: kinds whose dumped value is the value itself
_AS_IS = frozenset(("str", "int", "bool", "any", "none", "lit", "unsure"))


def _checked(kind: Kind, value: Any) -> Any:
    """``value`` as pydantic would hold it for a field of ``kind``, or :class:`Unsure`."""
    tag = kind[0]
    t = type(value)
    if tag == "str":
        if t is not str:
            raise Unsure
        if kind[1]:
            _limits(kind[1], len(value))
        return value
    if tag == "int":
        if t is not int:
            raise Unsure
        if kind[1]:
            _limits(kind[1], value)
        return value
    if tag == "bool":
        if t is not bool:
            raise Unsure
        return value
    if tag == "float":
        if t is not float or value != value or value in (float("inf"), float("-inf")):
            raise Unsure
        if kind[1]:
            _limits(kind[1], value)
        return value
    if tag == "opt":
        return None if value is None else _checked(kind[1], value)
    if tag == "lit":
        if any(type(v) is t and v == value for v in kind[1]):
            return value
        raise Unsure
    if tag == "list":
        if not isinstance(value, list):
            raise Unsure
        if kind[2]:
            _limits(kind[2], len(value))
        inner = kind[1]
        return [_checked(inner, v) for v in value]
    if tag == "model":
        return kind[1].checked(value)
    if tag == "none":
        if value is not None:
            raise Unsure
        return None
    if tag == "union":
        return _union(kind[1], value)
    raise Unsure  # any, dict, tuple, enum, unsure: pydantic decides


def _union(members: tuple[Kind, ...], value: Any) -> Any:
    """A union of scalars and lists (``str | list[str]``, ``int | str``): the checks above
    take exact types only, so at most one member takes a value, and pydantic's smart
    mode picks that exact match too.  Unions of models, enums or anything unsure: pydantic."""
    found: list[Any] = []
    for kind in members:
        if kind[0] not in ("str", "int", "float", "bool", "lit", "list", "none"):
            raise Unsure
        try:
            found.append(_checked(kind, value))
        except Unsure:
            continue
    if len(found) != 1:
        raise Unsure  # none takes it (pydantic refuses or coerces), or it is ambiguous
    return found[0]


_TESTS: dict[str, Callable[[Any, Any], bool]] = {
    "ge": lambda m, b: m >= b, "gt": lambda m, b: m > b, "le": lambda m, b: m <= b, "lt": lambda m, b: m < b,
    "min_length": lambda m, b: m >= b, "max_length": lambda m, b: m <= b,
}


def _limits(limits: dict[str, Any], measure: Any) -> None:
    """pydantic's constraints on a value (numbers) or a size (texts, lists)."""
    for name, bound in limits.items():
        test = _TESTS.get(name)
        if test is None or not test(measure, bound):
            raise Unsure  # broken (pydantic words the error) or a constraint unknown here
