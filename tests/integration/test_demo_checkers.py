"""``venue demo --tournament events/checkers-11-man-national-2017.toml``: round 1 of the preset, paired
from the file, played to the end on simulated boards replaying the shipped real games.

Sources: the preset (11 players, round robin: FIDE C.05 Annex 1, Berger table for 12 with the
highest number as the bye: round 1 is 1-12, 2-11, 3-10, 4-9, 5-8, 6-7, so player 1 has the bye and
five games are played on hall boards 1-5); venue/data/tinsley_chinook_1992.pdn (records 684, 689,
698, 700, 701 of ../shared/data/checkers/tinsley.pdn, one per board in file order): each board's
moves (full routes, as the rules core replays the record) and result (PDN's Black-first score as
the venue's White-first code: docs/checkers.md) must be in /api/games. A chess preset replays the
shipped Candidates 2024 round 5 (venue/data) under its own rules.
"""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys
from importlib import resources

import chess.pgn
import httpx
import pytest

from services.rules.checkers_pdn import read_pdn, replay
from venue.demo import run_demo

pytestmark = pytest.mark.integration

PRESET = "events/checkers-11-man-national-2017.toml"
SPEED = 600.0
BERGER_ROUND_1 = [(2, 11), (3, 10), (4, 9), (5, 8), (6, 7)]  # (White, Black); 1 v 12 = the bye
RECORDS = read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn").read_text())


async def test_the_demo_plays_round_one_of_the_preset(monkeypatch):
    monkeypatch.chdir(resources.files("venue").joinpath("..").resolve())
    lines: list[str] = []
    task = asyncio.create_task(run_demo(speed=SPEED, port=0, tournament=PRESET, out=lines.append))
    try:
        base = await _url(lines, task)
        games = await _when_over(base, 5)
        async with httpx.AsyncClient(base_url=base, timeout=5) as http:
            health = (await http.get("/api/health")).json()
        for _ in range(100):  # the progress watcher prints it within its next turn
            if "round over" in lines:
                break
            await asyncio.sleep(0.1)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert health["tournament"] == "checkers-11-man-national-2017"
    assert [g["board"] for g in games] == ["1", "2", "3", "4", "5"]
    for game, (white, black), record in zip(games, BERGER_ROUND_1, RECORDS):
        assert (game["white"], game["black"]) == (f"Player {white:02d}", f"Player {black:02d}")
        assert game["variant"] == "checkers" and game["first_side"] == "black"
        assert game["moves"] == replay(record).moves
        assert game["result"] == record.venue_result
        assert game["termination"] == "recorded"
    assert [g["result"] for g in games] == ["0-1", "1-0", "1/2-1/2", "1-0", "1/2-1/2"]
    assert "round over" in lines
    assert any("bye         Player 01" in line for line in lines)
    assert any("moves of London 1992, game 8, Chinook - M Tinsley" in line for line in lines)


async def test_a_chess_preset_replays_the_candidates_round_under_its_rules(monkeypatch):
    """events/us-championship-2023.toml: 12 players, Berger round 1 (1-12, 2-11, ... 6-7) on six
    boards, replaying the four games of venue/data/candidates_2024_round5.pgn in turn (boards 1-4,
    then 5-6 again from the first). The decisive games end with their real moves and results; the
    draws are left to the arbiter by the event's rules: US 2023 rule 2 bans draw offers (Praggnanandhaa -
    Nepomniachtchi was agreed), and a claim (Vidit - Caruana, threefold repetition) is decided by
    the arbiter (FIDE Laws 9.2)."""
    monkeypatch.chdir(resources.files("venue").joinpath("..").resolve())
    text = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text()
    stream, source = io.StringIO(text), []
    while (g := chess.pgn.read_game(stream)) is not None:
        source.append(g)
    lines: list[str] = []
    task = asyncio.create_task(run_demo(speed=SPEED, port=0, tournament="events/us-championship-2023.toml",
                                        out=lines.append))
    try:
        base = await _url(lines, task)
        for _ in range(1200):
            if any(line.startswith("every board has played") for line in lines) or task.done():
                break
            await asyncio.sleep(0.1)
        async with httpx.AsyncClient(base_url=base, timeout=5) as http:
            games = (await http.get("/api/games")).json()["games"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert [(g["white"], g["black"]) for g in games] == [
        (f"Player {w:02d}", f"Player {b:02d}") for w, b in [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)]]
    for i, game in enumerate(games):
        real = source[i % 4]
        assert game["moves"] == [m.uci() for m in real.mainline_moves()]
        if real.headers["Result"] != "1/2-1/2":
            assert (game["status"], game["result"]) == ("ended", real.headers["Result"])
        else:
            assert game["status"] == "playing"
    waiting = [line for line in lines if line.startswith("    board ")]
    assert sum("draw offer refused" in line for line in waiting) == 2
    assert sum("draw claim reported" in line for line in waiting) == 1


def test_the_command_line_runs_the_round_and_exits():
    root = resources.files("venue").joinpath("..").resolve()
    done = subprocess.run(
        [sys.executable, "-m", "venue", "demo", "--tournament", PRESET, "--speed", str(SPEED),
         "--exit-when-done", "--port", "0"],
        cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "2017 11-Man National, round 1" in out and "5 boards" in out
    assert "finished 5/5" in out and out.rstrip().endswith("round over")
    assert len(re.findall(r"^  result   board ", out, re.MULTILINE)) == 5


def test_a_checkers_demo_refuses_placement_boards():
    root = resources.files("venue").joinpath("..").resolve()
    done = subprocess.run(
        [sys.executable, "-m", "venue", "demo", "--tournament", PRESET, "--boards-kind", "position",
         "--exit-when-done", "--port", "0"], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "chess only" in done.stderr


async def _url(lines: list[str], task: asyncio.Task, timeout: float = 60.0) -> str:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        for line in lines:
            m = re.search(r"spectators\s+(http://\S+)/", line)
            if m:
                return m.group(1)
        if task.done():
            raise AssertionError(f"the demo stopped: {task.exception()!r} {lines}")
        await asyncio.sleep(0.1)
    raise AssertionError(f"no URL printed: {lines}")


async def _when_over(base: str, count: int, timeout: float = 180.0) -> list[dict]:
    seen = None
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            games = (await http.get("/api/games")).json()["games"]
            seen = [(g["id"], g["ply"], g["status"]) for g in games]
            if len(games) == count and all(g["status"] == "ended" for g in games):
                return games
            await asyncio.sleep(0.25)
    raise AssertionError(f"the round did not finish: {seen}")
