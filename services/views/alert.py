"""One arbiters' alert (``Alert``): what the alert views (``alerts.AlertQueue``, ``alert_since.Since``,
``not_at_board.RoundPresence``) make and change. Its own module so that they import it from here and
not from one another (issue 26: alerts <-> alert_since <-> not_at_board)."""

from __future__ import annotations

from dataclasses import dataclass

from services.events.vocabulary import AlertStatus


@dataclass(eq=False)
class Alert:
    """One alert: ``id`` (= the log seq it came from), ``at`` (ms), ``kind`` (entry type, ``AlertKind``),
    ``severity`` (``AlertSeverity``: "action" | "warning" | "info"), ``title``, ``game`` and ``board``
    (or None), ``evidence`` (the entry's data), ``status`` (``AlertStatus``: "open" | "resolved" |
    "lapsed" | "withdrawn": a penalty proposal the gateway withdrew, ``penalty_withdrawn`` |
    "superseded": its game's result is final, ``MOOT_AT_END``), ``resolution`` (the closing action's
    data, with ``by`` and ``at``), ``count`` (how many entries it stands for: repeats of a ``GROUPED``
    type from the same board, device and game), ``last_at`` (ms of the latest; ``evidence`` is then the
    latest entry's data, ``id`` and ``at`` the first's), ``since`` (what later entries made of the
    condition, ``services.views.alert_since``; None: nothing to follow), ``players`` (``{"white",
    "black"}``: the names of its game's players, None without a game), ``rule`` (the rule it applies,
    ``services.views.alert_text.rule_of``) and ``text`` (its sentence with the figures, or None:
    the console words it from the evidence)."""

    id: int
    at: int
    kind: str
    severity: str
    title: str
    game: str | None
    board: str | None
    evidence: dict
    status: str = AlertStatus.OPEN
    resolution: dict | None = None
    count: int = 1
    last_at: int | None = None
    since: dict | None = None
    players: dict | None = None
    rule: str | None = None
    text: str | None = None

    def to_json(self) -> dict:
        """The alert as sent to arbiters' consoles (``/ws/arbiter``, the API)."""
        return {"id": self.id, "at": self.at, "kind": self.kind, "severity": self.severity,
                "title": self.title, "game": self.game, "board": self.board,
                "evidence": self.evidence, "status": self.status, "resolution": self.resolution,
                "count": self.count, "last_at": self.last_at if self.last_at is not None else self.at,
                "since": self.since, "players": self.players, "rule": self.rule, "text": self.text}
