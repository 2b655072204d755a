"""The gateway's state of the hall and what each device message does to it.

Pure (no I/O, time passed in ms): ``Hall.handle(topic, payload, now_ms)`` returns a ``Step``: the event
log entries to append (``(type, data)``, docs/events.md) and the feedback to publish
(``(board, {"ref", "accepted", "reason", "fen"})``, docs/protocol.md). ``Hall.fold(entry_type, data)``
replays the log: a gateway rebuilt from its log carries on with the same games, device ``seq`` values,
held boards, orientations and clock figures, so no move is lost or applied twice.

Rules applied here (docs/protocol.md has the device-side view):
- every move is checked by the rules core (``Game.play``), never pushed blindly (F05);
- F05: after an illegal move the board is held: its later moves are refused with
  ``HELD`` and not appended, until the board's next message that is legal in the official position
  (the replacement move, or any legal move: the arbiter has put the position right), or a placement
  equal to the official position;
- automatic ends (checkmate, stalemate, fivefold, 75 moves, dead position) give ``game_ended`` by
  ``"rules"``; a clock at 0 for a side gives ``flag_fell`` and ``game_ended`` (``Game.flag_fall``,
  FIDE Laws 6.9); a result message gives ``result_reported`` then ``game_ended`` by ``"device"``;
- F06: a placement board whose first snapshot is the start turned 180 degrees is mapped s -> 63 - s,
  its ``move`` topic too (recorded once as ``board_oriented``);
- F07: the kings on the centre squares are the result signal, never a move; while the clock is paused
  a king move onto a centre square waits for the next message before it is played;
- checkers matches (11-Man National 2017 X.A.b, ``services.regulations.checkers_match``): a board
  with two games in ``round_started`` plays them in turn. Once the current game has ended, the
  board's next ``move`` or clock ``start`` message begins the next game (recorded first as
  ``match_game_started``); a result, press or pause after the end still belongs to the game that
  ended. A queued game ended before it began (a game-1 flag forfeits game 2) is never begun;
- a checkers game with a ``ballot`` in its SETUP, played from the standard start, opens with the
  ballot's three moves (11-Man National 2017 X.A.d, ``checkers_match.ballot_deviation``): a legal
  move among the first three plies that is not the ballot's is refused like an illegal move
  (``move_rejected`` with ``ballot``, ``expected``, ``rule``; the board held, F05) and the feedback
  names the ballot and the expected move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import chess

from gateway import placement as pl
from gateway.games import new_game
from gateway.ordering import APPLY, DUPLICATE, GAP, HOLD, Sequencer
from gateway.payload import BadMessage, Message, parse
from services.regulations.checkers_match import RULE_BALLOT_MOVES, ballot_deviation
from services.rules.base import MoveRefused

HELD = "held: illegal move pending arbiter decision"
GAME_OVER = "game over"
DUPLICATE_REASON = "duplicate"
WAITING = "waiting for missing seq"
PASSING = "passing state: no legal move gives this placement"
SIGNAL_WAIT = "result signal: waiting for the other king"
PENDING = "pending: waiting for the next placement (castling with the rook first?)"
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
CLOCK_TYPES = {
    "start": "clock_started",
    "press": "clock_pressed",
    "pause": "clock_paused",
    "resume": "clock_resumed",
    "set": "clock_set",
}
_SEQ_TYPES = {"move_played", "move_rejected", "result_reported", "board_oriented", *CLOCK_TYPES.values()}


@dataclass
class Step:
    """What one message (or one tick) produced: ``entries`` ``[(type, data)]`` for the log, in order,
    and ``feedback`` ``[(board, payload)]`` for the devices."""

    entries: list[tuple[str, dict]] = field(default_factory=list)
    feedback: list[tuple[str, dict]] = field(default_factory=list)

    def extend(self, other: "Step") -> None:
        """Append ``other``'s entries and feedback after this step's."""
        self.entries.extend(other.entries)
        self.feedback.extend(other.feedback)


@dataclass
class BoardState:
    """One hall board in the current round. ``game``: the rules core; ``held``: F05; ``rotated`` and
    ``oriented``: F06; ``clock``: the clock device's last figures ``{event, white_ms, black_ms,
    running}`` (ms); ``claims``: the last claim list (CLAIM json); ``physical``: the placement the
    pieces stand in after the game ended (F07); ``stash``: ``(message, move, fen after it)`` of a move
    not played yet because the next message decides what it is: a rook move that may be the first
    half of castling, or a king move onto a centre square made while the clock was paused (F07)."""

    board: str
    setup: dict
    game: object
    held: bool = False
    rotated: bool = False
    oriented: bool = False
    clock: dict | None = None
    claims: list = field(default_factory=list)
    status: str | None = None
    physical: str | None = None
    stash: tuple | None = None

    _cached: tuple | None = None

    @property
    def game_id(self) -> str:
        """The game on this board, ``"{round}-{board}"``."""
        return self.setup["id"]

    def position(self) -> chess.Board:
        """The official position as a python-chess Board, kept while the game stands still
        (placement boards send many snapshots per ply; parsing the FEN for each one costs)."""
        fen = self.game.fen
        if self._cached is None or self._cached[0] != fen:
            self._cached = (fen, chess.Board(fen))
        return self._cached[1]

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.game.outcome is not None


class Hall:
    """The hall of one tournament: its boards, their games, the device sequencer."""

    def __init__(self, tournament: str, *, hold_ms: int = 5000, game_factory=None, result_review=None):
        self.tournament = tournament
        # The event's regulations, asked before a device's result ends a game (gateway.referee):
        # ``result_review(game, result, reason, seq)`` -> None (allowed) or the refusing entries.
        self.result_review = result_review
        self.boards: dict[str, BoardState] = {}
        self.queued: dict[str, list[dict]] = {}  # board -> SETUPs still to be played on it (a match)
        self.sequencer = Sequencer(hold_ms)
        self._game_factory = game_factory

    def _new_game(self, setup: dict):
        return (self._game_factory or new_game)(setup)

    # ----- replay -------------------------------------------------------------------------------

    def fold(self, type: str, data: dict) -> None:
        """Replay one log entry (any type; unknown ones are ignored)."""
        self._fold(type, data, live=False)

    def _fold(self, type: str, data: dict, *, live: bool) -> None:
        if type == "round_started":
            self.queued = {}
            for setup in data.get("games", []):
                board = str(setup["board"])
                if board in self.queued:  # the board's first game is set: this one follows it
                    self.queued[board].append(setup)
                    continue
                self.boards[board] = BoardState(board, setup, self._new_game(setup))
                self.queued[board] = []
                self.sequencer.reset(board)
            return
        if type == "match_game_started":
            self._begin_next(str(data["board"]), data["game"])
            return
        if type == "armageddon_scheduled":
            # Norway 2023: the Armageddon game follows the drawn game on the same board; the devices
            # carry on with their own seq.
            board = str(data["board"])
            self.boards[board] = BoardState(board, data, self._new_game(data))
            return
        state = self.boards.get(str(data.get("board")))
        if type == "game_ended" and data.get("game") in self._queued_ids(str(data.get("board"))):
            # a game ended before it began (X.A.b: a flag in game 1 forfeits game 2): never begun
            self.queued[str(data["board"])] = [s for s in self.queued[str(data["board"])]
                                               if s["id"] != data["game"]]
            return
        if state is None or (data.get("game") not in (None, state.game_id)):
            return
        if type == "arbiter_decision" and data.get("result") == "*" and state.over:
            # The arbiter overruled the ending (e.g. a default, FIDE Laws 6.7.1 "unless the arbiter
            # decides otherwise"): the same moves, the game open again.
            game = self._new_game(state.setup)
            for move in state.game.moves:
                game.play(move)
            state.game = game
            return
        if type in _SEQ_TYPES and data.get("seq") is not None and data.get("device"):
            self.sequencer.mark((state.board, data["device"]), data["seq"])
        if type == "seq_gap":
            self.sequencer.skip((state.board, data["device"]), data["expected"], data["got"])
        elif type == "move_played":
            if not live:
                state.game.play(data["move"])
            state.held = False
            state.claims = data.get("claimable", [])
        elif type == "move_rejected":
            if data.get("held"):
                state.held = True
        elif type == "draw_claimable":
            state.claims = data.get("claims", [])
        elif type in CLOCK_TYPES.values():
            state.clock = {k: data.get(k) for k in ("white_ms", "black_ms", "running")}
            state.clock["event"] = type
        elif type == "game_ended":
            if not live and state.game.outcome is None:
                try:
                    state.game.end(data["result"], data["termination"])
                except ValueError:
                    # A result the rules core reads otherwise (an arbiter's word it does not know):
                    # the game has ended all the same; never let one entry stop the fold.
                    state.game.end(data["result"], "arbiter")
            state.held = False
            state.stash = None
        elif type == "board_oriented":
            state.oriented = True
            state.rotated = bool(data.get("rotated"))
        elif type in ("device_online", "device_offline"):
            state.status = type

    # ----- live ---------------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes | str, now_ms: int) -> Step:
        """One MQTT message. Never raises: bad input becomes ``message_rejected`` and feedback; a
        fault of ours (any exception) becomes ``message_rejected`` ``internal error: <type>`` with
        the raw payload, answered on the board's feedback when the topic names a known board."""
        try:
            return self._handle(topic, payload, now_ms)
        except Exception as exc:  # noqa: BLE001 - one message must never stop the hall
            return self.internal_error(topic, payload, exc)

    def internal_error(self, topic: str, payload, exc: BaseException) -> Step:
        """The ``message_rejected`` entry (reason ``internal error: <type>: <text>``, raw payload cut
        to 2 KB) and, when the topic names a known board, its feedback, for a message whose handling
        raised ``exc``. Never raises."""
        from gateway.payload import cut_topic, raw_text, split_topic

        try:
            board, _kind = split_topic(self.tournament, topic)
        except Exception:  # noqa: BLE001
            board = None
        try:
            raw = raw_text(payload)
        except Exception:  # noqa: BLE001
            raw = repr(payload)[:2048]
        detail = f"internal error: {type(exc).__name__}: {exc}"[:300]
        step = Step(entries=[("message_rejected", self._rejection_data(
            board, cut_topic(str(topic)), None, None, detail, raw))])
        state = self.boards.get(board) if board is not None else None
        if state is not None:
            try:
                fen = state.game.fen
            except Exception:  # noqa: BLE001
                fen = None
            step.feedback.append((board, {"ref": None, "accepted": False,
                                          "reason": f"internal error: {type(exc).__name__}", "fen": fen}))
        return step

    def _handle(self, topic: str, payload: bytes | str, now_ms: int) -> Step:
        try:
            msg = parse(self.tournament, topic, payload)
        except BadMessage as bad:
            return self._rejected_message(topic, payload, bad)
        state = self.boards.get(msg.board)
        if state is None:
            bad = BadMessage(f"unknown board: {msg.board}", board=msg.board, kind=msg.kind,
                             device=msg.device, seq=msg.seq)
            return self._rejected_message(topic, payload, bad)
        if msg.kind == "status":
            return self._status(state, msg)
        step = Step()
        for action, item in self.sequencer.offer((msg.board, msg.device), msg.seq, msg, now_ms):
            step.extend(self._act(action, item))
        return step

    def tick(self, now_ms: int) -> Step:
        """Release messages held for missing ``seq`` values longer than the hold (see ordering)."""
        step = Step()
        for action, item in self.sequencer.expire(now_ms):
            step.extend(self._act(action, item))
        return step

    def _act(self, action: str, item) -> Step:
        if action == GAP:
            (board, device), expected, got = item
            return self._emit(Step(), "seq_gap",
                              {"board": board, "device": device, "expected": expected, "got": got})
        if action == HOLD:
            (board, device), expected, got = item
            state = self.boards[board]
            return Step(feedback=[(board, {
                "ref": got, "accepted": True, "reason": f"{WAITING}: send again from seq {expected}",
                "fen": state.game.fen, "device": device, "resend_from": expected,
            })])
        msg: Message = item
        state = self.boards[msg.board]
        if action == DUPLICATE:
            step = self._emit(Step(), "message_duplicate",
                              {"board": msg.board, "device": msg.device, "seq": msg.seq})
            return self._answer(step, state, msg, True, DUPLICATE_REASON)
        assert action == APPLY
        try:
            begun = self._next_game(state, msg)
            if begun is not None:
                begun.extend(getattr(self, f"_on_{msg.kind}")(self.boards[msg.board], msg))
                return begun
            return getattr(self, f"_on_{msg.kind}")(state, msg)
        except Exception as exc:  # a fault of ours must not stall the board: record and answer
            step = self._emit(Step(), "message_rejected", self._rejection_data(
                msg.board, f"venue/{self.tournament}/boards/{msg.board}/{msg.kind}", msg.device,
                msg.seq, f"internal error: {type(exc).__name__}: {exc}", msg.raw))
            return self._answer(step, state, msg, False, f"internal error: {type(exc).__name__}")

    # ----- matches (several games on one board) -------------------------------------------------

    def _queued_ids(self, board: str) -> list[str]:
        return [s["id"] for s in self.queued.get(board, [])]

    def _begin_next(self, board: str, game_id: str) -> None:
        """Make the queued game ``game_id`` the board's current game (the devices keep their seq)."""
        waiting = self.queued.get(board, [])
        setup = next((s for s in waiting if s["id"] == game_id), None)
        if setup is None:
            return
        waiting.remove(setup)
        before = self.boards.get(board)
        state = BoardState(board, setup, self._new_game(setup))
        if before is not None:
            state.status = before.status
        self.boards[board] = state

    def _next_game(self, state: BoardState, msg: Message) -> Step | None:
        """A ``move`` or clock ``start`` after the board's game ended begins its next queued game:
        the Step holding ``match_game_started``, else None."""
        if not state.over or not self.queued.get(state.board):
            return None
        if not (msg.kind == "move" or (msg.kind == "clock" and msg.body.get("event") == "start")):
            return None
        nxt = self.queued[state.board][0]
        data = {"game": nxt["id"], "board": state.board, "follows": state.game_id,
                "match": (nxt.get("match") or {}).get("id"), "device": msg.device, "seq": msg.seq}
        return self._emit(Step(), "match_game_started", data)

    # ----- message kinds ------------------------------------------------------------------------

    def _on_move(self, state: BoardState, msg: Message) -> Step:
        step = Step()
        text = msg.body["move"].strip()
        if state.setup.get("variant", "chess") == "chess":
            text = text.lower()
            if state.rotated and _UCI.match(text):
                text = pl.rotate_uci(text)
        if state.over:
            return self._after_end(state, msg, step, move=text)
        if state.stash is not None and _UCI.match(text):
            # F07: the second king of the result signal (an illegal move on its own)
            physical = pl.move_piece(state.stash[2].split(" ")[0], text)
            signal = pl.result_signal(physical)
            if signal:
                state.stash = None
                return self._result(state, msg, step, signal, "result signal")
        step.extend(self._release_stash(state))
        if state.over:
            return self._after_end(state, msg, step, move=text)
        if self._stash_king_move(state, msg, text):
            return self._answer(step, state, msg, True, SIGNAL_WAIT)
        return self._play(state, msg, text, "move", step)

    def _on_position(self, state: BoardState, msg: Message) -> Step:
        step = Step()
        if state.setup.get("variant", "chess") != "chess":
            return self._refuse(state, msg, step, msg.body["placement"],
                                "placement boards are supported for chess only", hold=False)
        placement = msg.body["placement"]
        if not state.oriented and state.game.ply == 0:
            if pl.is_rotated_start(placement) or placement == pl.START_PLACEMENT:
                rotated = placement != pl.START_PLACEMENT
                self._emit(step, "board_oriented", self._ids(state, msg) | {"rotated": rotated})
        if state.rotated:
            placement = pl.rotate_placement(placement)
        if state.over:
            return self._after_end(state, msg, step, placement=placement)
        signal = pl.result_signal(placement)
        if signal:
            state.stash = None
            return self._result(state, msg, step, signal, "result signal")
        guess = pl.infer_move(state.position(), placement)
        if state.stash is not None:
            _, waiting, after = state.stash
            if guess.kind == pl.MOVE and guess.move != waiting:
                state.stash = None  # castling completed, or another stable move: the latest wins
            elif guess.kind == pl.SAME:
                state.stash = None  # the piece went back
                return self._answer(step, state, msg, True, None)
            else:
                then = pl.infer_move(after, placement)
                if guess.kind == pl.MOVE or then.kind != pl.MOVE:
                    return self._answer(step, state, msg, True, PENDING)
                step.extend(self._release_stash(state))
                guess = pl.infer_move(state.position(), placement)
        if guess.kind == pl.SAME:
            state.held = False  # F05: the official position is back on the board
            return self._answer(step, state, msg, True, None)
        if guess.kind == pl.TRANSIENT:
            return self._answer(step, state, msg, True, PASSING)
        if not state.held and pl.castling_prefix(state.game.fen, guess.move):
            state.stash = (msg, guess.move, _fen_after(state.game.fen, guess.move))
            return self._answer(step, state, msg, True, PENDING)
        if self._stash_king_move(state, msg, guess.move):
            return self._answer(step, state, msg, True, SIGNAL_WAIT)
        return self._play(state, msg, guess.move, "position", step)

    def _on_clock(self, state: BoardState, msg: Message) -> Step:
        step = Step()
        body = msg.body
        if body["event"] in ("press", "resume", "start"):
            step.extend(self._release_stash(state))
        data = self._ids(state, msg) | {
            "white_ms": body["white_ms"], "black_ms": body["black_ms"], "running": body.get("running"),
        }
        before = state.clock
        self._emit(step, CLOCK_TYPES[body["event"]], data)
        if not state.over and body["event"] in ("press", "pause", "resume"):
            side = _flagged(body, before)
            if side is not None:
                outcome = state.game.flag_fall(side)
                self._emit(step, "flag_fell", {"game": state.game_id, "board": state.board,
                                                "side": side, "white_ms": body["white_ms"],
                                                "black_ms": body["black_ms"], "seq": msg.seq})
                self._ended(step, state, outcome, "rules")
        return self._answer(step, state, msg, True, None)

    def _on_result(self, state: BoardState, msg: Message) -> Step:
        reason = msg.body.get("reason") or "agreement"
        return self._result(state, msg, Step(), msg.body["result"], reason)

    # ----- helpers ------------------------------------------------------------------------------

    def _play(self, state: BoardState, msg: Message, move: str, source: str, step: Step) -> Step:
        resumed = state.held
        off = self._off_ballot(state, move)
        if off is not None:
            return self._refuse(state, msg, step, move, off["reason"], hold=True,
                                extra={"ballot": off["ballot"], "expected": off["expected"],
                                       "ballot_ply": off["ply"], "rule": RULE_BALLOT_MOVES})
        if state.held:
            # F05: only a move legal in the official position lifts the hold
            try:
                played = state.game.play(move)
            except MoveRefused:
                return self._refuse(state, msg, step, move, HELD, hold=True)
        else:
            try:
                played = state.game.play(move)
            except MoveRefused as refused:
                readable = bool(_UCI.match(move)) or state.setup.get("variant") != "chess"
                return self._refuse(state, msg, step, move, refused.reason, hold=readable)
        claims = [c.to_json() for c in state.game.claimable()]
        data = self._ids(state, msg) | {
            "ply": played.ply, "move": played.move, "san": played.san, "fen": played.fen,
            "turn": state.game.turn, "claimable": claims, "from": source,
        }
        if resumed:
            data["resumed"] = True
        self._emit(step, "move_played", data)
        if state.game.outcome is not None:
            self._ended(step, state, state.game.outcome, "rules")
        return self._answer(step, state, msg, True, None, fen=played.fen)

    def _off_ballot(self, state: BoardState, move: str) -> dict | None:
        """``checkers_match.ballot_deviation`` for a checkers game with a ballot from the standard
        start, else None."""
        setup = state.setup
        if setup.get("variant") != "checkers" or not setup.get("ballot") or setup.get("fen"):
            return None
        if state.game.ply >= 3:
            return None
        return ballot_deviation(setup["ballot"], list(state.game.moves), move)

    def _refuse(self, state, msg, step, move, reason, *, hold: bool, extra: dict | None = None) -> Step:
        data = self._ids(state, msg) | {"reason": reason, "fen": state.game.fen} | (extra or {})
        data["placement" if msg.kind == "position" else "move"] = move
        if hold:
            data["held"] = True
        self._emit(step, "move_rejected", data)
        return self._answer(step, state, msg, False, reason)

    def _result(self, state, msg, step, result: str, reason: str) -> Step:
        self._emit(step, "result_reported", self._ids(state, msg) | {"result": result, "reason": reason})
        if state.over:
            same = state.game.outcome.result == result
            why = None if same else f"{GAME_OVER}: result already {state.game.outcome.result}"
            return self._answer(step, state, msg, same, why)
        refused = self.result_review(state.game_id, result, reason, msg.seq) if self.result_review else None
        if refused:
            for type_, data in refused:
                self._emit(step, type_, data)
            why = refused[0][1].get("rule") or refused[0][0].replace("_", " ")
            if refused[0][0] == "draw_claim_reported":
                why = "claim passed to the arbiter: the game goes on until the arbiter decides"
            return self._answer(step, state, msg, False, f"refused: {why}")
        outcome = _end_by_device(state.game, result, reason)
        self._ended(step, state, outcome, "device")
        return self._answer(step, state, msg, True, None)

    def _ended(self, step: Step, state: BoardState, outcome, by: str) -> None:
        self._emit(step, "game_ended", {
            "game": state.game_id, "board": state.board, "result": outcome.result,
            "termination": outcome.termination, "ply": state.game.ply, "by": by,
        })

    def _after_end(self, state, msg, step, *, move=None, placement=None) -> Step:
        """F07: after the end, the pieces are followed physically; the kings on the centre squares
        report the result; king moves towards it are not moves; anything else is "game over"."""
        if state.physical is None:
            state.physical = state.game.fen.split(" ")[0]
        if placement is None:
            if not _UCI.match(move or ""):
                return self._refuse(state, msg, step, move, GAME_OVER, hold=False)
            before = state.physical
            placement = pl.move_piece(before, move)
            moved = chess.BaseBoard(before).piece_at(chess.parse_square(move[:2]))
            is_king_to_centre = (
                moved is not None and moved.piece_type == chess.KING
                and chess.parse_square(move[2:4]) in pl.CENTRE
            )
            if not is_king_to_centre:
                return self._refuse(state, msg, step, move, GAME_OVER, hold=False)
        state.physical = placement
        signal = pl.result_signal(placement)
        if signal:
            return self._result(state, msg, step, signal, "result signal")
        return self._answer(step, state, msg, True, GAME_OVER)

    def _stash_king_move(self, state: BoardState, msg: Message, move: str) -> bool:
        """F07: while the clock is paused, a king move onto a centre square may be the first half of
        the result signal: keep it until the next message decides."""
        if state.setup.get("variant", "chess") != "chess" or not _UCI.match(move or ""):
            return False
        if not state.clock or state.clock.get("event") != "clock_paused":
            return False
        board = chess.Board(state.game.fen)
        m = chess.Move.from_uci(move)
        piece = board.piece_at(m.from_square)
        if piece is None or piece.piece_type != chess.KING or m.to_square not in pl.CENTRE:
            return False
        if not board.is_legal(m):
            return False
        state.stash = (msg, move, _fen_after(state.game.fen, move))
        return True

    def _release_stash(self, state: BoardState) -> Step:
        if state.stash is None:
            return Step()
        msg, move, _ = state.stash
        state.stash = None
        return self._play(state, msg, move, msg.kind, Step())

    def _status(self, state: BoardState, msg: Message) -> Step:
        kind = "device_online" if msg.body["status"] == "online" else "device_offline"
        if state.status == kind:  # the retained status comes again on every resubscription
            return Step()
        return self._emit(Step(), kind, {"board": state.board, "device": msg.device})

    def _emit(self, step: Step, type: str, data: dict) -> Step:
        if type == "move_played":
            before = self.boards[data["board"]].claims
            self._fold(type, data, live=True)
            if _claim_keys(data["claimable"]) != _claim_keys(before):
                step.entries.append((type, data))
                claim = {"game": data["game"], "board": data["board"], "ply": data["ply"],
                         "claims": data["claimable"]}
                step.entries.append(("draw_claimable", claim))
                self._fold("draw_claimable", claim, live=True)
                return step
        else:
            self._fold(type, data, live=True)
        step.entries.append((type, data))
        return step

    def _ids(self, state: BoardState, msg: Message) -> dict:
        data = {"game": state.game_id, "board": state.board, "device": msg.device, "seq": msg.seq}
        if msg.sent_at:
            data["sent_at"] = msg.sent_at
        return data

    def _answer(self, step: Step, state: BoardState, msg: Message, accepted: bool, reason,
                fen: str | None = None) -> Step:
        step.feedback.append((state.board, {"ref": msg.seq, "accepted": accepted, "reason": reason,
                                             "fen": fen or state.game.fen}))
        return step

    def _rejection_data(self, board, topic, device, seq, reason, raw) -> dict:
        return {"board": board, "topic": topic, "device": device, "seq": seq, "reason": reason,
                "raw": raw}

    def _rejected_message(self, topic: str, payload, bad: BadMessage) -> Step:
        from gateway.payload import cut_topic, raw_text

        step = Step()
        data = self._rejection_data(bad.board, cut_topic(topic), bad.device, bad.seq, bad.reason,
                                    raw_text(payload))
        step.entries.append(("message_rejected", data))
        if bad.board is not None and bad.kind != "status":
            state = self.boards.get(bad.board)
            step.feedback.append((bad.board, {"ref": bad.seq, "accepted": False, "reason": bad.reason,
                                              "fen": state.game.fen if state else None}))
        return step


