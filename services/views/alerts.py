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
from typing import cast

from services.events import (AdjudicationRecorded, AlertResolved, ArbiterDecision, ArmageddonDecided,
                             ArmageddonScheduled, BoardGameCalled, BothFlagsFell, ClockAdjusted, ClockDisagreement,
                             DeviceGameBegan, DeviceOffline,
                             DeviceOnline, DrawClaimable, DrawClaimDecided, DrawClaimReported, DrawOfferRefused,
                             Event, FineRecorded, FlagFell, GameEnded, GatewayDeaf, GatewayHearing, GamePaused, GameResumed, LateStartDraw,
                             MatchClockChosen, MatchForfeit, MatchGameReady, MessageRejected, MovePlayed, MoveRejected,
                             MoveTimerForfeit, MoveTimerStarted, MoveTimerWarning, NoteAdded, PenaltyInDoubt, PenaltyProposed,
                             PenaltyWithdrawn,
                             PlayerArrived, ResultHeld, RoundStarted, ScoreSheetDifferences, ScoreSheetEntered, SeqGap,
                             TimeTroubleCalled, TimeTroubleImpending)
from services.events.tournament import (AccelerationSet, ByeRequestCancelled, ByeRequested, PairingForbidden,
                                       PlayerEntered, PlayerWithdrew, PlayersRegistered)
from services.events.rounds import PairingDrafted, PairingPublished, PairingSwapped
from services.events.base import Device
from services.events.vocabulary import AlertKind, AlertSeverity, AlertStatus, EndedBy, GameResult, Termination
from services.state import HallState
from services.views.alert import Alert
from services.views.alert_since import Since
from services.views.alert_text import rule_of, sentence
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
    ResultHeld.TYPE: ("action", "A result waits for missing device messages: the game is not ended from it"),
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
    GatewayDeaf.TYPE: ("action", "Gateway deaf: the broker delivers nothing (moves are not being recorded)"),
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
    Termination.FIVEFOLD_REPETITION: "Game drawn: fivefold repetition (FIDE Laws 9.6.1)",
    Termination.SEVENTYFIVE_MOVES: "Game drawn: 75-move rule (FIDE Laws 9.6.2)",
    Termination.TIME_FORFEIT: "Flag fell: game ended on time (FIDE Laws 6.9)",
    Termination.DEAD_POSITION: "Game drawn: dead position (FIDE Laws 5.2.2)",
    Termination.FORFEIT: "Game lost by forfeit",
}
# ClockAdjusted: an applied penalty (``apply_penalty``) names the alert it answers.
CLOSING_ACTIONS = {DrawClaimDecided.TYPE, ArbiterDecision.TYPE, TimeTroubleCalled.TYPE, ClockAdjusted.TYPE}
# Entry types whose repeats from one source (board, device and game) fold into that source's one open
# alert (with a count) instead of one alert each: garbage from a faulty device, or a clock set to the
# wrong control (two ``clock_disagreement`` a move), would otherwise flood the console.
GROUPED = {MessageRejected.TYPE, ClockDisagreement.TYPE, GatewayDeaf.TYPE}
# Arbiters' entries kept in the list of recorded actions (docs/arbiter.md), the checkers referee's too.
RECORDED_ACTIONS = (FineRecorded.TYPE, PlayerArrived.TYPE, GamePaused.TYPE, GameResumed.TYPE,
                    NoteAdded.TYPE, AlertResolved.TYPE, ScoreSheetEntered.TYPE, AdjudicationRecorded.TYPE,
                    MoveTimerStarted.TYPE, MatchClockChosen.TYPE, BoardGameCalled.TYPE,
                    # the Round tools' actions for the next pairing (docs/arbiter.md "Round tools")
                    PlayerWithdrew.TYPE, ByeRequested.TYPE, ByeRequestCancelled.TYPE, PlayerEntered.TYPE,
                    PairingForbidden.TYPE, AccelerationSet.TYPE,
                    # registration and the round's life cycle (docs/pairing.md "The round's life cycle")
                    PlayersRegistered.TYPE, PairingDrafted.TYPE, PairingSwapped.TYPE, PairingPublished.TYPE)


