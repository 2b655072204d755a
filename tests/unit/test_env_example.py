"""deploy/venue.env.example names every environment variable the code reads (issue 28 item 8: it did
not mention ``VENUE_ARBITERS``, and the units started with no arbiter login).

The names are found in the source itself, not listed here: every string constant read as
``env.get("NAME")``, ``environ["NAME"]``, ``os.getenv("NAME")`` or ``"NAME" in os.environ`` (and a
module constant passed that way, such as ``TOKEN_ENV``) in the packages the ``venue`` command runs
(uvicorn's ``FORWARDED_ALLOW_IPS`` among them: ``dashboard/proxies.py`` reads it and hands it over).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("venue", "dashboard", "gateway", "services", "devices")
EXAMPLE = ROOT / "deploy" / "venue.env.example"


ENV_HOLDERS = ("env", "environ", "environment")


def _mentions_env(node: ast.AST) -> bool:
    """Whether ``node`` is the environment: ``os.environ``, or a name such as ``env``/``environ``."""
    if isinstance(node, ast.Attribute):
        return node.attr in ENV_HOLDERS or node.attr == "getenv"
    return isinstance(node, ast.Name) and node.id.lower() in ENV_HOLDERS + ("os",)


def env_names_read(source: str) -> set[str]:
    """The environment variable names ``source`` reads (see the module docstring)."""
    tree = ast.parse(source)
    constants = {t.id: n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                 for t in n.targets if isinstance(t, ast.Name)}

    def name_of(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("get", "getenv", "pop") and _mentions_env(node.func.value):
            found.add(name_of(node.args[0]))
        elif isinstance(node, ast.Subscript) and _mentions_env(node.value):
            found.add(name_of(node.slice))
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and any(_mentions_env(c) for c in node.comparators):
            found.add(name_of(node.left))
    return {n for n in found if n and re.fullmatch(r"[A-Z][A-Z0-9_]+", n)}


def code_env_names() -> dict[str, str]:
    """Every name the code reads -> the first file reading it."""
    out: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in env_names_read(path.read_text()):
                out.setdefault(name, str(path.relative_to(ROOT)))
    return out


def test_the_finder_sees_each_way_of_reading_the_environment():
    """The finder itself, on the forms the code uses (an empty finder would pass the next test)."""
    source = '''
import os
TOKEN_ENV = "A_TOKEN"
env = os.environ
a = env.get("VENUE_ONE") or os.environ.get("VENUE_TWO", "x")
b = os.environ["VENUE_THREE"]
c = "VENUE_FOUR" in os.environ
d = os.getenv("VENUE_FIVE")
e = os.environ.get(TOKEN_ENV)
f = {"NOT_ENV": 1}.get("NOT_ENV")
'''
    assert env_names_read(source) == {"VENUE_ONE", "VENUE_TWO", "VENUE_THREE", "VENUE_FOUR", "VENUE_FIVE",
                                      "A_TOKEN"}


def test_every_environment_variable_the_code_reads_is_in_the_env_example():
    names = code_env_names()
    # The case, and the dashboard's settings: the finder must see them.
    assert {"VENUE_ARBITERS", "VENUE_SECRET", "VENUE_LOGIN_LIMIT", "VENUE_ALLOWED_ORIGINS",
            "FORWARDED_ALLOW_IPS"} <= set(names)
    example = EXAMPLE.read_text()
    named = set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", example, flags=re.M))
    missing = {n: where for n, where in names.items() if n not in named}
    assert not missing, f"deploy/venue.env.example does not name (name=value line): {missing}"


def test_each_variable_in_the_example_has_a_comment_above_it():
    lines = EXAMPLE.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^#?[A-Z][A-Z0-9_]+=", line):
            above = i - 1
            while above >= 0 and re.match(r"^#?[A-Z][A-Z0-9_]+=", lines[above]):
                above -= 1  # a group of settings under one comment
            assert above >= 0 and lines[above].startswith("# "), f"no comment above {line!r}"
