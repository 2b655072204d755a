"""A game of chess under the FIDE Laws of Chess, behind the ``services.rules.base.Game`` interface.

python-chess underneath, never trusted with unchecked input (field case F05): every move is judged
legal before python-chess pushes it, by ``chess_ply.play_plain_uci`` (an e-board's usual ply, FIDE
Laws 3.1-3.9, SAN as Appendix C writes it) or else python-chess's ``parse_uci`` and
``chess_moves.parse_move`` (which also words the refusals, 7.5.1). After every ply the game knows
how it ended, if it did (checkmate 5.1.1, stalemate 5.2.1, dead position 5.2.2: by insufficient
material, by a blockade or by force (``chess_unwinnable.DeadPositionWatch``), fivefold repetition
9.6.1, 75 moves 9.6.2, with a mate on the last move taking precedence), and which draws can be
claimed (9.2, 9.3), with the evidence an arbiter checks. Repetitions are tracked incrementally
(``RepetitionTable``).

A game set up from a FEN is judged before its first move: a position that is already over (mate,
stalemate, 75 moves, a dead position, searched as thoroughly as at a flag fall) is the ``outcome`` at
ply 0, and ``claimable()`` at ply 0 offers what the start position allows (a halfmove clock of 99:
a fifty-move claim with any move that is neither a pawn move nor a capture, 9.3.1).

A flag fall (6.9) and a second completed illegal move (7.5.5) lose unless the opponent cannot
checkmate by any possible series of legal moves (``chess_unwinnable.can_checkmate``).
Pure: no I/O, no clock reads.
"""

from __future__ import annotations

import chess

from services.events.vocabulary import GameResult, Termination
from services.rules.base import BLACK, WHITE, Claim, MoveRefused, Outcome, PlayedMove, Side, other
from services.rules.chess_claims import (
    FIFTY_MOVES, KINDS, THREEFOLD, ClaimVerdict, fifty_claims, judge_fifty, judge_threefold,
    threefold_claims,
)
from services.rules.chess_moves import parse_move
from services.rules.chess_ply import play_plain_uci
from services.rules.chess_position import CASTLING, fen_of_key, has_legal_move, position_key
from services.rules.repetition import RepetitionTable
from services.rules.start_position import StartPositionError, chess_problems
from services.rules.chess_unwinnable import (
    FLAG_FALL_NODES, START_NODES, DeadPositionWatch, Unwinnability, can_checkmate, dead_position,
)
from services.rules.results import (
    ARBITER, CHECKMATE, DEAD_POSITION, FIVEFOLD_REPETITION, INSUFFICIENT_MATERIAL, RESIGNATION,
    SEVENTYFIVE_MOVES, STALEMATE, TIME_FORFEIT, check_outcome, result_for_winner,
)

_SIDE: dict[bool, Side] = {chess.WHITE: WHITE, chess.BLACK: BLACK}
_TERMINATION = {
    chess.Termination.CHECKMATE: CHECKMATE,
    chess.Termination.STALEMATE: STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: FIVEFOLD_REPETITION,
}


class ChessPlayedMove(PlayedMove):
    """One applied chess ply (a ``PlayedMove``): ``ply`` (from 1), ``move`` (UCI, castling as e1g1),
    ``san``, ``fen`` (the position after), plus ``given`` (the text as received) and ``note`` (None,
    or "king_takes_rook" when castling came as e1h1-style king-takes-rook, field case F02).

    ``fen`` is made on first read: python-chess's ``Board.fen()`` costs more than everything else a
    ply needs (~50 us), and most plies are never shown as FEN."""

    # Set by __init__ through the instance dict (not dataclass fields: equality stays PlayedMove's).
    given: str
    note: str | None
    _fen: str | None
    _fen_source: tuple[tuple, int, int]  # fen_of_key's arguments

    def __init__(self, ply: int, move: str, san: str, given: str, note: str | None,
                 key: tuple, halfmove_clock: int, fullmove_number: int):
        # PlayedMove is frozen: fill the instance dict directly (one call, cheaper per ply).
        self.__dict__.update(ply=ply, move=move, san=san, given=given, note=note,
                             _fen_source=(key, halfmove_clock, fullmove_number), _fen=None)

    @property
    def fen(self) -> str:
        """The FEN after this ply (python-chess's format)."""
        fen = self._fen
        if fen is None:
            fen = fen_of_key(*self._fen_source)
            object.__setattr__(self, "_fen", fen)
        return fen

    def to_json(self) -> dict:
        """``{"ply", "move", "san", "fen", "given", "note"}``."""
        return {"ply": self.ply, "move": self.move, "san": self.san, "fen": self.fen,
                "given": self.given, "note": self.note}


