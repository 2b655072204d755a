"""Tournament PGN and TRF from the fold (services/arbiter_office/tournament_export.py) and ``venue export``.

Sources: ../shared/data/tiebreaks/round-robin/rr-000110-10p (a TRF with forfeits, and FIDE's
tie-break values for it); US Championship 2023 rule 4 ("90 minutes for the first 40 moves followed by
30 minutes ... with an addition of 30 seconds (increment) per move starting from move one") for the
clock figures; PGN standard 8.1.1 (Seven Tag Roster, Termination) and the ``[%clk h:mm:ss]`` comment.
"""

from __future__ import annotations

import asyncio
import csv
from pathlib import Path

import chess
from tournament_view_log import Log, _replay_trf

from services.eventlog import open_log
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_export import pgn_time_control, tournament_pgn, tournament_trf
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.tournament.model import field_from_trf
from services.tournament.tiebreaks import compute_tiebreaks
from services.tournament.trf import parse_trf
from venue.export import main as export_main

EVENTS = Path(__file__).resolve().parents[2] / "events"
START = 90 * 60_000  # rule 4: 90 minutes


def _us():
    path = EVENTS / "us-championship-2023.toml"
    return load_tournament(path.read_text("utf-8"), str(path))


def _play(log: Log, game: str, moves: list[str], spent_ms: list[int]) -> None:
    """Moves with a clock press after each: the mover's clock less the time spent plus 30 s (rule 4)."""
    board = chess.Board()
    clocks = {"white": START, "black": START}
    for ply, (uci, spent) in enumerate(zip(moves, spent_ms), start=1):
        mover = "white" if board.turn else "black"
        san = board.san(chess.Move.from_uci(uci))
        board.push_uci(uci)
        log.add("move_played", {"game": game, "board": game.split("-")[1], "ply": ply, "move": uci, "san": san,
                                "fen": board.fen(), "turn": "white" if board.turn else "black", "claimable": []})
        clocks[mover] += 30_000 - spent
        log.add("clock_pressed", {"game": game, "board": game.split("-")[1], "white_ms": clocks["white"],
                                  "black_ms": clocks["black"], "running": "black" if mover == "white" else "white"})


def _two_rounds() -> Log:
    t = _us()
    log = Log()
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))
    _play(log, "1-1", ["e2e4", "e7e5"], [5_000, 65_000])
    log.end("1-1", "1-0", termination="resignation")
    log.add("round_started", round_from_tournament(t, 2))
    _play(log, "2-6", ["d2d4"], [1_000])  # round 2, board 6: 1 - 2 (C.05 Annex 1)
    return log


def test_pgn_holds_every_round_with_clocks() -> None:
    text = tournament_pgn(_two_rounds().view)
    assert text.count("[Event \"2023 U.S. Championship\"]") == 12  # 6 boards x 2 rounds
    # Round "R.B", as lichess's relay and DGT LiveChess read it (docs/broadcast.md)
    assert '[Round "1.1"]' in text and '[Round "2.6"]' in text
    first = text.split("\n\n[Event")[0]
    assert '[White "Player 01"]' in first and '[Black "Player 12"]' in first and '[Result "1-0"]' in first
    assert '[TimeControl "40/5400+30:1800+30"]' in first
    # 5400 s - 5 s + 30 s = 5425 s after 1.e4; 5400 - 65 + 30 = 5365 s after 1...e5
    assert "1. e4 { [%clk 1:30:25] } 1... e5 { [%clk 1:29:25] } 1-0" in first
    assert '[White "Player 01"]\n[Black "Player 02"]' in text and "1. d4 { [%clk 1:30:29] } *" in text


def test_table_time_controls_in_pgn() -> None:
    """PGN standard 9.6.1 cannot give White and Black different times or an increment from move 41."""
    assert pgn_time_control({"white": "120m", "black": "120m", "increment": "10s", "increment_from_move": 41}) == "?"
    assert pgn_time_control({"white": "3m", "black": "3m", "increment": "2s"}) == "180+2"
    assert pgn_time_control("40/5400+30:1800+30") == "40/5400+30:1800+30" and pgn_time_control(None) is None


def test_trf_round_trip_keeps_results_and_tiebreaks(shared_data: Path) -> None:
    base = shared_data / "tiebreaks" / "round-robin" / "rr-000110-10p"
    original = parse_trf(base.with_suffix(".trf").read_text())
    view = _replay_trf(base.with_suffix(".trf").read_text(), "round-robin").view
    again = parse_trf(tournament_trf(view))
    assert again.total_rounds == 9 and again.name == "rr-000110-10p"
    a, b = field_from_trf(original), field_from_trf(again)
    for sno, p in a.players.items():
        for e, f in zip(p.entries, b.players[sno].entries):
            assert (e.opponent, e.code, e.points) == (f.opponent, f.code, f.points)
            if e.played:
                assert e.color == f.color
        assert again.players[sno].points == p.points
    specs = ["PTS", "DE", "BPG", "KS", "SB", "WON"]
    table = compute_tiebreaks(b, specs, round_robin=True).by_start_no()
    with open(base.with_suffix(".tiebreaks.tsv"), newline="") as fh:
        for x in csv.DictReader(fh, delimiter="\t"):
            row = table[int(x["StartNo"])]
            assert row.rank == int(x["Rank"]) and again.players[int(x["StartNo"])].rank == int(x["Rank"])
            assert abs(row.values["SB"] - float(x["SB"])) < 0.005


def test_trf_of_a_round_in_progress() -> None:
    view = _two_rounds().view
    t = parse_trf(tournament_trf(view))
    p1 = t.players[1]
    assert [(g.opponent, g.color, g.result) for g in p1.games] == [(12, "w", "1")]  # round 2 is on: blank
    assert t.players[12].games[0].result == "0" and t.total_rounds == 11
    assert t.header_value("042") == "2023/10/05" and t.header_value("052") == "2023/10/16"


def test_venue_export_reads_the_log(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'log.sqlite'}"
    entries = _two_rounds().entries

    async def fill() -> None:
        log = open_log(store, "us-championship-2023")
        try:
            for e in entries:
                await log.append(e.type, e.data, e.at)
        finally:
            await log.close()

    asyncio.run(fill())
    out = tmp_path / "t.pgn"
    assert export_main(["--store", store, "--tournament", "us-championship-2023", "--format", "pgn",
                        "-o", str(out)]) == 0
    assert out.read_text() == tournament_pgn(_two_rounds().view)
    trf = tmp_path / "t.trf"
    assert export_main(["--store", store, "--tournament", "us-championship-2023", "--format", "trf",
                        "-o", str(trf)]) == 0
    assert parse_trf(trf.read_text()).players[1].games[0].result == "1"


def test_venue_export_errors(tmp_path: Path, capsys) -> None:
    # issue 27: a read-only command never creates the store it was given (it said "holds no round"
    # after creating the missing file)
    store = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    assert export_main(["--store", store, "--tournament", "nothing", "--format", "trf"]) == 2
    assert "the file does not exist (check --store)" in capsys.readouterr().err
    assert not (tmp_path / "empty.sqlite").exists()
    assert export_main(["--store", "nope", "--tournament", "x", "--format", "pgn"]) == 2
    assert export_main(["--tournament", "x"]) == 2
