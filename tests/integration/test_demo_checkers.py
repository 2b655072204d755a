"""``venue demo --tournament events/checkers-11-man-national-2017.toml``: round 1 of the preset, paired
from the file, played to the end on simulated boards replaying real games.

Sources: the preset (11 players, round robin: FIDE C.05 Annex 1, Berger table for 12 with the
highest number as the bye: round 1 is 1-12, 2-11, 3-10, 4-9, 5-8, 6-7, so player 1 has the bye and
five matches are played on hall boards 1-5; its control is a match clock, so each pairing is a
Master division match of two games, X.A.a/X.A.b of checkers-11-man-national-2017.txt);
venue/data/tinsley_chinook_1992_matches.pdn (London 1992 games 7/8, 13/14, 17/18, 23/24, 25/26:
records 683-684, 688-689, 692-693, 698-699, 700-701 of ../shared/data/checkers/tinsley.pdn, each pair
one ballot with the colours reversed): each game's moves (full routes, as the rules core replays the
record) and result (PDN's Black-first score as the venue's White-first code: docs/checkers.md) must be
in /api/games; game 18 ended by a flag fall ("White overstepped the time control on this move"): a
flag in a match's second game forfeits that game only (X.A.b). A chess preset replays the shipped
Candidates 2024 round 5 (venue/data) under its own rules.
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
from services.rules.results import score
from venue.demo import run_demo

pytestmark = pytest.mark.live

PRESET = "events/checkers-11-man-national-2017.toml"
SPEED = 600.0
BERGER_ROUND_1 = [(2, 11), (3, 10), (4, 9), (5, 8), (6, 7)]  # (White, Black); 1 v 12 = the bye
RECORDS = read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992_matches.pdn").read_text())
ACF_BALLOTS = [123, 161, 19, 129, 15]  # the ACF numbers of the five matches' openings (acf_3move_ballots.csv)


async def test_the_demo_plays_round_one_of_the_preset_as_matches(monkeypatch):
    monkeypatch.chdir(resources.files("venue").joinpath("..").resolve())
    lines: list[str] = []
    task = asyncio.create_task(run_demo(speed=SPEED, port=0, tournament=PRESET, out=lines.append))
    try:
        base = await _url(lines, task)
        games = await _when_over(base, 10)
        async with httpx.AsyncClient(base_url=base, timeout=5) as http:
            health = (await http.get("/api/health")).json()
            standings = (await http.get("/api/standings")).json()
        for _ in range(100):  # the progress watcher prints it within its next turn
            if "round over" in lines:
                break
            await asyncio.sleep(0.1)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert health["tournament"] == "checkers-11-man-national-2017"
    assert [g["board"] for g in games] == ["1", "1", "2", "2", "3", "3", "4", "4", "5", "5"]
    assert [g["id"] for g in games[:2]] == ["1-1.1", "1-1.2"]
    expected_points = {}
    for i, (white, black) in enumerate(BERGER_ROUND_1):
        one, two = games[2 * i], games[2 * i + 1]
        assert (one["white"], one["black"]) == (f"Player {white:02d}", f"Player {black:02d}")
        assert (two["white"], two["black"]) == (f"Player {black:02d}", f"Player {white:02d}")  # reversed
        assert one["match"] == {"id": f"1-{i + 1}", "game_no": 1, "games": 2}
        assert two["match"] == {"id": f"1-{i + 1}", "game_no": 2, "games": 2, "follows": one["id"]}
        assert one["ballot"] == two["ballot"] and one["ballot"]["ballot"] == ACF_BALLOTS[i]
        for game, record in ((one, RECORDS[2 * i]), (two, RECORDS[2 * i + 1])):
            source = replay(record)
            assert game["variant"] == "checkers" and game["first_side"] == "black"
            assert game["moves"] == source.moves and game["moves"][:3] == one["ballot"]["moves"]
            assert game["result"] == record.venue_result
        # each game scores as a game: the round is worth up to 2 points
        expected_points[white] = float(score(one["result"]).white + score(two["result"]).black)
        expected_points[black] = float(score(one["result"]).black + score(two["result"]).white)
    assert [g["result"] for g in games] == ["1/2-1/2", "0-1", "1/2-1/2", "1-0", "1/2-1/2", "0-1",
                                            "1/2-1/2", "1/2-1/2", "1-0", "1/2-1/2"]
    assert [g["termination"] for g in games][4:6] == ["recorded", "time_forfeit"]  # London 1992 game 18
    points = {row["start_no"]: row["points"] for row in standings["rows"]}
    assert {no: points[no] for no in expected_points} == expected_points
    assert "round over" in lines
    assert any("bye         Player 01" in line for line in lines)
    assert any("ballot 15 (9-13 23-18 11-15): moves of London 1992, game 25 and game 26" in line for line in lines)


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
    assert "2017 11-Man National, round 1" in out and "5 matches of two games" in out
    assert "finished 10/10" in out and out.rstrip().endswith("round over")
    assert len(re.findall(r"^  result   board \d game [12] ", out, re.MULTILINE)) == 10
    # issue 27: a run that stops by itself does not say "Ctrl-C to stop."
    assert "Ctrl-C to stop." not in out and "Stops when the round is over (--exit-when-done)" in out


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
