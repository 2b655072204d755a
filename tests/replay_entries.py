"""Log entries for a recorded chess game, as a gateway would write them from real boards and clocks.

For tests and benchmarks of the fold (``services.views.spectator``) and the dashboard: they need the
entries of real games without running MQTT. Pure: a ``chess.pgn.Game`` in, a list of
``(type, data, at)`` out (ready for ``EventLog.append_many``).

What comes from the game: moves, SAN, FEN, the clock after every ply (``[%clk]``), the result.
What is assumed, because a PGN does not record it: think time = the drop of the mover's clock
(at least 1 s), presses 200 ms after the move (or before it with ``press_first``), and how the game
ended: a claimable repetition or 50-move position ends "threefold_repetition" / "fifty_moves",
another draw "agreement", a decisive game "resignation" (checkmate when the board shows it).
"""

from __future__ import annotations

import chess
import chess.pgn

PRESS_DELAY_MS = 200


def claims(board: chess.Board) -> list[dict]:
    """CLAIMs (docs/events.md) open to the side to move: the position itself (FIDE Laws 9.2.1.2,
    9.3.2; ``by_move`` None) and intended moves that would repeat a position a third time (9.2.1.1)."""
    out = []
    if board.is_repetition(3):
        out.append({"kind": "threefold", "by_move": None, "evidence": {}})
    if board.halfmove_clock >= 100:
        out.append({"kind": "fifty_moves", "by_move": None,
                    "evidence": {"halfmove_clock": board.halfmove_clock}})
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_repetition(3):
                out.append({"kind": "threefold", "by_move": move.uci(), "evidence": {}})
        finally:
            board.pop()
    return out


def setup_of(game: chess.pgn.Game, board_no: str, round_no: str) -> dict:
    """The ``round_started`` SETUP of ``game`` on hall board ``board_no``."""
    h = game.headers

    def elo(tag: str):
        v = h.get(tag, "")
        return int(v) if v.isdigit() else None

    return {"id": f"{round_no}-{board_no}", "board": board_no, "round": round_no,
            "white": h.get("White", "?"), "black": h.get("Black", "?"),
            "white_elo": elo("WhiteElo"), "black_elo": elo("BlackElo"), "variant": "chess",
            "time_control": h.get("TimeControl"), "fen": h.get("FEN"), "kind": "classical"}


def round_started(games: list[chess.pgn.Game], round_no: str, at: int = 0) -> tuple[str, dict, int]:
    """The ``round_started`` entry for ``games`` on boards 1, 2, ... in order."""
    h = games[0].headers if games else {}
    return ("round_started", {
        "round": round_no, "event": h.get("Event", "?"), "site": h.get("Site", "?"),
        "date": h.get("Date", "????.??.??"),
        "games": [setup_of(g, str(i + 1), round_no) for i, g in enumerate(games)]}, at)


def game_entries(game: chess.pgn.Game, game_id: str, board_no: str, start_at: int,
                 initial_ms: int = 7_200_000, press_first: bool = False,
                 end: bool = True) -> list[tuple[str, dict, int]]:
    """``clock_started``, then per ply ``move_played`` and the mover's ``clock_pressed``, then
    ``game_ended`` (unless ``end`` is False). ``initial_ms``: both clocks at the start."""
    board = game.board()
    clk = {"white": initial_ms, "black": initial_ms}
    at = start_at
    base = {"game": game_id, "board": board_no}
    out = [("clock_started", {**base, "device": "clock", "seq": 1, **_ms(clk), "running": "white"}, at)]
    dev_seq = {"board": 0, "clock": 1}
    for ply, node in enumerate(game.mainline(), start=1):
        mover = "white" if board.turn == chess.WHITE else "black"
        left = node.clock()
        left_ms = clk[mover] if left is None else round(left * 1000)
        at += max(1000, clk[mover] - left_ms)
        san = board.san(node.move)
        board.push(node.move)
        dev_seq["board"] += 1
        move = ("move_played", {**base, "device": "board", "seq": dev_seq["board"], "ply": ply,
                                "move": node.move.uci(), "san": san, "fen": board.fen(),
                                "turn": "white" if board.turn == chess.WHITE else "black",
                                "claimable": claims(board), "from": "move"}, at)
        clk[mover] = left_ms
        dev_seq["clock"] += 1
        other = "black" if mover == "white" else "white"
        press_at = at - PRESS_DELAY_MS if press_first else at + PRESS_DELAY_MS
        press = ("clock_pressed", {**base, "device": "clock", "seq": dev_seq["clock"], **_ms(clk),
                                   "running": other}, press_at)
        out.extend([press, move] if press_first else [move, press])
        at = max(at, press_at)
    if end:
        result = game.headers.get("Result", "*")
        out.append(("game_ended", {**base, "result": result, "termination": termination(board, result),
                                   "ply": board.ply(), "by": "device"}, at + 1000))
    return out


def termination(board: chess.Board, result: str) -> str:
    """The assumed termination word for ``result`` in the final position (see the module doc)."""
    if board.is_checkmate():
        return "checkmate"
    if result == "1/2-1/2":
        if board.is_stalemate():
            return "stalemate"
        if board.is_insufficient_material():
            return "insufficient_material"
        if board.can_claim_threefold_repetition():
            return "threefold_repetition"
        if board.can_claim_fifty_moves():
            return "fifty_moves"
        return "agreement"
    return "resignation"


def _ms(clk: dict) -> dict:
    return {"white_ms": clk["white"], "black_ms": clk["black"]}
