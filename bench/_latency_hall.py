"""The "hall" load of ``bench/bench_latency.py``: N boards playing real blitz games at their real pace.

Games: the blitz games of the FIDE World Cup 2025 (../shared/data/chess/fide_world_cup_2025.pgn,
Round tags R.7 and later: 5 min and 3 min games, SOURCES.md), the fastest over-the-board games in the
shared data, with a clock comment on every ply. Each ply's thinking time is the product's own reading
(``devices.script``: the mover's previous clock - this clock + the increment; ``CONTROLS``).

Board ``i`` (1-based) plays game ``(i - 1) % len(games)`` from its first move, starting at a random
instant in the first ``stagger`` seconds (players start their clocks when the arbiter says so, not
in the same millisecond), then each ply after its thinking time, divided by ``speed``. The bench
counts the plies published from ``warmup`` seconds on, until ``warmup + duration``.

Why this load: "1,000 boards moving at once" is a round of 1,000 games in play. A 1,000-board blitz
round publishes about 1,000 / 7 s ~ 150 plies a second (mean ply time 9.3 s at 5+3, 5.4 s at 3+2 in
these games): the heaviest real pace. The all-at-once burst is kept as ``--load burst``.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass

import chess.pgn

MATCH_GAME = re.compile(r"^\d+\.(\d+)$")


@dataclass(frozen=True)
class HallGame:
    """One game to replay: its PGN headers, UCI moves and each ply's thinking time (ms)."""

    headers: chess.pgn.Headers
    moves: list[str]
    think_ms: list[int]


PACES = {"rapid": (3, 6), "blitz": (7, 99)}  # game numbers in the World Cup's Round tag (SOURCES.md)
# Game number -> control: the bases as SOURCES.md reads them from the clocks (15, 10, 5, 3 minutes);
# the increments of the World Cup 2025 regulations (10, 10, 3, 2 s), which the clocks agree with
# (the median largest gain of a side's clock between its moves: 10 s, 3 s, 2 s).
CONTROLS = {3: "900+10", 4: "900+10", 5: "600+10", 6: "600+10", 7: "300+3", 8: "300+3", 9: "180+2"}


def world_cup_games(path, pace: str = "rapid", min_plies: int = 40) -> list[HallGame]:
    """The World Cup games of ``pace`` ("rapid": game numbers 3-6 of a match in the Round tag, 15 and
    10 minutes; "blitz": 7 and later, 5 and 3 minutes) with a clock on every ply and at least
    ``min_plies`` plies, thinking times read through ``devices.script``."""
    lo, hi = PACES[pace]
    from devices.script import scripts_from_pgn

    out = []
    with open(path, encoding="utf-8-sig") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            m = MATCH_GAME.match(game.headers.get("Round", ""))
            if not m or not lo <= int(m.group(1)) <= hi:
                continue
            nodes = list(game.mainline())
            clocks = [n.clock() for n in nodes]
            if len(nodes) < min_plies or any(c is None for c in clocks):
                continue
            game.headers["TimeControl"] = CONTROLS[min(int(m.group(1)), 9)]
            text = str(game)
            script = scripts_from_pgn(text, boards=["1"])[0]
            out.append(HallGame(game.headers, [p.uci for p in script.plies],
                                [p.think_ms for p in script.plies]))
    if not out:
        raise SystemExit(f"no {pace} game with clocks in {path}")
    return out


def round_pgn(n: int, games: list[HallGame]) -> tuple[str, dict[str, HallGame]]:
    """The round's PGN (headers only: ``venue serve``'s ROUND.pgn) for ``n`` boards, and each
    board's game."""
    text = io.StringIO()
    per_board = {}
    for i in range(n):
        g = games[i % len(games)]
        board = str(i + 1)
        per_board[board] = g
        h = g.headers
        text.write(f'[Event "Latency bench (blitz hall)"]\n[Site "bench"]\n[Date "2025.11.20"]\n'
                   f'[Round "1"]\n[Board "{board}"]\n[White "{h.get("White")}"]\n'
                   f'[Black "{h.get("Black")}"]\n[TimeControl "{h.get("TimeControl")}"]\n'
                   f'[Result "*"]\n\n*\n\n')
    return text.getvalue(), per_board


def schedule(per_board: dict[str, HallGame], *, speed: float, stagger: float, until: float,
             seed: int = 2025) -> list[tuple[float, str, int]]:
    """``[(seconds from the start, board, ply 1-based), ...]`` in time order, up to ``until``."""
    rng = random.Random(seed)
    events = []
    for board, game in per_board.items():
        t = rng.uniform(0.0, stagger)
        for ply, think in enumerate(game.think_ms, start=1):
            t += think / 1000.0 / speed
            if t > until:
                break
            events.append((t, board, ply))
    events.sort()
    return events
