"""Default time: who loses a game by not being at the board in time (FIDE Laws 6.7).

Laws 6.7.1: "The regulations of an event shall specify a default time in advance. If the default
time is not specified, then it is zero. Any player who arrives at the chessboard after the default
time shall lose the game unless the arbiter decides otherwise." The default time counts from the
scheduled start of play, never from a player's own clock start (field case F10 (c)).

A player counts as present from the earliest of: the arbiter's check-in (``player_arrived``) or
the player's own first move or clock press. Pure: every instant is passed in, in ms.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.base import BLACK, WHITE


@dataclass(frozen=True)
class DefaultVerdict:
    """Who lost by default: ``side`` is "white", "black" or "both"; ``result`` the score written
    for an unplayed game ("0-1", "1-0" or "0-0", with ``forfeit`` true: TRF ``-``/``+``);
    ``deadline_ms`` the last instant a player could still arrive (scheduled start + default time)."""

    side: str
    result: str
    deadline_ms: int

    def to_json(self) -> dict:
        return {"side": self.side, "result": self.result, "forfeit": True, "deadline_ms": self.deadline_ms}


def deadline(scheduled_start_ms: int, default_time_ms: int) -> int:
    """The last instant at which arriving is in time: start + default time (Laws 6.7.1)."""
    return scheduled_start_ms + default_time_ms


def is_late(arrived_ms: int | None, scheduled_start_ms: int, default_time_ms: int, now_ms: int) -> bool:
    """True when a player has arrived after the default time, or has not arrived and it has passed.
    F10 (b): start 14:00:00, default 30 min: arriving 14:29:59 is in time, 14:30:01 is late."""
    limit = deadline(scheduled_start_ms, default_time_ms)
    if arrived_ms is None:
        return now_ms > limit
    return arrived_ms > limit


def default_verdict(scheduled_start_ms: int, default_time_ms: int, now_ms: int,
                    white_arrived_ms: int | None, black_arrived_ms: int | None) -> DefaultVerdict | None:
    """The default loss due now, if any. Both absent: both lose (a 0-0 double forfeit, unplayed for
    both; F10 (d)). Returns None while nobody is in default. The arbiter may overrule (6.7.1)."""
    white_late = is_late(white_arrived_ms, scheduled_start_ms, default_time_ms, now_ms)
    black_late = is_late(black_arrived_ms, scheduled_start_ms, default_time_ms, now_ms)
    limit = deadline(scheduled_start_ms, default_time_ms)
    if white_late and black_late:
        return DefaultVerdict("both", "0-0", limit)
    if white_late:
        return DefaultVerdict(WHITE, "0-1", limit)
    if black_late:
        return DefaultVerdict(BLACK, "1-0", limit)
    return None


def not_at_board_at_start(scheduled_start_ms: int, arrived_ms: int | None, now_ms: int) -> bool:
    """True once the scheduled start has passed and the player was not at the board then (US 2023
    rule 1: "Players not at their board at the beginning of each round may receive a fine")."""
    if arrived_ms is None:
        return now_ms > scheduled_start_ms
    return arrived_ms > scheduled_start_ms


def default_due_at(scheduled_start_ms: int, default_time_ms: int, white_arrived_ms: int | None,
                   black_arrived_ms: int | None) -> int | None:
    """The earliest instant (ms) at which time alone can change ``default_verdict`` for these
    arrivals: one ms past the deadline (``is_late`` is strict: arriving at the deadline is in time)
    while a player has not arrived; None once both have (their verdict no longer depends on the
    time: only an arrival or the arbiter changes it). Laws 6.7.1."""
    if white_arrived_ms is None or black_arrived_ms is None:
        return deadline(scheduled_start_ms, default_time_ms) + 1
    return None


def fine_due_at(scheduled_start_ms: int, arrived_ms: int | None) -> int | None:
    """The earliest instant (ms) at which ``not_at_board_at_start`` can turn true by time alone:
    one ms past the scheduled start for a player not arrived; None for a player arrived (then it
    is settled by the arrival). US 2023 rule 1."""
    return scheduled_start_ms + 1 if arrived_ms is None else None
