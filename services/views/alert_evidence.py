"""An alert's evidence in the arbiter's terms: players by side, moves in SAN, the plies of a claim's
positions labelled with the game's own moves (pure; python-chess for chess games).

``evidence_words(alert, game)`` -> a dict the console shows beside the raw entry (``alert.words``):

- ``players``: ``{"white": NAME, "black": NAME}`` of the alert's game;
- ``side``: the side the alert is about, when the entry says it or it can be read: the mover of an
  illegal move (the side to move in the position before it), the side whose flag fell, the side
  claiming (on move at the claim's ply);
- ``claims`` (``draw_claimable``): per claim, ``{"kind", "by_move", "by_move_san", "plies": [{"ply",
  "label"}], "last_irreversible": {"ply", "label"} | None}``: the intended move in SAN (FIDE Laws
  9.2.1.1: "the arbiter ... writes the move ... on the scoresheet"), each ply where the repeated
  position stood as "28. Re4" / "28... Rd4" ("start" for ply 0);
- ``move_text`` (``move_rejected``): the refused move as the arbiter says it: SAN when it is legal
  in the position (a held board's later move), else the piece and its squares ("Ke1-e3").

Games that are not chess get labels with the game's own notation when known, no SAN conversion.
"""

from __future__ import annotations

import chess

from services.events.vocabulary import Variant

_PIECE = {chess.PAWN: "", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R", chess.QUEEN: "Q",
          chess.KING: "K"}


def ply_label(ply: int, san: list[str]) -> str:
    """"28. Re4" for the first mover's 28th move (ply 55), "28... Rd4" for the reply (ply 56), as a
    score sheet numbers them (in checkers Red moves first: ply 1 is "1."); "start" for ply 0;
    without the move known, only its number."""
    if ply <= 0:
        return "start"
    number, dots = (ply + 1) // 2, "." if ply % 2 == 1 else "..."
    move = san[ply - 1] if 0 < ply <= len(san) else ""
    return f"{number}{dots} {move}".strip()


def position_at(game, ply: int) -> chess.Board | None:
    """The chess position after ``ply`` plies of ``game`` (a GameState), or None (not chess, or the
    moves do not replay)."""
    if game.variant != Variant.CHESS:
        return None
    try:
        board = chess.Board(game.start_fen) if game.start_fen else chess.Board()
        for uci in game.moves[:ply]:
            board.push_uci(uci)
    except ValueError:
        return None
    return board


def move_text(fen: str | None, uci: str | None) -> str | None:
    """A move as the arbiter says it: SAN when legal in ``fen``, else piece + squares ("Ke1-e3",
    "e2-e5"); the text as given when it is not UCI or there is no position."""
    if not uci:
        return None
    try:
        board = chess.Board(fen) if fen else None
        move = chess.Move.from_uci(uci)
    except ValueError:
        return uci
    if board is None:
        return uci
    if board.is_legal(move):
        return board.san(move)
    piece = board.piece_at(move.from_square)
    letter = _PIECE.get(piece.piece_type, "") if piece else ""
    return f"{letter}{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}" + (
        f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else "")


def _claims(game, data: dict) -> list[dict]:
    ply = data.get("ply")
    ply = game.ply if not isinstance(ply, int) else ply
    board = position_at(game, ply)
    out = []
    for c in data.get("claims") or ():
        ev = c.get("evidence") or {}
        san = None
        if c.get("by_move") and board is not None:
            try:
                san = board.san(chess.Move.from_uci(c["by_move"]))
            except (ValueError, AssertionError):
                san = None
        last = ev.get("last_irreversible_ply")
        out.append({"kind": c.get("kind"), "by_move": c.get("by_move"), "by_move_san": san,
                    "plies": [{"ply": p, "label": ply_label(p, game.san)} for p in ev.get("plies") or ()],
                    "last_irreversible": None if last is None else {"ply": last, "label": ply_label(last, game.san)}})
    return out


def evidence_words(kind: str, data: dict, game) -> dict:
    """The words of an alert of entry type ``kind`` with entry data ``data``; ``game`` its GameState
    (None: only what the entry says)."""
    out: dict = {}
    if game is None:
        return out
    out["players"] = {"white": game.white, "black": game.black}
    side = data.get("side") if data.get("side") in ("white", "black") else None
    if kind == "draw_claimable":
        out["claims"] = _claims(game, data)
        given = data.get("ply")
        ply = given if isinstance(given, int) else game.ply
        side = side or game.mover(ply + 1)  # the claimant is on move at the claim's ply (9.2, 9.3)
    elif kind == "move_rejected":
        fen = data.get("fen")
        out["move_text"] = move_text(fen, data.get("move")) if game.variant == Variant.CHESS else data.get("move")
        if fen and " " in fen:
            side = side or ("white" if fen.split(" ")[1] == "w" else "black")
    elif kind == "draw_claim_reported" and side is None:
        side = game.turn
    if side:
        out["side"] = side
    return out
