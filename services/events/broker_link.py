"""Entries the gateway writes about its own link to the broker (docs/events.md "The gateway's link").

The gateway probes the broker end to end: every few seconds it publishes a small message on a topic
only it may read and write (``venue/{t}/gateway/{login}/probe``, deploy/make-mosquitto-passwords.py)
and expects it back through its own subscription (``gateway.probe``). Issue 28: after a refused
connect with the gateway's client id, Mosquitto 2.0.11 gave the gateway's next connection CONNACK
and SUBACK but forwarded it nothing while still acknowledging every board's publish; moves were
lost and nothing said so. These entries say so, in the log the arbiters and the dashboards read.
"""

from __future__ import annotations

from .base import Event, entry


@entry("gateway_deaf")
class GatewayDeaf(Event, kw_only=True):
    """The gateway's probes did not come back: the broker delivers it nothing (an arbiter's alert).

    ``client_id``: the gateway's MQTT client id as it asked for it (a shard's own); ``since``: when
    (ms since the epoch) the first unanswered probe was published; ``unanswered``: probes published
    since without one coming back; ``fresh``: the gateway has reconnected with a fresh session
    already (clean start) and still hears nothing, so it exits for its supervisor to restart it
    (deploy/README.md: then restart the broker; Mosquitto before 2.0.13 keeps the dead session)."""

    KEEP = ("client_id", "since", "unanswered", "fresh")  # every field written, as the alert reads them

    client_id: str
    since: int
    unanswered: int = 0
    fresh: bool = False


@entry("gateway_hearing")
class GatewayHearing(Event, kw_only=True):
    """A probe came back after ``gateway_deaf``: the broker delivers to the gateway again (closes the
    alert). ``client_id`` as in ``gateway_deaf``; ``deaf_ms``: how long nothing came back (ms, from
    the first unanswered probe to the one heard)."""

    KEEP = ("client_id", "deaf_ms")

    client_id: str
    deaf_ms: int = 0