# What a game's end does to each kind of alert of that game (docs/arbiter.md: "when a game ends, its
# open alerts that the end makes moot ... close as superseded"); every ``AlertKind`` is in exactly one
# of the four sets (tests/unit/test_alerts_livable.py), so a new kind must be placed.
# Moot: what they ask of the arbiter (verify a claim, look at a device, a clock, a held result, time
# trouble, a pending penalty or the doubt about it, ready a match's second game) no longer changes
# anything once the game has its result: closed as "superseded" (issue 27: "alerts of a game close or
# are marked superseded when its result is final"). A result held behind a hole is answered by the end
# (docs/events.md ``result_held``: held "until the hole fills ... or the game ends otherwise").
MOOT_AT_END = frozenset({AlertKind.DRAW_CLAIM_REPORTED, AlertKind.DRAW_OFFER_REFUSED, AlertKind.MOVE_REJECTED,
                         AlertKind.MOVE_PLAYED, AlertKind.MESSAGE_REJECTED, AlertKind.DEVICE_OFFLINE,
                         AlertKind.CLOCK_DISAGREEMENT, AlertKind.TIME_TROUBLE_IMPENDING, AlertKind.MOVE_TIMER_WARNING,
                         AlertKind.PENALTY_PROPOSED, AlertKind.PENALTY_IN_DOUBT, AlertKind.RESULT_HELD,
                         AlertKind.MATCH_GAME_READY})
# Lapsed: a claim that can be made is gone with its position (F01 (d), ``_lapse``).
LAPSED_AT_END = frozenset({AlertKind.DRAW_CLAIMABLE})
# Open after the end, until the arbiter or the next round closes them: what tells how the game ended
# (the arbiter is told at once, DESIGN.md) and what may still change its result or record (a score
# sheet, lost device messages, a withdrawn penalty that had been applied).
TOLD_AT_END = frozenset({AlertKind.FLAG_FELL, AlertKind.BOTH_FLAGS_FELL, AlertKind.ARMAGEDDON_DECIDED,
                         AlertKind.MOVE_TIMER_FORFEIT, AlertKind.LATE_START_DRAW, AlertKind.MATCH_FORFEIT,
                         AlertKind.GAME_ENDED, AlertKind.SEQ_GAP, AlertKind.SCORE_SHEET_DIFFERENCES,
                         AlertKind.PENALTY_WITHDRAWN})
# Not about a game the end can reach: the gateway's, the round's, and "Armageddon game to be played"
# (about a drawn game, closed by the Armageddon game's result, ``_closed``).
NOT_A_GAMES_END = frozenset({AlertKind.GATEWAY_DEAF, AlertKind.NOT_AT_BOARD, AlertKind.ARMAGEDDON_SCHEDULED})
# ... and when the next round starts, every alert still open about an ended game of an earlier round,
# but those that may still change a result or the clocks' record (the arbiter decides them).
# (and device messages lost for good: the record may lack them, docs/arbiter.md).
KEPT_AFTER_THE_ROUND = frozenset({AlertKind.SCORE_SHEET_DIFFERENCES, AlertKind.PENALTY_WITHDRAWN, AlertKind.SEQ_GAP})
UNKNOWN_BOARD_TITLE = "Status from a board with no game this round (ignored)"


