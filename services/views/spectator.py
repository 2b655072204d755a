"""The spectators' view: a projection of the hall's state (``services.state.HallState``), with no
game model of its own.

GAME (what ``game(id)`` / ``games()`` return, and what the dashboard's API serves)::

    {"id": "5-1", "board": "1", "round": "5", "white": str, "black": str,
     "white_elo": int|None, "black_elo": int|None,
     "white_title", "white_fide_id", "white_fed", "white_team" (and black_*): str|None,  # the tournament file's
     "variant": "chess"|"checkers",
     "time_control": PGN TimeControl|None, "kind": str|None, "start_fen": FEN,
     "first_side": "white"|"black" (who makes ply 1),
     "fen": FEN after the last ply, "ply": int (0 = no move yet), "turn": "white"|"black",
     "moves": [UCI or numeric, ...], "san": [str, ...],
     "clocks": [ms|None, ...]  # one per ply: the mover's remaining time after it (PGN %clk)
     "spent": [ms|None, ...]   # one per ply: the time the mover took over it (``spent``)
     "clock": {"white_ms": int, "black_ms": int, "running": "white"|"black"|None, "at": ms}|None,
     "status": "waiting"|"playing"|"ended", "result": "*"|"1-0"|"0-1"|"1/2-1/2"|...,
     "scored": None|"0-1"  # what the regulations score the game as: a drawn Armageddon game is a win for Black
     "corrections": int    # how many times an arbiter corrected the record (game_corrected)
     "follows": GAME id|None  # an Armageddon game: the drawn game it follows on the same board
     "termination": None|word, "claimable": [{"kind", "by_move", "evidence"}, ...],
     "last_move": UCI|None,
     "match": {"id", "game_no": 1|2, "games": 2, "follows"?}|None,  # checkers matches
     "ballot": {"ballot": ACF number, "moves": [3 moves], "name"}|None,
     "match_clock": {"option", "how", "coin", "by", "at"},  # only once the referee chose it (X.A.a)
     "stood": [{"ply", "fen"}, ...],  # only when an illegal move stood (FIDE Laws A.5.2): its ply in
                                      # ``moves`` is not legal there; ``fen`` is the position it left
     "evaluation": {"ply", "score_cp": int|None, "mate": int|None, "best_line_san": [str, ...],
                    "depth", "engine"}|None}  # the public view only: the engine's reading of the
                                      # position after ``ply`` (``position_evaluated``, White's view)

``clock.at`` is the time of the reading, so a browser shows ``white_ms - (now - at)`` for the running
side (in a delayed broadcast ``at`` is moved on by the delay, so the clock shown is the clock as it
stood that long ago). The spectators' view (``public``) shows only the claims standing in the present
position, without evidence (``public_claims``); the arbiters' shows every claim. A corrected record
(``game_corrected``) is one delta setting ``moves``, ``san``, ``clocks`` and ``spent`` whole. Delta messages (``deltas``; each carries the entry's ``seq``)::

    {"type": "round", "seq": N, "round": ROUND, "games": [GAME, ...]}   # a new round: replace all
    {"type": "game", "seq": N, "id": GAME id,
     "set": {field: value, ...},            # fields to overwrite (fen, ply, clock, status, ...)
     "append": {"move": str, "san": str, "spent": ms|None},  # optional: one ply added (push to
                                            # moves/san/spent, None to clocks)
     "clk": [[ply, ms], ...]}               # optional: clocks[ply - 1] = ms (PGN %clk, FIDE Laws 6)

ROUND = ``{"round", "event", "site", "date"}``. Live deltas are about the current round; every
round's games stay readable (``game(id)``, ``games(round)``, ``rounds()``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping

import msgspec

from services.eventlog.base import Entry
from services.events.analysis import PositionEvaluated
from services.events.tournament import spec_json
from services.state import Changes, GameState, HallState

GAME_FIELDS = ("id", "board", "round", "white", "black", "white_elo", "black_elo", "white_title", "black_title",
               "white_fide_id", "black_fide_id", "white_fed", "black_fed", "white_team", "black_team", "variant",
               "time_control", "kind", "start_fen", "first_side", "fen", "ply", "turn", "moves", "san", "clocks",
               "spent", "clock", "status", "result", "scored", "termination", "claimable", "last_move", "match",
               "ballot", "follows", "corrections")


EVALUATION_FIELDS = ("ply", "score_cp", "mate", "best_line_san", "depth", "engine")
"""The fields of the engine's ``position_evaluated`` the public GAME shows (``evaluation``)."""


def _plain(record: msgspec.Struct | None) -> dict | None:
    """A typed part of the state (a SETUP's ``match``/``ballot``, a ``match_clock``) as the plain
    JSON the GAME carries (a new dict), or None."""
    return None if record is None else msgspec.to_builtins(record)


