"""THE fold: the event log reduced to the hall's state (DESIGN.md "one vocabulary, one fold").

``HallState.apply(entry)`` folds one entry (``services.eventlog.base.Entry``, or ``apply_event`` for a
typed record with its time) and returns the :class:`~services.state.changes.Changes` it made. Every
consumer reads this one state: the gateway decides on it (``gateway.decide``) and folds what it
appends; the regulations (``services.regulations.referee``) read it to propose entries; the
spectators' view, the alerts and the standings (``services.views``) are projections of it. A
gateway rebuilt from the log therefore has exactly the state the live one had.

Rules of the fold:

- pure and deterministic: time is each entry's ``at`` (ms); nothing reads a clock or does I/O;
- it never raises on data: an entry that does not fit its type (``BadEvent``) or refers to a game
  the state does not know is skipped and counted in ``errors`` (the log is the audit trail; one bad
  entry must not stop a gateway from starting on a log it wrote);
- entries from different writers about one game commute where the order can differ (a move and an
  arbiter's result at the same moment): a move is appended to an ended game's record all the same,
  and a result does not depend on the moves.

The handlers are in ``fold_round`` (tournament, rounds, games added), ``fold_games`` (which game a
board's devices play: boundaries, messages awaiting their game), ``fold_board`` (device
messages: seqs, holds, placements), ``fold_moves`` (moves, claims), ``fold_clock`` (clock readings and
the per-ply clocks), ``fold_penalties`` (offences counted, presses that completed no move),
``fold_results`` (ends, reopenings, standings), ``fold_notes`` (what the regulations noted:
presence, defaults, timers), ``fold_pairing`` (the arbiter's actions for the next Swiss pairing:
requested byes, late entries, forbidden pairs, acceleration), ``fold_draft`` (the next round's
draft pairing: paired, changed by hand, published) and ``fold_analysis`` (the engine's evaluations
for the broadcast audience). Each registers its handlers here with ``@folds``;
the package (``services/state/__init__.py``) imports them all, so a ``HallState`` from
``services.state`` (or from this module, which Python reaches through the package) always has every
handler, and this module imports none of them (issue 26: no import circle between the fold and its
handlers).
"""

from __future__ import annotations

from collections.abc import Callable

from services.eventlog.base import Entry
from services.events import BadEvent, Event, decode
from services.events.device import MessageAwaitingGame, MoveRejected
from services.regulations.model import Tournament
from services.state.applied import content_of, drop_awaiting, used_seq
from services.state.changes import Changes
from services.state.model import BoardState, GameState, RoundState
from services.state.tournament import TournamentState

Handler = Callable[["HallState", Event, int, Changes], None]
HANDLERS: dict[type[Event], Handler] = {}
MAX_ERRORS = 100


def folds(*types: type[Event]):
    """Register a fold handler ``f(state, event, at, changes)`` for entry types ``types``."""

    def register(f: Handler) -> Handler:
        for t in types:
            if t in HANDLERS:
                raise ValueError(f"{t.TYPE} folded twice")
            HANDLERS[t] = f
        return f

    return register


