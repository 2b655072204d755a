"""The parts of a checkers game's SETUP that make it one game of a match (``Setup.match``) and open
it with a three-move ballot (``Setup.ballot``), as typed records (docs/events.md "SETUP").

Source rules: the 2017 11-Man National's regulations (../shared/regulations/checkers-11-man-national-2017.txt):
X.A.a ("Each match in the Master Division shall be timed by match clocks"), X.A.b (the second game's
clock carried from the first: ``services.regulations.checkers_match``), X.A.d ("Red's first balloted
move is made") and the event's issue 6 ("both games of a match play the same ballot with colours
reversed").

Both are written to the log, the API and the websocket as the plain JSON they carry (the keys and
their order are those the log has always had): reading is lenient where a field may be missing
(a ballot without its ACF number or name), strict where it identifies the game (a match's ``id``,
``game_no`` and ``games``).
"""

from __future__ import annotations

import msgspec


class CheckersMatch(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One game of a two-game checkers match on one hall board (X.A.a-b): ``id`` the match's id
    (``"{round}-{board}"``: its games are ``"{id}.1"`` and ``"{id}.2"``), ``game_no`` (1 or 2),
    ``games`` (games in the match: 2, ``checkers_match.GAMES_PER_MATCH``), ``follows`` (game 2 only:
    the id of the game it follows, whose clock times it carries, X.A.b; None and left out when
    written for game 1). JSON: ``{"id", "game_no", "games", "follows"?}``."""

    id: str
    game_no: int
    games: int
    follows: str | None = None


class ThreeMoveBallot(msgspec.Struct, kw_only=True):
    """The three-move opening a checkers game starts with (X.A.d; the ACF deck,
    ``services.rules.checkers_ballots``): ``ballot`` the ACF number (1-174; None for an opening
    recorded without one), ``moves`` (Red's first move, White's reply, Red's second move, numeric
    notation such as ``"9-13"``), ``name`` (the traditional name, or None). Every field is written,
    None included. JSON: ``{"ballot", "moves", "name"}``."""

    ballot: int | None = None
    moves: list[str] = []
    name: str | None = None


def match_of(value: object) -> CheckersMatch | None:
    """``value`` (None, a :class:`CheckersMatch`, or its JSON as a dict built in code) as a
    :class:`CheckersMatch`, as reading the log would make it. Raises msgspec.ValidationError for a
    dict missing ``id``, ``game_no`` or ``games`` or with a field of the wrong type."""
    if value is None or isinstance(value, CheckersMatch):
        return value
    return msgspec.convert(value, CheckersMatch, strict=False)


def ballot_of(value: object) -> ThreeMoveBallot | None:
    """``value`` (None, a :class:`ThreeMoveBallot`, or its JSON as a dict built in code) as a
    :class:`ThreeMoveBallot`, as reading the log would make it (unknown keys left out). Raises
    msgspec.ValidationError for a field of the wrong type."""
    if value is None or isinstance(value, ThreeMoveBallot):
        return value
    return msgspec.convert(value, ThreeMoveBallot, strict=False)
