"""A restarted ``venue serve`` carries on with the hall (issue 10 "A restart forfeits the hall").

The README's command line ("Running it at a venue") runs as a subprocess of this checkout's
``venue`` against the real Mosquitto 127.0.0.1:1883 and Redis 127.0.0.1:6379 (the README's
``redis://127.0.0.1:6379/1``), or SQLite: the preset events/us-championship-2023.toml copied with a
fresh slug, ``--round 1 --round-start now``, a free ``--port``. Devices play a few moves on two
boards over MQTT, the command is stopped mid-round with Ctrl-C (SIGINT) or killed (SIGKILL), and
started again as the README says ("Restarting it without ``--round`` carries on with the round in
the log"), or with the first command line unchanged. Then:

- the log holds one ``tournament_registered`` and one ``round_started``, and the restart appends
  nothing of its own: after it come only the new moves (and QoS 1 redeliveries of messages stored
  before a kill, acknowledged as ``message_duplicate``, docs/protocol.md);
- no ``default_forfeit``, no ``game_ended`` (the preset's 30-minute default time, US 2023 rule 1,
  counts from the ``--round-start`` recorded in ``round_started``, not from the file's 2023 date);
- the games' moves are unchanged, and the next move of each board is played (``move_played``,
  without ``seq_gap``/``message_held``: the devices' seqs are in the log).

Moves are the openings of two real games (../shared/data/chess/fide_candidates_2024_open.pgn, round
1): Caruana - Nakamura on board 1, Abasov - Nepomniachtchi on board 2.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import datetime, timedelta, timezone

import aiomqtt
import chess
import chess.pgn
import httpx
import pytest
from live_helpers import Device, candidates_moves, of, played
from venue_serve import FIRST, PASSWORD_ENV, REDIS, Serve, hall  # noqa: F401 - hall is a fixture

from services.regulations.clock_watch import GRACE_MS

pytestmark = pytest.mark.live

RESTARTS = {
    "readme": ["--round-start", "now"],   # "the same command without --round" (the words)
    "bare": [],                           # without --round and --round-start
    "same": FIRST,                        # the first command again
}


def check_time_due_findings(entries, kept: int) -> None:
    """Each ``clock_disagreement`` after the first ``kept`` entries is a ``move_without_press`` due
    by time, not said before (by the gateway before the stop, or twice after it): these devices never
    press, so the side's mismatch opened at its first move and is due ``GRACE_MS`` later, counted by
    the side's moves (``ClockWatch.tick``: said again, at once, for each later move)."""
    said = set()
    for i, e in enumerate(entries):
        if e.type != "clock_disagreement":
            continue
        key = (e.data["game"], e.data["kind"], e.data["side"], e.data["moves"])
        assert key not in said, f"said twice: {e.data}"
        said.add(key)
        if i < kept:
            continue
        assert e.data["kind"] == "move_without_press", e.data
        white = e.data["side"] == "white"
        moves = [m for m in entries[:i] if m.type == "move_played" and m.data["game"] == e.data["game"]
                 and (m.data["ply"] % 2 == 1) == white]
        assert len(moves) == e.data["moves"] and moves, e.data
        assert e.at - moves[0].at >= GRACE_MS, (e.at, moves[0].at)


