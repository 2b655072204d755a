"""The engine evaluation for the broadcast audience (issue 31 item 4): which positions ``venue
analyse`` analyses (``services.views.analysis.positions_due``: the present position of each game in
play on the first boards, once), how an engine's answer is written (``evaluation_entry``), its fold
(``services.state.fold_analysis``: kept for the game's present position only), and its release with
the delayed move (the public fold, ``services.views.delay``) and never in the arbiters' GAME.

The games: FIDE Candidates 2024 round 5 (../shared/data/chess/fide_candidates_2024_open.pgn) on
hall boards 1-4, through ``replay_entries`` (a move's time from the drop of the mover's %clk). The
engine's answers are python-chess's own types (``chess.engine.PovScore``, ``Cp``, ``Mate``), the
best line the game's own next moves, so their SAN is the PGN's. One test runs Debian's Stockfish
(``./run tests`` installs it).
"""

from __future__ import annotations

import asyncio

import chess
import chess.engine
import pytest

from broadcast_helpers import T0, candidates_round5
from replay_entries import game_entries, round_started
from services.eventlog.base import Entry
from services.eventlog.memory import MemoryLog
from services.events import PositionEvaluated, decode
from services.state import HallState
from services.views.analysis import (BEST_LINE_PLIES, MAX_BUDGET_MS, MIN_BUDGET_MS, Position, check_budget,
                                     check_max_boards, evaluation_entry, positions_due)
from services.views.delay import DelayedHall
from services.views.spectator import SpectatorView, game_json
from venue.analyse import Analyser, default_engine


def plies_of(items: list[tuple[str, dict, int]], n: int) -> list[tuple[str, dict, int]]:
    """``game_entries`` up to its ``n``-th ``move_played`` (and that move's press)."""
    out, moves = [], 0
    for item in items:
        if item[0] == "move_played":
            moves += 1
            if moves > n:
                break
        out.append(item)
    return out


def round_log(games, plies: dict[str, int]) -> list[Entry]:
    """Round 5 on boards 1-4, board ``b`` played to ``plies[b]`` plies; entries in time order."""
    items = [round_started(games, "5", T0)]
    for b, n in plies.items():
        items += plies_of(game_entries(games[int(b) - 1], f"5-{b}", b, T0 + 1000 + int(b), end=False), n)
    items.sort(key=lambda x: x[2])
    return [Entry(i, at, t, d) for i, (t, d, at) in enumerate(items, start=1)]


def folded(entries: list[Entry]) -> HallState:
    state = HallState()
    for e in entries:
        state.apply(e)
    return state


@pytest.fixture(scope="module")
def games(shared_data):
    return candidates_round5(shared_data)


def fen_after(game, n: int) -> str:
    board = game.board()
    for move in list(game.mainline_moves())[:n]:
        board.push(move)
    return board.fen()


def test_each_game_s_present_position_on_the_first_boards_longest_waiting_first(games):
    state = folded(round_log(games, {"1": 6, "2": 9, "3": 0, "4": 4}))
    due = positions_due(state, {}, max_boards=4)
    # board 3 has made no move (the start position tells nothing); the others' present positions
    assert {(p.game, p.ply, p.fen) for p in due} == {("5-1", 6, fen_after(games[0], 6)),
                                                      ("5-2", 9, fen_after(games[1], 9)),
                                                      ("5-4", 4, fen_after(games[3], 4))}
    assert [p.reached_at for p in due] == sorted(p.reached_at for p in due)  # the longest waiting first
    assert [p.game for p in positions_due(state, {}, max_boards=2)] == sorted(
        ["5-1", "5-2"], key=lambda g: next(p.reached_at for p in due if p.game == g))  # boards 1 and 2 only


def test_a_position_is_analysed_once(games):
    entries = round_log(games, {"1": 6})
    state = folded(entries)
    [pos] = positions_due(state, {}, 1)
    assert positions_due(state, {"5-1": (6, pos.fen)}, 1) == []  # analysed by this process
    # or by an earlier run: its position_evaluated is in the log
    record = PositionEvaluated(game="5-1", board="1", ply=6, fen=pos.fen, score_cp=20, best_line_san=["Nc3"],
                               depth=12, engine="Stockfish 15.1")
    state.apply(Entry(len(entries) + 1, T0 + 10**6, *record.encode()))
    assert positions_due(state, {}, 1) == []
    # the next move makes a new position to analyse, whatever was analysed before
    more = round_log(games, {"1": 7})
    state.apply(Entry(len(entries) + 2, T0 + 10**6 + 1, more[-2].type, more[-2].data))
    assert [(p.game, p.ply) for p in positions_due(state, {"5-1": (6, pos.fen)}, 1)] == [("5-1", 7)]


