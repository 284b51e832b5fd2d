"""A safe reader of BattleScribe XML: untrusted input, parsed with line numbers.

ElementTree keeps no line numbers and resolves entities, so the importer reads the
files with expat directly: DOCTYPE and ENTITY declarations are refused before and
during parsing, size and nesting depth are capped, and every failure becomes an
:class:`InputError` naming the file, line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.parsers import expat

from armybuilder.core.errors import InputError
from armybuilder.core.textfile import read_bytes

MAX_XML_BYTES = 32 * 1024 * 1024
MAX_XML_DEPTH = 200

# --------------------------------------------------------------------------- safe XML


@dataclass
class XNode:
    """One XML element with the line it starts on (ElementTree keeps no lines)."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[XNode] = field(default_factory=list)
    text: str = ""

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def find(self, tag: str) -> XNode | None:
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, path: str) -> list[XNode]:
        """Children along a ``a/b`` path (no wildcards)."""
        nodes = [self]
        for part in path.split("/"):
            nodes = [c for n in nodes for c in n.children if c.tag == part]
        return nodes

    def iter(self, tag: str | None = None) -> Iterator[XNode]:
        stack = [self]
        while stack:
            node = stack.pop()
            if tag is None or node.tag == tag:
                yield node
            stack.extend(reversed(node.children))


_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def parse_xml(path: Path) -> XNode:
    """Parse a BattleScribe file safely into :class:`XNode` trees with line numbers (read as
    every user file is: regular files only, at most 32 MiB)."""
    return parse_xml_bytes(read_bytes(path, MAX_XML_BYTES), str(path))


def parse_xml_bytes(data: bytes, name: str) -> XNode:
    match = _DECLARATION.search(data)
    if match:
        line = data.count(b"\n", 0, match.start()) + 1
        kind = match.group(1).decode().upper()
        raise InputError.at(
            f"{kind} declarations are refused in BattleScribe files (untrusted XML)", name, line
        )
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root: list[XNode] = []
    stack: list[XNode] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_XML_DEPTH:
            raise InputError.at(
                f"elements are nested more than {MAX_XML_DEPTH} levels deep",
                name,
                parser.CurrentLineNumber,
            )
        node = XNode(
            tag.rsplit("}", 1)[-1].rsplit(" ", 1)[-1], dict(attrs), parser.CurrentLineNumber
        )
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].text += data

    def refuse(*_: Any) -> None:
        raise InputError.at(
            "DOCTYPE and ENTITY declarations are refused (untrusted XML)",
            name,
            parser.CurrentLineNumber,
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise InputError.at(
            f"not well-formed XML: {expat.ErrorString(exc.code)}", name, exc.lineno, exc.offset + 1
        ) from None
    if not root:
        raise InputError.at("the file holds no XML element", name)
    return root[0]
