"""The LiveChess bridge's pure parts: LiveChess's messages read (devices/livechess/api.py, shapes as
the public clients of its API read them: herohde/livechess-go ``pkg/livechess``, lichess-org/lila
``ui/dgt``), e-board readings turned into our protocol (docs/protocol.md), the board map, the seq
store. The game: FIDE Candidates 2024 round 1, Caruana - Nakamura, its first plies with [%clk]
(../shared/data/chess/fide_candidates_2024_open.pgn)."""

from __future__ import annotations

import json

import chess
import pytest

from devices.livechess import translate
from devices.livechess.api import (LiveChessError, LiveClock, parse_eboards, parse_event, read_response,
                                   subscribe_call)
from devices.livechess.bridge import parse_board_map
from devices.livechess.store import SeqStore
from devices.livechess.translate import Reading, clock_event

START = chess.STARTING_BOARD_FEN
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_subscribe_call_names_the_feed_and_the_serial():
    # herohde/livechess-go events.go: {"call": "subscribe", "id": 42, "param": {"feed": "eboardevent",
    # "id": 7, "param": {"serialnr": "7425"}}}
    assert json.loads(subscribe_call(42, 7, "7425")) == {
        "call": "subscribe", "id": 42, "param": {"feed": "eboardevent", "id": 7, "param": {"serialnr": "7425"}}}


def test_the_documented_feed_message_is_read():
    # The initial feed message printed in herohde/livechess-go feed.go (seconds; run true: White's time).
    r = read_response('{"response":"feed","id":7,"param":{"serialnr":"7425","flipped":false,'
                      '"board":"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R","clock":{"white":5676,'
                      '"black":7190,"run":true,"time":1503845105357}},"time":1503849460756}')
    assert (r.kind, r.id) == ("feed", 7)
    ev = parse_event(r.param)
    assert ev.board == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"
    assert ev.clock == LiveClock(5_676_000, 7_190_000, "white", 1503845105357)
    # board and clock left out when unchanged
    ev = parse_event({"serialnr": "7425", "flipped": False, "san": ["e4"]})
    assert (ev.board, ev.has_clock) == (None, False)


def test_eboards_with_states_and_battery():
    boards = parse_eboards([
        {"serialnr": "1001", "source": "COM3", "state": "ACTIVE", "battery": "87%", "comment": None,
         "board": START, "flipped": False, "clock": None},
        {"serialnr": "1002", "source": None, "state": "NOTRESPONDING", "battery": None, "comment": None,
         "board": None, "flipped": True, "clock": {"white": 0, "black": 5, "run": None, "time": 1}},
    ])
    assert [(b.serial, b.online, b.battery) for b in boards] == [("1001", True, "87%"), ("1002", False, None)]
    assert boards[1].clock.running is None


@pytest.mark.parametrize("bad", ['[1]', '{"response":"feed"}', "not json", '{"response":"x","id":1}'])
def test_what_is_not_a_response_is_refused(bad):
    with pytest.raises(LiveChessError):
        read_response(bad)


@pytest.mark.parametrize("param", [{"serialnr": ""}, {"serialnr": "1", "board": "8/8"},
                                   {"serialnr": "1", "clock": {"white": -1, "black": 0, "run": None}},
                                   {"serialnr": "1", "clock": {"white": 1, "black": 0, "run": "yes"}}])
def test_bad_event_fields_are_refused(param):
    with pytest.raises(LiveChessError):
        parse_event(param)


def clk(w, b, run):
    return LiveClock(w * 1000, b * 1000, run)


def test_clock_events_follow_the_running_side():
    """Laws 6.5 (started), 6.2.1 (a press completes the move), a pause and a resume, times set."""
    assert clock_event(None, clk(7200, 7200, None), False) is None  # a stopped clock: only remembered
    stopped = {"white_ms": 7_200_000, "black_ms": 7_200_000, "running": None}
    assert clock_event(stopped, clk(7200, 7200, "white"), False) == "start"
    white = {"white_ms": 7_200_000, "black_ms": 7_200_000, "running": "white"}
    assert clock_event(white, clk(7199, 7200, "white"), True) is None  # ticking
    # Caruana's 1. e4 {[%clk 1:59:56]}: the press leaves Black's time running
    assert clock_event(white, clk(7196, 7200, "black"), True) == "press"
    assert clock_event(white, clk(7100, 7200, None), True) == "pause"
    assert clock_event({**white, "running": None}, clk(7100, 7200, "white"), True) == "resume"
    assert clock_event({**white, "running": None}, clk(7220, 7200, None), True) == "set"


def test_a_game_start_as_a_board_reports_it():
    """Start position, clock started, 1. e4 with its passing state (the pawn in the hand) and the
    press with Caruana's [%clk 1:59:56]; every event repeated (duplicates) sends nothing more."""
    from devices.livechess.api import BoardEvent

    r = Reading()
    sent = []

    def feed(board=None, clock=None, has_clock=False):
        nonlocal r
        ev = BoardEvent("1001", False, board, clock, has_clock)
        for _ in range(2):  # each event twice: LiveChess or the network repeating itself
            r, out = translate.from_event(r, ev)
            sent.extend((k, p) for k, p, _ in out)

    feed(START, clk(7200, 7200, None), True)
    feed(clock=clk(7200, 7200, "white"), has_clock=True)
    feed("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")  # the e-pawn in the hand
    feed(AFTER_E4)
    feed(clock=clk(7196, 7200, "black"), has_clock=True)
    assert sent == [  # game: the game's number on the board (docs/protocol.md "Fields")
        ("status", "online"), ("position", {"placement": START, "game": 1}),
        ("clock", {"event": "start", "white_ms": 7_200_000, "black_ms": 7_200_000, "running": "white", "game": 1}),
        ("position", {"placement": "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR", "game": 1}),
        ("position", {"placement": AFTER_E4, "game": 1}),
        ("clock", {"event": "press", "white_ms": 7_196_000, "black_ms": 7_200_000, "running": "black", "game": 1}),
    ]
    assert not any(k == "move" for k, _ in sent)  # the bridge never sends a move


