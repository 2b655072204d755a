"""The spectators' view of the hall: a pure fold of the event log into the current round's games.

``HallView.apply(entry)`` folds one log entry (docs/events.md) and returns the delta messages a
spectator needs to follow the change. It reads only what the entry carries (the gateway already put
``san``, ``fen`` and ``claimable`` into ``move_played``), so folding is a few dict updates per entry:
no rules are re-run, no I/O, no clock reads (time is each entry's ``at``, in ms since the epoch).

GAME (what ``game(id)`` / ``games()`` return, and what the dashboard's API serves)::

    {"id": "5-1", "board": "1", "round": "5", "white": str, "black": str,
     "white_elo": int|None, "black_elo": int|None, "variant": "chess"|"checkers",
     "time_control": PGN TimeControl|None, "kind": str|None, "start_fen": FEN,
     "first_side": "white"|"black" (who makes ply 1),
     "fen": FEN after the last ply, "ply": int (0 = no move yet), "turn": "white"|"black",
     "moves": [UCI or numeric, ...], "san": [str, ...],
     "clocks": [ms|None, ...]  # one per ply: the mover's remaining time after it (PGN %clk)
     "clock": {"white_ms": int, "black_ms": int, "running": "white"|"black"|None, "at": ms}|None,
     "status": "waiting"|"playing"|"ended", "result": "*"|"1-0"|"0-1"|"1/2-1/2"|...,
     "termination": None|word, "claimable": [{"kind", "by_move", "evidence"}, ...],
     "last_move": UCI|None,
     "match": {"id", "game_no": 1|2, "games": 2, "follows"?}|None,  # checkers matches
     "ballot": {"ballot": ACF number, "moves": [3 moves], "name"}|None,
     "match_clock": {"option": "90"|"80+10", "how": "agreed"|"coin flip", "coin": "heads"|"tails"|None,
                     "by", "at"}}  # match_clock: only once the referee recorded the choice (X.A.a)

``clock.at`` is the time of the reading, so a browser shows ``white_ms - (now - at)`` for the running
side. Delta messages (each carries the entry's ``seq``)::

    {"type": "round", "seq": N, "round": ROUND, "games": [GAME, ...]}   # a new round: replace all
    {"type": "game", "seq": N, "id": GAME id,
     "set": {field: value, ...},            # fields to overwrite (fen, ply, clock, status, ...)
     "append": {"move": str, "san": str},   # optional: one ply added (push to moves/san, None to clocks)
     "clk": [[ply, ms], ...]}               # optional: clocks[ply - 1] = ms (PGN %clk, FIDE Laws 6)

ROUND = ``{"round", "event", "site", "date"}``. Entries for games not in the current round, and entry
types spectators need not see (rejections, duplicates, fines, notes), produce no delta. Arbiters'
entries that change what spectators see are folded: ``game_ended`` by an arbiter, ``clock_adjusted``,
``game_paused`` / ``game_resumed`` and ``arbiter_decision`` with result "*" (the game goes on).
A checkers match's ``match_game_ready`` shows its second game's clock, paused at the times carried
over from the first game (11-Man National 2017 X.A.b); ``match_clock_chosen`` (the referee's record
of the match clock, X.A.a) gives both games of the match the chosen ``time_control`` and
``match_clock``, and game 1, not started, a clock paused at the option's time (90 or 80 minutes).
"""

from __future__ import annotations

import copy

from services.eventlog.base import Entry
from services.hall.view_clock import ClockAttacher, frozen_clock
from services.hall.view_setup import new_game

SIDES = ("white", "black")
CLOCK_TYPES = ("clock_started", "clock_pressed", "clock_paused", "clock_resumed", "clock_set")


