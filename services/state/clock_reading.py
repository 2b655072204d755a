"""A clock reading as the state keeps it (``GameState.clock``: :class:`ClockShown`), and stopping
it. All figures are milliseconds; nothing here reads a clock."""

from __future__ import annotations

import msgspec

from services.events.base import Side


class ClockShown(msgspec.Struct, frozen=True, kw_only=True):
    """The clock device's latest reading of a game as the spectators' GAME shows it (``clock``:
    ``{"white_ms", "black_ms", "running", "at"}``, README "Dashboard API"; every field always
    written): ``white_ms``/``black_ms`` (ms on each side's clock), ``running`` (the side whose time
    runs; None: stopped), ``at`` (ms since the Unix epoch: when the reading was true,
    ``services.clock.instant``). Frozen: a change is a new reading (``msgspec.structs.replace``)."""

    white_ms: int
    black_ms: int
    running: Side | None = None
    at: int

    def side_ms(self, side: str) -> int:
        """``side``'s figure (ms)."""
        return self.white_ms if side == "white" else self.black_ms

    def as_json(self) -> dict:
        """The reading as the API and the websocket send it (a new dict, every field)."""
        return msgspec.structs.asdict(self)


def frozen_clock(clock: ClockShown, at: int) -> ClockShown:
    """The clock stopped at ``at`` (ms): the running side's time less what elapsed since the
    reading (never below 0), and ``running`` None, so browsers stop counting down."""
    side = clock.running
    if side == "white":
        return ClockShown(white_ms=max(0, clock.white_ms - max(0, at - clock.at)), black_ms=clock.black_ms, at=at)
    if side == "black":
        return ClockShown(white_ms=clock.white_ms, black_ms=max(0, clock.black_ms - max(0, at - clock.at)), at=at)
    return ClockShown(white_ms=clock.white_ms, black_ms=clock.black_ms, at=at)
