"""Random device traffic and arbiters' actions for a live gateway hall, drawn with hypothesis, for the
fold's property tests (test_fold_property: a gateway rebuilt from the log is the live one;
test_timer_instants: the timer's hall and the every-tick oracle's answer alike): legal and illegal
moves on a move board (board 1), placements on a sensor board (board 2), a move reported in two steps
(``move_composed``), clock events with ``sent_at`` true, late or far off (docs/protocol.md), results,
claims, status messages, garbage, duplicate and future seqs; and the console's actions
(``dashboard.arbiter.actions.build``) appended as POST /api/arbiter/actions appends them.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from device_traffic import messages``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Protocol

import chess
from hypothesis import strategies as st

from dashboard.arbiter.actions import ActionError, build
from gateway.hall import Hall
from services.views.spectator import SpectatorView


class Run(Protocol):
    """What the draws need of a test's run: the live hall, the time now (ms), each device's last seq
    by ``(board, "board" | "clock")``, a device message as ``(topic, payload)`` (``send``) and an entry
    someone else appends, followed by the gateway (``external``)."""

    hall: Hall
    now: int
    seqs: dict[tuple[str, str], int]

    def send(self, board: str, kind: str, body: dict | bytes, seq: int | None = None) -> tuple[str, bytes]: ...

    def external(self, type_: str, data: dict) -> None: ...


def stamp(ms: int) -> str:
    """``ms`` as a device's ``sent_at`` (RFC 3339, docs/protocol.md)."""
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def legal_ucis(run: Run, board: str) -> list[str]:
    g = run.hall.state.board_game(board)
    if g.ended:
        return []
    return sorted(m.uci() for m in chess.Board(g.fen).legal_moves)


def replies_after_illegal(run: Run, board: str) -> list[str]:
    """The opponent's legal moves in the position the illegal move holding ``board`` left, if any."""
    b = run.hall.state.boards[board]
    g = run.hall.state.board_game(board)
    if not b.held or g.ended or not b.held_move or len(b.held_move) < 4:
        return []
    position = chess.Board(g.fen)
    try:
        move = chess.Move.from_uci(b.held_move)
    except ValueError:
        return []
    if position.piece_at(move.from_square) is None:
        return []
    position.push(move)
    return sorted(m.uci() for m in position.legal_moves) if position.is_valid() else []


def two_steps(position: chess.Board, data) -> tuple[str, str] | None:
    """A legal move of at least two squares along a line (a slide, a pawn's double step) cut into
    the two steps a board may report before the press: (from -> passed square, passed -> to)."""
    long = []
    for move in position.legal_moves:
        piece = position.piece_at(move.from_square)
        df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
        dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
        if piece.piece_type in (chess.KNIGHT, chess.KING) or max(abs(df), abs(dr)) < 2 or move.promotion:
            continue
        step = chess.square(chess.square_file(move.from_square) + (df > 0) - (df < 0),
                            chess.square_rank(move.from_square) + (dr > 0) - (dr < 0))
        long.append((chess.Move(move.from_square, step).uci(), chess.Move(step, move.to_square).uci()))
    return data.draw(st.sampled_from(sorted(long))) if long else None


def messages(data, run: Run) -> list:
    """Device messages (topic, payload) drawn for the live hall's state: one, or the two reports of a
    move seen in two steps."""
    board = data.draw(st.sampled_from(["1", "2"]))
    g = run.hall.state.board_game(board)
    if data.draw(st.integers(0, 9)) == 0 and not g.ended:
        steps = two_steps(chess.Board(g.fen), data)
        if steps is not None:
            if board == "1":
                return [run.send(board, "move", {"move": uci}) for uci in steps]
            position = chess.Board(g.fen)
            out = []
            for uci in steps:
                move = chess.Move.from_uci(uci)
                position.set_piece_at(move.to_square, position.remove_piece_at(move.from_square))
                out.append(run.send(board, "position", {"placement": position.board_fen()}))
            return out
    return [message(data, run, board)]


