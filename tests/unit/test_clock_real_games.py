"""Real games of ../shared/data/chess replayed through GameClock against their ``[%clk]`` values.

How: for each ply, the move's running time is what takes the mover's clock from its value at the
move's start to the ply's ``%clk`` (read as the middle of its second, since ``%clk`` has 1 s
resolution), given what the control credits; the press is fed to GameClock at that instant. The
replay then proves the control right for the game when (a) no move needs a negative time, i.e. the
clock never rose by more than the control credits ("gained"), and (b) no press comes at or after
the flag fall ("flag"); and (c) GameClock's value at each reading equals the ``%clk`` to the second.
Every deviation is listed in ``KNOWN`` with what the clocks show there; the replay re-syncs with an
arbiter ``set`` and goes on. python-chess is used only to read the PGN (``node.clock()``).

Controls, determined from the clocks (SOURCES.md, and the first-move and period-jump evidence
asserted in the tests below):
- lichess_2017-05: the ``[TimeControl]`` tag; increment on the press (``credit="press"``); lichess
  starts the clock after each side's first move, whose ``%clk`` is the starting time.
- Candidates 2024 open: 120 min for 40 moves, then 30 min, 30 s per move from move 41 (no first
  move ever shows more than 2:00:00; +30 min and +30 s appear together in move 40's ``%clk``).
- Candidates 2024 women: 90 min for 40 moves, then 30 min, 30 s from move 1.
- World Cup 2025: games .1/.2 90 min + 30 s from move 1 with 30 min after move 40, .3/.4 15 min +
  10 s, .5/.6 10 min + 10 s, .7/.8 5 min + 3 s, .9/.10 3 min + 2 s, and .11 (Armageddon-like)
  White 4 min, Black 3 min, both + 2 s (test_first_move_clocks_show_the_control).
- DGT LiveChess sample: 15 min + 10 s.
The FIDE-event and DGT files were recorded from DGT clocks, which credit the increment when a move
starts (``credit="move_start"``): their ``%clk`` for a move is the mover's clock at the start of
his next move, increment included, and players use time that a press-credited clock would not
have given them (test_dgt_clocks_credit_at_move_start).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import chess.pgn
import pytest

from services.clock import GameClock, Period, TimeControl

S = 1000
SIDES = ("white", "black")
CANDIDATES_OPEN = TimeControl.symmetric(Period(40, 7200 * S),
                                        Period(None, 1800 * S, 30 * S))
CLASSICAL_90_30 = TimeControl.parse_pgn("40/5400+30:1800+30")
WORLD_CUP = {"1": TimeControl.parse_pgn("5400+30"), "3": TimeControl.parse_pgn("900+10"),
             "5": TimeControl.parse_pgn("600+10"), "7": TimeControl.parse_pgn("300+3"),
             "9": TimeControl.parse_pgn("180+2"),
             "11": TimeControl.per_side(Period(None, 240 * S, 2 * S), Period(None, 180 * S, 2 * S))}
WORLD_CUP_PERIOD_MS = 1800 * S  # added after move 40, by hand (see test_world_cup_30_minutes)


@dataclass
class Deviation:
    ply: int
    kind: str  # "gained" | "flag" | "period"
    ms: int  # gained: how much more than credited; flag: the %clk; period: the move number


def world_cup_control(game: chess.pgn.Game) -> TimeControl:
    """The World Cup 2025 control from the Round tag's game number (SOURCES.md)."""
    number = int(game.headers["Round"].split(".")[1])
    key = {1: "1", 2: "1", 3: "3", 4: "3", 5: "5", 6: "5", 7: "7", 8: "7", 9: "9", 10: "9",
           11: "11"}[number]
    return WORLD_CUP[key]


