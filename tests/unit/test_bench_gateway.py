"""bench/bench_gateway.py's pure parts: the table with several runs per code (``--repeat``), the
set-up under a tournament file (``--tournament-file``) and the clocks' messages of its load.

Oracles: the table of one run is the one the bench printed before ``--repeat`` (its output for
these rows, recorded from the code of commit 16fb5ba); the set-up and the clocks are judged by the
product's own regulations (``services.regulations.referee``: US 2023 rule 1, FIDE Laws 6.7.1) and
clock model (``services.regulations.clock_watch``, FIDE Laws 6.10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import chess.pgn
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import bench_gateway as bg  # noqa: E402
from _latency_hall import HallGame  # noqa: E402

from services.events.tournament import Setup  # noqa: E402
from services.arbiter_office.setup import round_from_pgn  # noqa: E402
from services.regulations import referee  # noqa: E402
from services.regulations.clock_watch import watch_for  # noqa: E402
from services.regulations.clock_watches import ClockWatches  # noqa: E402
from services.regulations.tournament_file import load_tournament  # noqa: E402
from services.state import HallState  # noqa: E402

US_2023 = REPO / "events" / "us-championship-2023.toml"
MINUTE = 60_000


def _row(code, cpu, appended, shards=1, run=1, plies=444.0, lost=0):
    return bg.Row(code, 1000, "blitz", shards=shards, cpu_ms=cpu, plies_s=plies, appended=appended, lost=lost,
                  run=run)


def test_one_run_prints_the_table_it_printed_before_repeat():
    rows = [_row("this", 0.5, [1.0, 2.0, 3.0, 4.0, 50.0]), _row("main", 0.75, [2.0, 3.0, 4.0, 5.0, 100.0], plies=440.0),
            _row("this", 0.4, [1.0, 2.0], shards=2, lost=1)]
    assert bg.table(rows) == (
        "config                 CPU/ply ms    main  ratio  plies/s   main  p50 ms    main   p99 ms     main  ratio  lost\n"
        "---------------------------------------------------------------------------------------------------------------\n"
        "1000 blitz                  0.500   0.750   1.5x      444    440     3.0     4.0     50.0    100.0   2.0x     0\n"
        "1000 blitz 2 shards         0.400       -     -x      444      -     1.0       -      2.0        -     -x     1")


def test_several_runs_give_medians_pooled_percentiles_and_every_run():
    rows = [_row("this", 0.5, [1.0, 2.0], run=1), _row("main", 0.9, [3.0], run=1),
            _row("main", 0.8, [4.0], run=2), _row("this", 0.7, [5.0], run=2),
            _row("this", 0.6, [6.0], run=3), _row("main", 1.0, [7.0], run=3)]
    lines = bg.table(rows, "us-ch-2023").splitlines()
    assert lines[2].split() == ["1000", "blitz", "us-ch-2023", "0.600", "0.900", "1.5x", "444", "444",
                                "5.0", "4.0", "6.0", "7.0", "1.2x", "0"]
    assert lines[3].strip() == "runs (CPU/ply ms, in run order): this 0.500 0.700 0.600 / main 0.900 0.800 1.000"
    assert len(lines) == 4


def test_a_failed_run_is_named_and_left_out_of_the_median():
    rows = [_row("this", 0.5, [1.0], run=1), _row("main", 0.9, [3.0], run=1),
            _row("main", 0.8, [4.0], run=2), bg.Row("this", 1000, "blitz", run=2, error="ServiceError: gone")]
    lines = bg.table(rows).splitlines()
    assert lines[2].split()[2:5] == ["0.500", "0.850", "1.7x"]
    assert lines[3].strip() == "runs (CPU/ply ms, in run order): this 0.500 FAILED / main 0.900 0.800"
    assert lines[4].strip() == "this FAILED in run 2: ServiceError: gone"


def _round() -> dict:
    pgn = "".join(f'[Event "bench"]\n[Round "1"]\n[Board "{b}"]\n[White "W{b}"]\n[Black "B{b}"]\n'
                  f'[TimeControl "300+3"]\n[Result "*"]\n\n*\n\n' for b in (1, 2))
    return round_from_pgn(pgn)


def _folded(entries) -> tuple[HallState, ClockWatches]:
    state, watches = HallState(), ClockWatches()
    for type_, data, at in entries:
        watches.fold(state, type_, data, at or 0)
    return state, watches


def test_under_us_2023_the_checked_in_round_owes_nothing_past_the_default_time():
    t = load_tournament(US_2023.read_text(), str(US_2023))
    start = 1_796_000_000_000
    state, watches = _folded(bg.set_up_entries(_round(), t, start))
    assert state.config.name == "2023 U.S. Championship"
    assert t.regulations.default_time_for("blitz") == 30 * MINUTE  # rule 1: "more than 30 (thirty) minutes late"
    assert [referee.round_start_ms(state, g) for g in state.current_games()] == [start, start]
    assert referee.tick(state, start + 30 * MINUTE + 1, watches) == []


def test_without_the_check_ins_rule_1_fines_and_then_defaults_every_player():
    t = load_tournament(US_2023.read_text(), str(US_2023))
    start = 1_796_000_000_000
    state, watches = _folded(bg.set_up_entries(_round(), t, start, checkin=False))
    fines = referee.tick(state, start + 1, watches)
    assert sorted((e.board, e.side, e.fine) for e in fines) == [("1", "black", 500), ("1", "white", 500),
                                                                ("2", "black", 500), ("2", "white", 500)]
    for e in fines:
        watches.apply(state, e, start + 1)
    late = referee.tick(state, start + 30 * MINUTE + 1, watches)
    assert [(type(e).__name__, e.board, e.result) for e in late] == [
        ("DefaultForfeit", "1", "0-0"), ("GameEnded", "1", "0-0"), ("DefaultForfeit", "2", "0-0"), ("GameEnded", "2", "0-0")]


def test_the_clocks_show_what_the_control_gives_and_the_clock_model_agrees():
    headers = chess.pgn.Headers(TimeControl="300+3")
    game = HallGame(headers, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], [1500, 2500, 0, 4000, 3000])
    events, t = [], 0.7
    for ply, think in enumerate(game.think_ms, start=1):
        t += think / 1000
        events.append((t, "1", ply))
    messages = bg.clock_messages({"1": game}, events, "s")
    bodies = [json.loads(m[3]) for m in messages]
    assert messages[0][0] == pytest.approx(0.7) and messages[0][2] == "venue/s/boards/1/clock"
    assert bodies[0] == {"seq": 1, "event": "start", "white_ms": 300_000, "black_ms": 300_000, "running": "white"}
    # Fischer increment: each press adds 3 s to the mover's time less what it thought
    assert [(b["seq"], b["white_ms"], b["black_ms"], b["running"]) for b in bodies[1:]] == [
        (2, 301_500, 300_000, "black"), (3, 301_500, 300_500, "white"), (4, 304_500, 300_500, "black"),
        (5, 304_500, 299_500, "white"), (6, 304_500, 299_500, "black")]
    watch = watch_for(Setup(id="1-1", board="1", time_control="300+3", variant="chess"), "white", None)
    timeline = sorted([(t, 0, "move", ply) for t, _, ply in events] +
                      [(m[0], 1, "clock", body) for m, body in zip(messages, bodies)], key=lambda x: x[:2])
    found = []
    for at, _, kind, what in timeline:
        ms = round(at * 1000)
        if kind == "move":
            watch.on_move("white" if what % 2 else "black", ms)
        else:
            found += watch.on_clock(what["event"], what["white_ms"], what["black_ms"], what["running"], ms)
    assert found == []
    assert watch.tick(round(t * 1000) + 10_000) == []
    # the same model reports a figure 2.5 s off the control (the tolerance is 2 s): the check bites
    off = watch_for(Setup(id="1-1", board="1", time_control="300+3", variant="chess"), "white", None)
    off.on_clock("start", 300_000, 300_000, "white", 700)
    off.on_move("white", 2200)
    assert [f["kind"] for f in off.on_clock("press", 304_000, 300_000, "black", 2202)] == ["time"]
