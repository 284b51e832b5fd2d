"""The import graph stays what docs/architecture.md draws: no hidden cycles, no borrowed
private names, no modules of the project imported by a name spelled in a string.

The layers themselves are import-linter contracts (pyproject.toml, run by
tests/core/test_core_purity.py); these checks cover what a contract cannot say.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "armybuilder"

#: The one module that imports the project's modules by a name it holds as data.
REGISTRY = "armybuilder/core/registry.py"


def _cycles() -> set[frozenset[str]]:
    """The strongly connected parts of the project's import graph (imports inside functions
    count: they run; those under TYPE_CHECKING do not)."""
    graph = grimp.build_graph("armybuilder", cache_dir=None, exclude_type_checking_imports=True)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative (the graph is deep)
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.add(frozenset(part))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle():
    cycles = sorted(sorted(c) for c in _cycles())
    assert cycles == [], f"import loops (break them by moving what is shared down a module): {cycles}"


def _sources() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _is_module(package: str | None, level: int, name: str, here: str) -> bool:
    """``from package import name`` where ``name`` is a module (``from armybuilder import _native``)."""
    folder = (ROOT / here).parent
    for _ in range(max(level - 1, 0)):
        folder = folder.parent
    if level == 0 and package:
        folder = ROOT.joinpath(*package.split("."))
    elif package:
        folder = folder.joinpath(*package.split("."))
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()


def test_no_module_imports_another_modules_private_name():
    found = []
    for rel, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    name = alias.name
                    if name.startswith("_") and not name.startswith("__") and not _is_module(node.module, node.level, name, rel):
                        found.append(f"{rel}:{node.lineno}: from {'.' * node.level}{node.module or ''} import {name}")
    assert found == [], "make the name public where it is defined, or move it down a module:\n" + "\n".join(found)


def test_no_module_of_the_project_is_imported_by_a_spelled_name_outside_the_registry():
    """``importlib.import_module("armybuilder.x")`` or ``__import__`` with a literal (or an
    f-string) naming the project hides an edge from the import graph; only the registry
    imports modules by name, and those names are its data, not literals in a call."""
    found = []
    for rel, tree in _sources():
        if rel == REGISTRY:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called not in ("import_module", "__import__"):
                continue
            first = node.args[0]
            text = ""
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                text = first.value
            elif isinstance(first, ast.JoinedStr):
                text = "".join(p.value for p in first.values if isinstance(p, ast.Constant) and isinstance(p.value, str))
            if text.startswith("armybuilder") or (text.startswith(".") and len(text) > 1):
                found.append(f"{rel}:{node.lineno}: {called}({text!r}...)")
    assert found == [], "import these modules with an import statement (inside a function if they are heavy):\n" + "\n".join(found)


#: Modules outside the system packages that still name a bundled system, each to derive it
#: from the registry instead (a system's descriptor: ``GameSystem``'s class attributes).
NAMES_A_SYSTEM_PENDING: set[str] = set()


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def test_no_module_outside_a_system_names_one():
    """A system is one package plus data plus one registry line: what the rest of the program
    needs of it (its mirror, schema fingerprint, engine package, fray) it asks the registry's
    system, so no module outside ``armybuilder/systems/`` imports one or spells its id."""
    from armybuilder.core.registry import BUNDLED_SYSTEMS

    ids = set(BUNDLED_SYSTEMS)
    packages = {module.rpartition(".")[2] for module in BUNDLED_SYSTEMS.values()}
    found = []
    for rel, tree in _sources():
        if rel.startswith("armybuilder/systems/") or rel == REGISTRY or rel in NAMES_A_SYSTEM_PENDING:
            continue
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if node.value in ids:
                    found.append(f"{rel}:{node.lineno}: the id {node.value!r}")
                names = [node.value]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["armybuilder", "systems"] and len(parts) > 2 and parts[2] in packages:
                    found.append(f"{rel}:{node.lineno}: {name}")
                    break
    assert found == [], "ask the registry's system instead:\n" + "\n".join(found)


def test_no_module_outside_a_system_is_named_after_one():
    """What belongs to one system (its odds calculator, its fray) lives in its package and is
    reached through ``GameSystem`` (``odds_calculator``, ``fray_odds``): a module elsewhere
    named after a system (``armybuilder/odds/ragnarok2.py``) fails."""
    from armybuilder.core.registry import BUNDLED_SYSTEMS

    names = set(BUNDLED_SYSTEMS) | {module.rpartition(".")[2] for module in BUNDLED_SYSTEMS.values()}
    names |= {name.replace("-", "_") for name in names}
    found = [
        rel for rel, _ in _sources()
        if not rel.startswith("armybuilder/systems/") and any(part.removesuffix(".py") in names for part in rel.split("/"))
    ]  # fmt: skip
    assert found == [], "move these into their system's package:\n" + "\n".join(found)


def test_the_pending_lists_name_files_that_exist():
    for rel in NAMES_A_SYSTEM_PENDING:
        assert (ROOT / rel).is_file(), f"{rel} is gone: remove it from its list"
