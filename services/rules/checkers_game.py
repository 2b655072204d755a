"""``CheckersGame``: one game of American (English) checkers behind the ``base.Game`` interface.

Rules (ACF/WCDF rules as adopted by the ACF): Black (Red on the venue's boards) moves first from
men on 1-12; captures are compulsory and completed; crowning ends the move. The side to move with
no legal move (no pieces, or all blocked) has lost. Draws are claims to the referee
(``claimable()``, see ``checkers_claims``), never automatic.

Engine: one pydraughts board (variant "english") per game, pushed move by move; its legal moves
(``checkers_board.legal_moves``, cached per position) decide what may be played and when the game
is over. What pydraughts lacks is wrapped here: clear refusals (never a raw KeyError), the end of
the game (pydraughts would take further moves after a resignation, and its ``is_over()`` declares
automatic draws at a third repetition or 40 king moves, which the ACF rules make claims), claims
and results.

Results: ``Outcome.result`` is a venue result code (``services.rules.results``), the same for
chess and checkers: the first figure is White's score ("1-0" White won, "0-1" Black won). PDN
writes checkers results with Black's score first; ``checkers_results`` converts at the file border.
"""

from __future__ import annotations

from services.events.vocabulary import GameResult, Termination
from services.rules.base import BLACK, SIDES, Claim, MoveRefused, Outcome, PlayedMove, Side, other
from services.rules.checkers_board import CheckersMove, Position, apply_move, legal_moves, new_board, position_of
from services.rules.checkers_claims import (
    FORTY_MOVES_RULE,
    KINDS,
    THREEFOLD,
    THREEFOLD_RULE,
    forty_move_claim,
    judge_forty,
    judge_threefold,
    threefold_claims,
)
from services.rules.chess_claims import ClaimVerdict
from services.rules.checkers_notation import (
    IllegalMove,
    NotationError,
    display_text,
    format_fen,
    parse_fen,
    resolve_move,
)
from services.rules.checkers_results import NO_LEGAL_MOVES, check_outcome
from services.rules.results import RESIGNATION, TIME_FORFEIT, result_for_winner


