"""Does the clock agree with the board and with the time control? (DESIGN.md: arbiters must be told
"a clock and its board disagree".)

The device clock is authoritative for the time shown; the gateway keeps its own model of the time
control (``services.clock.GameClock``) fed with the device's events at the gateway's instants, and
reports, once per discrepancy:

- ``time``: after a press, the device's figure for the side that pressed is more than the
  tolerance (2 s by default) from the model's;
- ``move_counter``: that difference is a later period's added time: the clock's move counter is off,
  so the period's time landed after the wrong move (FIDE Laws 6.10: the arbiter corrects it);
- ``press_without_move``: a side pressed more often than it moved (beyond a grace period, since the
  board's and the clock's messages travel separately);
- ``move_without_press``: a side moved and did not press (FIDE Laws 6.2.1: a move is completed by
  pressing the clock) beyond the grace period.

After a ``time``/``move_counter`` report the model takes the device's figures, so one fault is
reported once.

Clocks that add the next period when the current one runs out (``period_added="on_expiry"``, the
tournament file's ``regulations.period_added``; ``services.clock.expiry``) show no added time at
the period's last move: the model is such a clock too, so no ``move_counter`` is reported for them
(a later period's time as a difference is then a ``time`` difference). A press that completed no
move (FIDE Laws 7.5.1, 7.5.3: the gateway proposes the penalty) is taken back with ``void_press``.

When the clock starts (checkers, 11-Man National 2017 X.A.d): by default "As the game starts,
Red's clock is started, Red's first balloted move is made, Red's clock is stopped, and White's is
automatically started, etc.": the model starts with the device's ``start``. ``untimed_plies`` (3
with the event's ``ballot_moves_before_clock``): "the three balloted moves may be played prior to
starting white's clock for white's second move": the model charges nothing for them. It starts
with a device ``start`` made after them, or, when the device clock already ran during them (the
event's setting not followed), at the instant the last of them is played, for the side to move;
the device's figures then show the balloted time as a ``time`` difference. ``rate`` scales the gateway's instants for a replay running faster than real time.

Each clock event is judged at the instant it was made (``services.clock.instant``: the device's
``sent_at`` when it is believed, else the instant the gateway read it), not when the gateway applied
it. An event read after an outage without a believable ``sent_at`` is known only within a window
``[earliest_ms, at_ms]``: the model takes it at ``at_ms`` (the latest instant it can have been
made), so a press can have been charged up to the window's width (its ``doubt``) too much: the
device may show that much more than the model, never less. Once such an event is folded the model
takes the device's figures (the device clock is authoritative), and the clock then running may have
started up to the window's width earlier than the model has it: its next press may show that much
less. Only what no instant of the window explains is reported; a clock really off by more than the
tolerance beyond the window is still reported.
Pure: every instant is passed in (ms).
"""

from __future__ import annotations

from services.clock import ClockError, GameClock, TimeControl
from services.clock.expiry import PERIOD_ON_EXPIRY, PERIOD_ON_MOVE
from services.clock.reading import clock_text
from services.events.tournament import Setup
from services.events.vocabulary import Variant
from services.rules.base import BLACK, SIDES, WHITE, other

GRACE_MS = 5000
# A replay at ``rate`` x turns every ms of message and scheduling jitter into ``rate`` ms of game
# time: 40 ms of jitter at 60x is 2.4 s, past the 2 s tolerance, and a demo's console filled with
# false disagreements. A replay's tolerance therefore also allows this much wall-clock jitter.
REPLAY_JITTER_MS = 100


MISMATCHES = ("press_without_move", "move_without_press")  # the kinds of finding ``tick`` reports
_MARKS = tuple((side, ("press_without_move", side), ("move_without_press", side)) for side in SIDES)


