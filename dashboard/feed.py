"""The dashboard's live state: follows the event log, folds it into the one state
(``services.state.HallState``), projects each change for its audiences, encodes each delta once and
publishes it to their ``Hub``; keeps recent deltas so a reconnecting spectator can resume from the
last ``seq`` it saw.

Two audiences (issue "Broadcast delay", docs/broadcast.md), each a :class:`Channel` (a fold, its
GAMEs, its websockets, its recent deltas and encoded texts):

- ``live``: the arbiters, the console and an arbiter's hall screen: every entry at once, every claim;
- ``public``: everyone else (``/ws/live``, ``/api/*``, PGN feeds, board pictures, standings, the
  pushes): the hall as it was ``broadcast_delay_ms`` ago (the registered tournament file's
  ``[broadcast] delay``; ``services.views.delay``), claims by an intended move left out.

Without a delay the two share one fold (``shared``): an entry is folded once and each channel
projects it. When a registration sets a delay, the live channel takes a copy of the fold and the
public one goes on folding only the entries that are due (``release``, run by a ticker and before
every public request); when the delay goes back to 0 everything waiting is released and the fold is
shared again. The time is ``clock()`` (ms since the epoch; injected in tests).

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
import copy
import json
import logging
import time
from collections import deque
from typing import Callable

from services.eventlog.base import EventLog
from services.events import GatewayDeaf, GatewayHearing
from services.state import Changes, HallState
from services.views.delay import Delay
from services.views.spectator import SpectatorView

from dashboard.boardspec import BoardSet, hall_order
from dashboard.hub import Hub

log = logging.getLogger("venue.dashboard")

DEFAULT_HISTORY = 10_000
SNAPSHOT_CACHE = 1024  # filtered snapshots kept (one per selection; each is for one seq)
TICK_S = 0.25  # the longest the release ticker sleeps (an injected clock may jump)


def encode(message: dict | None) -> str:
    """Compact JSON text of one message (the only place messages are encoded)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def wall_ms() -> int:
    """Now, ms since the epoch (the dashboard's clock unless one is injected)."""
    return int(time.time() * 1000)


class Channel:
    """One audience: ``state`` (its fold), ``view`` (its GAMEs; ``public``: the spectators' cut),
    ``hub`` (its websockets), ``recent`` deltas kept for resuming (``history`` of them) and the
    encoded texts of its snapshots."""

    def __init__(self, state: HallState, hub: Hub, history: int = DEFAULT_HISTORY, public: bool = True):
        self.state = state
        self.view = SpectatorView(state, public=public)
        self.hub = hub
        self.recent: deque[tuple[int, str | None, str]] = deque(maxlen=max(1, history))  # seq, board|None, text
        self.floor = 0  # every delta with seq > floor is in ``recent``
        self.texts: dict = {}  # (kind, key) -> (seq, text, etag, last_modified): PGN feeds (dashboard.api)
        self._snap: tuple[int, str] | None = None
        self._games: tuple[int, str] | None = None
        self._game_text: dict[str, str] = {}  # id -> encoded GAME, dropped when the game changes
        self._round_text = "null"
        self._boards: dict[str, list[str]] | None = None  # board -> game ids, hall order; per round
        self._cut: dict[BoardSet, tuple[int, str]] = {}  # filtered snapshots, insertion order

    def reset(self, state: HallState | None = None, shift_ms: int | None = None) -> None:
        """Read ``state`` (default: the same) with clocks shifted by ``shift_ms`` from now on: every
        encoded text is built again; a client resuming from before gets a snapshot."""
        self.view.reset(state, shift_ms)
        if state is not None:
            self.state = state
        self._game_text.clear()
        self._boards = None
        self._cut.clear()
        self._snap = self._games = None
        self._round_text = encode(self.view.round)
        self.floor = self.state.seq

    def forget(self, changes: Changes) -> None:
        """What one folded entry changed, when nobody follows the channel: its GAMEs and texts are
        built again when asked, and resuming from before it takes a snapshot."""
        self.view.forget(changes)
        for gid in (*changes.games, *changes.appended, *changes.clk):
            self._game_text.pop(gid, None)
        if changes.rounds:
            self._game_text.clear()
            self._boards = None
            self._round_text = encode(self.view.round)
        self.recent.clear()
        self.floor = self.state.seq

    def resend(self) -> None:
        """Send every client the current round afresh (as a ``round`` message): after the clocks'
        shift changed, what they hold is no longer right."""
        seq = self.view.seq
        self.hub.publish(seq, f'{{"type":"round","seq":{seq},"round":{self._round_text},'
                              f'"games":{self._games_json()}}}', None, lambda boards: (
            f'{{"type":"round","seq":{seq},"round":{self._round_text},"games":{self._games_json(boards)}}}'))

    def publish(self, changes: Changes, seq: int) -> None:
        """Project what one folded entry changed and offer its deltas to the hub (synchronous)."""
        for delta in self.view.deltas(changes, seq):
            dseq = delta["seq"]
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
            self.recent.append((dseq, board, text))
            if board is None:
                self.hub.publish(dseq, text, None, self._round_for(dseq))
            else:
                self.hub.publish(dseq, text, board)

    def _round_for(self, dseq: int) -> Callable[[BoardSet], str]:
        """The ``round`` message of ``dseq`` cut to a client's boards (``Hub.publish``'s ``text_for``)."""
        return lambda boards: (f'{{"type":"round","seq":{dseq},"round":{self._round_text},'
                               f'"games":{self._games_json(boards)}}}')

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


