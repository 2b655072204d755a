"""The arbiter's actions on one game of any round: claims, results, fines, presence, clocks,
penalties, pauses, notes, closing alerts (docs/arbiter.md "Actions")."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from services.events import (AlertResolved, ArbiterDecision, BoardGameCalled, ClockAdjusted, DrawClaimDecided,
                             FineRecorded, GameEnded, GamePaused, GameResumed, NoteAdded, PlayerArrived)
from services.events import vocabulary
from services.events.vocabulary import EndedBy, GameResult, GameStatus, Termination
from services.arbiter_office.result_slip import termination_of
from services.rules.base import SIDES
from services.struct_errors import FieldError
from services.views.standings import TournamentView

from .base import Action, ActionError, Context, Count, GameId, SideName, action

RESULTS_PLAYED = set(vocabulary.RESULTS_PLAYED)
SPECIAL_SCORES = set(vocabulary.SPECIAL_SCORES)
FORFEIT_RESULTS = {GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.BOTH_LOSE}
CLAIM_TERMINATION = {vocabulary.ClaimKind.THREEFOLD: Termination.THREEFOLD_REPETITION,
                     vocabulary.ClaimKind.FIFTY_MOVES: Termination.FIFTY_MOVES,
                     vocabulary.ClaimKind.FORTY_MOVES: Termination.FORTY_MOVES}
CLAIM_RULE = {vocabulary.ClaimKind.THREEFOLD: "FIDE Laws 9.2", vocabulary.ClaimKind.FIFTY_MOVES: "FIDE Laws 9.3",
              vocabulary.ClaimKind.FORTY_MOVES: "ACF/WCDF 40-move rule"}

ClaimKind = Annotated[vocabulary.ClaimKind, Meta(description="must be one of threefold, fifty_moves, forty_moves")]
TerminationWord = Annotated[Termination, Meta(description=f"must be one of {', '.join(Termination)} "
                                                         "(services/events/vocabulary.py)")]
ResultCode = Annotated[Literal["1-0", "0-1", "1/2-1/2", "0-0", "1/2-0", "0-1/2", "*"],
                       Meta(description="must be one of *, 0-0, 0-1, 0-1/2, 1-0, 1/2-0, 1/2-1/2")]
ClockMs = Annotated[int, Meta(ge=0, description="a clock reading in ms, a whole number of 0 or more "
                                                "(a clock cannot show negative time)")]
PenaltyMs = Annotated[Literal[60_000, 120_000],
                      Meta(description="the Laws' penalties add 60000 or 120000 ms (one or two minutes: "
                                       "FIDE Laws 7.5.5, 9.5.3, A.3), not {value!r}")]


def open_game(g: dict) -> dict:
    """``g`` when it has not ended; ActionError otherwise (its result is set instead)."""
    if g.get("status") == GameStatus.ENDED:
        raise ActionError(f"game: {g['id']} has already ended ({g.get('result')}); set the result instead")
    return g


def result_ruling(ctx: Context, gid: str, result: str, termination: str | None, forfeit: bool) -> dict | None:
    """The one judgement of an arbiter's result for game ``gid``, however it is entered
    (``set_result``, the result slip ``enter_result``, ``enter_playoff_result``):
    ``rulings.judge_result`` on the folded state at ``ctx.now_ms`` where a rule decides it
    (``rulings.judged``: a default, 6.7.1; a flag, 6.8/6.9; a resignation, checkmate or stalemate,
    5.1/5.2.1; a draw by agreement against the event's draw-offer rule, 9.1.1). Its ``Ruling`` as
    an entry's ``ruling``, or None (the arbiter's judgement alone, 12.9); ActionError with the
    reason and the rule when refused. Without a folded state a draw by agreement is not judged (no
    event regulations to read); the other judged results need it (``Context.ruled``)."""
    from services.regulations.rulings import JUDGED_TERMINATIONS, judge_result, judged

    if not judged(result, termination, forfeit):
        return None
    if ctx.state is None and not (forfeit or termination in JUDGED_TERMINATIONS):
        return None
    ruling = ctx.ruled(judge_result, gid, result, termination, forfeit, ctx.now_ms)
    return ruling.to_json() if ruling is not None else None


def player_of(g: dict, side: str) -> str:
    """The name of ``side``'s player in GAME ``g``."""
    return g["white"] if side == "white" else g["black"]