def replay(control: TimeControl, clocks: list[int], credit: str, lichess: bool = False,
           hand_period_ms: int = 0) -> list[Deviation]:
    """Feed one game's ``%clk`` values (ms per ply, White first) to a GameClock; return the
    deviations (module docstring). ``hand_period_ms``: time an arbiter adds once after move 40,
    at the press where the clocks show it."""
    moves = (1, 1) if lichess else (0, 0)  # lichess starts the clock after each first move
    clock = _clock(control, credit, clocks[:2] if lichess else None, moves, "white", 0)
    out: list[Deviation] = []
    at = 0
    reading: list[int | None] = [None, None]  # per side: its last %clk (mid-second), to check
    hand_added = [False, False]
    for ply in range(sum(moves), len(clocks)):
        side, i = SIDES[ply % 2], ply % 2
        n = clock.moves_made(side) + 1
        increment, period = control.added_on_press(side, n)
        last = ply == len(clocks) - 1
        if last and clocks[ply] == 0:  # the game ended with this clock at 0: a flag, or < 1 s
            out.append(Deviation(ply + 1, "zero at the end", 0))
            break
        # the reading is the mover's clock at the start of his next move: increment included
        # (the last ply's too: the broadcasts show it there as well)
        next_credit = control.added_on_press(side, n + 1)[0] if credit == "move_start" else 0
        target = clocks[ply] + 500 - next_credit  # the mover's time right after this press
        credited = period + (increment if credit == "press" else 0)
        used = clock.remaining(side, at) + credited - target
        if hand_period_ms and not hand_added[i] and n >= 40 and used < -S // 2:
            hand_added[i] = True
            out.append(Deviation(ply + 1, "period", n))
            values = [clock.remaining(s, at) for s in SIDES]
            values[i] += hand_period_ms
            clock.set(*values, at)  # the arbiter adds the time while the clock runs
            used += hand_period_ms
        if -S // 2 <= used < 0:  # within the reading's half second: an exact start, a 0 s move
            used = 0
        if used >= 0 and at + used < clock.flag_fall_at():
            result = clock.press(side, at + used)
            at += used
            assert abs(result.remaining_ms - target) < S
            if reading[1 - i] is not None:  # the opponent's %clk: his clock at his move's start
                assert abs(clock.remaining(SIDES[1 - i], at) - reading[1 - i]) < S
        else:
            out.append(Deviation(ply + 1, "gained", -used) if used < 0
                       else Deviation(ply + 1, "flag", clocks[ply]))
            # re-sync as an arbiter would: the clocks as the broadcast shows them, the move counted
            values = [clock.remaining(s, at) for s in SIDES]
            values[i] = max(target, 0)
            counts = [clock.moves_made(s) for s in SIDES]
            counts[i] = n
            clock = _clock(control, credit, values, counts, SIDES[1 - i], at)
            reading[i] = None  # not checked: the re-sync took it as given
            continue
        reading[i] = clocks[ply] + 500
    return out


def _clock(control: TimeControl, credit: str, values, counts, side: str, at: int) -> GameClock:
    """A clock with ``values`` (ms, or the control's) and move ``counts``, ``side`` running from
    ``at``."""
    clock = GameClock(control, *(values or (None, None)), credit=credit)
    if any(counts):
        clock.set(clock.remaining("white", 0), clock.remaining("black", 0), 0,
                  white_moves=counts[0], black_moves=counts[1])
    clock.start(at, side)
    return clock


def games(path) -> list[chess.pgn.Game]:
    with open(path) as handle:
        out = []
        while (game := chess.pgn.read_game(handle)) is not None:
            out.append(game)
        return out


def clocks_of(game: chess.pgn.Game) -> list[int] | None:
    """The ``%clk`` of every ply in ms, or None when a ply has none (not replayable)."""
    values = [node.clock() for node in game.mainline()]
    if not values or None in values:
        return None
    return [round(v * S) for v in values]


def survey(path, control_of, credit, lichess=False, hand_period=None):
    """{game index (1-based): deviations} for every replayable game; and the count replayed."""
    found, replayed = {}, 0
    for index, game in enumerate(games(path), 1):
        clocks = clocks_of(game)
        if clocks is None or game.headers.get("TimeControl") == "-":
            continue
        replayed += 1
        deviations = replay(control_of(game), clocks, credit, lichess,
                            hand_period(game) if hand_period else 0)
        if deviations:
            found[index] = [(d.ply, d.kind, d.ms) for d in deviations]
    return found, replayed


def lichess_control(game: chess.pgn.Game) -> TimeControl:
    return TimeControl.parse_pgn(game.headers["TimeControl"])


def world_cup_hand_period(game: chess.pgn.Game) -> int:
    """30 min after move 40 in the classical games (.1/.2), credited where the clocks show it."""
    return WORLD_CUP_PERIOD_MS if int(game.headers["Round"].split(".")[1]) <= 2 else 0


# file: (control of a game, credit, lichess start, hand-added period, games replayed)
FILES = {
    "lichess_2017-05.pgn": (lichess_control, "press", True, None, 292),
    "fide_candidates_2024_open.pgn": (lambda g: CANDIDATES_OPEN, "move_start", False, None, 56),
    "fide_candidates_2024_women.pgn": (lambda g: CLASSICAL_90_30, "move_start", False, None, 56),
    "quirks/dgt_livechess_sample_invitational_2023.pgn":
        (lambda g: WORLD_CUP["3"], "move_start", False, None, 8),
    "fide_world_cup_2025.pgn": (world_cup_control, "move_start", False, world_cup_hand_period, 662),
}

