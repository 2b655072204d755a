"""One encoded websocket frame written to many spectators' sockets (the /ws/live fan-out's fast path).

Why: through ASGI each ``send_text`` to each spectator wakes its writer task, re-frames the same text
and writes it: ~35 us of CPU per spectator per message (uvicorn 0.54, measured with 1,000
connections), so one move shown to 1,000 spectators cost ~35 ms before the last one had it. A server
frame is never masked (RFC 6455 5.1), so the bytes of one text frame are the same for every
connection without an extension: the hub frames a message once (``frame``) and writes those bytes
straight to each idle spectator's transport (``DirectProtocol.write_frame``): a few us each.

``DirectProtocol`` is uvicorn's own websockets-sansio protocol plus one ASGI scope extension,
``"venue.direct"``: ``{"write": write_frame, "park": park}``. ``venue.serve.serving`` passes it to
uvicorn as the ``ws`` protocol class. Under any other server the extension is absent,
``direct_writer`` and ``parker`` return None and the hub uses ``send_text`` as before: the fast path
is an optimisation, never a contract.

**Parking** (issue 31, "Spectators, cheaper"): a spectator only listens, yet served through ASGI it
holds a coroutine stack (uvicorn's task, Starlette's routing and middleware, the endpoint, its reader
and writer tasks), uvicorn's receive queue and the handshake's request, headers and scope: ~25 of the
~35 KB a spectator cost (bench/bench_spectator_memory.py). ``park(drain, lost)`` hands the open
connection from the app to this protocol, as nchan holds a subscriber in a struct: the endpoint
returns, the connection stays open (pings and pongs are the protocol's own, as before), text the
client sends is discarded, ``drain()`` is called whenever the socket can take more and ``lost()``
once when the connection ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

EXTENSION = "venue.direct"
# uvicorn's own attributes this adapter reads (tests/unit/test_adapters.py fails when one goes away)
UVICORN_ATTRIBUTES = ("handshake_complete", "close_sent", "disconnected", "writable", "conn", "initial_response",
                      "transport", "close_timer", "queue", "read_paused", "frames",
                      "send_receive_event_to_app", "resume_writing", "connection_lost", "run_asgi")
# Above this many bytes waiting in the kernel-side buffer of asyncio's transport the frame is not
# written directly: the client is slow, and the hub queues for it instead (bounded, field case F12).
MAX_BUFFERED = 256 * 1024


def frame(text: str) -> bytes:
    """The bytes of one unmasked, unfragmented websocket text frame holding ``text`` (RFC 6455 5.2),
    serialised by the websockets library."""
    return Frame(Opcode.TEXT, text.encode("utf-8")).serialize(mask=False)


class _KeepOpen:
    """Stands in uvicorn's ``close_timer`` on a parked connection: uvicorn closes the transport when
    the app returns unless a close timer runs (``run_asgi``); this one never fires."""

    __slots__ = ()

    def cancel(self) -> None:
        pass


class _Discard:
    """Stands in uvicorn's receive queue on a parked connection: nobody reads it any more."""

    __slots__ = ()

    def put_nowait(self, message: Any) -> None:
        pass

    def empty(self) -> bool:
        return True


class _Flag:
    """Stands in uvicorn's ``writable`` event on a parked connection: nobody awaits it any more
    (``asyncio.Event`` holds a deque of waiters, 760 bytes)."""

    __slots__ = ("on",)

    def __init__(self, on: bool) -> None:
        self.on = on

    def set(self) -> None:
        self.on = True

    def clear(self) -> None:
        self.on = False

    def is_set(self) -> bool:
        return self.on


