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
- A seq inside a hole that a ``seq_gap`` skipped is not a duplicate: it was never applied. It is
  applied when it arrives (late), so one message with a jumped ``seq`` (a device fault, a stray
  publish) cannot make the device's real messages look like duplicates for the rest of the game.
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
        self.holes: dict[tuple[str, str], list[list[int]]] = {}  # skipped [first, last] ranges

    def mark(self, key: tuple[str, str], seq: int) -> None:
        """Record ``seq`` as applied (used when replaying the event log)."""
        if seq > self.last.get(key, 0):
            self.last[key] = seq
        else:
            self._fill(key, seq)

    def skip(self, key: tuple[str, str], expected: int, got: int) -> None:
        """Record that a gap skipped ``expected .. got-1`` (replaying a ``seq_gap`` entry)."""
        if got > expected:
            ranges = self.holes.setdefault(key, [])
            ranges.append([expected, got - 1])
            del ranges[:-16]  # a device with more holes than that is broken; keep the newest
        self.mark(key, got - 1)

    def _fill(self, key: tuple[str, str], seq: int) -> bool:
        """Take ``seq`` out of the key's holes; True when it was in one."""
        for r in self.holes.get(key, ()):
            if r[0] <= seq <= r[1]:
                ranges = self.holes[key]
                ranges.remove(r)
                ranges.extend(x for x in ([r[0], seq - 1], [seq + 1, r[1]]) if x[0] <= x[1])
                return True
        return False

    def reset(self, board: str) -> None:
        """Forget every device of ``board`` (a new round: the devices start again from seq 1)."""
        for key in [k for k in self.last if k[0] == board]:
            del self.last[key]
        for key in [k for k in self._waiting if k[0] == board]:
            del self._waiting[key]
        for key in [k for k in self.holes if k[0] == board]:
            del self.holes[key]

    def offer(self, key: tuple[str, str], seq: int, item: object, now_ms: int) -> list[tuple]:
        """Take one message; returns the actions it makes possible now."""
        last = self.last.get(key, 0)
        waiting = self._waiting.get(key)
        if seq <= last and self._fill(key, seq):
            return [(APPLY, item)]  # late: skipped by a gap, never applied
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
            expected = self.last.get(key, 0) + 1
            actions.append((GAP, (key, expected, first)))
            self.skip(key, expected, first)
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
