"""The product's import graph stays without circles, arrows against the layers and dead modules (issue 26:
"No import circles; devices/ depends on the protocol, not on gateway/ or venue/; dead modules gone").

The graph is read by ``tools/import_graph.py`` (Python's ``ast``: every import, function-local and
``if TYPE_CHECKING:`` ones included, so an import moved into a function still counts). The layers are
docs/CONTRIBUTING.md's "Layout": ``services/`` (pure) imports none of the other folders; ``gateway/``,
``dashboard/`` and ``devices/`` import no ``venue/``; ``devices/`` imports neither ``gateway/`` nor
``dashboard/`` (the protocol's shared parts are in ``services/protocol/``).

The last tests check the tool on a small tree written here, whose circles and arrows are known by
construction, so the product's tests cannot pass because the tool sees nothing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tools.import_graph import against_layers, arrows, circle_arrows, circles, modules, unreached


@cache
def _graph():
    """The product's modules and arrows, read once for the tests here (about a second)."""
    known = modules()
    return known, arrows(known)


def test_no_import_circle() -> None:
    known, edges = _graph()
    found = circles(edges)
    detail = [f"{' <-> '.join(c)}: " + ", ".join(f"{a.path}:{a.line} -> {a.target}" for a in circle_arrows(c, edges))
              for c in found]
    assert not found, "import circles (move the shared piece to a module both import):\n" + "\n".join(detail)


def test_no_arrow_from_a_lower_layer_to_a_higher_one() -> None:
    _, edges = _graph()
    wrong = [f"{a.path}:{a.line}: {a.source} -> {a.target}" for a in against_layers(edges)]
    assert not wrong, "imports against the layers (docs/CONTRIBUTING.md 'Layout'):\n" + "\n".join(wrong)


def test_no_module_only_tests_reach() -> None:
    known, edges = _graph()
    dead = unreached(known, edges)
    assert not dead, ("modules no product module imports (remove them, or name an entry point in "
                      "tools/import_graph.py ENTRY_POINTS with its reason): " + ", ".join(dead))


def test_the_graph_reads_the_product() -> None:
    """The reading itself, on known arrows of the product: a plain import, a relative one, a
    ``from package import module`` and a function-local one."""
    _, edges = _graph()
    pairs = {(a.source, a.target) for a in edges}
    assert ("services.clock.control", "services.clock.pgn") in pairs  # from services.clock.pgn import ...
    assert ("services.regulations.controls", "services.regulations.fields") in pairs  # from .fields import
    assert ("gateway.decide", "services.protocol.placement") in pairs  # from services.protocol import placement
    assert ("venue.serve", "venue.start_up") in pairs  # inside prepare()


def _tree(root: Path, files: dict[str, str]) -> None:
    for top in ("services", "gateway", "dashboard", "devices", "venue"):
        (root / top).mkdir(parents=True, exist_ok=True)
        (root / top / "__init__.py").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_tool_finds_a_circle_through_a_function_local_import(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "venue/serve.py": "def prepare():\n    from venue.start_up import start\n",
        "venue/start_up.py": "from venue.serve import CliError\n",
        "venue/alone.py": "import venue.serve\n",
    })
    known = modules(tmp_path)
    edges = arrows(known, tmp_path)
    assert circles(edges) == [["venue.serve", "venue.start_up"]]
    assert [(a.source, a.line) for a in circle_arrows(["venue.serve", "venue.start_up"], edges)] == [
        ("venue.serve", 2), ("venue.start_up", 1)]


def test_the_tool_finds_a_circle_through_type_checking_and_relative_imports(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "services/views/__init__.py": "",
        "services/views/alerts.py": "from .since import Since\n",
        "services/views/since.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                    "    from services.views.alerts import Alert\n"),
    })
    edges = arrows(modules(tmp_path), tmp_path)
    assert circles(edges) == [["services.views.alerts", "services.views.since"]]


def test_the_tool_finds_arrows_against_the_layers(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "services/protocol/__init__.py": "",
        "services/protocol/placement.py": "",
        "services/pure.py": "from gateway import hall\n",
        "gateway/hall.py": "from services.protocol import placement\n",
        "devices/station.py": "from gateway.hall import x\nfrom services.protocol.placement import y\n",
        "devices/cli.py": "def run():\n    from venue.serve import CliError\n",
        "dashboard/app.py": "import venue.serve\n",
        "venue/serve.py": "import gateway.hall, dashboard.app, devices.station\n",
    })
    wrong = {(a.source, a.target) for a in against_layers(arrows(modules(tmp_path), tmp_path))}
    assert wrong == {("services.pure", "gateway.hall"), ("devices.station", "gateway.hall"),
                     ("devices.cli", "venue.serve"), ("dashboard.app", "venue.serve")}


def test_the_tool_finds_a_module_only_tests_reach(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "gateway/ordering.py": "import gateway.hall\n",
        "gateway/hall.py": "",
        "venue/__main__.py": "from venue.cli import main\n",
        "venue/cli.py": "",
    })
    known = modules(tmp_path)
    assert unreached(known, arrows(known, tmp_path)) == ["gateway.ordering"]