async def play_stop_restart(hall, shared_data, store: str, sig: int, restart: str) -> None:
    h = hall(store)
    before_ms = int(time.time() * 1000)
    first = Serve(h.argv(*FIRST))
    one, two = candidates_moves(shared_data, 1), candidates_moves(shared_data, 2)
    try:
        await first.ready()
        assert "round 1 (6 boards) logged" in first.out()
        # US 2023 rule 1: nobody was at a board when the round began (12 players, 6 boards).
        await h.entries(lambda es: len(of(es, "player_not_at_board")) == 12)
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{h.slug}") as client:
            b1, b2 = Device(client, h.slug, "1"), Device(client, h.slug, "2")
            for uci in one[:3]:
                await b1.send("move", move=uci)
            for uci in two[:2]:
                await b2.send("move", move=uci)
            await h.entries(lambda es: len(of(es, "move_played")) == 5)
            code = await first.stop(sig)
            assert code == (0 if sig == signal.SIGINT else -signal.SIGKILL), first.err
            kept = await h.log.read()

            second = Serve(h.argv(*RESTARTS[restart]))
            try:
                await second.ready()
                out = second.out()
                assert "tournament file unchanged since it was registered: nothing appended" in out
                assert "round 1 in play since" in out and "carrying on" in out
                assert ("--round-start ignored" in out) == ("--round-start" in RESTARTS[restart])
                await b1.send("move", move=one[3])
                await b2.send("move", move=two[2])
                entries = await h.entries(lambda es: len(of(es, "move_played")) == 7)
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{h.port}") as http:
                    games = {g["id"]: g for g in (await http.get("/api/games")).json()["games"]}
            finally:
                assert await second.stop(signal.SIGINT) == 0, second.err
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
    assert entries[:len(kept)] == kept
    added = entries[len(kept):]
    # The restart itself appends nothing: only the two new moves, QoS 1 redeliveries of messages
    # stored before the stop whose acknowledgement the broker had not had (``message_duplicate``),
    # and what time alone made due meanwhile: these devices are boards without a clock, so a move
    # left unpressed past the clock model's grace is a ``move_without_press`` (FIDE Laws 6.2.1,
    # services/regulations/clock_watch.py), each said once, whenever the restart took that long.
    assert [e.type for e in added if e.type not in ("message_duplicate", "clock_disagreement")] == \
        ["move_played", "move_played"], [(e.type, e.data) for e in added]
    check_time_due_findings(entries, len(kept))
    sent_before = {"1": 3, "2": 2}
    assert all(d.data["seq"] <= sent_before[d.data["board"]] for d in of(added, "message_duplicate"))
    assert not of(entries, "default_forfeit", "game_ended", "seq_gap", "message_held")
    assert len(of(entries, "tournament_registered")) == 1 and len(of(entries, "round_started")) == 1
    [started] = of(entries, "round_started")
    assert before_ms <= started.data["start_ms"] <= started.at
    scheduled = datetime.fromisoformat("2023-10-05T13:00:00-05:00")  # the preset's round 1
    assert started.data["scheduled_start_ms"] == int(scheduled.timestamp() * 1000)
    assert played(entries, "1-1") == one[:4] and played(entries, "1-2") == two[:3]
    assert games["1-1"]["moves"] == one[:4] and games["1-2"]["moves"] == two[:3]
    assert {g["status"] for g in games.values()} == {"playing", "waiting"}


