"""Reading and writing YAML that people edit by hand, safely and with positions.

Every file a user hands us goes through :func:`load_document`: it refuses what a
YAML library would otherwise happily do to us (binary data, gigantic files,
``!!python`` tags, alias bombs, nesting deep enough to blow the stack) *before*
building any Python object, and it keeps ruamel's round-trip nodes so that an
error can name a line and column and a save can keep the user's comments.
"""

from __future__ import annotations

import difflib
import io
import json
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError, YAMLFutureWarning, YAMLWarning
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from .errors import InputError, Problem, format_loc, pydantic_problems  # noqa: F401 - format_loc re-exported
from .textfile import LIST_FILE_LIMIT, decode_text, line_col_of_text, read_text

M = TypeVar("M", bound=BaseModel)

#: Tags a hand-written document may carry; anything else (``!!python/...``,
#: application tags, ``!!binary``: bytes, which no field of a list or catalogue holds and
#: pydantic would turn into a name) is refused rather than constructed.
SAFE_TAGS = frozenset(
    "tag:yaml.org,2002:" + name
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")
)

CATALOGUE_FILE_LIMIT = 16 * 1024 * 1024
MAX_DEPTH = 48
MAX_EXPANDED_NODES = 200_000


def _node_mark(node: Node) -> tuple[int, int]:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


