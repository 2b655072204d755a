"""The gateway's hall: device messages in, log entries and feedback out, over the one fold.

Pure (no I/O, time passed in ms). ``Hall.handle(topic, payload, now_ms)`` returns a ``Step``: the
entries to append (typed events, ``services.events``; docs/events.md) and the feedback to publish (``(board,
{"ref", "accepted", "reason", "fen"})``, docs/protocol.md). Every entry is folded into ``hall.state``
(``services.state.HallState``) the moment it is decided (``emit``), and the regulations' answers
(``services.regulations.referee``) are decided and folded after it: the live state is exactly the
fold of what the gateway appends, so ``Hall.fold`` over the log rebuilds it, and a rebuilt gateway
answers the next message exactly as the live one would. The regulations' clock models
(``hall.watches``, ``services.regulations.clock_watches``) follow each entry right after the state
has folded it, live and in a rebuild alike.

Ordering (DESIGN.md "Device protocol"; state in ``services.state.model.DeviceSeq``): each device's
messages are applied exactly once and in ``seq`` order:

- ``seq <= last`` (or already held): a duplicate (QoS 1 redelivery, a device retry): acknowledged,
  recorded as ``message_duplicate``, ignored; a seq inside a hole a ``seq_gap`` skipped is applied,
  and so is another move under a seq whose move was refused (``DeviceSeq.refused``); a message
  under an applied seq that says something else (``DeviceSeq.contents``: a device that counted from
  1 again mid-game) is refused (``message_rejected``, ``next_seq`` in its answer), never ignored;
- ``seq == last + 1``: applied, then every held message that now follows;
- ``seq > last + 1``: held (``message_held``, in the log) for up to ``hold_ms`` for the missing ones;
  the device is asked to send again from the missing seq at once and every ``ask_every_ms`` (the
  asking is feedback, not state); when the hold expires, ``seq_gap`` and the held ones are applied.

What a message means is decided in ``gateway.decide``.

Shards (``boards``: a ``services.arbiter_office.boardspec.BoardSet``): a hall split across several gateway
processes by board range folds the whole log but decides only for its own boards: it only receives
their messages, its timer looks at their devices and games only, and of the regulations' answers to
an entry it emits those about its boards (``owns``); another shard's entries are folded with no
answer (that shard answers them). Entries about no board (none the gateway writes today) belong to
the shard that has board 1 (``lead``).
"""

from __future__ import annotations

import copy
import heapq
import re
from dataclasses import dataclass, field

import chess

from gateway import irregular
from gateway.decide import GAME_OVER, HELD, PASSING, PENDING, SIGNAL_WAIT, Decider  # noqa: F401 (the feedback words)
from gateway.games import replay
from gateway.payload import UCI, BadMessage, Message, cut_topic, parse, raw_text, split_topic
from services.events import (BoardGameCalled, Device, DeviceOffline, DeviceOnline, Event, MessageAwaitingGame,
                             MessageDuplicate, MessageHeld, MessageRejected, ResultHeld, SeqGap)
from services.events.vocabulary import GameStatus, Variant
from services.regulations import referee
from services.regulations.clock_watches import ClockWatches, Finding
from services.rules.base import Game
from services.state import Changes, HallState
from services.state.model import DeviceSeq

DUPLICATE_REASON = "duplicate"
WAITING = "waiting for missing seq"
PRESS_WITHOUT_MOVE = ("press_without_move",)  # the clock model's findings the timer acts on without a file
MAX_ANSWERS = 200  # answers beyond 20 an entry decided; a regulation that keeps answering itself is a bug of ours


@dataclass
class Step:
    """What one message (or one tick) produced: ``events`` (typed entries, ``services.events``) for
    the log, in order, and ``feedback`` ``[(board, payload)]`` for the devices. The events are
    written as ``(type, data)`` (``Event.encode``) only where they leave for the log
    (``gateway.service``); ``entries`` is that view."""

    events: list[Event] = field(default_factory=list)
    feedback: list[tuple[str, dict]] = field(default_factory=list)
    recheck: bool = False
    """True when the message was left undecided (``Hall.handle`` with ``final=False``): the log's
    newest entries may place it, so it is to be handled again once they are folded."""

    @property
    def entries(self) -> list[tuple[str, dict]]:
        """The events as the log gets them: ``[(type, data)]`` (``Event.encode``, docs/events.md), in order."""
        return [event.encode() for event in self.events]

    def extend(self, other: "Step") -> None:
        """Append ``other``'s events and feedback after this step's."""
        self.events.extend(other.events)
        self.feedback.extend(other.feedback)


