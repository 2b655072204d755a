"""One encoded websocket frame written to many spectators' sockets (the /ws/live fan-out's fast path).

Why: through ASGI each ``send_text`` to each spectator wakes its writer task, re-frames the same text
and writes it: ~35 us of CPU per spectator per message (uvicorn 0.54, measured with 1,000
connections), so one move shown to 1,000 spectators cost ~35 ms before the last one had it. A server
frame is never masked (RFC 6455 5.1), so the bytes of one text frame are the same for every
connection without an extension: the hub frames a message once (``frame``) and writes those bytes
straight to each idle spectator's transport (``DirectProtocol.write_frame``): a few us each.

``DirectProtocol`` is uvicorn's own websockets-sansio protocol plus one ASGI scope extension,
``"venue.direct"``: ``{"write": write_frame}``. ``venue.serve.serving`` passes it to uvicorn as the
``ws`` protocol class. Under any other server the extension is absent, ``direct_writer`` returns
None and the hub uses ``send_text`` as before: the fast path is an optimisation, never a contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

EXTENSION = "venue.direct"
# uvicorn's own attributes this adapter reads (tests/unit/test_adapters.py fails when one goes away)
UVICORN_ATTRIBUTES = ("handshake_complete", "close_sent", "disconnected", "writable", "conn", "initial_response",
                      "transport")
# Above this many bytes waiting in the kernel-side buffer of asyncio's transport the frame is not
# written directly: the client is slow, and the hub queues for it instead (bounded, field case F12).
MAX_BUFFERED = 256 * 1024


def frame(text: str) -> bytes:
    """The bytes of one unmasked, unfragmented websocket text frame holding ``text`` (RFC 6455 5.2),
    serialised by the websockets library."""
    return Frame(Opcode.TEXT, text.encode("utf-8")).serialize(mask=False)


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol with the ``venue.direct`` scope extension."""

    def handle_connect(self, event) -> None:
        """As uvicorn's, then offer ``write_frame`` to the app in the scope's extensions."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][EXTENSION] = {"write": self.write_frame}

    def write_frame(self, data: bytes) -> bool:
        """Write the already framed ``data`` now. Returns False, writing nothing, when it cannot go
        out as is: the handshake is not done, the connection is closing or closed, a negotiated
        extension (permessage-deflate) would change the frame, or the client is not keeping up
        (asyncio paused writing, or more than ``MAX_BUFFERED`` bytes wait)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or not self.writable.is_set() or self.conn.extensions
                or self.initial_response is not None):
            return False
        transport = self.transport
        if transport.is_closing() or transport.get_write_buffer_size() > MAX_BUFFERED:
            return False
        transport.write(data)
        return True


def missing_attributes(protocol) -> list[str]:
    """The uvicorn attributes ``write_frame`` reads that ``protocol`` lacks (empty when all there)."""
    return [name for name in UVICORN_ATTRIBUTES if not hasattr(protocol, name)]


def direct_writer(scope: Mapping) -> Callable[[bytes], bool] | None:
    """The connection's ``write_frame`` when the server offers it (``DirectProtocol``), else None."""
    ext = (scope.get("extensions") or {}).get(EXTENSION)
    return ext.get("write") if ext else None
