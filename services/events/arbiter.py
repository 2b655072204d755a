"""Entries of the arbiters' console: each carries ``by`` (the arbiter's login) besides its own
fields (docs/arbiter.md lists the actions that write them)."""

from __future__ import annotations

from typing import Any

from .base import Event, Side, entry
from .tournament import TimeControlTable, TimeControlSpec, time_control_spec


class ArbiterAction(Event, kw_only=True):
    """Fields of every arbiter action: ``by`` (login), ``game``/``board`` when about one game,
    ``note``, ``alert`` (the alert it answers), ``ruling``: for a decision with a rule behind it
    (a claim, a penalty, a default, a flag, a move timer), how the rules core judged it from the
    recorded position and clocks before it was accepted: ``{"law", "reason", "evidence"}``
    (``services.regulations.rulings``)."""

    by: str | None = None
    game: str | None = None
    board: str | None = None
    note: str | None = None
    alert: int | None = None
    ruling: dict | None = None


@entry("draw_claim_decided")
class DrawClaimDecided(ArbiterAction, kw_only=True):
    """A claim (FIDE Laws 9.2, 9.3) accepted or refused; ``side``: the claimant (the player having
    the move, 9.2/9.3; None: the side to move when it was decided). A refused claim is answered by
    ``penalty_proposed`` (9.5.3)."""

    kind: str
    accepted: bool
    side: Side | None = None
    by_move: str | None = None
    rule: str | None = None
    penalty_ms: int | None = None


@entry("arbiter_decision")
class ArbiterDecision(ArbiterAction, kw_only=True):
    """A result set by the arbiter ("*" reopens a game that was wrongly ended: an undo) for any game
    of any round; ``termination`` says how it came (``services.arbiter_office.result_slip``: ``result_slip``,
    ``arbiter``, ``forfeit``, ``claim_upheld``, or the board's own reported reason); ``previous`` and
    ``previous_termination``: what the game had before (None: no result), so the log keeps the
    history of a correction or an undo."""

    result: str
    forfeit: bool = False
    termination: str | None = None
    previous: str | None = None
    previous_termination: str | None = None


@entry("fine_recorded")
class FineRecorded(ArbiterAction, kw_only=True):
    """A fine (``amount`` in ``currency``) for ``player`` (or ``start_no``)."""

    amount: int
    player: str | None = None
    start_no: int | None = None
    currency: str | None = None
    reason: str | None = None
    rule: str | None = None


@entry("player_arrived")
class PlayerArrived(ArbiterAction, kw_only=True):
    """A player checked in at the board (``arrived_at`` when given, else the entry's time)."""

    side: Side
    player: str | None = None
    arrived_at: int | None = None


@entry("clock_adjusted")
class ClockAdjusted(ArbiterAction, kw_only=True):
    """The arbiter set the clock (FIDE Laws 6.10, 7.5.5, 9.5.3): new times in ms. A penalty applied
    (``apply_penalty``) also says who got the time (``side``), how much (``add_ms``) and the
    ``penalty_proposed`` data it applies (``penalty``: offence, offender, law)."""

    white_ms: int
    black_ms: int
    previous: Any = None
    reason: str | None = None
    side: Side | None = None
    add_ms: int | None = None
    penalty: dict | None = None


@entry("game_paused")
class GamePaused(ArbiterAction, kw_only=True):
    """The arbiter stopped the clocks (FIDE Laws 6.11)."""


@entry("game_resumed")
class GameResumed(ArbiterAction, kw_only=True):
    """The arbiter restarted the clocks."""


@entry("note_added")
class NoteAdded(ArbiterAction, kw_only=True):
    """A note for the record."""

    text: str = ""


@entry("alert_resolved")
class AlertResolved(ArbiterAction, kw_only=True):
    """An alert closed without another action."""


@entry("score_sheet_entered")
class ScoreSheetEntered(ArbiterAction, kw_only=True):
    """A player's score sheet typed in (checkers 2017 XII)."""

    side: Side | None = None
    moves: list[str] = []
    board_plies: int | None = None
    differences: int | None = None


@entry("score_sheet_differences")
class ScoreSheetDifferences(ArbiterAction, kw_only=True):
    """Where a score sheet differs from the board's record (checkers 2017 XII)."""

    side: Side | None = None
    differences: list[dict] = []
    rule: str | None = None


@entry("adjudication_recorded")
class AdjudicationRecorded(ArbiterAction, kw_only=True):
    """The committee's adjudication (checkers 2017 X.B.d)."""

    members: list[str] = []
    votes: dict = {}
    result: str | None = None
    unanimous: bool | None = None
    binding: bool | None = None


@entry("move_timer_started")
class MoveTimerStarted(ArbiterAction, kw_only=True):
    """The referee started the five- or one-minute rule (checkers 2017 X.B.a, X.B.c)."""

    KEEP = ('rule',)

    rule: str = "five_minute"
    side: Side | None = None


@entry("time_trouble_called")
class TimeTroubleCalled(ArbiterAction, kw_only=True):
    """The referee called attention to impending time trouble (checkers 2017 X.A.d)."""

    side: Side | None = None
    player: str | None = None
    left_ms: int | None = None
    rule: str | None = None


@entry("match_clock_chosen")
class MatchClockChosen(ArbiterAction, kw_only=True):
    """A checkers match's clock chosen (X.A.a): ``option`` "90" or "80+10", ``time_control``."""

    option: str
    time_control: TimeControlSpec = None
    match: str | None = None
    games: list[str] = []
    wishes: dict = {}
    players: dict = {}
    how: str | None = None
    coin: str | None = None
    previous: str | None = None
    rule: str | None = None

    def __post_init__(self) -> None:
        """A table given as a dict becomes a ``TimeControlTable``, as reading the entry makes it."""
        if self.time_control is not None and not isinstance(self.time_control, (str, TimeControlTable)):
            self.time_control = time_control_spec(self.time_control)


@entry("game_corrected")
class GameCorrected(ArbiterAction, kw_only=True):
    """The arbiter corrected a game's record: the plies after ``ply`` are taken back (``removed``:
    their moves) and ``moves`` entered in their place (UCI, or numeric notation in checkers), with
    their ``san`` and the position after each (``fens``); ``fen``/``turn``: the position after the
    correction. FIDE Laws 7.5.1: "the position immediately before the irregularity shall be
    reinstated" (an illegal move found later, a wrong move on an e-board the players did not make),
    and 7.4 (a displaced piece); the record of moves follows the game the players actually played.
    ``reason`` in words, ``rule`` the article applied. The fold keeps the plies up to ``ply`` with
    their clocks, drops the rest, and appends ``moves`` (their clocks matched from the presses by
    counting, ``services.state.plies``)."""

    KEEP = ("ply", "moves", "fen")

    ply: int
    moves: list[str] = []
    san: list[str] = []
    fens: list[str] = []
    fen: str = ""
    turn: Side | None = None
    removed: list[str] = []
    reason: str | None = None
    rule: str | None = None


@entry("board_game_called")
class BoardGameCalled(ArbiterAction, kw_only=True):
    """The arbiter says which game board ``board``'s devices play (``game``): the board's next game
    (its devices moved on: the players set up and started it), or its current one (the game goes
    on). The messages the board holds (``message_awaiting_game``) and what its devices send next
    are that game's; the gateway records the boundaries (``device_game_began``, evidence
    "arbiter"). docs/arbiter.md "A board that holds its messages"."""

    KEEP = ('board', 'game')
