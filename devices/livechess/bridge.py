"""The running LiveChess bridge: DGT LiveChess's websocket in, our device protocol out over MQTT
(docs/boards.md).

One bridge per LiveChess instance. It connects to LiveChess, lists the e-boards (``eboards``),
subscribes to each mapped board's ``eboardevent`` feed and asks for the list again every
``poll_s`` seconds (the feed carries placements, clocks and LiveChess's reading of the game, not
the board's state: a board that stops responding is seen in the list). Every mapped e-board (serial
number -> hall board) has its own MQTT link (``devices.livechess.link``) and its own ``seq`` values,
kept in the state file (``devices.livechess.store``) with every message the gateway has not yet
confirmed, before each message goes out.

When LiveChess cannot be reached, or its connection drops, every mapped board goes ``offline``
and the bridge connects again after a back-off (0.5 s doubling to 10 s); the boards come back
``online`` with LiveChess's next list, and their placements and clocks with the first message of
their feed (not the list's, which carries no reading of the game): the moves made meanwhile are
recovered from LiveChess's reading (``devices.livechess.recover``) and go out one position each.
An e-board LiveChess lists in a state the bridge does not know, or that it cannot read, is not
usable (offline): the other boards go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from pathlib import Path
from typing import Awaitable, Callable

import websockets

from devices.livechess import translate
from devices.livechess.api import (LiveChessError, eboards_call, error_text, parse_eboards, parse_event,
                                   read_response, subscribe_call)
from devices.livechess.link import RETRY_S, BoardLink
from devices.livechess.store import SeqStore
from services.protocol.mqtt_url import parse_mqtt_url

log = logging.getLogger(__name__)

DEVICE = {"position": "board", "clock": "clock"}  # our topic -> the device whose seq it uses
BACKOFF_FIRST_S, BACKOFF_MAX_S = 0.5, 10.0


def parse_board_map(spec: str) -> dict[str, str]:
    """``SERIAL=BOARD[,SERIAL=BOARD...]``, or the path of a file with one ``SERIAL=BOARD`` (or
    ``SERIAL BOARD``) a line (``#`` starts a comment) -> ``{serial: board}``. Raises ValueError for
    a malformed pair, a board label that is not 1-32 letters, digits, ``.``, ``_``, and a serial or
    a board given twice."""
    import re

    path = Path(spec)
    lines = path.read_text(encoding="utf-8").splitlines() if "=" not in spec and path.is_file() else spec.split(",")
    out: dict[str, str] = {}
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in (line.split("=", 1) if "=" in line else line.split(None, 1))]
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"board map: {raw.strip()!r} is not SERIAL=BOARD")
        serial, board = parts
        if not re.fullmatch(r"[A-Za-z0-9._]{1,32}", board):
            raise ValueError(f"board map: hall board {board!r} is not 1-32 letters, digits, '.' or '_'")
        if serial in out:
            raise ValueError(f"board map: serial {serial} is mapped twice")
        if board in out.values():
            raise ValueError(f"board map: hall board {board} has two e-boards")
        out[serial] = board
    if not out:
        raise ValueError("board map: no SERIAL=BOARD pair")
    return out


class LiveChessBridge:
    """Bridge LiveChess at ``url`` to the broker at ``mqtt_url`` for ``tournament``.

    ``boards``: ``{serial: hall board}``; ``state``: the state file (seqs and last readings);
    ``round``: the round label the seqs belong to (a new one starts them at 1); ``logins``:
    ``{board: (username, password)}`` (each board's own Mosquitto login), else every link uses
    ``username``/``password`` (or the URL's); ``poll_s``: how often the e-board list is asked for;
    ``seq_jump``: move every board's seqs this far ahead first (after a power cut); ``sleep``: how
    the back-off waits (``asyncio.sleep``; tests pass a faster one); ``retry_s``: how long the links
    wait for the gateway's feedback before sending what it has not confirmed again
    (``devices.livechess.link``). ``links``: board -> BoardLink;
    ``errors``: LiveChess messages (or parts of them) that could not be read (text); ``connected``:
    set while LiveChess is connected; ``following``: set once every mapped board LiveChess lists is
    subscribed to (cleared when the connection drops)."""

    def __init__(self, url: str, mqtt_url: str, tournament: str, boards: dict[str, str], state: Path | str, *,
                 round: str | None = None, logins: dict[str, tuple[str, str]] | None = None,
                 username: str | None = None, password: str | None = None, poll_s: float = 1.0,
                 seq_jump: int = 0, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 retry_s: float = RETRY_S):
        target = parse_mqtt_url(mqtt_url)
        self.url, self.tournament, self.boards, self.poll_s = url, tournament, dict(boards), poll_s
        self.sleep = sleep
        self.store = SeqStore(state, tournament, round)
        if seq_jump:
            self.store.jump(seq_jump, list(self.boards.values()))
        self.links: dict[str, BoardLink] = {}
        for board in self.boards.values():
            user, secret = (logins or {}).get(board, (username or target.username, password or target.password))
            if logins is not None and board not in logins:
                raise ValueError(f"no Mosquitto login for hall board {board} in the credentials")
            link = BoardLink(target.host, target.port, tournament, board, username=user, password=secret,
                             on_confirm=functools.partial(self.store.confirm, board), retry_s=retry_s)
            for device, seq, kind, body in self.store.unconfirmed(board):
                link.keep(device, seq, kind, body)  # sent by an earlier run, never confirmed: sent again
            self.links[board] = link
        self.errors: list[str] = []
        self.connected = asyncio.Event()
        self.following = asyncio.Event()
        self._ids = itertools.count(1)
        self._list_calls: set[int] = set()
        self._feeds: dict[int, str] = {}  # feed id -> serial
        self._subscribed: set[str] = set()

    async def run(self) -> None:
        """Run until cancelled."""
        links = [asyncio.create_task(link.run(), name=f"livechess-link-{b}") for b, link in self.links.items()]
        backoff = BACKOFF_FIRST_S
        try:
            while True:
                try:
                    async with websockets.connect(self.url, open_timeout=5, max_size=2 ** 22) as ws:
                        backoff = BACKOFF_FIRST_S
                        await self._session(ws)
                except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
                    log.warning("LiveChess %s: %s; again in %.1f s", self.url, exc or type(exc).__name__, backoff)
                self.connected.clear()
                self.following.clear()
                self._lost()
                await self.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX_S)
        finally:
            for task in links:
                task.cancel()
            for task in links:
                with contextlib.suppress(BaseException):
                    await task

    async def idle(self) -> None:
        """Wait until every board's queued messages have been published."""
        for link in self.links.values():
            await link.idle()

    async def _session(self, ws) -> None:
        self._feeds.clear()
        self._subscribed.clear()
        self._list_calls.clear()
        self.connected.set()
        poller = asyncio.create_task(self._poll(ws))
        try:
            async for text in ws:
                await self._on_message(ws, text)
        finally:
            poller.cancel()
            with contextlib.suppress(BaseException):
                await poller

    async def _poll(self, ws) -> None:
        while True:
            call = next(self._ids)
            self._list_calls.add(call)
            await ws.send(eboards_call(call))
            await asyncio.sleep(self.poll_s)

    async def _on_message(self, ws, text) -> None:
        try:
            r = read_response(text)
            if r.kind == "error":
                log.warning("LiveChess refused call %s: %s", r.id, error_text(r))
            elif r.kind == "call" and r.id in self._list_calls:
                self._list_calls.discard(r.id)
                unread: list[str] = []
                eboards = parse_eboards(r.param, unread)
                for text in unread:
                    self._note(text)
                await self._on_list(ws, eboards)
            elif r.kind == "feed":
                ev = parse_event(r.param)
                if ev.problem:
                    self._note(f"e-board {ev.serial}: {ev.problem}")
                board = self.boards.get(self._feeds.get(r.id, ev.serial))
                if board is not None:
                    fresh = self.store.last(board, "board") == 0
                    self._apply(board, translate.from_event(self.store.reading(board), ev, fresh))
        except LiveChessError as exc:
            self._note(str(exc))

    def _note(self, text: str) -> None:
        self.errors.append(text)
        del self.errors[:-100]
        log.warning("LiveChess message not understood: %s", text)

    async def _on_list(self, ws, eboards) -> None:
        seen = {eb.serial: eb for eb in eboards}
        for serial, board in self.boards.items():
            eb = seen.get(serial)
            if eb is None:  # not (or no longer) connected to LiveChess
                self._apply(board, translate.status(self.store.reading(board), False))
                continue
            if serial in self._subscribed:
                self._apply(board, translate.from_snapshot(self.store.reading(board), eb))
            else:  # the feed's first message brings the placement, with LiveChess's reading of the game
                self._apply(board, translate.status(self.store.reading(board), eb.online, eb.battery))
            if serial not in self._subscribed:
                self._subscribed.add(serial)
                feed = next(self._ids)
                self._feeds[feed] = serial
                await ws.send(subscribe_call(next(self._ids), feed, serial))
        if all(serial in self._subscribed for serial in seen if serial in self.boards):
            self.following.set()

    def _lost(self) -> None:
        """LiveChess is out of reach: nothing is known of any board."""
        for board in self.boards.values():
            self._apply(board, translate.status(self.store.reading(board), False))

    def _apply(self, board: str, result: tuple) -> None:
        _, outs = result
        link = self.links[board]
        for kind, payload, after in outs:
            if kind == "status":
                self.store.remember(board, after)
                link.set_status(payload)
            else:
                device = DEVICE[kind]
                link.send(kind, self.store.take(board, device, after, (kind, payload)), payload, device)
