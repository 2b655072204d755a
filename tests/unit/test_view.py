"""The spectators' fold (services.views.spectator) over the entries of real games.

Source of every expected value: round 5 of the FIDE Candidates 2024 (open), in
../shared/data/chess/fide_candidates_2024_open.pgn (moves, SAN, FEN and [%clk] per ply, results),
and the entry shapes of docs/events.md.
"""

from __future__ import annotations

import chess
import chess.pgn
import pytest

from services.eventlog.base import Entry
from services.views.spectator import SpectatorView as HallView
from replay_entries import game_entries, round_started

T0 = 1_712_678_400_000  # 2024-04-09 16:00 UTC, ms


def feed(view: HallView, items, first_seq: int = 1) -> list[dict]:
    deltas = []
    for i, (t, d, at) in enumerate(items):
        deltas += view.apply(Entry(first_seq + i, at, t, d))
    return deltas


def replay(round5, board: int, **kw) -> tuple[HallView, list[dict]]:
    view = HallView()
    items = [round_started(round5, "5", T0)]
    items += game_entries(round5[board - 1], f"5-{board}", str(board), T0 + 1000, **kw)
    return view, feed(view, items)


def pgn_clocks_ms(game: chess.pgn.Game) -> list[int]:
    return [round(n.clock() * 1000) for n in game.mainline()]


def test_round_started_lists_the_four_boards(round5):
    view = HallView()
    deltas = feed(view, [round_started(round5, "5", T0)])
    assert deltas[0]["type"] == "round" and deltas[0]["seq"] == 1
    assert [(g["id"], g["white"], g["black"]) for g in view.games()] == [
        ("5-1", "Praggnanandhaa R", "Nepomniachtchi, Ian"),
        ("5-2", "Firouzja, Alireza", "Nakamura, Hikaru"),
        ("5-3", "Gukesh D", "Abasov, Nijat"),
        ("5-4", "Vidit, Santosh Gujrathi", "Caruana, Fabiano"),
    ]
    g = view.game("5-1")
    assert g["status"] == "waiting" and g["ply"] == 0 and g["result"] == "*"
    assert g["fen"] == chess.STARTING_FEN and g["white_elo"] == 2747 and g["black_elo"] == 2758


@pytest.mark.parametrize("press_first", [False, True], ids=["press-after-move", "press-before-move"])
def test_clocks_per_ply_equal_the_games_clk(round5, press_first):
    """Gukesh-Abasov, 173 plies: every ply carries the mover's %clk, whichever device is first."""
    view, _ = replay(round5, 3, press_first=press_first)
    g = view.game("5-3")
    assert g["ply"] == 173
    assert g["clocks"] == pgn_clocks_ms(round5[2])
    assert g["san"] == [n.san() for n in round5[2].mainline()]
    assert g["moves"] == [n.move.uci() for n in round5[2].mainline()]
    assert g["fen"] == round5[2].end().board().fen()


def test_press_before_move_is_held_until_the_move(round5):
    """Praggnanandhaa-Nepomniachtchi 1. e4 {[%clk 1:59:24]}: the press arrives first."""
    view = HallView()
    items = [round_started(round5, "5", T0)]
    items += game_entries(round5[0], "5-1", "1", T0 + 1000, press_first=True)[:3]
    deltas = feed(view, items)
    press, move = deltas[2], deltas[3]
    assert press["set"]["clock"]["running"] == "black" and "clk" not in press
    assert {k: move["append"][k] for k in ("move", "san")} == {"move": "e2e4", "san": "e4"}
    assert move["clk"] == [[1, (1 * 3600 + 59 * 60 + 24) * 1000]]
    assert view.game("5-1")["clocks"] == [7_164_000]


def test_press_after_move_attaches_to_that_ply(round5):
    view = HallView()
    items = [round_started(round5, "5", T0)] + game_entries(round5[0], "5-1", "1", T0 + 1000)[:5]
    deltas = feed(view, items)
    # 1. e4 {[%clk 1:59:24]} e5 {[%clk 1:59:53]}
    assert deltas[3]["clk"] == [[1, 7_164_000]]
    assert deltas[5]["clk"] == [[2, 7_193_000]]
    assert deltas[5]["set"]["clock"] == {"white_ms": 7_164_000, "black_ms": 7_193_000,
                                         "running": "white", "at": items[5][2]}


def test_claimable_threefold_then_game_ended(round5):
    """Vidit-Caruana ended 1/2-1/2 in a position repeated a third time (FIDE Laws 9.2.1.2)."""
    view, deltas = replay(round5, 4)
    moves = [d for d in deltas if d.get("append")]
    assert len(moves) == 60
    last = moves[-1]["set"]["claimable"]
    assert {"kind": "threefold", "by_move": None, "evidence": {}} in last
    ended = deltas[-1]
    assert ended["set"]["status"] == "ended"
    assert ended["set"]["result"] == "1/2-1/2"
    assert ended["set"]["termination"] == "threefold_repetition"
    assert ended["set"]["claimable"] == []
    g = view.game("5-4")
    assert g["status"] == "ended" and g["claimable"] == [] and g["clock"]["running"] is None