class Feed:
    """Follows ``log_`` into the two channels of the module docstring: ``public`` (spectators; its
    ``hub`` is the one given) and ``live`` (arbiters). ``state``: the live fold (the arbiters'
    actions read it); ``view``, ``hub``, ``snapshot``, ``games_text`` and ``since``: the public
    channel's. ``history``: recent deltas kept for resuming; ``observers``: more folds fed with every
    entry at once, in order (each ``f(entry)``); ``clock()``: now in ms (the delay's time).
    ``caught_up`` is set once the log's entries at start-up have been folded."""

    def __init__(self, log_: EventLog, hub: Hub, history: int = DEFAULT_HISTORY, retry_s: float = 1.0,
                 observers: list | None = None, clock: Callable[[], int] = wall_ms):
        self.log = log_
        self.observers = list(observers or [])  # other folds of the same entries: f(entry), sync
        state = HallState()
        self.public = Channel(state, hub, history, public=True)
        self.live = Channel(state, Hub(hub.cap), history, public=False)
        self.delay = Delay(0)
        self.clock = clock
        self.caught_up = asyncio.Event()
        self.error: str | None = None
        self.retry_s = retry_s
        # client id -> its latest gateway_deaf entry's data, until its gateway_hearing (``/api/health``)
        self.deaf_gateways: dict[str, dict] = {}

    # --- the public channel, as before there were two --------------------------------------------
    @property
    def state(self) -> HallState:
        """The live fold (every entry at once)."""
        return self.live.state

    @property
    def view(self) -> SpectatorView:
        """The spectators' view (delayed when the event sets a delay)."""
        return self.public.view

    @property
    def hub(self) -> Hub:
        """The spectators' websockets."""
        return self.public.hub

    def snapshot(self, boards: BoardSet | None = None) -> tuple[int, str]:
        """``Channel.snapshot`` of the public channel."""
        return self.public.snapshot(boards)

    def games_text(self) -> tuple[int, str]:
        """``Channel.games_text`` of the public channel."""
        return self.public.games_text()

    def since(self, after: int, boards: BoardSet | None = None) -> list[tuple[int, str]] | None:
        """``Channel.since`` of the public channel."""
        return self.public.since(after, boards)

    @property
    def shared(self) -> bool:
        """Both channels read one fold (no delay in force)."""
        return self.live.state is self.public.state

    # --- following the log -----------------------------------------------------------------------
    async def run(self) -> None:
        """Follow the log forever (cancel to stop); a ticker releases delayed entries when due."""
        ticker = asyncio.create_task(self._tick(), name="dashboard-delay")
        try:
            await self._follow()
        finally:
            ticker.cancel()

    async def _follow(self) -> None:
        while True:
            try:
                target = await self.log.last_seq()
                self.error = None  # the store answers again (a replaced log keeps refusing: LogReplaced)
                if self.state.seq >= target:
                    self.caught_up.set()
                async for entry in self.log.follow(self.state.seq):
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

    async def _tick(self) -> None:
        while True:
            due = self.delay.next_due()
            wait = TICK_S if due is None else min(TICK_S, max(0.0, (due - self.clock()) / 1000))
            await asyncio.sleep(wait)
            self.release()

    def ingest(self, entry) -> None:
        """Fold one entry live and publish its deltas (synchronous: no await between fold and
        publish); the public channel gets it at once without a delay, else when due; then hand it to
        each observer (the arbiters' desk)."""
        if entry.seq <= self.state.seq:
            return  # a replay that overlaps
        shared = self.shared
        changes = self.live.state.apply(entry)
        if self.live.hub.clients:
            self.live.publish(changes, entry.seq)
        else:  # nobody watches live: keep the view right, a later client starts from a snapshot
            self.live.forget(changes)
        if shared:
            self.public.publish(changes, entry.seq)
        else:
            self.delay.offer(entry)
        self._follow_delay()
        self.release()
        if entry.type == GatewayDeaf.TYPE or entry.type == GatewayHearing.TYPE:
            self._gateway_link(entry)
        for observe in self.observers:
            observe(entry)

    def _gateway_link(self, entry) -> None:
        """Keep which gateways the broker delivers nothing to (``gateway_deaf`` until its
        ``gateway_hearing``, per client id): ``/api/health`` is not ok while one is."""
        client_id = str(entry.data.get("client_id"))
        if entry.type == GatewayDeaf.TYPE:
            self.deaf_gateways[client_id] = {**entry.data, "at": entry.at}
        else:
            self.deaf_gateways.pop(client_id, None)

    def _follow_delay(self) -> None:
        """Take up the registered delay: fork the live fold off when one begins, release everything
        and share the fold again when it ends (module docstring)."""
        t = self.state.config
        delay = getattr(t, "broadcast_delay_ms", 0) if t is not None else 0
        if delay == self.delay.delay_ms:
            return
        self.delay.set_delay(delay)
        if delay and self.shared:
            self.live.reset(copy.deepcopy(self.public.state))
        elif not delay and not self.shared:
            self.release()
            self.live.reset(self.public.state)
        self.public.reset(shift_ms=delay)
        self.public.resend()

    def release(self, now_ms: int | None = None) -> int:
        """Fold into the public channel the entries due by ``now_ms`` (default ``clock()``) and
        publish them; how many."""
        due = self.delay.due(self.clock() if now_ms is None else now_ms)
        for entry in due:
            self.public.publish(self.public.state.apply(entry), entry.seq)
        return len(due)
