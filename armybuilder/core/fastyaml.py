"""A read-only fast path for list files: libyaml's C parser, same answers as the round trip.

``armybuilder validate`` reads a file and never writes it back, so it needs no
comments or layout: ruamel's pure-Python round-trip parser spent ~90 % of a batch
validation.  Here PyYAML's C parser (libyaml) produces events, and a small composer
builds plain dicts and lists that remember the position of every key, value and
item, so every error still names a line and column.

The answer must be *identical* to :func:`armybuilder.core.yamlio.load_document`'s
(same values, same positions, same errors).  The fast path therefore accepts only
documents whose reading is certain and hands everything else to the round-trip
loader: syntax errors, tags, anchors and aliases, YAML directives, several documents,
duplicate or complex keys, nesting deeper than the limit, characters the two parsers
treat differently, and plain scalars that YAML 1.2 would read as anything but a
string, a decimal integer, a simple decimal fraction, a boolean or null.  Errors
thus always come from the round-trip loader, with its wording.  A test runs both
paths over the hostile corpus, the samples and generated documents.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import InputError, Problem, pydantic_problems
from .textfile import read_bytes

if TYPE_CHECKING:  # pydantic is imported where a model is validated, not to read a file
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")

# The limits of armybuilder.core.yamlio (a test checks they agree).
LIST_FILE_LIMIT = 256 * 1024
MAX_DEPTH = 48
MAX_EXPANDED_NODES = 200_000



@functools.cache
def _c_parser() -> Any:
    """libyaml's parser class, or None (then every document goes round trip).

    Imported on first use: PyYAML's import costs about as much as a bare interpreter
    start (its reader compiles a large regular expression), and the editor, which
    reads lists round trip, needs only :func:`locate` and :func:`validate_model` here.
    """
    try:  # the C parser exists when PyYAML was built with libyaml (the wheels are)
        from yaml.cyaml import CParser
    except ImportError:  # pragma: no cover - a PyYAML without libyaml: always round trip
        return None
    return CParser


class _Fallback(Exception):
    """The fast path is not certain of this document: read it round-trip."""


class PosMap(dict[Any, Any]):
    """A mapping that remembers where it, its keys and its values are (0-based)."""

    __slots__ = ("line", "col", "positions")

    def __init__(self, line: int, col: int) -> None:
        super().__init__()
        self.line, self.col = line, col
        #: key → (key line, key column, value line, value column)
        self.positions: dict[Any, tuple[int, int, int, int]] = {}


class PosSeq(list[Any]):
    """A sequence that remembers where it and each of its items are (0-based)."""

    __slots__ = ("line", "col", "positions")

    def __init__(self, line: int, col: int) -> None:
        super().__init__()
        self.line, self.col = line, col
        self.positions: list[tuple[int, int]] = []


def _unsure_characters(text: str) -> bool:
    """Characters the two parsers may read differently: go round-trip.

    Everything but printable characters and LF or CR LF line breaks: control characters
    and tabs (ruamel refuses some libyaml accepts), the breaks YAML 1.1 (libyaml)
    and ruamel's YAML 1.2 scanner treat differently (NEL, LS, PS), byte-order marks
    inside the text, no-break spaces, private-use and unassigned code points.
    ``str.isprintable`` excludes all of them and runs in C (a regular expression
    over these ranges cost more to compile than a file takes to parse).
    """
    lines = text.replace("\r\n", "\n")
    if "\r" in lines:  # a lone CR: the parsers break lines differently
        return True
    # A soft hyphen (U+00AD, in names copied from the reference data) is printable to both
    # parsers and never whitespace or a break: read alike.
    return not lines.replace("\n", "").replace("\xad", "").isprintable()


_BLOCK_HEADER = re.compile(r"[|>](?:[-+]?[1-9]?|[1-9][-+])(?: +#.*| *)")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")
# Everything the YAML 1.2 resolver of ruamel could read as another type than a string
# (int, float, timestamp, merge, value): such plain scalars go round-trip.
_NOT_A_STRING_PATTERN = (
    r"""[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN)
    |[-+]?0b[0-1_]+
    |[-+]?0o?[0-7_]+
    |[-+]?[0-9_]+
    |[-+]?0x[0-9a-fA-F_]+
    |<<
    |=
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:(?:[Tt]|[\ \t]+).*)?"""
)


@functools.cache
def _not_a_string() -> re.Pattern[str]:
    return re.compile(_NOT_A_STRING_PATTERN, re.X)


def _plain(value: str) -> Any:
    """A plain scalar read as YAML 1.2 reads it (only the certain cases)."""
    if value in _NULLS:
        return None
    flag = _BOOLS.get(value)
    if flag is not None:
        return flag
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        return float(value)
    if value[0] in "-+.0123456789<=" and _not_a_string().fullmatch(value):
        raise _Fallback
    return value


def _compose(text: str) -> Any:
    """The document as PosMap / PosSeq / scalars, or _Fallback."""
    c_parser = _c_parser()
    if c_parser is None or _unsure_characters(text):
        raise _Fallback
    from yaml import YAMLError

    parser = c_parser(text)
    try:
        return _compose_events(parser, text)
    except YAMLError:
        raise _Fallback from None
    finally:
        parser.dispose()


def _block_header_is_plain(text: str, line: int, column: int) -> bool:
    """A block scalar's header the two parsers read alike (``|``, ``>-``, ``|2 # note``)."""
    header = text.splitlines()[line][column:]
    return _BLOCK_HEADER.fullmatch(header) is not None


