"""The dashboard's live state: follows the event log, folds it into the one state
(``services.state.HallState``; ``state``), projects each change for spectators
(``services.views.spectator.SpectatorView``; ``view``), encodes each delta once and publishes it to
the ``Hub``; keeps recent deltas so a reconnecting spectator can
resume from the last ``seq`` it saw.

Errors: when the store fails (``EventLogError``, a connection error) the feed records the error
(``/api/health`` shows it), waits ``retry_s`` seconds and follows again from the last applied seq;
nothing already folded is lost.

Spectators following some boards only (``BoardSet``, ``/ws/live?boards=SPEC``): each game delta is
published with its board so the hub offers it to that board's followers only; a new round is
published to everyone, cut to each selection's games; ``snapshot(boards)`` and ``since(after,
boards)`` give the selection's snapshot and missed deltas. Filtered snapshots are joined from the
same per-game encoded texts and cached per (selection, seq).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque

from services.eventlog.base import EventLog
from services.state import HallState
from services.views.spectator import SpectatorView

from dashboard.boardspec import BoardSet, hall_order
from dashboard.hub import Hub

log = logging.getLogger("venue.dashboard")

DEFAULT_HISTORY = 10_000
SNAPSHOT_CACHE = 1024  # filtered snapshots kept (one per selection; each is for one seq)


def encode(message: dict) -> str:
    """Compact JSON text of one message (the only place messages are encoded)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Feed:
    """``view``: the fold; ``hub``: the spectators; ``history``: how many recent deltas are kept
    for resuming; ``observers``: more folds fed with every entry, in order (each ``f(entry)``). ``caught_up`` is set once the log's entries at start-up have been folded."""

    def __init__(self, log_: EventLog, hub: Hub, history: int = DEFAULT_HISTORY, retry_s: float = 1.0,
                 observers: list | None = None):
        self.log = log_
        self.observers = list(observers or [])  # other folds of the same entries: f(entry), sync
        self.hub = hub
        self.state = HallState()
        self.view = SpectatorView(self.state)
        self.recent: deque[tuple[int, str | None, str]] = deque(maxlen=max(1, history))  # seq, board|None, text
        self.floor = 0  # every delta with seq > floor is in ``recent``
        self.caught_up = asyncio.Event()
        self.error: str | None = None
        self.retry_s = retry_s
        self._snap: tuple[int, str] | None = None
        self._games: tuple[int, str] | None = None
        self._game_text: dict[str, str] = {}  # id -> encoded GAME, dropped when the game changes
        self._round_text = "null"
        self._boards: dict[str, list[str]] | None = None  # board -> game ids, hall order; per round
        self._cut: dict[BoardSet, tuple[int, str]] = {}  # filtered snapshots, insertion order

    async def run(self) -> None:
        """Follow the log forever (cancel to stop)."""
        while True:
            try:
                target = await self.log.last_seq()
                if self.view.seq >= target:
                    self.caught_up.set()
                async for entry in self.log.follow(self.view.seq):
                    self.ingest(entry)
                    if entry.seq >= target:
                        self.caught_up.set()
                    self.error = None
                return  # the log was closed
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store went away: say so, then try again
                self.error = f"{type(exc).__name__}: {exc}"
                log.warning("event log: %s; retrying in %.1fs", self.error, self.retry_s)
                await asyncio.sleep(self.retry_s)

    def ingest(self, entry) -> None:
        """Fold one entry and publish its deltas (synchronous: no await between fold and publish);
        then hand it to each observer (the arbiters' desk)."""
        if entry.seq <= self.state.seq:
            return  # a replay that overlaps
        for delta in self.view.deltas(self.state.apply(entry), entry.seq):
            seq = delta["seq"]
            text = encode(delta)
            if delta["type"] == "round":
                self._game_text.clear()
                self._boards = None
                self._round_text = encode(self.view.round)
                board = None
            else:
                self._game_text.pop(delta["id"], None)
                try:
                    board = self.view.live_game(delta["id"])["board"]
                except KeyError:
                    board = ""  # nobody's board: all-boards clients only
            if len(self.recent) == self.recent.maxlen:
                self.floor = self.recent[0][0]
            self.recent.append((seq, board, text))
            if board is None:
                self.hub.publish(seq, text, None, lambda boards, seq=seq: (
                    f'{{"type":"round","seq":{seq},"round":{self._round_text},'
                    f'"games":{self._games_json(boards)}}}'))
            else:
                self.hub.publish(seq, text, board)
        for observe in self.observers:
            observe(entry)

    def _ids(self, boards: BoardSet | None) -> list[str]:
        """The game ids on ``boards`` (None: all), in hall order."""
        if boards is None:
            return self.view.ids()
        if self._boards is None:
            index: dict[str, list[str]] = {}
            for gid in self.view.ids():
                index.setdefault(self.view.live_game(gid)["board"], []).append(gid)
            self._boards = index
        index = self._boards
        if len(boards) > len(index):
            return [gid for b, gids in sorted(index.items(), key=lambda kv: hall_order(kv[0]))
                    if b in boards for gid in gids]
        return [gid for b in boards for gid in index.get(b, ())]

    def _games_json(self, boards: BoardSet | None = None) -> str:
        """``[GAME, ...]`` (of ``boards`` only, when given) as JSON text, re-encoding only the games
        changed since last time (a 1,000-board snapshot costs a join, not a deep copy and a full
        encode)."""
        parts = []
        for gid in self._ids(boards):
            text = self._game_text.get(gid)
            if text is None:
                text = self._game_text[gid] = encode(self.view.live_game(gid))
            parts.append(text)
        return "[" + ",".join(parts) + "]"

    def snapshot(self, boards: BoardSet | None = None) -> tuple[int, str]:
        """``(seq, text)`` of the coalesced latest full state (``SpectatorView.snapshot``), once per seq;
        with ``boards``, the same message with ``games`` cut to the games on those boards (encoded
        once per selection and seq, up to ``SNAPSHOT_CACHE`` selections kept)."""
        if boards is not None:
            hit = self._cut.get(boards)
            if hit is not None and hit[0] == self.view.seq:
                return hit
            seq = self.view.seq
            hit = (seq, f'{{"type":"snapshot","seq":{seq},"round":{self._round_text},'
                        f'"games":{self._games_json(boards)}}}')
            self._cut.pop(boards, None)
            if len(self._cut) >= SNAPSHOT_CACHE:
                del self._cut[next(iter(self._cut))]
            self._cut[boards] = hit
            return hit
        if self._snap is None or self._snap[0] != self.view.seq:
            seq = self.view.seq
            self._snap = (seq, f'{{"type":"snapshot","seq":{seq},"round":{self._round_text},'
                               f'"games":{self._games_json()}}}')
        return self._snap

    def games_text(self) -> tuple[int, str]:
        """``(seq, text)`` of ``{"round", "seq", "games"}`` (``GET /api/games``), once per seq."""
        if self._games is None or self._games[0] != self.view.seq:
            seq = self.view.seq
            self._games = (seq, f'{{"round":{self._round_text},"seq":{seq},"games":{self._games_json()}}}')
        return self._games

    def since(self, after: int, boards: BoardSet | None = None) -> list[tuple[int, str]] | None:
        """The deltas after ``after`` as ``(seq, text)``, or None when that is too old (or unknown):
        send a snapshot. With ``boards``: only the deltas of games on those boards, and None when a
        new round began after ``after`` (its message holds every game: a filtered snapshot instead)."""
        if after < self.floor or after > self.view.seq:
            return None
        if boards is None:
            return [(s, t) for (s, _, t) in self.recent if s > after]
        out = []
        for s, b, t in self.recent:
            if s > after:
                if b is None:
                    return None
                if b in boards:
                    out.append((s, t))
        return out