@pytest.mark.parametrize("board", [1, 2, 3, 4])
def test_results_are_the_games_results(round5, board):
    view, _ = replay(round5, board)
    g = view.game(f"5-{board}")
    assert g["result"] == round5[board - 1].headers["Result"]
    assert g["status"] == "ended"


def test_clock_stops_when_the_game_ends(round5):
    """The running side's time at the end is its last reading less the time since it."""
    view = HallView()
    items = [round_started(round5, "5", T0)] + game_entries(round5[3], "5-4", "4", T0 + 1000)
    feed(view, items[:-1])
    before = view.game("5-4")["clock"]
    end_at = before["at"] + 5_000
    view.apply(Entry(len(items), end_at, "game_ended", {**items[-1][1]}))
    after = view.game("5-4")["clock"]
    side = before["running"]
    assert after["running"] is None and after["at"] == end_at
    assert after[f"{side}_ms"] == before[f"{side}_ms"] - 5_000


def test_a_claim_that_lapsed_is_not_shown(round5):
    """draw_claimable for an earlier ply is stale: the position has changed (FIDE Laws 9.2)."""
    view = HallView()
    items = [round_started(round5, "5", T0)] + game_entries(round5[0], "5-1", "1", T0 + 1000)[:5]
    feed(view, items)
    stale = {"game": "5-1", "board": "1", "ply": 1, "claims": [{"kind": "threefold", "by_move": None, "evidence": {}}]}
    assert view.apply(Entry(7, T0 + 99_000, "draw_claimable", stale)) == []
    now = {**stale, "ply": 2}
    d = view.apply(Entry(8, T0 + 99_500, "draw_claimable", now))
    assert d[0]["set"]["claimable"] == now["claims"]


def test_replayed_and_foreign_entries_give_no_delta(round5):
    view = HallView()
    items = [round_started(round5, "5", T0)] + game_entries(round5[0], "5-1", "1", T0 + 1000)[:3]
    feed(view, items)
    assert view.apply(Entry(2, T0, items[1][0], items[1][1])) == []  # seq already folded
    other = {**items[2][1], "game": "4-1"}
    assert view.apply(Entry(10, T0 + 5000, "move_played", other)) == []  # not in this round
    assert view.apply(Entry(11, T0 + 5000, "move_rejected", {"game": "5-1"})) == []
    assert view.apply(Entry(12, T0 + 5000, "move_played", {"game": "5-1"})) == []  # no fields
    assert view.seq == 12


def test_snapshot_is_the_latest_full_state(round5):
    view, _ = replay(round5, 2)
    snap = view.snapshot()
    assert snap["type"] == "snapshot" and snap["seq"] == view.seq
    assert snap["round"]["event"] == "Candidates" and snap["round"]["round"] == "5"
    assert snap["games"][1]["result"] == "0-1"


def test_arbiter_entries_that_spectators_see(round5):
    """docs/arbiter.md: adjust_clock -> clock_adjusted; pause/resume -> game_paused/game_resumed;
    set_result "*" -> arbiter_decision (the game goes on). Figures from Vidit-Caruana's opening."""
    view = HallView()
    items = [round_started(round5, "5", T0)] + game_entries(round5[3], "5-4", "4", T0 + 1000)[:5]
    feed(view, items)
    clock = view.game("5-4")["clock"]
    assert clock["running"] == "white"
    base = {"game": "5-4", "board": "4", "by": "arbiter1"}
    d = view.apply(Entry(7, clock["at"] + 10_000, "game_paused", base))
    assert d[0]["set"]["clock"]["running"] is None
    assert d[0]["set"]["clock"]["white_ms"] == clock["white_ms"] - 10_000
    d = view.apply(Entry(8, clock["at"] + 70_000, "clock_adjusted", {**base, "white_ms": 7_000_000, "black_ms": 7_100_000}))
    assert d[0]["set"]["clock"] == {"white_ms": 7_000_000, "black_ms": 7_100_000, "running": None,
                                    "at": clock["at"] + 70_000}
    d = view.apply(Entry(9, clock["at"] + 90_000, "game_resumed", base))
    assert d[0]["set"]["clock"]["running"] == "white" and d[0]["set"]["clock"]["at"] == clock["at"] + 90_000
    view.apply(Entry(10, clock["at"] + 95_000, "game_ended", {**base, "result": "1-0", "termination": "arbiter", "ply": 4}))
    assert view.game("5-4")["status"] == "ended"
    d = view.apply(Entry(11, clock["at"] + 99_000, "arbiter_decision", {**base, "result": "*", "previous": "1-0"}))
    assert d[0]["set"] == {"status": "playing", "result": "*", "termination": None}
