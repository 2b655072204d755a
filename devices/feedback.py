"""A device's side of the protocol's delivery rules, shared by the simulated boards
(devices/station.py) and the LiveChess bridge (devices/livechess/link.py): reading the gateway's
feedback, sending again from ``resend_from``, publishing until the broker acknowledges
(docs/protocol.md "Transport", "Feedback")."""

from __future__ import annotations

import asyncio
import json

import aiomqtt


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