def _compose_events(parser: Any, text: str) -> Any:
    from yaml.events import (
        AliasEvent,
        DocumentEndEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
        StreamStartEvent,
    )

    get = parser.get_event
    if type(get()) is not StreamStartEvent:
        raise _Fallback
    event = get()
    if type(event) is StreamEndEvent:
        return None
    if type(event) is not DocumentStartEvent or event.version or event.tags:
        raise _Fallback
    stack: list[Any] = []  # open containers
    keys: list[Any] = []  # per open mapping: the pending key (or _NO_KEY), its mark
    root: Any = None
    nodes = 0
    while True:
        event = get()
        kind = type(event)
        if kind is ScalarEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None:
                raise _Fallback  # anchors, aliases and tags: the round trip checks them
            nodes += 1
            if len(stack) >= MAX_DEPTH or nodes > MAX_EXPANDED_NODES:
                raise _Fallback
            mark = event.start_mark
            if kind is ScalarEvent and not event.value and not event.style:
                raise _Fallback  # an empty value: the parsers place it differently
            if kind is ScalarEvent and event.style in ("|", ">"):
                if not _block_header_is_plain(text, mark.line, mark.column):
                    raise _Fallback
            if kind is ScalarEvent:
                value: Any = event.value if event.style else _plain(event.value)  # '' is plain
            elif kind is MappingStartEvent:
                value = PosMap(mark.line, mark.column)
            else:
                value = PosSeq(mark.line, mark.column)
            if stack:
                parent = stack[-1]
                if type(parent) is PosSeq:
                    parent.append(value)
                    parent.positions.append((mark.line, mark.column))
                else:
                    pending = keys[-1]
                    if pending is None:  # this node is a key
                        if kind is not ScalarEvent:
                            raise _Fallback  # complex keys
                        if value in parent:
                            raise _Fallback  # duplicate keys: the round trip refuses them
                        if not isinstance(value, str):
                            raise _Fallback  # non-string keys: the round trip names their place
                        keys[-1] = (value, mark.line, mark.column)
                    else:
                        key, line, col = pending
                        parent[key] = value
                        parent.positions[key] = (line, col, mark.line, mark.column)
                        keys[-1] = None
            elif kind is ScalarEvent:
                # A lone scalar is no list file; the parsers also disagree on what belongs to a
                # top-level block scalar (libyaml reads '>' then '#' as a comment, the round
                # trip as text), so the round trip reads it and words the error.
                raise _Fallback
            if kind is not ScalarEvent:
                if not stack:
                    root = value
                stack.append(value)
                keys.append(None)
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            keys.pop()
        elif kind is DocumentEndEvent:
            break
        elif kind is AliasEvent:
            raise _Fallback
        else:
            raise _Fallback
    if type(get()) is not StreamEndEvent:
        raise _Fallback  # a second document: the round trip explains
    return root


def parse_text(text: str, path: str) -> Any:
    """Like :func:`armybuilder.core.yamlio.parse_text`, as plain positioned values."""
    try:
        return _compose(text)
    except (_Fallback, RecursionError, ValueError, TypeError):
        from .yamlio import parse_text as round_trip

        return round_trip(text, path)


def load_document(path: str | Path, limit: int = LIST_FILE_LIMIT, data: bytes | None = None) -> Any:
    """Like :func:`armybuilder.core.yamlio.load_document`, for reading only (no save).

    ``data``, when given, are the file's bytes already read by the caller (a regular
    file's, within ``limit``): the answer then describes exactly those bytes, which is
    what the findings cache keys it by."""
    p = Path(path)
    if data is None or len(data) > limit:
        data = read_bytes(p, limit)  # regular files only (a FIFO or device is refused, never read)
    try:
        if b"\x00" not in data:
            return _compose(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, _Fallback, RecursionError, ValueError, TypeError):
        pass
    from .yamlio import decode_text, parse_text

    return parse_text(decode_text(data, str(path)), str(path))  # yamlio.load_document on these bytes


# --------------------------------------------------------------------------- positions


def locate(doc: Any, loc: Sequence[str | int]) -> tuple[int | None, int | None]:
    """1-based (line, column) of the deepest part of ``loc`` present in ``doc``.

    Positioned documents answer as :func:`armybuilder.core.yamlio.locate` does for
    round-trip ones (a container child: its key; a scalar: its value); round-trip
    documents are passed on to it.
    """
    if not isinstance(doc, (PosMap, PosSeq)):
        if type(doc) in (dict, list) or doc is None or isinstance(doc, (str, int, float)):
            return None, None
        from .yamlio import locate as round_trip

        return round_trip(doc, loc)
    line: int | None = None
    col: int | None = None
    node: Any = doc
    for part in loc:
        if isinstance(node, PosMap) and isinstance(part, str) and part in node:
            kl, kc, vl, vc = node.positions[part]
            child = node[part]
            line, col = (kl + 1, kc + 1) if isinstance(child, (PosMap, PosSeq)) else (vl + 1, vc + 1)
            node = child
        elif isinstance(node, PosSeq) and isinstance(part, int) and 0 <= part < len(node):
            il, ic = node.positions[part]
            line, col = il + 1, ic + 1
            node = node[part]
        else:
            break
    if line is None:
        line, col = doc.line + 1, doc.col + 1
    return line, col


def validation_problems(exc: ValidationError, doc: Any, path: str | None) -> list[Problem]:
    """Pydantic's errors with positions (as yamlio's, for positioned documents too)."""
    if not isinstance(doc, (PosMap, PosSeq)):
        from .yamlio import validation_problems as round_trip

        return round_trip(exc, doc, path)
    return pydantic_problems(exc, lambda loc: locate(doc, loc), path)


def validate_model(model: type[M], doc: Any, path: str | None) -> M:
    """Validate a loaded document (either kind), mapping errors to file positions."""
    from pydantic import ValidationError

    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        raise InputError(validation_problems(exc, doc, path)) from None