_KEEP_OPEN, _DISCARD = _KeepOpen(), _Discard()


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol with the ``venue.direct`` scope extension. ``parked``:
    the connection was handed over from the app (``park``)."""

    _drain: Callable[[], None] | None = None  # class defaults: an unparked connection stores none
    _lost: Callable[[], None] | None = None
    parked = False

    def handle_connect(self, event) -> None:
        """As uvicorn's, then offer ``write_frame`` and ``park`` to the app in the scope's extensions."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][EXTENSION] = {"write": self.write_frame, "park": self.park}

    def open_plain(self) -> bool:
        """True when a frame written now goes out as is: the handshake is done, the connection open,
        and no extension (permessage-deflate) would change the frame."""
        return (self.handshake_complete and not self.close_sent and not self.disconnected
                and not self.conn.extensions and self.initial_response is None and not self.transport.is_closing())

    def ready(self) -> bool:
        """``open_plain`` and the client keeps up: asyncio has not paused writing (its buffer is under
        the transport's high-water mark)."""
        return self.writable.is_set() and self.open_plain()

    def write_frame(self, data: bytes) -> bool:
        """Write the already framed ``data`` now. Returns False, writing nothing, when it cannot go
        out as is (``ready`` is False) or more than ``MAX_BUFFERED`` bytes wait."""
        if not self.ready() or self.transport.get_write_buffer_size() > MAX_BUFFERED:
            return False
        self.transport.write(data)
        return True

    def park(self, drain: Callable[[], None], lost: Callable[[], None]) -> DirectProtocol | None:
        """Take the connection over from the app, which may then return (module docstring): from
        now on ``drain()`` runs whenever asyncio resumes writing, ``lost()`` once when the connection
        ends, and what the client sends is discarded. Returns this protocol (its ``ready`` and
        ``write_frame`` are the caller's way to write), or None, changing nothing, when frames cannot
        be written as they are (``open_plain``: closing, closed, permessage-deflate negotiated) or it
        is parked already."""
        if not self.open_plain() or self.parked:
            return None
        self.parked = True
        self._drain, self._lost = drain, lost
        self.close_timer = _KEEP_OPEN  # type: ignore[assignment]  # uvicorn: the app's return must not close it
        # what only the app's phase used: its receive queue, the writable event it awaited, the
        # handshake's request, response and scope (~6 KB a spectator)
        self.queue = _DISCARD  # type: ignore[assignment]
        self.writable = _Flag(self.writable.is_set())  # type: ignore[assignment]
        self.request = self.response = None  # type: ignore[assignment]
        self.scope = None  # type: ignore[assignment]
        if self.read_paused:  # a message the app never read: pongs must be read again
            self.read_paused = False
            self.transport.resume_reading()
        return self

    def resume_writing(self) -> None:
        """As uvicorn's; then a parked connection's ``drain``."""
        super().resume_writing()
        if self._drain is not None:
            self._drain()

    def send_receive_event_to_app(self) -> None:
        """As uvicorn's, except on a parked connection: the client's message is discarded."""
        if self.parked:
            self.frames = []
            return
        super().send_receive_event_to_app()

    def connection_lost(self, exc: Exception | None) -> None:
        """As uvicorn's; then a parked connection's ``lost`` (once)."""
        super().connection_lost(exc)
        lost = self._lost
        if lost is not None:
            self._drain = self._lost = None
            lost()


def missing_attributes(protocol) -> list[str]:
    """The uvicorn attributes ``write_frame`` reads that ``protocol`` lacks (empty when all there)."""
    return [name for name in UVICORN_ATTRIBUTES if not hasattr(protocol, name)]


def direct_writer(scope: Mapping) -> Callable[[bytes], bool] | None:
    """The connection's ``write_frame`` when the server offers it (``DirectProtocol``), else None."""
    ext = (scope.get("extensions") or {}).get(EXTENSION)
    return ext.get("write") if ext else None


def parker(scope: Mapping) -> Callable[[Callable[[], None], Callable[[], None]], DirectProtocol | None] | None:
    """The connection's ``park`` when the server offers it (``DirectProtocol``), else None."""
    ext = (scope.get("extensions") or {}).get(EXTENSION)
    return ext.get("park") if ext else None
