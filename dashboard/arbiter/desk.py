"""The arbiters' live state: the alert queue folded from the log, fanned out to every logged-in
arbiter's websocket through its own bounded queue (the same ``Hub`` as spectators, so a slow
console never stalls anything).

Messages on /ws/arbiter: ``{"type": "snapshot", "seq", "alerts": [ALERT...], "actions": [...]}``
first, then ``{"type": "alert", "seq", "alert": ALERT}`` for each alert created or changed and
``{"type": "action", "seq", "action": {...}}`` for each arbiter action recorded.
"""

from __future__ import annotations

import json

from services.views.alerts import CLOSING_ACTIONS, RECORDED_ACTIONS, AlertQueue

from dashboard.hub import Hub

ACTION_TYPES = CLOSING_ACTIONS | set(RECORDED_ACTIONS)


def _encode(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


class Desk:
    """``queue``: the AlertQueue; ``hub``: arbiters' connections; ``seq``: last entry folded."""

    def __init__(self, cap: int = 1024):
        self.queue = AlertQueue()
        self.hub = Hub(cap)
        self.seq = 0

    def ingest(self, entry) -> None:
        """Fold one log entry and push what changed. Synchronous; never awaits a client."""
        self.seq = entry.seq
        for alert in self.queue.apply(entry.seq, entry.at, entry.type, entry.data):
            self.hub.publish(entry.seq, _encode({"type": "alert", "seq": entry.seq, "alert": alert.to_json()}))
        if entry.type in ACTION_TYPES:
            action = {"seq": entry.seq, "at": entry.at, "type": entry.type, **entry.data}
            self.hub.publish(entry.seq, _encode({"type": "action", "seq": entry.seq, "action": action}))

    def snapshot_dict(self) -> dict:
        """Open alerts (action first, newest first), the last 200 resolved ones and the last 200 actions."""
        closed = sorted((a for a in self.queue.alerts.values() if a.status != "open"), key=lambda a: -a.id)[:200]
        return {"type": "snapshot", "seq": self.seq,
                "alerts": [a.to_json() for a in self.queue.open_alerts()],
                "closed": [a.to_json() for a in closed],
                "actions": self.queue.actions[-200:]}

    def snapshot(self) -> tuple[int, str]:
        """``(seq, text)`` of the full state, as ``dashboard.live`` expects of a feed."""
        return self.seq, _encode(self.snapshot_dict())
