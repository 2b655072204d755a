"""Match clocks: the time left after one game is the time for the next (ACF/WCDF 11-Man 2017).

"The clocks shall be paused between games, but the clock times shall not be reset prior to the
second game. Whatever time shows on the clocks at the conclusion of the first game is the time the
player has to play the entire second game. The number of moves made is not relevant with respect to
time control." (X.A.b)
"""

from __future__ import annotations

from services.clock.errors import ClockError, FlagFallen
from services.clock.game_clock import GameClock
from services.rules.base import BLACK, WHITE


def carry_over(previous: GameClock, at_ms: int, swap_sides: bool = True) -> GameClock:
    """The next game's clock: same control, credit and period conventions, each player's time as
    ``previous`` shows it at ``at_ms`` (the end of the game; a running clock is read as if paused
    then), move counters back to 0 ("the number of moves made is not relevant").

    ``swap_sides``: True when the players change colours for the next game (the two games of a
    checkers match), so White's time becomes Black's and the reverse. The new clock is not started.

    Raises ``FlagFallen`` when a flag fell in ``previous`` by ``at_ms``: that player "forfeits the
    current game, as well as the next game if not started" (X.A.b). Raises ClockError when
    ``previous`` was never started.
    """
    if not previous.started:
        raise ClockError("carry over from a clock that was never started")
    side, fell = previous.flagged(at_ms), previous.flag_fall_at(at_ms)
    if side is not None and fell is not None:  # both or neither: the flag fell by at_ms
        raise FlagFallen(side, fell, f"{side}'s flag fell in the previous game: "
                                     "the next game is forfeited (X.A.b)")
    white, black = previous.remaining(WHITE, at_ms), previous.remaining(BLACK, at_ms)
    if swap_sides:
        white, black = black, white
    return GameClock(previous.control, white_ms=white, black_ms=black, credit=previous.credit,
                     period_added=previous.period_added)