class _Claim(Action, kw_only=True, frozen=True):
    game: GameId
    kind: ClaimKind
    side: Annotated[SideName, Meta(description="the claimant, white or black")] | None = None
    by_move: str | None = None
    ply: Annotated[Count, Meta(description="the position the claim was made in: a ply (default now)")] | None = None

    def __post_init__(self) -> None:
        if self.kind not in CLAIM_TERMINATION:  # the vocabulary's unnamed claim: the arbiter names it
            raise ValueError(f"kind: must be one of threefold, fifty_moves, forty_moves, not {self.kind.value!r}")

    def decided(self, ctx: Context, g: dict, accepted: bool) -> tuple[str, dict]:
        """``draw_claim_decided`` with the rules core's verdict on the claim (``rulings.judge_claim``:
        ChessGame.claim / CheckersGame.claim at the claim's position), or ActionError when the
        verdict does not allow the decision."""
        from services.regulations.rulings import judge_claim

        ruling = ctx.ruled(judge_claim, g["id"], self.kind, accept=accepted, by_move=self.by_move, side=self.side,
                           ply=self.ply)
        return (DrawClaimDecided.TYPE, {**ctx.base(self, g), "kind": self.kind, "accepted": accepted,
                                        "by_move": self.by_move, "side": self.side, "alert": self.alert,
                                        "rule": ruling.law, "ruling": ruling.to_json()})


@action
class AcceptClaim(_Claim, tag="accept_claim", kw_only=True, frozen=True):
    """A correct claim (FIDE Laws 9.2 threefold repetition, 9.3 fifty moves; the ACF/WCDF 40-move
    rule): ``draw_claim_decided`` and ``game_ended`` ½-½. Judged by the rules core at the claim's
    position (``ply``, default now) with the intended move: refused, with the verdict's reason and
    article, for an incorrect claim (9.3.1: an intended capture or pawn move; reject it: 9.5.3)."""

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = open_game(ctx.game(self.game))
        decided = self.decided(ctx, g, True)
        return [decided, (GameEnded.TYPE, {**ctx.base(self, g), "result": GameResult.DRAW,
                                           "termination": CLAIM_TERMINATION[self.kind],
                                           "ply": g.get("ply", 0), "by": EndedBy.ARBITER, "arbiter": ctx.by})]


@action
class RejectClaim(_Claim, tag="reject_claim", kw_only=True, frozen=True):
    """An incorrect claim (FIDE Laws 9.5): ``draw_claim_decided``; the game goes on and the gateway
    answers with ``penalty_proposed`` (9.5.3). ``side``: the claimant (default the side to move).
    Refused for a claim the rules core finds correct (9.5.2: "the game is immediately drawn")."""

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [self.decided(ctx, ctx.game(self.game), False)]


@action
class SetResult(Action, tag="set_result", kw_only=True, frozen=True):
    """The arbiter's result: "1-0", "0-1", "1/2-1/2"; "*" lets a game wrongly ended go on; with
    ``forfeit`` the unplayed "1-0", "0-1", "0-0" (TRF ``+``/``-``, FIDE Laws 6.7.1); the special
    scores an arbiter may award "0-0", "1/2-0", "0-1/2". ``how`` it came gives the termination
    (``services.arbiter_office.result_slip``: ``slip`` result_slip, ``arbiter``, ``forfeit``, ``claim``
    claim_upheld; default forfeit for a forfeit, else arbiter) unless ``termination`` names it.
    ``arbiter_decision`` (with ``previous`` and ``previous_termination``), and ``game_ended`` unless
    "*". Judged where a rule decides it (``result_ruling``, the result slip's judgement too): on
    time (6.8, 6.9, 6.10.1), by default (6.7.1), resignation (5.1.2), checkmate, stalemate (5.1.1,
    5.2.1), a draw by agreement the event's draw-offer rule forbids (9.1.1)."""

    game: GameId
    result: ResultCode
    forfeit: bool = False
    termination: TerminationWord | None = None
    how: Annotated[Literal["slip", "arbiter", "forfeit", "claim"],
                   Meta(description="how the result came: slip, arbiter, forfeit or claim, not {value!r}")] | None = None

    def __post_init__(self) -> None:
        if self.forfeit and self.result not in FORFEIT_RESULTS:
            raise FieldError("result", "a forfeit is written 1-0, 0-1 or 0-0")

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = ctx.game(self.game)
        try:
            termination = self.termination or termination_of(self.how, self.forfeit)
        except ValueError as exc:
            raise ActionError(str(exc)) from None
        ruling = result_ruling(ctx, g["id"], self.result, termination, self.forfeit)
        ended = g.get("status") == GameStatus.ENDED
        out = [(ArbiterDecision.TYPE, {**ctx.base(self, g), "result": self.result, "forfeit": self.forfeit,
                                       "termination": termination, "previous": g.get("result"),
                                       "previous_termination": g.get("termination") if ended else None,
                                       **({"ruling": ruling} if ruling else {})})]
        if self.result != GameResult.UNFINISHED:
            out.append((GameEnded.TYPE, {**ctx.base(self, g), "result": self.result, "termination": termination,
                                         "forfeit": self.forfeit, "ply": g.get("ply", 0), "by": EndedBy.ARBITER,
                                         "arbiter": ctx.by}))
        return out


