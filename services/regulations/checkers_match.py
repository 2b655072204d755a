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
  SETUPs: ids ``"{round}-{board}.1"`` and ``".2"``, ``match`` ``{"id", "game_no", "games",
  "follows"?}``, the same ``ballot``, White and Black swapped in game 2.
* :func:`carried_times`: game 2's clock from the last clock reading of game 1 (per player: the
  times follow the players, who change colours).
* :class:`MatchKeeper`: the fold the gateway runs over the log; when a match's first game ends it
  answers ``match_game_ready`` (game 2's carried clock, paused) or, after a flag fall,
  ``match_forfeit`` + ``game_ended`` for game 2 (X.A.b; ``checkers_rounds.flag_forfeits``).
* :func:`ballot_deviation`: a board's move among the first three plies that is not the ballot's
  (X.A.d: "Red's first balloted move is made"): the gateway refuses it (docs/checkers.md).
"""

from __future__ import annotations

from services.rules.base import BLACK, WHITE, other
from services.rules.results import TIME_FORFEIT, score

from .checkers_rounds import flag_forfeits

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
    return game == "checkers" and bool(getattr(control, "carries_over", False))


def match_setups(setup: dict, ballot: dict | None = None) -> list[dict]:
    """The two SETUPs of the match of one pairing. ``setup``: a SETUP with ``id`` (the match id,
    ``"{round}-{board}"``), ``white``/``black`` (game 1's colours), optional ``white_no``/``black_no``/
    ``*_elo``; ``ballot``: ``Ballot.to_json()`` (``{"ballot", "moves", "name"}``) or None.

    Game 1 keeps the colours, game 2 reverses them (Black/Red of game 1 is White in game 2: the
    ballot "with colours reversed"); both carry ``ballot`` and ``match``. Raises KeyError without
    ``id``."""
    match_id = str(setup["id"])
    first = {**setup, "id": f"{match_id}.1", "ballot": ballot,
             "match": {"id": match_id, "game_no": 1, "games": GAMES_PER_MATCH}}
    second = {k: setup[_SWAP[k]] if k in _SWAP and _SWAP[k] in setup else v for k, v in setup.items()}
    second.update({"id": f"{match_id}.2", "ballot": ballot, "fen": setup.get("fen"),
                   "match": {"id": match_id, "game_no": 2, "games": GAMES_PER_MATCH,
                             "follows": first["id"]}})
    return [first, second]


def ballot_label(ballot: dict) -> str:
    """How a ballot is named to people: ``"ballot 15 (9-13 23-18 11-15)"`` (the ACF number), or
    ``"the ballot (9-14 22-17 6-9)"`` for an opening recorded without a number."""
    moves = " ".join(str(m) for m in ballot.get("moves") or [])
    number = ballot.get("ballot")
    return f"ballot {number} ({moves})" if number is not None else f"the ballot ({moves})"


def ballot_deviation(ballot: dict | None, played: list[str], move: str) -> dict | None:
    """Is ``move`` the balloted move due now? ``ballot``: ``Ballot.to_json()`` (``{"ballot",
    "moves": [three moves], "name"}``) of a game played from the standard start; ``played``: the
    game's moves so far (full routes, as the log keeps them); ``move``: the board's move text.

    None when the move is the ballot's (any notation naming the same move: ``13x22`` or
    ``13-22``), when the ballot's three moves are already played, without a ballot, or when
    ``move`` is no legal move at all (the rules core refuses it with its own reason). Otherwise
    ``{"reason", "expected", "ply", "ballot"}``: ``expected`` the ballot's move for that ply (full
    route), ``ply`` 1-3, ``reason`` naming the ballot, the ply and the expected move. Source: X.A.d
    (``RULE_BALLOT_MOVES``); issue 6: both games of a match play the same ballot. Raises ValueError
    when the ballot's own move is not legal after ``played`` (a corrupt ballot)."""
    from services.rules.base import MoveRefused
    from services.rules.checkers_game import CheckersGame

    moves = list((ballot or {}).get("moves") or [])
    ply = len(played)
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


