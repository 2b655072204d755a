"""The arbiters' alert queue fed as the dashboard's desk feeds it (dashboard/arbiter/desk.py): each log
entry folded into a ``HallState`` first, then projected, typed, onto the queue
(``services.views.alerts.AlertQueue.apply``). Tests give it ``(seq, at, type, data)`` as logged."""

from __future__ import annotations

from services.eventlog.base import Entry
from services.events import BadEvent, decode
from services.state import HallState
from services.views.alert import Alert
from services.views.alerts import AlertQueue


class FoldedAlerts(AlertQueue):
    """An ``AlertQueue`` with its state: ``state`` (default a new ``HallState``) is folded here unless
    ``folded`` says the caller folds it before each entry."""

    def __init__(self, state: HallState | None = None, folded: bool = False):
        super().__init__()
        self.state = HallState() if state is None else state
        self.folded = folded

    def apply(self, seq: int, at: int, type: str, data: dict) -> list[Alert]:  # type: ignore[override]
        if not self.folded:
            self.state.apply(Entry(seq, at, type, data))
        try:
            event = decode(type, data)
        except BadEvent:
            return []  # the fold skips it too
        return super().apply(seq, at, event, self.state, data)
