"""The time controls of the regulations the venue must run (../shared/regulations), by name: the tests'
source for a regulation's control (the clock's, the PGN notation's and the play-offs' tests take their
controls and expected values from here, each with the regulation's words).

Test data, not product code: no product module reads it (it was ``services/clock/catalogue.py``, which
only tests imported; issue 26). ``tests/unit/test_timecontrol_catalogue.py`` checks each quote against
its regulation file.

Each ``Entry`` carries the regulation's own words in ``quote``. Names are ``"<event>/<use>"``:

- ``us-2013/classical``: "90 minutes for the first 40 moves followed by 30 minutes for the rest of
  the game with an addition of 30 seconds (increment) per move starting from move one."
- ``us-2013/rapid-playoff``: "a two-game rapid match (G/25+5)".
- ``us-2013/armageddon``: bidding; not fixed, see ``armageddon_by_bid``.
- ``us-2023/classical``: the same words as ``us-2013/classical``.
- ``us-2023/rapid-playoff``: "a two-game rapid match (G/10 +2 increment)".
- ``us-2023/blitz-playoff``: "a blitz (G/3 +2 increment)".
- ``us-2023/armageddon``: "White shall start with 5 minutes and black shall start with 4 minutes.
  A 2-second increment shall be added starting with move 61."
- ``norway-2023/blitz`` (and ``norway-2023/playoff-blitz``): "3 minutes + 2 seconds increment for
  each move."
- ``norway-2023/classical``: "Each player will have 120 minutes on the clock with an increment of 10
  seconds after move 40." Read as: +10 s on each press from move 41 on, as the event's Armageddon
  line says it ("starting from move 41").
- ``norway-2023/armageddon`` (and ``norway-2023/playoff-armageddon``): "white has 10 minutes and
  black has 7 minutes with an increment for both players of 1 second per move, starting from move
  41."
- ``checkers-2017/master-90``: "90 minutes will be set on both players' side of the clock", a match
  clock (X.A.a option 1, X.A.b).
- ``checkers-2017/master-80+10``: "80 minutes + 10-second increment ... each player earns additional
  10 seconds of time with each press of the clock", a match clock (X.A.a option 2, X.A.b).

Regulation files: us-championship-2013.txt, us-championship-2023.txt, norway-chess-2023.txt,
checkers-11-man-national-2017.txt.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.clock import Period, TimeControl
from services.rules.base import WHITE, other

MINUTE = 60_000
SECOND = 1_000
ARMAGEDDON_BID_BASE_MS = 45 * MINUTE


@dataclass(frozen=True)
class Entry:
    """A named control: ``name``, ``control``, ``regulation`` (the file and the rule), ``quote``
    (the regulation's words)."""

    name: str
    control: TimeControl
    regulation: str
    quote: str


_US_CLASSICAL = TimeControl.symmetric(
    Period(40, 90 * MINUTE, 30 * SECOND), Period(None, 30 * MINUTE, 30 * SECOND))
_US_CLASSICAL_QUOTE = ("90 minutes for the first 40 moves followed by 30 minutes for the rest of "
                       "the game with an addition of 30 seconds (increment) per move starting from "
                       "move one.")
_NORWAY_ARMAGEDDON = TimeControl.per_side(
    Period(None, 10 * MINUTE, 1 * SECOND, increment_from_move=41),
    Period(None, 7 * MINUTE, 1 * SECOND, increment_from_move=41))
_NORWAY_ARMAGEDDON_QUOTE = ("white has 10 minutes and black has 7 minutes with an increment for "
                            "both players of 1 second per move, starting from move 41.")
_NORWAY_BLITZ = TimeControl.symmetric(Period(None, 3 * MINUTE, 2 * SECOND))
_NORWAY_BLITZ_QUOTE = "The time control is 3 minutes + 2 seconds increment for each move."

ENTRIES: tuple[Entry, ...] = (
    Entry("us-2013/classical", _US_CLASSICAL, "us-championship-2013.txt, 4. Time Control",
          _US_CLASSICAL_QUOTE),
    Entry("us-2013/rapid-playoff", TimeControl.symmetric(Period(None, 25 * MINUTE, 5 * SECOND)),
          "us-championship-2013.txt, Playoff Regulations, Two Players",
          "The tie will be broken with a two-game rapid match (G/25+5)."),
    Entry("us-2023/classical", _US_CLASSICAL, "us-championship-2023.txt, 4. Time Control",
          _US_CLASSICAL_QUOTE),
    Entry("us-2023/rapid-playoff", TimeControl.symmetric(Period(None, 10 * MINUTE, 2 * SECOND)),
          "us-championship-2023.txt, 6. Playoff Procedures, Two Players",
          "The tie will be broken with a two-game rapid match (G/10 +2 increment)."),
    Entry("us-2023/blitz-playoff", TimeControl.symmetric(Period(None, 3 * MINUTE, 2 * SECOND)),
          "us-championship-2023.txt, 6. Playoff Procedures, Three or Four Players",
          "the remaining tied players shall contest a blitz (G/3 +2 increment)"),
    Entry("us-2023/armageddon",
          TimeControl.per_side(Period(None, 5 * MINUTE, 2 * SECOND, increment_from_move=61),
                               Period(None, 4 * MINUTE, 2 * SECOND, increment_from_move=61)),
          "us-championship-2023.txt, 6. Playoff Procedures",
          "White shall start with 5 minutes and black shall start with 4 minutes. A 2-second "
          "increment shall be added starting with move 61."),
    Entry("norway-2023/blitz", _NORWAY_BLITZ, "norway-chess-2023.txt, Blitz Tournament, Time Control",
          _NORWAY_BLITZ_QUOTE),
    Entry("norway-2023/classical",
          TimeControl.symmetric(Period(None, 120 * MINUTE, 10 * SECOND, increment_from_move=41)),
          "norway-chess-2023.txt, Classical event, Time Control",
          "Each player will have 120 minutes on the clock with an increment of 10 seconds after "
          "move 40."),
    Entry("norway-2023/armageddon", _NORWAY_ARMAGEDDON,
          "norway-chess-2023.txt, Classical event, Time Control", _NORWAY_ARMAGEDDON_QUOTE),
    Entry("norway-2023/playoff-blitz", _NORWAY_BLITZ, "norway-chess-2023.txt, Tie-breaks",
          "a two-game blitz match with the time control of 3 min. + 2 sec. increment per move."),
    Entry("norway-2023/playoff-armageddon", _NORWAY_ARMAGEDDON, "norway-chess-2023.txt, Tie-breaks",
          "an Armageddon game where white has 10 minutes and black, with draw odds, has 7 minutes "
          "both with an increment of 1 second per move, starting from move 41."),
    Entry("checkers-2017/master-90",
          TimeControl.symmetric(Period(None, 90 * MINUTE), carries_over=True),
          "checkers-11-man-national-2017.txt, X.A.a option 1 and X.A.b",
          "At beginning of the round, 90 minutes will be set on both players' side of the clock."),
    Entry("checkers-2017/master-80+10",
          TimeControl.symmetric(Period(None, 80 * MINUTE, 10 * SECOND), carries_over=True),
          "checkers-11-man-national-2017.txt, X.A.a option 2 and X.A.b",
          "80 minutes + 10-second increment will be set on both players' side of the clock. In "
          "other words, each player earns additional 10 seconds of time with each press of the "
          "clock."),
)

CATALOGUE: dict[str, Entry] = {e.name: e for e in ENTRIES}


def control(name: str) -> TimeControl:
    """The control named ``name`` (a key of ``CATALOGUE``); raises KeyError naming the known ones."""
    try:
        return CATALOGUE[name].control
    except KeyError:
        raise KeyError(f"no time control named {name!r}; known: {', '.join(CATALOGUE)}") from None


def armageddon_by_bid(bid_ms: int, bidder: str) -> TimeControl:
    """The 2013 U.S. Championship Armageddon: the lowest bidder ``bidder`` (the side he chose)
    starts with ``bid_ms``, the opponent with 45:00; no increment is named, so none is given.

    "Each Player shall bid an amount of time (minutes and seconds, a number equal to or less than
    45:00) with which they are willing to play in order to choose their color. The Player who bids
    the lowest amount of time chooses his color and begins with that amount of time; the other
    Player receives 45:00." (us-championship-2013.txt, Playoff Regulations)

    Raises ValueError when ``bid_ms`` is not whole seconds in 0:01..45:00 or ``bidder`` is not a
    side.
    """
    other(bidder)
    if not isinstance(bid_ms, int) or isinstance(bid_ms, bool):
        raise ValueError(f"the bid must be an int of ms, got {bid_ms!r}")
    if bid_ms % SECOND or not 0 < bid_ms <= ARMAGEDDON_BID_BASE_MS:
        raise ValueError(f"a bid is minutes and seconds, at most 45:00, got {bid_ms} ms")
    bid, base = Period(None, bid_ms), Period(None, ARMAGEDDON_BID_BASE_MS)
    return TimeControl.per_side(bid, base) if bidder == WHITE else TimeControl.per_side(base, bid)