class CheckersGame:
    """A game of American checkers from the standard start or a set-up position.

    ``CheckersGame()`` starts with Black to move from men on 1-12 and White's on 21-32;
    ``CheckersGame(fen="W:WK10,21:B5,K30")`` from a PDN FEN (raises
    ``checkers_notation.NotationError``, a ValueError, when the FEN is bad). A set-up position in
    which the side to move has no move is already over.
    """

    variant = "checkers"
    first_side = BLACK

    def __init__(self, fen: str | None = None):
        start = Position.start() if fen is None else parse_fen(fen)
        self._board = new_board(start)  # the pydraughts board, pushed along the game
        self._legal: tuple[CheckersMove, ...] = legal_moves(start, self._board)
        self._positions: list[Position] = [start]
        self._played: list[PlayedMove] = []
        self._irreversible: list[int] = [0]  # per ply: the last ply that moved a man or took a piece
        self._outcome: Outcome | None = None
        self.initial_fen: str = format_fen(start)
        """Canonical FEN of the position the game started from."""
        self._check_no_moves()

    @classmethod
    def from_moves(cls, moves: list[str], fen: str | None = None) -> "CheckersGame":
        """A game replayed from ``moves`` (numeric notation); raises MoveRefused at the first bad
        one, NotationError (a ValueError) for a bad ``fen``."""
        game = cls(fen)
        for move in moves:
            game.play(move)
        return game

    # -- state -------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position (hashable, canonical)."""
        return self._positions[-1]

    @property
    def fen(self) -> str:
        """Canonical PDN FEN of the current position, e.g. "B:W21,...,32:B1,...,12"."""
        return format_fen(self.position)

    @property
    def ply(self) -> int:
        """Plies played so far (0 at the start)."""
        return len(self._played)

    @property
    def turn(self) -> Side:
        """The side to move: "black" or "white"."""
        return self.position.turn

    @property
    def moves(self) -> list[str]:
        """Every move played, canonical full route ("11-15", "6x15x24")."""
        return [p.move for p in self._played]

    @property
    def last_move(self) -> str | None:
        """The last move played (``moves[-1]`` without the copy), None at the start."""
        return self._played[-1].move if self._played else None

    @property
    def sans(self) -> list[str]:
        """Every move played in the form shown to people ("23x14"; full route only where needed)."""
        return [p.san for p in self._played]

    @property
    def played(self) -> list[PlayedMove]:
        """Every applied ply as a ``PlayedMove`` (ply, move, san, fen after)."""
        return list(self._played)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome

    @property
    def last_irreversible_ply(self) -> int:
        """The last ply that moved a man or took a piece (0 = the start): the 40-move count's base."""
        return self._irreversible[-1]

    def legal_moves(self) -> list[str]:
        """The legal moves of the side to move, canonical full routes, sorted by route; [] once the
        game is over."""
        if self._outcome is not None:
            return []
        return [m.text for m in self._legal]

    # -- moves -------------------------------------------------------------------------------

    def play(self, move: str) -> PlayedMove:
        """Apply ``move`` (numeric notation: ``11-15``, ``23x14``, ``6x15x24``; a jump may be given
        by its start and end squares when only one route joins them).

        Returns the ``PlayedMove`` (``move`` = full route, ``san`` = display form, ``fen`` after).
        Raises MoveRefused, leaving the game unchanged, when the text is not a move, the move is
        illegal (compulsory capture, uncompleted jump, ...), a jump is ambiguous (the reason asks for
        the full route), or the game has already ended.
        """
        if self._outcome is not None:
            raise MoveRefused(
                str(move),
                f"move {move} refused: the game is over ({self._outcome.result}, {self._outcome.termination})",
                self.fen,
            )
        try:
            chosen = resolve_move(self.position, move, self._legal)
        except NotationError as exc:
            raise MoveRefused(str(move), str(exc), self.fen) from None
        except IllegalMove as exc:
            raise MoveRefused(str(move), exc.reason, self.fen) from None
        return self._apply(chosen)

    def move_reaching(self, fen: str) -> str:
        """The legal move that leads to the position ``fen`` (for boards that only sense pieces and
        report what stands on the board). The side to move in ``fen`` is ignored: it is the
        opponent's after any move. Returns the full-route move text; raises MoveRefused when no
        legal move (or no move at all, once the game is over) leads there or ``fen`` is not a FEN.
        Two routes of a king's circuit leave the same position: the lowest route is returned."""
        try:
            target = parse_fen(fen)
        except NotationError as exc:
            raise MoveRefused(str(fen), str(exc), self.fen) from None
        if self._outcome is None:
            here = self.position
            placed = (target.black_men, target.black_kings, target.white_men, target.white_kings)
            for move in self._legal:
                # only a move that empties its start square and fills its end square can match;
                # the rest are skipped before asking pydraughts for the position after it
                if move.start in target.occupied and move.start != move.end:
                    continue
                if move.end not in target.pieces(here.turn):
                    continue
                after = apply_move(here, move)
                if (after.black_men, after.black_kings, after.white_men, after.white_kings) == placed:
                    return move.text
        raise MoveRefused(str(fen), f"no legal move of {self.turn} leads to {fen}", self.fen)

    def _apply(self, chosen: CheckersMove) -> PlayedMove:
        san = display_text(self.position, chosen, self._legal)
        self._board.push(chosen.engine)
        after = position_of(self._board)
        self._positions.append(after)
        self._legal = legal_moves(after, self._board)
        self._irreversible.append(self.ply + 1 if chosen.irreversible else self._irreversible[-1])
        played = PlayedMove(self.ply + 1, chosen.text, san, after.fen)
        self._played.append(played)
        self._check_no_moves()
        return played

    def _check_no_moves(self) -> None:
        if not self._legal:
            self._outcome = Outcome(result_for_winner(other(self.turn)), NO_LEGAL_MOVES)

    # -- claims and ends ---------------------------------------------------------------------

    def claimable(self) -> list[Claim]:
        """Every draw claim open to the side to move now (WCDF rules as adopted by the ACF): the
        third repetition (standing now: ``by_move`` None; or made by the claimant's next move:
        ``by_move`` = that move), and the 40-move rule. [] once the game is over. See
        ``checkers_claims`` for the evidence each carries."""
        if self._outcome is not None:
            return []
        claims = threefold_claims(self._positions, self.last_irreversible_ply, self._legal)
        forty = forty_move_claim(self.ply, self.last_irreversible_ply)
        return claims + ([forty] if forty else [])

    def claim(self, kind: str, by_move: str | None = None) -> ClaimVerdict:
        """Judge a draw claim by the side to move: ``kind`` "threefold" or "forty_moves" (WCDF
        rules as adopted by the ACF); ``by_move`` None for a claim on the position as it stands,
        else the intended next move (numeric notation), declared, not played. Returns a
        ``ClaimVerdict`` (correct or not, the rule, a reason, evidence); the game is unchanged (the
        referee then ends it or has play go on). An unplayable intended move or a claim after the
        end gives an incorrect verdict. Raises ValueError for an unknown ``kind``."""
        if kind not in KINDS:
            raise ValueError(f"not a claim kind: {kind!r} (expected one of {', '.join(KINDS)})")
        rule = THREEFOLD_RULE if kind == THREEFOLD else FORTY_MOVES_RULE
        if self._outcome is not None:
            return ClaimVerdict(kind, by_move, False, rule, f"the game has already ended "
                                f"({self._outcome.result}, {self._outcome.termination})")
        if kind != THREEFOLD:
            return judge_forty(self.ply, self.last_irreversible_ply, by_move)
        move = None
        if by_move is not None:
            try:
                move = resolve_move(self.position, by_move, self._legal)
            except (NotationError, IllegalMove) as exc:
                return ClaimVerdict(kind, by_move, False, rule, f"the intended move cannot be played: {exc}")
        return judge_threefold(self._positions, self.last_irreversible_ply, move)

    def end(self, result: str, termination: str) -> Outcome:
        """End the game by something off the board (resignation, agreement, a draw claim upheld by
        the referee, a forfeit, the referee's decision). ``result``: a venue result code
        (``services.rules.results``, first figure White's; aliases such as "½-½" are normalised);
        ``termination``: one of ``checkers_results.TERMINATIONS`` ("resignation", "agreement",
        "threefold_repetition", "forty_moves", "forfeit", "arbiter", ...). Raises ValueError for an
        unknown result or termination, a pair that does not fit (``checkers_results.check_outcome``),
        or when the game has already ended (the recorded outcome stands)."""
        score = check_outcome(result, termination)
        if self._outcome is not None:
            raise ValueError(f"the game is already over ({self._outcome.result}, {self._outcome.termination})")
        self._outcome = Outcome(score.code, Termination(termination))
        return self._outcome

    def resign(self, side: str) -> Outcome:
        """``side`` resigns: the opponent wins. ValueError as in ``end`` (also for an unknown side)."""
        return self.end(result_for_winner(other(side)), RESIGNATION)

    def flag_fall(self, side: str) -> Outcome:
        """``side``'s time has expired: ``side`` forfeits the game (11-Man National 2017,
        regulation X.A.b: "A player whose time expires forfeits the current game"; unlike chess
        there is no draw for an opponent who cannot win). Returns the outcome (termination
        "time_forfeit"). When the game has already ended the recorded outcome is returned
        unchanged. Raises ValueError when ``side`` is not "white"/"black"."""
        if side not in SIDES:
            raise ValueError(f"not a side: {side!r} (expected 'white' or 'black')")
        if self._outcome is None:
            self._outcome = Outcome(result_for_winner(other(side)), TIME_FORFEIT)
        return self._outcome