# Games whose last %clk is 0:00:00: a flag fall, or under a second left (lichess truncates: in
# game 55 the last mover shows 0:00:00 on two earlier moves too). The replay stops there.
ZERO_AT_END = {
    "lichess_2017-05.pgn": {55, 124},
    "fide_world_cup_2025.pgn": {181, 191, 200, 249, 262, 277, 408, 428, 464, 569, 634, 642},
}

# First deviation (ply, kind) of every other game the control does not explain, with what the
# clocks show. "gained": the clock rose by more than the control credits (an arbiter's
# adjustment, or a misread clock); "flag": the reading is below what the move could leave.
KNOWN = {
    "fide_candidates_2024_open.pgn": {
        2: (14, "gained"),  # R1 Abasov-Nepomniachtchi: one reading 0:00:00 at ply 12, then 1:57
        9: (77, "gained"),  # R3 Gukesh-Nepomniachtchi: +30 min shown after move 38/39, not 40
    },
    "fide_candidates_2024_women.pgn": {
        10: (80, "flag"),  # R3 Muzychuk-Lagno: ply 78 shows +30 min a move early, ply 80 without
    },
    "quirks/dgt_livechess_sample_invitational_2023.pgn": {
        4: (35, "flag"),  # 1.4 Bothun-Traen: one reading 0:00:00 mid-game (15:32 next move)
        6: (100, "gained"),  # 1.6 Hansen-Skagen: +3 s beyond the increment at move 50
    },
    "fide_world_cup_2025.pgn": {
        9: (1, "flag"),  # first reading 0:00:00 (clock not yet read)
        12: (69, "gained"),  # +14 s
        33: (65, "gained"),  # +20 s
        50: (69, "gained"),  # +30 min shown at move 35, before move 40
        66: (79, "flag"),  # readings 0:00:00 mid-game
        100: (89, "flag"),  # readings 0:00:00 mid-game
        187: (78, "flag"),  # last reading 0:00:02 (< the 30 s a new move would start with)
        208: (81, "gained"),  # +3 s
        227: (113, "gained"),  # +5 s
        228: (56, "gained"),  # +7 s
        234: (1, "flag"),  # first reading 0:00:00
        247: (70, "gained"),  # +9 s
        253: (5, "gained"),  # +7 s
        269: (127, "gained"),  # +20 s
        272: (110, "gained"),  # +20 s
        319: (73, "gained"),  # +55 s
        400: (115, "gained"),  # +8 s
        403: (92, "flag"),  # reading 0:00:07 in 15+10 (< the 10 s a new move starts with)
        410: (37, "gained"),  # +38 s
        419: (138, "gained"),  # +7 s
        427: (40, "gained"),  # +314 s
        438: (56, "gained"),  # +27 s
        444: (3, "gained"),  # +6 s
        468: (124, "gained"),  # +17 s
        469: (115, "flag"),  # 2.6 Adams-Cheparinov, lost on time at 0:00:00 (SOURCES.md)
        484: (61, "gained"),  # +3 s
        485: (1, "flag"),  # first reading 0:00:00
        487: (144, "gained"),  # +1 s
        495: (127, "gained"),  # +107 s
        510: (3, "gained"),  # +16 s
        524: (71, "gained"),  # +9 s
        542: (132, "flag"),  # last reading 0:00:08 (< 30 s)
        557: (249, "gained"),  # last reading 0:15:10 after 0:00:55 (clock reset at the end)
        585: (105, "gained"),  # +1 s
        612: (38, "gained"),  # +118 s
        633: (114, "flag"),  # last reading 0:00:06 (< 10 s)
        645: (139, "gained"),  # +8 s
        705: (22, "flag"),  # readings 0:00:00 and 1:32:54 mid-game (clock reset)
    },
}


@functools.cache
def surveyed(name: str, chess_folder):
    """``survey`` of one file of ``FILES``, computed once per session."""
    control_of, credit, lichess, hand, _ = FILES[name]
    return survey(chess_folder / name, control_of, credit, lichess, hand)


@pytest.mark.parametrize("name", sorted(FILES))
def test_real_games_agree_with_their_clocks(name, shared_data):
    """Every game with a %clk on each ply agrees with GameClock to the second, except the listed
    ones; the listed ones deviate exactly where listed (the list is part of the expectation)."""
    found, replayed = surveyed(name, shared_data / "chess")
    assert replayed == FILES[name][4]
    zero = {i for i, devs in found.items() if devs[-1][1] == "zero at the end"
            and all(d[1] in ("period", "zero at the end") for d in devs)}
    assert zero == ZERO_AT_END.get(name, set())
    first = {i: next((d[0], d[1]) for d in devs if d[1] != "period")
             for i, devs in found.items() if i not in zero and any(d[1] != "period" for d in devs)}
    assert first == KNOWN.get(name, {})
    agreeing = replayed - len(zero) - len(first)
    assert agreeing == {"lichess_2017-05.pgn": 290, "fide_candidates_2024_open.pgn": 54,
                        "fide_candidates_2024_women.pgn": 55,
                        "quirks/dgt_livechess_sample_invitational_2023.pgn": 6,
                        "fide_world_cup_2025.pgn": 612}[name]


