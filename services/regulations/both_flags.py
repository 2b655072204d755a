"""Both flags fallen, and the clock cannot say which fell first (``services.clock.flags``): what the
Laws and the event's regulations make of it. Pure: reads the hall's state, returns a ruling.

The text (FIDE Laws of Chess 2023, FIDE Handbook E.01):

- 6.8: "A flag is considered to have fallen when the arbiter observes the fact or when either player
  has made a valid claim to that effect." 6.9: the player who does not complete the prescribed
  moves in the allotted time loses, "However, the game is drawn if the position is such that the
  opponent cannot checkmate the player's king by any possible series of legal moves."
- 6.11.1: "If the game needs to be interrupted, the arbiter shall pause the chessclock." 6.11.3:
  "The arbiter shall decide when the game restarts."
- The Laws themselves no longer say what follows when both flags have fallen (the article that did
  moved to the Guidelines). Guidelines III (Games without Increment including Quickplay Finishes):
  III.2.1 "The Guidelines below concerning the final period of the game including Quickplay
  Finishes, shall only be used at an event if their use has been announced beforehand."; III.2.2
  "These Guidelines shall apply only to standard chess and rapid chess games without increment and
  not to blitz games."; III.3.1 "If both flags have fallen and it is impossible to establish which
  flag fell first then: III.3.1.1 the game shall continue if this occurs in any period of the game
  except the last period. III.3.1.2 the game is drawn if this occurs in the period of a game in
  which all remaining moves must be completed."

So: under announced Guidelines III (the tournament file's ``regulations.guidelines_iii``), in a
standard or rapid game without increment, both sides in the last period (the rest of the game, a
sandclock): drawn (III.3.1.2); both in an earlier period: the game continues (III.3.1.1). Anything
else (Guidelines not announced, an increment or delay, blitz, the two sides in different periods,
no known control, checkers: 11-Man National 2017 X.A.b "A player whose time expires forfeits the
current game" with X.A.e "The evidence of the match clocks shall be considered conclusive if there
are not evident defects") the record cannot decide: the arbiter does, with the game paused (6.11).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.regulations.controls import control_of
from services.regulations.quotes import rule_for
from services.rules.base import SIDES
from services.rules.penalties import BLITZ, time_class

DRAWN = "drawn"  # III.3.1.2
CONTINUE = "continue"  # III.3.1.1
ARBITER = "arbiter"  # the record cannot decide
RULINGS = (DRAWN, CONTINUE, ARBITER)
LAWS_SILENT = ("FIDE Laws 6.8, 6.9, 6.11: both flags have fallen and the clock cannot show which fell first; the "
               "Laws do not decide it")


@dataclass(frozen=True)
class BothFlagsRuling:
    """``ruling``: ``DRAWN``, ``CONTINUE`` or ``ARBITER``; ``law`` (the article that decides, or
    why none does); ``reason`` (one sentence for the arbiter's log); ``periods``: per side
    ``{"period": index from 0, "last": bool, "moves_made": n}`` (empty without a timed control)."""

    ruling: str
    law: str
    reason: str
    periods: dict = field(default_factory=dict, compare=False)


def both_flags(control, moves_made: dict[str, int], guidelines: bool, variant: str = "chess") -> BothFlagsRuling:
    """The ruling for both flags fallen in a game under ``control`` (a ``TimeControl`` or None) with
    ``moves_made`` (side -> completed moves, FIDE Laws 6.2.1), ``guidelines``: Guidelines III
    announced (III.2.1). See the module docstring."""
    if variant != "chess":
        return BothFlagsRuling(ARBITER, "11-Man National 2017 X.A.b, X.A.e",
                               "a player whose time expires forfeits, and the clocks cannot show whose expired first: "
                               "the referee decides")
    if control is None or not control.timed:
        return BothFlagsRuling(ARBITER, LAWS_SILENT, "no timed control is known for the game: the arbiter decides")
    periods = {}
    for side in SIDES:
        index, period, _ = control.period_of_move(side, moves_made[side] + 1)
        periods[side] = {"period": index, "last": period.moves is None, "moves_made": moves_made[side]}
    if not guidelines:
        return BothFlagsRuling(ARBITER, LAWS_SILENT + " (Guidelines III.2.1: its III.3.1 applies only where announced, "
                                                      "and this event did not)", "the arbiter decides", periods)
    every = control.periods("white") + control.periods("black")
    if any(p.increment_ms or p.delay_ms for p in every):
        return BothFlagsRuling(ARBITER, LAWS_SILENT + " (Guidelines III.2.2: only games without increment)",
                               "the control has an increment or a delay: the arbiter decides", periods)
    first = control.periods("white")[0]
    if time_class(first.time_ms, 0, len(control.periods("white"))) == BLITZ:
        return BothFlagsRuling(ARBITER, LAWS_SILENT + " (Guidelines III.2.2: not blitz games)",
                               "a blitz game: the arbiter decides", periods)
    last = {side: periods[side]["last"] for side in SIDES}
    if all(last.values()):
        return BothFlagsRuling(DRAWN, "FIDE Laws Guidelines III.3.1.2",
                               "both flags fell in the period in which all remaining moves must be completed: the "
                               "game is drawn", periods)
    if not any(last.values()):
        return BothFlagsRuling(CONTINUE, "FIDE Laws Guidelines III.3.1.1",
                               "both flags fell in a period before the last: the game continues (the arbiter sets the "
                               "clocks to the next period, 6.10.2)", periods)
    return BothFlagsRuling(ARBITER, LAWS_SILENT + " (Guidelines III.3.1: the two sides are in different periods)",
                           "one side is in the last period, the other not: the arbiter decides", periods)


def ruling(state, g) -> tuple[BothFlagsRuling, str]:
    """``both_flags`` for game ``g`` of the hall's ``state`` (its control, its completed moves, the
    tournament file's ``regulations.guidelines_iii``), and the rule the entry cites
    (``[regulations.rules] both_flags`` quoted from the file, else the ruling's law)."""
    from services.state.plies import completed_moves

    config = state.config
    guidelines = bool(config is not None and config.regulations.guidelines_iii)
    made: dict[str, int] = {side: completed_moves(g, side) for side in SIDES}
    found = both_flags(control_of(g.setup, config), made, guidelines, g.variant)
    return found, rule_for(state, "both_flags", found.law)