def test_ended_games_and_checkers_are_not_analysed(games):
    entries = round_log(games, {"1": 6, "2": 6})
    entries.append(Entry(len(entries) + 1, T0 + 10**7, "game_ended",
                         {"game": "5-1", "board": "1", "result": "1/2-1/2", "termination": "agreement", "ply": 6,
                          "by": "device"}))
    assert [p.game for p in positions_due(folded(entries), {}, 4)] == ["5-2"]


def test_the_engine_s_answer_from_white_s_point_of_view_with_the_best_line_in_san(games):
    game = games[0]
    moves = list(game.mainline_moves())
    pos = Position("5-1", "1", 6, fen_after(game, 6), None)
    sans = []
    board = chess.Board(pos.fen)
    for m in moves[6:6 + 12]:
        sans.append(board.san(m))
        board.push(m)
    # White to move after 6 plies; the engine speaks for the side to move
    info = {"score": chess.engine.PovScore(chess.engine.Cp(34), chess.WHITE), "pv": moves[6:6 + 12], "depth": 17}
    e = evaluation_entry(pos, info, "Stockfish 15.1", 500)
    assert (e.score_cp, e.mate, e.depth, e.engine, e.budget_ms) == (34, None, 17, "Stockfish 15.1", 500)
    assert e.best_line_san == sans[:BEST_LINE_PLIES]  # the PGN's SAN, cut to what a broadcast shows
    black_to_move = Position("5-1", "1", 7, fen_after(game, 7), None)
    e = evaluation_entry(black_to_move, {"score": chess.engine.PovScore(chess.engine.Cp(-50), chess.BLACK)}, "x", 500)
    assert e.score_cp == 50 and e.best_line_san == []  # Black worse is White better
    e = evaluation_entry(black_to_move, {"score": chess.engine.PovScore(chess.engine.Mate(3), chess.BLACK)}, "x", 500)
    assert (e.score_cp, e.mate) == (None, -3)  # Black mates in 3
    # a line that is not legal in the position stops where it goes wrong
    e = evaluation_entry(pos, {"score": chess.engine.PovScore(chess.engine.Cp(0), chess.WHITE),
                               "pv": [moves[6], moves[6]]}, "x", 500)
    assert e.best_line_san == sans[:1]
    with pytest.raises(ValueError, match="no score"):
        evaluation_entry(pos, {"pv": moves[6:8]}, "x", 500)


def test_the_budget_and_the_boards_are_bounded():
    assert check_budget(MIN_BUDGET_MS) == MIN_BUDGET_MS and check_budget(MAX_BUDGET_MS) == MAX_BUDGET_MS
    for bad in (MIN_BUDGET_MS - 1, MAX_BUDGET_MS + 1, 0):
        with pytest.raises(ValueError, match="--budget-ms"):
            check_budget(bad)
    assert check_max_boards(1) == 1
    with pytest.raises(ValueError, match="--max-boards"):
        check_max_boards(0)


def _evaluated(game_id: str, ply: int, fen: str) -> tuple[str, dict]:
    return PositionEvaluated(game=game_id, board="1", ply=ply, fen=fen, score_cp=34, best_line_san=["Nf3"],
                             depth=17, engine="Stockfish 15.1").encode()


def test_the_fold_keeps_an_evaluation_for_the_game_s_present_position_only(games):
    entries = round_log(games, {"1": 7})
    state = folded(entries[:-2])  # 6 plies (the 7th move and its press left out)
    seq = len(entries) + 1
    t, d = _evaluated("5-1", 6, fen_after(games[0], 6))
    state.apply(Entry(seq, T0 + 10**7, t, d))
    assert state.games["5-1"].evaluation.ply == 6
    # another position at the same ply (a wrong FEN), a ply the game has not reached: not kept
    t, d = _evaluated("5-1", 6, fen_after(games[1], 6))
    state.apply(Entry(seq + 1, T0 + 10**7, t, d))
    t, d = _evaluated("5-1", 7, fen_after(games[0], 7))
    state.apply(Entry(seq + 2, T0 + 10**7, t, d))
    assert state.games["5-1"].evaluation.ply == 6 and state.games["5-1"].evaluation.best_line_san == ["Nf3"]
    assert state.errors == []
    # an arbiter's correction back to ply 4: the evaluation of ply 6 goes with the plies
    state.apply(Entry(seq + 3, T0 + 10**7, "game_corrected", {"game": "5-1", "board": "1", "ply": 4, "moves": [],
                                                              "san": [], "fens": [], "fen": fen_after(games[0], 4),
                                                              "turn": "white", "arbiter": "chief"}))
    assert state.games["5-1"].ply == 4 and state.games["5-1"].evaluation is None