def evaluation_json(ev: PositionEvaluated | None) -> dict | None:
    """The public GAME's ``evaluation``: the engine's reading's :data:`EVALUATION_FIELDS` (a new
    dict; ``best_line_san`` a new list), or None."""
    return None if ev is None else {f: copy.copy(getattr(ev, f)) for f in EVALUATION_FIELDS}


def _elo(value) -> int | None:
    try:
        return int(value) if value not in (None, "", "-") else None
    except (TypeError, ValueError):
        return None


PLAYER_DETAILS = tuple(f"{side}_{key}" for side in ("white", "black") for key in ("title", "fide_id", "fed", "team"))


def spent(g: GameState, ply: int) -> int | None:
    """The time the mover took over ``ply`` (from 1), ms: from the ply before reaching the log (for
    ply 1, from the clock's start) to this one reaching it; None when either time is not known (a
    ply an arbiter entered in a correction). Wall time: an arbiter's pause is counted in."""
    at = g.move_at[ply - 1] if 0 < ply <= len(g.move_at) else None
    before = g.move_at[ply - 2] if ply >= 2 and ply - 2 < len(g.move_at) else (g.started_at if ply == 1 else None)
    if at is None or before is None or before > at:
        return None
    return at - before


def public_claims(claims: list[dict]) -> list[dict]:
    """The claims a spectator may see: those standing in the present position only, without their
    evidence. A claim by an intended move (FIDE Laws 9.2.1.1, 9.3.1: the player writes the move
    and asks the arbiter) would tell the room which move repeats the position."""
    return [{"kind": c.get("kind"), "by_move": None, "evidence": {}} for c in claims if not c.get("by_move")]


def game_json(g: GameState, public: bool = False, shift_ms: int = 0) -> dict:
    """The GAME of ``g`` (a new dict; its lists are copies). ``public``: the spectators' cut (claims
    by public_claims); ``shift_ms``: added to ``clock.at`` (a delayed broadcast: a running clock then
    counts down from the reading as it stood that long ago)."""
    s = g.setup
    clock = g.clock.as_json() if g.clock else None
    if clock is not None and shift_ms:
        clock["at"] = clock["at"] + shift_ms
    out = {
        "id": g.id, "board": g.board, "round": g.round, "white": g.white, "black": g.black,
        "white_elo": _elo(s.white_elo), "black_elo": _elo(s.black_elo),
        **{k: getattr(s, k) for k in PLAYER_DETAILS}, "variant": g.variant,
        "time_control": spec_json(g.time_control), "kind": g.kind, "start_fen": g.start_fen,
        "first_side": g.first_side, "fen": g.fen, "ply": g.ply, "turn": g.turn, "moves": list(g.moves),
        "san": list(g.san), "clocks": list(g.clocks), "spent": [spent(g, p) for p in range(1, g.ply + 1)],
        "clock": clock, "status": g.status, "result": g.result, "scored": g.scored, "termination": g.termination,
        "claimable": public_claims(g.claimable) if public else copy.deepcopy(g.claimable),
        "last_move": g.last_move, "match": _plain(s.match), "ballot": _plain(s.ballot), "follows": s.follows,
        "corrections": g.corrections,
    }
    if public:
        # the engine's reading, for the broadcast audience only: never the arbiters' or the hall's
        # screens (issue 31 item 4); shown against the ply it was made for
        out["evaluation"] = evaluation_json(g.evaluation)
    if g.match_clock is not None:
        out["match_clock"] = _plain(g.match_clock)
    if g.stood:
        out["stood"] = [{"ply": ply, "fen": fen} for ply, fen in sorted(g.stood.items())]
    return out


def board_key(g: dict) -> tuple:
    """Sort key of a GAME by its hall board: numbered boards in number order, then named ones
    (a stable sort keeps a board's games in the order they are played)."""
    b = g["board"]
    return (0, int(b), b) if b.isdigit() else (1, 0, b)