def test_first_move_clocks_show_the_control(shared_data):
    """The controls are read from the clocks: the highest first-move %clk is at most the base plus
    two increments under DGT's move-start credit (one at the start of move 1, one in the reading),
    and above base + one increment where a press-credited clock could not show it."""
    def highest(name, plies=(0, 1)):
        values = [clocks_of(g) for g in games(shared_data / "chess" / name)]
        return max(c[p] for c in values if c for p in plies if p < len(c))

    assert highest("fide_candidates_2024_open.pgn") == 7200 * S  # 2:00:00, no increment on move 1
    assert highest("fide_candidates_2024_women.pgn") == 5458 * S  # > 5400 + 30, <= 5400 + 60
    assert highest("quirks/dgt_livechess_sample_invitational_2023.pgn") == 920 * S  # 900 + 2 * 10


def test_world_cup_first_move_clocks(shared_data):
    """World Cup 2025, highest first-move %clk per game number of a tie (White, Black): each is
    within base + two increments of the control used for it, and above base + one increment
    where the game count allows (so the base is not higher)."""
    highest: dict[tuple[str, int], int] = {}
    for game in games(shared_data / "chess" / "fide_world_cup_2025.pgn"):
        clocks = clocks_of(game)
        if not clocks:
            continue
        number = int(game.headers["Round"].split(".")[1])
        key = {1: "1", 2: "1", 3: "3", 4: "3", 5: "5", 6: "5", 7: "7", 8: "7", 9: "9", 10: "9",
               11: "11"}[number]
        for ply in range(min(2, len(clocks))):
            highest[key, ply] = max(highest.get((key, ply), 0), clocks[ply])
    assert {k: v // S for k, v in highest.items()} == {
        ("1", 0): 5459, ("1", 1): 5459, ("3", 0): 920, ("3", 1): 920, ("5", 0): 620,
        ("5", 1): 620, ("7", 0): 306, ("7", 1): 306, ("9", 0): 184, ("9", 1): 183,
        ("11", 0): 243, ("11", 1): 183}
    for (key, ply), value in highest.items():
        control = WORLD_CUP[key]
        side = SIDES[ply]
        base, (increment, _) = control.starting_ms(side), control.added_on_press(side, 1)
        assert base + increment < value <= base + 2 * increment


def test_candidates_open_increment_from_move_41(shared_data):
    """Candidates 2024 open: moves 1-39 never gain time (no increment), and move 40's reading
    holds the 30 min and the first 30 s increment (of move 41, credited at its start)."""
    rises = {}
    for game in games(shared_data / "chess" / "fide_candidates_2024_open.pgn"):
        clocks = clocks_of(game)
        for ply in range(2, len(clocks)):
            move = ply // 2 + 1
            rises[move] = max(rises.get(move, -10**9), clocks[ply] - clocks[ply - 2])
    assert all(rises[m] <= 0 for m in range(8, 39))  # game 2's 0:00:00 glitch is at move 7
    assert 1800 * S < rises[40] <= 1830 * S
    assert all(0 < rises[m] <= 30 * S for m in range(41, 60))


def test_dgt_clocks_credit_at_move_start(shared_data):
    """With the same readings and control, a press-credited clock explains none of the 56
    Candidates women games (each starts with a move that gains 10-30 s: the reading holds the
    next move's increment), a move-start-credited clock all but one listed glitch: the FIDE
    events' clocks credit the increment when the move starts."""
    path = shared_data / "chess" / "fide_candidates_2024_women.pgn"

    def deviating(credit):
        return sum(bool(replay(CLASSICAL_90_30, clocks_of(game), credit)) for game in games(path))

    assert deviating("press") == 56
    assert deviating("move_start") == 1


def test_world_cup_30_minutes_added_by_hand(shared_data):
    """World Cup 2025 classical: the 30 minutes appear after the 40th move at varying moves (a
    clock adds them on the 40th press), so they were added by hand; counts by move."""
    found, _ = surveyed("fide_world_cup_2025.pgn", shared_data / "chess")
    by_move: dict[int, int] = {}
    for devs in found.values():
        for ply, kind, move in devs:
            if kind == "period":
                by_move[move] = by_move.get(move, 0) + 1
    assert by_move == {40: 4, 41: 206, 42: 99, 43: 22, 44: 12, 45: 9, 46: 2, 47: 1, 48: 4, 53: 2}
