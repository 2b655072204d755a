"""Round 2's simulated board on round 1's kept MQTT session (issue 28's known bug: the stations of a
round reuse the client id ``venue-sim-{t}-{b}`` with ``clean_session=0``, and round 1's answers the
broker queued for that session reached round 2's station, which took them for answers to its own
messages, whose seqs start at 1 again). Round 1's answers are queued in the session first; the
station of round 2 starts afresh (a clean session once, docs/protocol.md "End-to-end
acknowledgement"), takes only round 2's answers (``"round"``) and finishes once the gateway has
answered all its messages.

The game: FIDE Candidates 2024 (open), round 1, board 1 (the first game of
../shared/data/chess/fide_candidates_2024_open.pgn), its first ``PLIES`` plies played as board 1 of
round 2 (tags only changed), on the machine's Mosquitto (a unique slug), into SQLite.
"""

from __future__ import annotations

import dataclasses
import io
import json
import uuid

import aiomqtt
import chess.pgn
import pytest
from live_helpers import log_until, running

from devices.script import scripts_from_pgn
from devices.station import SimulatedBoard
from gateway import Gateway
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn

pytestmark = pytest.mark.live
PLIES = 20
STALE = 40  # round 1's answers queued: refs 1-40 of the board and of the clock, and a resend_from


async def test_round_2s_station_ignores_round_1s_answers_queued_in_its_session(tmp_path, shared_data):
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    game = chess.pgn.read_game(stream)
    game.headers["Round"], game.headers["Board"] = "2", "1"
    pgn = str(game) + "\n"
    (script,) = scripts_from_pgn(pgn)
    script = dataclasses.replace(script, plies=script.plies[:PLIES], result="*", flag=None)
    t = f"next-{uuid.uuid4().hex[:8]}"
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", t)
    await log.append("round_started", round_from_pgn(pgn))
    station = SimulatedBoard("mqtt://127.0.0.1:1883", t, script, speed=1e6, confirm_wait_s=30)
    feedback = f"venue/{t}/boards/1/feedback"
    try:
        # round 1's station left its session; the gateway answered it meanwhile (queued, QoS 1)
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=station.client_id, clean_session=False) as old:
            await old.subscribe(feedback, qos=1)
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"round1-gw-{t}") as gw:
            for ref in range(1, STALE + 1):
                for device in ("board", "clock"):
                    await gw.publish(feedback, json.dumps({"ref": ref, "device": device, "accepted": True,
                                                           "reason": None, "fen": None, "round": "1"}), qos=1)
            await gw.publish(feedback, json.dumps({"ref": STALE, "device": "board", "accepted": True, "round": "1",
                                                   "reason": f"waiting for missing seq: send again from seq {STALE - 1}",
                                                   "resend_from": STALE - 1, "fen": None}), qos=1)
        async with running(Gateway(log, "mqtt://127.0.0.1:1883", t, client_id=f"gw-{t}")):
            await station.run()
            entries = await log_until(log, lambda es: sum(e.type == "move_played" for e in es) == PLIES, 20)
    finally:
        await log.close()
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=station.client_id, clean_session=True):
            pass  # the session forgotten (the shared broker)
    assert [e.data["move"] for e in entries if e.type == "move_played"] == [p.uci for p in script.plies]
    assert {f.get("round") for f in station.feedback} == {"2"}
    assert not station.outbox.unconfirmed and station.resent == []
    assert sum(e.type == "message_duplicate" for e in entries) == 0  # nothing sent again on round 1's word