@pytest.mark.parametrize("restart", ["readme", "bare", "same"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
async def test_restart_over_redis(hall, shared_data, sig, restart):
    await play_stop_restart(hall, shared_data, REDIS, sig, restart)


@pytest.mark.parametrize("sig,restart", [(signal.SIGKILL, "readme"), (signal.SIGINT, "bare")],
                         ids=["kill-9-readme", "ctrl-c-bare"])
async def test_restart_over_sqlite(hall, shared_data, sig, restart):
    await play_stop_restart(hall, shared_data, "sqlite", sig, restart)


async def test_a_sensor_boards_passing_state_survives_kill_9(hall):
    """A sensor board (``position`` topic) sent 1.e4, then a snapshot with Black's g8 knight in the
    air (no legal move gives it: a passing state, ``placement_seen`` "passing"); the gateway is
    killed; after the restart the board's next snapshot, the knight on f6, is 1...Nf6 at once (its
    seq follows the passing snapshot's, which the log holds)."""
    h = hall(REDIS)
    board = chess.Board()
    start = board.board_fen()
    board.push_uci("e2e4")
    after_e4 = board.board_fen()
    lifted = chess.Board(board.fen())
    lifted.remove_piece_at(chess.G8)
    board.push_uci("g8f6")
    first = Serve(h.argv(*FIRST))
    try:
        await first.ready()
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{h.slug}") as client:
            b1 = Device(client, h.slug, "1")
            for placement in (start, after_e4, lifted.board_fen()):
                await b1.send("position", placement=placement)
            await h.entries(lambda es: any(e.type == "placement_seen" and e.data["reading"] == "passing" for e in es))
            assert await first.stop(signal.SIGKILL) == -signal.SIGKILL
            kept = len(await h.log.read())
            second = Serve(h.argv(*RESTARTS["readme"]))
            try:
                await second.ready()
                await b1.send("position", placement=board.board_fen())
                entries = await h.entries(lambda es: len(of(es, "move_played")) == 2, timeout=10)
            finally:
                assert await second.stop(signal.SIGINT) == 0, second.err
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
    moves = of(entries, "move_played")
    assert [(e.data["move"], e.data["san"], e.data["from"]) for e in moves] == [
        ("e2e4", "e4", "position"), ("g8f6", "Nf6", "position")]
    assert moves[1].data["seq"] == 4 and moves[1].seq > entries[kept - 1].seq
    assert not of(entries, "seq_gap", "message_held", "message_duplicate", "move_rejected")
    # at once: the first entry the restarted gateway made of the snapshot (seq 4) is its move, not a
    # message_held waiting for a missing seq (docs/protocol.md: held up to 5 s)
    of_seq4 = [e.type for e in entries[kept:] if e.data.get("board") == "1" and e.data.get("seq") == 4]
    assert "move_played" in of_seq4 and "message_held" not in of_seq4, of_seq4


async def test_default_time_after_kill_9_counts_from_the_recorded_round_start(hall):
    """US 2023 rule 1 ("Players more than 30 (thirty) minutes late for a round shall forfeit that
    round", the preset's 30-minute default time; FIDE Laws 6.7.1). ``--round-start`` puts the start
    29 min 45 s ago, so the default time runs out 15 s into the test. On board 1 White's clock is
    started and the arbiter checks Black in (``player_arrived``: a clock start alone shows nobody at
    the board, FIDE Laws 6.6, issue 29); White never comes.
    The gateway is killed and restarted without ``--round``. At the deadline board 1 is lost by
    White alone (0-1, ``default_forfeit`` side white); the boards where nobody came are lost by both
    (0-0). Counted from the file's 2023 schedule instead, Black's arrival would be late too (0-0)."""
    h = hall("sqlite")
    start = (datetime.now(timezone.utc) - timedelta(minutes=30) + timedelta(seconds=15)).replace(microsecond=0)
    round_start = ["--round", "1", "--round-start", start.isoformat(timespec="seconds")]
    first = Serve(h.argv(*round_start))
    try:
        await first.ready()
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{h.slug}") as client:
            clock = Device(client, h.slug, "1")
            await clock.send("clock", event="start", white_ms=5_400_000, black_ms=5_400_000, running="white")
            await h.entries(lambda es: any(e.type == "clock_started" for e in es))
            await h.log.append("player_arrived", {"game": "1-1", "board": "1", "side": "black", "by": "chief"})
            assert await first.stop(signal.SIGKILL) == -signal.SIGKILL
        second = Serve(h.argv())
        try:
            await second.ready()
            entries = await h.entries(lambda es: len(of(es, "game_ended")) == 6, timeout=25)
        finally:
            assert await second.stop(signal.SIGINT) == 0, second.err
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
    assert not of(entries, "presence_noted")
    [presence] = of(entries, "player_arrived")
    assert (presence.data["game"], presence.data["side"]) == ("1-1", "black")
    forfeits = {e.data["game"]: (e.data["side"], e.data["result"]) for e in of(entries, "default_forfeit")}
    assert forfeits == {"1-1": ("white", "0-1"), **{f"1-{b}": ("both", "0-0") for b in range(2, 7)}}
    ended = {e.data["game"]: (e.data["result"], e.data["termination"], e.data.get("forfeit")) for e in
             of(entries, "game_ended")}
    assert ended["1-1"] == ("0-1", "forfeit", True)
    [started] = of(entries, "round_started")
    assert started.data["start_ms"] == int(start.timestamp() * 1000)
    deadline = started.data["start_ms"] + 30 * 60_000
    assert all(e.data["deadline_ms"] == deadline and e.at > deadline for e in of(entries, "default_forfeit"))


async def test_a_changed_file_is_refused_mid_round_unless_accepted(hall):
    """The organiser edits the file mid-round (US 2023 rule 1's 30-minute default time made 15):
    the restart prints the change and exits 2 with the log untouched; with ``--accept-changes`` the
    file is registered with its ``changes`` and ``by`` "organiser", and the round carries on."""
    h = hall("sqlite")
    first = Serve(h.argv(*FIRST))
    try:
        await first.ready()
        await h.entries(lambda es: len(of(es, "player_not_at_board")) == 12)
    finally:
        assert await first.stop(signal.SIGINT) == 0, first.err
    kept = await h.log.read()
    h.file.write_text(h.file.read_text().replace('[regulations.default_time]\nclassical = "30m"',
                                                 '[regulations.default_time]\nclassical = "15m"'))
    refused = subprocess.run(h.argv(), env={**os.environ, **PASSWORD_ENV}, capture_output=True, text=True,
                             timeout=30)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines() == [
        "venue: error: the tournament file differs from the one registered, and round 1 is in play (1 change(s)):",
        "    regulations default_time_ms.classical: 30 min -> 15 min",
        "nothing was changed: put the file back as it was, or run again with --accept-changes to register "
        "these changes for the games in play"]
    assert await h.log.read() == kept
    accepted = Serve(h.argv("--accept-changes"))
    try:
        await accepted.ready()
        assert "  tournament file changed: 1 change(s) registered (--accept-changes with round 1 in play):" in \
            accepted.lines
    finally:
        assert await accepted.stop(signal.SIGINT) == 0, accepted.err
    entries = await h.log.read()
    assert [e.type for e in entries[len(kept):]] == ["tournament_registered"]
    assert entries[-1].data["by"] == "organiser"
    assert entries[-1].data["changes"] == [{"section": "regulations", "key": "default_time_ms.classical",
                                            "was": 1_800_000, "now": 900_000}]
