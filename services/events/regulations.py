"""Entries the event's regulations write in answer to the hall (docs/events.md "From the event's
regulations"). Each carries ``game``, ``board`` and ``rule``: the words of the regulation applied,
taken from the tournament file (so a new event's audit trail cites its own regulations)."""

from __future__ import annotations

from typing import Any

from .base import Event, Side, entry
from .match_setup import ThreeMoveBallot
from .tournament import Setup


class AboutGame(Event, kw_only=True):
    """Fields of every regulations entry about one game."""

    game: str
    board: str
    rule: str | None = None


@entry("draw_offer_refused")
class DrawOfferRefused(AboutGame, kw_only=True):
    """A draw by agreement the regulations forbid (US 2023 rule 2, Norway classical); the game goes on."""

    result: str | None = None
    reason: str | None = None
    seq: int | None = None
    moves: dict | None = None
    kind: str | None = None


@entry("draw_claim_reported")
class DrawClaimReported(AboutGame, kw_only=True):
    """A device reported a draw by claim (FIDE Laws 9.2, 9.3): the arbiter decides."""

    result: str | None = None
    reason: str | None = None
    seq: int | None = None
    kind: str | None = None


@entry("default_forfeit")
class DefaultForfeit(AboutGame, kw_only=True):
    """Lateness past the default time (FIDE Laws 6.7.1): ``side`` the late player(s) ("both" when
    neither was at the board), ``result``, ``deadline_ms``, ``start_ms`` (when the round began, the
    time the default time counts from)."""

    side: str
    result: str
    forfeit: bool = False
    deadline_ms: int | None = None
    scheduled_start_ms: int | None = None
    start_ms: int | None = None
    present: list[str] = []


@entry("player_not_at_board")
class PlayerNotAtBoard(AboutGame, kw_only=True):
    """Not at the board at the start, where the event fines it (``fine`` in ``currency``)."""

    side: Side
    player: str | None = None
    fine: int | None = None
    currency: str | None = None


@entry("clock_disagreement")
class ClockDisagreement(AboutGame, kw_only=True):
    """The clock and the board or the time control disagree (``services.regulations.clock_watch``):
    ``kind`` "time", "move_counter", "press_without_move", "move_without_press"."""

    kind: str
    side: Side | None = None
    detail: str | None = None
    move_number: int | None = None
    device_ms: int | None = None
    model_ms: int | None = None
    difference_ms: int | None = None
    moves: int | None = None
    presses: int | None = None
    count: int = 1


@entry("penalty_proposed")
class PenaltyProposed(AboutGame, kw_only=True):
    """A penalty the Laws give for an irregularity, proposed to the arbiter, who applies it
    (``apply_penalty``: ``clock_adjusted``) or rules otherwise (``services.rules.penalties``).

    ``side``: the offender; ``offence``: "illegal_move" (a completed illegal move, FIDE Laws 7.5.1;
    a press without a move, 7.5.3; counted together, 7.5.5) or "incorrect_claim" (9.5.3); ``how``:
    "illegal_move", "press_without_move" or "claim"; ``offence_no``: the offender's offences of
    this kind in the game so far, this one included; ``to``: the opponent, who gets ``add_ms`` (ms:
    two minutes, one in rapid and in blitz under B.3, A.3); ``game_lost``: the second completed
    illegal move loses (7.5.5), then ``result`` is the result the Laws give (a draw when the
    opponent cannot checkmate by any possible series of legal moves: ``evidence``, the opponent's
    ``Unwinnability``); ``law`` and ``reason`` (``Penalty``); ``time_class`` ("standard", "rapid",
    "blitz", A.1/B.1) and ``appendix`` (A.4/A.5, B.2/B.3: the tournament file's
    ``regulations.appendix``); ``ply`` (plies on the board), ``move`` (the illegal move as sent),
    ``presses`` (the offender's presses counted: one of them pressed without a move)."""

    KEEP = ('add_ms', 'game_lost')

    side: Side
    offence: str
    how: str
    offence_no: int
    to: Side
    add_ms: int = 0
    game_lost: bool = False
    result: str | None = None
    evidence: dict | None = None
    law: str | None = None
    reason: str | None = None
    time_class: str | None = None
    appendix: str | None = None
    ply: int | None = None
    move: str | None = None
    presses: int | None = None


