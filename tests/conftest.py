"""Shared fixtures and the test lanes.

Lanes (pytest markers, set here by directory so that no test can forget its own):
- ``unit``: tests/unit, pure, no outside service: ``./run tests -m unit`` (docs/CONTRIBUTING.md);
- ``live``: tests/integration, and any test marked ``live`` (or ``integration``, its former name):
  real Mosquitto (127.0.0.1:1883) and Redis (127.0.0.1:6379);
- ``browser``: tests/browser, Playwright with Debian's chromium (``live`` too when it needs the services).
A test in tests/unit marked ``live`` or ``browser`` is in that lane, not ``unit``. ``./run tests`` and
CI run every lane; nothing skips when a service is missing: the test fails.

Fixtures: where ../shared/data is (``shared_data``), and the games every dashboard and spectator
test replays (``round5``); those only one folder's tests share are in that folder's conftest.py
(tests/unit/conftest.py), what tests share besides in helper modules beside this file: a test module
imports no other test module (tests/unit/test_test_layout.py). An ``eventually_async`` never awaited
fails its test.
"""

from __future__ import annotations

import os
from pathlib import Path

import chess.pgn
import pytest

from eventually import unawaited

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("VENUE_SHARED", REPO.parent / "shared"))
SHARED_DATA = SHARED / "data"
CASES = SHARED / "cases"
REGULATIONS = SHARED / "regulations"

LANE_OF_FOLDER = {"unit": "unit", "integration": "live", "browser": "browser"}


@pytest.hookimpl(tryfirst=True)  # before -m reads the markers
def pytest_collection_modifyitems(config, items) -> None:
    """Each test's lane from its folder (see the module docstring); ``integration`` -> ``live``."""
    for item in items:
        if item.get_closest_marker("integration") and not item.get_closest_marker("live"):
            item.add_marker(pytest.mark.live)
        try:
            folder = Path(str(item.path)).relative_to(TESTS).parts[0]
        except ValueError:
            continue
        lane = LANE_OF_FOLDER.get(folder)
        if lane == "unit" and (item.get_closest_marker("live") or item.get_closest_marker("browser")):
            continue
        if lane and not item.get_closest_marker(lane):
            item.add_marker(lane)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """``-m unit`` alone: tests/integration and tests/browser are not even imported (their folders
    put every test of theirs in another lane; importing them took ~4 s of the unit lane's
    collection, 2026-12). Any other selection collects everything, as before."""
    if (config.option.markexpr or "").strip() != "unit":
        return None
    if collection_path.parent == TESTS and collection_path.name in ("integration", "browser"):
        return True
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail a test that made an ``eventually_async`` and never awaited it (it checked nothing)."""
    unawaited()  # forget any a fixture left: this test answers for its own
    try:
        result = yield
    except BaseException:
        unawaited()
        raise
    left = unawaited()
    assert not left, f"eventually_async(...) not awaited at {', '.join(left)}: it checked nothing"
    return result


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data; the tests that need it fail (never skip) when it is missing."""
    assert SHARED_DATA.is_dir(), f"shared data not found at {SHARED_DATA} (set VENUE_SHARED)"
    return SHARED_DATA


@pytest.fixture(scope="module")
def round5(shared_data) -> list[chess.pgn.Game]:
    """Round 5 of the FIDE Candidates 2024, open section (../shared/data/chess/fide_candidates_2024_open.pgn):
    its four games, board order. Module scope: a module may change the games it is given."""
    games = []
    with open(shared_data / "chess" / "fide_candidates_2024_open.pgn", encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            if g.headers["Round"] == "5":
                games.append(g)
    assert len(games) == 4
    return games