class ChessGame:
    """A chess game from the standard start or from ``fen``.

    Raises ValueError for a FEN python-chess cannot read, ``StartPositionError`` (a ValueError)
    for one that is not a legal chess position (e.g. the side not to move in check, castling rights
    without the king or rook on its square: ``services.rules.start_position``). Sides are "white"/"black"; plies count from 1."""

    variant = "chess"
    first_side = WHITE

    def __init__(self, fen: str | None = None):
        standard = fen is None
        try:
            board = chess.Board() if standard else chess.Board(fen)
        except ValueError as exc:
            raise ValueError(f"not a FEN: {fen!r} ({exc})") from None
        # The standard start is valid, its FEN is python-chess's STARTING_FEN and nothing has ended
        # there (5.1, 5.2, 9.6): known without asking the board (~60 us of a game's ~120 us set-up,
        # paid at each game's first move when a round starts).
        if not standard and not board.is_valid():
            raise StartPositionError(fen, "chess", chess_problems(board))
        self._board = board
        self.start_fen = chess.STARTING_FEN if standard else board.fen()
        self._ply = 0
        self._key = position_key(board)
        self._table = RepetitionTable(self._key, 0)
        self._moves: list[str] = []
        self._sans: list[str] = []
        self._played: list[ChessPlayedMove] = []
        self._insufficient = board.is_insufficient_material()
        self._claims: list[Claim] | None = None
        self._dead_watch = DeadPositionWatch(board)
        self._in_check = False if standard else board.is_check()  # then read from each SAN's suffix
        found = None if standard else board.outcome()
        self._outcome = None if found is None else Outcome(
            result_for_winner(None if found.winner is None else _SIDE[found.winner]),
            _TERMINATION[found.termination])
        if self._outcome is None and not standard and board.board_fen() != chess.STARTING_BOARD_FEN:
            start = dead_position(board, START_NODES)  # once per game: the full test
            if start.dead:
                self._outcome = Outcome(GameResult.DRAW, start.reason)

    @classmethod
    def from_moves(cls, moves: list[str], fen: str | None = None) -> ChessGame:
        """A game replayed from ``moves`` (UCI or SAN); raises MoveRefused at the first bad one."""
        game = cls(fen)
        for move in moves:
            game.play(move)
        return game

    # -- state ------------------------------------------------------------------------------

    @property
    def fen(self) -> str:
        """The FEN of the current position."""
        return self._board.fen()

    @property
    def ply(self) -> int:
        """Plies played so far (0 at the start)."""
        return self._ply

    @property
    def turn(self) -> Side:
        """The side to move: "white" or "black"."""
        return _SIDE[self._board.turn]

    @property
    def moves(self) -> list[str]:
        """The UCI moves played (a copy)."""
        return list(self._moves)

    @property
    def last_move(self) -> str | None:
        """The last UCI move played (``moves[-1]`` without the copy), None at the start."""
        return self._moves[-1] if self._moves else None

    @property
    def sans(self) -> list[str]:
        """The SAN of the moves played (a copy)."""
        return list(self._sans)

    @property
    def played(self) -> list[ChessPlayedMove]:
        """Every applied ply (a copy of the list)."""
        return list(self._played)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome

    @property
    def board(self) -> chess.Board:
        """A copy of the python-chess board (with its move stack)."""
        return self._board.copy()

    # -- moves ------------------------------------------------------------------------------

    def play(self, move: str) -> ChessPlayedMove:
        """Apply ``move`` (UCI such as "e2e4", "e7e8q", "e1g1", "e1h1"; or SAN such as "Nf3", "O-O").

        Returns the ``ChessPlayedMove``. Raises MoveRefused, the game unchanged, when the move is
        unparsable, illegal (FIDE Laws 7.5.1), a promotion without its piece (7.5.2, F05b), or comes
        after the game has ended (5.1, 5.2, 9.6)."""
        board = self._board
        if self._outcome is not None:
            fen = board.fen()
            raise MoveRefused(str(move), f"the game has ended ({self._outcome.result}, "
                                         f"{self._outcome.termination}): {move} in {fen}", fen)
        # The e-boards' usual ply (plain UCI, not in check, not castling nor en passant) is judged
        # and written by chess_ply in one look; anything else goes to python-chess: parse_uci, and
        # parse_move for SAN, king-takes-rook and bad input (it also words the refusals).
        quick = play_plain_uci(board, move, self._in_check) if type(move) is str else None
        if quick is not None:
            uci, note, san = move, None, quick[1]
        else:
            try:
                legal = board.parse_uci(move)
            except (ValueError, TypeError):
                legal = None
            # the text is the move's UCI unless python-chess read it as another (king-takes-rook
            # castling; a castling with a promotion letter, "e1g1q", which it reads as "e1g1")
            if (legal and move[2:4] == chess.SQUARE_NAMES[legal.to_square]
                    and (len(move) == 4) == (legal.promotion is None)):
                uci, note = move, None
            else:
                legal, note = parse_move(board, move)
                uci = legal.uci()
            san = board.san_and_push(legal)
        self._in_check = san[-1] in "+#"
        self._ply = ply = self._ply + 1
        key = position_key(board)
        zeroing = board.halfmove_clock == 0  # push resets it on captures and pawn moves only
        # Positions before a capture, pawn move or loss of a castling right cannot recur (9.2.2).
        count = self._table.record(key, ply, zeroing or key[CASTLING] != self._key[CASTLING])
        self._key = key
        if zeroing:  # material only changes by captures and promotions
            self._insufficient = board.is_insufficient_material()
        self._outcome = self._ends_after(san, count, zeroing)
        self._claims = None
        self._moves.append(uci)
        self._sans.append(san)
        played = ChessPlayedMove(ply, uci, san, move.strip(), note, key,
                                 board.halfmove_clock, board.fullmove_number)
        self._played.append(played)
        return played

    def _ends_after(self, san: str, count: int, zeroing: bool) -> Outcome | None:
        """The automatic end after a ply, in python-chess's order of precedence (a mate on the move
        completing 75 moves or a fifth repetition is still a mate: FIDE Laws 9.6.2, F03(c)); a
        dead position beyond insufficient material (5.2.2) after the stalemate."""
        board = self._board
        mark = san[-1]
        if mark == "#":
            return Outcome(result_for_winner(_SIDE[not board.turn]), CHECKMATE)
        if self._insufficient:
            return Outcome(GameResult.DRAW, INSUFFICIENT_MATERIAL)
        if mark != "+" and not has_legal_move(board, in_check=False):
            return Outcome(GameResult.DRAW, STALEMATE)
        if self._dead_watch.after_move(board, zeroing):
            return Outcome(GameResult.DRAW, DEAD_POSITION)
        if board.halfmove_clock >= 150:
            return Outcome(GameResult.DRAW, SEVENTYFIVE_MOVES)
        if count >= 5:
            return Outcome(GameResult.DRAW, FIVEFOLD_REPETITION)
        return None

    # -- claims -----------------------------------------------------------------------------

    def claimable(self) -> list[Claim]:
        """Every draw claim open to the player to move now: threefold (9.2.1.2 without a move,
        9.2.1.1 with each intended move that makes a third occurrence) and fifty moves (9.3.2,
        9.3.1). [] once the game has ended. Computed once per ply."""
        if self._outcome is not None:
            return []
        if self._claims is None:
            table = self._table
            if not table.repeated and self._board.halfmove_clock < 99:
                self._claims = []  # nothing stood twice and no fifty-move claim: the usual ply
            else:
                self._claims = (threefold_claims(self._board, table, self._key, self._ply)
                                + fifty_claims(self._board, self._ply))
        return list(self._claims)

    def claim(self, kind: str, by_move: str | None = None) -> ClaimVerdict:
        """Judge a draw claim by the player to move: ``kind`` "threefold" (FIDE Laws 9.2) or
        "fifty_moves" (9.3); ``by_move`` None for a claim about the position on the board, else the
        intended move (UCI or SAN) written down and declared, not played. Returns a ``ClaimVerdict``
        (correct or not, the article, a reason, evidence); the game is unchanged (the arbiter then
        ends it, or has the intended move played, 9.5). An illegal intended move or a claim after
        the end makes an incorrect verdict. Raises ValueError for an unknown ``kind``."""
        if kind not in KINDS:
            raise ValueError(f"not a claim kind: {kind!r} (expected one of {', '.join(KINDS)})")
        law = "FIDE Laws 9.2" if kind == THREEFOLD else "FIDE Laws 9.3"
        if self._outcome is not None:
            return ClaimVerdict(kind, by_move, False, law, f"the game has already ended "
                                f"({self._outcome.result}, {self._outcome.termination})")
        move = None
        if by_move is not None:
            try:
                move = parse_move(self._board, by_move).move
            except MoveRefused as refused:
                return ClaimVerdict(kind, by_move, False, law + ", 9.5",
                                    f"the intended move cannot be played: {refused.reason}")
        if kind == THREEFOLD:
            return judge_threefold(self._board, self._table, self._key, self._ply, move)
        assert kind == FIFTY_MOVES
        return judge_fifty(self._board, self._ply, move)

    # -- ends off the board -----------------------------------------------------------------

    def end(self, result: str, termination: str) -> Outcome:
        """End the game by something outside the board rules: resignation (5.1.2), agreement
        (5.2.3), an upheld claim (9.2, 9.3), a forfeit or an arbiter's decision. ``result``: a code of
        ``services.rules.results.SCORES`` ("1-0", "0-1", "1/2-1/2", "+:-", "0-0", "1/2-0", ...);
        ``termination``: a word of ``results.TERMINATIONS``. Raises ValueError for an unknown or
        inconsistent pair (``results.check_outcome``) or when the game has already ended."""
        if self._outcome is not None:
            raise ValueError(f"the game is already over ({self._outcome.result}, {self._outcome.termination})")
        score = check_outcome(result, termination)
        self._outcome = Outcome(score.code, Termination(termination))
        return self._outcome

    def resign(self, side: str) -> Outcome:
        """``side`` resigns: the opponent wins (FIDE Laws 5.1.2). ValueError as in ``end``."""
        return self.end(result_for_winner(other(side)), RESIGNATION)

    def can_checkmate(self, side: str, nodes: int = FLAG_FALL_NODES) -> Unwinnability:
        """Whether ``side`` can checkmate the other king by some series of legal moves from the
        current position (FIDE Laws 6.9, 7.5.5): ``chess_unwinnable.can_checkmate``, with its
        verdict, how it was reached and, for a mating line found, the moves. The game is
        unchanged. Raises ValueError for a bad side."""
        return can_checkmate(self._board, side, nodes)

    def flag_fall(self, side: str) -> Outcome:
        """``side``'s flag has fallen: ``side`` loses, unless the opponent cannot checkmate by any
        possible series of legal moves, then drawn (FIDE Laws 6.9). "Cannot" only when proved
        (``can_checkmate``: material, a blockade, or every reachable position searched); an
        undecided search leaves the loss (F04: K+N v K+P is a win, K+N v K a draw). Termination
        "time_forfeit" either way. When the game has already ended the recorded outcome is
        returned unchanged. Raises ValueError when ``side`` is not a side."""
        return self._lose_unless_unwinnable(side, TIME_FORFEIT)

    def illegal_move_loss(self, side: str) -> Outcome:
        """The arbiter declares the game lost by ``side`` for its second completed illegal move,
        unless the opponent cannot checkmate by any possible series of legal moves, then drawn
        (FIDE Laws 7.5.5; see ``services.rules.penalties``). Termination "arbiter". When the game
        has already ended the recorded outcome is returned unchanged. Raises ValueError when
        ``side`` is not a side."""
        return self._lose_unless_unwinnable(side, ARBITER)

    def _lose_unless_unwinnable(self, side: str, termination: Termination) -> Outcome:
        opponent = other(side)
        if self._outcome is None:
            drawn = self.can_checkmate(opponent).unwinnable
            self._outcome = Outcome(result_for_winner(None if drawn else opponent), termination)
        return self._outcome