class HallView:
    """The current round, folded from the log. ``seq`` is the last entry applied (0 before any).

    ``apply`` never raises on data it does not understand: an entry missing a field it needs is
    skipped (the log is the audit trail; the view only shows it), so one bad entry cannot stop the
    spectators' feed.
    """

    def __init__(self) -> None:
        self.seq = 0
        self.round: dict | None = None
        self._games: dict[str, dict] = {}
        self._clk: dict[str, ClockAttacher] = {}
        self._paused: dict[str, str] = {}  # game id -> the side whose clock ran when paused

    # --- reading -------------------------------------------------------------------------------
    def games(self) -> list[dict]:
        """Every GAME of the current round in hall-board order (copies; safe to serialise)."""
        return [copy.deepcopy(g) for g in self._ordered()]

    def game(self, game_id: str) -> dict | None:
        """One GAME (a copy), or None when it is not in the current round."""
        g = self._games.get(game_id)
        return copy.deepcopy(g) if g is not None else None

    def ids(self) -> list[str]:
        """The current round's game ids in hall-board order."""
        return [g["id"] for g in self._ordered()]

    def live_game(self, game_id: str) -> dict:
        """The GAME itself, not a copy (for encoding without copying; never mutate it).
        KeyError when not in the current round."""
        return self._games[game_id]

    def snapshot(self) -> dict:
        """``{"type": "snapshot", "seq": N, "round": ROUND|None, "games": [GAME, ...]}``."""
        return {"type": "snapshot", "seq": self.seq, "round": copy.deepcopy(self.round),
                "games": self.games()}

    def _ordered(self) -> list[dict]:
        def key(g: dict) -> tuple:
            b = g["board"]
            return (0, int(b), b) if b.isdigit() else (1, 0, b)

        return sorted(self._games.values(), key=key)

    # --- folding -------------------------------------------------------------------------------
    def apply(self, entry: Entry) -> list[dict]:
        """Fold one entry; returns its deltas (possibly none). Entries at or below ``seq`` are
        ignored (a replay that overlaps), so folding is idempotent per seq."""
        if entry.seq <= self.seq:
            return []
        self.seq = entry.seq
        handler = _HANDLERS.get(entry.type)
        if handler is None:
            return []
        try:
            return handler(self, entry)
        except (KeyError, TypeError, ValueError, IndexError):
            return []

    def _round_started(self, e: Entry) -> list[dict]:
        d = e.data
        self.round = {"round": str(d.get("round", "")), "event": d.get("event") or "",
                      "site": d.get("site") or "", "date": d.get("date") or ""}
        self._games = {}
        self._clk = {}
        self._paused = {}
        for setup in d["games"]:
            g = new_game(setup, self.round["round"])
            self._games[g["id"]] = g
            self._clk[g["id"]] = ClockAttacher()
        return [{"type": "round", "seq": e.seq, "round": copy.deepcopy(self.round),
                 "games": self.games()}]

    def _game_added(self, e: Entry) -> list[dict]:
        """``armageddon_scheduled``: a new game on a board of the current round (Norway 2023: "If the
        classical game is drawn, an Armageddon game will be played")."""
        g = new_game(e.data, self.round["round"] if self.round else str(e.data.get("round", "")))
        self._games[g["id"]] = g
        self._clk[g["id"]] = ClockAttacher()
        return [{"type": "round", "seq": e.seq, "round": copy.deepcopy(self.round), "games": self.games()}]

    def _move_played(self, e: Entry) -> list[dict]:
        d = e.data
        g = self._games.get(d["game"])
        if g is None:
            return []
        ply = int(d["ply"])
        if ply != g["ply"] + 1:
            # Not the next ply (a replay overlap or a gap in the log): the view cannot place it.
            return []
        mover = _other(d["turn"]) if d.get("turn") in SIDES else _other(g["turn"])
        g["moves"].append(d["move"])
        g["san"].append(d.get("san") or d["move"])
        g["clocks"].append(None)
        changes = {"fen": d["fen"], "ply": ply, "turn": _other(mover), "last_move": d["move"],
                   "claimable": list(d.get("claimable") or [])}
        if g["status"] == "waiting":
            changes["status"] = "playing"
        g.update(changes)
        delta = {"type": "game", "seq": e.seq, "id": g["id"], "set": changes,
                 "append": {"move": d["move"], "san": g["san"][-1]}}
        clk = self._clk[g["id"]].moved(mover, ply)
        if clk is not None:
            g["clocks"][ply - 1] = clk
            delta["clk"] = [[ply, clk]]
        return [delta]

    def _clock(self, e: Entry) -> list[dict]:
        d = e.data
        g = self._games.get(d["game"])
        if g is None:
            return []
        running = d.get("running") if d.get("running") in SIDES else None
        clock = {"white_ms": int(d["white_ms"]), "black_ms": int(d["black_ms"]),
                 "running": running, "at": e.at}
        if g["status"] == "ended":
            clock["running"] = None
        changes: dict = {"clock": clock}
        if g["status"] == "waiting" and running is not None:
            changes["status"] = "playing"
        g.update(changes)
        delta = {"type": "game", "seq": e.seq, "id": g["id"], "set": changes}
        if e.type == "clock_pressed" and running is not None:
            presser = _other(running)
            attached = self._clk[g["id"]].pressed(presser, clock[f"{presser}_ms"],
                                                  g["moves"], g["clocks"], _movers(g))
            if attached is not None:
                ply, ms = attached
                g["clocks"][ply - 1] = ms
                delta["clk"] = [[ply, ms]]
        return [delta]

    def _draw_claimable(self, e: Entry) -> list[dict]:
        d = e.data
        g = self._games.get(d["game"])
        if g is None or g["status"] == "ended":
            return []
        if "ply" in d and int(d["ply"]) != g["ply"]:
            return []  # about a position that is no longer on the board (FIDE Laws 9.2: it lapsed)
        g["claimable"] = list(d.get("claims") or [])
        return [{"type": "game", "seq": e.seq, "id": g["id"],
                 "set": {"claimable": g["claimable"]}}]

    def _clock_adjusted(self, e: Entry) -> list[dict]:
        """An arbiter set the clock (``clock_adjusted``): new figures, the same side running."""
        d = e.data
        g = self._games.get(d["game"])
        if g is None:
            return []
        running = g["clock"]["running"] if g["clock"] else None
        clock = {"white_ms": int(d["white_ms"]), "black_ms": int(d["black_ms"]), "running": running,
                 "at": e.at}
        g["clock"] = clock
        return [{"type": "game", "seq": e.seq, "id": g["id"], "set": {"clock": clock}}]

    def _match_game_ready(self, e: Entry) -> list[dict]:
        """``match_game_ready``: the second game of a checkers match waits with its clock paused at
        the times carried over from the first (X.A.b: "The clocks shall be paused between games")."""
        d = e.data
        g = self._games.get(d["game"])
        if g is None or g["status"] != "waiting" or not isinstance(d.get("white_ms"), int):
            return []
        g["clock"] = {"white_ms": int(d["white_ms"]), "black_ms": int(d["black_ms"]), "running": None,
                      "at": e.at}
        return [{"type": "game", "seq": e.seq, "id": g["id"], "set": {"clock": g["clock"]}}]

    def _match_clock_chosen(self, e: Entry) -> list[dict]:
        """``match_clock_chosen``: the match clock both games of a checkers match are played under
        (11-Man National 2017 X.A.a: "At beginning of the round, 90 minutes will be set on both
        players' side of the clock. Or 2) ... 80 minutes + 10-second increment"): ``time_control``
        and ``match_clock`` of each game; the clock of a game not started shows the option's time,
        paused. A game already under way keeps its clock (the console refuses the choice then)."""
        d = e.data
        spec = d["time_control"]
        base_ms = {"90": 90 * 60_000, "80+10": 80 * 60_000}[d["option"]]
        choice = {"option": d["option"], "how": d.get("how"), "coin": d.get("coin"), "by": d.get("by"),
                  "at": e.at}
        out = []
        for gid in d.get("games") or [d["game"]]:
            g = self._games.get(gid)
            if g is None:
                continue
            changes: dict = {"time_control": copy.deepcopy(spec), "match_clock": dict(choice)}
            if g["status"] == "waiting" and (g["match"] or {}).get("game_no") == 1:
                changes["clock"] = {"white_ms": base_ms, "black_ms": base_ms, "running": None, "at": e.at}
            g.update(changes)
            out.append({"type": "game", "seq": e.seq, "id": gid, "set": copy.deepcopy(changes)})
        return out

    def _game_paused(self, e: Entry) -> list[dict]:
        """An arbiter paused (``game_paused``) or resumed (``game_resumed``) the game: the shown
        clock stops at the pause and runs again from the resumption."""
        d = e.data
        g = self._games.get(d["game"])
        if g is None or g["clock"] is None or g["status"] == "ended":
            return []
        if e.type == "game_paused":
            if g["clock"]["running"] is None:
                return []
            self._paused[g["id"]] = g["clock"]["running"]
            clock = frozen_clock(g["clock"], e.at)
        else:
            side = self._paused.pop(g["id"], None)
            if side is None:
                return []
            clock = {**g["clock"], "running": side, "at": e.at}
        g["clock"] = clock
        return [{"type": "game", "seq": e.seq, "id": g["id"], "set": {"clock": clock}}]

    def _arbiter_decision(self, e: Entry) -> list[dict]:
        """``arbiter_decision`` with result "*": a game wrongly ended goes on (its ``game_ended``
        entries stay in the log; the view shows it playing again). Other results come with their
        own ``game_ended``."""
        d = e.data
        g = self._games.get(d.get("game"))
        if g is None or d.get("result") != "*" or g["status"] != "ended":
            return []
        changes = {"status": "playing", "result": "*", "termination": None}
        g.update(changes)
        return [{"type": "game", "seq": e.seq, "id": g["id"], "set": changes}]

    def _game_ended(self, e: Entry) -> list[dict]:
        d = e.data
        g = self._games.get(d["game"])
        if g is None:
            return []
        changes = {"status": "ended", "result": d["result"],
                   "termination": d.get("termination"), "claimable": []}
        if g["clock"] is not None:
            changes["clock"] = frozen_clock(g["clock"], e.at)
        g.update(changes)
        return [{"type": "game", "seq": e.seq, "id": g["id"], "set": changes}]


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


def _movers(g: dict) -> list[str]:
    """The side that made each ply, from the side to move at the start (alternating)."""
    first = g["first_side"]
    return [first if i % 2 == 0 else _other(first) for i in range(len(g["moves"]))]


_HANDLERS = {
    "round_started": HallView._round_started,
    "armageddon_scheduled": HallView._game_added,
    "move_played": HallView._move_played,
    "draw_claimable": HallView._draw_claimable,
    "game_ended": HallView._game_ended,
    "clock_adjusted": HallView._clock_adjusted,
    "game_paused": HallView._game_paused,
    "game_resumed": HallView._game_paused,
    "arbiter_decision": HallView._arbiter_decision,
    "match_game_ready": HallView._match_game_ready,
    "match_clock_chosen": HallView._match_clock_chosen,
    **{t: HallView._clock for t in CLOCK_TYPES},
}
