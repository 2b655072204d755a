"""A gateway hall (``gateway.hall.Hall``) driven by device messages, for the unit tests: every entry
and feedback it produced is kept, in order, with the instant it was made at.

``Driver(*boards, fen=None, config=None, time_control="5400+30", kind="classical")`` sets up round 1
with one chess game per board (``round_started``, docs/events.md); ``move``, ``place``, ``clock``
and ``send`` publish as a device would (each device its own ``seq``), ``external`` appends an entry
someone else wrote (an arbiter's action), ``tick`` lets time pass, ``rebuilt`` is a new gateway
folded from the log so far (a restart). ``first_seq`` reads a log for a game's lowest device
``seq``; ``act`` appends an arbiter's action as the console does.
"""

from __future__ import annotations

import json

from dashboard.arbiter.actions import build
from gateway.hall import Hall
from services.views.spectator import SpectatorView

T = "hall-test"


def round_started(*boards: str, fen: str | None = None, time_control: str | None = "5400+30",
                  kind: str = "classical") -> dict:
    """The data of round 1's ``round_started``: game ``1-{b}`` on each board."""
    games = [{"id": f"1-{b}", "board": b, "round": "1", "white": "W", "black": "B", "white_elo": None,
              "black_elo": None, "variant": "chess", "time_control": time_control, "fen": fen,
              "kind": kind} for b in boards]
    return {"round": "1", "event": "Test", "site": "", "date": "2024.04.04", "games": games}


class Driver:
    """A hall with a record of every entry and feedback it produced."""

    def __init__(self, *boards: str, fen: str | None = None, hold_ms: int = 2000, config=None,
                 time_control: str | None = "5400+30", kind: str = "classical", announce: bool = False):
        self.config = config
        self.hall = Hall(T, hold_ms=hold_ms, config=config)
        self.entries: list[tuple[str, dict]] = []
        self.stamps: list[int] = []
        self.feedback: list[tuple[str, dict]] = []
        self.seqs: dict[tuple[str, str], int] = {}
        self.now = 0
        setup = ("round_started", round_started(*boards, fen=fen, time_control=time_control, kind=kind))
        if announce:  # appended while the gateway runs: it answers the set-up at once
            self.external(*setup)
        else:  # in the log before the gateway started
            self.entries.append(setup)
            self.stamps.append(0)
            self.hall.fold(*setup)

    def _record(self, step) -> None:
        self.entries.extend(step.entries)
        self.stamps.extend(self.now for _ in step.entries)
        self.feedback.extend(step.feedback)

    def send(self, board: str, kind: str, body, *, seq: int | None = None, raw: bytes | None = None,
             after_ms: int = 10):
        # a result counts on the clock's seq when the clock sends it (docs/protocol.md "Fields")
        device = "clock" if kind == "clock" or (isinstance(body, dict) and body.get("device") == "clock") else "board"
        if raw is None:
            if seq is None:
                seq = self.seqs.get((board, device), 0) + 1
            self.seqs[(board, device)] = max(seq, self.seqs.get((board, device), 0))
            raw = json.dumps({"seq": seq, **body}).encode()
        self.now += after_ms
        step = self.hall.handle(f"venue/{T}/boards/{board}/{kind}", raw, self.now)
        self._record(step)
        return step

    def move(self, board: str, uci: str, **kw):
        return self.send(board, "move", {"move": uci}, **kw)

    def place(self, board: str, placement: str, **kw):
        return self.send(board, "position", {"placement": placement}, **kw)

    def clock(self, board: str, event: str, white_ms: int, black_ms: int, running: str | None, **extra):
        after = extra.pop("after_ms", 10)
        return self.send(board, "clock", {"event": event, "white_ms": white_ms, "black_ms": black_ms,
                                          "running": running, **extra}, after_ms=after)

    def external(self, type_: str, data: dict):
        """An entry someone else appended (the organiser, an arbiter's action), then the answers."""
        self.entries.append((type_, data))
        self.stamps.append(self.now)
        step = self.hall.external(type_, data, self.now, None, self.now)
        self._record(step)
        return step

    def tick(self, after_ms: int):
        self.now += after_ms
        step = self.hall.tick(self.now)
        self._record(step)
        return step

    def rebuilt(self) -> Hall:
        """A gateway started on the log so far (entries as stored: JSON text)."""
        fresh = Hall(T, hold_ms=self.hall.hold_ms, config=self.config)
        for seq, ((type_, data), at) in enumerate(zip(self.entries, self.stamps), start=1):
            fresh.fold(type_, json.loads(json.dumps(data)), at, seq)
        return fresh

    def types(self, *wanted: str) -> list[str]:
        return [t for t, _ in self.entries if not wanted or t in wanted]

    def of(self, type_: str) -> list[dict]:
        return [d for t, d in self.entries if t == type_]

    def played(self, board: str = "1") -> list[str]:
        return [d["move"] for t, d in self.entries if t == "move_played" and d["board"] == board]


def first_seq(entries: list[tuple[str, dict]], game: str, device: str = "board") -> int:
    """The lowest ``seq`` of ``device`` among ``game``'s entries in ``entries`` (a log: ``(type,
    data)`` pairs) made from an applied message (a ``message_held`` is not applied)."""
    return min(d["seq"] for t, d in entries if d.get("game") == game and d.get("device") == device
               and d.get("seq") is not None and t != "message_held")


def act(d: Driver, action: str, body: dict):
    """What POST /api/arbiter/actions appends: the action judged on the hall's folded state."""
    items = build(action, body, "chief", SpectatorView(d.hall.state).every_game(), d.hall.state, now_ms=d.now)
    for t, data in items:
        d.external(t, data)
    return items
