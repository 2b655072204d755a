"""Master division matches of the 2017 11-Man National (checkers-11-man-national-2017.txt): two
games on one hall board, the same three-move ballot with colours reversed, one match clock. Pure.

The regulation's words:

* issue 6 / the ballot rules: "both games of a match play the same ballot with colours reversed";
  X.A.d: "As the game starts, Red's clock is started, Red's first balloted move is made".
* X.A.b: "A player whose time expires forfeits the current game, as well as the next game if not
  started. The clocks shall be paused between games, but the clock times shall not be reset prior
  to the second game. Whatever time shows on the clocks at the conclusion of the first game is the
  time the player has to play the entire second game."

Here:

* :func:`match_setups`: one pairing's SETUP (``round_started``, docs/events.md) -> the match's two
  SETUPs: ids ``"{round}-{board}.1"`` and ``".2"``, ``match`` (``services.events.CheckersMatch``'s
  JSON ``{"id", "game_no", "games", "follows"?}``), the same ``ballot``, White and Black swapped in
  game 2.
* :func:`carried_times`: game 2's clock from the last clock reading of game 1 (per player: the
  times follow the players, who change colours).
* ``services.regulations.match_rules``: what is due when a match's first game ends:
  ``match_game_ready`` (game 2's carried clock, paused) or, after a flag fall, ``match_forfeit`` +
  ``game_ended`` for game 2 (X.A.b; ``checkers_rounds.flag_forfeits``).
* :func:`ballot_deviation`: a board's move among the first three plies that is not the ballot's
  (X.A.d: "Red's first balloted move is made"): the gateway refuses it (docs/checkers.md).
"""

from __future__ import annotations

import msgspec

from services.events.match_setup import CheckersMatch, ThreeMoveBallot
from services.events.vocabulary import Variant
from services.rules.base import BLACK, WHITE

GAMES_PER_MATCH = 2
BALLOT_PLIES = 3  # Red's first move, White's reply, Red's second move: the three balloted moves
RULE_BALLOT_MOVES = ("11-Man National 2017 X.A.d: \"As the game starts, Red's clock is started, Red's first "
                     "balloted move is made ... Alternatively, the three balloted moves may be played prior to "
                     "starting white's clock for white's second move\": a game opens with its ballot's three moves")
_PLY_NAMES = ("Red's first move", "White's first move", "Red's second move")
RULE_BALLOT = ("11-Man National 2017 (issue 6): both games of a match play the same three-move ballot "
               "with colours reversed")
RULE_CARRY = ("11-Man National 2017 X.A.b: \"The clocks shall be paused between games, but the clock times "
              "shall not be reset prior to the second game. Whatever time shows on the clocks at the "
              "conclusion of the first game is the time the player has to play the entire second game.\"")
RULE_FLAG = ("11-Man National 2017 X.A.b: \"A player whose time expires forfeits the current game, as well "
             "as the next game if not started.\"")
_SWAP = {"white": "black", "black": "white", "white_no": "black_no", "black_no": "white_no",
         "white_elo": "black_elo", "black_elo": "white_elo"}


def is_match_event(game: str, control) -> bool:
    """True when rounds are two-game matches: a checkers event whose main control is a match clock
    (``TimeControl.carries_over``; X.A.a: "Each match in the Master Division shall be timed by
    match clocks"). ``game``: "chess" or "checkers"; ``control``: a ``TimeControl`` or None."""
    return game == Variant.CHECKERS and bool(getattr(control, "carries_over", False))


def match_setups(setup: dict, ballot: dict | None = None) -> list[dict]:
    """The two SETUPs of the match of one pairing. ``setup``: a SETUP with ``id`` (the match id,
    ``"{round}-{board}"``), ``white``/``black`` (game 1's colours), optional ``white_no``/``black_no``/
    ``*_elo``; ``ballot``: ``Ballot.to_json()`` (``{"ballot", "moves", "name"}``) or None.

    Game 1 keeps the colours, game 2 reverses them (Black/Red of game 1 is White in game 2: the
    ballot "with colours reversed"); both carry ``ballot`` and ``match``. Raises KeyError without
    ``id``."""
    match_id = str(setup["id"])
    # the log's data is plain JSON: the match written as its record writes it (game 1 without ``follows``)
    first = {**setup, "id": f"{match_id}.1", "ballot": ballot,
             "match": msgspec.to_builtins(CheckersMatch(id=match_id, game_no=1, games=GAMES_PER_MATCH))}
    second = {k: setup[_SWAP[k]] if k in _SWAP and _SWAP[k] in setup else v for k, v in setup.items()}
    second.update({"id": f"{match_id}.2", "ballot": ballot, "fen": setup.get("fen"),
                   "match": msgspec.to_builtins(CheckersMatch(id=match_id, game_no=2, games=GAMES_PER_MATCH,
                                                              follows=first["id"]))})
    return [first, second]