def _loser(result: str) -> str | None:
    try:
        winner = score(result).winner
    except (KeyError, ValueError):
        return None
    return other(winner) if winner in (WHITE, BLACK) else None


class MatchKeeper:
    """The match rules as a fold of the event log (the gateway shows it every entry, as the
    enforcer). ``rate``: replay speed for the carried clock. ``observe`` returns the entries to
    append; it never raises on odd entries. After a restart the log is replayed through it and the
    answers thrown away: its own answers are in the log, so nothing is said twice."""

    def __init__(self, rate: float = 1.0):
        self.rate = rate
        self.setups: dict[str, dict] = {}        # game id -> SETUP of a match game
        self.second: dict[str, str] = {}         # game 1 id -> game 2 id
        self.readings: dict[str, dict] = {}      # game id -> last clock reading
        self.flagged: dict[str, str] = {}        # game id -> the side whose flag fell
        self.answered: set[str] = set()          # game 1 ids whose end was answered
        self.ended: set[str] = set()

    def observe(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
        """Fold one entry; the entries the match rules call for in answer."""
        try:
            if type == "round_started":
                for setup in data.get("games", []):
                    self._add(setup)
            elif type.startswith("clock_") and data.get("game") in self.setups:
                self.readings[data["game"]] = {"white_ms": data.get("white_ms"), "black_ms": data.get("black_ms"),
                                               "running": data.get("running"), "at": at}
            elif type == "flag_fell" and data.get("game") in self.setups:
                self.flagged[data["game"]] = data.get("side")
            elif type in ("match_game_ready", "match_forfeit"):
                self.answered.add(str(data.get("follows") or data.get("flagged_in")))
            elif type == "game_ended":
                return self._ended(data, at)
            elif type == "arbiter_decision" and data.get("result") == "*":
                self.ended.discard(data.get("game"))
        except (KeyError, TypeError, ValueError):
            return []
        return []

    def _add(self, setup: dict) -> None:
        match = setup.get("match")
        if not isinstance(match, dict):
            return
        self.setups[str(setup["id"])] = setup
        if match.get("follows"):
            self.second[str(match["follows"])] = str(setup["id"])

    def _ended(self, data: dict, at: int) -> list[tuple[str, dict]]:
        gid = data.get("game")
        if gid not in self.setups or gid in self.ended:
            return []
        self.ended.add(gid)
        nxt = self.second.get(gid)
        if nxt is None or gid in self.answered or nxt in self.ended:
            return []
        self.answered.add(gid)
        first, second = self.setups[gid], self.setups[nxt]
        base = {"game": nxt, "board": str(second.get("board")), "match": second["match"]["id"]}
        flag_side = self.flagged.get(gid)
        by_flag = data.get("termination") == TIME_FORFEIT and data.get("by") != "regulations"
        if flag_side is None and by_flag:
            flag_side = _loser(data.get("result", ""))
        if by_flag and flag_side in (WHITE, BLACK) and 1 in flag_forfeits(0, next_started=False):
            # the player who flagged in game 1 plays the other colour in game 2 and forfeits it
            side = other(flag_side)
            result = "0-1" if side == WHITE else "1-0"
            return [("match_forfeit", {**base, "flagged_in": gid, "side": side, "player": second.get(side),
                                       "games": [gid, nxt], "result": result, "rule": RULE_FLAG}),
                    ("game_ended", {"game": nxt, "board": base["board"], "result": result,
                                    "termination": "forfeit", "forfeit": True, "ply": 0,
                                    "by": "regulations", "rule": RULE_FLAG})]
        clock = carried_times(self.readings.get(gid), at, self.rate)
        return [("match_game_ready", {**base, "follows": gid, "game_no": 2,
                                      "white": second.get("white"), "black": second.get("black"),
                                      "ballot": second.get("ballot"),
                                      "white_ms": clock["white_ms"] if clock else None,
                                      "black_ms": clock["black_ms"] if clock else None,
                                      "running": None, "rule": RULE_CARRY})]
