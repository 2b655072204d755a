"""A LiveChess-shaped websocket server for the bridge's tests, and real games as e-board events.

``FakeLiveChess`` answers the calls of DGT LiveChess's local API the way its public clients read it
(lichess-org/lila ``ui/dgt``, herohde/livechess-go, luno1977/dgt; devices/livechess/api.py has the
shapes): ``eboards`` lists the e-boards, ``subscribe`` to an ``eboardevent`` feed is answered with the
call's id, then at once a feed message with the board's state, then one per change, all with the
*feed's* id, ``board`` and ``clock`` left out when unchanged. Tests change a board (``change``),
repeat its last event (``repeat``), make it stop responding or give it any state (``set_state``),
flip it in LiveChess (``flip``), or cut every connection (``drop``) and refuse new ones for a while
or until ``accept``.

LiveChess's reading of the game comes with every message that has a board (``reading``; in the
subscription's first message too unless ``reading_in_first`` is False, as herohde/livechess-go's
printed first message has none): ``start`` (the FEN it reads from: the standard start, from each time
the board shows it), ``san`` (every move read since: a placement one legal move on adds it; one legal
move on from the position before the last move replaces the last, as LiveChess does with a castling
begun with the rook or a piece in the air), ``match`` (the board shows the position after them). This
LiveChess always reads the game right: it knows how the board stands (``rotated``).

A board's ``board`` field: ``frame`` "sensors" (default: the sensors' reading, whatever ``flipped``
says) or "game" (turned 180 degrees while ``flipped``: LiveChess reports the game's squares). DGT's
documents say only "current position on the board" and "true if the board is flipped": the bridge
must work with either.

``game_events(script)`` turns a real game (``devices.script.Script``, from PGN with ``%clk``) into
what a DGT board and clock report while it is played: the start position, the clock started for
White, then for each ply the placements a hand makes (``devices.station.passing_placements``: the
captured piece lifted first, castling's rook first) and the press with the ``%clk`` figures (whole
seconds, as LiveChess reports them); every tenth ply starts with a piece lifted and put back. The
game's end: the clock stopped, and for a decided game the arbiter's result signal (F07: both kings
on the centre squares, d5 + e4 for 1-0, d4 + e5 for 0-1, one of each for a draw).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time

import chess
import websockets

from devices.script import Script
from services.protocol.placement import MOVE, infer_move
from devices.station import lift_and_put_back, passing_placements

SIGNAL = {"1-0": ("e4", "d5"), "0-1": ("e5", "d4"), "1/2-1/2": ("e4", "d4")}  # (white king, black king)


def rotate(placement: str) -> str:
    """The placement of a board turned 180 degrees (F06)."""
    return chess.BaseBoard(placement).transform(chess.flip_vertical).transform(chess.flip_horizontal).board_fen()


def clock(white_ms: int, black_ms: int, running: str | None) -> dict:
    """A LiveChess clock object: seconds, ``run`` true for White's time running, false for Black's."""
    return {"white": white_ms // 1000, "black": black_ms // 1000,
            "run": None if running is None else running == "white", "time": int(time.time() * 1000)}


def result_signal(placement: str, result: str) -> str:
    """``placement`` with both kings moved onto the centre squares that signal ``result`` (F07)."""
    board = chess.BaseBoard(placement)
    for color in (chess.WHITE, chess.BLACK):
        for sq in board.pieces(chess.KING, color):
            board.remove_piece_at(sq)
    wk, bk = SIGNAL[result]
    board.set_piece_at(chess.parse_square(wk), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.parse_square(bk), chess.Piece(chess.KING, chess.BLACK))
    return board.board_fen()


def game_events(script: Script, *, rotated: bool = False, signal: bool = True) -> list[dict]:
    """The e-board changes of ``script`` in order: each ``{"board": PLACEMENT}`` or ``{"clock": CLOCK}``."""
    look = rotate if rotated else (lambda p: p)
    board = chess.Board()
    times = {"white": script.white_ms, "black": script.black_ms}
    out: list[dict] = [{"board": look(board.board_fen())}, {"clock": clock(times["white"], times["black"], None)},
                       {"clock": clock(times["white"], times["black"], "white")}]
    for number, ply in enumerate(script.plies, start=1):
        move = chess.Move.from_uci(ply.uci)
        states = passing_placements(board, move)
        if number % 10 == 0:
            states = lift_and_put_back(board) + states
        out += [{"board": look(p)} for p in states]
        board.push(move)
        times[ply.side] = ply.clock_ms
        out.append({"clock": clock(times["white"], times["black"], "black" if ply.side == "white" else "white")})
    out.append({"clock": clock(times["white"], times["black"], None)})
    if signal and script.result in SIGNAL and not board.is_game_over():
        out.append({"board": look(result_signal(board.board_fen(), script.result))})
    return out


def _one_move(position: chess.Board, placement: str) -> chess.Move | None:
    """The legal move from ``position`` that gives ``placement``, or None (services.protocol.placement's
    reading: LiveChess reads moves as any placement board does)."""
    guess = infer_move(position, placement)
    return chess.Move.from_uci(guess.move) if guess.kind == MOVE and guess.move else None


class FakeLiveChess:
    """A LiveChess-shaped server on 127.0.0.1 (a free port). ``url`` once started; ``calls`` every
    call received; ``connections`` how many clients ever connected."""

    def __init__(self, *, reading: bool = True, reading_in_first: bool = True):
        self.boards: dict[str, dict] = {}
        self.calls: list[dict] = []
        self.connections = 0
        self.url = ""
        self.reading, self.reading_in_first = reading, reading_in_first
        self._subs: list[tuple[object, int, str]] = []  # (websocket, feed id, serial)
        self._last: dict[str, dict] = {}
        self._server = None
        self._refuse_until = 0.0
        self._sensors: dict[str, str | None] = {}  # what each board's sensors read
        self._rotated: dict[str, bool] = {}
        self._frame: dict[str, str] = {}
        self._games: dict[str, tuple[chess.Board, list[str]]] = {}  # LiveChess's reading: position, SAN

    def add_board(self, serial: str, placement: str | None = None, *, state: str = "ACTIVE",
                  battery: str | None = "87%", flipped: bool = False, rotated: bool | None = None,
                  frame: str = "sensors") -> None:
        """An e-board LiveChess knows (no clock yet). ``placement``: what its sensors read;
        ``rotated``: the board stands turned 180 degrees (default: its placement is the start turned
        round); ``flipped``: LiveChess's setting; ``frame``: how LiveChess reports ``board``."""
        self.boards[serial] = {"serialnr": serial, "source": f"usb-{serial}", "state": state, "battery": battery,
                               "comment": None, "board": None, "flipped": flipped, "clock": None}
        self._rotated[serial] = placement == rotate(chess.STARTING_BOARD_FEN) if rotated is None else rotated
        self._frame[serial] = frame
        self._games[serial] = (chess.Board(), [])
        self._sense(serial, placement)

    def _sense(self, serial: str, placement: str | None) -> None:
        """The sensors read ``placement``: LiveChess's reading of the game and its ``board``."""
        b = self.boards[serial]
        self._sensors[serial] = placement
        if placement is not None:
            seen = rotate(placement) if self._rotated[serial] else placement
            position, san = self._games[serial]
            if seen == chess.STARTING_BOARD_FEN:
                self._games[serial] = (chess.Board(), [])
            elif (move := _one_move(position, seen)) is not None:
                san.append(position.san(move))
                position.push(move)
            elif position.move_stack:
                last = position.pop()
                move = _one_move(position, seen)
                if move is not None:
                    san[-1] = position.san(move)
                    last = move
                position.push(last)
        b["board"] = self._reported(serial)

    def _reported(self, serial: str) -> str | None:
        placement = self._sensors[serial]
        if placement is not None and self._frame[serial] == "game" and self.boards[serial]["flipped"]:
            return rotate(placement)
        return placement

    def game_reading(self, serial: str) -> dict:
        """LiveChess's reading of the board's game: ``{"start", "san", "match"}``."""
        position, san = self._games[serial]
        start = chess.STARTING_FEN
        seen = self._sensors[serial]
        if seen is not None and self._rotated[serial]:
            seen = rotate(seen)
        return {"start": start, "san": list(san), "match": seen == position.board_fen()}

    async def __aenter__(self) -> "FakeLiveChess":
        self._server = await websockets.serve(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}/api/v1.0"
        return self

    async def __aexit__(self, *exc) -> None:
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, ws) -> None:
        if time.monotonic() < self._refuse_until:
            await ws.close(code=1013, reason="try again later")
            return
        self.connections += 1
        try:
            async for text in ws:
                call = json.loads(text)
                self.calls.append(call)
                await self._answer(ws, call)
        except websockets.ConnectionClosed:
            pass
        finally:
            self._subs = [s for s in self._subs if s[0] is not ws]

    async def _answer(self, ws, call: dict) -> None:
        now = int(time.time() * 1000)
        if call.get("call") == "eboards":
            await ws.send(json.dumps({"response": "call", "id": call["id"],
                                      "param": list(self.boards.values()), "time": now}))
        elif call.get("call") == "subscribe":
            p = call["param"]
            serial = p["param"]["serialnr"]
            if serial not in self.boards:
                await ws.send(json.dumps({"response": "error", "id": call["id"],
                                          "param": {"message": f"unknown eboard {serial}"}, "time": now}))
                return
            await ws.send(json.dumps({"response": "call", "id": call["id"], "param": None, "time": now}))
            self._subs.append((ws, p["id"], serial))
            b = self.boards[serial]
            first = {"serialnr": serial, "flipped": b["flipped"], "board": b["board"], "clock": b["clock"]}
            if self.reading and self.reading_in_first and b["board"] is not None:
                first.update(self.game_reading(serial))
            await self._push_one(ws, p["id"], first)
        else:
            await ws.send(json.dumps({"response": "error", "id": call.get("id", 0),
                                      "param": {"message": f"unknown call {call.get('call')!r}"}, "time": now}))

    @staticmethod
    async def _push_one(ws, feed: int, param: dict) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"response": "feed", "id": feed, "param": param,
                                      "time": int(time.time() * 1000)}))

    async def change(self, serial: str, change: dict) -> None:
        """Apply ``{"board": ...}`` (what the sensors read) and/or ``{"clock": ...}`` to the board
        and send the event to its subscribers (only the changed fields, as LiveChess does, with its
        reading of the game when the board changed)."""
        b = self.boards[serial]
        param = {"serialnr": serial, "flipped": b["flipped"]}
        if "board" in change:
            self._sense(serial, change["board"])
            param["board"] = b["board"]
            if self.reading:
                param.update(self.game_reading(serial))
        if "clock" in change:
            b["clock"] = param["clock"] = change["clock"]
        await self._send(serial, param)

    async def flip(self, serial: str, flipped: bool) -> None:
        """The operator flips the board in LiveChess: ``flipped`` changes (and ``board`` turns round
        when LiveChess reports the game's squares), an event says so."""
        b = self.boards[serial]
        b["flipped"] = flipped
        b["board"] = self._reported(serial)
        param = {"serialnr": serial, "flipped": flipped, "board": b["board"]}
        if self.reading:
            param.update(self.game_reading(serial))
        await self._send(serial, param)

    async def _send(self, serial: str, param: dict) -> None:
        self._last[serial] = param
        for ws, feed, s in list(self._subs):
            if s == serial:
                await self._push_one(ws, feed, param)

    async def repeat(self, serial: str) -> None:
        """Send the board's last event again (a duplicate)."""
        for ws, feed, s in list(self._subs):
            if s == serial:
                await self._push_one(ws, feed, self._last[serial])

    def set_state(self, serial: str, state: object) -> None:
        """The board's state as the next ``eboards`` answer gives it (``NOTRESPONDING``, ``ACTIVE``,
        or anything else)."""
        self.boards[serial]["state"] = state

    async def drop(self, refuse_s: float = 0.0) -> None:
        """Close every client connection; refuse new ones for ``refuse_s`` seconds (``math.inf``:
        until ``accept``)."""
        self._refuse_until = time.monotonic() + refuse_s if refuse_s != math.inf else math.inf
        for ws in {s[0] for s in self._subs}:
            await ws.close()

    def accept(self) -> None:
        """Take connections again."""
        self._refuse_until = 0.0

    async def play(self, serial: str, events: list[dict], pause_s: float = 0.0) -> None:
        """Send ``events`` (from ``game_events``) one after the other."""
        for change in events:
            await self.change(serial, change)
            if pause_s:
                await asyncio.sleep(pause_s)
