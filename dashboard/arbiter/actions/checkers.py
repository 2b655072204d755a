"""The checkers referee's actions (11-Man National 2017: XII score sheets, X.B move timers and
adjudication, X.A.a the match clock, X.A.d time trouble); each is refused for a chess game."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from services.events import (AdjudicationRecorded, GameEnded, MatchClockChosen, MoveTimerStarted,
                             ScoreSheetDifferences, ScoreSheetEntered, TimeTroubleCalled)
from services.events.vocabulary import EndedBy, GameStatus, Termination

from .base import Action, ActionError, Context, GameId, SideName, action
from .game import open_game

MatchClock = Annotated[Literal["90", "80+10"],
                       Meta(description="{value!r} is not a match clock option: \"90\" (90 minutes) or \"80+10\" "
                                        "(80 minutes + 10 s a move) (X.A.a)")]


def checkers_game(ctx: Context, gid: str, name: str) -> dict:
    """The GAME ``gid`` when it is a checkers game: the referee's score sheets, move timers,
    adjudication and match clock are the 11-Man National 2017's rules (XII, X.A, X.B). Raises
    ActionError otherwise."""
    g = ctx.game(gid)
    if g.get("variant") != "checkers":
        raise ActionError(f"game: {g['id']} is a {g.get('variant') or 'chess'} game; {name} is a checkers "
                          "referee's action (11-Man National 2017)")
    return g


@action
class EnterScoreSheet(Action, tag="enter_score_sheet", kw_only=True, frozen=True):
    """Checkers 2017 XII ("both copies ... are necessary to permit crosschecking for recording
    errors"): a player's score sheet, cross-checked against the board's record;
    ``score_sheet_entered``, and ``score_sheet_differences`` (an alert) when a ply differs."""

    game: GameId
    side: SideName
    moves: Annotated[str | list[str], Meta(description="must be the moves as written on the sheet (text, or a list)")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.score_sheets import checkers_same, cross_check, sheet_moves

        g = checkers_game(ctx, self.game, self.NAME)
        moves = sheet_moves(self.moves) if isinstance(self.moves, str) else self.moves
        if not moves:
            raise ActionError("moves: the sheet has no moves")
        full, short = list(g.get("moves") or []), list(g.get("san") or [])
        same = checkers_same(full, short) if len(full) == len(short) else None
        diffs = [d.to_json() for d in cross_check(full or short, {self.side: moves}, same)]
        out = [(ScoreSheetEntered.TYPE, {**ctx.base(self, g), "side": self.side, "moves": moves[:1000],
                                         "board_plies": len(full or short), "differences": len(diffs)})]
        if diffs:
            out.append((ScoreSheetDifferences.TYPE, {**ctx.base(self, g), "side": self.side,
                                                     "differences": diffs[:200],
                                                     "rule": "11-Man National 2017 XII: crosschecking for "
                                                             "recording errors"}))
        return out


@action
class StartMoveTimer(Action, tag="start_move_timer", kw_only=True, frozen=True):
    """Checkers 2017 X.B.a (five minutes for a move, a warning at five, a loss at six) and X.B.c
    (one minute in the last phase): ``move_timer_started`` for ``side`` (default the side on move);
    the gateway then records the warning and the forfeit. Refused where the event's regulations
    provide no such timer (``rulings.judge_move_timer``: none in the Master division, X.A.i; none
    without a tournament file), for a game not started or on a clock (X.B.a, X.B.b), and for the
    one-minute rule before the warning 30 minutes before the round's end (X.B.c)."""

    game: GameId
    rule: Annotated[Literal["five_minute", "one_minute"],
                    Meta(description="five_minute (X.B.a) or one_minute (X.B.c)")]
    side: Annotated[SideName, Meta(description="white or black (default: the side on move)")] | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.rulings import judge_move_timer

        g = open_game(checkers_game(ctx, self.game, self.NAME))
        side = self.side or g.get("turn")
        if side not in ("white", "black"):
            raise ActionError("side: white or black (default: the side on move)")
        ruling = ctx.ruled(judge_move_timer, g["id"], self.rule, side, ctx.now_ms)
        return [(MoveTimerStarted.TYPE, {**ctx.base(self, g), "rule": self.rule, "side": side,
                                         "ruling": ruling.to_json()})]


@action
class Adjudicate(Action, tag="adjudicate", kw_only=True, frozen=True):
    """Checkers 2017 X.B.d: the committee of three's decision, recorded, and the game ended with
    it ("An adjudication win can only be awarded by unanimous vote of the Committee"):
    ``adjudication_recorded`` and ``game_ended``."""

    game: GameId
    members: list[str] = []
    votes: dict[str, str] = {}

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.checkers_rounds import adjudicate

        g = open_game(checkers_game(ctx, self.game, self.NAME))
        try:
            decision = adjudicate(list(self.members), dict(self.votes))
        except (ValueError, TypeError) as exc:
            raise ActionError(f"members/votes: {exc}") from None
        # services.regulations.checkers_rounds gives PDN's order (Black's score first); the log uses
        # ours (docs/checkers.md: "1-0" = White won).
        result = {"1-0": "0-1", "0-1": "1-0"}.get(decision.result, decision.result)
        return [(AdjudicationRecorded.TYPE, {**ctx.base(self, g), **decision.to_json(), "result": result}),
                (GameEnded.TYPE, {**ctx.base(self, g), "result": result, "termination": Termination.ARBITER,
                                  "ply": g.get("ply", 0), "by": EndedBy.ARBITER, "arbiter": ctx.by})]


class Wishes(msgspec.Struct, frozen=True):
    """Each player's match clock wish (X.A.a)."""

    black: MatchClock
    white: MatchClock


@action
class ChooseMatchClock(Action, tag="choose_match_clock", kw_only=True, frozen=True):
    """Checkers 2017 X.A.a: the match clock of a Master division match, chosen before its first
    game starts: the players' wishes, and the referee's coin flip when they disagree
    (``services.regulations.checkers_rounds.choose_match_clock``: heads = 90 minutes, tails = 80
    minutes + 10 s a move). One ``match_clock_chosen`` entry: the wishes, how it was decided, the
    coin's face, and the control both games of the match are played under (``time_control``, a
    tournament-file table). Refused for a game that is no match's game 1, a game 1 already started
    or ended, a missing coin flip when the wishes differ, a coin flip when they agree."""

    game: GameId
    wishes: Annotated[Wishes, Meta(description="each player's wish, {\"black\": \"90\" or \"80+10\", "
                                               "\"white\": ...}")]
    coin: Annotated[Literal["heads", "tails"], Meta(description="heads or tails, not {value!r}")] | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.checkers_rounds import RULE_CLOCK_CHOICE, choose_match_clock

        g = checkers_game(ctx, self.game, self.NAME)
        match = self._game_one(g)
        black, white = self.wishes.black, self.wishes.white
        if black == white and self.coin is not None:
            raise ActionError(f"coin: the players agree on {black}: no coin flip (X.A.a: the decision is "
                              "random only \"If the players cannot mutually agree\")")
        try:
            choice = choose_match_clock(black, white, self.coin)
        except ValueError:
            raise ActionError(f"coin: the players disagree (Red {black}, White {white}): the referee's coin flip "
                              "decides (X.A.a), heads = 90 minutes, tails = 80 minutes + 10 s") from None
        second = [gid for gid, other in ctx.games.items() if (other.get("match") or {}).get("follows") == g["id"]]
        return [(MatchClockChosen.TYPE, {
            **ctx.base(self, g), "match": match.get("id"), "games": [g["id"], *second],
            "wishes": {"black": black, "white": white},
            "players": {"black": g.get("black"), "white": g.get("white")},
            "option": choice.option, "how": choice.how, "coin": choice.coin,
            "time_control": choice.control_spec,
            "previous": (g.get("match_clock") or {}).get("option"), "rule": RULE_CLOCK_CHOICE})]

    @staticmethod
    def _game_one(g: dict) -> dict:
        """The match of ``g`` when ``g`` is its game 1, not started; ActionError otherwise."""
        match = g.get("match")
        if not isinstance(match, dict):
            raise ActionError(f"game: {g['id']} is not a Master division match game; the match clock (X.A.a) is "
                              "chosen for a match")
        if match.get("game_no") != 1:
            raise ActionError(f"game: {g['id']} is game {match.get('game_no')} of match {match.get('id')}; the "
                              f"match clock is chosen once, before game 1 ({match.get('follows')}) starts (X.A.a: "
                              "\"At beginning of the round\")")
        if g.get("status") != GameStatus.WAITING or g.get("ply"):
            what = f"has ended ({g.get('result')})" if g.get("status") == GameStatus.ENDED else \
                f"has started ({g.get('ply') or 0} plies played)"
            raise ActionError(f"game: {g['id']} {what}; the match clock is set \"At beginning of the round\" "
                              "(X.A.a) and can no longer be chosen: set the clocks instead")
        return match


@action
class CallTimeTrouble(Action, tag="call_time_trouble", kw_only=True, frozen=True):
    """Checkers 2017 X.A.d: "The Referee may also call attention to impending time trouble (5
    minutes or less prior to a time control), and spectators are never to do so." One
    ``time_trouble_called`` entry: for which side and player, the side's time on the last clock
    reading (``left_ms``, None without one), the alert it answers if named, and the rule. Refused
    for an ended game. The referee's judgement is not second-guessed: a call with more than 5
    minutes showing is recorded as made."""

    game: GameId
    side: SideName

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.clock_rules import TIME_TROUBLE_RULE

        g = checkers_game(ctx, self.game, self.NAME)
        if g.get("status") == GameStatus.ENDED:
            raise ActionError(f"game: {g['id']} has already ended ({g.get('result')}); there is no time trouble to "
                              "call attention to (X.A.d)")
        left = (g.get("clock") or {}).get(f"{self.side}_ms")
        return [(TimeTroubleCalled.TYPE, {**ctx.base(self, g), "side": self.side, "player": g.get(self.side),
                                          "left_ms": left if isinstance(left, int) else None,
                                          "alert": self.alert, "rule": TIME_TROUBLE_RULE})]
