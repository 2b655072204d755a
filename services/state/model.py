"""The hall's state: what the one fold of the event log keeps (``services.state.fold.HallState``).

Plain dataclasses, compared field for field (a gateway rebuilt from the log must equal the live one:
tests/unit/test_fold_property.py). All times are ms since the Unix epoch, taken from the entries'
``at``; nothing here reads a clock.

- :class:`GameState`: one game of any round: its SETUP, moves, per-ply clocks, the clock device's
  latest reading, status and result, claims, who is at the board, and what the regulations noted.
- :class:`BoardState`: one hall board in the current round: its devices' applied ``seq`` values,
  messages held for missing ones, a hold after an illegal move (F05), orientation (F06), the pieces
  after the end (F07), a move kept for the next message to decide.
- :class:`RoundState`: one round: its ROUND information, games in board order, when it starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.events.base import Device, Side
from services.events.tournament import Setup, TimeControlSpec
from services.events.vocabulary import GameResult, GameStatus, Termination
from services.events.analysis import PositionEvaluated
from services.state.clock_reading import ClockShown
from services.state.match_clock import MatchClockChoice


def take_out(ranges: list[list[int]], seq: int) -> bool:
    """Take ``seq`` out of ``ranges`` (``[first, last]`` seq ranges, changed in place: the range
    holding it split in two); True when it was in one."""
    for r in ranges:
        if r[0] <= seq <= r[1]:
            ranges.remove(r)
            ranges.extend(x for x in ([r[0], seq - 1], [seq + 1, r[1]]) if x[0] <= x[1])
            return True
    return False


@dataclass
class DeviceSeq:
    """One device's messages: ``last`` applied ``seq`` (0: none), ``holes`` (``[first, last]``
    ranges a ``seq_gap`` skipped: a late message inside one is applied, not a duplicate),
    ``waiting`` (seq -> ``MessageHeld`` data: held for a missing seq), ``waiting_since`` (ms),
    ``refused`` (``[[seq, move], ...]``, oldest first, at most ``MAX_REFUSED``: moves refused
    (``move_rejected``) under a seq that nothing else has used since: a later message with one of
    those seqs and another move is not a duplicate but the move meant, since a refusal changes
    nothing in the game. That holds for any such seq, not only the device's last: a stray publish
    that took the board's next seq with an illegal move and then jumped the seq further must not
    turn the board's own message with the first seq into a "duplicate" once the jump was applied);
    ``contents`` (seq -> what the messages applied under it said, ``services.state.applied.content_of``:
    ``["move", text]`` for a move played or refused from the ``move`` topic, ``["clock", event,
    white_ms, black_ms, running, side, period]`` for a clock reading; each seq's contents in the
    order applied, the newest ``MAX_CONTENTS`` seqs of this round): a later message under that seq
    saying none of them is no duplicate but a device that reused its seqs (fresh-user 2 #2: a board
    rebooted mid-game and counted from 1 again), refused and told to the arbiter (``gateway.hall``),
    never ignored as the same message again; a refused move's redelivery stays a duplicate)."""

    last: int = 0
    holes: list[list[int]] = field(default_factory=list)
    waiting: dict[int, dict] = field(default_factory=dict)
    waiting_since: int | None = None
    refused: list[list] = field(default_factory=list)
    contents: dict[int, list[list]] = field(default_factory=dict)

    MAX_REFUSED = 16  # a device refused more often than that under seqs still open is broken; keep the newest
    # a game's moves and presses on one device: a 300-ply game's board sends ~300 messages, its clock
    # ~300 presses and a few others; a device counting from 1 again mid-game reuses its oldest seqs,
    # so every seq of a long game must stay known; beyond that the oldest go (as a duplicate then)
    MAX_CONTENTS = 1000

    def note(self, seq: int, content: list | None) -> None:
        """Message ``seq`` was applied and said ``content`` (None: nothing to compare, kept as it was)."""
        if content is None:
            return
        said = self.contents.pop(seq, [])
        if content not in said:
            said.append(content)
        self.contents[seq] = said  # the newest seq last: the oldest go first
        while len(self.contents) > self.MAX_CONTENTS:
            del self.contents[next(iter(self.contents))]

    def refuse(self, seq: int, move: str) -> None:
        """A move under ``seq`` was refused (``move_rejected``): ``seq`` stays open for another move."""
        if [seq, move] not in self.refused:
            self.refused.append([seq, move])
            del self.refused[:-self.MAX_REFUSED]

    def used(self, seq: int) -> None:
        """``seq`` was used by something other than a refused move: no longer open."""
        if self.refused:
            self.refused = [r for r in self.refused if r[0] != seq]

    def refused_moves(self, seq: int) -> list[str]:
        """The moves refused under ``seq`` while it stays open (empty: not open)."""
        return [r[1] for r in self.refused if r[0] == seq]

    def mark(self, seq: int) -> None:
        """``seq`` was applied."""
        self.waiting.pop(seq, None)
        if seq > self.last:
            self.last = seq
        else:
            self.fill(seq)
        if not self.waiting:
            self.waiting_since = None

    def fill(self, seq: int) -> bool:
        """Take ``seq`` out of the holes; True when it was in one."""
        return take_out(self.holes, seq)

    def in_hole(self, seq: int) -> bool:
        """Whether ``seq`` lies in a range a gap skipped (never applied)."""
        return any(r[0] <= seq <= r[1] for r in self.holes)

    def skip(self, expected: int, got: int) -> None:
        """A ``seq_gap``: ``expected .. got-1`` will not come in order."""
        if got > expected:
            self.holes.append([expected, got - 1])
            del self.holes[:-16]  # a device with more holes than that is broken; keep the newest
        if got - 1 > self.last:
            self.last = got - 1


@dataclass
class Pending:
    """A move kept until the next message decides it (F07, castling with the rook first):
    ``move`` (UCI), ``kind`` (topic: "move"/"position"), ``device``, ``seq``, ``fen_after``."""

    move: str
    kind: str
    device: Device
    seq: int | None
    fen_after: str
    sent_at: str | None = None


@dataclass
class BoardState:
    """One hall board. ``games``: the ids of the games it plays this round, in order (its first
    game; a checkers match's second game; an Armageddon game once scheduled); ``began``: per device
    (``"board"``, ``"clock"``) its boundaries ``[[seq, game], ...]`` in ``seq`` order
    (``device_game_began``: from ``seq`` on the device's messages are ``game``'s; before the first,
    ``games[0]``'s); ``game``: the board device's game now (what ``held``, ``pending`` and
    ``physical`` are about); ``awaiting``: the messages held until their game can be decided
    (``message_awaiting_game`` data with ``read_at``, ms), in arrival order; ``called``: the game the
    arbiter called (``board_game_called``) until the gateway has answered it; ``carried``: per device,
    its last ``seq`` in the round before (a device may go on from it into this round); ``devices``: per device
    its :class:`DeviceSeq`; ``held``: F05; ``rotated``/``oriented``:
    F06; ``held_by``, ``held_move``: the side whose illegal move put the hold on (None: unknown) and
    that move as sent, ``held_press``: the number of that side's press that completed it (FIDE Laws
    7.5.1), all read only while ``held``; ``physical``: the placement after the end (F07); ``pending``: :class:`Pending`;
    ``status``: ``"device_online"``/``"device_offline"`` of its last status message (the hall
    board's: carried into the next round with ``battery`` and ``bad_status``, ``fold_round._carry``);
    ``placement``: the last snapshot of a sensor board (oriented); ``battery``: the last battery
    level a device reported with its status (text, e.g. "87%"), or None; ``bad_status``: the raw
    text of the last status message refused as malformed since the last good one (a retained one
    comes again at every gateway start: the same text again is no news)."""

    board: str
    game: str
    games: list[str] = field(default_factory=list)
    began: dict[Device, list[list]] = field(default_factory=dict)
    awaiting: list[dict] = field(default_factory=list)
    called: str | None = None
    carried: dict[Device, int] = field(default_factory=dict)
    devices: dict[Device, DeviceSeq] = field(default_factory=dict)
    held: bool = False
    held_by: str | None = None
    held_move: str | None = None
    held_press: int | None = None
    rotated: bool = False
    oriented: bool = False
    physical: str | None = None
    pending: Pending | None = None
    status: str | None = None
    placement: str | None = None
    battery: str | None = None
    bad_status: str | None = None

    def device(self, name: Device) -> DeviceSeq:
        """The device's sequence record (created empty)."""
        d = self.devices.get(name)
        if d is None:
            d = self.devices[name] = DeviceSeq()
        return d

    def current(self, device: Device) -> str:
        """The game ``device`` plays now: its latest boundary's, else the board's first game."""
        began = self.began.get(device)
        return began[-1][1] if began else self.games[0] if self.games else self.game

    def game_of(self, device: Device, seq: int) -> str:
        """The game of ``device``'s message ``seq``: the game of the last boundary at or below
        ``seq``, else the board's first game (resends from a hole and late messages alike)."""
        game = self.games[0] if self.games else self.game
        for at, gid in self.began.get(device) or ():
            if at > seq:
                break
            game = gid
        return game

    def next_game(self, game: str) -> str | None:
        """The game after ``game`` on this board this round, or None."""
        try:
            i = self.games.index(game)
        except ValueError:
            return None
        return self.games[i + 1] if i + 1 < len(self.games) else None


@dataclass
class Timer:
    """The referee's move timer (checkers 2017 X.B.a/c): ``rule`` name, ``side`` on move,
    ``turn_began`` (ms), ``warned`` (the ``turn_began`` a warning was given for)."""

    rule: str
    side: str
    turn_began: int
    warned: int | None = None


@dataclass
class Proposal:
    """One ``penalty_proposed`` of a game, as the fold keeps it for the decisions that follow
    (``services.regulations.rulings``): the proposal's ``side`` (offender), ``offence``, ``how``,
    ``offence_no``, ``to``, ``add_ms``, ``game_lost``, ``result``, ``presses``, ``move``, ``law``;
    ``status``: "open", "applied" (its time added: ``clock_adjusted`` with ``penalty``) or
    "withdrawn" (``penalty_withdrawn``); ``doubt``: the record can also read its press as the
    replacement move's (``penalty_in_doubt``, FIDE Laws 7.5.1)."""

    side: str
    offence: str
    how: str
    offence_no: int
    to: str
    add_ms: int
    game_lost: bool = False
    result: str | None = None
    presses: int | None = None
    move: str | None = None
    law: str | None = None
    status: str = "open"
    doubt: bool = False


@dataclass
class GameState:
    """One game. Identity and players come from its SETUP (``setup``: ``services.events.Setup``,
    docs/events.md; ``time_control``: its PGN text or ``TimeControlTable``, a match clock's once
    chosen); the public
    fields named as in the spectators' GAME (README "Dashboard API") are kept by the fold:
    ``moves``, ``san``, ``fen``, ``ply``, ``turn``, ``clocks`` (the mover's time after each ply,
    PGN %clk), ``move_at`` (when each ply reached the log, ms; None for a ply an arbiter entered in a
    correction), ``clock`` (the clock device's latest reading, a
    ``services.state.clock_reading.ClockShown``: ``white_ms``, ``black_ms``, ``running``, ``at`` (ms),
    ``at`` when it was made, ``services.clock.instant``), ``clock_earliest`` (the earliest instant
    that reading can have been made when it is known only within a window, its ``earliest_at``;
    else None), ``status`` ("waiting"/"playing"/"ended"), ``clock_event`` (the type of the latest
    clock entry), ``result``, ``termination``, ``claimable``,
    ``last_move``, ``match_clock`` (a checkers match's clock once the referee recorded it, X.A.a:
    ``services.state.match_clock.MatchClockChoice``), ``time_control``.

    Clock presses are matched to plies by counting (issue "Nothing lost"): ``presses[side]`` holds
    each press's reading for the pressing side, in order, from the clock's start; the k-th press of a
    side belongs to that side's k-th move made after the clock started (``timed_from``: the ply count
    when the clock started), whichever of the two reached the log first.

    Regulations' notes: ``arrived`` (side -> ms, FIDE Laws 6.7.1), ``started_at`` (first move or clock
    start), ``defaulted``, ``excused`` (sides the arbiter let play after a default: FIDE Laws 6.7.1
    "unless the arbiter decides otherwise"), ``fine_alerted``, ``follow_up`` (an Armageddon game follows it),
    ``late_start_ruled``, ``time_trouble`` (sides alerted, X.A.d), ``timer``, ``paused`` (the side
    whose clock ran when an arbiter paused), ``flagged`` (the side whose flag fell),
    ``reported`` (clock mismatches already reported), ``ended_by`` and ``ended_at``, ``scored`` (the
    result the regulations scored a drawn Armageddon game as), ``prepared`` (a match's next game was
    made ready or forfeited, X.A.b), ``offences`` (side -> offence -> how many penalties were
    proposed for it in this game and not withdrawn (``penalty_withdrawn``): "illegal_move" counts
    towards 7.5.5's second completed illegal move, "incorrect_claim" 9.5.3), ``stood`` (ply -> the FEN after it, for each illegal move that
    stood: FIDE Laws A.5.2; the rules core goes on from that position), ``corrections`` (how many
    times an arbiter corrected the record, ``game_corrected``), ``doubtful_press`` (``(side, k,
    move)``: ``side``'s k-th press, which completed its illegal move ``move`` (7.5.1) or, its board
    message late, the replacement move; kept as the replacement's until the record says which:
    ``fold_penalties``), ``unfounded`` (the same tuple once the record also fits the replacement's:
    the penalty proposed at that press is owed a ``penalty_in_doubt`` for the arbiter),
    ``proposals`` (every ``penalty_proposed`` as a :class:`Proposal`, in order),
    ``awaiting`` (the arbiter's decisions the game waits for that may end it: "claim" while a
    ``draw_claim_reported`` is undecided, FIDE Laws 9.2/9.3; "penalty" while a ``penalty_proposed``
    that loses the game is, 7.5.5: the board holds its devices' later messages meanwhile),
    ``evaluation`` (the engine's latest ``position_evaluated`` record, a
    ``services.events.PositionEvaluated``, of a position the game stood in when it was folded; the
    public GAME shows its ``ply``, ``score_cp``, ``mate``, ``best_line_san``, ``depth`` and ``engine``:
    ``services.state.fold_analysis``)."""

    id: str
    board: str
    round: str
    setup: Setup
    variant: str
    kind: str | None
    white: str
    black: str
    start_fen: str
    first_side: Side
    fen: str
    turn: Side
    time_control: TimeControlSpec = None
    moves: list[str] = field(default_factory=list)
    san: list[str] = field(default_factory=list)
    clocks: list[int | None] = field(default_factory=list)
    move_at: list[int | None] = field(default_factory=list)
    clock: ClockShown | None = None
    clock_earliest: int | None = None
    clock_event: str | None = None
    status: GameStatus = GameStatus.WAITING
    result: GameResult = GameResult.UNFINISHED
    termination: Termination | None = None
    forfeit: bool = False
    claimable: list[dict] = field(default_factory=list)
    claims_ply: int = 0
    last_move: str | None = None
    match_clock: MatchClockChoice | None = None
    presses: dict[str, list[int]] = field(default_factory=lambda: {"white": [], "black": []})
    timed_from: int | None = None
    arrived: dict[str, int | None] = field(default_factory=lambda: {"white": None, "black": None})
    started_at: int | None = None
    defaulted: bool = False
    excused: set[str] = field(default_factory=set)
    fine_alerted: set[str] = field(default_factory=set)
    follow_up: bool = False
    late_start_ruled: bool = False
    time_trouble: set[str] = field(default_factory=set)
    timer: Timer | None = None
    paused: str | None = None
    flagged: str | None = None
    reported: set[tuple] = field(default_factory=set)
    ended_by: str | None = None
    ended_at: int | None = None
    scored: str | None = None
    prepared: bool = False
    offences: dict[str, dict[str, int]] = field(default_factory=lambda: {"white": {}, "black": {}})
    stood: dict[int, str] = field(default_factory=dict)
    corrections: int = 0
    doubtful_press: tuple[str, int, str | None] | None = None
    unfounded: tuple[str, int, str | None] | None = None
    proposals: list[Proposal] = field(default_factory=list)
    awaiting: set[str] = field(default_factory=set)
    evaluation: PositionEvaluated | None = None

    @property
    def ply(self) -> int:
        """Plies played (0 = no move yet)."""
        return len(self.moves)

    @property
    def ended(self) -> bool:
        """The game has a result."""
        return self.status == GameStatus.ENDED

    def mover(self, ply: int) -> Side:
        """The side that made ``ply`` (from 1)."""
        other: Side = "black" if self.first_side == "white" else "white"
        return self.first_side if ply % 2 == 1 else other

    def moves_by(self, side: str) -> int:
        """How many plies ``side`` has made."""
        first = (self.ply + 1) // 2
        return first if side == self.first_side else self.ply // 2

    def player(self, side: str) -> str:
        """The name of the player of ``side``."""
        return self.white if side == "white" else self.black


@dataclass
class RoundState:
    """One round: ``number`` (text, as in ``round_started``), ``event``/``site``/``date``, ``at`` (ms:
    when it was set up), ``start_ms`` (when it starts: the default time counts from it),
    ``scheduled_start_ms`` (the tournament file's time when ``start_ms`` was moved), ``end_ms`` (its
    scheduled end, checkers X.B.e), ``games`` (ids
    in hall-board order, a match's second game and an Armageddon game after their first), ``byes``."""

    number: str
    event: str = ""
    site: str = ""
    date: str = ""
    at: int = 0
    start_ms: int | None = None
    scheduled_start_ms: int | None = None
    end_ms: int | None = None
    games: list[str] = field(default_factory=list)
    byes: list[Any] = field(default_factory=list)

    def info(self) -> dict:
        """ROUND as the spectators get it: ``{"round", "event", "site", "date"}``."""
        return {"round": self.number, "event": self.event, "site": self.site, "date": self.date}
