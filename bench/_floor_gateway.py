"""The floor: the least a Python gateway does per ply, to set the product's CPU per ply beside.

``bench_gateway.py --baseline floor`` runs this instead of another tree's gateway, on the same load,
the same broker, the same Redis and the same event log code. Per move message it does only what a
move's record and answer cannot do without, with the same libraries as the product:

- MQTT in and out with the product's client (``gateway.mqtt_client``: QoS 1, PUBACK after store);
- the move read (``json.loads``), checked legal and written in SAN by python-chess
  (``Board.san`` then ``push``), the FEN after it (``Board.fen``);
- one ``move_played`` entry a move (game, ply, move, SAN, FEN, board, device, seq), appended with the
  product's Redis log (``append_many``, one call per 10 ms under load as the product does);
- the feedback (QoS 1) with the FEN.

Not done (what the product adds): the seq order (duplicates, holes), the fold of every entry into
the hall's state, draw claims and automatic ends, clocks, the regulations and their timer, the rate
limit, following the log for others' entries, coalescing, restarts. The floor is no gateway: it
refuses nothing but an illegal move, and loses what it does not understand.

What-ifs, to say what each part of the floor costs (``FLOOR_WHATIF``, comma-separated): ``nochess``
(no python-chess: the move is recorded as sent, no SAN, no FEN), ``nostore`` (nothing appended; the
PUBACKs still wait for the flush), ``nofeedback`` (no feedback published), ``batchread`` (the MQTT
socket read once per flush: reading paused after each read until the next flush).
"""

from __future__ import annotations

import asyncio
import json
import os
import time

import chess
import msgspec

from gateway.mqtt_client import MqttClient
from services.protocol.mqtt_url import parse_mqtt_url

FLUSH_EVERY_S = 0.010  # as gateway/service.py
WHATIF = set(filter(None, os.environ.get("FLOOR_WHATIF", "").split(",")))


class FloorGateway:
    """``FloorGateway(log, mqtt_url, slug, client_id)``; ``await run()`` until cancelled. ``ready``
    once subscribed; ``counts`` as the product's (messages, entries)."""

    def __init__(self, log, mqtt_url: str, slug: str, client_id: str):
        target = parse_mqtt_url(mqtt_url)
        self.log, self.slug, self.client_id = log, slug, client_id
        self.host, self.port = target.host, target.port
        self.ready = asyncio.Event()
        self.counts = {"messages": 0, "entries": 0}
        self.games: dict[str, tuple[str, chess.Board]] = {}
        self._pending: list[tuple[str, dict, int]] = []
        self._acks: list[int] = []
        self._feedback: list[tuple[bytes, bytes]] = []
        self._wake = asyncio.Event()
        self._client: MqttClient | None = None
        self._paused = False

    async def run(self) -> None:
        for entry in await self.log.read():
            if entry.type == "round_started":
                for g in entry.data["games"]:
                    self.games[g["board"]] = (g["id"], chess.Board(g.get("fen") or chess.STARTING_FEN))
        client = self._client = MqttClient(self.host, self.port, self.client_id, clean_session=False,
                                           keepalive=5, max_inflight=1000)
        client.on_message = self._on_message
        if "batchread" in WHATIF:
            client.on_read = self._pause
        flusher = asyncio.create_task(self._flush_loop())
        try:
            async with client:
                await client.subscribe([(f"venue/{self.slug}/boards/+/move", 1)])
                self.ready.set()
                await client.wait_closed()
        finally:
            flusher.cancel()

    def _pause(self) -> None:
        transport = self._client._transport if self._client is not None else None  # noqa: SLF001 - what-if
        if transport is not None:
            transport.pause_reading()
            self._paused = True

    def _on_message(self, topic: str, payload: bytes, mid: int, qos: int) -> None:
        self.counts["messages"] += 1
        board = topic.split("/")[3]
        body = json.loads(payload)
        gid, position = self.games[board]
        answer = {"ref": body["seq"], "device": "board", "accepted": True, "reason": None, "fen": None}
        if "nochess" in WHATIF:
            self._pending.append(("move_played", {
                "game": gid, "ply": body["seq"], "move": body["move"], "san": body["move"], "fen": "",
                "board": board, "device": "board", "seq": body["seq"]}, int(time.time() * 1000)))
        else:
            try:
                move = chess.Move.from_uci(body["move"])
                if not position.is_legal(move):
                    raise ValueError("illegal")
            except ValueError:
                answer["accepted"], answer["reason"] = False, "illegal move"
            else:
                san = position.san(move)
                position.push(move)
                fen = answer["fen"] = position.fen()
                self._pending.append(("move_played", {
                    "game": gid, "ply": position.ply(), "move": move.uci(), "san": san, "fen": fen,
                    "board": board, "device": "board", "seq": body["seq"]}, int(time.time() * 1000)))
        self._acks.append(mid)
        self._feedback.append((f"venue/{self.slug}/boards/{board}/feedback".encode(), msgspec.json.encode(answer)))
        self._wake.set()

    async def _flush_loop(self) -> None:
        loop = asyncio.get_running_loop()
        flushed = 0.0
        while True:
            if not self._acks:
                self._wake.clear()
                await self._wake.wait()
                continue
            wait = flushed + FLUSH_EVERY_S - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            flushed = loop.time()
            if self._paused and self._client is not None and self._client._transport is not None:  # noqa: SLF001
                self._paused = False
                self._client._transport.resume_reading()  # noqa: SLF001 - what-if batchread
            batch, acks, feedback = self._pending, self._acks, self._feedback
            self._pending, self._acks, self._feedback = [], [], []
            if batch and "nostore" not in WHATIF:
                await self.log.append_many(batch)
                self.counts["entries"] += len(batch)
            client = self._client
            if client is not None:
                for mid in acks:
                    client.ack(mid)
                for topic, payload in feedback:
                    if "nofeedback" not in WHATIF:
                        client.publish(topic, payload, 1)
                client.flush()