def check_nodes(root: Node, path: str) -> None:
    """Refuse unsafe tags, deep nesting and alias expansion before construction.

    Aliases make the node graph a DAG; counting the *expanded* size with a memo keeps
    this linear in the document while catching a billion-laughs document whose
    expansion would exhaust memory in anything that walks it later.
    """
    expanded: dict[int, int] = {}
    aliased = False  # a node reached twice: the document repeats a part through an alias
    stack: list[tuple[Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        key = id(node)
        if children_done:
            total = 1
            for child in _children(node):
                total += expanded[id(child)]
            if total > MAX_EXPANDED_NODES:
                line, col = _node_mark(node)
                raise InputError.at(
                    "the document expands to too many values (aliases repeated too often)" if aliased else
                    f"the document holds more than {MAX_EXPANDED_NODES:,} values: far more than any list or catalogue",
                    path,
                    line,
                    col,
                )
            expanded[key] = total
            continue
        if key in expanded:
            aliased = True
            continue
        tag = str(node.tag)
        if tag not in SAFE_TAGS:
            line, col = _node_mark(node)
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise InputError.at(
                f"the YAML tag {shown} is not allowed: list and catalogue files hold plain values only",
                path,
                line,
                col,
            )
        if depth > MAX_DEPTH:
            line, col = _node_mark(node)
            raise InputError.at(f"values are nested more than {MAX_DEPTH} levels deep", path, line, col)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) not in expanded:
                stack.append((child, depth + 1, False))
            else:
                aliased = True


def _children(node: Node) -> Iterable[Node]:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            yield k
            yield v
    elif isinstance(node, SequenceNode):
        yield from node.value


def _yaml_error(exc: YAMLError, path: str, text: str = "") -> InputError:
    if isinstance(exc, ReaderError):
        line, col = line_col_of_text(text, exc.position) if text else (None, None)
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        return InputError.at(
            f"the character U+{char:04X} is not allowed in a YAML file (a control character); "
            "inside double quotes write it as an escape, e.g. \\x1b",
            path,
            line,
            col,
        )
    if isinstance(exc, MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        problem = _excerpt(exc.problem or "invalid YAML")
        context = f" ({_excerpt(exc.context)})" if exc.context else ""
        return InputError.at(f"YAML syntax error: {problem}{context}", path, mark.line + 1, mark.column + 1)
    return InputError.at(f"YAML syntax error: {exc}", path)


_QUOTED = re.compile(r'"([^"]{61,})"')


def _excerpt(text: str, limit: int = 300) -> str:
    """A parser's message with the values it quotes cut short: a duplicate key's error quoted
    both values whole (megabytes for a hostile file)."""
    text = _QUOTED.sub(lambda m: f'"{m[1][:40]}…" ({len(m[1]):,} characters)', str(text))
    return text if len(text) <= limit else text[:limit] + "…"


def _round_trip_yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    yaml.width = 100
    return yaml


def parse_text(text: str, path: str) -> Any:
    """Parse text round-trip after the safety checks; returns CommentedMap/Seq/scalars."""
    line, col = _too_deep_position(text)
    if line is not None:
        raise InputError.at(f"values are nested more than {MAX_DEPTH} levels deep", path, line, col)
    yaml = _round_trip_yaml()
    node: Node | None = None
    try:
        with warnings.catch_warnings():
            # ruamel reports legal oddities (an anchor defined again, where an alias names the
            # latest; a YAML 1.1 float without a dot) as Python warnings, which would land raw
            # on a user's terminal or over the TUI: the document reads as YAML says.
            warnings.simplefilter("ignore", YAMLWarning)
            warnings.simplefilter("ignore", YAMLFutureWarning)
            node = yaml.compose(text)
            if node is None:
                return None
            check_nodes(node, path)
            return yaml.constructor.construct_document(node)
    except InputError:
        raise
    except YAMLError as exc:
        raise _yaml_error(exc, path, text) from None
    except RecursionError:
        line, col = _too_deep_position(text)
        raise InputError.at(f"values are nested more than {MAX_DEPTH} levels deep", path, line, col) from None
    except (ValueError, TypeError, IndexError, OverflowError):
        # e.g. a timestamp out of range, or "-_", which ruamel reads as an integer and
        # then fails to construct: a broken value, never a traceback.
        raise _bad_scalar(node, path) from None


def _bad_scalar(root: Node | None, path: str) -> InputError:
    """Find the scalar that cannot be built (only on that error path) and say where it is:
    its line and column, and its field (``date``, ``units[2].troops.count``)."""
    yaml = _round_trip_yaml()  # the failed constructor keeps the broken node marked as in progress
    stack: list[tuple[Node, tuple[str | int, ...]]] = [(root, ())] if root is not None else []
    while stack:
        node, loc = stack.pop()
        if isinstance(node, ScalarNode):
            value = str(node.value)
            digits = sum(ch.isdigit() for ch in value)
            line, col = _node_mark(node)
            field = format_loc(loc) or None
            if digits > 4000:
                return InputError.at(
                    f"a number with {digits} digits is far too long to be a value here", path, line, col, field
                )
            try:
                yaml.constructor.construct_object(node, deep=True)
            except (ValueError, TypeError, IndexError, OverflowError, YAMLError):
                shown = value if len(value) <= 40 else value[:40] + "…"
                kind = "date" if _DATE_LIKE.match(value) else "number or date"
                return InputError.at(f"'{shown}' is not a valid {kind}", path, line, col, field)
        else:
            stack.extend(reversed(list(_located_children(node, loc))))
    return InputError.at("a value of the file cannot be read (a malformed number or date?)", path)


_DATE_LIKE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}")


def _located_children(node: Node, loc: tuple[str | int, ...]) -> Iterable[tuple[Node, tuple[str | int, ...]]]:
    """A node's children with their field paths (a key under its own path: it is read too)."""
    if isinstance(node, MappingNode):
        for k, v in node.value:
            name = str(k.value) if isinstance(k, ScalarNode) else "?"
            yield k, loc
            yield v, (*loc, name)
    elif isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            yield item, (*loc, i)


_BLOCK_SCALAR = re.compile(r"(?:^|[\s:\-?])[|>][0-9+\-]*\s*(?:#.*)?$")


def _too_deep_position(text: str) -> tuple[int | None, int | None]:
    """Where nesting first passes MAX_DEPTH, else (None, None); found without the parser.

    Run before parsing: ruamel composes recursively, and a document nested thousands
    of levels deep costs seconds before it fails with RecursionError (or takes the
    scanner quadratic time on flow brackets).  This linear scan bounds the depth from
    above closely enough for real files: flow brackets are counted outside quoted
    scalars, comments and block scalars; block nesting is the stack of indentations
    plus the compact ``- - x`` entries on a line.  The exact depth is still checked
    on the nodes afterwards (:func:`check_nodes`).
    """
    flow = 0
    quote = ""
    indents: list[int] = []
    block_scalar_indent: int | None = None  # inside ``|`` / ``>`` content deeper than this
    for line_no, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_scalar_indent is not None:
            if not stripped or indent > block_scalar_indent:
                continue
            block_scalar_indent = None
        if not quote and not flow:
            if not stripped or stripped.startswith("#"):
                continue
            while indents and indents[-1] > indent:
                indents.pop()
            if not indents or indents[-1] < indent:
                indents.append(indent)
            dashes = 0
            rest = stripped
            while rest[:2] in ("- ", "? ") or rest in ("-", "?"):
                dashes += 1
                rest = rest[2:].lstrip(" ")
            if len(indents) + dashes > MAX_DEPTH:
                return line_no, indent + 2 * dashes + 1
        previous = " "
        for col, char in enumerate(line, 1):
            if quote:
                if char == quote:
                    quote = ""
            elif char in "'\"" and previous in " \t[{,:":
                quote = char
            elif char == "#" and previous in " \t":
                break
            elif char in "[{":
                flow += 1
                if flow + len(indents) > MAX_DEPTH:
                    return line_no, col
            elif char in "]}":
                flow = max(0, flow - 1)
            previous = char
        if not quote and not flow and _BLOCK_SCALAR.search(line):
            block_scalar_indent = indent
    return None, None


def load_document(path: str | Path, limit: int = LIST_FILE_LIMIT) -> Any:
    """Load a hand-edited YAML file round-trip (comments and positions kept)."""
    return parse_text(read_text(path, limit), str(path))


# Line breaks that YAML folds away inside plain and single-quoted scalars: such strings
# must be written double-quoted, where the emitter escapes them, or a save would alter them.
_FOLDED_BREAKS = ("\x85", "\u2028", "\u2029")


def _protect_breaks(node: Any) -> Any:
    if isinstance(node, str):
        if any(ch in node for ch in _FOLDED_BREAKS):
            return DoubleQuotedScalarString(node)
        return node
    if isinstance(node, dict):
        for key in list(node):
            node[key] = _protect_breaks(node[key])
    elif isinstance(node, list):
        for index, item in enumerate(node):
            node[index] = _protect_breaks(item)
    return node


def dump_document(doc: Any) -> str:
    buf = io.StringIO()
    _round_trip_yaml().dump(_protect_breaks(doc), buf)
    return buf.getvalue()


# --------------------------------------------------------------------------- positions


def locate(doc: Any, loc: Sequence[str | int]) -> tuple[int | None, int | None]:
    """1-based (line, column) of the deepest part of ``loc`` present in ``doc``."""
    line: int | None = None
    col: int | None = None
    node = doc
    for part in loc:
        if isinstance(node, CommentedMap) and part in node:  # a key, even a non-string one
            try:
                child = node[part]
                if isinstance(child, (CommentedMap, CommentedSeq)) or not isinstance(part, str):
                    ln, cl = node.lc.key(part)
                else:
                    ln, cl = node.lc.value(part)
                line, col = ln + 1, cl + 1
            except (KeyError, TypeError, AttributeError):
                pass
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
            try:
                ln, cl = node.lc.item(part)
                line, col = ln + 1, cl + 1
            except (KeyError, TypeError, AttributeError):
                pass
            node = node[part]
        else:
            break
    if line is None and isinstance(doc, (CommentedMap, CommentedSeq)):
        try:
            line, col = doc.lc.line + 1, doc.lc.col + 1
        except AttributeError:
            pass
    return line, col


def validation_problems(exc: ValidationError, doc: Any, path: str | None) -> list[Problem]:
    return pydantic_problems(exc, lambda loc: locate(doc, loc), path)


def validate_model(model: type[M], doc: Any, path: str | None) -> M:
    """Validate a loaded document, mapping pydantic errors to file positions."""
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        raise InputError(validation_problems(exc, doc, path)) from None


# --------------------------------------------------------------------------- merging


def to_plain(value: Any) -> Any:
    """Round-trip containers to plain dicts/lists (for hashing, JSON and pydantic)."""
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def _fingerprint_of(value: Any) -> str:
    return json.dumps(to_plain(value), sort_keys=True, default=str)


def merge_into(target: Any, source: Any) -> Any:
    """Make round-trip ``target`` equal ``source`` while keeping comments and layout.

    Unchanged values keep their node (and so their comments and quoting); lists are
    aligned with a diff so that deleting the first of ten units keeps the comments
    of the nine others.  Returns the (possibly new) value to store.
    """
    if isinstance(target, CommentedMap) and isinstance(source, Mapping):
        for key in [k for k in target if k not in source]:
            del target[key]
        for index, (key, value) in enumerate(source.items()):
            if key in target:
                target[key] = merge_into(target[key], value)
            else:
                target.insert(min(index, len(target)), key, _fresh(value))
        return target
    if isinstance(target, CommentedSeq) and isinstance(source, (list, tuple)):
        old = [_fingerprint_of(v) for v in target]
        new = [_fingerprint_of(v) for v in source]
        ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        result: list[Any] = []
        for tag, i1, i2, j1, j2 in ops:
            if tag == "equal":
                result.extend(target[i1:i2])
            elif tag == "replace":
                for offset in range(j2 - j1):
                    if i1 + offset < i2:
                        result.append(merge_into(target[i1 + offset], source[j1 + offset]))
                    else:
                        result.append(_fresh(source[j1 + offset]))
            elif tag == "insert":
                result.extend(_fresh(v) for v in source[j1:j2])
        # Rebuild in place so the sequence keeps its own comments and style.
        kept_comments = {}
        for i, item in enumerate(target):
            for j, candidate in enumerate(result):
                if candidate is item and i in target.ca.items:
                    kept_comments[j] = target.ca.items[i]
        del target[:]
        target.ca.items.clear()
        target.extend(result)
        target.ca.items.update(kept_comments)
        return target
    if _fingerprint_of(target) == _fingerprint_of(source) and type(target) is not type(source):
        return target  # same value, keep the user's spelling (quotes, style)
    return _fresh(source) if isinstance(source, (Mapping, list, tuple)) else source


def _fresh(value: Any) -> Any:
    if isinstance(value, Mapping):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _fresh(v)
        return out
    if isinstance(value, (list, tuple)):
        seq = CommentedSeq(_fresh(v) for v in value)
        if value and len(value) <= 8 and all(_flow_safe(v) for v in value):
            seq.fa.set_flow_style()  # short id lists read best as [a, b, c]
        return seq
    return value


_SIMPLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _flow_safe(value: Any) -> bool:
    """Plain ids and numbers only: ruamel mis-quotes some scalars ("?x") in flow style."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and bool(_SIMPLE.fullmatch(value)) and value.lower() not in (
        "yes", "no", "on", "off", "true", "false", "null", "y", "n",
    )


def new_document(plain: Mapping[str, Any], header: str | None = None) -> CommentedMap:
    doc: CommentedMap = _fresh(plain)
    if header:
        doc.yaml_set_start_comment(header)
    return doc


__all__ = [
    "CommentedMap",
    "CommentedSeq",
    "decode_text",
    "dump_document",
    "load_document",
    "locate",
    "merge_into",
    "new_document",
    "parse_text",
    "read_text",
    "to_plain",
    "validate_model",
    "validation_problems",
]
