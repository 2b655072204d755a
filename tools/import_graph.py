"""The import graph of the product folders: its circles and its arrows from a lower layer to a higher one.

Reads every ``import``/``from ... import`` in ``gateway/``, ``services/``, ``dashboard/``, ``devices/``
and ``venue/`` with Python's ``ast`` (function-local imports and ``if TYPE_CHECKING:`` ones included: an
import moved into a function to dodge a circle is still the circle), draws an arrow from the importing
module to each product module it names, and reports:

- **circles**: the strongly connected components of more than one module (Tarjan's algorithm), plus a
  module importing itself;
- **unreached modules**: a module no other product module imports and that is no entry point
  (``ENTRY_POINTS``: what Python or a command loads by name), i.e. one only tests reach: dead code;
- **arrows against the layers** (docs/CONTRIBUTING.md "Layout"): ``services`` (pure) is the ground
  floor and imports none of the others; ``gateway``, ``dashboard`` and ``devices`` stand on it and
  import no ``venue`` (the command line, the top floor); ``devices`` (the simulated boards and clocks)
  speak the protocol and import neither ``gateway`` nor ``dashboard``.

An arrow goes to the module an import names: ``from pkg import name`` is an arrow to ``pkg.name`` when
that is a module, else to ``pkg`` (its ``__init__``). Importing ``a.b.c`` also runs the ``__init__``
of ``a`` and ``a.b``; that is Python's package loading, not an arrow of the module's own.
``tests/unit/test_import_graph.py`` fails on any circle, forbidden arrow or unreached module.

Usage: ``python tools/import_graph.py [--edges]`` (prints the figures; exit status 1 when anything is
found).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("services", "gateway", "dashboard", "devices", "venue")

# What each top-level folder may not import (docs/CONTRIBUTING.md "Layout").
FORBIDDEN: dict[str, frozenset[str]] = {
    "services": frozenset({"gateway", "dashboard", "devices", "venue"}),
    "gateway": frozenset({"venue"}),
    "dashboard": frozenset({"venue"}),
    "devices": frozenset({"gateway", "dashboard", "venue"}),
    "venue": frozenset(),
}

# Modules loaded by name, not by an import another product module writes: the package __init__ files
# aside, these are what a command line starts (the reason beside each).
ENTRY_POINTS: dict[str, str] = {
    "venue.__main__": "python -m venue",
    "venue.pair": "venue/cli.py _passthrough: importlib.import_module(f'venue.{name}')",
    "venue.tiebreaks": "venue/cli.py _passthrough",
    "venue.export": "venue/cli.py _passthrough",
    "venue.broadcast": "venue/cli.py _passthrough",
    "venue.round": "venue/cli.py _passthrough",
    "venue.players": "venue/cli.py _passthrough",
    "venue.analyse": "venue/cli.py _passthrough",
    "devices.cli": "python -m devices.cli (the simulators' own command line, with options venue simulate lacks)",
}


@dataclass(frozen=True)
class Arrow:
    """One import: ``source`` module imports ``target`` module at ``path``:``line``."""

    source: str
    target: str
    path: str
    line: int


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every product module by dotted name (``services.clock.pgn``; a package by its own name)."""
    out: dict[str, Path] = {}
    for top in PRODUCT:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _package(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _named(node: ast.Import | ast.ImportFrom, name: str, path: Path) -> Iterator[tuple[str, str | None]]:
    """(module, attribute) pairs an import names, absolute."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, None
        return
    base = node.module or ""
    if node.level:
        package = _package(name, path).split(".")
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    for alias in node.names:
        yield base, alias.name


def arrows(known: dict[str, Path], root: Path = ROOT) -> list[Arrow]:
    """Every arrow between product modules, in file and line order."""
    out: list[Arrow] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = str(path.relative_to(root))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for module, attr in _named(node, name, path):
                target = f"{module}.{attr}" if attr and f"{module}.{attr}" in known else module
                # `import a.b.c` names a.b.c; an unknown tail (a third-party or stdlib module) is no arrow.
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    out.append(Arrow(name, target, rel, node.lineno))
    return sorted(set(out), key=lambda a: (a.path, a.line, a.target))


def circles(edges: Iterable[Arrow]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, sorted."""
    graph: dict[str, set[str]] = {}
    for a in edges:
        graph.setdefault(a.source, set()).add(a.target)
        graph.setdefault(a.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep chain of imports cannot reach Python's recursion limit.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def against_layers(edges: Iterable[Arrow]) -> list[Arrow]:
    """The arrows from a folder to one it may not import (``FORBIDDEN``)."""
    return [a for a in edges if a.target.split(".")[0] in FORBIDDEN[a.source.split(".")[0]]]


def unreached(known: dict[str, Path], edges: Iterable[Arrow]) -> list[str]:
    """Modules no other product module imports, packages and ``ENTRY_POINTS`` aside: only tests reach
    them."""
    targets = {a.target for a in edges}
    return sorted(m for m, path in known.items()
                  if m not in targets and path.name != "__init__.py" and m not in ENTRY_POINTS)


def circle_arrows(component: list[str], edges: Iterable[Arrow]) -> list[Arrow]:
    """The arrows inside one circle (where to cut it)."""
    members = set(component)
    return [a for a in edges if a.source in members and a.target in members]


def main(argv: list[str]) -> int:
    """Print the graph's figures, its circles (with their arrows) and its arrows against the layers."""
    known = modules()
    edges = arrows(known)
    found = circles(edges)
    wrong = against_layers(edges)
    print(f"{len(known)} modules, {len(edges)} import arrows")
    print(f"{len(found)} circles ({sum(len(c) for c in found)} modules in them)")
    for component in found:
        print("  circle: " + " <-> ".join(component))
        for a in circle_arrows(component, edges):
            print(f"    {a.source} -> {a.target}  ({a.path}:{a.line})")
    print(f"{len(wrong)} arrows from a lower layer to a higher one")
    for a in wrong:
        print(f"  {a.source} -> {a.target}  ({a.path}:{a.line})")
    dead = unreached(known, edges)
    print(f"{len(dead)} modules no product module imports (entry points aside)")
    for m in dead:
        print(f"  {m}")
    if "--edges" in argv:
        for a in edges:
            print(f"{a.source} -> {a.target}")
    return 1 if found or wrong or dead else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
