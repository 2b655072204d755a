"""The arbiter's correction of a game's record (FIDE Laws 7.5.1, 7.4)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from services.events import GameCorrected

from .base import Action, ActionError, Context, GameId, action

CORRECTION_RULE = ("FIDE Laws 7.5.1: the position immediately before the irregularity shall be reinstated; "
                   "7.4: a displaced piece restored")
MAX_ENTERED = 600
Moves = Annotated[str | list[str], Meta(description="the moves played after that ply, as text or a list")]


@action
class CorrectRecord(Action, tag="correct_record", kw_only=True, frozen=True):
    """FIDE Laws 7.5.1 ("the position immediately before the irregularity shall be reinstated")
    and 7.4: the plies after ``ply`` taken back and ``moves`` (the moves actually played from
    there, text separated by spaces or a list; UCI, SAN, or checkers' numeric notation) entered
    after it, each checked by the rules core from the position at ``ply`` (python-chess,
    pydraughts). One ``game_corrected`` entry with the moves in the log's form, their SAN and the
    position after each. Refused for a ply outside 0..the plies recorded, a move the rules refuse
    (naming it and why), or a correction that changes nothing."""

    game: GameId
    ply: Annotated[int, Meta(ge=0, description="the plies that stand, a whole number from 0 to the plies "
                                               "recorded")]
    moves: Moves = []
    reason: str | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.rules.base import MoveRefused
        from services.rules.checkers_game import CheckersGame
        from services.rules.chess_game import ChessGame

        g = ctx.game(self.game)
        recorded = list(g.get("moves") or [])
        ply = self.ply
        if ply > len(recorded):
            raise ActionError(f"ply: the plies that stand, a whole number from 0 to {len(recorded)}")
        moves = self.moves.replace(",", " ").split() if isinstance(self.moves, str) else self.moves
        if not all(m.strip() for m in moves):
            raise ActionError("moves: the moves played after that ply, as text or a list")
        if len(moves) > MAX_ENTERED:
            raise ActionError(f"moves: at most {MAX_ENTERED} at once")
        cls = CheckersGame if g.get("variant") == "checkers" else ChessGame
        try:
            game = cls.from_moves(recorded[:ply], fen=g.get("start_fen"))
        except (MoveRefused, ValueError) as exc:
            raise ActionError(f"game: its record cannot be replayed to ply {ply} ({exc})") from None
        played = []
        for i, text in enumerate(moves, start=ply + 1):
            try:
                played.append((game.play(text.strip()), game.fen))
            except MoveRefused as exc:
                raise ActionError(f"moves: ply {i}: {exc.reason}") from None
        entered = [p.move for p, _ in played]
        if entered == recorded[ply:]:
            raise ActionError("moves: the record already reads so; nothing to correct")
        return [(GameCorrected.TYPE, {**ctx.base(self, g), "ply": ply, "moves": entered,
                                      "san": [p.san for p, _ in played], "fens": [f for _, f in played],
                                      "fen": game.fen, "turn": game.turn, "removed": recorded[ply:],
                                      "reason": (self.reason or "")[:1000] or None, "rule": CORRECTION_RULE})]