def test_a_board_not_read_sends_only_offline():
    from devices.livechess.api import EBoard

    r, out = translate.from_snapshot(Reading(placement=START, online=True),
                                     EBoard("1001", "NOTRESPONDING", "12%", AFTER_E4, False, None))
    assert [(k, p) for k, p, _ in out] == [("status", "offline")]
    assert r.placement == START  # the stale placement is not taken
    r, out = translate.from_snapshot(r, EBoard("1001", "ACTIVE", "12%", AFTER_E4, False, None))
    assert [(k, p) for k, p, _ in out] == [("status", '{"status": "online", "battery": "12%"}'),
                                          ("position", {"placement": AFTER_E4, "game": 1})]
    # the battery is sent again when it changes, and only then
    assert translate.from_snapshot(r, EBoard("1001", "ACTIVE", "12%", AFTER_E4, False, None))[1] == []
    _, out = translate.from_snapshot(r, EBoard("1001", "ACTIVE", "11%", AFTER_E4, False, None))
    assert [(k, p) for k, p, _ in out] == [("status", '{"status": "online", "battery": "11%"}')]


def test_a_board_set_to_the_start_again_after_a_game_counts_the_next_game():
    # Abasov - Nepomniachtchi, Candidates 2024 r1 (../shared/data/chess/fide_candidates_2024_open.pgn)
    # ended drawn at 5k2/5pp1/p6p/1p6/3rR3/1P3P2/1P3KPP/8; under Norway Chess 2023 an Armageddon game
    # follows on the same board: the pieces set up again (a piece in the hand on the way), the clock
    # paused, set to 10 and 7 minutes and started. The board's messages from the start position on
    # say game 2; the clock's pause says game 1, its setting and what follows game 2 (a ``start``)
    from devices.livechess.api import BoardEvent

    final = "5k2/5pp1/p6p/1p6/3rR3/1P3P2/1P3KPP/8"
    r = Reading(placement=final, clock={"white_ms": 3_099_000, "black_ms": 3_725_000, "running": "black"},
                started=True, online=True, left_start=True)
    sent = []

    def feed(board=None, clock=None, has_clock=False):
        nonlocal r
        r, out = translate.from_event(r, BoardEvent("1001", False, board, clock, has_clock))
        sent.extend((k, p) for k, p, _ in out)

    feed(clock=clk(3099, 3705, None), has_clock=True)  # the players stop the clock
    feed("5k2/5pp1/p6p/1p6/4R3/1P3P2/1P3KPP/8")  # the black rook lifted: the pieces put away
    feed(START)
    feed(clock=clk(600, 420, None), has_clock=True)  # set for the Armageddon
    feed(clock=clk(600, 420, "white"), has_clock=True)
    feed(AFTER_E4)
    assert [(k, p.get("event"), p["game"]) for k, p in sent if k != "status"] == [
        ("clock", "pause", 1), ("position", None, 1), ("position", None, 2), ("clock", "set", 2),
        ("clock", "start", 2), ("position", None, 2)]
    # a piece lifted and put back at the start is no new game (passing states: fewer than 4 squares)
    feed("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")
    feed(START)
    assert r.game == 2


def test_board_map():
    assert parse_board_map("7425=1,7426=2") == {"7425": "1", "7426": "2"}
    for bad in ("7425", "7425=1,7425=2", "7425=1,7426=1", "7425=board 1", ""):
        with pytest.raises(ValueError):
            parse_board_map(bad)


def test_board_map_file(tmp_path):
    f = tmp_path / "boards.txt"
    f.write_text("# serial board\n7425 1\n7426=2  # the second table\n")
    assert parse_board_map(str(f)) == {"7425": "1", "7426": "2"}


def test_seqs_survive_a_restart_and_a_new_round_starts_at_one(tmp_path):
    path = tmp_path / "state.json"
    s = SeqStore(path, "t", "3")
    assert [s.take("1", "board", Reading()) for _ in range(3)] == [1, 2, 3]
    assert s.take("1", "clock", Reading(placement=START)) == 1
    again = SeqStore(path, "t", "3")
    assert (again.take("1", "board", Reading()), again.reading("1").placement) == (4, None)
    assert SeqStore(path, "t", "3").reading("1") == Reading()
    fresh = SeqStore(path, "t", "4")  # round 4: docs/protocol.md "Start again at 1 when a new round is started"
    assert fresh.take("1", "board", Reading()) == 1
    assert (tmp_path / "state.json.old").exists()
    fresh.jump(1000, ["1", "2"])
    assert (fresh.last("1", "board"), fresh.last("2", "clock")) == (1001, 1000)


def test_cli_refuses_a_bad_map_with_exit_2(capsys):
    from venue.cli import main

    assert main(["bridge", "livechess", "--mqtt", "mqtt://127.0.0.1:1", "--tournament", "t",
                 "--boards", "7425=1,7425=2"]) == 2
    assert "serial 7425 is mapped twice" in capsys.readouterr().err
