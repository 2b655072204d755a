"""The type check (issue 10: "Add a type checker (mypy) over `services/` and `gateway/` to CI"; issue 26:
"mypy clean over gateway/, services/, dashboard/, devices/, venue/ in CI"): mypy, as pinned in
pyproject.toml's test extra and configured by its ``[tool.mypy]`` (every product folder), reports no
error.

mypy keeps its cache in ``.mypy_cache`` at the repository root (git ignores it): a clean clone
checks everything (~4 s on 2 busy cores), a later run only what changed (~0.3 s).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_any_product_folder():
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "pyproject.toml",
                          "--cache-dir", ".mypy_cache"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"mypy (exit {run.returncode}):\n{run.stdout}{run.stderr}"


def test_mypy_checks_every_product_folder():
    # issue 26's acceptance: "mypy clean over gateway/, services/, dashboard/, devices/, venue/ in CI"
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert set(config["files"]) == {"services", "gateway", "dashboard", "devices", "venue"}
