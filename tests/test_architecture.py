"""The package's layers, read from the source: no import cycle, no private reach, no upward import.

The import graph is built with `ast` from every module of ``src/brisca``. It counts
module-level imports and deferred ones (inside functions and methods) alike, since a
deferred import is a dependency that merely runs late.

Two kinds of import are left out of the graph, on purpose:

- imports under ``if TYPE_CHECKING:``. They never run, so they can close no cycle,
  and a type annotation may name a value of a higher layer (the engine's overloads
  accept a ``Match``) without the module depending on that layer. They still count
  for the private-name check: nothing needs another module's private name, not even
  to annotate.
- the implicit import of a parent package. Importing ``brisca.game.engine`` first runs
  ``brisca/__init__.py``, which imports nearly everything; counting that edge would
  make every module part of one cycle, and says nothing about the modules themselves.
  An explicit ``import brisca`` or ``from brisca import name`` (a name that is not a
  submodule) does count, as an import of the package's facade.

The layers are those of DESIGN.md principle 6, listed in :data:`LAYERS`: a module
may import only from its own layer or a lower one.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "brisca"

#: DESIGN.md principles 6 and 9: each folder of the package, and the folders it may
#: import from (its own included). The rules import nothing else of the package;
#: documents and agents build on the rules and never on each other; runs build on
#: both; the programs build on those, and of the programs only the command line
#: starts another (the server, for ``brisca serve``). ``brisca`` is the facade.
FOLDERS: dict[str, frozenset[str]] = {
    "game": frozenset({"game"}),
    "formats": frozenset({"game", "formats"}),
    "agents": frozenset({"game", "agents"}),
    "runs": frozenset({"game", "formats", "agents", "runs"}),
    # The batch engine (the batch extra): many games in lock-step, for research.
    "batch": frozenset({"game", "agents", "batch"}),
    "testing": frozenset({"game", "formats", "agents", "testing"}),
    "envs": frozenset({"game", "formats", "agents", "batch", "envs"}),
    "server": frozenset({"game", "formats", "agents", "server"}),
    "cli": frozenset({"brisca", "game", "formats", "agents", "runs", "batch", "server", "cli"}),
    "__main__": frozenset({"cli"}),
    "brisca": frozenset({"brisca", "game", "formats", "agents"}),
}


@attrs.frozen
class Import:
    """One import of a brisca module by another, as written in the source."""

    source: str
    target: str
    line: int
    #: Under ``if TYPE_CHECKING:``.
    typing_only: bool
    #: The names imported from the target (``from target import a, b``).
    names: tuple[str, ...] = ()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(source: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The module a ``from ... import`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = source.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(source: str, path: Path, known: set[str]) -> Iterator[Import]:
    """The imports of brisca modules in one module, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, typing_only: bool) -> Iterator[Import]:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                yield from visit(child, True)
            for child in node.orelse:
                yield from visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    yield Import(source, alias.name, node.lineno, typing_only)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(source, node, is_package)
            if target == PACKAGE or target.startswith(PACKAGE + "."):
                names = tuple(alias.name for alias in node.names)
                plain = tuple(n for n in names if f"{target}.{n}" not in known)
                if plain:  # names defined in the target module itself
                    yield Import(source, target, node.lineno, typing_only, plain)
                for name in names:
                    if f"{target}.{name}" in known:  # a submodule: `from brisca import match`
                        yield Import(source, f"{target}.{name}", node.lineno, typing_only)
        for child in ast.iter_child_nodes(node):
            yield from visit(child, typing_only)

    yield from visit(tree, False)


def all_imports() -> list[Import]:
    found = modules()
    known = set(found)
    return [i for name, path in found.items() for i in imports(name, path, known)]


def graph(edges: list[Import]) -> dict[str, set[str]]:
    """Who imports whom at run time: typing-only imports and self-imports left out."""
    out: dict[str, set[str]] = {name: set() for name in modules()}
    for edge in edges:
        if not edge.typing_only and edge.target != edge.source and edge.target in out:
            out[edge.source].add(edge.target)
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Cycles that, broken, leave none: the shortest cycle through a module on one,
    then again with that cycle's closing edge set aside, until no cycle is left."""
    left = {node: set(targets) for node, targets in edges.items()}
    named: list[list[str]] = []
    while components := _tangled(left):
        component = components[0]
        cycle = _cycle_in(component[0], set(component), left)
        named.append(cycle)
        left[cycle[-2]].discard(cycle[-1])
    return named


