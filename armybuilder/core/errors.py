"""Errors a user can cause, carrying where in which file they happened.

Everything a person can get wrong (a broken list file, a bad catalogue entry, a
hostile YAML document) is raised as :class:`InputError`.  The command line and the
TUI catch exactly this type and print it as one paragraph, so no traceback ever
reaches a user for their own mistakes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .sanitize import visible

if TYPE_CHECKING:  # pydantic stays out of this module's import (the CLI reads errors early)
    from pydantic import ValidationError


@dataclass(frozen=True)
class Problem:
    """One thing wrong at one place: ``file:line:column: field.path: message``.

    Shown as one line whatever the file put in its name, a field or the message (ids and
    names are quoted in messages): every part passes :func:`~.sanitize.visible`, so a
    problem never carries a raw control character or line break to a terminal, a log
    or a JSON report."""

    message: str
    path: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    field: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = visible(self.path)
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        what = f"{visible(self.field)}: " if self.field else ""
        return f"{where}{what}{visible(self.message)}"


@dataclass
class InputError(Exception):
    """A user-caused failure; ``problems`` lists every located problem found."""

    problems: list[Problem] = field(default_factory=list)

    @classmethod
    def at(
        cls,
        message: str,
        path: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        field: str | None = None,
    ) -> InputError:
        return cls([Problem(message, str(path) if path else None, line, column, field)])

    @property
    def first(self) -> Problem:
        return self.problems[0] if self.problems else Problem("unknown input error")

    def __str__(self) -> str:
        """One problem a line (each made visible: see :class:`Problem`)."""
        shown = self.problems[:10]
        text = "\n".join(str(p) for p in shown)
        if len(self.problems) > len(shown):
            text += f"\n(and {len(self.problems) - len(shown)} more problems)"
        return text or "invalid input"


def format_loc(loc: Sequence[str | int]) -> str:
    """A field path as the user reads it: ``units[2].troops.count``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


#: What a field of pydantic's type errors wants, in the words of the file format (the key: the
#: error's type); the problem reads "<wanted> is needed here, not <what the file gives>".
_WANTED = {
    "date_type": "a date written YYYY-MM-DD", "date_parsing": "a date written YYYY-MM-DD",
    "date_from_datetime_parsing": "a date written YYYY-MM-DD", "date_from_datetime_inexact": "a date written YYYY-MM-DD",
    "string_type": "text", "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "list_type": "a list",
    "tuple_type": "a list", "set_type": "a list", "dict_type": "a mapping (key: value lines)",
    "model_type": "a mapping (key: value lines)", "model_attributes_type": "a mapping (key: value lines)",
}  # fmt: skip


def _given(value: object) -> str:
    """What a file gave, as its reader says it: the text itself when it is short."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= 40 else f"'{value[:40]}…'"
    if isinstance(value, (list, tuple, set)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "a value of another kind"


def pydantic_problems(
    exc: ValidationError, locate: Callable[[Sequence[str | int]], tuple[int | None, int | None]], path: str | None
) -> list[Problem]:
    """Pydantic's errors as problems at file positions; ``locate`` maps a field path to
    (line, column) in whichever kind of document was validated (round-trip or fast path)."""
    problems = []
    for err in exc.errors(include_url=False):
        loc = [p for p in err["loc"] if isinstance(p, (str, int))]
        line, col = locate(loc)
        msg = err["msg"]
        if err["type"] == "value_error":  # our validators' sentences, without pydantic's prefix
            msg = msg.removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling; see the documented file format)"
        elif err["type"] == "missing":
            msg = "a required field is missing here"
        elif err["type"] in _WANTED:
            msg = f"{_WANTED[err['type']]} is needed here, not {_given(err.get('input'))}"
        problems.append(Problem(msg, path, line, col, format_loc(loc) or None))
    return problems
