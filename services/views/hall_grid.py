"""The arbiters' hall grid: every board of the current round at a glance (a projection of the
state, pure).

``hall_rows(state, open_alerts)`` -> one ROW per hall board, in hall order::

    {"board", "game", "white", "black", "variant", "status" ("waiting"/"playing"/"ended"), "result",
     "termination", "ply", "turn", "last_san", "clock": {"white_ms", "black_ms", "running", "at"} | None,
     "clock_state": "running" | "paused" | "stopped" | None (no reading yet), "device": "online" |
     "offline" | None (no status yet), "battery": TEXT | None, "held": bool (an illegal move waits for
     the arbiter, F05), "holding": N (messages the board holds until their game is decided:
     docs/protocol.md "Two games on one board"), "holding_for": "arbiter"/"next_game"/"either"/None,
     "next_game": GAME id|None (the board's game after the one shown), "rotated": bool (F06), "absent":
     [SIDE...] (not at the board yet: no check-in, move or press; FIDE Laws 6.7.1), "alerts": N (open
     alerts naming the board), "problems": [WORD...]}

``problems`` names what needs an arbiter's eye: ``offline``, ``alerts``, ``absent`` (only once the
round has started), ``held``, ``holding``; the grid's filter shows the boards that have any. Clock values in ms;
``clock.at`` is the time of the reading (a running clock shows ``running``'s time minus the time
since ``at``).
"""

from __future__ import annotations

from services.state.model import GameState


def alert_counts(open_alerts) -> dict[str, int]:
    """Open alerts per hall board: an alert with a ``board``, and for a round's "not at the board"
    alert each board with a player still listed as absent or defaulted."""
    counts: dict[str, int] = {}
    for a in open_alerts:
        boards = {str(i.get("board")) for i in (a.evidence or {}).get("items") or ()
                  if i.get("state") in ("absent", "defaulted") and i.get("board") is not None}
        if a.board is not None:
            boards.add(str(a.board))
        for b in boards:
            counts[b] = counts.get(b, 0) + 1
    return counts


def _clock_state(g: GameState) -> str | None:
    if g.clock is None:
        return None
    if g.clock.running:
        return "running"
    return "paused" if g.paused is not None or g.clock_event in ("clock_paused", "game_paused") else "stopped"


def board_row(state, board: str, game_id: str, counts: dict[str, int], now_ms: int | None = None) -> dict:
    """The row of one hall board showing game ``game_id``."""
    g = state.games[game_id]
    b = state.boards.get(board)
    rnd = state.rounds.get(g.round)
    started = rnd is not None and rnd.start_ms is not None and now_ms is not None and now_ms >= rnd.start_ms
    absent = [] if g.ended else [side for side in ("white", "black") if g.arrived.get(side) is None]
    device = {"device_online": "online", "device_offline": "offline"}.get(b.status) if b else None
    row = {"board": board, "game": g.id, "white": g.white, "black": g.black, "variant": g.variant,
           "status": g.status, "result": g.result, "termination": g.termination, "ply": g.ply, "turn": g.turn,
           "last_san": g.san[-1] if g.san else None, "clock": g.clock.as_json() if g.clock else None,
           "clock_state": _clock_state(g), "device": device, "battery": b.battery if b else None,
           "held": bool(b and b.held), "holding": len(b.awaiting) if b else 0,
           "holding_for": b.awaiting[0]["reason"] if b and b.awaiting else None,
           "next_game": b.next_game(g.id) if b else None, "rotated": bool(b and b.rotated), "absent": absent,
           "alerts": counts.get(board, 0)}
    row["problems"] = [word for word, on in (("offline", device == "offline"), ("alerts", row["alerts"] > 0),
                                             ("absent", bool(absent) and (started or g.ply > 0)),
                                             ("held", row["held"]), ("holding", row["holding"] > 0)) if on]
    return row


def hall_boards(state) -> list[tuple[str, str]]:
    """``(board, game shown)`` of the current round in hall order: the game a board's devices play
    now (a checkers match's second game once it began), else the board's first game."""
    rnd = state.rounds.get(state.current or "")
    if rnd is None:
        return []
    seen: dict[str, str] = {}
    for gid in rnd.games:
        g = state.games.get(gid)
        if g is not None and g.board not in seen:
            b = state.boards.get(g.board)
            seen[g.board] = b.game if b is not None and b.game in state.games else gid
    return list(seen.items())


def hall_rows(state, open_alerts=(), now_ms: int | None = None) -> list[dict]:
    """Every board of the current round (see the module docstring). ``now_ms``: the time, for
    telling whether the round has started (absent players count as a problem from then)."""
    counts = alert_counts(open_alerts)
    return [board_row(state, board, gid, counts, now_ms) for board, gid in hall_boards(state)]
