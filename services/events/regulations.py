"""Entries the event's regulations write in answer to the hall (docs/events.md "From the event's
regulations"). Each carries ``game``, ``board`` and ``rule``: the words of the regulation applied,
taken from the tournament file (so a new event's audit trail cites its own regulations)."""

from __future__ import annotations

from typing import Any

from .base import Event, Side, entry
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
    (11-Man National 2017 X.A.b)."""

    KEEP = ('game_no', 'white_ms', 'black_ms', 'running')

    match: str | None = None
    follows: str | None = None
    game_no: int = 2
    white: str | None = None
    black: str | None = None
    ballot: dict | None = None
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