@action
class RecordFine(Action, tag="record_fine", kw_only=True, frozen=True):
    """A fine (US Championship 2023 rule 1: "a fine of $500 to be deducted from their prize" for a
    player not at the board at the start): ``fine_recorded`` for ``player``, or the player of
    ``side`` in ``game``; ``currency`` left out: the event's (``Regulations.fine_currency``), none
    without a registered tournament."""

    amount: Annotated[int, Meta(gt=0, description="must be a positive whole number")]
    player: str | int | None = None
    game: GameId | None = None
    side: SideName | None = None
    currency: str | None = None
    reason: str | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = ctx.games.get(self.game) if self.game else None
        player = self.player
        if player is None and g is not None:
            if self.side is None:
                raise ActionError("side: is missing (must be white or black)")
            player = player_of(g, self.side)
        if player is None:
            raise ActionError("player: is missing (or give game and side)")
        currency = self.currency or _event_currency(ctx)
        return [(FineRecorded.TYPE, {**ctx.base(self, g), "player": str(player), "amount": self.amount,
                                     **({"currency": currency} if currency else {}),
                                     "reason": self.reason or "not at the board at the start"})]


def _event_currency(ctx: Context) -> str | None:
    """The event's currency for a fine (``Regulations.fine_currency``); None without a registered
    tournament (a hall served by slug alone): no currency is assumed in the code (DESIGN "Rules
    cited from the event's file")."""
    t = TournamentView(ctx.state).tournament if ctx.state is not None else None
    return t.regulations.fine_currency() if t is not None else None


@action
class CheckIn(Action, tag="check_in", kw_only=True, frozen=True):
    """A player seen at the board (FIDE Laws 6.7.1: present before the default time):
    ``player_arrived``."""

    game: GameId
    side: SideName

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = ctx.game(self.game)
        return [(PlayerArrived.TYPE, {**ctx.base(self, g), "side": self.side, "player": player_of(g, self.side)})]


@action
class AdjustClock(Action, tag="adjust_clock", kw_only=True, frozen=True):
    """The arbiter sets the clock (FIDE Laws 6.10.2: "the arbiter shall use his best judgement when
    determining the times to be shown"): ``clock_adjusted`` with the previous reading."""

    game: GameId
    white_ms: ClockMs
    black_ms: ClockMs

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = ctx.game(self.game)
        return [(ClockAdjusted.TYPE, {**ctx.base(self, g), "white_ms": self.white_ms, "black_ms": self.black_ms,
                                      "previous": g.get("clock")})]


@action
class ApplyPenalty(Action, tag="apply_penalty", kw_only=True, frozen=True):
    """The arbiter applies a proposed penalty (``penalty_proposed``: FIDE Laws 7.5.5 "the arbiter
    shall give two minutes extra time to his/her opponent", 9.5.3 "add two minutes to the
    opponent's remaining thinking time", one minute in rapid and blitz under B.3, A.3): one
    ``clock_adjusted`` with ``side``'s time on the stopped clock plus ``add_ms``, the reason and the
    law. The clock must be stopped (the arbiter pauses the clocks to deal with an irregularity,
    FIDE Laws 6.11), so the figures are exact. Refused for an ended game, no clock reading, a
    running clock, or an amount the Laws do not give here (``rulings.judge_penalty``: the open
    proposal's, else the time class's; none for a proposal that loses the game)."""

    game: GameId
    side: SideName
    add_ms: PenaltyMs
    law: str | None = None
    reason: str | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations.rulings import judge_penalty

        g = open_game(ctx.game(self.game))
        clock = g.get("clock")
        if not clock:
            raise ActionError(f"game: {g['id']} has no clock reading to add the time to; set it with adjust_clock")
        if clock.get("running") is not None:
            raise ActionError(f"game: the clock of {g['id']} is running; pause it first (FIDE Laws 6.11), then apply "
                              "the penalty, so the time is added to the exact remaining time")
        ruling = ctx.ruled(judge_penalty, g["id"], self.side, self.add_ms)
        times = {s: int(clock[f"{s}_ms"]) for s in SIDES}
        times[self.side] += self.add_ms
        law = (self.law or ruling.law)[:200]
        reason = (self.reason or f"penalty: {self.add_ms // 60_000} min added to {self.side}")[:500]
        return [(ClockAdjusted.TYPE, {**ctx.base(self, g), "white_ms": times["white"], "black_ms": times["black"],
                                      "previous": g.get("clock"), "reason": f"{reason} ({law})", "side": self.side,
                                      "add_ms": self.add_ms, "penalty": {"law": law, "alert": self.alert},
                                      "alert": self.alert, "ruling": ruling.to_json()})]


