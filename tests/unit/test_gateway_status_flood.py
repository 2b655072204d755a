"""Status messages under the rate limit (issue 28 item 4): "The status topic bypasses the rate limit
and the folding of repeats: 50,000 online/offline flips in 10 s became 50,000 log entries (+5.5 MB),
where the same flood on the move topic made 446."

The report's flood is replayed into the gateway's receiving path (``Gateway._enqueue``, where MQTT
hands each message over) on a clock the test moves: 50,000 flips over 10 s. The limits are the
gateway's documented ones (``RATE_PER_S`` sustained, ``RATE_BURST`` burst, per topic: docs/protocol.md
"Rate limit"); the board is board 1 of round 1 of the FIDE Candidates 2024 (../shared/data/chess/
fide_candidates_2024_open.pgn), as in test_gateway_faults.
"""

from __future__ import annotations

from gateway.service import RATE_BURST, RATE_PER_S, Gateway
from services.eventlog.memory import MemoryLog

SLUG = "status-flood"
FLIPS = 50_000
SECONDS = 10.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gateway() -> tuple[Gateway, Clock]:
    gw = Gateway(MemoryLog(SLUG), "mqtt://127.0.0.1:1883", SLUG)
    gw.hall.fold("round_started", {"round": "1", "event": "Candidates 2024", "site": "Toronto", "date": "2024.04.04",
                                   "games": [{"id": "1-1", "board": "1", "round": "1", "white": "Abasov, Nijat",
                                              "black": "Nepomniachtchi, Ian", "variant": "chess", "time_control": None,
                                              "fen": None, "kind": "classical"}]}, 0, 1)
    clock = Clock()
    gw._monotonic = clock
    return gw, clock


def flood(gw: Gateway, clock: Clock, kind: str, payloads: list[bytes]) -> None:
    topic = f"venue/{SLUG}/boards/1/{kind}"
    for i in range(FLIPS):
        clock.now += SECONDS / FLIPS
        gw._enqueue(None, topic, payloads[i % len(payloads)], i + 1, 1)  # type: ignore[arg-type]
        if i % 64 == 63:  # the gateway handles a slice of the queues per read
            gw._handle_inbox(None)
            gw._report_drops()
    gw._handle_inbox(None)
    gw._report_drops()


def entries(gw: Gateway) -> list[tuple[str, dict]]:
    return [(t, d) for t, d, _at in gw._pending + gw._repeats.due(0, everything=True)]


def test_fifty_thousand_status_flips_in_ten_seconds_are_rate_limited_and_the_last_word_applied():
    gw, clock = gateway()
    flood(gw, clock, "status", [b"online", b"offline"])
    written = entries(gw)
    status = [t for t, _ in written if t in ("device_online", "device_offline")]
    # At most the burst and the sustained rate over the 10 s: 400 + 50 x 10 = 900, not 50,000.
    assert len(status) <= RATE_BURST + RATE_PER_S * SECONDS
    assert len(status) >= RATE_BURST  # the burst itself is applied: a real board's status is not lost
    drops = [d for t, d in written if t == "message_rejected" and d["reason"].startswith("rate limit")]
    assert drops and all(d["board"] == "1" and d["topic"].endswith("/status") for d in drops)
    held = 1  # the flood's last refused status waits for the rate to allow it
    applied = gw.counts["messages"]  # handled (a status that changes nothing writes no entry)
    assert len(status) <= applied <= RATE_BURST + RATE_PER_S * SECONDS
    assert applied + sum(d["count"] for d in drops) + held == FLIPS  # every message accounted for
    assert gw.counts["dropped"] == sum(d["count"] for d in drops)
    # The flood's last message (flip 50,000: "offline") is what the board shows once the rate allows it.
    clock.now += 1.0
    gw._release_statuses()
    gw._handle_inbox(None)
    assert gw.hall.state.boards["1"].status == "device_offline"
    assert not gw._held_status
    # Each message is acknowledged once: dropped ones at once, the held one once applied.
    assert len(gw._acks) == FLIPS and sorted(mid for _c, mid, _q in gw._acks) == list(range(1, FLIPS + 1))


def test_the_same_flood_on_the_move_topic_is_limited_alike():
    """The move topic's behaviour the report compares with: the limit is the same for both."""
    gw, clock = gateway()
    flood(gw, clock, "move", [b'{"seq": 1, "move": "e2e4"}', b"not json"])
    dropped = gw.counts["dropped"]
    assert FLIPS - dropped <= RATE_BURST + RATE_PER_S * SECONDS


def test_a_board_going_offline_and_back_once_is_recorded_at_once():
    """A real board's status (one change now and then) is never held: both changes are entries."""
    gw, clock = gateway()
    topic = f"venue/{SLUG}/boards/1/status"
    for i, payload in enumerate((b"online", b"offline", b"online")):
        clock.now += 5.0
        gw._enqueue(None, topic, payload, i + 1, 1)  # type: ignore[arg-type]
        gw._handle_inbox(None)
    assert [t for t, _ in entries(gw)] == ["device_online", "device_offline", "device_online"]
    assert not gw._held_status and gw.counts["dropped"] == 0
