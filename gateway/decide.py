"""What one applied device message means: the gateway's decisions over the hall's state.

``Decider(hall)`` reads ``hall.state`` (``services.state.HallState``) and the rules core of each
game (``hall.rules``), and says what happened through ``turn.emit(event)``: every entry is folded
into the state the moment it is emitted (``gateway.hall.Hall.emit``), so the next decision reads a
state that includes it, and the state is exactly the fold of what is appended. Answers to the
devices go through ``turn.answer``. Pure: no I/O, time passed in.

Rules applied here (docs/protocol.md has the device-side view):
- every move is checked by the rules core (``Game.play``), never pushed blindly (F05);
- F05: after an illegal move the board is held: its later moves are refused with ``HELD`` and not
  appended, until the board's next message that is legal in the official position, or a placement
  equal to the official position (``placement_seen`` "same");
- automatic ends (checkmate, stalemate, fivefold, 75 moves, dead position) give ``game_ended`` by
  "rules" (a dead position with both sides' verdicts as ``evidence``, FIDE Laws 5.2.2); a game set up
  from a position already over ends before its first move, and a claim its start allows is offered
  at ply 0 (``start_due``, level-triggered); a clock at 0 for a side, or a period of a clock that adds
  the next on expiry run out before its moves were made (``period_added``), gives ``flag_fell`` and
  ``game_ended`` (FIDE Laws 6.9, the opponent's verdict as ``evidence``: ``gateway.laws``); both at 0
  with no telling which fell first gives ``both_flags_fell`` (Guidelines III.3.1 where the event
  announced them: drawn in the last period, else the game goes on; otherwise the arbiter decides,
  6.8, 6.11: ``services.regulations.both_flags``); a result
  message gives ``result_reported`` then ``game_ended`` by "device", unless the regulations refuse it;
- two reports by the same side before its press are the one move the board shows at the press
  (``move_composed``, FIDE Laws 6.2.1: ``gateway.compose``);
- a press by the side whose illegal move holds the board completes that illegal move (7.5.1), a
  press without a move past the grace period is an illegal move too (7.5.3): ``penalty_proposed``
  (``gateway.irregular``); in rapid under A.5 and blitz under B.3 a completed illegal move the
  opponent plays on from stands (A.5.2): recorded, flagged, and the game goes on from it;
- F06: a placement board whose first snapshot is the start turned 180 degrees is mapped s -> 63 - s,
  its ``move`` topic too (``board_oriented``);
- F07: the kings on the centre squares are the result signal, never a move; while the clock is
  paused a king move onto a centre square waits for the next message (``move_kept``);
- castling with the rook first on a sensor board: the rook move waits for the next snapshot or
  press (``placement_seen`` "pending");
- which game a message is for, on a board that plays two games in a round (a checkers match, an
  Armageddon game after a drawn game, a play-off): ``gateway.which_game`` (boundaries recorded once,
  ``device_game_began``; what cannot be placed yet waits in the log, ``message_awaiting_game``;
  docs/protocol.md "Two games on one board"), ``settle`` applying the waiting messages once decided;
- a checkers game with a ballot opens with the ballot's three moves (X.A.d): another legal move
  among the first three plies is refused like an illegal move, and the board held.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from gateway import compose, irregular, laws, which_game
from services.protocol import placement as pl
from gateway.payload import UCI, Message, ids
from services.events.base import Device
from services.clock.ceiling import MARGIN_MS, most_ms
from services.clock.expiry import judge_period_added
from services.clock.flags import flag_fall
from services.clock.instant import event_instant, may_have_waited, rfc3339_ms
from services.events import (BoardOriented, BothFlagsFell, ClockPaused, ClockPeriodAdded, ClockPressed, ClockResumed,
                             ClockSet, ClockStarted, DeviceGameBegan, DrawClaimable, DrawClaimReported, FlagFell,
                             GameEnded, MessageAwaitingGame, MessageRejected, MoveKept, MovePlayed, MoveRejected,
                             PlacementSeen, ResultReported)
from services.events.vocabulary import EndedBy, GameResult, Termination
from services.regulations import both_flags
from services.regulations.checkers_match import RULE_BALLOT_MOVES, ballot_deviation
from services.regulations.controls import control_of
from services.regulations.referee import review_result
from services.rules.base import MoveRefused, Side
from services.rules.chess_unwinnable import START_NODES
from services.state import BoardState, GameState
from services.state.plies import completed_moves

HELD = "held: illegal move pending arbiter decision"
GAME_OVER = "game over"
PASSING = "passing state: no legal move gives this placement"
SIGNAL_WAIT = "result signal: waiting for the other king"
PENDING = "pending: waiting for the next placement (castling with the rook first?)"
CLAIM_PASSED = "claim passed to the arbiter: the board waits for the decision"
# A device's clock messages that would change an ended game's clock (issue 28: "later set, resume,
# period_added on the ended game were still logged"): after the end only the arbiter's actions act
# on the game. A press or pause after the end (the clock stopped, a last press) is still recorded.
NOT_AFTER_END = ("start", "set", "resume", "period_added")
CLOCK_EVENTS = {"start": ClockStarted, "press": ClockPressed, "pause": ClockPaused, "resume": ClockResumed,
                "set": ClockSet, "period_added": ClockPeriodAdded}


class Decider:
    """The decisions of one hall (see the module docstring). ``hall``: a ``gateway.hall.Hall``."""

    def __init__(self, hall):
        self.hall = hall

    @property
    def state(self):
        return self.hall.state

    # ----- one applied message ------------------------------------------------------------------
    def apply(self, turn, msg: Message) -> None:
        """Decide one message that is next in its device's order: its game (``gateway.which_game``),
        or held until that can be decided (``message_awaiting_game``), then what it means there."""
        board = self.state.boards[msg.board]
        gid = self._game_of(turn, board, msg)
        if gid is not None:
            self.apply_to(turn, board, self.state.games[gid], msg)

    def apply_to(self, turn, board: BoardState, g: GameState, msg: Message) -> None:
        """What ``msg`` means in game ``g`` (a game over before its first move is ended first: the
        message then meets the game as the Laws have it)."""
        self.start_due(turn, g)
        ON_KIND[msg.kind](self, turn, board, g, msg)

    def _game_of(self, turn, board: BoardState, msg: Message) -> str | None:
        """The game of ``msg``: a message the device sent before its latest boundary, or before the
        messages it has waiting, is looked up (``BoardState.game_of``); one behind waiting messages
        waits too (its device's order); any other is split from the game before
        (``which_game.split``: its game now, the next one begun by it, or held). None: held."""
        device, seq = msg.device, msg.seq
        assert seq is not None  # every message but a status has its seq (gateway.payload.parse)
        began = board.began.get(device)
        if began and seq < began[-1][0]:
            return board.game_of(device, seq)
        if board.awaiting:
            waiting = [m["seq"] for m in board.awaiting if m["device"] == device]
            if waiting and seq < min(waiting):
                return board.game_of(device, seq)
            if waiting:
                self._hold(turn, board, msg, board.awaiting[0]["reason"])
                return None
        elif (board.called is None and len(board.games) < 2 and "game" not in msg.body
              and (msg.kind != "clock" or msg.body.get("event") in ("press", "pause", "period_added"))
              and not self.state.games[board.game].awaiting):
            return board.current(device)  # one game on the board, nothing held: nearly every message
        split = which_game.split(self, board, device, [msg])
        if split.current:
            return board.current(device)
        if split.begins and split.game:
            return self.begin(turn, board, device, seq, split)
        self._hold(turn, board, msg, split.reason or which_game.EITHER)
        return None

    def begin(self, turn, board: BoardState, device, seq: int, split) -> str:
        """Record the boundary ``split`` found (``device_game_began``: from ``seq`` on, ``device``'s
        messages are ``split.game``'s); returns that game's id."""
        turn.emit(DeviceGameBegan(board=board.board, device=device, seq=seq, game=split.game,
                                  follows=board.current(device), evidence=split.begins))
        return split.game

    def _hold(self, turn, board: BoardState, msg: Message, reason: str) -> None:
        """``msg`` waits in the log until its game can be decided (``message_awaiting_game``)."""
        turn.emit(MessageAwaitingGame(board=msg.board, device=msg.device, seq=msg.seq, sent_at=msg.sent_at,
                                      game=board.current(msg.device), kind=msg.kind, body=msg.body, reason=reason,
                                      read_at=msg.read_at, late=msg.late))
        turn.answer(msg, True, which_game.HELD.get(reason, which_game.HELD[which_game.EITHER]))

    def settle(self, turn, board: BoardState) -> bool:
        """Answer the arbiter's call (``board_game_called``), or apply one of ``board``'s waiting
        messages whose game can now be decided: each device's boundary is recorded as soon as
        ``which_game.split`` finds it (its waiting messages are then placed by lookup), and of the
        devices' first placeable messages the one read first is applied (the board and the clock in
        the order they came: what it changes may decide the rest, the hall asks again). True when
        something was done."""
        if board.called is not None and self._answer_call(turn, board):
            return True
        ready: list[tuple[int, str, Message]] = []
        device: Device
        for device in ("board", "clock"):
            msgs = which_game.waiting(board, device)
            if not msgs:
                continue
            seqs: list[int] = [m.seq for m in msgs if m.seq is not None]
            began = board.began.get(device)
            if board.called is None and not (began and seqs[0] < began[-1][0]):
                split = which_game.split(self, board, device, msgs)
                if split.begins and split.game and split.current < len(msgs):
                    self.begin(turn, board, device, seqs[split.current], split)
                    return True  # recorded first: the device's waiting messages are placed by lookup
                if not split.current:
                    continue
            gid = board.game_of(device, seqs[0])
            arrived = next(i for i, m in enumerate(board.awaiting) if (m["device"], m["seq"]) == (device, seqs[0]))
            ready.append((arrived, gid, msgs[0]))
        if not ready:
            return False
        _, gid, msg = min(ready, key=lambda r: r[0])
        self._apply_held(turn, board, gid, msg)
        return True

    def _answer_call(self, turn, board: BoardState) -> bool:
        """The arbiter called the board's game (``board.called``): a device still on an earlier
        game begins it at its first waiting message, else at its next one."""
        target = board.called
        assert target is not None
        device: Device
        for device in ("board", "clock"):
            now = board.current(device)
            if board.games.index(target) <= board.games.index(now):
                continue
            waiting = [m["seq"] for m in board.awaiting if m["device"] == device]
            dev = board.devices.get(device)
            seq = min(waiting) if waiting else (dev.last + 1 if dev is not None else 1)
            turn.emit(DeviceGameBegan(board=board.board, device=device, seq=seq, game=target, follows=now,
                                      evidence="arbiter"))
            return True
        return False

    def _apply_held(self, turn, board: BoardState, gid: str, msg: Message) -> None:
        """Apply a waiting message to its game; a fault of ours is recorded and answered (as
        ``gateway.hall.Hall._apply``), so the message never waits again."""
        try:
            self.apply_to(turn, board, self.state.games[gid], msg)
        except Exception as exc:  # noqa: BLE001 - one message must never stop the board
            turn.emit(MessageRejected(board=msg.board, topic=f"venue/{self.hall.tournament}/boards/{msg.board}/{msg.kind}",
                                      device=msg.device, seq=msg.seq, applied=True,
                                      reason=f"internal error: {type(exc).__name__}: {exc}"[:300]))
            turn.answer(msg, False, f"internal error: {type(exc).__name__}")
        if any((m["device"], m["seq"]) == (msg.device, msg.seq) for m in board.awaiting):
            turn.emit(MessageRejected(board=msg.board, device=msg.device, seq=msg.seq, applied=True,
                                      reason="internal error: a waiting message recorded nothing when applied"))

    def move_text_of(self, msg: Message, g: GameState) -> str:
        """``move_text`` of move message ``msg`` for game ``g`` on its board."""
        return self.move_text(self.state.boards[msg.board], g, msg.body)

    def start_due(self, turn, g: GameState) -> None:
        """A game set up from a position (its SETUP's ``fen``) is judged before its first move
        (level-triggered: at set-up, on every tick, before a message, so a restart does it too):
        a position already over (checkmate, stalemate, 75 moves: 5.1.1, 5.2.1, 9.6.2; a dead
        position: 5.2.2) ends the game with ``game_ended`` by "rules" at ply 0; otherwise the claims
        the start allows (a halfmove clock of 99: the fifty-move claim with any quiet move, 9.3.1)
        are offered with ``draw_claimable`` at ply 0."""
        if g.ended or g.ply or not g.setup.fen:
            return
        try:
            game = self.hall.rules.game(g)
        except ValueError:
            return  # a start FEN the rules refuse: its moves are answered "internal error", not here
        if game.outcome is not None:
            evidence = laws.end_evidence(game, game.outcome, START_NODES)  # the rules core's own budget
            return self._ended(turn, g, game.outcome.result, game.outcome.termination, EndedBy.RULES,
                               evidence={**evidence, "at": "start"} if evidence else None)
        claims = [c.to_json() for c in game.claimable()]
        if _keys(claims) != _keys(g.claimable):
            turn.emit(DrawClaimable(game=g.id, board=g.board, ply=0, claims=claims))

    # ----- message kinds ------------------------------------------------------------------------
    @staticmethod
    def move_text(board: BoardState, g: GameState, body: dict) -> str:
        """A move message's ``move`` as the rules read it (and ``move_rejected`` records it):
        stripped; for chess lower-case, and turned round on a board turned 180 degrees (F06)."""
        text = str(body.get("move", "")).strip()
        if g.variant == "chess":
            text = text.lower()
            if board.rotated and UCI.match(text):
                text = pl.rotate_uci(text)
        return text

    def _on_move(self, turn, board: BoardState, g: GameState, msg: Message) -> None:
        text = self.move_text(board, g, msg.body)
        if g.ended:
            return self.after_end(turn, board, g, msg, move=text)
        if board.pending is not None and UCI.match(text):
            # F07: the second king of the result signal (an illegal move on its own)
            signal = pl.result_signal(pl.move_piece(board.pending.fen_after.split(" ")[0], text))
            if signal:
                return self._result(turn, board, g, msg, signal, "result signal")
        self._release(turn, board)
        g = self.state.games[board.game]
        if g.ended:
            return self.after_end(turn, board, g, msg, move=text)
        if self._keep_king_move(turn, board, g, msg, text):
            return turn.answer(msg, True, SIGNAL_WAIT)
        self.play(turn, board, g, msg, text, "move")

    def _on_position(self, turn, board: BoardState, g: GameState, msg: Message) -> None:
        if g.variant != "chess":
            return self._refuse(turn, board, g, msg, msg.body["placement"],
                                "placement boards are supported for chess only", hold=False)
        placement = msg.body["placement"]
        if not board.oriented and g.ply == 0 and (pl.is_rotated_start(placement)
                                                  or placement == pl.START_PLACEMENT):
            turn.emit(BoardOriented(game=g.id, rotated=placement != pl.START_PLACEMENT, **ids(msg)))
        if board.rotated:
            placement = pl.rotate_placement(placement)
        if g.ended:
            return self.after_end(turn, board, g, msg, placement=placement)
        signal = pl.result_signal(placement)
        if signal:
            return self._result(turn, board, g, msg, signal, "result signal")
        position = self.hall.rules.board(g)
        guess = pl.infer_move(position, placement)
        pending = board.pending
        if pending is not None:
            if guess.kind == pl.MOVE and guess.move != pending.move:
                pass  # castling completed, or another stable move: the latest wins
            elif guess.kind == pl.SAME:
                return self._seen(turn, g, msg, placement, "same", None)  # the piece went back
            else:
                then = pl.infer_move(pending.fen_after, placement)
                if guess.kind == pl.MOVE or then.kind != pl.MOVE:
                    turn.answer(msg, True, PENDING)
                    return self._seen(turn, g, msg, placement, "pending", pending, answer=False)
                self._release(turn, board)
                g = self.state.games[board.game]
                guess = pl.infer_move(self.hall.rules.board(g), placement)
        if guess.kind == pl.SAME:
            return self._seen(turn, g, msg, placement, "same", None)
        if guess.kind == pl.TRANSIENT:
            if not board.held and compose.report(self, turn, board, g, msg, None, placement):
                return
            turn.answer(msg, True, PASSING)
            return self._seen(turn, g, msg, placement, "passing", None, answer=False)
        assert guess.move is not None  # the kind left is MOVE, which names its move
        if not board.held and pl.castling_prefix(g.fen, guess.move):
            turn.emit(PlacementSeen(game=g.id, placement=placement, reading="pending", pending=guess.move,
                                    pending_fen=fen_after(g.fen, guess.move), **ids(msg)))
            return turn.answer(msg, True, PENDING)
        if self._keep_king_move(turn, board, g, msg, guess.move):
            return turn.answer(msg, True, SIGNAL_WAIT)
        self.play(turn, board, g, msg, guess.move, "position")

    def _seen(self, turn, g: GameState, msg: Message, placement: str, reading: str, pending, *,
              answer: bool = True) -> None:
        """``placement_seen``: a snapshot that plays no move (kept so a restart knows the device's last
        message and what stands on the board)."""
        extra = {"pending": pending.move, "pending_fen": pending.fen_after} if pending is not None else {}
        turn.emit(PlacementSeen(game=g.id, placement=placement, reading=reading, **extra, **ids(msg)))
        if answer:
            turn.answer(msg, True, None)

    def _on_clock(self, turn, board: BoardState, g: GameState, msg: Message) -> None:
        body = msg.body
        refused = self._clock_refusal(g, body)
        if refused is not None:
            turn.emit(MessageRejected(board=msg.board, topic=f"venue/{self.hall.tournament}/boards/{msg.board}/clock",
                                      device=msg.device, seq=msg.seq, raw=msg.raw or None, applied=True,
                                      reason=refused))
            turn.answer(msg, False, refused)
            return
        if body["event"] in ("press", "resume", "start") and g.id == board.game:
            self._release(turn, board)
            g = self.state.games[board.game]
        before = g.clock.as_json() if g.clock else None
        event = body["event"]
        period = {"side": body["side"], "period": body["period"]} if event == "period_added" else {}
        made = self._made(turn, g, msg)
        turn.emit(CLOCK_EVENTS[event](game=g.id, white_ms=body["white_ms"], black_ms=body["black_ms"],
                                      running=body.get("running"), **period, **made, **ids(msg)))
        if not g.ended and event in ("press", "pause", "resume"):
            fall = flag_fall(body, before)
            if fall is not None and fall.both:
                self._both_flags(turn, g, body, msg.seq)
            elif fall is not None and fall.side is not None:
                self._flag(turn, g, fall.side, body, msg.seq)
        if not g.ended and event == "period_added":
            self._period_added(turn, g, body, msg.seq)
        if not g.ended and event == "press" and body.get("running") in ("white", "black"):
            irregular.pressed(self, turn, board, g, "black" if body["running"] == "white" else "white")
        turn.answer(msg, True, None)

    def _clock_refusal(self, g: GameState, body: dict) -> str | None:
        """Why a device's clock message is not applied to game ``g``, or None: a figure above what
        the game's time control can reach (``services.clock.ceiling``), or a message that would
        change the clock of a game that has ended (``NOT_AFTER_END``). Either is recorded as
        ``message_rejected`` (its ``seq`` used up) and answered ``accepted: false``."""
        if g.ended and body["event"] in NOT_AFTER_END:
            return f"game over: a clock's {body['event']} does not act on an ended game (only the arbiter's actions do)"
        control = None
        for side in ("white", "black"):
            figure = body[f"{side}_ms"]
            if figure <= MARGIN_MS:
                continue  # under every bound (each adds MARGIN_MS): no control to read on most presses
            if control is None:
                control = control_of(g.setup, self.state.config) or False
            most = most_ms(control or None, side, completed_moves(g, side))
            if figure > most:
                return (f"bad clock figure: {side}_ms {figure} is more than the game's time control can reach "
                        f"(at most {most} ms with the margins of docs/protocol.md)")
        return None

    def _made(self, turn, g: GameState, msg: Message) -> dict:
        """The clock entry's ``made_at``/``earliest_at`` (``services.clock.instant``): when a clock
        message read at ``msg.read_at`` (else now) was made. One that may have waited (read soon
        after the link came up, or resent after a loss) lies after the game's previous clock event
        (the device sends in ``seq`` order; the earliest instant that one can have been made when
        it is itself known only within a window; before any, the round's set-up) and is judged at
        its believable ``sent_at``, else within that window; any other at its read instant. {}
        when that is the entry's own ``at``."""
        read = turn.now if msg.read_at is None else msg.read_at
        waited = msg.late or may_have_waited(read, self.hall.link_since)
        if not waited and msg.read_at is None:
            return {}  # read now on a live link (nearly every press): the entry's ``at``
        prev = g.clock_earliest if g.clock_earliest is not None else g.clock.at if g.clock else None
        if waited:
            if prev is None:
                r = self.state.rounds.get(g.round)
                prev = r.at if r is not None else read
            at, earliest = event_instant(read, prev, rfc3339_ms(msg.sent_at))
        else:
            at = earliest = read if prev is None else max(read, prev)
        made = {} if at == turn.now else {"made_at": at}
        if earliest < at:
            made["earliest_at"] = earliest
        return made

    def _flag(self, turn, g: GameState, side: Side, body: dict, seq: int | None, expiry: dict | None = None) -> None:
        """``side``'s flag fell: ``flag_fell`` with the opponent's verdict, then ``game_ended``
        (FIDE Laws 6.9: lost, drawn when the opponent cannot checkmate; ``gateway.laws``)."""
        outcome, evidence = laws.flag_fall(self.hall.rules.game(g), side)
        turn.emit(FlagFell(game=g.id, board=g.board, side=side, white_ms=body["white_ms"], black_ms=body["black_ms"],
                           seq=seq, evidence=evidence, expiry=expiry))
        self._ended(turn, g, outcome.result, outcome.termination, EndedBy.RULES, evidence=evidence)

    def _both_flags(self, turn, g: GameState, body: dict, seq: int | None) -> None:
        """Both flags fell and the clock cannot show which first (``services.clock.flags``):
        ``both_flags_fell`` with the ruling (``services.regulations.both_flags``), and the draw of
        FIDE Laws Guidelines III.3.1.2 where the event announced them and it applies; otherwise the
        game goes on (III.3.1.1) or waits for the arbiter (the alert; 6.8, 6.11)."""
        found, rule = both_flags.ruling(self.state, g)
        turn.emit(BothFlagsFell(game=g.id, board=g.board, white_ms=body["white_ms"], black_ms=body["black_ms"],
                                seq=seq, ruling=found.ruling, law=found.law, reason=found.reason,
                                periods=found.periods or None, rule=rule))
        if found.ruling == both_flags.DRAWN:
            self._ended(turn, g, GameResult.DRAW, Termination.TIME_FORFEIT, EndedBy.RULES,
                        evidence={"both_flags": True, "law": found.law})

    def _period_added(self, turn, g: GameState, body: dict, seq: int | None) -> None:
        """The clock added a period because ``side``'s period ran out (``services.clock.expiry``):
        in time when the side had completed the period's moves (6.2: the game goes on), else the
        flag fell then (6.9), whatever the clock shows now. Unjudged without a timed control."""
        control = control_of(g.setup, self.state.config)
        if control is None or not control.timed or control.kind != "periods":
            return
        side = body["side"]
        expiry = judge_period_added(control, side, body["period"] - 2, completed_moves(g, side))
        if not expiry.in_time:
            self._flag(turn, g, side, body, seq, expiry=expiry.to_json())

    def _on_result(self, turn, board: BoardState, g: GameState, msg: Message) -> None:
        self._result(turn, board, g, msg, msg.body["result"], msg.body.get("reason") or Termination.AGREEMENT)

    # ----- helpers ------------------------------------------------------------------------------
    def play(self, turn, board: BoardState, g: GameState, msg: Message, move: str, source: str) -> None:
        """Play ``move`` (from topic ``source``: "move"/"position") on ``g``: ``move_played`` and what
        follows it, or, when the rules refuse it, an illegal move that stands (A.5.2), a second
        report composed with the first (6.2.1), or ``move_rejected`` (F05: the board held)."""
        resumed = board.held
        off = self._off_ballot(g, move)
        if off is not None:
            return self._refuse(turn, board, g, msg, move, off["reason"], hold=True,
                                extra={"ballot": off["ballot"], "expected": off["expected"],
                                       "ballot_ply": off["ply"], "rule": RULE_BALLOT_MOVES})
        game = self.hall.rules.game(g)
        try:
            played = game.play(move)
        except MoveRefused as refused:
            readable = bool(UCI.match(move)) or g.variant != "chess"
            if board.held and readable:
                if UCI.match(move) and irregular.stands(self, turn, board, g, msg, move, source):
                    return
                side = self._side_of(g, move)  # a held move is often the opponent's reply (F05: b8c6)
                return self._refuse(turn, board, g, msg, move, HELD, hold=True,  # F05: only a legal move lifts it
                                    extra={"side": side} if side else None)
            if UCI.match(move) and compose.report(self, turn, board, g, msg, move, None):
                return
            # a text that is not UCI is refused for what it is, held board or not (docs/protocol.md:
            # "refused without holding", "unparsable move"): it neither puts a hold on nor answers as one
            side = self._side_of(g, move)
            return self._refuse(turn, board, g, msg, move, refused.reason, hold=readable,
                                extra={"side": side} if side else None)
        claims = [c.to_json() for c in game.claimable()]
        before = list(g.claimable)
        turn.emit(MovePlayed(game=g.id, ply=played.ply, move=played.move, san=played.san, fen=played.fen,
                             turn=game.turn, claimable=claims, source=source, resumed=resumed, **ids(msg)))
        self.after_move(turn, g, game, played.ply, claims, before)
        turn.answer(msg, True, None, fen=played.fen)

    def after_move(self, turn, g: GameState, game, ply: int, claims: list, before: list) -> None:
        """After a ply: the claims when they changed, the automatic end when there is one."""
        if (claims or before) and _keys(claims) != _keys(before):  # most plies: no claim before nor after
            turn.emit(DrawClaimable(game=g.id, board=g.board, ply=ply, claims=claims))
        if game.outcome is not None:
            self._ended(turn, g, game.outcome.result, game.outcome.termination, EndedBy.RULES,
                        evidence=laws.end_evidence(game, game.outcome))

    def _side_of(self, g: GameState, move: str) -> str | None:
        """The side whose man stands on chess move ``move``'s from-square in the official position."""
        if g.variant != "chess" or not UCI.match(move):
            return None
        piece = self.hall.rules.board(g).piece_at(chess.parse_square(move[:2]))
        return None if piece is None else ("white" if piece.color == chess.WHITE else "black")

    def _off_ballot(self, g: GameState, move: str) -> dict | None:
        """``checkers_match.ballot_deviation`` for a checkers game with a ballot from the standard
        start, else None."""
        setup = g.setup
        if g.variant != "checkers" or setup.ballot is None or setup.fen or g.ply >= 3:
            return None
        return ballot_deviation(setup.ballot, list(g.moves), move)

    def _refuse(self, turn, board: BoardState, g: GameState, msg: Message, move: str, reason: str, *,
                hold: bool, extra: dict | None = None) -> None:
        snapshot = msg.kind == "position"  # a sensor board's placement, else a move
        turn.emit(MoveRejected(game=g.id, reason=reason, fen=g.fen, held=hold, move=None if snapshot else move,
                               placement=move if snapshot else None, **(extra or {}), **ids(msg)))
        turn.answer(msg, False, reason)

    def _result(self, turn, board: BoardState, g: GameState, msg: Message, result: str, reason: str) -> None:
        turn.emit(ResultReported(game=g.id, result=result, reason=reason, **ids(msg)))
        if g.ended:
            same = g.result == result
            return turn.answer(msg, same, None if same else f"{GAME_OVER}: result already {g.result}")
        refused = review_result(self.state, g.id, result, reason, msg.seq)
        if refused:
            for event in refused:
                turn.emit(event)
            first = refused[0]
            if first.TYPE == DrawClaimReported.TYPE:
                return turn.answer(msg, True, CLAIM_PASSED)
            why = getattr(first, "rule", None) or first.TYPE.replace("_", " ")
            return turn.answer(msg, False, f"refused: {why}")
        outcome = end_by_device(self.hall.rules.judge(g), result, reason)
        self._ended(turn, g, outcome.result, outcome.termination, EndedBy.DEVICE)
        turn.answer(msg, True, None)

    def _ended(self, turn, g: GameState, result: str, termination: Termination, by: EndedBy,
               evidence: dict | None = None) -> None:
        turn.emit(GameEnded(game=g.id, board=g.board, result=GameResult(result), termination=termination, ply=g.ply, by=by,
                            evidence=evidence))

    def after_end(self, turn, board: BoardState, g: GameState, msg: Message, *, move=None, placement=None) -> None:
        """F07: after the end the pieces are followed physically; the kings on the centre squares
        report the result; king moves towards it are not moves; anything else is "game over"."""
        physical = board.physical or g.fen.split(" ")[0]
        if placement is None:
            if not UCI.match(move or ""):
                return self._refuse(turn, board, g, msg, move, GAME_OVER, hold=False)
            placement = pl.move_piece(physical, move)
            moved = chess.BaseBoard(physical).piece_at(chess.parse_square(move[:2]))
            if moved is None or moved.piece_type != chess.KING or chess.parse_square(move[2:4]) not in pl.CENTRE:
                return self._refuse(turn, board, g, msg, move, GAME_OVER, hold=False)
        turn.emit(PlacementSeen(game=g.id, placement=placement, reading="after_end", **ids(msg)))
        signal = pl.result_signal(placement)
        if signal:
            return self._result(turn, board, g, msg, signal, "result signal")
        turn.answer(msg, True, GAME_OVER)

    def _keep_king_move(self, turn, board: BoardState, g: GameState, msg: Message, move: str) -> bool:
        """F07: while the clock is paused, a king move onto a centre square may be the first half of
        the result signal: keep it (``move_kept``) until the next message decides."""
        if g.clock_event != ClockPaused.TYPE or g.variant != "chess" or not UCI.match(move or ""):
            return False  # the clock running (nearly every move) decides it before the regex
        position = self.hall.rules.board(g)
        m = chess.Move.from_uci(move)
        piece = position.piece_at(m.from_square)
        if piece is None or piece.piece_type != chess.KING or m.to_square not in pl.CENTRE:
            return False
        if not position.is_legal(m):
            return False
        turn.emit(MoveKept(game=g.id, move=move, fen_after=fen_after(g.fen, move), **ids(msg)))
        return True

    def _release(self, turn, board: BoardState) -> None:
        """Play the move kept pending (its own message's move), before what comes next."""
        pending = board.pending
        if pending is None:
            return
        msg = Message(board.board, pending.kind, pending.device, pending.seq,
                      {"sent_at": pending.sent_at} if pending.sent_at else {})
        self.play(turn, board, self.state.games[board.game], msg, pending.move, pending.kind)


Handler = Callable[[Decider, object, BoardState, GameState, Message], None]
ON_KIND: dict[str, Handler] = {"move": Decider._on_move, "position": Decider._on_position,
                               "clock": Decider._on_clock, "result": Decider._on_result}
"""What a device message of each kind (``gateway.payload.KINDS`` but ``status``, which the hall
answers itself) means: dispatched by the message's kind, one handler a kind."""


def _keys(claims: list) -> list:
    """What tells two claim lists apart: their kinds and intended moves (FIDE Laws 9.2, 9.3)."""
    return sorted((c.get("kind") or "", c.get("by_move") or "") for c in claims)


def end_by_device(game, result: str, reason: str):
    """End ``game`` with a device's result. The device's reason is free text ("agreement",
    "Time forfeit", "result signal"); the game takes a termination word of the rules core, so the
    reason is tried as such a word first, then the usual one for the result (resignation for a win,
    agreement for a draw), then "arbiter". Raises ValueError when the rules core takes none."""
    word = reason.strip().lower().replace(" ", "_").replace("-", "_")
    won = result in (GameResult.WHITE_WINS, GameResult.BLACK_WINS)
    decisive = Termination.RESIGNATION if won else Termination.AGREEMENT
    last = None
    for termination in dict.fromkeys((word, decisive, Termination.ARBITER)):
        try:
            return game.end(result, termination)
        except ValueError as exc:
            last = exc
    assert last is not None  # the loop ran: "arbiter" at least was tried
    raise last


def fen_after(fen: str, uci: str) -> str:
    """The FEN after ``uci`` is played in ``fen`` (chess)."""
    board = chess.Board(fen)
    board.push_uci(uci)
    return board.fen()


def flagged(body: dict, before: dict | None) -> Side | None:
    """The side whose flag fell first by the clock's own figures, else None (FIDE Laws 6.8, 6.9;
    ``services.clock.flags.flag_fall``: None too when both fell and which first cannot be told)."""
    fall = flag_fall(body, before)
    return None if fall is None else fall.side