class Turn:
    """One message's (or one tick's) decisions: ``emit`` folds and records an entry, ``answer``
    queues the device feedback (``ref`` the message's seq, ``fen`` the official position)."""

    def __init__(self, hall: "Hall", now_ms: int, step: Step | None = None):
        self.hall = hall
        self.now = now_ms
        self.step = step or Step()
        self.emitted: list[tuple[Event, Changes, list[Finding]]] = []
        self.done = 0  # how many of ``emitted`` the regulations and the Laws have answered

    def emit(self, event: Event) -> None:
        """Fold ``event`` at once (the state, then the clock models), note it for the timer and the
        log, and queue it for the regulations' answer (``answers``)."""
        changes, findings = self.hall.watches.apply(self.hall.state, event, self.now)
        self.hall.touched(event, changes)
        self.step.events.append(event)
        self.emitted.append((event, changes, findings))

    def answer(self, msg: Message, accepted: bool, reason: str | None, fen: str | None = None) -> None:
        if not fen:  # a played move's answer names its FEN: the board's game is looked up otherwise
            g = self.hall.state.board_game(msg.board)
            fen = g.fen if g else None
        self.step.feedback.append((msg.board, {"ref": msg.seq, "device": msg.device, "accepted": accepted,
                                               "reason": reason, "fen": fen}))

    def answers(self) -> None:
        """Decide and fold what the regulations (``referee.answers``) and the Laws
        (``hall.laws_answers``) say to every entry emitted since they last answered (and to their
        answers in turn): each entry is answered once, also when this is asked again in a turn."""
        answered = 0
        budget = MAX_ANSWERS + 20 * (len(self.emitted) - self.done)  # a drained backlog decides many at once
        while self.done < len(self.emitted):
            event, changes, findings = self.emitted[self.done]
            self.done += 1
            for answer in referee.answers(self.hall.state, event, changes, self.now, self.hall.watches, findings):
                if not self.hall.owns(answer):
                    continue  # another shard's board: that shard emits it
                answered += 1
                if answered > budget:
                    raise RuntimeError(f"the regulations answered more than {budget} times to one message")
                self.emit(answer)
            self.hall.laws_answers(self, changes)


