"""Rebuild pydantic models from data they dumped themselves, without validating again.

A resolved catalogue is validated once, when it is built, and cached as its
``model_dump(mode="json")`` (and by alias, for ``raw``).  Loading it back with
``model_validate`` would make every process generate the catalogue schema (tens of
milliseconds) and validate a third of a megabyte again.  :func:`adopt` instead walks
the field annotations once per model (a builder function per model, made on first use)
and builds the same objects directly, as pydantic's ``model_construct`` does but
without its per-object overhead.  Three choices keep a load of ~1,300 objects in a
few milliseconds:

- the dump's own dicts become the models' ``__dict__`` (:func:`adopt` consumes its
  argument; :func:`construct` works on a copy), and lists are rebuilt in place, each
  dumped item let go as soon as its model replaces it;
- a dump by field name needs no dict rebuilt: one by alias (``str`` for ``str_``) gets
  a new dict per model, in field order (pydantic's order, which repr and iteration show);
- the models of one class built from a full dump (every field given, as a dump is)
  share one ``__pydantic_fields_set__``: the set of all the class's field names.
  Pydantic only ever adds to that set the name of a field being assigned (already in
  it), and gives a copy its own set, so sharing it is invisible; nothing in armybuilder
  touches the set, and a test checks that assigning and copying leave it whole.

Only data that is known to come from such a dump may be passed here: the cache
checks an authentication tag first (:mod:`armybuilder.core.catalog_cache`), and a
test checks that every bundled catalogue constructed here equals the validated one,
type for type, field by field.  Annotations this walker cannot rebuild exactly raise
:class:`NotConstructible`, and the caller validates instead.
"""

from __future__ import annotations

import copy
import enum
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel


class NotConstructible(TypeError):
    """A field type this module cannot rebuild exactly (the caller validates instead)."""


Builder = Callable[[Any], Any]

_PLANS: dict[tuple[type, bool], _Plan] = {}
_new = object.__new__


def _identity(value: Any) -> Any:
    return value


