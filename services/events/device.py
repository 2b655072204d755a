"""Entries the gateway writes from the hall's devices (docs/events.md "From the devices").

Every entry made from one device message carries ``board``, ``device`` ("board"/"clock") and the
device's own ``seq``: a gateway rebuilt from the log knows each device's last applied message, so a
restart neither asks for a message again nor applies one twice (DESIGN.md "Device protocol").
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from .base import Device, Event, Side, entry
from .match_setup import ThreeMoveBallot


class FromDevice(Event, kw_only=True):
    """Fields of every entry made from one applied device message."""

    KEEP: ClassVar[tuple[str, ...]] = ('device',)

    board: str
    device: Device = "board"
    seq: int | None = None
    sent_at: str | None = None
    game: str | None = None


@entry("move_played")
class MovePlayed(FromDevice, kw_only=True):
    """A legal ply: ``ply`` (from 1), ``move`` (UCI or numeric), ``san``, ``fen`` after it, ``turn``
    (side to move after), ``claimable`` (CLAIMs open now, FIDE Laws 9.2/9.3), ``source``
    ("move"/"position": which topic gave it, ``from`` in the data), ``resumed`` (the first legal move
    after a hold, field case F05), ``illegal`` (an illegal move that stands: the opponent moved on
    from the position it left before it was corrected, FIDE Laws A.5.2 in rapid under A.5 and blitz
    under B.3; ``fen`` is that position, ``san`` the move written as if it were legal)."""

    KEEP = ('device', 'claimable', 'source')

    ply: int
    move: str
    san: str
    fen: str
    turn: Side
    claimable: list[dict] = []
    source: str = msgspec.field(default="move", name="from")
    resumed: bool = False
    illegal: bool = False


@entry("move_composed")
class MoveComposed(FromDevice, kw_only=True):
    """Two reports by the same side before the press that completes its move (FIDE Laws 6.2.1: the
    press completes the move), read as the one legal move the board shows: a slide seen on a
    square it passed (``a1c1`` then ``c1e1`` = ``a1e1``), castling with the rook moved first
    (``h1f1`` then ``e1g1`` = ``e1g1``). It replaces the move recorded for ``ply`` (the game's
    last), which ``replaces`` names; ``parts``: the two reports (UCI; a placement is given as
    None); the other fields as in ``move_played``, for the composed move."""

    KEEP = ('device', 'claimable', 'source', 'replaces')

    ply: int
    move: str
    san: str
    fen: str
    turn: Side
    replaces: str
    parts: list[str | None] = []
    claimable: list[dict] = []
    source: str = msgspec.field(default="move", name="from")


@entry("move_rejected")
class MoveRejected(FromDevice, kw_only=True):
    """An illegal or unreadable move (or placement); ``held``: the board's later moves wait for the
    arbiter (FIDE Laws 7.5.1, F05); ``side``: the side whose man the move took from its square
    (None when the square was empty or the move unreadable: a move out of turn is the mover's
    irregularity, not the side to move's); ``ballot``/``expected``/``ballot_ply``/``rule``: a checkers move
    off the ballot (11-Man National 2017 X.A.d; ``ballot`` the game's :class:`ThreeMoveBallot`); ``count``: identical rejections folded into one."""

    reason: str
    fen: str | None = None
    move: str | None = None
    placement: str | None = None
    held: bool = False
    side: Side | None = None
    ballot: ThreeMoveBallot | None = None
    expected: str | None = None
    ballot_ply: int | None = None
    rule: str | None = None
    count: int = 1


@entry("message_rejected")
class MessageRejected(Event, kw_only=True):
    """A message that cannot be read (not JSON, wrong fields, unknown board, bad label) or that the
    gateway failed on (``internal error: ...``); ``raw`` cut to 2 KB; ``applied``: the message was next in
    its device's order (its ``seq`` is used up); ``count``: repeats from the same source folded into
    one entry (a flooding device, issue "Nothing lost, no one in")."""

    KEEP = ('board', 'topic', 'device', 'seq', 'raw')

    reason: str
    board: str | None = None
    topic: str | None = None
    device: Device | None = None
    seq: int | None = None
    raw: str | None = None
    applied: bool = False
    count: int = 1


@entry("message_duplicate")
class MessageDuplicate(Event, kw_only=True):
    """A redelivery or retry, acknowledged and ignored; ``count`` duplicates folded into one entry,
    ``seq`` the last of them."""

    KEEP = ('device',)

    board: str
    device: str = "board"
    seq: int
    count: int = 1


@entry("seq_gap")
class SeqGap(Event, kw_only=True):
    """A device skipped ``expected .. got-1`` (messages lost): applied from ``got`` on."""

    KEEP = ('device',)

    board: str
    device: Device = "board"
    expected: int
    got: int


@entry("result_held")
class ResultHeld(Event, kw_only=True):
    """A device's ``result`` message (``seq``) still waits behind a hole in that device's seqs
    (``expected``: the first missing one) when the hold for the missing seq runs out: the game is
    not ended from it while the messages before it are missing (issue 28: boards ended at ply 44 of
    65 by their result applied after a ``seq_gap``). It stays held, the device is asked to send again,
    until the hole fills (then applied in order) or the game ends otherwise (the arbiter's result:
    then applied after it, as any late message). Recorded once per held result; ``game``: the
    board's game; ``reason``: what the arbiter is told."""

    KEEP = ('device',)

    board: str
    device: Device = "board"
    seq: int
    expected: int
    game: str | None = None
    reason: str = ""


@entry("message_held")
class MessageHeld(FromDevice, kw_only=True):
    """A message that came before a missing one (``seq`` > last + 1): kept, in the log, until the
    missing ones arrive or the hold expires (``seq_gap``). ``kind``: the topic's last level;
    ``body``: the checked payload."""

    kind: str
    body: dict
    expected: int | None = None


class ClockReading(FromDevice, kw_only=True):
    """The clock device's own figures (ms) and the side whose time runs. ``made_at`` (ms): when the
    event was made, where that is not the entry's ``at`` (a message read after an outage, or held
    for a missing seq: ``services.clock.instant``); ``earliest_at`` (ms): the event's instant is
    known only to lie from then to ``made_at`` (else ``at``): no believable ``sent_at``."""

    KEEP = ('device', 'running')

    white_ms: int
    black_ms: int
    running: Side | None = None
    made_at: int | None = None
    earliest_at: int | None = None


@entry("clock_started")
class ClockStarted(ClockReading, kw_only=True):
    """The clock was started (FIDE Laws 6.5: White's clock at the start of the game)."""


@entry("clock_pressed")
class ClockPressed(ClockReading, kw_only=True):
    """A press: the side not running now completed its move (FIDE Laws 6.2.1)."""


@entry("clock_paused")
class ClockPaused(ClockReading, kw_only=True):
    """The clock stopped (by the arbiter, or by itself at a flag fall)."""


@entry("clock_resumed")
class ClockResumed(ClockReading, kw_only=True):
    """The clock runs again."""


@entry("clock_set")
class ClockSet(ClockReading, kw_only=True):
    """The clock's times were set on the device (an arbiter's correction at the clock)."""


@entry("clock_period_added")
class ClockPeriodAdded(ClockReading, kw_only=True):
    """The clock added the next period's time by itself because ``side``'s period ran out
    (clocks without a move counter, ``services.clock.expiry``); ``period``: the number (from 1) of
    the period now running for ``side``. Distinct from ``clock_set`` (an arbiter's setting): the
    gateway judges it (FIDE Laws 6.9: the period's moves made in time, else the flag fell)."""

    side: Side
    period: int


@entry("result_reported")
class ResultReported(FromDevice, kw_only=True):
    """A board or clock reported a result (``reason`` free text: "agreement", "result signal", ...)."""

    result: str
    reason: str | None = None


@entry("device_online")
class DeviceOnline(Event, kw_only=True):
    """A device's retained status became ``online``, or its ``battery`` (the device's text, e.g.
    "87%") changed while online."""

    KEEP = ('device',)

    board: str
    device: str = "board"
    battery: str | None = None


@entry("device_offline")
class DeviceOffline(Event, kw_only=True):
    """A device's status became ``offline`` (its last will, or said by itself)."""

    KEEP = ('device',)

    board: str
    device: str = "board"


@entry("board_oriented")
class BoardOriented(FromDevice, kw_only=True):
    """A sensor board's orientation read from its start snapshot (F06: turned 180 degrees)."""

    KEEP = ('device', 'rotated')

    rotated: bool = False


@entry("placement_seen")
class PlacementSeen(FromDevice, kw_only=True):
    """A sensor board's snapshot that plays no move: ``reading`` "same" (the official position: a
    held board is released, F05), "passing" (a piece in the air), "pending" (``pending``: a move kept
    until the next snapshot or press decides it: castling's rook first, a king onto a centre square
    while the clock is paused, F07; ``pending_fen`` the position after it), "after_end" (the pieces
    after the game ended, F07). ``placement``
    is oriented (as White sees it). Recorded so that a restarted gateway knows the device's last
    message and what stands on the board; ``count`` snapshots of the same reading folded into one."""

    placement: str
    reading: str
    pending: str | None = None
    pending_fen: str | None = None
    count: int = 1


@entry("move_kept")
class MoveKept(FromDevice, kw_only=True):
    """A ``move`` message kept for the next message to decide (F07: a king onto a centre square while
    the clock is paused may be half of the result signal); ``move`` the move as sent, ``fen_after`` the
    position after it."""

    move: str
    fen_after: str | None = None


@entry("flag_fell")
class FlagFell(Event, kw_only=True):
    """The clock shows ``side`` at 0 (FIDE Laws 6.8), or a period of a clock that adds the next on
    expiry ran out before its moves were made (6.9: ``expiry``, ``services.clock.expiry.Expiry``
    as JSON); ``game_ended`` follows (6.9). ``evidence``: whether the opponent can checkmate by any
    possible series of legal moves (chess: ``Unwinnability.to_json()``, ``{"side", "verdict",
    "reason", "line", "nodes"}``; a draw only on "unwinnable")."""

    game: str
    side: Side
    board: str = ""
    white_ms: int | None = None
    black_ms: int | None = None
    seq: int | None = None
    evidence: dict | None = None
    expiry: dict | None = None


@entry("both_flags_fell")
class BothFlagsFell(Event, kw_only=True):
    """The clock shows both sides at 0 and cannot show which flag fell first (``services.clock.flags``:
    the reading before showed neither at 0). ``ruling`` (``services.regulations.both_flags``):
    "drawn" (FIDE Laws Guidelines III.3.1.2, announced by the event: ``game_ended`` follows),
    "continue" (III.3.1.1: the game goes on; the arbiter sets the next period's time) or "arbiter"
    (the Laws do not decide it: the arbiter does, 6.8, 6.11); ``law``, ``reason``; ``periods``: per
    side ``{"period", "last", "moves_made"}``; ``rule``: the event's quoted rule or the law."""

    KEEP = ('ruling',)

    game: str
    board: str = ""
    white_ms: int | None = None
    black_ms: int | None = None
    seq: int | None = None
    ruling: str = "arbiter"
    law: str | None = None
    reason: str | None = None
    periods: dict | None = None
    rule: str | None = None


@entry("device_game_began")
class DeviceGameBegan(Event, kw_only=True):
    """A boundary: from ``seq`` on, the messages of ``board``'s ``device`` ("board"/"clock") are game
    ``game``'s, the board's game after ``follows`` (an Armageddon game after a drawn game, Norway
    Chess 2023; a checkers match's second game, 11-Man National 2017 X.A.b; a round's next game on
    the board). Recorded once, by the gateway (``gateway.which_game``), from ``evidence``: one of
    ``BEGAN_BY`` (the device's own ``game`` counter; the board set to the game's start position; the
    clock set to the game's starting times, or started; a message only this game can take, after
    the game before ended; the arbiter's call, ``board_game_called``). A new round's game on a board
    is a boundary too, recorded by ``round_started`` itself: a device that goes on with its ``seq``
    into the new round begins it at its next ``seq``. A message's game is then a lookup of its
    ``seq`` among its device's boundaries (``BoardState.game_of``), for resends and holes alike."""

    KEEP: ClassVar[tuple[str, ...]] = ('device', 'seq', 'evidence')

    board: str
    device: Device
    seq: int
    game: str
    follows: str | None = None
    evidence: str = "counter"


BEGAN_BY = ("counter", "start_position", "starting_times", "clock_start", "next_only", "arbiter")
"""What a ``device_game_began`` can be recorded from (docs/protocol.md "Two games on one board")."""


@entry("message_awaiting_game")
class MessageAwaitingGame(FromDevice, kw_only=True):
    """A device message applied in its device's order whose game cannot be decided yet: kept in the
    log (its ``seq`` used up) until it can, then applied to its game in ``seq`` order. ``reason``:
    ``"arbiter"`` (a game of the board awaits the arbiter's decision: a claim, a penalty that loses
    the game), ``"next_game"`` (the next game's start was shown while the game before has no final
    result), ``"either"`` (the message fits the game that ended and the next one alike); ``kind``,
    ``body``: the checked message; ``game``: the device's game when it was held; ``read_at`` (ms):
    when the gateway read it, where that is before this entry (held for a missing seq first);
    ``late``: it filled a missing seq (``gateway.payload.Message``)."""

    KEEP = ('device', 'reason')

    kind: str
    body: dict
    reason: str = "either"
    read_at: int | None = None
    late: bool = False


@entry("match_game_started")
class MatchGameStarted(FromDevice, kw_only=True):
    """Written by gateways before ``device_game_began``: the board's next game of a checkers match
    began with this device's message ``seq``; read as that device's boundary."""

    follows: str | None = None
    match: str | None = None


@entry("draw_claimable")
class DrawClaimable(Event, kw_only=True):
    """The claims open to the side to move changed (FIDE Laws 9.2, 9.3; checkers 40-move rule)."""

    KEEP = ('claims',)

    game: str
    board: str
    claims: list[dict] = []
    ply: int | None = None