def _end_by_device(game, result: str, reason: str):
    """End ``game`` with a device's result. The device's reason is free text ("agreement",
    "Time forfeit", "result signal"); the game takes a termination word of the rules core, so the
    reason is tried as such a word first, then the usual one for the result (resignation for a win,
    agreement for a draw), then "arbiter". Raises ValueError when the rules core takes none."""
    word = reason.strip().lower().replace(" ", "_").replace("-", "_")
    decisive = "resignation" if result in ("1-0", "0-1") else "agreement"
    last = None
    for termination in dict.fromkeys((word, decisive, "arbiter")):
        try:
            return game.end(result, termination)
        except ValueError as exc:
            last = exc
    raise last


def _fen_after(fen: str, uci: str) -> str:
    board = chess.Board(fen)
    board.push_uci(uci)
    return board.fen()


def _claim_keys(claims: list) -> list:
    return sorted((c.get("kind") or "", c.get("by_move") or "") for c in claims)


def _flagged(body: dict, before: dict | None) -> str | None:
    """The side whose flag fell by the clock's own figures, else None (FIDE Laws 6.8, 6.9).

    ``before``: the clock's previous figures (``BoardState.clock``). A flag has fallen when the
    clock shows the side whose time runs at 0 ms and that side had more before (its time ran out on
    this turn), or when the clock stopped itself (``pause`` with nothing running) with one side at
    0. A figure of 0 that comes with a press and stays unchanged is not taken as a flag fall: real
    clocks send such figures in passing (FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi:
    6...dxc4 {[%clk 0:00:00]}, and the game went on to move 41); the arbiter sees it in the
    ``clock_pressed`` entries."""
    running = body.get("running")
    if running in ("white", "black") and body[f"{running}_ms"] <= 0:
        previous = (before or {}).get(f"{running}_ms")
        if previous is None or previous > 0:
            return running
    if body["event"] == "pause" and running is None:
        at_zero = [side for side in ("white", "black") if body[f"{side}_ms"] <= 0]
        if len(at_zero) == 1:
            return at_zero[0]
    return None
