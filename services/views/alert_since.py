"""What became of an alert's condition since its entry: an alert says what is true now, not only what
its entry said when it was written (a new user's console: "the board waits for you" stayed after the
board resumed, "messages 19-1017 were lost" after those messages had arrived). Pure: folded from the
entries that follow, so a restarted dashboard says the same.

``Alert.since`` holds it, and the console's words are made from it (dashboard/static/arbiter.js):

- a held board (``move_rejected`` with ``held``: its later moves wait for the arbiter, FIDE Laws
  7.5.1, field case F05) is released by the entries that lift ``BoardState.held`` in the fold
  (services/state/fold_moves.py, fold_board.py, fold_correction.py, fold_results.py): the board's next
  legal move (``move_played``: ``{"how": "resumed", "at", "ply", "move", "san"}``; ``"stood"`` for an
  illegal move the opponent played on from, FIDE Laws A.5.2), the official position set back on a
  sensor board (``placement_seen`` "same": ``"restored"``), the arbiter's correction of the record
  (``game_corrected``: ``"corrected"``, with ``ply``) or the game's end (``game_ended``: ``"ended"``,
  with ``result``). Each of the hold's alerts gets it (the illegal move's and the held moves' after
  it), and an open one is resolved by the board;
- a ``seq_gap`` (``expected .. got-1`` skipped once the hold ran out: docs/protocol.md) has
  ``{"arrived": RANGES, "missing": RANGES, "lost": bool}`` (RANGES: ``[[first, last], ...]`` in
  order): a skipped message that arrives late and is applied (``services.state.applied.used_seq``, the
  fold's own test) moves from ``missing`` to ``arrived``; with none missing the alert is resolved by
  the device (nothing lost). A round set up after it makes those still missing ``lost``: the devices
  count from seq 1 again (every board's ``DeviceSeq`` starts anew), so they can no longer be applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from services.events import Event, GameCorrected, GameEnded, MovePlayed, MoveRejected, PlacementSeen, RoundStarted, SeqGap
from services.events.vocabulary import AlertStatus
from services.state.applied import used_seq
from services.state.model import take_out
from services.views.alert import Alert

# how a held board was released -> what the alert's title says of it from then on
RELEASED_WORDS = {
    "resumed": "the board resumed",
    "stood": "it stood, the board went on from it (FIDE Laws A.5.2)",
    "restored": "taken back, the official position is on the board again",
    "corrected": "the arbiter corrected the record",
    "ended": "the game ended while the board was held",
}
RELEASED_TITLES = {how: f"Illegal move: {words}" for how, words in RELEASED_WORDS.items()}
# a checkers move off the ballot holds the board too (11-Man National 2017 X.A.d; gateway/decide.py)
BALLOT_RELEASED_TITLES = {how: f"Move off the ballot: {words}" for how, words in RELEASED_WORDS.items()}
GAP_ARRIVED_TITLE = "Device messages arrived late: nothing lost (seq gap closed)"
GAP_LOST_TITLE = "Device messages lost (seq gap)"

Close = Callable[[Alert, dict, str], None]
"""``close(alert, resolution, status)``: the queue's way of closing an alert."""


@dataclass
class Since:
    """The alerts whose condition later entries can change: held boards' by game, seq gaps' by
    ``(board, device)``. ``watch(alert)`` after an alert is made; ``apply(at, event)`` returns the
    alerts a typed entry changed."""

    close: Close
    _held: dict[str, list[Alert]] = field(default_factory=dict)
    _gaps: dict[tuple[str, str], list[tuple[Alert, dict]]] = field(default_factory=dict)  # with its ``since``

    def watch(self, a: Alert) -> None:
        """Follow alert ``a`` when later entries can change what it says."""
        e = a.evidence
        if a.kind == MoveRejected.TYPE and e.get("held") and a.game:
            self._held.setdefault(a.game, []).append(a)
        elif a.kind == SeqGap.TYPE and isinstance(e.get("expected"), int) and isinstance(e.get("got"), int):
            since: dict = {"arrived": [], "missing": [[e["expected"], e["got"] - 1]] if e["got"] > e["expected"] else [],
                           "lost": False}
            a.since = since
            self._gaps.setdefault((str(e.get("board")), str(e.get("device") or "board")), []).append((a, since))

    def apply(self, at: int, event: Event) -> list[Alert]:
        """The alerts typed entry ``event`` made at ``at`` (ms) changed."""
        if isinstance(event, RoundStarted):
            return self._lost()
        changed = self._released(at, event) if self._held else []
        if self._gaps:
            changed += self._arrived(at, event)
        return changed

    def _released(self, at: int, event: Event) -> list[Alert]:
        extra: dict
        if isinstance(event, MovePlayed):
            how = "stood" if event.illegal else "resumed"
            extra = {"ply": event.ply, "move": event.move, "san": event.san}
        elif isinstance(event, PlacementSeen) and event.reading == "same":
            how, extra = "restored", {}
        elif isinstance(event, GameCorrected):
            how, extra = "corrected", {"ply": event.ply}
        elif isinstance(event, GameEnded):
            how, extra = "ended", {"result": event.result}
        else:
            return []
        game = getattr(event, "game", None)
        alerts = self._held.pop(str(game), []) if game is not None else []
        for a in alerts:
            a.since = {"how": how, "at": at, **extra}
            a.title = (BALLOT_RELEASED_TITLES if a.evidence.get("expected") is not None else RELEASED_TITLES)[how]
            if a.status == AlertStatus.OPEN:
                self.close(a, {"by": "board", "at": at, "note": a.title}, AlertStatus.RESOLVED)
        return alerts

    def _arrived(self, at: int, event: Event) -> list[Alert]:
        """A skipped message applied late (the fold's own test, ``used_seq``) closes its part of a gap."""
        used = used_seq(event)
        if used is None:
            return []
        board, device, seq = used
        gaps = self._gaps.get((str(board), str(device or "board"))) or []
        hit = next((g for g in gaps if any(r[0] <= seq <= r[1] for r in g[1]["missing"])), None)
        if hit is None:
            return []
        a, since = hit
        take_out(since["missing"], seq)
        since["missing"].sort()
        _add(since["arrived"], seq)
        if not since["missing"]:
            gaps.remove(hit)
            a.title = GAP_ARRIVED_TITLE
            if a.status == AlertStatus.OPEN:
                self.close(a, {"by": "device", "at": at, "note": "arrived late; nothing lost"}, AlertStatus.RESOLVED)
        return [a]

    def _lost(self) -> list[Alert]:
        """A round set up: every skipped message still missing is lost for good."""
        changed = []
        for a, since in (g for gaps in self._gaps.values() for g in gaps):
            since["lost"] = True
            a.title = GAP_LOST_TITLE
            changed.append(a)
        self._gaps.clear()
        return changed


def _add(ranges: list[list[int]], seq: int) -> None:
    """Put ``seq`` into ``ranges`` (in order, adjacent ranges merged)."""
    for i, r in enumerate(ranges):
        if r[0] - 1 <= seq <= r[1] + 1:
            r[0], r[1] = min(r[0], seq), max(r[1], seq)
            if i + 1 < len(ranges) and ranges[i + 1][0] <= r[1] + 1:
                r[1] = ranges.pop(i + 1)[1]
            return
        if seq < r[0]:
            ranges.insert(i, [seq, seq])
            return
    ranges.append([seq, seq])
