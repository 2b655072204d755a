"""What both demos share (``venue demo``: ``venue.demo``; ``venue demo --tournament FILE.toml``:
``venue.demo_tournament``): the shipped round, the lines they print while a round is played, and how
they start the tasks their stack stops.

Its own module so that neither demo imports the other for these (they did, issue 26).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from importlib import resources

from services.events.vocabulary import GameStatus, Termination, Variant

ROUND_FILE = "candidates_2024_round5.pgn"
PROGRESS_EVERY_S = 2.0
STOPS_WHEN_DONE = "Stops when the round is over (--exit-when-done); Ctrl-C stops it sooner."


def demo_round_text() -> str:
    """The PGN text of the shipped demo round."""
    return resources.files("venue").joinpath("data", ROUND_FILE).read_text("utf-8")


def progress_line(games: list[dict]) -> str:
    """``"moves 57 | playing 4 | finished 0/4"`` for the current round's GAMEs."""
    moves = sum(g["ply"] for g in games)
    done = sum(1 for g in games if g["status"] == GameStatus.ENDED)
    playing = sum(1 for g in games if g["status"] == GameStatus.PLAYING)
    return f"moves {moves:4d} | playing {playing} | finished {done}/{len(games)}"


def wall_clock(ms: int | None = None) -> str:
    """``"01:04:45 UTC"``: the instant ``ms`` (ms since the epoch; default now) on this machine's
    clock, with its zone's name. Every time the demo prints goes through here, so the round's start
    and the progress lines read in one zone (a new user saw the start in the event's zone, -05:00,
    over progress lines in UTC)."""
    return time.strftime("%H:%M:%S %Z", time.localtime(None if ms is None else ms / 1000))


def result_line(g: dict) -> str:
    """``"board 2  Firouzja, Alireza - Nakamura, Hikaru  0-1 (resignation)"``. Checkers names Black
    (who moves first) first with the score in that order, as PDN does, and a match's game says which:
    ``"board 3 game 2  Player 04 - Player 09  1-0 (time forfeit)"``; a result taken from the game's
    record without its reason says so."""
    term = g.get("termination")
    why = ""
    if term == Termination.RECORDED:
        why = " (as the game's record gives it)"
    elif term:
        why = f" ({term.replace('_', ' ')})"
    which = f" game {g['match']['game_no']}" if isinstance(g.get("match"), dict) else ""
    if g.get("variant") == Variant.CHECKERS:
        from services.rules.checkers_results import to_pdn

        try:
            score = to_pdn(g["result"])
        except ValueError:
            score = g["result"]
        return f"board {g['board']}{which}  {g['black']} - {g['white']}  {score}{why}"
    return f"board {g['board']}{which}  {g['white']} - {g['black']}  {g['result']}{why}"


async def watch(view, out=print, every_s: float = PROGRESS_EVERY_S) -> None:
    """Print progress while the round is played; returns once every game of it has ended."""
    reported: set[str] = set()
    last = ""
    last_at = 0.0
    while True:
        games = view.games()
        for g in games:
            if g["status"] == GameStatus.ENDED and g["id"] not in reported:
                reported.add(g["id"])
                out(f"  result   {result_line(g)}")
        line = progress_line(games) if games else ""
        now = time.monotonic()
        if line and line != last and now - last_at >= every_s:
            out(f"  {wall_clock()} {line}")
            last, last_at = line, now
        if games and len(reported) == len(games):
            out(f"  {wall_clock()} {progress_line(games)}")
            return
        await asyncio.sleep(0.2)


def run_task(stack: contextlib.AsyncExitStack, coro, name: str) -> asyncio.Task:
    """Start ``coro``; the stack cancels and awaits it on exit (in reverse order of start)."""
    task = asyncio.create_task(coro, name=name)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task

    stack.push_async_callback(stop)
    return task