class ClockWatch:
    """One game's checks. ``control``: the model's time control (None when unknown: then only the
    press/move counts are checked); ``tolerance_ms`` (game time; a replay faster than real time adds
    ``REPLAY_JITTER_MS`` of wall-clock jitter, scaled); ``rate``: replay speed (1 in a real hall);
    ``check_counts``: False where moves may be made before the clock starts (checkers ballots);
    ``first_side``: who makes ply 1 (checkers: Black); ``untimed_plies``: plies played before the
    clock starts (0, or 3 for the checkers ballot under X.A.d's alternative); ``period_added``:
    "on_move" (a move counter) or "on_expiry" (``services.clock.expiry``)."""

    def __init__(self, control: TimeControl | None, tolerance_ms: int = 2000, rate: float = 1.0,
                 check_counts: bool = True, grace_ms: int = GRACE_MS, first_side: str = WHITE,
                 untimed_plies: int = 0, period_added: str = PERIOD_ON_MOVE):
        self.period_added = period_added
        self.control = control if control is not None and control.timed else None
        self.model = GameClock(self.control, period_added=period_added) if self.control is not None else None
        self.tolerance = tolerance_ms + (int(REPLAY_JITTER_MS * (rate - 1)) if rate > 1 else 0)
        self.rate = rate
        self.check_counts = check_counts
        self.grace = grace_ms
        self.moves = {WHITE: 0, BLACK: 0}
        self.presses = {WHITE: 0, BLACK: 0}
        self.since: dict[tuple[str, str], int] = {}
        self.first_side = first_side
        self.untimed = untimed_plies
        self.plies = 0
        self.ran_early: str | None = None  # the side the device clock ran for during the untimed plies
        # game ms the running clock may have started earlier than the model has it (an event read
        # late, judged at the latest instant of its window): its next press may show that much less
        self.doubt = 0

    def _t(self, at_ms: int) -> int:
        return int(at_ms * self.rate)

    # -- events ------------------------------------------------------------------------------
    def on_move(self, mover: str, at_ms: int) -> None:
        """A ply on the board by ``mover`` at ``at_ms``."""
        self.moves[mover] += 1
        self.plies += 1
        self._mark(at_ms)
        m = self.model
        if self.plies == self.untimed and self.ran_early and m is not None and not m.started:
            m.start(self._t(at_ms), other(mover))  # X.A.d alternative: the clock starts for White's 2nd move

    def _to_move(self) -> str:
        return self.first_side if self.plies % 2 == 0 else other(self.first_side)

    def _mismatches(self):
        for side in SIDES:
            yield ("press_without_move", side), self.presses[side] > self.moves[side]
            yield ("move_without_press", side), self.moves[side] > self.presses[side]

    def _mark(self, at_ms: int) -> None:
        """Note when each press/move count mismatch began (the grace period runs from then): the
        keys of ``_mismatches``, in its order, written out (once a ply and once a press)."""
        since, presses, moves = self.since, self.presses, self.moves
        for side, early, late in _MARKS:
            pressed, moved = presses[side], moves[side]
            if pressed > moved:
                since.setdefault(early, at_ms)
            else:
                since.pop(early, None)
            if moved > pressed:
                since.setdefault(late, at_ms)
            else:
                since.pop(late, None)

    def on_clock(self, event: str, white_ms: int | None, black_ms: int | None, running: str | None,
                 at_ms: int, made_ms: int | None = None, earliest_ms: int | None = None) -> list[dict]:
        """Fold one device clock event (``start``/``press``/``pause``/``resume``/``set``) with the
        device's figures, applied at ``at_ms`` (the grace periods run from then, as the board's
        moves' do) and made at ``made_ms`` (default ``at_ms``) or, when the instant is known only
        within a window, at any instant from ``earliest_ms`` to ``made_ms`` (the module's notes);
        returns the discrepancies found (dicts with ``kind`` and evidence)."""
        out: list[dict] = []
        made = at_ms if made_ms is None else made_ms
        t = self._t(made)
        window = t - self._t(earliest_ms) if earliest_ms is not None and earliest_ms < made else 0
        m = self.model
        if self.plies < self.untimed:
            # X.A.d alternative: the balloted moves are played before the clock starts; nothing is
            # charged for them, whatever the device clock does meanwhile.
            self.ran_early = running if event in ("start", "press", "resume") and running in SIDES else None
            return out
        try:
            if event == "start" and m is not None and not m.started:
                m.start(t, running if running in SIDES else self._to_move())
            elif event == "press" and running in SIDES:
                presser = other(running)
                self.presses[presser] += 1
                self._mark(at_ms)
                if m is not None and m.started and m.to_move == presser:
                    res = m.press(presser, t)
                    device = white_ms if presser == WHITE else black_ms
                    if isinstance(device, int):
                        out += self._compare(m.control, presser, res.move_number, device, res.remaining_ms,
                                             more=window, less=self.doubt)
                    if (out or window or self.doubt) and isinstance(white_ms, int) and isinstance(black_ms, int):
                        m.set(white_ms, black_ms, t)  # the model's figures were not exact: the device's
            elif event == "pause" and m is not None and m.running:
                m.pause(t)
                if (window or self.doubt) and isinstance(white_ms, int) and isinstance(black_ms, int):
                    m.set(white_ms, black_ms, t)  # stopped: the device's figures are exact again
            elif event == "resume" and m is not None and m.started and not m.running:
                m.resume(t)
            elif event == "set" and m is not None and isinstance(white_ms, int) and isinstance(black_ms, int):
                m.set(white_ms, black_ms, t)
        except ClockError:
            # The model cannot follow (a flag fell, an instant out of order): take the device's word.
            if m is not None and isinstance(white_ms, int) and isinstance(black_ms, int):
                try:
                    m.set(white_ms, black_ms, max(t, m.last_event_ms or t))
                except (ClockError, ValueError):
                    pass
        if event in ("start", "press", "pause", "resume", "set"):
            self.doubt = window if m is not None and m.running else 0
        return out

    def carry(self, white_ms: int, black_ms: int) -> None:
        """A match clock's next game (checkers 2017 X.A.b: "the clock times shall not be reset
        prior to the second game"): before the clock starts, the model takes these starting
        figures (ms) instead of the control's. Ignored once the clock has started, or untimed."""
        if self.model is not None and not self.model.started:
            self.model = GameClock(self.model.control, white_ms=white_ms, black_ms=black_ms,
                                   period_added=self.period_added)

    def remaining(self, side: str, at_ms: int) -> int | None:
        """``side``'s time (ms) in the model at the gateway's instant ``at_ms``; None when there is
        no timed model or ``at_ms`` is before the model's last event."""
        if self.model is None:
            return None
        try:
            return self.model.remaining(side, self._t(at_ms))
        except (ClockError, ValueError):
            return None

    def when_left(self, side: str, left_ms: int, now_ms: int) -> int | None:
        """The earliest gateway instant (ms, ``now_ms`` when it is so already) at which ``side``'s
        time in the model can be ``left_ms`` or less, with no event shown meanwhile; None when only
        an event can bring it there (no timed model, or ``side``'s clock not running: a stopped
        clock's time stands still, a sand clock's waiting side gains).

        A running clock loses at most one ms of game time per ms (``rate`` ms per gateway ms), so
        ``remaining - left_ms`` of game time must pass first: the instant is exact for a clock
        without delay, and earlier than the truth under a delay (which holds the time first) or a
        period added on expiry (which adds time): asked again then, it answers again. Before the
        model's last event (``remaining`` is None then) it answers the instant that event's time is
        reached."""
        m = self.model
        if m is None:
            return None
        t = self._t(now_ms)
        last = m.last_event_ms
        if last is not None and t < last:
            return self.instant_of(last)
        try:
            left = m.remaining(side, t)
        except (ClockError, ValueError):
            return now_ms  # the model cannot say: look at every tick, as before
        if left <= left_ms:
            return now_ms
        if m.running != side:
            return None
        return self.instant_of(t + left - left_ms)

    def instant_of(self, game_ms: int) -> int:
        """The first gateway instant (ms) whose game time (``int(at_ms * rate)``, the model's
        clock) is ``game_ms`` or later."""
        n = game_ms if self.rate == 1 else int(game_ms / self.rate) + 1
        while self._t(n - 1) >= game_ms:  # float rounding: step back to the first one
            n -= 1
        while self._t(n) < game_ms:
            n += 1
        return n

    def adjust(self, white_ms: int, black_ms: int, at_ms: int) -> None:
        """An arbiter's clock adjustment: the model takes the new figures."""
        if self.model is not None and self.model.started:
            try:
                self.model.set(white_ms, black_ms, max(self._t(at_ms), self.model.last_event_ms or 0))
            except (ClockError, ValueError):
                pass

    def void_press(self, side: str, at_ms: int) -> None:
        """``side``'s latest press completed no move (FIDE Laws 7.5.1, 7.5.3; the penalty is
        proposed): it no longer counts against the side's moves."""
        if self.presses[side] > 0:
            self.presses[side] -= 1
        self._mark(at_ms)

    def _compare(self, control: TimeControl, side: str, move_number: int, device_ms: int,
                 model_ms: int, more: int = 0, less: int = 0) -> list[dict]:
        """The finding, if any, for ``side``'s press: the device's figure ``device_ms`` against the
        model's ``model_ms``, which may be up to ``more`` ms below the truth (the press known only
        within a window) or ``less`` ms above it (the clock started within one): the difference
        reported is from the nearest figure the model allows."""
        if -less <= device_ms - model_ms <= more:
            model_ms = device_ms
        else:
            model_ms += more if device_ms > model_ms else -less
        diff = device_ms - model_ms
        if abs(diff) <= self.tolerance:
            return []
        kind = "time"
        counter = self.period_added != PERIOD_ON_EXPIRY  # such a clock has no move counter
        for p in control.periods(side)[1:] if counter else ():
            if abs(abs(diff) - p.time_ms) <= self.tolerance:
                kind = "move_counter"
        detail = (f"{side}'s clock shows {clock_text(device_ms)} after move {move_number}; "
                  f"the time control gives {clock_text(model_ms)} ({abs(diff) / 1000:.1f} s apart)")
        if kind == "move_counter":
            detail += " (a period's added time landed after the wrong move: the move counter is off)"
        return [{"kind": kind, "side": side, "move_number": move_number, "device_ms": device_ms,
                 "model_ms": model_ms, "difference_ms": diff, "detail": detail}]

    def tick(self, now_ms: int, reported: set | frozenset = frozenset()) -> list[dict]:
        """Count mismatches that have lasted past the grace period, each once: ``reported`` holds
        the ``(kind, side, count)`` already reported (the fold of ``clock_disagreement`` entries:
        the watch itself changes only by the events it is shown)."""
        if not self.check_counts or not self.since:  # no mismatch open (``_mark``): nothing can be due
            return []
        out = []
        for key, bad in self._mismatches():
            kind, side = key
            if bad and key in self.since:
                first = self.since[key]
                count = self.presses[side] if kind == "press_without_move" else self.moves[side]
                if now_ms - first >= self.grace and (kind, side, count) not in reported:
                    what = ("pressed the clock without a move on the board" if kind == "press_without_move"
                            else "moved on the board without pressing the clock (FIDE Laws 6.2.1)")
                    out.append({"kind": kind, "side": side, "moves": self.moves[side],
                                "presses": self.presses[side], "detail": f"{side} {what}"})
        return out

    def next_due(self, reported: set | frozenset = frozenset(), kinds: tuple[str, ...] = MISMATCHES) -> int | None:
        """The earliest ``now_ms`` at which ``tick`` can report a mismatch of one of ``kinds`` not
        yet reported (its grace run out), or None when none is open: only an event shown to the
        watch (or a report added to ``reported``) can change that. Lets a timer look at a game
        only then; ``kinds``: those the timer acts on (a past instant when one is due unreported)."""
        if not self.check_counts or not self.since:
            return None
        first = None
        for key, bad in self._mismatches():
            kind, side = key
            if bad and key in self.since and kind in kinds:
                count = self.presses[side] if kind == "press_without_move" else self.moves[side]
                if (kind, side, count) not in reported:
                    at = self.since[key] + self.grace
                    first = at if first is None else min(first, at)
        return first

    def __eq__(self, other: object) -> bool:
        """Two watches are equal when they were shown the same events (tests compare a gateway's
        state rebuilt from the log with the live one)."""
        return isinstance(other, ClockWatch) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]


def watch_for(setup: Setup, first_side: str, tournament, rate: float = 1.0) -> ClockWatch:
    """The clock model of a game from its SETUP (``time_control``, else the tournament file's
    control of its ``kind``), with the file's tolerance (``tournament``: a ``Tournament`` or None:
    then only a SETUP's own control is modelled, with the default tolerance). Checkers: counts are
    not checked (moves may precede the clock) and, when the event plays the three balloted moves
    before the clock (X.A.d), those plies are untimed. The file's ``period_added`` says when the
    clocks add a later period's time."""
    from services.regulations.controls import control_of

    regs = tournament.regulations if tournament is not None else None
    control = control_of(setup, tournament)
    checkers = setup.variant == Variant.CHECKERS
    untimed = 3 if (checkers and regs is not None and regs.ballot_moves_before_clock
                    and not setup.fen) else 0
    return ClockWatch(control, regs.clock_tolerance_ms if regs is not None else 2000, rate,
                      check_counts=not checkers, first_side=first_side, untimed_plies=untimed,
                      period_added=regs.period_added if regs is not None else PERIOD_ON_MOVE)