class SpectatorView:
    """The spectators' projection of ``state`` (a new empty ``HallState`` when none is given: the
    view then folds entries itself with ``apply``). GAMEs are built from the state when asked and
    kept until the fold changes them."""

    def __init__(self, state: HallState | None = None, public: bool = False):
        self.state = state if state is not None else HallState()
        self.public = public
        self.shift_ms = 0  # a delayed broadcast's delay: added to clock.at (game_json)
        self._cache: dict[str, dict] = {}

    def reset(self, state: HallState | None = None, shift_ms: int | None = None) -> None:
        """Read ``state`` from now on (default: the same) and/or shift clocks by ``shift_ms``; every
        GAME is built again when next asked."""
        if state is not None:
            self.state = state
        if shift_ms is not None:
            self.shift_ms = shift_ms
        self._cache.clear()

    # --- reading -------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The last log seq folded into the state."""
        return self.state.seq

    @property
    def round(self) -> dict | None:
        """ROUND of the current round, or None before any."""
        r = self.state.round()
        return r.info() if r is not None else None

    def rounds(self) -> list[dict]:
        """ROUND of every round set up, in order."""
        return [r.info() for r in self.state.rounds.values()]

    def live_game(self, game_id: str) -> dict:
        """The GAME of any round, kept between changes (never mutate it). KeyError when unknown."""
        g = self._cache.get(game_id)
        if g is None:
            g = self._cache[game_id] = game_json(self.state.games[game_id], self.public, self.shift_ms)
        return g

    def game(self, game_id: str) -> dict | None:
        """One GAME of any round (a copy), or None."""
        return copy.deepcopy(self.live_game(game_id)) if game_id in self.state.games else None

    def match_game(self, match_id: str) -> str | None:
        """The game a spectator of checkers match ``match_id`` (``"{round}-{board}"``, docs/events.md)
        follows now: the match's first game not over (the one in play, or the next to be played: game
        2 waits with the clocks carried over, 11-Man National 2017 X.A.b), else its last game; None
        when no game is of that match."""
        numbered = [(m.game_no, g) for g in self.state.games.values()
                    if (m := g.setup.match) is not None and m.id == match_id]
        games = [g for _, g in sorted(numbered, key=lambda pair: pair[0])]
        if not games:
            return None
        return next((g.id for g in games if not g.ended), games[-1].id)

    def ids(self, round_no: str | None = None) -> list[str]:
        """The game ids of a round (default: the current one) in hall-board order."""
        r = self.state.round(round_no)
        if r is None:
            return []
        games = [self.live_game(gid) for gid in r.games if gid in self.state.games]
        return [g["id"] for g in sorted(games, key=board_key)]

    def games(self, round_no: str | None = None) -> list[dict]:
        """Every GAME of a round (default: the current one) in hall-board order (copies)."""
        return [copy.deepcopy(self.live_game(gid)) for gid in self.ids(round_no)]

    def every_game(self) -> Mapping[str, dict]:
        """Every game of every round, GAME by id, read-only and built when looked up (the arbiters
        act on any game of the event)."""
        return _Games(self)

    def snapshot(self) -> dict:
        """``{"type": "snapshot", "seq": N, "round": ROUND|None, "games": [GAME, ...]}``."""
        return {"type": "snapshot", "seq": self.seq, "round": self.round, "games": self.games()}

    # --- folding -------------------------------------------------------------------------------
    def apply(self, entry: Entry) -> list[dict]:
        """Fold one entry into the state (for a view that owns its state) and return its deltas."""
        if entry.seq and entry.seq <= self.state.seq:
            return []
        return self.deltas(self.state.apply(entry), entry.seq)

    def forget(self, changes: Changes) -> None:
        """Drop the GAMEs one folded entry changed (built again when asked), without deltas."""
        for gid in (*changes.games, *changes.appended, *changes.clk):
            self._cache.pop(gid, None)
        if changes.rounds:
            for gid in list(self._cache):
                if gid not in self.state.games:
                    del self._cache[gid]

    def deltas(self, changes: Changes, seq: int) -> list[dict]:
        """The delta messages for what one folded entry changed (see the module docstring)."""
        touched = set(changes.games) | set(changes.appended) | set(changes.clk)
        for gid in touched:
            self._cache.pop(gid, None)
        current = self.state.current
        if changes.rounds:
            for gid in list(self._cache):
                if gid not in self.state.games:
                    del self._cache[gid]
            if current in changes.rounds:
                return [{"type": "round", "seq": seq, "round": self.round, "games": self.games()}]
        r = self.state.round()
        out = []
        for gid in sorted(touched):
            g = self.state.games.get(gid)
            if g is None or r is None or g.round != current or gid not in r.games:
                continue
            game = self.live_game(gid)
            fields = [f for f in changes.games.get(gid, ()) if f in game]
            delta: dict = {"type": "game", "seq": seq, "id": gid, "set": {f: copy.deepcopy(game[f]) for f in fields}}
            ply = changes.appended.get(gid)
            if ply is not None:
                delta["append"] = {"move": game["moves"][ply - 1], "san": game["san"][ply - 1],
                                   "spent": game["spent"][ply - 1]}
            clk = [[p, game["clocks"][p - 1]] for p in changes.clk.get(gid, ()) if 1 <= p <= len(game["clocks"])]
            if clk:
                delta["clk"] = clk
            if delta["set"] or "append" in delta or clk:
                out.append(delta)
        return out


class _Games(Mapping):
    """``SpectatorView.every_game``: GAMEs of every round by id, built on lookup."""

    def __init__(self, view: SpectatorView):
        self._view = view

    def __getitem__(self, game_id: str) -> dict:
        if game_id not in self._view.state.games:
            raise KeyError(game_id)
        return self._view.live_game(game_id)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._view.state.games))

    def __len__(self) -> int:
        return len(self._view.state.games)
