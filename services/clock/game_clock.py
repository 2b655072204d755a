"""A game's chess/checkers clock, fed by timestamped events (FIDE Laws 6; field cases F08-F10).

Pure: no clock reads; every instant is an int of milliseconds passed in (any epoch, the same for
all events of a clock), and events must come in time order. Conventions (docs/clocks.md):

- A side's move number n is its n-th press. A press completes the move (FIDE Laws 6.2.1).
- Credits (``credit="press"``, the default): the increment of the move's period (from its
  ``increment_from_move``) is credited on the press that completes the move, never after a flag
  fell (F08); on the press completing a period's last move the next period's time is added. So
  remaining after a press = before - used + added, the PGN ``%clk`` meaning.
- ``credit="move_start"``: the increment of move n is credited when move n starts (the clock is
  started, or the opponent presses), as DGT clocks do and as the FIDE Glossary words it ("added ...
  before each move"). Remaining after each press is the same as with ``"press"``; the flag falls
  one increment later, and the time shown during a move includes the move's increment. Period
  time is added on the press in both conventions.
- Delay (F09): the ``"simple"`` delay holds the main time for the first ``delay_ms`` of the move;
  ``"bronstein"`` runs the main time and gives back up to ``delay_ms`` on the press. Both leave the
  same time after a press; during the move ``remaining`` shows what each clock displays, and a
  Bronstein clock flags when its display reaches 0. A move's delay is spent once per move: time run
  before a pause counts against it.
- Flag fall (FIDE Laws 6.8): the running side's flag falls the instant its time reaches 0. From that
  instant the clock stands still (the flagged side shows 0, the other side what it had) and any
  press, pause or resume raises ``FlagFallen`` and changes nothing: no increment, no revival (F08).
  Only the arbiter's ``set`` moves a flagged clock on (it leaves it paused).
- A press or pause by a side whose clock is not running raises ``NotRunning`` and is ignored.
- Period time (``period_added``): ``"on_move"`` (default, a move counter) adds the next period's
  time on the press completing the period's last move; ``"on_expiry"`` models a clock that adds it
  when the current period's time runs out (``services.clock.expiry``): there the flag falls only
  when a period runs out before its moves were made (FIDE Laws 6.9) or the last period runs out
  (6.8), and ``expiry_flag`` says which.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass, replace

from services.clock.control import TimeControl
from services.clock.errors import ClockError, FlagFallen, NotRunning
from services.clock.expiry import PERIOD_ADDED_MODES, PERIOD_ON_EXPIRY, PERIOD_ON_MOVE, Expiry, expiries
from services.clock.press import PressResult
from services.rules.base import BLACK, WHITE, other

CREDITS = ("press", "move_start")


@dataclass(frozen=True)
class _State:
    base: tuple[int, int]  # (white, black) ms; the side to move: its time when its move began
    moves: tuple[int, int] = (0, 0)
    started: bool = False
    to_move: str | None = None
    running: bool = False
    since_ms: int = 0  # start of the current running stretch
    move_used_ms: int = 0  # running time of the current move before ``since_ms`` (pauses)
    last_at: int | None = None
    presses: tuple[PressResult, ...] = ()
    expired: tuple[int, int] = (0, 0)  # periods added on expiry so far, per side ("on_expiry")


def _idx(side: str) -> int:
    other(side)  # raises ValueError on a bad side
    return 0 if side == WHITE else 1


def _with(pair: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    """``pair`` (White's, Black's) with item ``i`` (0 White, 1 Black) replaced by ``value``."""
    return (value, pair[1]) if i == 0 else (pair[0], value)


def _check_ms(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int of milliseconds, got {value!r}")


class GameClock:
    """The clock of one game under ``control``.

    ``GameClock(control, white_ms=None, black_ms=None, credit="press", period_added="on_move")``:
    the starting times default to the control's (``TimeControl.starting_ms``); give them to carry
    time over (a match clock) or to start from an arbiter's setting. ``credit``: when the increment
    is credited, one of ``CREDITS``; ``period_added``: when a later period's time is added, one of
    ``expiry.PERIOD_ADDED_MODES`` (module notes). Raises ValueError for an untimed/unknown control,
    a negative time or an unknown ``credit``/``period_added``, TypeError for a time that is not an
    int.

    Events: ``start``, ``press``, ``pause``, ``resume``, ``set``. Queries: ``remaining``,
    ``flag_fall_at``, ``flagged``, ``moves_made``, ``move_used_ms``, ``presses``, ``running``,
    ``to_move``, ``to_json``. ``copy()`` gives an independent clock. Every event takes ``at_ms``
    (int ms, not earlier than the previous event; else ``ClockError``, clock unchanged).
    """

    def __init__(self, control: TimeControl, white_ms: int | None = None,
                 black_ms: int | None = None, credit: str = "press", period_added: str = PERIOD_ON_MOVE):
        if credit not in CREDITS:
            raise ValueError(f"credit must be one of {CREDITS}, got {credit!r}")
        if period_added not in PERIOD_ADDED_MODES:
            raise ValueError(f"period_added must be one of {PERIOD_ADDED_MODES}, got {period_added!r}")
        if not isinstance(control, TimeControl) or not control.timed:
            raise ValueError(f"a clock needs a timed TimeControl, got {control!r}")
        w = control.starting_ms(WHITE) if white_ms is None else white_ms
        b = control.starting_ms(BLACK) if black_ms is None else black_ms
        for name, v in (("white_ms", w), ("black_ms", b)):
            _check_ms(name, v)
            if v < 0:
                raise ValueError(f"{name} must not be negative, got {v}")
        self.control = control
        self.credit = credit
        self.period_added = period_added
        self._on_expiry = period_added == PERIOD_ON_EXPIRY and control.kind == "periods"
        self._s = _State(base=(w, b))

    # ---- queries -------------------------------------------------------------------------

    @property
    def running(self) -> str | None:
        """The side whose clock runs, or None (not started, paused). A flag fall does not change
        it: ask ``flagged(at_ms)``."""
        return self._s.to_move if self._s.running else None

    @property
    def to_move(self) -> str | None:
        """The side whose move is in progress (running or paused), None before the start."""
        return self._s.to_move

    @property
    def started(self) -> bool:
        """True once ``start`` was applied."""
        return self._s.started

    @property
    def presses(self) -> tuple[PressResult, ...]:
        """Every accepted press, in order (the time used per move is ``used_ms``)."""
        return self._s.presses

    @property
    def last_event_ms(self) -> int | None:
        """The instant of the latest applied event, None before any."""
        return self._s.last_at

    def moves_made(self, side: str) -> int:
        """How many moves ``side`` completed: its accepted presses (or the arbiter's count)."""
        return self._s.moves[_idx(side)]

    def move_used_ms(self, at_ms: int) -> int:
        """Running time of the move in progress at ``at_ms`` (0 before the start); stops at the
        flag fall."""
        self._check_at(at_ms)
        return self._used(at_ms)

    def remaining(self, side: str, at_ms: int) -> int:
        """``side``'s time (ms, >= 0) at ``at_ms``, as its clock shows it (see the module notes
        for delays); 0 once its flag fell. Raises ClockError when ``at_ms`` is before the last
        event."""
        i = _idx(side)
        self._check_at(at_ms)
        s = self._s
        if not s.started:
            return s.base[i]
        used = self._used(at_ms)
        if side == s.to_move:
            delay, kind = self._delay()
            spent = max(0, used - delay) if kind == "simple" else used
            return max(0, s.base[i] + self._expired_during(spent)[0] - spent)
        if self.control.kind == "sandclock":
            return s.base[i] + used
        return s.base[i]

    def flag_fall_at(self, at_ms: int | None = None) -> int | None:
        """The instant (ms) the running side's flag falls if it does not press, or None when no
        clock runs. With ``at_ms``: the instant only if it is not later than ``at_ms`` (the flag
        has fallen by then), else None."""
        s = self._s
        if not s.running:
            return None
        instant = s.since_ms + self._flag_used() - s.move_used_ms
        if at_ms is not None:
            _check_ms("at_ms", at_ms)
            if instant > at_ms:
                return None
        return instant

    def flagged(self, at_ms: int) -> str | None:
        """The side whose flag has fallen by ``at_ms`` (its time reached 0 while running), else
        None (FIDE Laws 6.8)."""
        self._check_at(at_ms)
        return self._s.to_move if self.flag_fall_at(at_ms) is not None else None

    def periods_added(self, side: str) -> int:
        """How many periods the clock has added on expiry for ``side`` (``"on_expiry"``; always 0
        with ``"on_move"``, where ``moves_made`` tells the period)."""
        return self._s.expired[_idx(side)]

    def expiry_flag(self, at_ms: int) -> Expiry | None:
        """On an ``"on_expiry"`` clock whose flag has fallen by ``at_ms``: the ``Expiry`` that made it
        fall (``law`` "FIDE Laws 6.9": a period ran out before its moves were made, although such a
        clock shows the next period's time and runs on; "FIDE Laws 6.8": the last period ran out).
        None otherwise."""
        if not self._on_expiry or self.flagged(at_ms) is None:
            return None
        return self._chain()[-1]

    def to_json(self, at_ms: int) -> dict:
        """``{"white_ms", "black_ms", "running", "to_move", "flagged", "flag_fall_at",
        "moves": {"white", "black"}}`` at ``at_ms``."""
        return {"white_ms": self.remaining(WHITE, at_ms), "black_ms": self.remaining(BLACK, at_ms),
                "running": self.running, "to_move": self.to_move,
                "flagged": self.flagged(at_ms), "flag_fall_at": self.flag_fall_at(),
                "moves": {"white": self._s.moves[0], "black": self._s.moves[1]}}

    def __repr__(self) -> str:
        s = self._s
        return (f"GameClock({self.control}, base={s.base}, moves={s.moves}, to_move={s.to_move!r}, "
                f"running={s.running}, credit={self.credit!r})")

    def __eq__(self, other: object) -> bool:
        """Same control, crediting and state (a rebuilt clock model equals the live one)."""
        return (isinstance(other, GameClock) and self.control == other.control and self.credit == other.credit
                and self._s == other._s)

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> GameClock:
        """An independent copy (the state is immutable, so this is cheap)."""
        return _copy.copy(self)

    # ---- events --------------------------------------------------------------------------

    def start(self, at_ms: int, side: str = WHITE) -> None:
        """Start ``side``'s clock at ``at_ms``: White in chess (FIDE Laws 6.5), Black (Red) in
        checkers (ACF/WCDF X.A.d). Raises ClockError when already started."""
        _idx(side)
        self._check_at(at_ms)
        if self._s.started:
            raise ClockError("the clock was already started")
        self._s = replace(self._s, base=self._credit_move_start(self._s.base, self._s.moves, side),
                          started=True, to_move=side, running=True, since_ms=at_ms,
                          move_used_ms=0, last_at=at_ms)

    def press(self, side: str, at_ms: int) -> PressResult:
        """``side`` completes its move by pressing at ``at_ms``; returns the ``PressResult``.

        The move's running time is charged (less the delay, if any), then the increment and any
        next period's time are credited, and the opponent's clock starts. Raises ``FlagFallen``
        when the running side's flag fell at or before ``at_ms`` (nothing credited, F08),
        ``NotRunning`` when ``side``'s clock is not running (paused, not started, or the opponent's
        runs); in both cases the clock is unchanged.
        """
        i = _idx(side)
        self._check_at(at_ms)
        self._check_flag(at_ms, "press")
        s = self._s
        if not s.running:
            raise NotRunning(f"{side} pressed but no clock runs ("
                             f"{'paused' if s.started else 'not started'})")
        if side != s.to_move:
            raise NotRunning(f"{side} pressed while {s.to_move}'s clock runs; ignored")
        used = self._used(at_ms)
        delay, kind = self._delay()
        spent = max(0, used - delay) if kind else used
        number = s.moves[i] + 1
        increment, period = self.control.added_on_press(side, number)
        expired = s.expired
        if self._on_expiry:
            period, count = self._expired_during(spent)  # not on the press: when they ran out
            expired = _with(expired, i, expired[i] + count)
        credited_now = increment if self.credit == "press" else 0  # else given at the move's start
        left = s.base[i] - spent + credited_now + period
        base = _with(s.base, i, left)
        if self.control.kind == "sandclock":
            base = _with(base, 1 - i, base[1 - i] + used)
        moves = _with(s.moves, i, number)
        base = self._credit_move_start(base, moves, other(side))
        result = PressResult(side=side, move_number=number, at_ms=at_ms, used_ms=used,
                             increment_ms=increment, period_ms=period, remaining_ms=left)
        self._s = replace(s, base=base, moves=moves, to_move=other(side),
                          since_ms=at_ms, move_used_ms=0, last_at=at_ms,
                          presses=s.presses + (result,), expired=expired)
        return result

    def pause(self, at_ms: int) -> None:
        """Stop the running clock at ``at_ms`` (arbiter, FIDE Laws 6.11; ACF/WCDF X.A.f). Raises
        ``NotRunning`` when no clock runs, ``FlagFallen`` after a flag fall."""
        self._check_at(at_ms)
        self._check_flag(at_ms, "pause")
        s = self._s
        if not s.running:
            raise NotRunning("pause, but no clock runs")
        self._s = replace(s, running=False, move_used_ms=self._used(at_ms), last_at=at_ms)

    def resume(self, at_ms: int) -> None:
        """Restart the paused side's clock at ``at_ms``. Raises ClockError when the clock was
        never started or already runs."""
        self._check_at(at_ms)
        s = self._s
        if not s.started:
            raise ClockError("resume, but the clock was never started")
        if s.running:
            raise ClockError(f"resume, but {s.to_move}'s clock already runs")
        self._s = replace(s, running=True, since_ms=at_ms, last_at=at_ms)

    def set(self, white_ms: int, black_ms: int, at_ms: int, *, white_moves: int | None = None,
            black_moves: int | None = None) -> None:
        """The arbiter sets both clocks at ``at_ms`` (FIDE Laws 6.10.2, 7.5.5 +2 min, 6.11.1 and
        the like): from ``at_ms`` White has ``white_ms`` and Black ``black_ms``; move counters are
        changed only when given. A running clock keeps running (the move in progress starts its
        delay afresh); a clock stopped by a flag fall is left paused for the arbiter to resume.
        Raises ValueError/TypeError on a bad value, ClockError on an earlier instant."""
        for name, v in (("white_ms", white_ms), ("black_ms", black_ms)):
            _check_ms(name, v)
            if v < 0:
                raise ValueError(f"{name} must not be negative, got {v}")
        for name, count in (("white_moves", white_moves), ("black_moves", black_moves)):
            if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
                raise ValueError(f"{name} must be an int >= 0, got {count!r}")
        self._check_at(at_ms)
        s = self._s
        running = s.running and self.flag_fall_at(at_ms) is None
        moves = (s.moves[0] if white_moves is None else white_moves,
                 s.moves[1] if black_moves is None else black_moves)
        self._s = replace(s, base=(white_ms, black_ms), moves=moves, running=running,
                          since_ms=at_ms, move_used_ms=0, last_at=at_ms)

    # ---- internals -----------------------------------------------------------------------

    def _check_at(self, at_ms: int) -> None:
        _check_ms("at_ms", at_ms)
        last = self._s.last_at
        if last is not None and at_ms < last:
            raise ClockError(f"instant {at_ms} ms is before the last event at {last} ms")

    def _check_flag(self, at_ms: int, what: str) -> None:
        fell = self.flag_fall_at(at_ms)
        if fell is not None:
            side = self._mover()
            raise FlagFallen(side, fell, f"{what} at {at_ms} ms, but {side}'s flag fell at "
                                         f"{fell} ms (FIDE Laws 6.8); nothing changed")

    def _credit_move_start(self, base: tuple[int, int], moves: tuple[int, int], side: str
                           ) -> tuple[int, int]:
        """``base`` with ``side``'s increment for its next move added, under ``"move_start"``."""
        if self.credit != "move_start":
            return base
        i = _idx(side)
        increment, _ = self.control.added_on_press(side, moves[i] + 1)
        return (base[0] + increment, base[1]) if i == 0 else (base[0], base[1] + increment)

    def _mover(self) -> str:
        """The side whose clock runs or last ran; asked only after ``start`` (which sets it)."""
        side = self._s.to_move
        assert side is not None, "the clock was never started"
        return side

    def _delay(self) -> tuple[int, str | None]:
        side = self._mover()
        return self.control.delay_of_move(side, self._s.moves[_idx(side)] + 1)

    def _flag_used(self) -> int:
        """The move's running time at which the side to move reaches 0 (on an ``"on_expiry"``
        clock: when the last period it can reach runs out)."""
        s = self._s
        delay, kind = self._delay()
        base = self._chain()[-1].spent_ms if self._on_expiry else s.base[_idx(self._mover())]
        return base + delay if kind == "simple" else base

    def _chain(self) -> list[Expiry]:
        """The periods that run out during the move in progress (``expiry.expiries``)."""
        s, side = self._s, self._mover()
        i = _idx(side)
        return expiries(self.control, side, s.base[i], s.moves[i], s.expired[i])

    def _expired_during(self, spent: int) -> tuple[int, int]:
        """``(time added, periods added)`` on an ``"on_expiry"`` clock by the periods that ran out,
        in time, within ``spent`` ms of the move in progress; (0, 0) otherwise."""
        if not self._on_expiry:
            return 0, 0
        added = count = 0
        for expiry in self._chain():
            if not expiry.in_time or expiry.spent_ms > spent:
                break
            added += expiry.added_ms
            count += 1
        return added, count

    def _used(self, at_ms: int) -> int:
        s = self._s
        if not s.started:
            return 0
        used = s.move_used_ms + (at_ms - s.since_ms if s.running else 0)
        return min(used, self._flag_used()) if s.running else used
