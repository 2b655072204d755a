"""A time control: the periods of each side (FIDE Laws 6.1, 6.2), or PGN's special kinds.

``TimeControl`` is a frozen value. Kinds (PGN standard 9.6.1 has a notation for each):

- ``"periods"``: per side a tuple of ``Period``; White and Black may differ (Armageddon);
- ``"sandclock"``: an hourglass: the time one side uses is added to the other's (PGN ``*600``);
- ``"untimed"``: no time control (PGN ``-``);
- ``"unknown"``: not known (PGN ``?``).

Period reading: only the last period may be for the rest of the game (``moves=None``). When the last
period has a move count, it repeats (as in the traditional "then 20 moves per hour" secondary
control); the PGN standard does not say, so this is the package's reading, stated in docs/clocks.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.clock.period import Period
from services.clock.pgn import format_time_control, read_time_control
from services.rules.base import BLACK, WHITE

KINDS = ("periods", "sandclock", "untimed", "unknown")


@dataclass(frozen=True)
class TimeControl:
    """The time control of a game.

    - ``white``, ``black``: tuples of ``Period`` (kind ``"periods"``); for ``"sandclock"`` one
      ``Period(None, total_ms)`` each (the whole sandclock, as in PGN ``*total``); empty for
      ``"untimed"`` and ``"unknown"``.
    - ``kind``: one of ``KINDS``.
    - ``carries_over``: a match clock: the time left at the end of a game is the time for the
      match's next game, unreset (ACF/WCDF 11-Man National 2017, X.A.b); see
      ``services.clock.match.carry_over``.

    Raises ValueError on a malformed control (no periods, a rest-of-game period that is not last,
    periods given for ``untimed``/``unknown``, a sandclock with an increment or differing sides).
    """

    white: tuple[Period, ...]
    black: tuple[Period, ...]
    kind: str = "periods"
    carries_over: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", tuple(self.white))
        object.__setattr__(self, "black", tuple(self.black))
        if self.kind not in KINDS:
            raise ValueError(f"TimeControl.kind must be one of {KINDS}, got {self.kind!r}")
        if self.kind in ("untimed", "unknown"):
            if self.white or self.black:
                raise ValueError(f"a {self.kind!r} control has no periods")
            return
        for side, periods in ((WHITE, self.white), (BLACK, self.black)):
            if not periods:
                raise ValueError(f"{side} has no time-control period")
            for p in periods:
                if not isinstance(p, Period):
                    raise ValueError(f"{side}: not a Period: {p!r}")
            if any(p.moves is None for p in periods[:-1]):
                raise ValueError(f"{side}: only the last period may be for the rest of the game")
        if self.kind == "sandclock":
            p = self.white[0]
            if (self.white != self.black or len(self.white) != 1 or p.moves is not None
                    or p.increment_ms or p.delay_ms):
                raise ValueError("a sandclock is one rest-of-game period, the same for both sides")

    @classmethod
    def symmetric(cls, *periods: Period, carries_over: bool = False) -> TimeControl:
        """The same ``periods`` for White and Black."""
        return cls(tuple(periods), tuple(periods), carries_over=carries_over)

    @classmethod
    def per_side(cls, white: Period | tuple[Period, ...], black: Period | tuple[Period, ...]
                 ) -> TimeControl:
        """Different periods per side (Armageddon); a single Period may be given for a side."""
        w = (white,) if isinstance(white, Period) else tuple(white)
        b = (black,) if isinstance(black, Period) else tuple(black)
        return cls(w, b)

    @classmethod
    def sandclock(cls, total_ms: int) -> TimeControl:
        """An hourglass of ``total_ms`` with equal sand in each chamber (PGN standard 9.6.1 ``*``)."""
        if total_ms <= 0:
            raise ValueError("a sandclock needs a positive total time")
        p = Period(None, total_ms)
        return cls((p,), (p,), kind="sandclock")

    @classmethod
    def untimed(cls) -> TimeControl:
        """No time control (PGN ``-``)."""
        return cls((), (), kind="untimed")

    @classmethod
    def unknown(cls) -> TimeControl:
        """Time control not known (PGN ``?``)."""
        return cls((), (), kind="unknown")

    @classmethod
    def parse_pgn(cls, text: str) -> TimeControl:
        """Read PGN TimeControl notation (PGN standard 9.6.1), e.g. ``"40/5400+30:1800+30"``,
        ``"300+2"``, ``"?"``, ``"-"``, ``"*60"``. Raises ``TimeControlSyntaxError``."""
        kind, periods = read_time_control(text)
        return cls(periods, periods, kind=kind)

    def to_pgn(self) -> str:
        """Write PGN TimeControl notation. Raises ``NotExpressibleInPgn`` (with the reason) when the
        notation cannot say it: sides differ, an increment from a move other than 1, a delay,
        fractions of a second, a match clock."""
        return format_time_control(self)

    @property
    def timed(self) -> bool:
        """True for ``"periods"`` and ``"sandclock"``: a clock can run it."""
        return self.kind in ("periods", "sandclock")

    def periods(self, side: str) -> tuple[Period, ...]:
        """The periods of ``side``; raises ValueError for a bad side."""
        if side == WHITE:
            return self.white
        if side == BLACK:
            return self.black
        raise ValueError(f"not a side: {side!r}")

    def starting_ms(self, side: str) -> int:
        """The time ``side`` starts with (ms): the first period's time, half the sandclock.
        Raises ValueError for an untimed or unknown control."""
        self._require_timed()
        if self.kind == "sandclock":
            return self.white[0].time_ms // 2
        return self.periods(side)[0].time_ms

    def period_of_move(self, side: str, move_number: int) -> tuple[int, Period, bool]:
        """Where ``side``'s move ``move_number`` (>= 1) falls: ``(index, period, last_of_period)``.
        ``index`` counts periods from 0 and keeps counting when the last period repeats;
        ``last_of_period`` is True when the move completes its period (the next period's time is
        then added on its press)."""
        self._require_timed()
        if move_number < 1:
            raise ValueError(f"moves count from 1, got {move_number}")
        periods = self.periods(side)
        start = 0  # moves made before the period
        index = 0
        while True:
            p = periods[min(index, len(periods) - 1)]
            if p.moves is None:
                return index, p, False
            if move_number <= start + p.moves:
                return index, p, move_number == start + p.moves
            start += p.moves
            index += 1

    def added_on_press(self, side: str, move_number: int) -> tuple[int, int]:
        """``(increment_ms, period_ms)`` credited on the press completing ``side``'s move
        ``move_number``: the increment of the move's period (from its ``increment_from_move``) and,
        when the move completes its period, the next period's time (FIDE Laws 6.1, 6.2)."""
        if self.kind == "sandclock":
            return 0, 0
        index, p, last = self.period_of_move(side, move_number)
        nxt = 0
        if last:
            periods = self.periods(side)
            nxt = periods[min(index + 1, len(periods) - 1)].time_ms
        return p.increment_on(move_number), nxt

    def delay_of_move(self, side: str, move_number: int) -> tuple[int, str | None]:
        """``(delay_ms, delay_kind)`` of ``side``'s move ``move_number`` (F09)."""
        if self.kind == "sandclock":
            return 0, None
        _, p, _ = self.period_of_move(side, move_number)
        return p.delay_ms, p.delay_kind

    def _require_timed(self) -> None:
        if not self.timed:
            raise ValueError(f"a {self.kind!r} time control has no clock times")

    def __str__(self) -> str:
        try:
            return self.to_pgn()
        except ValueError:
            return repr(self)


