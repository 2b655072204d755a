"""A press and the replacement of an illegal move reaching the gateway in either order
(``services.state.fold_penalties``: the press in doubt).

The board and the clock are two devices with their own ``seq``: the simulator's ``out_of_order``
fault holds a board message back until after the next one, so with ``illegal`` too (both at ply 6,
``devices.station.FAULT_PLY``) the gateway sees the illegal move, the press, then the replacement
move 11 ms later (newcomer report, ``venue simulate --fault illegal --fault out_of_order``). Each
press must still land on its own ply: the clock readings per ply are the source game's %clk
(FIDE Candidates 2024, round 5, ``venue/data/candidates_2024_round5.pgn``), every game of the round.
"""

from __future__ import annotations

import json

import chess
import chess.pgn
import pytest
from candidates_r5 import START_MS, source_games
from hall_driver import Driver

from devices.station import FAULT_PLY, _illegal_move


def play(game: chess.pgn.Game, order: str) -> Driver:
    """Replay ``game`` as the simulator's devices send it, with an illegal king move before the
    real move at ply ``FAULT_PLY``; ``order`` says how the illegal move, the replacement and its
    press reach the gateway at that ply."""
    d = Driver("1")
    clocks = {"white": START_MS, "black": START_MS}
    d.clock("1", "start", START_MS, START_MS, "white")
    board = game.board()
    for number, node in enumerate(game.mainline(), start=1):
        side = "white" if board.turn == chess.WHITE else "black"
        clocks[side] = int(node.clock() * 1000)
        running = "black" if side == "white" else "white"

        def press():
            d.clock("1", "press", clocks["white"], clocks["black"], running)

        uci = node.move.uci()
        if number != FAULT_PLY:
            d.move("1", uci)
            press()
        elif order == "illegal, press, replacement":
            d.move("1", _illegal_move(board))
            press()
            d.move("1", uci, after_ms=11)
        elif order == "illegal, replacement, press":
            d.move("1", _illegal_move(board))
            d.move("1", uci)
            press()
        else:  # "press, illegal, replacement": the press ahead of both board messages
            press()
            d.move("1", _illegal_move(board))
            d.move("1", uci)
        board.push(node.move)
    return d


ORDERS = ("illegal, press, replacement", "illegal, replacement, press", "press, illegal, replacement")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("index", range(4))
def test_every_ply_keeps_its_own_press_whatever_the_order(index, order):
    """Whatever order the illegal move, the replacement and the press arrive in, every ply's clock
    is the source game's %clk (FIDE Laws 6.2.1: the press completes the move), and a restarted
    gateway folding the log holds the same state."""
    game = source_games()[index]
    d = play(game, order)
    g = d.hall.state.games["1-1"]
    assert g.moves == [m.uci() for m in game.mainline_moves()]
    assert g.clocks == [int(n.clock() * 1000) for n in game.mainline()]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


@pytest.mark.parametrize("order", ORDERS[1:])
def test_no_penalty_when_the_press_came_after_the_replacement(order):
    """The player replaced the illegal move before pressing (the board's messages both ahead of the
    press), or the press came ahead of both: no illegal move was completed (7.5.1)."""
    d = play(source_games()[0], order)
    d.tick(10_000)  # past the clock model's grace (``clock_watch.GRACE_MS``)
    assert d.of("penalty_proposed") == []


F05 = ("e2e4", "e7e5", "e1e3")  # field case F05 (a): an illegal king jump at ply 3
MIN = 60_000


@pytest.mark.parametrize("then", ["white presses again", "black replies"])
def test_a_gateway_restarted_while_the_press_is_in_doubt_decides_the_same(then):
    """F05 (a) in standard play: White's e1e3, a press, the replacement e1e2. A gateway restarted
    there (folding the log) holds the same state, and settles the press the same way as the live
    one: White's second press takes the first one's place (the first completed the illegal move,
    7.5.1: the replacement's clock is the second press's reading), Black's reply keeps it (the
    press was the replacement's, its board message late)."""
    d = Driver("1")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "e2e4")
    d.clock("1", "press", 90 * MIN - 1000, 90 * MIN, "black")
    d.move("1", "e7e5")
    d.clock("1", "press", 90 * MIN - 1000, 90 * MIN - 1000, "white")
    d.move("1", "e1e3")
    d.clock("1", "press", 90 * MIN - 3000, 90 * MIN - 1000, "black")
    d.move("1", "e1e2")
    fresh = d.rebuilt()
    assert fresh.state.snapshot() == d.hall.state.snapshot() and fresh.watches == d.hall.watches
    if then == "white presses again":
        topic, raw, expected = "clock", {"seq": 5, "event": "press", "white_ms": 90 * MIN - 5000,
                                         "black_ms": 90 * MIN - 1000, "running": "black"}, 90 * MIN - 5000
        live = d.clock("1", "press", 90 * MIN - 5000, 90 * MIN - 1000, "black")
    else:
        topic, raw, expected = "move", {"seq": 5, "move": "b8c6"}, 90 * MIN - 3000
        live = d.move("1", "b8c6")
    again = fresh.handle(f"venue/hall-test/boards/1/{topic}", json.dumps(raw).encode(), d.now)
    assert again.entries == live.entries
    assert fresh.state.snapshot() == d.hall.state.snapshot() and fresh.watches == d.hall.watches
    assert d.hall.state.games["1-1"].clocks[2] == expected
