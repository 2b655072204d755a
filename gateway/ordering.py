"""Applying each device's messages exactly once and in order, by their ``seq`` (DESIGN.md).

Pure: time is passed in (ms). Per key ``(board, device)`` the sequencer knows the last applied ``seq``.

- ``seq <= last`` (or already waiting): a duplicate (QoS 1 redelivery, a device retry): acknowledged,
  recorded as ``message_duplicate``, ignored.
- ``seq == last + 1``: applied, then every waiting message that now follows in order.
- ``seq > last + 1``: held for up to ``hold_ms`` (default 5000 ms) for the missing ones, since MQTT
  delivers in order per connection but a device that reconnects or retries may not; the first
  message held gives a ``("hold", (key, expected, got))`` action, on which the gateway asks the device
  to send again from ``expected`` (a broker that lost its state lost them: F11), and ``expire`` gives
  it again every ``ask_every_ms`` (1000 ms) while the hole stays open. When they arrive,
  everything is applied in order; when the hold expires, a ``seq_gap`` is recorded and the waiting
  messages are applied in order from the lowest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DUPLICATE = "duplicate"
APPLY = "apply"
GAP = "gap"
HOLD = "hold"


@dataclass
class _Waiting:
    since_ms: int
    asked_ms: int
    items: dict[int, object] = field(default_factory=dict)


class Sequencer:
    """Orders messages per ``(board, device)`` key. Actions returned, in order:
    ``("duplicate", item)``, ``("apply", item)``, ``("hold", (key, expected, got))``,
    ``("gap", (key, expected, got))``."""

    def __init__(self, hold_ms: int = 5000, ask_every_ms: int = 1000):
        self.hold_ms = hold_ms
        self.ask_every_ms = ask_every_ms
        self.last: dict[tuple[str, str], int] = {}
        self._waiting: dict[tuple[str, str], _Waiting] = {}

    def mark(self, key: tuple[str, str], seq: int) -> None:
        """Record ``seq`` as applied (used when replaying the event log)."""
        if seq > self.last.get(key, 0):
            self.last[key] = seq

    def reset(self, board: str) -> None:
        """Forget every device of ``board`` (a new round: the devices start again from seq 1)."""
        for key in [k for k in self.last if k[0] == board]:
            del self.last[key]
        for key in [k for k in self._waiting if k[0] == board]:
            del self._waiting[key]

    def offer(self, key: tuple[str, str], seq: int, item: object, now_ms: int) -> list[tuple]:
        """Take one message; returns the actions it makes possible now."""
        last = self.last.get(key, 0)
        waiting = self._waiting.get(key)
        if seq <= last or (waiting and seq in waiting.items):
            return [(DUPLICATE, item)]
        if seq == last + 1:
            self.last[key] = seq
            return [(APPLY, item)] + self._drain(key)
        actions: list[tuple] = []
        if waiting is None:
            waiting = self._waiting[key] = _Waiting(now_ms, now_ms)
            actions.append((HOLD, (key, last + 1, seq)))
        waiting.items[seq] = item
        return actions

    def expire(self, now_ms: int) -> list[tuple]:
        """Release messages held longer than ``hold_ms``: a gap, then the waiting ones in order."""
        actions: list[tuple] = []
        for key in list(self._waiting):
            waiting = self._waiting[key]
            if now_ms - waiting.since_ms < self.hold_ms:
                if now_ms - waiting.asked_ms >= self.ask_every_ms:  # the request may have been lost
                    waiting.asked_ms = now_ms
                    actions.append((HOLD, (key, self.last.get(key, 0) + 1, min(waiting.items))))
                continue
            first = min(waiting.items)
            actions.append((GAP, (key, self.last.get(key, 0) + 1, first)))
            self.last[key] = first - 1
            actions.extend(self._drain(key))
            if key in self._waiting:  # a second hole further on: its own hold starts now
                self._waiting[key].since_ms = self._waiting[key].asked_ms = now_ms
        return actions

    def waiting_count(self) -> int:
        """How many messages are held for missing ones."""
        return sum(len(w.items) for w in self._waiting.values())

    def _drain(self, key: tuple[str, str]) -> list[tuple]:
        waiting = self._waiting.get(key)
        actions: list[tuple] = []
        while waiting and (self.last[key] + 1) in waiting.items:
            self.last[key] += 1
            actions.append((APPLY, waiting.items.pop(self.last[key])))
        if waiting is not None and not waiting.items:
            del self._waiting[key]
        return actions
