"""The arbiters' alert queue: a pure fold over the event log (DESIGN.md: arbiters "must be told at
once when a draw can be claimed, a move was illegal, a player is past the default time, a flag
fell, a clock and its board disagree; and whose decisions are recorded").

Each alert is born from one log entry (its ``id`` is that entry's ``seq``) and carries the entry's
data as evidence. Arbiter actions close alerts: ``alert_resolved`` names one; ``draw_claim_decided``
and ``arbiter_decision`` close the open alerts of their game that they answer. What later entries
made of an alert's condition (a held board resumed, skipped device messages arrived late) is its
``since`` (``services.views.alert_since``), and closes it when the condition is over. Spectators never
see any of this (the dashboard serves it only to logged-in arbiters).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events import (AdjudicationRecorded, AlertResolved, ArbiterDecision, ArmageddonDecided,
                             ArmageddonScheduled, BothFlagsFell, ClockAdjusted, ClockDisagreement, DeviceOffline,
                             DeviceOnline, DrawClaimable, DrawClaimDecided, DrawClaimReported, DrawOfferRefused,
                             FineRecorded, FlagFell, GameEnded, GamePaused, GameResumed, LateStartDraw,
                             MatchClockChosen, MatchForfeit, MatchGameReady, MatchGameStarted, MessageRejected, MovePlayed, MoveRejected,
                             MoveTimerForfeit, MoveTimerStarted, MoveTimerWarning, NoteAdded, PenaltyInDoubt, PenaltyProposed,
                             PenaltyWithdrawn,
                             PlayerArrived, RoundStarted, ScoreSheetDifferences, ScoreSheetEntered, SeqGap,
                             TimeTroubleCalled, TimeTroubleImpending)
from services.events.tournament import (AccelerationSet, ByeRequestCancelled, ByeRequested, PairingForbidden,
                                       PlayerEntered, PlayerWithdrew)
from services.views.alert_since import Since
from services.views.not_at_board import RoundPresence

# entry type -> (severity, title); "action" alerts need an arbiter's decision.
ALERTING: dict[str, tuple[str, str]] = {
    DrawClaimable.TYPE: ("action", "A draw can be claimed"),
    DrawClaimReported.TYPE: ("action", "A draw is claimed: verify it"),
    DrawOfferRefused.TYPE: ("warning", "Draw by agreement refused by the regulations"),
    FlagFell.TYPE: ("action", "Flag fell"),
    BothFlagsFell.TYPE: ("action", "Both flags fell: the clock cannot show which fell first"),
    MoveRejected.TYPE: ("action", "Illegal move on a board"),
    MessageRejected.TYPE: ("info", "Malformed device message"),
    SeqGap.TYPE: ("warning", "Device messages missing (seq gap)"),
    DeviceOffline.TYPE: ("warning", "Device offline"),
    ClockDisagreement.TYPE: ("warning", "Clock and board disagree"),
    ArmageddonScheduled.TYPE: ("info", "Armageddon game to be played"),
    ArmageddonDecided.TYPE: ("info", "Armageddon drawn: Black wins"),
    ScoreSheetDifferences.TYPE: ("warning", "Score sheet differs from the board's record"),
    MoveTimerWarning.TYPE: ("warning", "Move timer: warning given"),
    MoveTimerForfeit.TYPE: ("action", "Move timer expired: game forfeited"),
    LateStartDraw.TYPE: ("info", "Game drawn: not started 30 minutes before the round's end (X.B.e)"),
    MatchForfeit.TYPE: ("action", "Flag in a match's first game: the second game is forfeited too (X.A.b)"),
    TimeTroubleImpending.TYPE: ("info", "Time trouble impending (5:00 or less): the referee may call attention (X.A.d)"),
    MatchGameReady.TYPE: ("info", "Match: second game next, clocks paused at the carried times (X.A.b)"),
    PenaltyProposed.TYPE: ("action", "Penalty to apply (FIDE Laws 7.5.5, 9.5.3)"),
    PenaltyInDoubt.TYPE: ("warning", "Penalty in doubt: the press may have been the replacement move's; the "
                                     "arbiter decides (FIDE Laws 7.5.1)"),
}
# penalty_withdrawn (FIDE Laws 7.5.1): the proposal it withdraws is closed as "withdrawn"; the entry is
# an alert of its own, one to act on when the arbiter had already applied that proposal (its time
# added, or the loss it proposed declared: the opponent's press after that still settles the press).
WITHDRAWN_TITLE = "Penalty proposal withdrawn: the press was the replacement move's (FIDE Laws 7.5.1)"
# by the entry's ``ground``: an illegal move that stood (A.5.2), the arbiter's withdrawal
WITHDRAWN_TITLES = {"stood": "Penalty no longer due: the illegal move stood (FIDE Laws A.5.2)",
                    "arbiter": "Penalty proposal withdrawn by the arbiter: no irregularity completed"}
WITHDRAWN_APPLIED_TITLE = ("Penalty withdrawn after it was applied: no illegal move was completed "
                           "(FIDE Laws 7.5.1): set the clocks or the result back")
# a move_played with ``illegal``: an illegal move the opponent played on from, in rapid or blitz
STOOD_TITLE = "Illegal move stood: the game goes on from it (FIDE Laws A.5.2)"
# a move_rejected with ``expected``: the board's move was not the ballot's (11-Man National 2017 X.A.d)
BALLOT_TITLE = "Move off the ballot"
# game_ended terminations the Laws end automatically and the arbiter must still be told of (9.6).
ALERTING_ENDINGS = {
    "fivefold_repetition": "Game drawn: fivefold repetition (FIDE Laws 9.6.1)",
    "seventyfive_moves": "Game drawn: 75-move rule (FIDE Laws 9.6.2)",
    "time_forfeit": "Flag fell: game ended on time (FIDE Laws 6.9)",
    "dead_position": "Game drawn: dead position (FIDE Laws 5.2.2)",
    "forfeit": "Game lost by forfeit",
}
# ClockAdjusted: an applied penalty (``apply_penalty``) names the alert it answers.
CLOSING_ACTIONS = {DrawClaimDecided.TYPE, ArbiterDecision.TYPE, TimeTroubleCalled.TYPE, ClockAdjusted.TYPE}
# Entry types whose repeats from one source (board, device and game) fold into that source's one open
# alert (with a count) instead of one alert each: garbage from a faulty device, or a clock set to the
# wrong control (two ``clock_disagreement`` a move), would otherwise flood the console.
GROUPED = {MessageRejected.TYPE, ClockDisagreement.TYPE}
# Arbiters' entries kept in the list of recorded actions (docs/arbiter.md), the checkers referee's too.
RECORDED_ACTIONS = (FineRecorded.TYPE, PlayerArrived.TYPE, GamePaused.TYPE, GameResumed.TYPE,
                    NoteAdded.TYPE, AlertResolved.TYPE, ScoreSheetEntered.TYPE, AdjudicationRecorded.TYPE,
                    MoveTimerStarted.TYPE, MatchClockChosen.TYPE,
                    # the Round tools' actions for the next pairing (docs/arbiter.md "Round tools")
                    PlayerWithdrew.TYPE, ByeRequested.TYPE, ByeRequestCancelled.TYPE, PlayerEntered.TYPE,
                    PairingForbidden.TYPE, AccelerationSet.TYPE)


@dataclass(eq=False)
class Alert:
    """One alert: ``id`` (= the log seq it came from), ``at`` (ms), ``kind`` (entry type),
    ``severity`` ("action" | "warning" | "info"), ``title``, ``game`` and ``board`` (or None),
    ``evidence`` (the entry's data), ``status`` ("open" | "resolved" | "lapsed" | "withdrawn": a
    penalty proposal the gateway withdrew, ``penalty_withdrawn``), ``resolution``
    (the closing action's data, with ``by`` and ``at``), ``count`` (how many entries it stands for:
    repeats of a ``GROUPED`` type from the same board, device and game), ``last_at`` (ms of the latest;
    ``evidence`` is then the latest entry's data, ``id`` and ``at`` the first's), ``since`` (what
    later entries made of the condition, ``services.views.alert_since``; None: nothing to follow)."""

    id: int
    at: int
    kind: str
    severity: str
    title: str
    game: str | None
    board: str | None
    evidence: dict
    status: str = "open"
    resolution: dict | None = None
    count: int = 1
    last_at: int | None = None
    since: dict | None = None

    def to_json(self) -> dict:
        """The alert as sent to arbiters' consoles (``/ws/arbiter``, the API)."""
        return {"id": self.id, "at": self.at, "kind": self.kind, "severity": self.severity,
                "title": self.title, "game": self.game, "board": self.board,
                "evidence": self.evidence, "status": self.status, "resolution": self.resolution,
                "count": self.count, "last_at": self.last_at if self.last_at is not None else self.at,
                "since": self.since}