class HallState:
    """The whole hall, every round kept. ``seq``: the last log seq folded (0 before any; entries a
    gateway folds before they are appended carry none); ``rounds``: number -> RoundState in the
    order set up; ``current``: the latest round's number; ``games``: every game of every round;
    ``boards``: the current round's hall boards; ``tournament``: players, results, registration;
    ``errors``: ``[(seq, type, reason)]`` of entries skipped (the last ``MAX_ERRORS``);
    ``stray_status``: board -> the raw text of the last status refused because the board has no game
    in the current round (at most ``fold_board.MAX_STRAY_STATUS`` boards, the newest kept).

    ``tournament`` (constructor): a tournament file to apply until the log registers one;
    ``clock_rate``: a replay's speed (1 in a real hall) for the regulations' clock model."""

    def __init__(self, tournament: Tournament | None = None, clock_rate: float = 1.0):
        self.seq = 0
        self.clock_rate = clock_rate
        self.rounds: dict[str, RoundState] = {}
        self.current: str | None = None
        self.games: dict[str, GameState] = {}
        self.boards: dict[str, BoardState] = {}
        # hall boards of earlier rounds that have no game in the current one: a later round on such a
        # board carries its devices' last seqs from here (a play-off board left out of one stage)
        self.resting: dict[str, BoardState] = {}
        # board -> the raw text of the last status message of a board with no game in the current
        # round (refused: unknown board): the same retained one again at a gateway start is no news
        self.stray_status: dict[str, str] = {}
        self.tournament = TournamentState()
        self.default_tournament = tournament
        self.errors: list[tuple[int | None, str, str]] = []

    # --- reading ---------------------------------------------------------------------------------
    @property
    def config(self) -> Tournament | None:
        """The tournament in force: the log's registration, else the one given at construction."""
        return self.tournament.tournament or self.default_tournament

    def round(self, number: str | None = None) -> RoundState | None:
        """Round ``number`` (default: the current one), or None."""
        key = self.current if number is None else str(number)
        return self.rounds.get(key) if key is not None else None

    def current_games(self) -> list[GameState]:
        """The current round's games in hall-board order."""
        r = self.round()
        return [self.games[g] for g in r.games if g in self.games] if r else []

    def board_game(self, board: str) -> GameState | None:
        """The game the devices of hall board ``board`` play now."""
        b = self.boards.get(board)
        return self.games.get(b.game) if b else None

    # --- folding ---------------------------------------------------------------------------------
    def apply(self, entry: Entry) -> Changes:
        """Fold one log entry (see the module docstring); entries at or below ``seq`` are ignored
        (a replay that overlaps), so folding is idempotent per seq."""
        if entry.seq and entry.seq <= self.seq:
            return Changes()
        if entry.seq:
            self.seq = entry.seq
        try:
            event = decode(entry.type, entry.data)
        except BadEvent as bad:
            self._error(entry.seq, entry.type, bad.reason)
            return Changes()
        return self.apply_event(event, entry.at, entry.seq)

    def apply_event(self, event: Event, at: int, seq: int | None = None) -> Changes:
        """Fold one typed entry made at ``at`` (ms). Never raises on data (see the module)."""
        changes = Changes()
        handler = HANDLERS.get(type(event))
        try:
            used = used_seq(event)
            if used is not None:
                board = self.boards.get(used[0])
                if board is not None:
                    dev = board.device(used[1])
                    if not isinstance(event, MoveRejected):
                        dev.used(used[2])  # DeviceSeq.refused: the move meant came under that seq
                    dev.mark(used[2])
                    dev.note(used[2], content_of(event))  # DeviceSeq.contents: a reused seq told apart
                    if board.awaiting and not isinstance(event, MessageAwaitingGame):
                        drop_awaiting(board, used[1], used[2])  # applied to its game at last
            if handler is not None:
                handler(self, event, at, changes)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
            self._error(seq, event.TYPE, f"{type(exc).__name__}: {exc}")
        return changes

    def fold(self, type: str, data: dict, at: int = 0, seq: int | None = None) -> Changes:
        """Fold ``(type, data)`` made at ``at``: an entry before it has a seq (a gateway's own)."""
        try:
            event = decode(type, data)
        except BadEvent as bad:
            self._error(seq, type, bad.reason)
            return Changes()
        return self.apply_event(event, at, seq)

    def _error(self, seq: int | None, type: str, reason: str) -> None:
        self.errors.append((seq, type, reason[:300]))
        del self.errors[:-MAX_ERRORS]

    def game_of(self, event) -> GameState | None:
        """The game an event names (``game``), or None when unknown."""
        return self.games.get(getattr(event, "game", None) or "")

    def snapshot(self) -> dict:
        """Everything the state holds, for comparing two states field for field (tests)."""
        return {"rounds": self.rounds, "current": self.current, "games": self.games,
                "boards": self.boards, "resting": self.resting, "tournament": self.tournament}