class RulesCache:
    """The rules core of each game (``services.rules``), derived from the state's moves: rebuilt
    from the SETUP and the moves (``gateway.games.replay``) whenever it is not at the state's ply (a
    restart, a failed fold)."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._boards: dict[str, tuple[str, chess.Board]] = {}

    def game(self, g):
        """The rules core of GameState ``g`` at its current ply (``services.rules.base.Game``)."""
        game = self._games.get(g.id)
        if (game is None or game.ply != g.ply or (g.ply and game.last_move != g.moves[-1])
                or (g.corrections and game.moves != g.moves)  # an arbiter rewrote earlier plies
                or (game.outcome is not None and not g.ended)):
            game = self._games[g.id] = replay(g)
        return game

    def replace_last(self, g, move: str):
        """``(game, played)``: the rules core of ``g`` with its last ply replaced by ``move`` (two
        reports composed into one move, ``gateway.compose``), kept as the cached game: the state
        folds the ``move_composed`` that says so next. Raises MoveRefused when ``move`` is not legal
        in the position before that ply."""
        game = replay(g, g.ply - 1)
        played = game.play(move)
        self._games[g.id] = game
        return game, played

    def judge(self, g):
        """An independent copy of ``g``'s rules core, for asking how the game ends (``end``,
        ``flag_fall`` record an outcome in the game they are asked: never in the cached one, which
        must follow the state; a reopened game plays on)."""
        return copy.deepcopy(self.game(g))

    def board(self, g) -> chess.Board:
        """The official position of chess game ``g`` as a python-chess Board (kept while the game
        stands still: sensor boards send many snapshots per ply)."""
        hit = self._boards.get(g.id)
        if hit is None or hit[0] != g.fen:
            hit = self._boards[g.id] = (g.fen, chess.Board(g.fen))
        return hit[1]


class Hall:
    """The hall of one tournament. ``tournament``: its slug (topics ``venue/{slug}/...``);
    ``config``: a tournament file in force until the log registers one; ``hold_ms``: how long a
    message waits for a missing seq; ``clock_rate``: a replay's speed (1 in a real hall);
    ``boards``: a shard's ``BoardSet`` (None: every board; see the module docstring).
    ``faults``: how many times a fault of ours was caught (``last_fault`` says the latest).
    ``link_since`` (ms): when the gateway's MQTT link last came up, set by the service before it
    connects (None: no link known, every message read promptly): a message read soon after may be
    one the broker queued during the outage (``services.clock.instant``)."""

    def __init__(self, tournament: str, *, hold_ms: int = 5000, ask_every_ms: int = 1000, config=None,
                 clock_rate: float = 1.0, boards=None):
        self.tournament = tournament
        self.boards = boards  # None: every board (one gateway for the hall)
        self.lead = boards is None or "1" in boards
        self.hold_ms = hold_ms
        self.ask_every_ms = ask_every_ms
        self.state = HallState(config, clock_rate)
        self.watches = ClockWatches()  # the regulations' clock models, beside the fold (the decisions' own)
        self.rules = RulesCache()
        self.decider = Decider(self)
        self.faults = 0
        self.last_fault: str | None = None
        self.link_since: int | None = None
        self._asked: dict[tuple[str, str], int] = {}
        # The timer looks at a game only when something can be due for it (``tick``): ``_due`` the
        # games to look at on the next tick (an entry touched them), ``_next`` the instant a game
        # looked at without a change must be looked at again (none: only an entry can make
        # something due), ``_heap`` those instants in order (stale pairs skipped), ``_all`` every game.
        self._due: dict[str, None] = {}
        self._next: dict[str, int] = {}
        self._heap: list[tuple[int, str]] = []
        self._all = True
        self._order: dict[str, int] = {}  # game id -> its place in ``state.games``
        self._holding: set[str] = set()  # boards with a device's message held for a missing seq
        self._waiting: set[str] | None = None  # boards holding messages for their game (None: look at all)

    def laws_answers(self, turn: "Turn", changes) -> None:
        """What the Laws say, with the rules core, to an entry folded with ``changes``: a game set up
        from a position already over ends (``Decider.start_due``)."""
        for gid in _games_touched(self.state, changes):
            g = self.state.games[gid]
            if self.mine(g.board):
                self.decider.start_due(turn, g)

    def mine(self, board: str | None) -> bool:
        """Whether this gateway decides for ``board`` (None: an entry about no board: the lead's)."""
        if self.boards is None:
            return True
        return self.lead if board is None else board in self.boards

    def owns(self, event) -> bool:
        """Whether this gateway emits ``event`` (an answer): it is about one of its boards, by its
        ``board`` or its ``game``'s board."""
        if self.boards is None:
            return True
        board = getattr(event, "board", None)
        if board is None and getattr(event, "game", None) is not None:
            g = self.state.games.get(event.game)
            board = g.board if g is not None else None
        return self.mine(board)

    # ----- replay and entries others append -----------------------------------------------------
    def fold(self, type: str, data: dict, at: int = 0, seq: int | None = None) -> None:
        """Replay one log entry (any type; unknown ones are ignored) into the state and the clock models."""
        self.watches.fold(self.state, type, data, at, seq)
        self._all = True  # a rebuild: the first tick looks at everything (and every board's holds)
        self._waiting = None

    def touched(self, event, changes) -> None:
        """Note an entry just folded (with its ``changes``) for the timer: the games it may have
        made something due for (its game, else its board's game, and those it changed) are looked
        at on the next tick. An entry about no game nor board (a round, the tournament's
        registration) or that adds games to a round: every game."""
        if changes.rounds:
            self._all = True
            return
        due = self._due
        gid = getattr(event, "game", None)
        if gid is not None:
            due[gid] = None
        else:
            board = getattr(event, "board", None)
            if board is None:
                self._all = True
                return
            b = self.state.boards.get(board)
            if b is not None and b.game is not None:
                due[b.game] = None
        if changes.games:
            due.update(dict.fromkeys(changes.games))
        if type(event) is MessageHeld:
            self._holding.add(event.board)
        elif type(event) in (MessageAwaitingGame, BoardGameCalled) and self._waiting is not None:
            self._waiting.add(event.board or "")

    def external(self, type: str, data: dict, at: int, seq: int | None, now_ms: int) -> Step:
        """An entry someone else appended (the organiser, an arbiter): folded, and what the
        regulations answer to it (e.g. an Armageddon game after an arbiter's draw)."""
        turn = Turn(self, now_ms)
        from services.events import BadEvent, decode

        try:
            event = decode(type, data)
        except BadEvent:
            self.state.fold(type, data, at, seq)
            self._all = True
            return turn.step
        changes, findings = self.watches.apply(self.state, event, at, seq)
        self.touched(event, changes)
        about = getattr(event, "board", None) is not None or getattr(event, "game", None) is not None
        if self.boards is not None and about and not self.owns(event):
            return turn.step  # another shard's board: that shard answers it
        turn.emitted.append((event, changes, findings))
        self._answer(turn)
        return turn.step

    # ----- live ---------------------------------------------------------------------------------
    def handle(self, topic: str, payload: bytes | str, now_ms: int, *, final: bool = True) -> Step:
        """One MQTT message. Never raises: bad input becomes ``message_rejected`` and feedback; a
        fault of ours becomes ``message_rejected`` ``internal error: <type>`` with the raw payload,
        answered on the board's feedback when the topic names a known board. What was decided before
        a fault is kept (it is folded already: it must be stored); a fault of the regulations loses
        neither the entry they answer nor its feedback (``faults`` counts it).

        ``final=False``: a message that entries other processes appended and this hall has not
        folded yet may place (on a board no round of the hall's has, or on a board whose games are
        all over: a round started from the console a moment ago, its devices counting from 1 again
        or going on from their last ``seq``, docs/protocol.md "seq") is left undecided: nothing emitted or answered, the step's ``recheck`` set. The caller
        handles it again, with ``final=True``, once it has folded the log up to its end."""
        turn = Turn(self, now_ms)
        try:
            self._handle(turn, topic, payload, final)
            if turn.step.recheck:
                return turn.step
        except Exception as exc:  # noqa: BLE001 - one message must never stop the hall
            self._fault(exc)
            turn.step.extend(self.internal_error(topic, payload, exc))
        self._answer(turn)
        return turn.step

    def _over(self, board) -> bool:
        """Whether every game of ``board`` this round is over and nothing on it waits for a decision:
        a device's message there may be the next round's first (see ``handle``)."""
        if board.awaiting or board.called:
            return False
        games = [self.state.games.get(g) for g in (board.games or [board.game])]
        return all(g is not None and g.status == GameStatus.ENDED for g in games)

    def _answer(self, turn: Turn) -> None:
        try:
            turn.answers()
        except Exception as exc:  # noqa: BLE001 - the entries stand; the regulations missed them
            self._fault(exc)
        self._settle(turn)

    def _settle(self, turn: Turn) -> None:
        """The messages boards hold for their game (``message_awaiting_game``) that the entries of
        this turn let the gateway place now, applied one at a time, each answered by the
        regulations before the next is decided (``Decider.settle``: an end, a claim decided, an
        Armageddon game set up, the arbiter's call)."""
        if self._waiting is None:
            self._waiting = {b for b, board in self.state.boards.items() if board.awaiting or board.called}
        for _ in range(MAX_ANSWERS * 10):
            progressed = False
            for name in sorted(self._waiting):
                board = self.state.boards.get(name)
                if board is None or not (board.awaiting or board.called) or not self.mine(name):
                    self._waiting.discard(name)
                    continue
                try:
                    progressed = self.decider.settle(turn, board) or progressed
                except Exception as exc:  # noqa: BLE001 - one board's fault must not stop the others'
                    self._fault(exc)
                    self._waiting.discard(name)
            if not progressed:
                return
            try:
                turn.answers()
            except Exception as exc:  # noqa: BLE001
                self._fault(exc)

    def _fault(self, exc: BaseException) -> None:
        self.faults += 1
        self.last_fault = f"{type(exc).__name__}: {exc}"[:300]

    def _handle(self, turn: Turn, topic: str, payload, final: bool = True) -> None:
        if not payload and topic.endswith("/status"):
            return  # a zero-length retained PUBLISH clears a retained status (MQTT 3.1.1 3.3.1.3): no message
        try:
            msg = parse(self.tournament, topic, payload)
        except BadMessage as bad:
            return self._rejected(turn, topic, payload, bad)
        board = self.state.boards.get(msg.board)
        if board is None and not final:
            turn.step.recheck = True
            return None
        if board is None:
            return self._rejected(turn, topic, payload, BadMessage(
                f"unknown board: {msg.board}", board=msg.board, kind=msg.kind, device=msg.device, seq=msg.seq))
        if msg.kind == "status":
            battery = msg.body.get("battery")
            if msg.body["status"] == "offline":
                if board.status != DeviceOffline.TYPE:  # the retained status comes again on every resubscription
                    turn.emit(DeviceOffline(board=msg.board, device=msg.device))
            elif board.status != DeviceOnline.TYPE or (battery is not None and battery != board.battery):
                turn.emit(DeviceOnline(board=msg.board, device=msg.device, battery=battery))
            return
        assert msg.seq is not None  # payload.parse: every message but a status has its seq
        if not final and self._over(board):
            turn.step.recheck = True
            return None
        dev = board.devices.get(msg.device) or DeviceSeq()
        if dev.last == 0 and msg.seq > 1 and msg.seq == board.carried.get(msg.device, -1) + 1:
            # a device going on with its seq into a new round (fold_round._carry): its next message
            self._apply(turn, msg)
            return self._drain(turn, msg.board, msg.device)
        if msg.seq <= dev.last and dev.in_hole(msg.seq):
            return self._apply(turn, msg)  # late: skipped by a gap, never applied
        if self._another_move_for_a_refused_seq(board, dev, msg):
            return self._apply(turn, msg)  # the refusal used the seq but changed nothing: the move meant
        if msg.seq <= dev.last and msg.seq not in dev.waiting and not self._over(board):
            # (a board whose games are all over may be starting the next round at 1, which the
            # gateway has not read yet: the ended game's duplicate, as ``handle`` documents)
            used = self._seq_used_by_another_message(board, dev, msg)
            if used is not None:
                return self._seq_reused(turn, dev, msg, used)
        if msg.seq <= dev.last or msg.seq in dev.waiting:
            turn.emit(MessageDuplicate(board=msg.board, device=msg.device, seq=msg.seq))
            return turn.answer(msg, True, DUPLICATE_REASON)
        if msg.seq == dev.last + 1:
            if dev.waiting:  # resent after a loss: sent before the held ones were read
                msg.late, msg.read_at = True, min(h.get("read_at") or turn.now for h in dev.waiting.values())
            self._apply(turn, msg)
            return self._drain(turn, msg.board, msg.device)
        first = not dev.waiting
        turn.emit(MessageHeld(board=msg.board, device=msg.device, seq=msg.seq, sent_at=msg.sent_at, kind=msg.kind,
                              body=msg.body, expected=dev.last + 1, game=board.game))
        if first:
            self._ask(turn, msg.board, msg.device, msg.seq)

    def tick(self, now_ms: int) -> Step:
        """Time passing: holds that expired (``seq_gap``, then the held messages in order), repeated
        requests to resend, and what the regulations owe now (default time, timers, ...).

        Only the games something can be due for are looked at (a 1,000-board hall ticks five times a
        second): those an entry touched since the last tick, and those whose next instant
        (``_next_instant``: a default time, a move timer, a clock mismatch's grace running out, ...)
        has come. Every game after a rebuild or a round."""
        turn = Turn(self, now_ms)
        self._holds(turn, now_ms)
        games = self._due_games(now_ms)
        failed = []
        for g in games:
            try:
                self.decider.start_due(turn, g)
                irregular.presses_due(self.decider, turn, g)
            except Exception as exc:  # noqa: BLE001 - one game's fault must not stop the others'
                self._fault(exc)
                failed.append(g)
        for g in games:
            try:
                for event in referee.due(self.state, g, now_ms, self.watches):
                    turn.emit(event)
            except Exception as exc:  # noqa: BLE001 - time must keep passing for the other boards
                self._fault(exc)
                failed.append(g)
        for g in games:
            self._schedule(g, now_ms)
        for g in failed:
            self._due[g.id] = None  # looked at again on the next tick, as every game was before
        self._answer(turn)
        return turn.step

    def _holds(self, turn: Turn, now_ms: int) -> None:
        """Expired holds and repeated requests to resend, on the boards holding a message."""
        if self._all:
            self._holding.update(b for b, board in self.state.boards.items()
                                 if any(dev.waiting for dev in board.devices.values()))
        if not self._holding:
            return
        holding, self._holding = self._holding, set()
        for board in [b for b in self.state.boards.values() if b.board in holding]:  # the hall's order
            if self.boards is not None and board.board not in self.boards:
                continue
            for name, dev in list(board.devices.items()):
                if not dev.waiting:
                    self._asked.pop((board.board, name), None)
                    continue
                expired = now_ms - (dev.waiting_since or now_ms) >= self.hold_ms
                if expired and not self._result_waits(turn, board.board, name, dev):
                    turn.emit(SeqGap(board=board.board, device=name, expected=dev.last + 1, got=min(dev.waiting)))
                    self._drain(turn, board.board, name)
                elif now_ms - self._asked.get((board.board, name), 0) >= self.ask_every_ms:
                    self._ask(turn, board.board, name, min(dev.waiting))
            if any(dev.waiting for dev in board.devices.values()):
                self._holding.add(board.board)
            else:
                for name in board.devices:
                    self._asked.pop((board.board, name), None)

    def _result_waits(self, turn: Turn, board: str, device: Device, dev: DeviceSeq) -> bool:
        """Whether ``device``'s hold must outlast its expiry: a ``result`` waits among its held
        messages while the board's game is not over. A game is never ended by a result sent after
        messages still missing (issue 28: two games were ended at ply 44 of 65 and 71 of 79 by their
        board's result once the hole's wait ran out): the device goes on being asked to send again,
        the arbiters are told once (``result_held``), and the result is applied when the hole fills,
        or, after the game ended otherwise (the arbiter's result), as the late message it is."""
        results = sorted(seq for seq, held in dev.waiting.items() if held.get("kind") == "result")
        g = self.state.board_game(board)
        if not results or g is None or g.ended:
            return False
        seq = results[0]
        if not dev.waiting[seq].get("result_held"):
            missing = f"seq {dev.last + 1}" if dev.last + 2 == min(dev.waiting) else \
                f"seqs {dev.last + 1}-{min(dev.waiting) - 1}"
            turn.emit(ResultHeld(board=board, device=device, seq=seq, expected=dev.last + 1, game=g.id,
                                 reason=f"the {device}'s result (seq {seq}) waits for its missing {missing}: "
                                        f"the game ends when they arrive, or by the arbiter's decision"))
        return True

    def _due_games(self, now_ms: int) -> list:
        """The games (this gateway's) to look at now, each once, in the hall's order: every game
        after a rebuild or a round, else those touched and those whose instant has come."""
        games = self.state.games
        if self._all:
            self._all = False
            self._due.clear()
            self._next.clear()
            self._heap.clear()
            self._order = {}
            picked = list(games.values())
        else:
            due, self._due = self._due, {}
            heap, nxt = self._heap, self._next
            while heap and heap[0][0] <= now_ms:
                at, gid = heapq.heappop(heap)
                if nxt.get(gid) == at:
                    del nxt[gid]
                    due[gid] = None
            if len(self._order) != len(games):  # games added (a round set up again sets ``_all``)
                self._order = {gid: i for i, gid in enumerate(games)}
            order = self._order
            # in the hall's order, as a look at every game has them: a restarted gateway's timer
            # then says the same, in the same order, as the live one (tests/unit/test_fold_property.py)
            picked = [games[gid] for gid in sorted((gid for gid in due if gid in order), key=order.__getitem__)]
        if self.boards is not None:
            picked = [g for g in picked if g.board in self.boards]
        return picked

    def _schedule(self, g, now_ms: int) -> None:
        """Remember when game ``g``, just looked at, must be looked at again without a change."""
        at = self._next_instant(g, now_ms)
        if at is None:
            self._next.pop(g.id, None)
        elif self._next.get(g.id) != at:
            self._next[g.id] = at
            heapq.heappush(self._heap, (at, g.id))

    def _next_instant(self, g, now_ms: int) -> int | None:
        """The earliest instant (ms) at which time alone, with no entry, can make something due for
        game ``g``; None when only an entry can. Exact, or earlier than the truth where a rule's
        instant cannot be computed exactly (the game is then looked at, found with nothing due, and
        given its instant again): never later, which would delay a default or a forfeit. What the
        timer answers, and when:

        - a game over: its answers (an Armageddon game, a match's next game) follow from the state;
        - a game set up from a position (``Decider.start_due``): from the state;
        - a press without a move (FIDE Laws 7.5.3, ``irregular.presses_due``): when the clock
          model's grace for an open mismatch runs out (``ClockWatch.next_due``);
        - a tournament file's regulations (``referee.due``): ``referee.next_due``, the earliest of
          each rule's instant: a late start (X.B.e), a clock mismatch's grace, the move timers
          (X.B.a, X.B.c), time trouble on a running clock (X.A.d, at the clock rate), the fines at
          the start and the default time (FIDE Laws 6.7.1, excused players counted).

        tests/unit/test_timer_instants.py checks it against a look at every game on every tick."""
        if g.ended:
            return None
        watch = self.watches.get(g.id)
        presses = watch.next_due(g.reported, kinds=PRESS_WITHOUT_MOVE) \
            if g.variant == Variant.CHESS and watch is not None else None  # all ``presses_due`` looks for
        return referee.earliest(referee.next_due(self.state, g, now_ms, watch), presses)

    def _another_move_for_a_refused_seq(self, board, dev: DeviceSeq, msg: Message) -> bool:
        """True when ``msg`` carries the seq of a move that was refused, with another move
        (``DeviceSeq.refused``): a device that sent a wrong move and then the right one under the
        same seq, or a stray publish that took the board's next seq (and maybe jumped further, its
        jump applied after the hold), must not have its own message ignored as a duplicate; the
        same move again is a duplicate as ever."""
        if not dev.refused or msg.kind != "move" or msg.seq is None:
            return False
        moves = dev.refused_moves(msg.seq)
        if not moves:
            return False
        g = self.state.board_game(msg.board)
        return g is not None and self.decider.move_text(board, g, msg.body) not in moves

    def _seq_used_by_another_message(self, board, dev: DeviceSeq, msg: Message) -> str | None:
        """What the message applied under ``msg``'s seq said (``DeviceSeq.contents``: the first
        applied), in words, when ``msg`` says none of what that seq carried: a device that counted
        from 1 again mid-game (a reboot: fresh-user 2 #2), not a redelivery. None when it is one of
        those messages again (a refused move's too), or when nothing was kept to compare (a
        placement, a composed move, a result, a seq too old: a duplicate as ever). A move is another
        move only when its origin square differs (chess UCI: the first square; checkers: the first
        number): a redelivery in another spelling of the same move (king takes rook for castling,
        ``e1h1``/``e1g1``; a promotion's piece) must stay a duplicate."""
        kept = dev.contents.get(msg.seq) if msg.seq is not None else None
        if not kept:
            return None
        if any(self._same(board, msg, said) for said in kept):
            return None
        first = kept[0]
        if first[0] == "move":
            return f"the move {first[1]}"
        _, event, white_ms, black_ms, running = first[:5]
        return f"the clock's {event} (white_ms {white_ms}, black_ms {black_ms}, running {running or 'none'})"

    def _same(self, board, msg: Message, said: list) -> bool:
        """Whether ``msg`` may be the message that said ``said`` (``DeviceSeq.contents``) again."""
        body = msg.body
        if said[0] == "move":
            g = self.state.board_game(msg.board)
            if msg.kind != "move":
                return False
            if g is None:
                return True  # nothing to read the move by: a duplicate, as before
            theirs, ours = _origin(self.decider.move_text(board, g, body), g.variant), _origin(said[1], g.variant)
            return theirs is None or ours is None or theirs == ours
        if msg.kind != "clock":
            return False
        period = body.get("event") == "period_added"
        return said == ["clock", body.get("event"), body.get("white_ms"), body.get("black_ms"), body.get("running"),
                        body.get("side") if period else None, body.get("period") if period else None]

    def _seq_reused(self, turn: Turn, dev: DeviceSeq, msg: Message, used: str) -> None:
        """Refuse ``msg``, whose seq a different message already used (``used``: what that one said):
        recorded as ``message_rejected`` (one grouped alert for the device, ``services.views.alerts``),
        nothing in the game changed, the seq stays used; answered refused with ``next_seq``, the seq
        the device is to go on from (docs/protocol.md "After a restart")."""
        reason = (f"seq {msg.seq} was already used by {used}: a device that restarted its count mid-game "
                  f"must go on from its last seq (the next is {dev.last + 1})")
        turn.emit(MessageRejected(board=msg.board, topic=f"venue/{self.tournament}/boards/{msg.board}/{msg.kind}",
                                  device=msg.device, seq=msg.seq, raw=msg.raw or None, reason=reason))
        turn.answer(msg, False, reason)
        turn.step.feedback[-1][1]["next_seq"] = dev.last + 1  # for firmware: no reason text to parse

    def _apply(self, turn: Turn, msg: Message) -> None:
        try:
            self.decider.apply(turn, msg)
        except Exception as exc:  # a fault of ours must not stall the board: record and answer
            turn.emit(MessageRejected(board=msg.board, topic=f"venue/{self.tournament}/boards/{msg.board}/{msg.kind}",
                                      device=msg.device, seq=msg.seq, raw=msg.raw or None, applied=True,
                                      reason=f"internal error: {type(exc).__name__}: {exc}"[:300]))
            turn.answer(msg, False, f"internal error: {type(exc).__name__}")

    def _drain(self, turn: Turn, board: str, device: Device) -> None:
        """Apply the held messages that now follow in order."""
        while True:
            dev = self.state.boards[board].devices.get(device)
            if dev is None or dev.last + 1 not in dev.waiting:
                return
            seq = dev.last + 1
            held = dev.waiting[seq]
            self._apply(turn, Message(board, held["kind"], device, seq, held["body"], read_at=held.get("read_at")))
            if dev.waiting.get(seq) is held:  # nothing marked it applied: never loop on it
                dev.mark(seq)

    def _ask(self, turn: Turn, board: str, device: Device, got: int) -> None:
        dev = self.state.boards[board].devices.get(device) or DeviceSeq()
        expected = dev.last + 1
        self._asked[(board, device)] = turn.now
        g = self.state.board_game(board)
        turn.step.feedback.append((board, {
            "ref": got, "accepted": True, "reason": f"{WAITING}: send again from seq {expected}",
            "fen": g.fen if g else None, "device": device, "resend_from": expected}))

    # ----- bad input ----------------------------------------------------------------------------
    def _rejected(self, turn: Turn, topic: str, payload, bad: BadMessage) -> None:
        if bad.kind == "status" and bad.board is not None:
            b = self.state.boards.get(bad.board)
            seen = b.bad_status if b is not None else self.state.stray_status.get(bad.board)
            if seen is not None and seen == raw_text(payload):
                return  # the same refused status again (a retained one at every start): recorded once
        turn.emit(MessageRejected(board=bad.board, topic=cut_topic(topic), device=bad.device, seq=bad.seq,
                                  reason=bad.reason, raw=raw_text(payload)))
        if bad.board is not None and bad.kind != "status":
            g = self.state.board_game(bad.board)
            answer = {"ref": bad.seq, "accepted": False, "reason": bad.reason, "fen": g.fen if g else None}
            if bad.seq is not None and bad.device is not None:  # docs/protocol.md: whose seq ``ref`` is
                answer = {"ref": bad.seq, "device": bad.device, "accepted": False, "reason": bad.reason,
                          "fen": answer["fen"]}
            turn.step.feedback.append((bad.board, answer))

    def internal_error(self, topic: str, payload, exc: BaseException) -> Step:
        """The ``message_rejected`` entry (reason ``internal error: <type>: <text>``, raw payload cut
        to 2 KB) and, when the topic names a known board, its feedback, for a message whose handling
        raised ``exc``. Never raises."""
        try:
            board, _kind = split_topic(self.tournament, topic)
        except Exception:  # noqa: BLE001
            board = None
        try:
            raw = raw_text(payload)
        except Exception:  # noqa: BLE001
            raw = repr(payload)[:2048]
        detail = f"internal error: {type(exc).__name__}: {exc}"[:300]
        step = Step(events=[MessageRejected(board=board, topic=cut_topic(str(topic)), device=None, seq=None,
                                            reason=detail, raw=raw)])
        g = self.state.board_game(board) if board is not None else None
        if board is not None and g is not None:
            step.feedback.append((board, {"ref": None, "accepted": False,
                                          "reason": f"internal error: {type(exc).__name__}", "fen": g.fen}))
        return step


def _origin(move: str, variant: str) -> str | None:
    """The square a move starts from: chess UCI's first square, checkers' first number; None when
    the text shows none (SAN, garbage)."""
    if variant == Variant.CHESS:
        return move[:2] if UCI.match(move) else None
    head = re.match(r"\d+", move)
    return head.group() if head else None


def _games_touched(state: HallState, changes) -> list[str]:
    """The games an entry's changes name: those of a round set up (or given a game), and those whose
    fields changed."""
    if not changes.rounds:  # nearly every entry: its games' fields alone (a dict: each once, in order)
        games = state.games
        return [gid for gid in changes.games if gid in games]
    out = dict.fromkeys(gid for number in changes.rounds for gid in (state.rounds[number].games
                                                                      if number in state.rounds else ()))
    out.update(dict.fromkeys(gid for gid in changes.games if gid in state.games))
    return list(out)