@dataclass
class AlertQueue:
    """All alerts in log order. ``apply(seq, at, type, data)`` returns the alerts it created or
    changed (for pushing to arbiters' consoles)."""

    alerts: dict[int, Alert] = field(default_factory=dict)
    actions: list[dict] = field(default_factory=list)
    _grouped: dict[tuple, Alert] = field(default_factory=dict, repr=False)  # GROUPED source -> latest alert
    presence: RoundPresence = field(init=False, repr=False)
    since: Since = field(init=False, repr=False)
    # board -> the game it is for (round_started, match_game_started), and the games over: a device
    # going offline once its board's game is over (put away, switched off) is no alert
    _board_game: dict[str, str] = field(default_factory=dict, repr=False)
    _over: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        self.presence = RoundPresence(self._new)
        self.since = Since(self._close)

    def apply(self, seq: int, at: int, type: str, data: dict) -> list[Alert]:
        changed: list[Alert] = []
        game = data.get("game")
        if type == RoundStarted.TYPE:
            self.presence.note_round(data)
            self._board_game.update({str(g.get("board")): str(g.get("id")) for g in data.get("games") or ()
                                     if isinstance(g, dict)})
        elif type in (MatchGameStarted.TYPE, MovePlayed.TYPE) and data.get("board") is not None and game:
            self._board_game[str(data["board"])] = str(game)
        elif type == GameEnded.TYPE and game is not None:
            self._over.add(str(game))
        elif type == DeviceOffline.TYPE and self._board_game.get(str(data.get("board"))) in self._over:
            return changed  # after its game: the device put away or switched off, not a fault
        changed += self.presence.apply(seq, at, type, data)
        changed += self.since.apply(at, type, data)
        if type == DrawClaimable.TYPE:
            # A claim lapses once its position is gone (F01 (d)): the newer list replaces the old.
            for a in self._open(game, DrawClaimable.TYPE):
                a.status = "lapsed"
                changed.append(a)
            if not data.get("claims"):
                return changed
        if type == MoveRejected.TYPE and str(data.get("reason", "")).startswith("game over"):
            return changed  # pieces moved after the end (put away, the result signal): not a fault
        if type in GROUPED and (same := self._open_from_source(type, data)) is not None:
            same.count += 1
            same.last_at = at
            same.evidence = data
            changed.append(same)
        elif type in ALERTING:
            severity, title = ALERTING[type]
            if type == MoveRejected.TYPE and data.get("expected") is not None:
                title = BALLOT_TITLE
            changed.append(self._new(seq, at, type, severity, title, data))
        elif type == MovePlayed.TYPE and data.get("illegal"):
            changed.append(self._new(seq, at, type, "warning", STOOD_TITLE, data))
        elif type == PenaltyWithdrawn.TYPE:
            changed += self._withdrawn(seq, at, data)
        elif (type == GameEnded.TYPE and data.get("termination") in ALERTING_ENDINGS and data.get("by") != "arbiter"
              and not (data.get("termination") == "forfeit" and self.presence.defaulted(game))):
            changed.append(self._new(seq, at, type, "info", ALERTING_ENDINGS[data["termination"]], data))
        if type == GameEnded.TYPE:
            for a in self._open(game, DrawClaimable.TYPE):
                a.status = "lapsed"
                changed.append(a)
        if type == DeviceOnline.TYPE:
            for a in list(self.alerts.values()):
                if (a.status == "open" and a.kind == DeviceOffline.TYPE and a.board == str(data.get("board"))
                        and a.evidence.get("device") == data.get("device")):
                    self._close(a, {"by": "device", "at": at, "note": "back online"}, "resolved")
                    changed.append(a)
        if type == AlertResolved.TYPE:
            resolved = self.alerts.get(int(data.get("alert", -1)))
            if resolved:
                self._close(resolved, {**data, "at": at}, "resolved")
                changed.append(resolved)
        if type in CLOSING_ACTIONS:
            self.actions.append({"seq": seq, "at": at, "type": type, **data})
            for a in self._answered_by(type, data):
                self._close(a, {**data, "type": type, "at": at}, "resolved")
                changed.append(a)
        elif type in RECORDED_ACTIONS:
            self.actions.append({"seq": seq, "at": at, "type": type, **data})
        return changed

    def _answered_by(self, type: str, data: dict) -> list[Alert]:
        """The open alerts an arbiter's action answers: the one it names, and, for a claim decision,
        every open claim alert of the game; for a result, every open "action" alert of the game; for
        a referee's time-trouble call (X.A.d), the open ``time_trouble_impending`` alert of that side."""
        named = data.get("alert")
        hits = [self.alerts[int(named)]] if named is not None and int(named) in self.alerts else []
        game = data.get("game")
        if type == DrawClaimDecided.TYPE:
            hits += [a for a in self._open(game) if a.kind in (DrawClaimable.TYPE, DrawClaimReported.TYPE)]
        elif type == TimeTroubleCalled.TYPE:
            hits += [a for a in self._open(game, TimeTroubleImpending.TYPE) if a.evidence.get("side") == data.get("side")]
        elif type == ArbiterDecision.TYPE and data.get("result") not in (None, "*"):
            hits += [a for a in self._open(game) if a.severity == "action"]
        return [a for a in dict.fromkeys(hits) if a.status == "open"]

    def _withdrawn(self, seq: int, at: int, data: dict) -> list[Alert]:
        """A ``penalty_withdrawn``: the ``penalty_proposed`` alert it names (game, side, presses)
        closed as "withdrawn", whatever its status (its resolution keeps what was ``applied``), and an
        alert for the withdrawal, to act on when the proposal had been applied."""
        changed: list[Alert] = []
        applied = None
        for a in reversed(list(self.alerts.values())):
            e = a.evidence
            if (a.kind == PenaltyProposed.TYPE and a.status != "withdrawn" and a.game == data.get("game")
                    and e.get("side") == data.get("side") and e.get("presses") == data.get("presses")):
                if a.status == "resolved" and _applied(a):
                    applied = a.resolution
                self._close(a, {"type": PenaltyWithdrawn.TYPE, "by": data.get("by") or "gateway", "at": at,
                                "reason": data.get("reason"),
                                "applied": applied}, "withdrawn")
                changed.append(a)
                break
        for a in self._open(data.get("game"), PenaltyInDoubt.TYPE):  # the doubt the withdrawal settles
            if a.evidence.get("side") == data.get("side") and a.evidence.get("presses") == data.get("presses"):
                self._close(a, {"type": PenaltyWithdrawn.TYPE, "by": data.get("by") or "gateway", "at": at}, "resolved")
                changed.append(a)
        severity, title = ("action", WITHDRAWN_APPLIED_TITLE) if applied else \
            ("info", WITHDRAWN_TITLES.get(str(data.get("ground")), WITHDRAWN_TITLE))
        changed.append(self._new(seq, at, PenaltyWithdrawn.TYPE, severity, title, data))
        return changed

    def _new(self, seq: int, at: int, kind: str, severity: str, title: str, data: dict) -> Alert:
        board = None if data.get("board") is None else str(data.get("board"))
        # a device's alert (offline, a malformed message, a seq gap) names no game: the board's game then
        game = data.get("game") or (self._board_game.get(board) if board is not None else None)
        a = Alert(id=seq, at=at, kind=kind, severity=severity, title=title, game=game, board=board, evidence=data)
        self.alerts[seq] = a
        self.since.watch(a)
        if kind in GROUPED:
            self._grouped[_source(kind, data)] = a
        return a

    def _open_from_source(self, kind: str, data: dict) -> Alert | None:
        """The open ``kind`` alert of the entry's board and device (both None: no valid board)."""
        a = self._grouped.get(_source(kind, data))
        return a if a is not None and a.status == "open" else None

    def _open(self, game: str | None, kind: str | None = None) -> list[Alert]:
        return [a for a in self.alerts.values()
                if a.status == "open" and game is not None and a.game == game and (kind is None or a.kind == kind)]

    @staticmethod
    def _close(a: Alert, resolution: dict, status: str) -> None:
        a.status = status
        a.resolution = resolution

    def open_alerts(self) -> list[Alert]:
        """Open alerts, the ones needing action first, then newest first."""
        rank = {"action": 0, "warning": 1, "info": 2}
        return sorted((a for a in self.alerts.values() if a.status == "open"),
                      key=lambda a: (rank.get(a.severity, 3), -a.id))


def _applied(a: Alert) -> bool:
    """Whether the action that closed penalty proposal ``a`` applied it: its time added
    (``clock_adjusted``), or the loss it proposed declared (an ``arbiter_decision`` with its
    ``result``; one with another result only closed it, ``_answered_by``)."""
    res, e = a.resolution or {}, a.evidence
    if res.get("type") == ClockAdjusted.TYPE:
        return True
    return res.get("type") == ArbiterDecision.TYPE and bool(e.get("game_lost")) and res.get("result") == e.get("result")


def _source(kind: str, data: dict) -> tuple:
    """What repeats of a ``GROUPED`` entry have in common: its type, board, device and game (a
    board's next game starts its own alert)."""
    return kind, None if data.get("board") is None else str(data.get("board")), data.get("device"), data.get("game")
