"""The demo prints every time in one zone, and names it: this machine's clock
(``venue.demo_run.wall_clock``). A new user's run of the checkers demo read "round 1 starts
2026-12-01T20:06:00-05:00" (the event's zone) over progress lines "01:04:45" (the machine's, UTC),
with no zone named on the latter.

Expected values: the 11-Man National 2017 preset's round 1, "2017-07-10T09:00:00-05:00"
(events/checkers-11-man-national-2017.toml), is 14:00:00 UTC, and 09:00:00 CDT in Chicago's zone
(Central Daylight Time, UTC-5, in July); Vidit-Caruana, board 4 of the demo round
(venue/data/candidates_2024_round5.pgn), drawn by threefold repetition.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path

import chess.pgn
import pytest

from venue.demo_run import demo_round_text, watch
from venue.demo_tournament import start_words, starting_now
from venue.tournament import load_file

PRESET = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
FILED_START = "2017-07-10T09:00:00-05:00"


@pytest.fixture
def zone(monkeypatch):
    """``zone(name)`` sets this process's local zone (TZ) for the test; the old one is back after."""
    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


def preset_at_its_own_start():
    """The preset as ``starting_now`` moves it when the demo starts a minute before the file's round
    1: the start stays the file's (the first whole minute at least 30 s ahead)."""
    filed = load_file(str(PRESET))
    return filed, starting_now(filed, filed.round(1).start_ms - 60_000)


@pytest.mark.parametrize(("tz", "shown"), [("UTC", "14:00:00 UTC"), ("America/Chicago", "09:00:00 CDT")])
def test_the_round_start_is_in_the_machines_zone_with_the_files_beside_it(zone, tz, shown):
    zone(tz)
    filed, t = preset_at_its_own_start()
    assert t.round(1).start == FILED_START
    assert start_words(filed, t) == (f"round 1 scheduled for {shown} (in the event's zone {FILED_START}; "
                                     f"the file says {FILED_START}); the demo's boards start playing at once")


@pytest.mark.parametrize("tz", ["UTC", "America/Chicago"])
def test_progress_lines_name_the_same_zone(zone, tz):
    zone(tz)
    pgn = io.StringIO(demo_round_text())
    games = iter(lambda: chess.pgn.read_game(pgn), None)
    game = next(g for g in games if g.headers["White"] == "Vidit, Santosh Gujrathi")
    vidit_caruana = {"id": "5-4", "board": "4", "white": game.headers["White"], "black": game.headers["Black"],
                     "variant": "chess", "status": "ended", "result": game.headers["Result"],
                     "termination": "threefold_repetition", "ply": len(list(game.mainline_moves()))}

    class View:
        def games(self):
            return [vidit_caruana]

    lines: list[str] = []
    asyncio.run(watch(View(), lines.append))
    now_zone = time.strftime("%Z")
    assert re.fullmatch(rf"  \d\d:\d\d:\d\d {now_zone} moves +\d+ \| playing 0 \| finished 1/1", lines[-1]), lines
