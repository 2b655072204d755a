"""No file under tests/ imports a test module (issue 26, "Typed all the way ... and a test lane", lists
as a defect "test modules importing other test modules" and asks for "shared fixtures in conftest").

A test module imported by another one is run again under a second module name (its fixtures defined
twice), and ties the importer's tests to the module's. What tests share lives in a helper module
named for what it holds (tests/live_helpers.py, tests/armageddon_board.py, ...) and shared fixtures
in the conftest.py of the folder that needs them (docs/CONTRIBUTING.md "Tests": "a test module
imports no other test module").

Every ``.py`` file under tests/ is read with ``ast``, so an import inside a function counts as one at
the top: ``import test_x``, ``from test_x import ...``, ``from tests.unit.test_x import ...``,
``from tests.unit import test_x`` and ``importlib.import_module("test_x")``. The last test checks the
reader on a small tree written here, so this one cannot pass because the reader sees nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent


def _is_test_module(dotted: str) -> bool:
    """Whether the module ``dotted`` (``a.b.c``) is a test module: its last part starts with
    ``test_`` (pytest's default ``python_files``)."""
    return dotted.rsplit(".", 1)[-1].startswith("test_")


def imports_of_test_modules(path: Path) -> list[str]:
    """``"<path>:<line>: <module>"`` for each import of a test module in the file at ``path``,
    wherever in the file it stands (module level, a function, a class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            # ``from tests.unit import test_x`` names a module among the imported names when what it
            # imports from is a package (a folder); from a module, ``test_like`` is a name in it
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names
                                    if _is_package(node.module))]
        elif isinstance(node, ast.Call) and _imports_by_name(node):
            names = [node.args[0].value]
        else:
            continue
        found += [f"{path}:{node.lineno}: {name}" for name in names if _is_test_module(name)]
    return found


def _is_package(dotted: str) -> bool:
    """Whether ``dotted`` is a folder of the repository or of tests/ (``tests.unit``, ``tests``)."""
    return any((root / dotted.replace(".", "/")).is_dir() for root in (REPO, TESTS))


def _imports_by_name(call: ast.Call) -> bool:
    """A call ``import_module("...")`` / ``importlib.import_module("...")`` / ``__import__("...")``
    with the module's name written out."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return (name in ("import_module", "__import__") and bool(call.args)
            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))


def imports_of_test_modules_under(folder: Path) -> list[str]:
    """Every import of a test module by a ``.py`` file under ``folder``."""
    return [hit for path in sorted(folder.rglob("*.py")) for hit in imports_of_test_modules(path)]


def test_no_file_under_tests_imports_a_test_module() -> None:
    found = imports_of_test_modules_under(TESTS)
    assert not found, ("test modules importing other test modules (issue 26): move the shared piece to a "
                       "helper module named for what it holds, a shared fixture to the folder's conftest.py:\n"
                       + "\n".join(found))


def test_the_reader_finds_every_form_of_import(tmp_path: Path) -> None:
    # one file with each form (the lines counted from 1), and the forms that are no test module's
    (tmp_path / "test_a.py").write_text(
        "import test_b\n"                                    # 1
        "from test_c import x\n"                              # 2
        "from tests.unit.test_d import y\n"                   # 3
        "from tests.integration import test_e\n"              # 4
        "def f():\n"                                          # 5
        "    from test_f import z\n"                          # 6
        "    import importlib\n"                              # 7
        "    importlib.import_module('test_g')\n"             # 8
        "import live_helpers, tests.unit.conftest\n"          # 9: helpers and conftest: fine
        "from tests.unit import conftest\n"                   # 10: fine
        "from armageddon_board import test_like_name\n")      # 11: a name, not a module: fine
    found = imports_of_test_modules_under(tmp_path)
    where = sorted((int(hit.split(":")[1]), hit.split(": ")[1]) for hit in found)
    assert where == [(1, "test_b"), (2, "test_c"), (3, "tests.unit.test_d"), (4, "tests.integration.test_e"),
                     (6, "test_f"), (8, "test_g")], found