def _float(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise NotConstructible(f"{value!r} is not a number")
    return float(value)


def _hints(model: type[BaseModel]) -> dict[str, Any]:
    module = sys.modules.get(model.__module__)
    namespace = dict(vars(module)) if module else {}
    return typing.get_type_hints(model, globalns=namespace, include_extras=False)


def _builder(tp: Any, by_alias: bool) -> Builder | None:
    """A function rebuilding a value of type ``tp`` from its JSON dump (None: as is);
    ``by_alias``: models in the dump are keyed by alias, else by field name."""
    if tp is Any or tp in (str, int, bool, type(None)):
        return None
    if tp is float:
        return _float
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _compiled(tp, by_alias)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if origin is typing.Literal:
        if all(isinstance(a, (str, int, bool)) and not isinstance(a, enum.Enum) for a in args):
            return None
        raise NotConstructible(f"literal {tp!r}")
    if origin is list:
        inner = _builder(args[0], by_alias) if args else None
        if inner is None:
            return list
        return _list_of(inner)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _builder(args[0], by_alias)
            return tuple if inner is None else _tuple_of(inner)
        parts = [_builder(a, by_alias) or _identity for a in args]
        return lambda value: tuple(b(v) for b, v in zip(parts, value, strict=True))
    if origin in (set, frozenset):
        inner = _builder(args[0], by_alias) if args else None
        kind = origin
        return (lambda value: kind(value)) if inner is None else _collection_of(kind, inner)
    if origin is dict:
        key = _builder(args[0], by_alias) if args else None
        val = _builder(args[1], by_alias) if args else None
        if key is None and val is None:
            return dict
        key_b, val_b = key or _identity, val or _identity
        return lambda value: {key_b(k): val_b(v) for k, v in value.items()}
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        optional = len(members) < len(args)
        if len(members) == 1:
            inner = _builder(members[0], by_alias)
            if inner is None:
                return None
            return (lambda value: None if value is None else inner(value)) if optional else inner
        return _union_builder(members, optional, by_alias)
    raise NotConstructible(f"type {tp!r}")


def _list_of(inner: Builder) -> Builder:
    """Items rebuilt in the dump's own list, each dumped item let go as soon as it is
    replaced: its memory then serves the next item (a new list would hold every old
    item until the end, and a load would touch twice the memory)."""

    def build(value: list[Any]) -> list[Any]:
        for index, item in enumerate(value):
            value[index] = inner(item)
        return value

    return build


def _tuple_of(inner: Builder) -> Builder:
    return lambda value: tuple(inner(v) for v in value)


def _collection_of(kind: Callable[[Any], Any], inner: Builder) -> Builder:
    return lambda value: kind(inner(v) for v in value)


def _union_builder(members: list[Any], optional: bool, by_alias: bool) -> Builder | None:
    """Unions of enums and plain scalars (``Stat | Literal["mov", "rng"]``).

    Pydantic's smart mode picks an enum member when the dumped value is one of its
    values, else the literal or plain value; unions of models are refused.
    """
    enums = [m for m in members if isinstance(m, type) and issubclass(m, enum.Enum)]
    plain = [m for m in members if m not in enums]
    for m in plain:
        # smart mode keeps an exact type match, and JSON keeps str, int, float and bool apart
        if m not in (str, int, float, bool) and _builder(m, by_alias) is not None:
            raise NotConstructible(f"union member {m!r}")
    if not enums:  # str, int, float, bool and literals of them: the dump's value is the value
        return None
    lookups = [(e, {member.value for member in e}) for e in enums]

    def build(value: Any) -> Any:
        if value is None and optional:
            return None
        for e, values in lookups:
            if value in values:
                return e(value)
        return value

    return build


class _Plan:
    """How to rebuild one model: its fields, and the few that need a builder."""

    __slots__ = ("rows", "keys", "names", "renamed", "builders")

    def __init__(self, rows: list[tuple[str, str, Builder | None, Any, Any]]) -> None:
        self.rows = rows
        self.keys = frozenset(key for _, key, _, _, _ in rows)
        self.names = frozenset(name for name, _, _, _, _ in rows)
        #: (name, key) of every field in order when a key differs from its name, else empty
        self.renamed = tuple((name, key) for name, key, _, _, _ in rows) if self.keys != self.names else ()
        self.builders = tuple((name, build) for name, _, build, _, _ in rows if build is not None)


def _plan(model: type[BaseModel], by_alias: bool = True) -> _Plan:
    plan = _PLANS.get((model, by_alias))
    if plan is None:
        if model.__pydantic_post_init__ is not None or getattr(model, "__private_attributes__", None):
            raise NotConstructible(f"{model.__name__} has private attributes or a post-init hook")
        if model.model_config.get("extra") == "allow":
            raise NotConstructible(f"{model.__name__} allows extra fields")
        rows = []
        for name, info in model.model_fields.items():
            if any(not _harmless(m) for m in info.metadata):
                raise NotConstructible(f"{model.__name__}.{name} has a validator")
            try:  # pydantic resolved most annotations when it created the class
                build = _builder(info.annotation, by_alias)
            except NotConstructible:  # a forward reference: evaluate the module's hints
                build = _builder(_hints(model)[name], by_alias)
            # info.default, not get_default(): that inspects the factory's signature (slow)
            default = _REQUIRED if info.is_required() or info.default_factory else info.default
            key = (info.alias or name) if by_alias else name
            rows.append((name, key, build, default, info.default_factory))
        plan = _PLANS[model, by_alias] = _Plan(rows)
    return plan


_REQUIRED = object()


def _harmless(metadata: Any) -> bool:
    """Constraints (``ge``, ``max_length``...) check values; they never change them."""
    return type(metadata).__module__ in ("annotated_types", "pydantic.types") and not callable(metadata)


# The slots every pydantic model has (BaseModel.__slots__): set through their descriptors,
# as pydantic's own model_construct does with object.__setattr__, minus the name look-up.
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

_BUILDERS: dict[tuple[type, bool], Builder] = {}


def _compiled(model: type[BaseModel], by_alias: bool) -> Builder:
    """The function that turns a dump of ``model`` into a model, made once per model.

    Its plan is read when it is first called, not now: a model may contain itself
    (a list of its own kind), and its plan would then need the function first.
    """
    known = _BUILDERS.get((model, by_alias))
    if known is not None:
        return known
    plan: _Plan | None = None
    keys: frozenset[str] = frozenset()
    renamed: tuple[tuple[str, str], ...] = ()
    builders: tuple[tuple[str, Builder], ...] = ()
    every_field: set[str] = set()  # shared by the models built from full dumps (module doc)
    new = _new
    set_dict = object.__setattr__

    def build(data: dict[str, Any]) -> Any:
        nonlocal plan, keys, renamed, builders, every_field
        if plan is None:
            plan = _plan(model, by_alias)
            keys, renamed, builders, every_field = plan.keys, plan.renamed, plan.builders, set(plan.names)
        if data.keys() == keys:  # a full dump: every field, nothing else
            # the dump's dict is the model's, unless keys differ from names: then a new
            # one in field order (pydantic's order, which repr and iteration show)
            values = {name: data[key] for name, key in renamed} if renamed else data
            present = every_field
            for name, field_build in builders:
                values[name] = field_build(values[name])
        else:
            values, present = _partial(model, plan, data)
            for name, field_build in builders:
                if name in present:  # defaults are model values already
                    values[name] = field_build(values[name])
        obj = new(model)
        set_dict(obj, "__dict__", values)
        _set_fields_set(obj, present)
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj

    _BUILDERS[model, by_alias] = build
    return build


def adopt(model: type[BaseModel], data: dict[str, Any], *, by_alias: bool = True) -> Any:
    """``model`` built out of ``data``, its own JSON dump, without validation.

    ``by_alias``: the dump is keyed by alias (``model_dump(mode="json", by_alias=True)``),
    else by field name (``model_dump(mode="json")``: the models' dicts as they are, none to
    rebuild in another order).  ``data`` is consumed: its dicts become the models' (and its
    values are replaced by models and enum members), so the caller must not use it again."""
    _plan(model, by_alias)  # refuses a model it cannot rebuild before touching anything
    return _compiled(model, by_alias)(data)


def construct(model: type[BaseModel], data: dict[str, Any], *, by_alias: bool = True) -> Any:
    """``model`` built from ``data`` (its own JSON dump), which stays as it is."""
    return adopt(model, copy.deepcopy(data), by_alias=by_alias)


def _partial(model: type[BaseModel], plan: _Plan, data: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """Values of a dump that leaves fields out: their defaults fill in (unbuilt)."""
    unknown = data.keys() - plan.keys
    if unknown:
        raise NotConstructible(f"{model.__name__} has no field {sorted(unknown)[0]!r}")
    values: dict[str, Any] = {}
    present: set[str] = set()
    for name, key, _, default, factory in plan.rows:
        if key in data:
            values[name] = data[key]
            present.add(name)
        elif factory is not None:
            values[name] = factory()
        elif default is not _REQUIRED:
            values[name] = default
        else:
            raise NotConstructible(f"{model.__name__}.{name} is missing")
    return values, present
