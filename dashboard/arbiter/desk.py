"""The arbiters' live state: the alert queue folded from the log and the hall grid, fanned out to
every logged-in arbiter's websocket through its own bounded queue (the same ``Hub`` as spectators,
so a slow console never stalls anything).

Messages on /ws/arbiter: ``{"type": "snapshot", "seq", "alerts": [ALERT...], "closed", "actions",
"hall": [ROW...]}`` first, then ``{"type": "alert", "seq", "alert": ALERT}`` for each alert created
or changed, ``{"type": "action", "seq", "action": {...}}`` for each arbiter action recorded,
``{"type": "board", "seq", "row": ROW}`` for each hall board whose row changed and ``{"type":
"hall", "seq", "hall": [ROW...]}`` when a round starts. ALERT is ``Alert.to_json()`` plus
``words`` (``services.views.alert_evidence``: players, side, SAN); ROW is
``services.views.hall_grid``'s.
"""

from __future__ import annotations

import json
import time

from services.events import BadEvent, decode
from services.state import HallState
from services.views.alert_evidence import evidence_words
from services.views.alerts import AlertQueue
from services.views.hall_grid import alert_counts, board_row, hall_rows

from dashboard.hub import Hub


def _encode(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def _now_ms() -> int:
    return int(time.time() * 1000)


class Desk:
    """``queue``: the AlertQueue; ``hub``: arbiters' connections; ``seq``: last entry folded;
    ``state``: the dashboard's HallState (``attach``), for the grid and the alerts' words."""

    def __init__(self, cap: int = 1024):
        self.queue = AlertQueue()
        self.hub = Hub(cap)
        self.seq = 0
        self.state: HallState | None = None
        self._folds_itself = True  # no state attached: the desk folds the entries itself
        self._rows: dict[str, str] = {}  # board -> encoded row last sent
        self._words: dict[tuple, dict] = {}  # (alert id, count, ply) -> words
        self._counts: dict[str, int] | None = None  # open alerts per board, while no alert changes

    def attach(self, state) -> None:
        """Read ``state`` (folded before each entry reaches the desk) for the alerts, the grid and the
        words."""
        self.state = state
        self._folds_itself = False

    def alert_json(self, alert) -> dict:
        """The alert as consoles get it: ``to_json()`` + ``words``."""
        out = alert.to_json()
        game = self.state.games.get(alert.game) if self.state is not None and alert.game else None
        if game is not None:
            key = (alert.id, alert.count, game.ply if alert.kind == "draw_claimable" else 0)
            words = self._words.get(key)
            if words is None:
                words = self._words[key] = evidence_words(alert.kind, alert.evidence, game)
            out["words"] = words
        return out

    def ingest(self, entry) -> None:
        """Project one log entry, folded into the attached state before it comes here (else into the
        desk's own), onto the alerts and push what changed. Synchronous; never awaits a client."""
        self.seq = entry.seq
        if self.state is None:
            self.state = HallState()
        if self._folds_itself:
            self.state.apply(entry)
        actions = len(self.queue.actions)
        try:
            event = decode(entry.type, entry.data)
        except BadEvent:
            changed = []  # the fold skipped it too (counted in its errors)
        else:
            changed = self.queue.apply(entry.seq, entry.at, event, self.state, entry.data)
        for alert in changed:
            self.hub.publish(entry.seq, _encode({"type": "alert", "seq": entry.seq, "alert": self.alert_json(alert)}))
        self._push_rows(entry, changed)
        # the recorded actions as the queue keeps them (a round's start is its number, games and who)
        for action in self.queue.actions[actions:]:
            self.hub.publish(entry.seq, _encode({"type": "action", "seq": entry.seq, "action": action}))

    def hall(self) -> list[dict]:
        """The hall grid now."""
        if self.state is None:
            return []
        return hall_rows(self.state, self.queue.open_alerts(), _now_ms())

    def _push_rows(self, entry, changed) -> None:
        """Push the rows of the boards an entry touched (its board, the boards its changed alerts
        name), when they differ from what was sent: O(1) a board, whatever the hall's size."""
        if self.state is None:
            return
        if entry.type == "round_started":
            rows = self.hall()
            self._rows = {r["board"]: _encode(r) for r in rows}
            self._counts = None
            self.hub.publish(entry.seq, _encode({"type": "hall", "seq": entry.seq, "hall": rows}))
            return
        touched = {str(entry.data["board"])} if entry.data.get("board") not in (None, "") else set()
        for a in changed:
            touched |= {str(i.get("board")) for i in (a.evidence or {}).get("items") or ()} | (
                {a.board} if a.board else set())
        if not touched:
            return
        if changed or self._counts is None:
            self._counts = alert_counts(self.queue.open_alerts())
        now = _now_ms()
        for board in touched:
            b = self.state.boards.get(board)
            if b is None or b.game not in self.state.games:
                continue
            row = board_row(self.state, board, b.game, self._counts, now)
            text = _encode(row)
            if self._rows.get(board) != text:
                self._rows[board] = text
                self.hub.publish(entry.seq, f'{{"type":"board","seq":{entry.seq},"row":{text}}}')

    def snapshot_dict(self) -> dict:
        """Open alerts (action first, newest first), the last 200 resolved ones, the last 200
        actions and the hall grid."""
        closed = sorted((a for a in self.queue.alerts.values() if a.status != "open"), key=lambda a: -a.id)[:200]
        return {"type": "snapshot", "seq": self.seq,
                "alerts": [self.alert_json(a) for a in self.queue.open_alerts()],
                "closed": [self.alert_json(a) for a in closed],
                "actions": self.queue.actions[-200:],
                "hall": self.hall()}

    def snapshot(self) -> tuple[int, str]:
        """``(seq, text)`` of the full state, as ``dashboard.live`` expects of a feed."""
        return self.seq, _encode(self.snapshot_dict())
