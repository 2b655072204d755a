"""One simulated hall board: an electronic board and its clock, replaying a Script over MQTT.

Both devices share one MQTT connection (as a DGT clock is wired through its board) but keep their own
``seq`` (docs/protocol.md); every message carries the game's number on the board (``game``: 1, then 2
for a match's second game), so the gateway never has to tell the games apart from evidence. The session is kept (clean_session=0), so feedback sent while the link is
down arrives after the reconnect; a station starts afresh, though (its first connection cleans the
session: a previous run on the board, round 1's station with the same client id, may have left
feedback queued there that is not for this game). On connect the station publishes the retained
``status`` "online", with the last will "offline" (retained); every message is QoS 1, sent one after
the other, and a message that could not be sent (link down) is sent again after the reconnect with
the same ``seq``.

End-to-end acknowledgement (docs/protocol.md, issue 28): a message is done when the gateway's
feedback answers it, not when the broker PUBACKs it (a broker killed -9 loses what it held). Every
message without that answer is kept (``devices.feedback.Outbox``, as the LiveChess bridge's links do)
and sent again with the same ``seq``, in the order first sent, each time the link comes back (before
anything new), when the gateway has confirmed nothing for ``retry_s`` while messages wait (a broker
restarted without its sessions drops what is published before the gateway subscribes again), and
from the seq a feedback's ``resend_from`` names. Feedback of another round (``"round"``: round 1's
answers reaching round 2's station) is ignored. ``run`` finishes only once the gateway has answered
every message (at most ``confirm_wait_s``).

Kinds: ``"move"`` boards send UCI on ``move`` (checkers: numeric notation with the full route,
``11-15``, ``6x15x24``); ``"position"`` boards (chess only) send piece placements on ``position``,
with the passing states of real hands: a piece lifted and put back, a piece in the hand, the captured
piece lifted first, castling with the rook moved first.

Timing: the plies are sent on the script's timeline (each ply ``think_ms`` of game time after the
previous, divided by ``speed``), measured from the clock's start, so delays in sending do not add up.
The clock starts for the script's first side (White in chess, Black/Red in checkers). When the
script ends with a flag fall (``Script.flag``), the clock stops showing that side at 0 before the
result is reported.

Faults (a frozenset of words; each at a fixed ply, see ``FAULT_PLY``):
``"illegal"`` an illegal move (chess: a king jump; checkers: a plain step while a capture is
compulsory, or a man stepping backwards: ``devices.checkers_faults``) before the real one; ``"duplicate"`` every board message
sent twice; ``"out_of_order"`` two board messages sent in swapped order; ``"malformed"`` a payload that
is not JSON and one without ``seq``; ``"disconnect"`` the link cut without DISCONNECT (the will
fires) for ``outage_s`` seconds, messages queued meanwhile; ``"rotated"`` the board turned 180° (its
squares mapped s -> 63 - s; it sends the start snapshot first so the gateway can tell, F06; chess
only).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import aiomqtt
import chess

from devices.checkers_faults import illegal_move as illegal_checkers_move
from devices.feedback import RETRY_S, Outbox, clean_start, publish_acked, resend_when_quiet
from devices.script import Ply, Script
from services.protocol.mqtt_url import parse_mqtt_url
from devices.mqtt_adapter import cut_link, no_delay

log = logging.getLogger(__name__)

FAULTS = frozenset({"illegal", "duplicate", "out_of_order", "malformed", "disconnect", "rotated"})
KINDS = ("move", "position")
FAULT_PLY = 6  # the ply (1-based, or the last one in shorter games) where one-off faults happen
LIFT_EVERY = 10  # position boards: plies 1, 11, 21... start with a piece lifted and put back
PUBACK_TIMEOUT_S = 2.0  # no PUBACK by then: the link is started again and the message sent again
BETWEEN_GAMES_MS = 5 * 60_000  # game time between the two games of a match (the clock paused)
RECORDED_WAIT_S = 30.0  # at most this long for game 1's result to be answered before game 2 starts
CONFIRM_WAIT_S = 300.0  # at most this long at the end for the gateway to answer every message


class SimulatedBoard:
    """Replays ``script`` on hall board ``script.board`` of ``tournament``.

    ``speed``: 60 plays an hour of thinking in a minute (must be > 0). ``outage_s``: the length of
    the ``disconnect`` fault. ``then``: scripts played after ``script`` on the same board (the
    second game of a checkers match; see ``run``). ``round``: the hall round it plays (feedback
    naming another is ignored; None: the round of the first feedback that confirms one of its
    messages). ``retry_s``: see the module docstring; ``confirm_wait_s``: how long ``run`` waits at
    the end for the gateway to answer every message (0 with no gateway listening; a warning names
    what went unanswered). After ``run()``: ``sent`` holds every (topic, payload) published in
    order, ``feedback`` every feedback payload received (this game's), ``resent`` the ``(device,
    seq)`` of each message sent again because its answer had not come, ``outbox`` what is still
    unconfirmed. Raises ValueError for a bad kind, fault or speed, and for a ``"position"`` board
    or the ``"rotated"`` fault with a checkers script (placement boards are chess only:
    docs/protocol.md).
    """

    def __init__(self, mqtt_url: str, tournament: str, script: Script, *, speed: float = 1.0,
                 kind: str = "move", faults: frozenset = frozenset(), username: str | None = None,
                 password: str | None = None, outage_s: float = 1.0, client_id: str | None = None,
                 then: tuple[Script, ...] = (), round: str | None = None, retry_s: float = RETRY_S,
                 confirm_wait_s: float = CONFIRM_WAIT_S):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        unknown = set(faults) - FAULTS
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}: expected some of {sorted(FAULTS)}")
        if not speed or speed <= 0:
            raise ValueError("speed must be > 0")
        if script.variant == "checkers" and (kind == "position" or "rotated" in faults):
            raise ValueError("checkers boards send moves: the position kind and the rotated fault "
                             "are for chess only")
        target = parse_mqtt_url(mqtt_url)
        self.host, self.port = target.host, target.port
        self.username = username if username is not None else target.username
        self.password = password if password is not None else target.password
        self.tournament, self.script, self.speed, self.kind = tournament, script, speed, kind
        self.then = tuple(then)
        self.faults = frozenset(faults)
        self.outage_s = outage_s
        self.client_id = client_id or f"venue-sim-{tournament}-{script.board}"
        self.sent: list[tuple[str, str]] = []
        self.feedback: list[dict] = []
        self._seq = {"board": 0, "clock": 0}
        self._game = 1  # the game's number on the board this round (docs/protocol.md "Fields": game)
        self._up = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._reconnect_at = 0.0
        self._held: list[tuple[str, str, tuple[str, int]]] = []
        self._history: dict[str, dict[int, tuple[str, str]]] = {"board": {}, "clock": {}}
        self._tasks: set[asyncio.Task] = set()
        self.outbox = Outbox(round=round, learn_round=True)
        self.retry_s, self.confirm_wait_s = retry_s, confirm_wait_s
        self.resent: list[tuple[str, int]] = []
        self._fresh = False  # the session of an earlier run cleaned (once, at the first connect)

    # ----- topics and payloads -----------------------------------------------------------------

    def topic(self, kind: str) -> str:
        """``venue/{t}/boards/{b}/{kind}`` for this board."""
        return f"venue/{self.tournament}/boards/{self.script.board}/{kind}"

    def _next(self, device: str) -> int:
        self._seq[device] += 1
        return self._seq[device]

    # ----- running -----------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, play the whole script, report the result, stop the clock, go offline. With
        ``then`` (a checkers match's second game), the clock stays paused ``BETWEEN_GAMES_MS`` of
        game time, then the next script is played on the same board, the devices carrying on with
        their ``seq``; a script ending with a flag fall ends the match (11-Man National 2017 X.A.b:
        "forfeits the current game, as well as the next game if not started")."""
        link = asyncio.create_task(self._link(), name=f"sim-link-{self.script.board}")
        retry = asyncio.create_task(self._retry(), name=f"sim-retry-{self.script.board}")
        try:
            await self._play()
            for script in self.then:
                if self.script.flag is not None:
                    break
                await asyncio.sleep(BETWEEN_GAMES_MS / 1000 / self.speed)
                await self._recorded("board", self._seq["board"], RECORDED_WAIT_S)
                self.script = script
                self._game += 1
                await self._play()
            if not await self.outbox.settled(self.confirm_wait_s) and self.confirm_wait_s:
                log.warning("board %s: no answer from the gateway for %s", self.script.board,
                            ", ".join(f"{d} {s}" for d, s in self.outbox.unconfirmed))
        finally:
            await self._go_offline()
            for task in (link, retry, *self._tasks):
                task.cancel()
            with contextlib.suppress(BaseException):
                await link

    async def _recorded(self, device: str, seq: int, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until the gateway has answered ``device``'s message ``seq``
        on ``feedback``. Between the two games of a match the referee starts game 2's clock once
        game 1's result is recorded (11-Man National 2017 X.A.b): the board and the clock are
        separate MQTT links, so without this wait a broker that redelivers after a gateway restart
        may hand over game 2's clock start before game 1's result. False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if any(a.get("ref") == seq and a.get("device", "board") == device for a in self.feedback):
                return True
            await asyncio.sleep(0.02)
        return False

    async def _play(self) -> None:
        s = self.script
        checkers = s.variant == "checkers"
        board = _start_position(s)
        if self.kind == "position" or "rotated" in self.faults:
            await self._board_message("position", {"placement": self._look(board.board_fen())})
        clocks = {"white": s.white_ms, "black": s.black_ms}
        loop = asyncio.get_running_loop()
        await self._clock("start", clocks, s.first_side)
        started, game_ms = loop.time(), 0
        fault_ply = min(FAULT_PLY, len(s.plies)) if s.plies else 0
        for number, ply in enumerate(s.plies, start=1):
            game_ms += ply.think_ms
            await asyncio.sleep(max(0.0, started + game_ms / 1000 / self.speed - loop.time()))
            if number == fault_ply:
                await self._one_off_faults(board, ply)
            await self._send_ply(board, ply, swap=("out_of_order" in self.faults
                                                    and number == fault_ply),
                                 fidget=(number % LIFT_EVERY == 1))
            if checkers:
                board.play(ply.uci)
            else:
                board.push_uci(ply.uci)
            clocks[ply.side] = ply.clock_ms
            await self._clock("press", clocks, "black" if ply.side == "white" else "white")
        if self._held:
            await self._flush_held()
        if s.flag in ("white", "black"):
            clocks[s.flag] = 0  # the flag fell: the clock stops itself showing 0 (a time forfeit)
            await self._clock("pause", clocks, None)
        if s.result in ("1-0", "0-1", "1/2-1/2"):
            await self._board_message("result", {"result": s.result, "reason": s.reason,
                                                 "device": "board"})
        if s.flag not in ("white", "black"):
            await self._clock("pause", clocks, None)

    async def _one_off_faults(self, board, ply: Ply) -> None:
        if "malformed" in self.faults:
            await self._publish(self.topic(self.kind), "{not json")
            await self._publish(self.topic(self.kind), json.dumps({"move": ply.uci}))
        if "illegal" in self.faults and self.kind == "move":
            if self.script.variant == "checkers":
                wrong = illegal_checkers_move(board)
            else:
                wrong = self._look_uci(_illegal_move(board))
            await self._board_message("move", {"move": wrong})
        if "disconnect" in self.faults:
            await self._drop_link()

    async def _send_ply(self, board, ply: Ply, *, swap: bool, fidget: bool) -> None:
        if self.kind == "move":
            messages = [("move", {"move": self._look_uci(ply.uci)})]
        else:
            states = passing_placements(board, chess.Move.from_uci(ply.uci))
            if fidget:
                states = lift_and_put_back(board) + states
            messages = [("position", {"placement": self._look(p)}) for p in states]
        if swap and len(messages) == 1:
            # hold this one back and send it right after the next board message (seq n+1 before n)
            self._held.append(self._make("board", *messages[0]))
            return
        for kind, body in messages:
            await self._send_board(kind, body)

    async def _board_message(self, kind: str, body: dict) -> None:
        await self._send_board(kind, body)

    async def _send_board(self, kind: str, body: dict) -> None:
        topic, payload, key = self._make("board", kind, body)
        await self._publish(topic, payload, key)
        if "duplicate" in self.faults:
            await self._publish(topic, payload, key)
        if self._held:
            await self._flush_held()

    async def _flush_held(self) -> None:
        held, self._held = self._held, []
        for topic, payload, key in held:
            await self._publish(topic, payload, key)

    def _make(self, device: str, kind: str, body: dict) -> tuple[str, str, tuple[str, int]]:
        """The next message of ``device``: ``(topic, payload, (device, seq))``, kept until the
        gateway answers it."""
        seq = self._next(device)
        message = self.topic(kind), json.dumps({"seq": seq, "game": self._game, **body}, separators=(",", ":"))
        self._history[device][seq] = message
        self.outbox.keep(device, seq, message)
        return (*message, (device, seq))

    async def _resend(self, device: str, first: int) -> None:
        """The gateway found a hole (feedback ``resend_from``): send again from ``first`` on."""
        history = self._history.get(device, {})
        for seq in sorted(s for s in history if s >= first):
            await self._publish(*history[seq], (device, seq))
            self.resent.append((device, seq))

    async def _clock(self, event: str, clocks: dict, running: str | None) -> None:
        topic, payload, key = self._make("clock", "clock", {
            "event": event, "white_ms": clocks["white"], "black_ms": clocks["black"], "running": running,
        })
        await self._publish(topic, payload, key)

    def _look(self, placement: str) -> str:
        """The placement as this board's sensors read it (turned 180° for a rotated board)."""
        if "rotated" not in self.faults:
            return placement
        return chess.BaseBoard(placement).transform(chess.flip_vertical).transform(
            chess.flip_horizontal).board_fen()

    def _look_uci(self, uci: str) -> str:
        if "rotated" not in self.faults:
            return uci
        move = chess.Move.from_uci(uci)
        return chess.Move(63 - move.from_square, 63 - move.to_square, move.promotion).uci()

    # ----- the MQTT link -----------------------------------------------------------------------

    async def _publish(self, topic: str, payload: str, key: tuple[str, int] | None = None) -> None:
        """Send one message at QoS 1; waits for the link, sends again after a failure (starting the
        link again: the link task may not have noticed). ``key``: its ``(device, seq)``, from then
        on sent again on reconnect until the gateway answers it."""
        await publish_acked(self._up, lambda: self._client, topic, payload,
                            timeout=PUBACK_TIMEOUT_S, on_failure=self._cut)
        self.sent.append((topic, payload))
        if key is not None:
            self.outbox.sent(*key)

    async def _link(self) -> None:
        backoff = 0.05
        loop = asyncio.get_running_loop()
        will = aiomqtt.Will(self.topic("status"), "offline", qos=1, retain=True)
        while True:
            delay = self._reconnect_at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                if not self._fresh:
                    await clean_start(self.host, self.port, self.client_id, self.username, self.password)
                    self._fresh = True
                async with aiomqtt.Client(
                    self.host, self.port, identifier=self.client_id, will=will, clean_session=False,
                    username=self.username, password=self.password, keepalive=10,
                ) as client:
                    no_delay(client)
                    await client.publish(self.topic("status"), "online", qos=1, retain=True,
                                         timeout=5)
                    await client.subscribe(self.topic("feedback"), qos=1, timeout=5)
                    self._client = client
                    reader = asyncio.create_task(self._read(client))  # answers arrive meanwhile
                    try:
                        await self._send_waiting(client)
                        self._up.set()
                        backoff = 0.05
                        await reader
                    finally:
                        reader.cancel()
            except aiomqtt.MqttError as exc:
                log.info("board %s: link down (%s)", self.script.board, exc)
            finally:
                self._up.clear()
                self._client = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            self._on_feedback(message.payload)

    def _on_feedback(self, payload) -> None:
        self.outbox.take(payload, self.feedback, self._resend, self._tasks)

    async def _send_waiting(self, client: aiomqtt.Client) -> None:
        """Every message published before and not answered by the gateway, again, in the order
        first sent (after a reconnect, or when the gateway has been silent: ``_retry``)."""
        for key in self.outbox.waiting():
            message = self.outbox.unconfirmed.get(key)
            if message is None:  # answered meanwhile
                continue
            await client.publish(*message, qos=1, timeout=PUBACK_TIMEOUT_S)
            self.sent.append(message)
            self.resent.append(key)

    async def _retry(self) -> None:
        """The messages waiting for the gateway's answer sent again while it is quiet
        (``devices.feedback.resend_when_quiet``)."""
        await resend_when_quiet(self.outbox, lambda: self._client, self._up, self._send_waiting, self.retry_s)

    async def _drop_link(self) -> None:
        """Cut the TCP link without DISCONNECT: the broker publishes the will ("offline")."""
        self._reconnect_at = asyncio.get_running_loop().time() + self.outage_s
        self._cut(self._client)

    def _cut(self, client: aiomqtt.Client | None) -> None:
        if client is None or client is not self._client:
            return  # an old link, already replaced: the current one is fine
        self._up.clear()
        cut_link(client)  # no public way to fail the link: devices/mqtt_adapter.py

    async def _go_offline(self) -> None:
        client = self._client
        if client is not None and self._up.is_set():
            with contextlib.suppress(Exception):
                await client.publish(self.topic("status"), "offline", qos=1, retain=True, timeout=5)


def _start_position(script: Script):
    """The position the script starts from, to follow the game: a ``CheckersGame`` for checkers
    (the rules core), else a python-chess ``Board``."""
    if script.variant == "checkers":
        from services.rules.checkers_game import CheckersGame

        return CheckersGame(fen=script.start_fen)
    return chess.Board(script.start_fen) if script.start_fen else chess.Board()


def passing_placements(board: chess.Board, move: chess.Move) -> list[str]:
    """The placements a sensing board reports while ``move`` is made, the last one stable.

    Castling: rook first, king in the hand, castled. Captures: the captured piece lifted first
    (en passant: from its own square). Other moves: the piece in the hand, then placed. Every
    passing state matches no legal move except the rook-first one (see services.protocol.placement).
    """
    states = []
    work = chess.BaseBoard(board.board_fen())
    if board.is_castling(move):
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rank = chess.square_rank(move.from_square)
        rook_from = chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        rook = work.remove_piece_at(rook_from)
        work.set_piece_at(rook_to, rook)
        states.append(work.board_fen())
        king = work.remove_piece_at(move.from_square)
        states.append(work.board_fen())
        work.set_piece_at(move.to_square, king)
    else:
        if board.is_capture(move):
            victim = move.to_square
            if board.is_en_passant(move):
                victim = chess.square(chess.square_file(move.to_square),
                                      chess.square_rank(move.from_square))
            work.remove_piece_at(victim)
            states.append(work.board_fen())
        piece = work.remove_piece_at(move.from_square)
        assert piece is not None  # a legal move moves a piece from its square
        states.append(work.board_fen())
        if move.promotion:
            piece = chess.Piece(move.promotion, piece.color)
        work.set_piece_at(move.to_square, piece)
    after = board.copy(stack=False)
    after.push(move)
    assert work.board_fen() == after.board_fen()
    states.append(work.board_fen())
    return states


def lift_and_put_back(board: chess.Board) -> list[str]:
    """A player adjusting a piece before moving: the placement without the mover's first piece
    (from a1 up), then the official placement again."""
    work = chess.BaseBoard(board.board_fen())
    square = next(iter(chess.SquareSet(board.occupied_co[board.turn])))
    work.remove_piece_at(square)
    return [work.board_fen(), board.board_fen()]


def _illegal_move(board: chess.Board) -> str:
    """A completed illegal move for the side to move: its king two squares up the board (F05 (a):
    e1e3), or sideways, whichever is not legal."""
    king = board.king(board.turn)
    assert king is not None  # a position a game reached has the mover's king
    for delta in (16, -16, 2, -2, 24, -24):
        to = king + delta
        if 0 <= to < 64 and abs(chess.square_file(to) - chess.square_file(king)) <= 2:
            move = chess.Move(king, to)
            if not board.is_legal(move):
                return move.uci()
    return chess.Move(king, king ^ 7 if king ^ 7 != king else king ^ 56).uci()