@action
class WithdrawPenalty(Action, tag="withdraw_penalty", kw_only=True, frozen=True):
    """The arbiter withdraws a proposed penalty (``penalty_proposed``) of ``side`` (the offender;
    ``presses``: the one made at that press, else the latest): no irregularity was completed (FIDE
    Laws 7.5.1: e.g. the press was the replacement move's, a ``penalty_in_doubt``), so the offence
    no longer counts towards 7.5.5. One ``penalty_withdrawn`` (ground "arbiter", ``by``). Allowed on
    an ended game (the result the proposal gave may then have to be set back). Refused when that
    player has no proposal left to withdraw."""

    game: GameId
    side: Annotated[SideName, Meta(description="the offender, white or black")]
    presses: Annotated[Count, Meta(description="the proposal's press count, a whole number")] | None = None
    reason: str | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        from services.regulations import irregularities as ir
        from services.regulations.rulings import judge_withdrawal

        g = ctx.game(self.game)
        ruling, proposal = ctx.ruled(judge_withdrawal, g["id"], self.side, self.presses)
        reason = (self.reason or ruling.reason)[:500]
        entry = ir.withdraw(ctx.state, ctx.state.games[g["id"]], proposal, "arbiter", law=ruling.law, reason=reason,
                            by=ctx.by)
        return [entry.encode()]


@action
class Pause(Action, tag="pause", kw_only=True, frozen=True):
    """The arbiter stops the clocks (FIDE Laws 6.11.1): ``game_paused``."""

    game: GameId

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [(GamePaused.TYPE, ctx.base(self, ctx.game(self.game)))]


@action
class Resume(Action, tag="resume", kw_only=True, frozen=True):
    """The arbiter restarts the clocks after a pause (FIDE Laws 6.11.1): ``game_resumed``."""

    game: GameId

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [(GameResumed.TYPE, ctx.base(self, ctx.game(self.game)))]


@action
class AddNote(Action, tag="note", kw_only=True, frozen=True):
    """A note for the record (the log is the audit trail an appeals committee reads), about
    ``game`` when given: ``note_added`` with ``text`` (up to 4,000 characters)."""

    text: Annotated[str, Meta(description="must be text")]
    game: GameId | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        g = ctx.games.get(self.game) if self.game else None
        return [(NoteAdded.TYPE, {**ctx.base(self, g), "text": self.text[:4000]})]


@action
class CallGame(Action, tag="call_game", kw_only=True, frozen=True):
    """The game ``game``'s board plays now (docs/protocol.md "Two games on one board"): the board's
    next game (its devices moved on: the players set it up and started it) or its current one (the
    game goes on): ``board_game_called``; the messages the board holds, and what its devices send
    next, are that game's."""

    game: GameId

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [(BoardGameCalled.TYPE, ctx.base(self, ctx.game(self.game)))]


@action
class ResolveAlert(Action, tag="resolve_alert", kw_only=True, frozen=True):
    """The arbiter marks an alert handled: ``alert_resolved``."""

    alert: Annotated[Count, Meta(description="must be an alert's number (GET /api/arbiter/alerts)")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [(AlertResolved.TYPE, {**ctx.base(self), "alert": self.alert})]


MAX_BULK = 1000  # alerts marked handled by one resolve_alerts


@action
class ResolveAlerts(Action, tag="resolve_alerts", kw_only=True, frozen=True):
    """The arbiter marks several alerts handled at once (the console's "Mark all N handled": a
    round's boards put away): one ``alert_resolved`` per alert, each id once, in order."""

    alerts: Annotated[list[Count], Meta(min_length=1, description="the ids of the alerts to mark handled, e.g. "
                                                                  "[12, 40]")]

    def __post_init__(self) -> None:
        if len(self.alerts) > MAX_BULK:
            raise ValueError(f"alerts: at most {MAX_BULK} at once, not {len(self.alerts)}")

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return [(AlertResolved.TYPE, {**ctx.base(self), "alert": alert}) for alert in dict.fromkeys(self.alerts)]
