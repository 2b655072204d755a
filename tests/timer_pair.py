"""Two gateway halls driven side by side with the same inputs, for the timer's tests
(test_timer_instants, test_presence): the gateway's timer (``gateway.hall.Hall``, which looks at a
game only at its next instant) and the oracle (``EveryTick``: every unfinished game looked at on
every tick, the behaviour before), under a tournament file of ``events/`` whose round 1 starts at
``T0`` and ends 6 hours later; every step's entries and feedback must be the same.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from timer_pair import Pair``.
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from pathlib import Path

from gateway.hall import Hall
from services.arbiter_office.round_from_file import round_from_tournament
from services.regulations import referee
from services.regulations.tournament_file import load_tournament


T = "timer-instants"
T0 = 1_700_000_000_000
MIN = 60_000
HOUR = 60 * MIN
END = T0 + 6 * HOUR  # round 1's scheduled end (checkers X.B.e: no start later than 30 minutes before)
EVENTS = Path(__file__).resolve().parents[1] / "events"
BOARDS = ("1", "2", "3")  # devices on boards 1 and 2; board 3's players never come


class EveryTick(Hall):
    """The timer as it was: under a tournament file every unfinished game is looked at on every
    tick (and a game over when an entry touched it); without one, as ``Hall``."""

    def _due_games(self, now_ms: int) -> list:
        if self._all or self.state.config is None:
            return super()._due_games(now_ms)
        due, self._due = self._due, {}
        picked = [g for gid, g in self.state.games.items() if not g.ended or gid in due]
        return [g for g in picked if self.boards is None or g.board in self.boards]


def tournament(name: str):
    t = load_tournament((EVENTS / name).read_text(), name)
    r1 = dataclasses.replace(t.rounds[0], start_ms=T0, end_ms=END)
    return dataclasses.replace(t, slug=T, rounds=(r1, *t.rounds[1:]))


def round_data(t) -> dict:
    d = round_from_tournament(t, 1, start_ms=T0)
    return {**d, "games": [g for g in d["games"] if g["board"] in BOARDS]}


class Pair:
    """The timer's hall (``hall``) and the oracle (``oracle``) on the same inputs; every step's
    entries and feedback compared. Quacks as device_traffic's ``Run`` for its strategies."""

    def __init__(self, t, rate: float = 1.0):
        self.t, self.rate = t, rate
        self.hall = Hall(T, hold_ms=3000, config=t, clock_rate=rate)
        self.oracle = EveryTick(T, hold_ms=3000, config=t, clock_rate=rate)
        self.log: list[tuple[str, dict, int]] = []
        self.now = T0 - MIN
        self.seqs: dict = defaultdict(int)
        self.steps = 0
        self.external("round_started", round_data(t))

    def _same(self, mine, theirs, what: str) -> None:
        self.steps += 1
        assert mine.entries == theirs.entries, f"{what} at {self.now - T0} ms from the start"
        assert mine.feedback == theirs.feedback, f"{what} at {self.now - T0} ms from the start"
        assert self.hall.faults == self.oracle.faults == 0, self.hall.last_fault or self.oracle.last_fault
        self.log.extend((ty, d, self.now) for ty, d in mine.entries)

    def external(self, type_: str, data: dict) -> None:
        self.log.append((type_, data, self.now))
        mine = self.hall.external(type_, _copy(data), self.now, None, self.now)
        self._same(mine, self.oracle.external(type_, _copy(data), self.now, None, self.now), type_)

    def send(self, board: str, kind: str, body, seq: int | None = None):
        if not isinstance(body, dict):
            return f"venue/{T}/boards/{board}/{kind}", body
        device = "clock" if kind == "clock" else "board"
        if seq is None:
            self.seqs[(board, device)] += 1
            seq = self.seqs[(board, device)]
        return f"venue/{T}/boards/{board}/{kind}", json.dumps({"seq": seq, **body}).encode()

    def handle(self, topic: str, payload: bytes) -> None:
        self._same(self.hall.handle(topic, payload, self.now), self.oracle.handle(topic, payload, self.now), topic)

    def tick(self, at: int | None = None) -> list[str]:
        """Both halls tick at ``at`` (default: now); the entry types said."""
        self.now = max(self.now, self.now if at is None else at)
        mine = self.hall.tick(self.now)
        self._same(mine, self.oracle.tick(self.now), "tick")
        return [ty for ty, _ in mine.entries]

    def restart(self) -> None:
        """Both gateways start again on the log so far (a rebuilt timer looks at every game once)."""
        self.hall = Hall(T, hold_ms=3000, config=self.t, clock_rate=self.rate)
        self.oracle = EveryTick(T, hold_ms=3000, config=self.t, clock_rate=self.rate)
        for seq, (type_, data, at) in enumerate(self.log, start=1):
            self.hall.fold(type_, _copy(data), at, seq)
            self.oracle.fold(type_, _copy(data), at, seq)

    def says_at(self, at: int) -> bool:
        """Whether a tick of the oracle at ``at`` (with nothing new meanwhile) would append an entry:
        what ``Hall.tick`` asks of every game, read without changing anything."""
        o = self.oracle
        for g in o.state.games.values():
            if g.ended:
                continue
            if referee.due(o.state, g, at, o.watches):
                return True
            watch = o.watches.get(g.id)
            if g.variant == "chess" and watch is not None and any(
                    f["kind"] == "press_without_move" for f in watch.tick(at, g.reported)):
                return True
        return any(dev.waiting and at - (dev.waiting_since or at) >= o.hold_ms
                   for b in o.state.boards.values() for dev in b.devices.values())

    def next_change(self, horizon: int = 5 * HOUR) -> int | None:
        """The first instant after now at which the oracle would say something (bisection; every
        rule here, once due, stays due until said), or None within ``horizon``."""
        lo, hi = self.now, self.now + horizon
        if not self.says_at(hi):
            return None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self.says_at(mid) else (mid, hi)
        return hi


def _copy(data: dict) -> dict:
    return json.loads(json.dumps(data))  # as stored: JSON text, one copy per hall


def walk(pair: Pair, at: int) -> list[str]:
    """Tick both halls a ms before ``at``, at it and a ms after: the entry types each said."""
    return [" ".join(pair.tick(at + d)) for d in (-1, 0, 1)]
