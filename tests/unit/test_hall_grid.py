"""The arbiters' hall grid (services/views/hall_grid.py) and the alerts' words
(services/views/alert_evidence.py), over the entries of real games.

Games: FIDE Candidates 2024 (open), round 1 (../shared/data/chess/fide_candidates_2024_open.pgn),
as tests/replay_entries.py writes them (moves, SAN and the [%clk] figures of the PGN); board 2,
Abasov - Nepomniachtchi, ends in a threefold repetition at ply 67. Expected SAN and clock figures come
from the PGN read by python-chess; the illegal move is field case F05's 2.Ke3 (docs/protocol.md).
"""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest
from replay_entries import game_entries, round_started

from services.events import decode
from services.state import HallState
from services.views.alert_evidence import evidence_words, move_text, ply_label
from alert_feed import FoldedAlerts
from services.views.hall_grid import hall_rows


@pytest.fixture(scope="module")
def round_1(shared_data) -> list[chess.pgn.Game]:
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    games = []
    while (g := chess.pgn.read_game(stream)) is not None:
        if g.headers.get("Round") == "1":
            games.append(g)
    assert len(games) == 4
    return games


class Hall:
    def __init__(self):
        self.state, self.seq = HallState(), 0
        self.queue = FoldedAlerts(self.state, folded=True)

    def add(self, type: str, data: dict, at: int) -> None:
        self.seq += 1
        self.state.apply_event(decode(type, data), at)
        self.queue.apply(self.seq, at, type, data)


def test_rows_show_devices_battery_clocks_plies_absent_players_and_alerts(round_1):
    h = Hall()
    h.add(*round_started(round_1, "1"))
    entries = game_entries(round_1[1], "1-2", "2", 1000, end=False)[:41]  # clock start + 20 plies
    for t, d, at in entries:
        h.add(t, d, at)
    h.add("device_online", {"board": "1", "device": "board", "battery": "87%"}, 50_000)
    for b in ("2", "3"):
        h.add("device_online", {"board": b, "device": "board"}, 50_000)
    h.add("device_offline", {"board": "3", "device": "board"}, 60_000)
    h.add("player_arrived", {"game": "1-1", "board": "1", "side": "white", "by": "chief"}, 61_000)
    h.add("move_rejected", {"game": "1-4", "board": "4", "device": "board", "reason": "illegal move: e1e3",
                            "move": "e1e3", "held": True}, 62_000)
    rows = {r["board"]: r for r in hall_rows(h.state, h.queue.open_alerts(), now_ms=70_000)}
    assert list(rows) == ["1", "2", "3", "4"]
    b2 = rows["2"]
    node = list(round_1[1].mainline())[19]  # ply 20 of the PGN
    assert (b2["white"], b2["black"]) == (round_1[1].headers["White"], round_1[1].headers["Black"])
    assert (b2["ply"], b2["last_san"]) == (20, node.parent.board().san(node.move))
    assert b2["clock"]["black_ms"] == round(node.clock() * 1000)  # Black's [%clk] after ply 20
    assert (b2["clock"]["running"], b2["clock_state"], b2["absent"]) == ("white", "running", [])
    assert (rows["1"]["battery"], rows["1"]["absent"], rows["1"]["device"]) == ("87%", ["black"], "online")
    assert rows["3"]["device"] == "offline" and "offline" in rows["3"]["problems"]
    assert (rows["4"]["held"], rows["4"]["alerts"], rows["4"]["device"]) == (True, 1, None)
    assert set(rows["4"]["problems"]) >= {"alerts", "held"}
    assert rows["2"]["problems"] == []  # nothing to see there


def test_claim_words_in_san_with_the_plies_labelled(round_1):
    game = round_1[1]
    assert (game.headers["White"], game.headers["Black"]) == ("Abasov, Nijat", "Nepomniachtchi, Ian")
    h = Hall()
    h.add(*round_started(round_1, "1"))
    for t, d, at in game_entries(game, "1-2", "2", 1000, end=False):
        h.add(t, d, at)
    g = h.state.games["1-2"]
    assert g.ply == 67
    board = game.end().board()
    intended = [m for m in board.legal_moves if (board.push(m), board.is_repetition(3), board.pop())[1]]
    data = {"game": "1-2", "board": "2", "ply": 67, "claims": [
        {"kind": "threefold", "by_move": None, "evidence": {"plies": [55, 59, 63, 67]}},
        {"kind": "threefold", "by_move": intended[0].uci(), "evidence": {"plies": [56, 60]}}]}
    words = evidence_words("draw_claimable", data, g)
    assert words["players"] == {"white": "Abasov, Nijat", "black": "Nepomniachtchi, Ian"}
    assert words["side"] == "black"  # on move after ply 67: the claimant (FIDE Laws 9.2)
    assert words["claims"][1]["by_move_san"] == board.san(intended[0])
    sans = [n.parent.board().san(n.move) for n in game.mainline()]
    assert [p["label"] for p in words["claims"][0]["plies"]][:1] == [f"28. {sans[54]}"]  # White's 28th move
    assert words["claims"][1]["plies"][0]["label"] == f"28... {sans[55]}"


def test_an_illegal_move_in_the_arbiters_words():
    # F05 (docs/protocol.md): 2.Ke3, illegal, after 1.e4 e5; 2.Ke2, legal
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert move_text(fen, "e1e3") == "Ke1-e3"
    assert move_text(fen, "e1e2") == "Ke2"
    assert move_text(None, "11-15") == "11-15"
    assert ply_label(0, []) == "start" and ply_label(1, ["11-15"]) == "1. 11-15"  # Red's first move (docs/checkers.md)
