"""A device's side of the protocol's delivery rules, shared by the simulated boards
(devices/station.py) and the LiveChess bridge (devices/livechess/link.py): reading the gateway's
feedback, sending again from ``resend_from``, publishing until the broker acknowledges, and keeping
every message until the gateway's feedback says it is stored (``Outbox``; docs/protocol.md
"Transport", "Feedback", "End-to-end acknowledgement")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import aiomqtt

log = logging.getLogger(__name__)


def read_feedback(payload: bytes | str) -> tuple[dict | None, tuple[str, int] | None]:
    """``(answer, resend)``: the feedback object (None when the payload is not a JSON object) and,
    when the gateway found a hole, ``(device, first seq to send again)`` (docs/protocol.md: "A device
    that gets ``resend_from`` sends again every message it still has from that ``seq`` on")."""
    try:
        answer = json.loads(payload)
    except ValueError:
        return None, None
    if not isinstance(answer, dict):
        return None, None
    first = answer.get("resend_from")
    if isinstance(first, bool) or not isinstance(first, int):
        return answer, None
    return answer, (str(answer.get("device") or "board"), first)


async def publish_acked(up, client_of, topic: str, payload: str, *, retain: bool = False, timeout: float = 2.0,
                        on_failure=None) -> None:
    """Publish at QoS 1 until the broker acknowledges (docs/protocol.md: "A message that got no
    PUBACK must be sent again, with the same ``seq``"): wait for ``up`` (an asyncio.Event set while
    the link is up), publish on ``client_of()``; on no PUBACK within ``timeout`` s (or no client),
    call ``on_failure(client)`` when given and try again. A message the gateway already has is
    answered ``duplicate`` and ignored, so sending twice is harmless."""
    while True:
        await up.wait()
        client = client_of()
        try:
            await client.publish(topic, payload, qos=1, retain=retain, timeout=timeout)
            return
        except (aiomqtt.MqttError, AttributeError):
            if on_failure is not None:
                on_failure(client)
            await asyncio.sleep(0.05)


def take_feedback(payload: bytes | str, feedback: list, resend, tasks: set) -> None:
    """A device's handling of one feedback message: the answer kept in ``feedback``; a
    ``resend_from`` starts ``resend(device, first)`` (a coroutine function) as a task, kept in
    ``tasks`` until done. Feedback is QoS 1, delivered at least once (MQTT 3.1.1 4.3.2): a link cut
    before the device's PUBACK brings the same answer again after the reconnect, and the device
    takes it once (an answer equal to one of the last few is that redelivery)."""
    answer, wanted = read_feedback(payload)
    if answer is not None and answer not in feedback[-16:]:
        feedback.append(answer)
    if wanted is not None:
        task = asyncio.create_task(resend(*wanted))
        tasks.add(task)
        task.add_done_callback(tasks.discard)


async def clean_start(host: str, port: int, client_id: str, username: str | None, password: str | None) -> None:
    """Connect once with ``clean_session=1`` and leave: the broker discards the session kept for
    ``client_id`` (MQTT 3.1.1 3.1.2.4) and the answers queued in it, which an earlier run's (the last
    round's) messages got and whose ``ref``s this run's reuse (docs/protocol.md "End-to-end
    acknowledgement"). Raises aiomqtt.MqttError when the broker cannot be reached."""
    async with aiomqtt.Client(host, port, identifier=client_id, clean_session=True, username=username,
                              password=password, keepalive=10):
        pass


RETRY_S, RETRY_MAX_S = 10.0, 60.0  # a gateway silent that long while messages wait: they go again


async def resend_when_quiet(outbox: "Outbox", client_of, up: asyncio.Event, send, retry_s: float = RETRY_S) -> None:
    """Run while a device's link lives: when the gateway has confirmed nothing for ``retry_s`` s
    while ``outbox`` holds unanswered messages and the link is up (``up`` set, ``client_of()`` a
    client), ``await send(client)`` sends them again; the wait doubles up to ``RETRY_MAX_S`` and
    starts from ``retry_s`` again after an answer (docs/protocol.md "End-to-end acknowledgement": a
    broker that restarted without its sessions dropped what it had not delivered)."""
    wait = retry_s
    while True:
        await asyncio.sleep(wait)
        client = client_of()
        if not outbox.quiet() or client is None or not up.is_set():
            wait = retry_s
            continue
        with contextlib.suppress(aiomqtt.MqttError):  # the link's own loop sees it drop
            await send(client)
        wait = min(wait * 2, RETRY_MAX_S)


class Outbox:
    """A device's messages the gateway has not yet said it stored (docs/protocol.md "End-to-end
    acknowledgement", issue 28): a message is done when the gateway's feedback answers it (``ref``
    its seq, ``device`` whose), not when the broker PUBACKs it, since a broker that crashes loses
    what it held. Shared by the simulated stations (devices/station.py) and the LiveChess bridge's
    links (devices/livechess/link.py).

    ``unconfirmed``: ``{(device, seq): (topic, payload)}`` in the order first kept; ``published``:
    the keys of those the broker has acknowledged at least once (sent again on reconnect, by
    ``waiting``); ``round``: the round whose feedback is this device's (``"round"`` of the
    feedback); None takes every feedback, unless ``learn_round``: then the round of the first
    feedback that confirms one of the device's messages (safe only on a fresh MQTT session, where
    no other run's feedback is queued); ``limit``: at most this many kept (the oldest dropped,
    logged); ``on_confirm(device, seq)``: called for each message confirmed. ``confirmed``: a
    confirmation came since ``quiet()`` last looked."""

    def __init__(self, *, round: str | None = None, learn_round: bool = False, limit: int | None = None,
                 on_confirm=None):
        self.unconfirmed: dict[tuple[str, int], tuple[str, str]] = {}
        self.published: set[tuple[str, int]] = set()
        self.round = round
        self.learn_round = learn_round and round is None
        self.limit = limit
        self.on_confirm = on_confirm
        self.confirmed = False
        self.ignored = 0  # feedback of another round (another game's), not taken
        self._settled = asyncio.Event()
        self._settled.set()

    def keep(self, device: str, seq: int, message: tuple[str, str]) -> None:
        """Keep ``message`` (topic, payload) under ``(device, seq)`` until the gateway confirms it."""
        self.unconfirmed[(device, seq)] = message
        self._settled.clear()
        if self.limit is not None and len(self.unconfirmed) > self.limit:
            oldest = next(iter(self.unconfirmed))
            log.warning("%d messages without the gateway's feedback: %s %d no longer kept",
                        len(self.unconfirmed), *oldest)
            del self.unconfirmed[oldest]
            self.published.discard(oldest)

    def sent(self, device: str, seq: int) -> None:
        """The broker acknowledged ``(device, seq)``: from now on it is sent again on reconnect."""
        if (device, seq) in self.unconfirmed:
            self.published.add((device, seq))

    def confirm(self, device: str, seq: int) -> bool:
        """The gateway's feedback says ``device``'s message ``seq`` is stored: forget it (True when
        it was kept)."""
        if self.unconfirmed.pop((device, seq), None) is None:
            return False
        self.published.discard((device, seq))
        self.confirmed = True
        if not self.unconfirmed:
            self._settled.set()
        if self.on_confirm is not None:
            self.on_confirm(device, seq)
        return True

    def waiting(self) -> list[tuple[str, int]]:
        """The keys published and not confirmed, in the order first kept: what goes again after a
        reconnect, or when the gateway has been silent (``quiet``)."""
        return [k for k in self.unconfirmed if k in self.published]

    def quiet(self) -> bool:
        """Whether messages wait and nothing was confirmed since the last call (the caller's timer
        then sends ``waiting()`` again)."""
        silent = not self.confirmed and bool(self.waiting())
        self.confirmed = False
        return silent

    def ours(self, answer: dict) -> bool:
        """Whether feedback ``answer`` is for this device's game: its ``round`` is the device's (or
        either is unknown). A device that learns its round takes it from the first answer that
        confirms one of its kept messages."""
        theirs = answer.get("round")
        if theirs is None:
            return True
        if self.round is None and self.learn_round:
            ref = answer.get("ref")
            if answer.get("resend_from") is None and (str(answer.get("device") or "board"), ref) in self.unconfirmed:
                self.round = str(theirs)
            return True
        return self.round is None or str(theirs) == self.round

    def take(self, payload: bytes | str, feedback: list, resend, tasks: set) -> dict | None:
        """One feedback message: ignored (counted in ``ignored``, None returned) when it answers
        another game (``ours``); else handled as ``take_feedback`` does (kept, a ``resend_from``
        answered) and the message it says is stored confirmed. A ``resend_from`` answer confirms
        nothing: the gateway holds that message, it has not stored it in its game. Returns the
        answer (None when not a JSON object)."""
        answer, wanted = read_feedback(payload)
        if answer is None:
            return None
        if not self.ours(answer):
            self.ignored += 1
            return None
        take_feedback(payload, feedback, resend, tasks)
        ref = answer.get("ref")
        if wanted is None and isinstance(ref, int) and not isinstance(ref, bool):
            self.confirm(str(answer.get("device") or "board"), ref)
        return answer

    async def settled(self, timeout: float | None) -> bool:
        """Wait until every kept message is confirmed (at most ``timeout`` s; None: no limit);
        False on timeout."""
        try:
            await asyncio.wait_for(self._settled.wait(), timeout)
            return True
        except TimeoutError:
            return False
