"""Clock times land on the right plies whatever the order the board's and the clock's messages reach
the log in (issue 11 "Clock times on the wrong plies": after a broker restart, a takeover or a store
outage the moves came before the presses and every %clk after was shifted).

Presses are matched to plies by counting (services/state/plies.py): a press by side X ends X's move
(FIDE Laws 6.2.1), so X's k-th press is X's k-th move. Source of every expected value: round 5 of
the FIDE Candidates 2024 (open), ../shared/data/chess/fide_candidates_2024_open.pgn, its [%clk]
after every ply."""

from __future__ import annotations

import pytest
from replay_entries import game_entries, round_started

from services.eventlog.base import Entry
from services.views.spectator import SpectatorView

T0 = 1_712_678_400_000


def pgn_clocks(game) -> list[int]:
    return [round(n.clock() * 1000) for n in game.mainline()]


def fold(items) -> SpectatorView:
    view = SpectatorView()
    for seq, (t, d, at) in enumerate(items, start=1):
        view.apply(Entry(seq, at, t, d))
    return view


@pytest.mark.parametrize("order", ["in_time", "presses_first", "moves_first", "presses_in_a_burst_late"])
def test_every_ply_gets_its_own_clock_in_any_order(round5, order):
    game = round5[2]  # Gukesh D - Abasov, Nijat
    items = game_entries(game, "5-3", "3", T0 + 1000)
    start, rest = items[0], items[1:]
    presses = [i for i in rest if i[0] == "clock_pressed"]
    moves = [i for i in rest if i[0] == "move_played"]
    ended = [i for i in rest if i[0] == "game_ended"]
    if order == "presses_first":
        rest = presses + moves + ended
    elif order == "moves_first":
        rest = moves + presses + ended
    elif order == "presses_in_a_burst_late":  # the clock's messages held by a broker, then delivered
        rest = moves[:30] + presses[:40] + moves[30:] + presses[40:] + ended
    view = fold([round_started(round5, "5", T0), start, *rest])
    g = view.game("5-3")
    assert g["clocks"] == pgn_clocks(game)
    assert len(g["clocks"]) == len(list(game.mainline_moves()))


def test_the_spectators_get_each_clock_as_a_delta_when_it_lands(round5):
    """A press that arrives before its move is shown with the move; one after it, as a ``clk``
    delta for that ply (README "Dashboard API")."""
    game = round5[0]
    items = game_entries(game, "5-1", "1", T0 + 1000)
    presses = [i for i in items if i[0] == "clock_pressed"][:4]
    moves = [i for i in items if i[0] == "move_played"][:4]
    view = SpectatorView()
    seq = 0
    out = []
    for t, d, at in [round_started(round5, "5", T0), items[0], *presses[:2], *moves, *presses[2:]]:
        seq += 1
        out += view.apply(Entry(seq, at, t, d))
    clocks = pgn_clocks(game)
    appended = [m for m in out if m.get("append")]
    assert [m.get("clk") for m in appended] == [[[1, clocks[0]]], [[2, clocks[1]]], None, None]
    late = [m["clk"] for m in out if m.get("clk") and not m.get("append")]
    assert late == [[[3, clocks[2]]], [[4, clocks[3]]]]