@dataclass
class AlertQueue:
    """All alerts in log order: a projection of the one fold. ``apply(seq, at, event, state, data)``
    takes each typed entry after the state (``HallState``) has folded it, and returns the alerts it
    created or changed (for pushing to arbiters' consoles). A game's round, board, players and
    whether it has ended are the state's; the queue keeps only its alerts."""

    alerts: dict[int, Alert] = field(default_factory=dict)
    actions: list[dict] = field(default_factory=list)
    _grouped: dict[tuple, Alert] = field(default_factory=dict, repr=False)  # GROUPED source -> latest alert
    _unknown_boards: set[str] = field(default_factory=set, repr=False)  # boards whose stray status was told
    presence: RoundPresence = field(init=False, repr=False)
    since: Since = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.presence = RoundPresence(self._new)
        self.since = Since(self._close)
        self._state = HallState()

    def apply(self, seq: int, at: int, event: Event, state: HallState, data: dict | None = None) -> list[Alert]:
        """Project typed entry ``event`` (log ``seq``, made at ``at`` ms) with ``state`` folded up
        to it; ``data``: the entry's data as logged (an alert's evidence; default: the event's)."""
        data = event.encode()[1] if data is None else data
        self._state = state
        if self._quiet(event, data, state):
            return []
        changed = self.presence.apply(seq, at, event, state) + self.since.apply(at, event)
        if isinstance(event, DrawClaimable):
            # A claim lapses once its position is gone (F01 (d)): the newer list replaces the old.
            changed += self._lapse(event.game)
            if not event.claims:
                return changed
        if isinstance(event, MoveRejected) and event.reason.startswith("game over"):
            return changed  # pieces moved after the end (put away, the result signal): not a fault
        changed += self._born(seq, at, event, data, state)
        return changed + self._closed(seq, at, event, data, state)

    def _quiet(self, event: Event, data: dict, state: HallState) -> bool:
        """Entries that make no alert and change none: a device going offline on a board with no
        game this round or whose game is over (put away, switched off), and a board's stray retained
        status (a board not in this round) told once (``_born``)."""
        if isinstance(event, DeviceOffline):
            # the device's own game: a match's clock set for game 2 counts while the board is still game 1's
            board = state.boards.get(event.board)
            device = cast(Device, event.device) if event.device in ("board", "clock") else "board"
            game = state.games.get(board.current(device)) if board else None
            return game is None or game.ended
        return isinstance(event, MessageRejected) and _stray_status(event) and str(event.board) in self._unknown_boards

    def _born(self, seq: int, at: int, event: Event, data: dict, state: HallState) -> list[Alert]:
        """The alert ``event`` makes (or the open one of its source it adds to)."""
        kind = event.TYPE
        if isinstance(event, MessageRejected) and _stray_status(event):
            self._unknown_boards.add(str(data.get("board")))
            return [self._new(seq, at, kind, AlertSeverity.INFO, UNKNOWN_BOARD_TITLE, data, grouped=False)]
        if kind in GROUPED and (same := self._open_from_source(kind, data)) is not None:
            same.count += 1
            same.last_at = at
            same.evidence = data
            same.text = sentence(kind, data, state.games.get(same.game or ""))  # the latest figures
            return [same]
        if kind in ALERTING:
            severity, title = ALERTING[kind]
            if isinstance(event, MoveRejected) and event.expected is not None:
                title = BALLOT_TITLE
            return [self._new(seq, at, kind, severity, title, data)]
        if isinstance(event, MovePlayed) and event.illegal:
            return [self._new(seq, at, kind, AlertSeverity.WARNING, STOOD_TITLE, data)]
        if isinstance(event, PenaltyWithdrawn):
            return self._withdrawn(seq, at, event, data)
        if (isinstance(event, GameEnded) and event.termination in ALERTING_ENDINGS and event.by != EndedBy.ARBITER
                and not (event.termination == Termination.FORFEIT and self.presence.defaulted(event.game, state))):
            return [self._new(seq, at, kind, AlertSeverity.INFO, ALERTING_ENDINGS[event.termination], data)]
        return []

    def _closed(self, seq: int, at: int, event: Event, data: dict, state: HallState) -> list[Alert]:
        """The open alerts ``event`` closes (and the arbiters' actions it records)."""
        changed: list[Alert] = []
        if isinstance(event, GameEnded):
            changed += self._lapse(event.game) + self._superseded(
                [a for a in self._open(event.game) if self._moot_at_end(a) and a.id != seq], seq, at, "its game ended")
            # "Armageddon game to be played" is about the drawn game (its ``game``) and names the
            # Armageddon game in its evidence: done once that game has its result
            changed += self._superseded(
                [a for a in self.alerts.values() if a.status == AlertStatus.OPEN
                 and a.kind == AlertKind.ARMAGEDDON_SCHEDULED and a.evidence.get("id") == event.game],
                seq, at, "the Armageddon game has its result")
        elif isinstance(event, RoundStarted):
            changed += self._superseded(self._of_rounds_over(state), seq, at, "a new round started")
            # in the recorded actions as who started which round, not the round's whole set-up
            self.actions.append({"seq": seq, "at": at, "type": event.TYPE, "round": event.round,
                                 "games": len(event.games), "by": event.by})
        elif isinstance(event, DeviceOnline):
            for a in list(self.alerts.values()):
                if (a.status == AlertStatus.OPEN and a.kind == AlertKind.DEVICE_OFFLINE and a.board == event.board
                        and a.evidence.get("device") == event.device):
                    self._close(a, {"by": "device", "at": at, "note": "back online"}, AlertStatus.RESOLVED)
                    changed.append(a)
        elif isinstance(event, GatewayHearing):
            # the broker delivers to that gateway again: its deafness is over (nothing for the arbiter to do
            # but the moves its boards resend, which are recorded as they come)
            for a in list(self.alerts.values()):
                if (a.status == AlertStatus.OPEN and a.kind == AlertKind.GATEWAY_DEAF
                        and a.evidence.get("client_id") == event.client_id):
                    self._close(a, {"by": "gateway", "at": at, "note": f"hearing again after {event.deaf_ms} ms"},
                                AlertStatus.RESOLVED)
                    changed.append(a)
        elif isinstance(event, AlertResolved):
            resolved = self.alerts.get(event.alert if event.alert is not None else -1)
            if resolved:
                self._close(resolved, {**data, "at": at}, AlertStatus.RESOLVED)
                changed.append(resolved)
        kind = event.TYPE
        if kind in CLOSING_ACTIONS:
            self.actions.append({"seq": seq, "at": at, "type": kind, **data})
            for a in self._answered_by(event, data):
                self._close(a, {**data, "type": kind, "at": at}, AlertStatus.RESOLVED)
                changed.append(a)
        elif kind in RECORDED_ACTIONS:
            self.actions.append({"seq": seq, "at": at, "type": kind, **data})
        return changed

    def _lapse(self, game: str | None) -> list[Alert]:
        """The open claim alerts of ``game``, lapsed (F01 (d): the position claimed is gone)."""
        out = self._open(game, DrawClaimable.TYPE)
        for a in out:
            a.status = AlertStatus.LAPSED
        return out

    def _moot_at_end(self, a: Alert) -> bool:
        """Whether open alert ``a`` is moot once its game has ended (``MOOT_AT_END``), but a doubt about
        a penalty the arbiter already applied: its withdrawal would set the clocks or the result back
        (``WITHDRAWN_APPLIED_TITLE``), so it may still change the record."""
        if a.kind not in MOOT_AT_END:
            return False
        if a.kind != AlertKind.PENALTY_IN_DOUBT:
            return True
        e = a.evidence
        return not any(p.kind == AlertKind.PENALTY_PROPOSED and p.game == a.game and p.evidence.get("side") == e.get("side")
                       and p.evidence.get("presses") == e.get("presses") and _applied(p) for p in self.alerts.values())

    def _superseded(self, alerts: list[Alert], seq: int, at: int, why: str) -> list[Alert]:
        for a in alerts:
            self._close(a, {"by": "venue", "at": at, "seq": seq, "note": f"superseded: {why}"}, AlertStatus.SUPERSEDED)
        return alerts

    def _of_rounds_over(self, state: HallState) -> list[Alert]:
        """Open alerts about an ended game of an earlier round (but ``KEPT_AFTER_THE_ROUND``), and the
        earlier rounds' "not at the board" alerts."""
        out = []
        for a in self.alerts.values():
            if a.status != AlertStatus.OPEN or a.kind in KEPT_AFTER_THE_ROUND:
                continue
            g = state.games.get(a.game or "")
            if a.kind == AlertKind.NOT_AT_BOARD:
                if a.evidence.get("round") not in (None, state.current):
                    out.append(a)
            elif g is not None and g.ended and g.round != state.current:
                out.append(a)
        return out

    def _answered_by(self, event: Event, data: dict) -> list[Alert]:
        """The open alerts an arbiter's action answers: the one it names, and, for a claim decision,
        every open claim alert of the game; for a result, every open "action" alert of the game; for
        a referee's time-trouble call (X.A.d), the open ``time_trouble_impending`` alert of that side."""
        named = data.get("alert")
        hits = [self.alerts[int(named)]] if named is not None and int(named) in self.alerts else []
        game = data.get("game")
        if isinstance(event, DrawClaimDecided):
            hits += [a for a in self._open(game) if a.kind in (DrawClaimable.TYPE, DrawClaimReported.TYPE)]
        elif isinstance(event, TimeTroubleCalled):
            hits += [a for a in self._open(game, TimeTroubleImpending.TYPE) if a.evidence.get("side") == event.side]
        elif isinstance(event, ArbiterDecision) and event.result not in (None, GameResult.UNFINISHED):
            hits += [a for a in self._open(game) if a.severity == AlertSeverity.ACTION]
        return [a for a in dict.fromkeys(hits) if a.status == AlertStatus.OPEN]

    def _withdrawn(self, seq: int, at: int, event: PenaltyWithdrawn, data: dict) -> list[Alert]:
        """A ``penalty_withdrawn``: the ``penalty_proposed`` alert it names (game, side, presses)
        closed as "withdrawn", whatever its status (its resolution keeps what was ``applied``), and an
        alert for the withdrawal, to act on when the proposal had been applied."""
        changed: list[Alert] = []
        applied = None
        for a in reversed(list(self.alerts.values())):
            e = a.evidence
            if (a.kind == PenaltyProposed.TYPE and a.status != AlertStatus.WITHDRAWN and a.game == event.game
                    and e.get("side") == event.side and e.get("presses") == event.presses):
                if a.status in (AlertStatus.RESOLVED, AlertStatus.SUPERSEDED) and _applied(a):
                    applied = a.resolution
                self._close(a, {"type": PenaltyWithdrawn.TYPE, "by": event.by or "gateway", "at": at,
                                "reason": event.reason, "applied": applied}, AlertStatus.WITHDRAWN)
                changed.append(a)
                break
        for a in self._open(event.game, PenaltyInDoubt.TYPE):  # the doubt the withdrawal settles
            if a.evidence.get("side") == event.side and a.evidence.get("presses") == event.presses:
                self._close(a, {"type": PenaltyWithdrawn.TYPE, "by": event.by or "gateway", "at": at},
                            AlertStatus.RESOLVED)
                changed.append(a)
        severity, title = (AlertSeverity.ACTION, WITHDRAWN_APPLIED_TITLE) if applied else \
            (AlertSeverity.INFO, WITHDRAWN_TITLES.get(str(event.ground), WITHDRAWN_TITLE))
        changed.append(self._new(seq, at, PenaltyWithdrawn.TYPE, severity, title, data))
        return changed

    def _new(self, seq: int, at: int, kind: str, severity: str, title: str, data: dict, grouped: bool = True) -> Alert:
        board = None if data.get("board") is None else str(data.get("board"))
        state = self._state
        # a device's alert (offline, a malformed message, a seq gap) names no game: the board's game then
        game = data.get("game") or (state.boards[board].game if board in state.boards else None)
        g = state.games.get(game or "")
        a = Alert(id=seq, at=at, kind=kind, severity=severity, title=title, game=game, board=board, evidence=data,
                  players=None if g is None else {"white": g.white, "black": g.black},
                  rule=rule_of(kind, data), text=sentence(kind, data, g))
        self.alerts[seq] = a
        self.since.watch(a)
        if kind in GROUPED and grouped:
            self._grouped[_source(kind, data)] = a
        return a

    def _open_from_source(self, kind: str, data: dict) -> Alert | None:
        """The open ``kind`` alert of the entry's board and device (both None: no valid board)."""
        a = self._grouped.get(_source(kind, data))
        return a if a is not None and a.status == AlertStatus.OPEN else None

    def _open(self, game: str | None, kind: str | None = None) -> list[Alert]:
        return [a for a in self.alerts.values()
                if a.status == AlertStatus.OPEN and game is not None and a.game == game and (kind is None or a.kind == kind)]

    @staticmethod
    def _close(a: Alert, resolution: dict, status: str) -> None:
        a.status = status
        a.resolution = resolution

    def open_alerts(self) -> list[Alert]:
        """Open alerts, the ones needing action first, then newest first."""
        rank: dict[str, int] = {AlertSeverity.ACTION: 0, AlertSeverity.WARNING: 1, AlertSeverity.INFO: 2}
        return sorted((a for a in self.alerts.values() if a.status == AlertStatus.OPEN),
                      key=lambda a: (rank.get(a.severity, 3), -a.id))


def _stray_status(event: Event) -> bool:
    """A status message from a board that has no game this round (the gateway's "unknown board"):
    a retained status comes again at every gateway start and resubscription."""
    return (isinstance(event, MessageRejected) and (event.topic or "").endswith("/status")
            and event.reason is not None and event.reason.startswith("unknown board"))


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
    board's next game starts its own alert); a deaf gateway's, its client id (a restarted gateway
    still deaf adds to its open alert)."""
    if kind == GatewayDeaf.TYPE:
        return kind, data.get("client_id")
    return kind, None if data.get("board") is None else str(data.get("board")), data.get("device"), data.get("game")