def _tangled(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return sorted(components)


def _cycle_in(start: str, members: set[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through `start` within its strongly connected `members`."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(edges[node] & members):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a component always has one


def folder_of(module: str) -> str:
    """The folder (or top-level module) of the package that `module` belongs to."""
    parts = module.split(".")
    assert parts[0] == PACKAGE, module
    if len(parts) == 1:
        return PACKAGE
    assert parts[1] in FOLDERS, f"{module} is in no folder: add its folder to FOLDERS"
    return parts[1]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches() -> list[str]:
    """Every use of another module's private name: imported, or read as an attribute."""
    found = modules()
    known = set(found)
    problems = []
    for edge in all_imports():
        for name in edge.names:
            if _is_private(name) and edge.target != edge.source:
                problems.append(f"{edge.source}:{edge.line} imports {edge.target}.{name}")
    for source, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        aliases = _module_aliases(tree, source, path.name == "__init__.py", known)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                owner = _dotted(node.value, aliases)
                if owner in known and owner != source:
                    problems.append(f"{source}:{node.lineno} reads {owner}.{node.attr}")
    return problems


def _module_aliases(
    tree: ast.AST, source: str, is_package: bool, known: set[str]
) -> dict[str, str]:
    """Local names bound to brisca modules: ``import brisca.x as y``, ``from brisca import x``."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(source, node, is_package)
            for alias in node.names:
                if f"{target}.{alias.name}" in known:
                    aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
    return aliases


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """The module an expression such as ``brisca.formats.records`` or ``layer`` names, if any."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, aliases)
        return None if base is None else f"{base}.{node.attr}"
    return None


def crossings() -> list[str]:
    """Every run-time import of a module from a folder the importer's folder may not use."""
    problems = []
    for edge in all_imports():
        if edge.typing_only or edge.target == edge.source:
            continue
        source, target = folder_of(edge.source), folder_of(edge.target)
        if target not in FOLDERS[source]:
            problems.append(f"{edge.source}:{edge.line} ({source}/) imports {edge.target}")
    return problems


# The checks of the checks: each finds what it looks for in a small example.


def test_the_graph_sees_deferred_imports_and_leaves_out_typing_ones(tmp_path: Path) -> None:
    """A function-level import is an edge; one under TYPE_CHECKING is not."""
    path = tmp_path / "m.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from brisca.game.match import Match\n"
        "def f():\n    from brisca.formats import records\n"
        "    from brisca.agents.sampling import _x\n",
        encoding="utf-8",
    )
    found = list(
        imports("brisca.game.engine", path, {"brisca.formats.records", "brisca.game.match"})
    )
    runtime = {(i.target, i.names) for i in found if not i.typing_only}
    assert runtime == {("brisca.formats.records", ()), ("brisca.agents.sampling", ("_x",))}
    assert [i.target for i in found if i.typing_only] == ["brisca.game.match"]


def test_the_cycle_finder_names_a_cycle() -> None:
    """A loop of three modules is found and named in order; a chain is not a cycle."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_has_a_folder() -> None:
    """Every module of the package lies in a folder of FOLDERS (or is the facade,
    ``__main__`` or the conformance kit): a new top-level module fails here."""
    for name in modules():
        assert folder_of(name) in FOLDERS


def test_a_crossing_is_found(tmp_path: Path) -> None:
    """An import of the agents by the documents' folder is named as a crossing."""
    path = tmp_path / "m.py"
    path.write_text("from brisca.agents.bots import RandomBot\n", encoding="utf-8")
    found = list(imports("brisca.formats.records", path, {"brisca.agents.bots"}))
    assert [(folder_of(i.source), folder_of(i.target)) for i in found] == [("formats", "agents")]
    assert "agents" not in FOLDERS["formats"]


# The package itself.


def test_no_import_cycle() -> None:
    """The run-time import graph of brisca, deferred imports included, has no cycle."""
    found = cycles(graph(all_imports()))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_module_reaches_into_another_modules_private_names() -> None:
    """No `from brisca.x import _name`, and no `x._name` of another brisca module."""
    problems = private_reaches()
    assert not problems, "private names used across modules:\n" + "\n".join(problems)


def test_each_folder_imports_only_the_folders_below_it() -> None:
    """DESIGN.md principles 6 and 9: the rules import nothing else of the package, the
    documents and the agents only the rules, and only the command line starts another
    program; deferred imports count."""
    problems = crossings()
    assert not problems, "imports across the folders' order:\n" + "\n".join(problems)


def test_the_rules_import_only_attrs_and_the_standard_library() -> None:
    """``brisca.game`` runs wherever attrs does: no other third-party import, deferred
    or not, except under TYPE_CHECKING."""
    allowed = set(sys.stdlib_module_names) | {"attrs", "attr", PACKAGE}
    problems = []
    for name, path in modules().items():
        if folder_of(name) != "game":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            problems += [
                f"{name}:{node.lineno} imports {top}" for top in tops if top not in allowed
            ]
    assert not problems, "\n".join(problems)
