"""Fixtures the unit tests of several modules share (the lanes and the fixtures of every folder are
in tests/conftest.py).

``drawn_game``: the drawn classical game of the Armageddon tests (tests/armageddon_board.py);
``log``: an empty in-memory event log under a fresh slug, as the start-up tests give ``venue serve``'s
start-up (test_start_up, test_start_up_pgn).
"""

from __future__ import annotations

import io
import uuid

import chess.pgn
import pytest

from services.eventlog import open_log


@pytest.fixture(scope="module")
def drawn_game(shared_data) -> chess.pgn.Game:
    """FIDE Candidates 2024, round 1: Abasov - Nepomniachtchi, drawn (the second game of
    ../shared/data/chess/fide_candidates_2024_open.pgn). Module scope: each module reads it once."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    for _ in range(2):
        game = chess.pgn.read_game(stream)
    assert game is not None and game.headers["White"] == "Abasov, Nijat" and game.headers["Result"] == "1/2-1/2"
    return game


@pytest.fixture
async def log():
    """``memory://`` under the slug ``restart-<8 hex>``; closed after the test."""
    log = open_log("memory://", f"restart-{uuid.uuid4().hex[:8]}")
    yield log
    await log.close()
