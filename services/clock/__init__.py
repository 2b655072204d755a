"""Clocks and time controls: pure, every instant an int of milliseconds passed in (docs/clocks.md).

- ``Period``, ``TimeControl``: what a control is (FIDE Laws 6.1, 6.2), PGN TimeControl notation
  (``TimeControl.parse_pgn``, ``.to_pgn``; PGN standard 9.6.1);
- ``GameClock``, ``PressResult``: a clock fed by start/press/pause/resume/set events;
- ``expiry``: clocks that add the next period when the current one runs out (FIDE Laws 6.9), and
  the device event ``period_added``;
- ``carry_over``: match clocks (checkers Master division).
"""

from services.clock.control import TimeControl
from services.clock.errors import (
    ClockError,
    FlagFallen,
    NotExpressibleInPgn,
    NotRunning,
    TimeControlSyntaxError,
)
from services.clock.expiry import (
    PERIOD_ADDED_EVENT,
    PERIOD_ON_EXPIRY,
    PERIOD_ON_MOVE,
    Expiry,
    judge_period_added,
)
from services.clock.game_clock import GameClock
from services.clock.match import carry_over
from services.clock.period import Period
from services.clock.press import PressResult

__all__ = [
    "ClockError", "Expiry", "FlagFallen", "GameClock", "NotExpressibleInPgn", "NotRunning",
    "PERIOD_ADDED_EVENT", "PERIOD_ON_EXPIRY", "PERIOD_ON_MOVE", "Period", "PressResult",
    "TimeControl", "TimeControlSyntaxError", "carry_over", "judge_period_added",
]