@entry("penalty_withdrawn")
class PenaltyWithdrawn(AboutGame, kw_only=True):
    """A ``penalty_proposed`` withdrawn because it is no longer due; the offence is no longer
    counted (7.5.5: ``GameState.offences``). ``ground``: "stood" (an illegal move the opponent
    played on from in rapid under A.5 or blitz under B.3: FIDE Laws A.5.2 "If the opponent does
    not claim and the arbiter does not intervene, the illegal move shall stand", said by the
    gateway), "arbiter" (the arbiter found no irregularity was completed, e.g. the press was the
    replacement move's, 7.5.1: ``withdraw_penalty``, with ``by``), "replacement" (older logs: the
    gateway withdrew a proposal whose press the record showed to be the replacement move's).

    ``side``, ``offence``, ``how``, ``presses`` (the side's press count the proposal named; None
    for a claim), ``move``: those of the proposal withdrawn; ``offence_no``: its number (the
    offender's count before this withdrawal); ``to``: the opponent the proposal gave the time to;
    ``ply``: plies on the board now; ``law``, ``reason``."""

    KEEP = ('ground',)

    side: Side
    offence: str
    how: str
    offence_no: int
    to: Side
    presses: int | None = None
    move: str | None = None
    ply: int | None = None
    law: str | None = None
    reason: str | None = None
    ground: str = "replacement"
    by: str | None = None


@entry("penalty_in_doubt")
class PenaltyInDoubt(AboutGame, kw_only=True):
    """A ``penalty_proposed`` for a completed illegal move whose press the record can also read as
    the replacement move's (its board message came after the press, and the opponent went on
    before the same side pressed again: ``services.state.fold_penalties``). The proposal stays
    open: whether the illegal move was completed (FIDE Laws 7.5.1: "An illegal move is completed
    once the player has pressed his/her clock"; 7.5.2: a promotion pressed with the pawn still on
    the last rank) is the arbiter's to establish: ``apply_penalty`` or ``withdraw_penalty``.
    ``side``, ``presses``, ``move``: the proposal's; ``ply``: the ply that raised the doubt;
    ``law``, ``reason``."""

    side: Side
    presses: int
    move: str | None = None
    ply: int | None = None
    law: str | None = None
    reason: str | None = None


@entry("armageddon_scheduled")
class ArmageddonScheduled(Setup, Event, kw_only=True):
    """The SETUP of an Armageddon game on the same board after a drawn game (``follows``), as the
    event's regulations say (``rule``)."""


@entry("armageddon_decided")
class ArmageddonDecided(AboutGame, kw_only=True):
    """A drawn Armageddon game scored for Black (draw odds)."""

    KEEP = ('winner', 'result')

    winner: Side = "black"
    result: str = "0-1"


@entry("match_game_ready")
class MatchGameReady(AboutGame, kw_only=True):
    """A checkers match's first game ended; the second waits, its clock paused at the carried times
    (11-Man National 2017 X.A.b): ``white_ms``/``black_ms`` (ms; None without a clock on the board),
    ``ballot`` the second game's (:class:`ThreeMoveBallot`, the first game's with colours reversed)."""

    KEEP = ('game_no', 'white_ms', 'black_ms', 'running')

    match: str | None = None
    follows: str | None = None
    game_no: int = 2
    white: str | None = None
    black: str | None = None
    ballot: ThreeMoveBallot | None = None
    white_ms: int | None = None
    black_ms: int | None = None
    running: Side | None = None


@entry("match_forfeit")
class MatchForfeit(AboutGame, kw_only=True):
    """A flag in a match's first game forfeits the second too (X.A.b)."""

    match: str | None = None
    flagged_in: str | None = None
    side: Side | None = None
    player: str | None = None
    games: list[str] = []
    result: str | None = None


@entry("time_trouble_impending")
class TimeTroubleImpending(AboutGame, kw_only=True):
    """A side's time on a checkers match clock is 5:00 or less (X.A.d), once per side per game."""

    side: Side
    player: str | None = None
    left_ms: int | None = None
    threshold_ms: int | None = None


@entry("late_start_draw")
class LateStartDraw(AboutGame, kw_only=True):
    """A checkers game not started by 30 minutes before its round's end is drawn (X.B.e)."""

    KEEP = ('started_at',)

    round: str | None = None
    round_end_ms: int | None = None
    latest_start_ms: int | None = None
    started_at: int | None = None


@entry("move_timer_warning")
class MoveTimerWarning(AboutGame, kw_only=True):
    """The referee's move timer (X.B.a/c): the warning is due."""

    side: Side | None = None
    timer: str | None = None
    left_ms: int | None = None
    turn_began: int | None = None


@entry("move_timer_forfeit")
class MoveTimerForfeit(AboutGame, kw_only=True):
    """The referee's move timer ran out: the game is lost (X.B.a/c)."""

    side: Side | None = None
    timer: str | None = None
    forfeit_at: int | None = None


@entry("presence_noted")
class PresenceNoted(AboutGame, kw_only=True):
    """A player is at the board, as the gateway learned it from the devices (FIDE Laws 6.7.1 counts
    only the player who is absent): ``side``, ``player``, ``evidence`` ("clock_started": the clock
    was started for the opponent, 6.5; "moved"; "pressed"), ``arrived_at`` (ms)."""

    side: Side
    evidence: str
    player: str | None = None
    arrived_at: int | None = None
    details: dict[str, Any] = {}