def test_released_with_the_delayed_move_and_never_in_the_arbiters_game(games):
    """The broadcast delay (docs/broadcast.md): the public fold takes an entry ``delay`` after it
    was made. The move of ply 7 at ``at``; the engine's answer 400 ms later; a delay of 60 s."""
    entries = round_log(games, {"1": 7})
    move = next(e for e in reversed(entries) if e.type == "move_played")
    t, d = _evaluated("5-1", 7, move.data["fen"])
    answer = Entry(len(entries) + 1, move.at + 400, t, d)
    hall = DelayedHall()
    tournament = Entry(0, T0 - 1, "tournament_registered",
                       {"name": "Candidates", "slug": "c", "system": "round-robin", "broadcast_delay_ms": 60_000})
    for e in [tournament, *entries, answer]:
        hall.take(e)
    public = SpectatorView(hall.public, public=True)
    hall.release(move.at + 60_000)  # the move is public, the answer not yet
    g = public.game("5-1")
    assert g["ply"] == 7 and g["evaluation"] is None
    hall.release(move.at + 60_399)
    public.reset()
    assert public.game("5-1")["evaluation"] is None
    hall.release(move.at + 60_400)
    public.reset()
    assert public.game("5-1")["evaluation"] == {"ply": 7, "score_cp": 34, "mate": None, "best_line_san": ["Nf3"],
                                                "depth": 17, "engine": "Stockfish 15.1"}
    # the arbiters (and an arbiter's hall screen) read the live fold's non-public GAME: no such field
    assert hall.live.games["5-1"].evaluation is not None
    assert "evaluation" not in game_json(hall.live.games["5-1"])
    assert "evaluation" not in SpectatorView(hall.live).game("5-1")


def test_the_public_feed_sends_the_evaluation_as_a_delta_the_arbiters_feed_does_not(games):
    entries = round_log(games, {"1": 6})
    t, d = _evaluated("5-1", 6, fen_after(games[0], 6))
    answer = Entry(len(entries) + 1, T0 + 10**7, t, d)
    public, arbiters = SpectatorView(public=True), SpectatorView()
    for e in entries:
        public.apply(e)
        arbiters.apply(e)
    [delta] = public.apply(answer)
    assert delta["set"] == {"evaluation": public.game("5-1")["evaluation"]}
    assert arbiters.apply(answer) == []


def test_the_entry_reads_back_what_it_writes():
    t, d = _evaluated("5-1", 6, chess.STARTING_FEN)
    assert t == "position_evaluated" and decode(t, d) == PositionEvaluated(
        game="5-1", board="1", ply=6, fen=chess.STARTING_FEN, score_cp=34, best_line_san=["Nf3"], depth=17,
        engine="Stockfish 15.1")


def test_venue_analyse_with_stockfish_writes_one_evaluation_per_position(games):
    """Debian's Stockfish through python-chess (100 ms a position, board 1 of 2): the present
    position of board 1 evaluated once, by its engine, with a legal best line; board 2 never."""
    engine = default_engine()
    assert engine is not None, "Debian's stockfish is missing: ./run tests installs it"

    async def go() -> list[Entry]:
        log = MemoryLog("analyse-test")
        await log.append_many([(e.type, e.data, e.at) for e in round_log(games, {"1": 6, "2": 5})])
        lines: list[str] = []
        # at the usual priority: at idle priority a busy test machine may starve the engine
        analyser = Analyser(log, engine, budget_ms=100, max_boards=1, out=lines.append, idle=False)
        task = asyncio.create_task(analyser.run())
        try:
            for _ in range(600):  # bounded: 30 s
                got = [e for e in await log.read() if e.type == PositionEvaluated.TYPE]
                if got or task.done():
                    break
                await asyncio.sleep(0.05)
            if task.done():
                task.result()
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        assert len(lines) == len(got)
        return [e for e in await log.read() if e.type == PositionEvaluated.TYPE]

    [entry] = asyncio.run(go())
    e = decode(entry.type, entry.data)
    assert isinstance(e, PositionEvaluated)
    assert (e.game, e.ply, e.fen) == ("5-1", 6, fen_after(games[0], 6))
    assert e.engine.startswith("Stockfish") and e.depth > 0 and (e.score_cp is None) != (e.mate is None)
    board = chess.Board(e.fen)
    for san in e.best_line_san:
        board.push_san(san)  # raises on a move that is not legal
    assert 1 <= len(e.best_line_san) <= BEST_LINE_PLIES


def test_the_command_refuses_what_cannot_work(capsys):
    from venue.cli import main

    assert main(["analyse", "--store", "memory://", "--tournament", "x", "--engine", "/nonexistent/stockfish"]) == 2
    assert "cannot start the engine /nonexistent/stockfish" in capsys.readouterr().err
    assert main(["analyse", "--store", "memory://", "--tournament", "x", "--budget-ms", "10"]) == 2
    assert "--budget-ms must be 50 to 60000" in capsys.readouterr().err
    assert main(["analyse", "--store", "nosuch://x", "--tournament", "x"]) == 2
    assert "venue analyse: error:" in capsys.readouterr().err
    assert main(["analyse", "--store", "memory://"]) == 2  # --tournament is required
