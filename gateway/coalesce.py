"""Folding repeats into counts: a device that floods the gateway with duplicates, garbage or the same
illegal move must not flood the log (issue "Nothing lost, no one in": 5,000 messages a second from
one board once wrote 290,000 entries). Within one batch not yet stored, a repeat from the same
device (same board and device) of its own previous entry is merged into it: ``count`` adds up and
the latest ``seq``, ``raw`` and placement are kept.

Merging never changes what the fold makes of the log: the merged entry folds to the same state as
the entries it stands for (duplicates and rejections change nothing but the device's last ``seq``,
which is the latest one's; a passing placement keeps the last snapshot)."""

from __future__ import annotations

from services.events import MessageDuplicate, MessageRejected, MoveRejected, PlacementSeen

MERGEABLE = {MessageDuplicate.TYPE, MessageRejected.TYPE, MoveRejected.TYPE, PlacementSeen.TYPE}


def _same(type_: str, a: dict, b: dict) -> bool:
    if type_ == MessageDuplicate.TYPE:
        return True
    if type_ == MessageRejected.TYPE:
        return (a.get("reason"), a.get("topic"), bool(a.get("applied"))) == \
               (b.get("reason"), b.get("topic"), bool(b.get("applied")))
    if type_ == MoveRejected.TYPE:
        return (a.get("reason"), bool(a.get("held")), a.get("game")) == (b.get("reason"), bool(b.get("held")),
                                                                         b.get("game")) and not a.get("ballot")
    return a.get("reading") == b.get("reading") == "passing" and a.get("game") == b.get("game")


class Coalescer:
    """Remembers, per device, where its latest entry stands in the batch being built."""

    def __init__(self) -> None:
        self._last: dict[tuple, int] = {}

    def reset(self) -> None:
        """A new batch begins (the previous one was handed to the store)."""
        self._last.clear()

    def merge(self, pending: list[tuple[str, dict, int]], type_: str, data: dict) -> bool:
        """Merge ``(type_, data)`` into the same device's previous entry in ``pending`` when it
        repeats it (True), else note that it will be appended next (False)."""
        source = (data.get("board"), data.get("device"))
        i = self._last.get(source)
        if type_ in MERGEABLE and i is not None and i < len(pending):
            t0, d0, at0 = pending[i]
            if t0 == type_ and _same(type_, d0, data):
                pending[i] = (t0, {**data, "count": int(d0.get("count", 1)) + int(data.get("count", 1))}, at0)
                return True
        self._last[source] = len(pending)
        return False
