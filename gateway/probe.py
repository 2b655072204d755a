"""Does the broker still deliver to the gateway? An end-to-end probe, decided here (pure: time is
passed in, in ms).

Issue 28: after a refused connect with the gateway's login as client id, Mosquitto 2.0.11 answered the
gateway's next connection with CONNACK and SUBACK and then forwarded it nothing, while still
acknowledging every board's publish (the refused client's clean-up removed the gateway's entry from
the broker's table of client ids, and the old session kept the subscriptions: deploy/README.md). The
link itself was fine (PINGRESP came), so only a message through the broker can tell: the gateway
publishes a probe to a topic it subscribes to (``probe_topic``) every ``every_ms`` and expects it back.

``DeafProbe`` decides:

- ``due(now)``: whether to publish the next probe; ``sent(now)`` makes its payload (this process's
  random instance id and a counter, so another process's probe or an old one is not taken for ours);
- ``heard(payload, now)``: a message on the probe topic; True when it is one of ours;
- ``delivered(now)``: anything else came through the broker (a device's message): it delivers, whatever
  the probes say (they may wait behind a backlog);
- ``verdict(now, answered_at)``: ``DEAF`` once a link, when the oldest probe still unanswered was
  published at least ``timeout_ms`` ago, at least ``misses`` probes are unanswered (one late reply
  after the event loop was busy is not deafness), nothing at all came through since it was published,
  and yet the broker answers on the link (``answered_at``, ms: the last packet it sent, such as the
  PUBACK of a later probe, which is published at QoS 1): a broker that says nothing at all (frozen,
  gone) is the keep alive's to notice, and its session must be kept, not dropped for a fresh one;
  ``HEARING`` once, when a probe comes back after ``DEAF``; else None.
- ``new_link()``: a new connection (what was published on the old one will not come back), or a
  stall of the gateway's loop (what it read after it is stamped late): judge again from here.

The gateway (``gateway.service``) answers ``DEAF`` by recording ``gateway_deaf`` and reconnecting with
a fresh session; ``DEAF`` again on that fresh link makes it exit for its supervisor.
"""

from __future__ import annotations

import secrets
from collections import deque

DEAF = "deaf"
HEARING = "hearing"
EVERY_MS = 2000  # a probe every 2 s: one small message and its PUBACK, nothing at a hall's ~3,000 messages/s
TIMEOUT_MS = 6000  # unanswered for 6 s (and 2 probes): deaf; a move is then at most ~8 s unheard before the alert
MISSES = 2


def probe_topic(tournament: str, name: str) -> str:
    """``venue/{t}/gateway/{name}/probe``: the gateway's own probe topic; ``name`` is its broker
    login (the ACL lets that login alone read and write it: deploy/make-mosquitto-passwords.py), or
    its client id on a broker without logins."""
    return f"venue/{tournament}/gateway/{name}/probe"


class DeafProbe:
    """The probe's bookkeeping for one gateway (see the module docstring). ``every_ms``: between
    probes; ``timeout_ms``: how old the oldest unanswered probe may get; ``misses``: how many must be
    unanswered; ``instance``: this process's id in the payloads (random by default). ``deaf``: the
    last verdict was ``DEAF`` and no probe came back since; ``deaf_since``: then the first unanswered
    probe's time (ms); ``was_deaf_ms``: after ``HEARING``, how long that lasted (ms)."""

    def __init__(self, every_ms: int = EVERY_MS, timeout_ms: int = TIMEOUT_MS, misses: int = MISSES,
                 instance: str | None = None):
        if every_ms <= 0 or timeout_ms <= 0 or misses < 1:
            raise ValueError("the probe's interval and timeout must be positive and misses at least 1")
        self.every_ms, self.timeout_ms, self.misses = every_ms, timeout_ms, misses
        self.instance = instance or secrets.token_hex(4)
        self.deaf = False
        self.deaf_since: int | None = None
        self.was_deaf_ms = 0  # at HEARING: from the first unanswered probe to the one heard
        self._count = 0
        self._unanswered: deque[tuple[int, int]] = deque()  # (number, sent at ms), oldest first
        self._next_at: int | None = None
        self._told = False  # DEAF said on this link
        self._delivered = -1  # when something last came through the broker (ms)
        self._back: int | None = None  # when a probe came back while deaf

    def due(self, now: int) -> bool:
        """Whether a probe should be published at ``now`` (ms)."""
        return self._next_at is None or now >= self._next_at

    def sent(self, now: int) -> bytes:
        """Record a probe published at ``now`` (ms); its payload."""
        self._count += 1
        self._unanswered.append((self._count, now))
        self._next_at = now + self.every_ms
        return f"{self.instance}:{self._count}".encode()

    def heard(self, payload: bytes, now: int) -> bool:
        """A message on the probe topic at ``now``: True when it is one of this process's probes
        (every probe up to it is answered: the broker delivers one publisher's messages in order)."""
        instance, _, number = payload.decode(errors="replace").partition(":")
        if instance != self.instance or not number.isdigit():
            return False
        n = int(number)
        while self._unanswered and self._unanswered[0][0] <= n:
            self._unanswered.popleft()
        if self.deaf and self._back is None:
            self._back = now
        return True

    def deaf_before(self, since: int) -> None:
        """The log says this gateway was deaf since ``since`` (ms) and never heard again (a gateway
        restarted by its supervisor): a probe back says ``HEARING``, closing the arbiters' alert."""
        self.deaf, self.deaf_since = True, since

    def delivered(self, now: int) -> None:
        """Something other than a probe came through the broker at ``now`` (ms)."""
        self._delivered = now

    @property
    def published(self) -> int:
        """Probes published by this process."""
        return self._count

    @property
    def unanswered(self) -> int:
        """Probes published on this link and not back yet."""
        return len(self._unanswered)

    def verdict(self, now: int, answered_at: int) -> str | None:
        """``DEAF`` (once a link, when it becomes deaf while the broker still answers on the link at
        ``answered_at`` ms), ``HEARING`` (once, when a probe comes back after ``DEAF``) or None."""
        if self.deaf and self._back is not None:
            self.was_deaf_ms = self._back - (self.deaf_since if self.deaf_since is not None else self._back)
            self.deaf, self.deaf_since, self._back = False, None, None
            return HEARING
        if (not self._told and len(self._unanswered) >= self.misses and now - self._unanswered[0][1] >= self.timeout_ms
                and self._delivered < self._unanswered[0][1] < answered_at):
            self._told = True
            if not self.deaf:
                self.deaf, self.deaf_since = True, self._unanswered[0][1]
            return DEAF
        return None

    def deaf_ms(self, now: int) -> int:
        """How long (ms) since the first unanswered probe, while deaf; else 0."""
        return now - self.deaf_since if self.deaf and self.deaf_since is not None else 0

    def new_link(self) -> None:
        """A new connection: probes published on the old one are forgotten (they will not come back),
        the next is due at once, and this link gets its own ``DEAF`` verdict; being deaf lasts until a
        probe comes back."""
        self._unanswered.clear()
        self._next_at = None
        self._told = False
