"""Folding repeats into counts: a device that floods the gateway with duplicates, garbage or the same
illegal move must not flood the log (issue "Nothing lost, no one in": 5,000 messages a second from
one board once wrote 290,000 entries). Within one batch not yet stored, a repeat from the same
device (same board and device) of its own previous entry is merged into it: ``count`` adds up and
the latest ``seq``, ``raw`` and placement are kept.

Merging never changes what the fold makes of the log: the merged entry folds to the same state as
the entries it stands for (duplicates and rejections change nothing but the device's last ``seq``,
which is the latest one's; a passing placement keeps the last snapshot).

Entries that change no state at all (``STATELESS``: a duplicate, a message that could not be read)
are also held back per source and kind for up to ``HOLD_MS`` and written as one entry with their
count (``Repeats``): a device that alternates garbage and duplicates thousands of times a second
writes a few entries a second. What such an entry stands for was acknowledged already (nothing of
it can be played): a gateway killed meanwhile loses that count, never a move."""

from __future__ import annotations

from services.events import MessageDuplicate, MessageRejected, MoveRejected, PlacementSeen

MERGEABLE = {MessageDuplicate.TYPE, MessageRejected.TYPE, MoveRejected.TYPE, PlacementSeen.TYPE}
HOLD_MS = 1000


def stateless(type_: str, data: dict) -> bool:
    """Whether the entry changes nothing in the state and can wait (a duplicate, a message not
    applied; a fault of ours, ``internal error: ...``, is written at once)."""
    if type_ == MessageDuplicate.TYPE:
        return True
    return (type_ == MessageRejected.TYPE and not data.get("applied")
            and not str(data.get("reason") or "").startswith("internal error"))


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


class Repeats:
    """Stateless entries held per (kind, board, device, reason) and written once per ``HOLD_MS``
    with their count (see the module docstring)."""

    def __init__(self) -> None:
        self._held: dict[tuple, tuple[str, dict, int]] = {}

    def add(self, type_: str, data: dict, at: int) -> None:
        """Hold one stateless entry made at ``at`` (ms)."""
        key = (type_, data.get("board"), data.get("device"), data.get("reason"), data.get("topic"))
        held = self._held.get(key)
        if held is None:
            self._held[key] = (type_, dict(data), at)
        else:
            count = int(held[1].get("count", 1)) + int(data.get("count", 1))
            self._held[key] = (type_, {**data, "count": count}, held[2])

    def due(self, now_ms: int, everything: bool = False) -> list[tuple[str, dict, int]]:
        """The held entries whose first repeat is ``HOLD_MS`` old (all with ``everything``), taken."""
        out = []
        for key, (type_, data, at) in list(self._held.items()):
            if everything or now_ms - at >= HOLD_MS:
                out.append((type_, data, at))
                del self._held[key]
        return out