def ballot_label(ballot: ThreeMoveBallot) -> str:
    """How a ballot is named to people: ``"ballot 15 (9-13 23-18 11-15)"`` (the ACF number), or
    ``"the ballot (9-14 22-17 6-9)"`` for an opening recorded without a number."""
    moves = " ".join(ballot.moves)
    number = ballot.ballot
    return f"ballot {number} ({moves})" if number is not None else f"the ballot ({moves})"


def ballot_deviation(ballot: ThreeMoveBallot | None, played: list[str], move: str) -> dict | None:
    """Is ``move`` the balloted move due now? ``ballot``: the game's ``Setup.ballot`` (the three
    moves in ``moves``) of a game played from the standard start; ``played``: the
    game's moves so far (full routes, as the log keeps them); ``move``: the board's move text.

    None when the move is the ballot's (any notation naming the same move: ``13x22`` or
    ``13-22``), when the ballot's three moves are already played, without a ballot, or when
    ``move`` is no legal move at all (the rules core refuses it with its own reason). Otherwise
    ``{"reason", "expected", "ply", "ballot"}``: ``expected`` the ballot's move for that ply (full
    route), ``ply`` 1-3, ``ballot`` the ballot given, ``reason`` naming the ballot, the ply and the expected move. Source: X.A.d
    (``RULE_BALLOT_MOVES``); issue 6: both games of a match play the same ballot. Raises ValueError
    when the ballot's own move is not legal after ``played`` (a corrupt ballot)."""
    from services.rules.base import MoveRefused
    from services.rules.checkers_game import CheckersGame

    if ballot is None:
        return None
    moves, ply = ballot.moves, len(played)
    if len(moves) != BALLOT_PLIES or ply >= BALLOT_PLIES:
        return None
    try:
        given = CheckersGame.from_moves(played).play(move).move
    except MoveRefused:
        return None
    try:
        expected = CheckersGame.from_moves(played).play(moves[ply]).move
    except MoveRefused as exc:
        raise ValueError(f"{ballot_label(ballot)}: {moves[ply]} is not legal after {played}: {exc.reason}") from None
    if given == expected:
        return None
    return {"ply": ply + 1, "expected": expected, "ballot": ballot,
            "reason": f"not the balloted move: {ballot_label(ballot)} requires {expected} as "
                      f"{_PLY_NAMES[ply]} (ply {ply + 1}), not {move}"}


def carried_times(reading: dict | None, ended_at: int, rate: float = 1.0) -> dict | None:
    """Game 2's starting clock ``{"white_ms", "black_ms"}`` (ms) from the last clock reading of game 1.

    ``reading``: ``{"white_ms", "black_ms", "running": "white"|"black"|None, "at": ms}`` (the device's
    figures and the log time of the entry); ``ended_at``: when game 1 ended (ms); ``rate``: the
    replay speed (1 in a real hall). The running side loses the time since the reading (never below
    0); then the times follow the players, who change colours: game 2's White has what game 1's
    Black had (as ``services.clock.match.carry_over`` with ``swap_sides``). None without a reading
    (no clock on the board: game 2 starts from the control)."""
    if not reading or not isinstance(reading.get("white_ms"), int) or not isinstance(reading.get("black_ms"), int):
        return None
    left = {WHITE: reading["white_ms"], BLACK: reading["black_ms"]}
    running = reading.get("running")
    if running in (WHITE, BLACK):
        spent = int(max(0, ended_at - int(reading.get("at") or ended_at)) * rate)
        left[running] = max(0, left[running] - spent)
    return {"white_ms": left[BLACK], "black_ms": left[WHITE]}
