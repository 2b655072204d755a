"""Draw claims in chess (FIDE Laws 9.2 threefold repetition, 9.3 fifty-move rule): which claims are
open now, and whether a given claim is correct.

A claim is made either about the position on the board (``by_move`` None: 9.2.1.2, 9.3.2) or with an
intended move written on the scoresheet and declared to the arbiter (9.2.1.1, 9.3.1). The two are
different claims: at F01(a) the claim without a move is incorrect while the one with ``f6g8`` is
correct. python-chess's ``can_claim_*`` mix the two and are not used here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from services.events.vocabulary import ClaimKind
from services.rules.base import Claim
from services.rules.chess_position import OCC, PAWNS, TURN, PositionKey, position_key
from services.rules.repetition import RepetitionTable

THREEFOLD = ClaimKind.THREEFOLD
FIFTY_MOVES = ClaimKind.FIFTY_MOVES
KINDS = (THREEFOLD, FIFTY_MOVES)


@dataclass(frozen=True)
class ClaimVerdict:
    """The arbiter's answer to one claim. ``correct``: True = the game is drawn (9.2 / 9.3), False =
    incorrect (9.5: the opponent gets time, an intended move must be played); ``law``: the article
    that decides, e.g. "FIDE Laws 9.2.1.1"; ``reason``: one sentence for the arbiter's log;
    ``evidence``: as in ``Claim.evidence`` (plies where the position stood, or the ply of the last
    capture or pawn move and the halfmove clock)."""

    kind: str
    by_move: str | None
    correct: bool
    law: str
    reason: str
    evidence: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        """``{"kind", "by_move", "correct", "law", "reason", "evidence"}``."""
        return {"kind": self.kind, "by_move": self.by_move, "correct": self.correct,
                "law": self.law, "reason": self.reason, "evidence": self.evidence}


def threefold_moves(board: chess.Board, table: RepetitionTable[PositionKey]) -> list[tuple[chess.Move, list[int]]]:
    """Each legal move of the side to move that would make a position appear for the third time
    (FIDE Laws 9.2.1.1), with the plies where that position already stood; in the table's order.

    Bounded work: a move can only make a third occurrence of a position that already stood twice
    (``table.repeated``, usually empty, then nothing is done). Such a move is reversible (not a
    capture, a pawn move or castling), so it leaves the opponent's men and all pawns in place and
    moves one of the mover's men from one square to another: each repeated position names at most
    one candidate move, which is then checked for legality and for the exact key (9.2.2)."""
    if not table.repeated:
        return []
    mover = board.turn
    own = board.occupied_co[mover]
    theirs = board.occupied_co[not mover]
    found = []
    for key, plies in table.repeated.items():
        if key[TURN] == mover or key[PAWNS] != board.pawns or key[OCC[not mover]] != theirs:
            continue
        diff = own ^ key[OCC[mover]]
        frm, to = diff & own, diff & ~own
        if not frm or not to or frm & (frm - 1) or to & (to - 1):
            continue  # not exactly one man moved from one square to one other
        move = chess.Move(frm.bit_length() - 1, to.bit_length() - 1)
        if not board.is_legal(move):
            continue
        board.push(move)
        try:
            reached = position_key(board)
        finally:
            board.pop()
        if reached == key:
            found.append((move, list(plies)))
    return found


def threefold_claims(board: chess.Board, table: RepetitionTable[PositionKey], key: tuple, ply: int) -> list[Claim]:
    """Open threefold claims: without a move when the position on the board (``key``, standing after
    ``ply``) has stood 3+ times (9.2.1.2), and one per intended move reaching a third occurrence
    (9.2.1.1). Evidence: ``{"plies": [...]}`` (0 = the start), plus ``"after_move_ply"`` for an
    intended move (the ply at which the position would stand for the third time)."""
    claims = []
    if table.count(key) >= 3:
        claims.append(Claim(THREEFOLD, None, {"plies": table.plies(key)}))
    for move, plies in threefold_moves(board, table):
        claims.append(Claim(THREEFOLD, move.uci(), {"plies": plies, "after_move_ply": ply + 1}))
    return claims


def fifty_evidence(board: chess.Board, ply: int) -> dict:
    """``{"last_irreversible_ply", "halfmove_clock"}``: the ply of the last capture or pawn move
    (0 or less when it came at or before the start position, counted from the start FEN's halfmove
    clock) and the number of plies since it (FIDE Laws 9.3)."""
    return {"last_irreversible_ply": ply - board.halfmove_clock, "halfmove_clock": board.halfmove_clock}


def fifty_claims(board: chess.Board, ply: int) -> list[Claim]:
    """Open fifty-move claims: without a move when the last 50 moves by each player had no pawn
    move and no capture (halfmove clock >= 100, 9.3.2), and with each legal intended move that is
    neither a pawn move nor a capture when the clock is 99 or more (9.3.1). The intended move is
    not made, so a move that would mate or stalemate still makes a correct claim (field case
    F03(e); python-chess's can_claim_fifty_moves says otherwise: its open bug #1188)."""
    clock = board.halfmove_clock
    if clock < 99:
        return []
    evidence = fifty_evidence(board, ply)
    claims = [Claim(FIFTY_MOVES, None, evidence)] if clock >= 100 else []
    for move in board.generate_legal_moves():
        if not board.is_zeroing(move):
            claims.append(Claim(FIFTY_MOVES, move.uci(), evidence))
    return claims


def judge_threefold(board: chess.Board, table: RepetitionTable[PositionKey], key: tuple, ply: int,
                    move: chess.Move | None) -> ClaimVerdict:
    """Verdict on a threefold claim (FIDE Laws 9.2). ``move``: the legal intended move, or None for a
    claim about the position on the board (``key``, standing after ``ply``)."""
    if move is None:
        plies = table.plies(key)
        if len(plies) >= 3:
            return ClaimVerdict(THREEFOLD, None, True, "FIDE Laws 9.2.1.2",
                                f"the position on the board has stood {len(plies)} times", {"plies": plies})
        hint = threefold_moves(board, table)
        extra = ""
        if hint:
            extra = "; a claim with the intended move " + ", ".join(m.uci() for m, _ in hint) + " would be correct (9.2.1.1)"
        return ClaimVerdict(THREEFOLD, None, False, "FIDE Laws 9.2.1.2, 9.5",
                            f"the position on the board has stood {len(plies)} time(s), not 3{extra}",
                            {"plies": plies})
    uci = move.uci()
    irreversible = board.is_zeroing(move)
    board.push(move)
    try:
        reached = position_key(board)
    finally:
        board.pop()
    plies = [] if irreversible else table.plies(reached)
    evidence = {"plies": plies, "after_move_ply": ply + 1}
    if len(plies) >= 2:
        return ClaimVerdict(THREEFOLD, uci, True, "FIDE Laws 9.2.1.1",
                            f"after {uci} the position would stand {len(plies) + 1} times",
                            evidence)
    why = "is a capture or pawn move, so no earlier position can recur" if irreversible else \
        f"would make a position that has stood {len(plies)} time(s) before, not 2"
    return ClaimVerdict(THREEFOLD, uci, False, "FIDE Laws 9.2.1.1, 9.5", f"the intended move {uci} {why}",
                        evidence)


def judge_fifty(board: chess.Board, ply: int, move: chess.Move | None) -> ClaimVerdict:
    """Verdict on a fifty-move claim (FIDE Laws 9.3). ``move``: the legal intended move, or None for a
    claim about the moves already played."""
    evidence = fifty_evidence(board, ply)
    clock = board.halfmove_clock
    if move is None:
        if clock >= 100:
            return ClaimVerdict(FIFTY_MOVES, None, True, "FIDE Laws 9.3.2",
                                f"{clock} plies without a pawn move or capture", evidence)
        return ClaimVerdict(FIFTY_MOVES, None, False, "FIDE Laws 9.3.2, 9.5",
                            f"only {clock} plies without a pawn move or capture, not 100", evidence)
    uci = move.uci()
    if board.is_zeroing(move):
        return ClaimVerdict(FIFTY_MOVES, uci, False, "FIDE Laws 9.3.1, 9.5",
                            f"the intended move {uci} is a pawn move or a capture", evidence)
    if clock + 1 >= 100:
        return ClaimVerdict(FIFTY_MOVES, uci, True, "FIDE Laws 9.3.1",
                            f"after {uci}, {clock + 1} plies without a pawn move or capture", evidence)
    return ClaimVerdict(FIFTY_MOVES, uci, False, "FIDE Laws 9.3.1, 9.5",
                        f"after {uci}, only {clock + 1} plies without a pawn move or capture, not 100",
                        evidence)
