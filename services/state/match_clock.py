"""A checkers match's clock as the referee recorded it (``GameState.match_clock``), from
``match_clock_chosen`` (11-Man National 2017 X.A.a: "1) ... 90 minutes ... Or 2) ... 80 minutes +
10-second increment ... If the players cannot mutually agree ..., then the decision shall be
decided at random (e. g., coin flip)."). Nothing here reads a clock."""

from __future__ import annotations

import msgspec


class MatchClockChoice(msgspec.Struct, frozen=True, kw_only=True):
    """The match clock of both games of a match, as the spectators' GAME shows it (``match_clock``:
    ``{"option", "how", "coin", "by", "at"}``, every field always written): ``option`` "90" (90
    minutes) or "80+10" (80 minutes + 10 s a press), ``how`` "agreed" or "coin flip"
    (``checkers_rounds.ClockChoice``), ``coin`` the flip's face ("heads"/"tails"; None when agreed),
    ``by`` the referee's login, ``at`` (ms since the Unix epoch: when it was recorded, the entry's
    ``at``). Frozen: a new choice is a new record."""

    option: str
    how: str | None = None
    coin: str | None = None
    by: str | None = None
    at: int