def message(data, run: Run, board: str):
    """One device message (topic, payload) drawn for the live hall's state."""
    kind = data.draw(st.sampled_from(["move", "move", "move", "clock", "clock", "result", "status", "junk", "seq"]))
    legal = legal_ucis(run, board)
    g = run.hall.state.board_game(board)
    if kind == "move" and board == "1":
        uci = data.draw(st.sampled_from(legal)) if legal and data.draw(st.booleans()) else \
            data.draw(st.sampled_from(["e2e5", "a1a8", "zz", "e1g1", "d1h5", "e1e3", "e8e6"]))
        replies = replies_after_illegal(run, board)
        if replies and data.draw(st.booleans()):
            uci = data.draw(st.sampled_from(replies))  # the opponent plays on (A.5.2 in blitz)
        return run.send(board, "move", {"move": uci})
    if kind == "move":  # the sensor board: placements
        position = chess.Board(g.fen)
        shape = data.draw(st.sampled_from(["legal", "legal", "lifted", "same", "rook_first"]))
        if shape == "legal" and legal:
            position.push_uci(data.draw(st.sampled_from(legal)))
        elif shape == "lifted":
            squares = [sq for sq in chess.SQUARES if position.piece_at(sq)]
            position.remove_piece_at(data.draw(st.sampled_from(squares)))
        elif shape == "rook_first" and position.has_kingside_castling_rights(position.turn):
            rank = 0 if position.turn == chess.WHITE else 7
            rook = position.remove_piece_at(chess.square(7, rank))
            if rook is not None:
                position.set_piece_at(chess.square(5, rank), rook)
        return run.send(board, "position", {"placement": position.board_fen()})
    if kind == "clock":
        event = data.draw(st.sampled_from(["start", "press", "press", "pause", "resume", "period_added"]))
        running = data.draw(st.sampled_from(["white", "black", None]))
        white = data.draw(st.integers(0, 5_400_000))
        black = data.draw(st.integers(0, 5_400_000))
        extra = {"side": data.draw(st.sampled_from(["white", "black"])), "period": data.draw(st.integers(2, 3))} \
            if event == "period_added" else {}
        if data.draw(st.booleans()):  # the device's time: true, late, an hour slow, a minute fast
            extra["sent_at"] = stamp(run.now + data.draw(st.sampled_from([0, -5_000, -3_600_000, 60_000])))
        return run.send(board, "clock", {"event": event, "white_ms": white, "black_ms": black, "running": running,
                                         **extra})
    if kind == "result":
        result = data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
        reason = data.draw(st.sampled_from(["agreement", "threefold repetition", "resignation", "Fifty move rule"]))
        return run.send(board, "result", {"result": result, "reason": reason})
    if kind == "status":
        return run.send(board, "status", data.draw(st.sampled_from([b"online", b"offline"])))
    if kind == "junk":
        return run.send(board, "move", data.draw(st.sampled_from([b"", b"{", b'{"seq": "x"}', b"[1]", b'{"seq":1}'])))
    # seq faults: a duplicate of the last message, or one from the future (a gap, then maybe filled)
    device = data.draw(st.sampled_from(["board", "clock"]))
    last = run.seqs[(board, device)]
    seq = data.draw(st.sampled_from([max(1, last), last + 2, last + 1]))
    topic_kind = "clock" if device == "clock" else "move"
    body = {"event": "press", "white_ms": 1000, "black_ms": 1000, "running": "white"} if device == "clock" else \
        {"move": data.draw(st.sampled_from(legal or ["e2e4"]))}
    run.seqs[(board, device)] = max(last, seq)
    return run.send(board, topic_kind, body, seq=seq)


def arbiter_action(data, run: Run) -> None:
    """One of the console's actions on a game of the round, appended when it is valid."""
    view = SpectatorView(run.hall.state)
    gid = data.draw(st.sampled_from(["1-1", "1-2"]))
    action = data.draw(st.sampled_from(["check_in", "set_result", "reopen", "adjust_clock", "pause", "resume",
                                        "reject_claim", "apply_penalty", "withdraw_penalty", "correct_record",
                                        "accept_claim"]))
    body: dict = {"game": gid}
    if action == "correct_record":  # take the record back to a ply and enter one legal move there
        g = run.hall.state.games.get(gid)
        moves = list(g.moves) if g is not None else []
        ply = data.draw(st.integers(0, len(moves)))
        board = chess.Board(g.start_fen) if g is not None else chess.Board()
        for n, m in enumerate(moves[:ply], start=1):
            if g is not None and n in g.stood:  # an illegal move that stood (FIDE Laws A.5.2): the
                board = chess.Board(g.stood[n])  # game goes on from the position it left (fold_moves)
            else:
                board.push_uci(m)
        legal = sorted(m.uci() for m in board.legal_moves)
        body.update(ply=ply, moves=[data.draw(st.sampled_from(legal))] if legal else [])
    if action == "check_in":
        body["side"] = data.draw(st.sampled_from(["white", "black"]))
    elif action in ("set_result", "reopen"):
        action, body["result"] = "set_result", "*" if action == "reopen" else \
            data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
    elif action == "adjust_clock":
        body.update(white_ms=data.draw(st.integers(0, 5_400_000)), black_ms=data.draw(st.integers(0, 5_400_000)))
    elif action in ("reject_claim", "accept_claim"):
        body["kind"] = data.draw(st.sampled_from(["threefold", "fifty_moves"]))
    elif action == "withdraw_penalty":
        body["side"] = data.draw(st.sampled_from(["white", "black"]))
    elif action == "apply_penalty":
        body.update(side=data.draw(st.sampled_from(["white", "black"])), add_ms=data.draw(st.sampled_from([60_000, 120_000])))
    append_action(run, view, action, body)


def append_action(run: Run, view: SpectatorView, action: str, body: dict) -> None:
    """Append what the console appends for ``action`` (``dashboard.arbiter.actions.build``), when
    it is valid."""
    try:
        items = build(action, body, "chief", view.every_game(), run.hall.state, now_ms=run.now)  # judged on the state, as POST /api/arbiter/actions does
    except ActionError:
        return
    for type_, entry in items:
        run.external(type_, entry)
