"""A hall split across gateway shards by board range (gateway.hall ``boards``, gateway.service,
``venue gateway --boards``): the shards together write what one gateway writes, board by board.

Sources: the games are the first four of the FIDE Candidates 2024 (open) in ../shared/data (every
move legal, so each is one ``move_played``); the seq gap is DESIGN.md "Device protocol" (a hold
expires into ``seq_gap``); the client ids and the one-gateway-per-session rule are docs/protocol.md
"Transport" and deploy/SCALE-OUT.md.
"""

from __future__ import annotations

import json

import chess.pgn
import pytest
from hall_driver import T, round_started

from gateway.hall import Hall
from gateway.payload import topic_filters
from services.arbiter_office.boardspec import parse

BOARDS = ("1", "2", "3", "4")


def _games(shared_data, n: int = 4, plies: int = 30) -> dict[str, list[str]]:
    out = {}
    with open(shared_data / "chess" / "fide_candidates_2024_open.pgn", encoding="utf-8-sig") as handle:
        for board in BOARDS[:n]:
            game = chess.pgn.read_game(handle)
            out[board] = [m.uci() for m in game.mainline_moves()][:plies]
    return out


class Log:
    """The one log the shards append to; each shard folds the others' entries as its follower does
    (``Hall.external``), its own it folded when it decided them."""

    def __init__(self, *halls: Hall):
        self.halls = halls
        self.entries: list[tuple[Hall | None, str, dict]] = []

    def append(self, writer: Hall | None, step, now: int) -> None:
        for type_, data in step.entries:
            data = json.loads(json.dumps(data))  # as stored
            self.entries.append((writer, type_, data))
            for hall in self.halls:
                if hall is not writer:
                    self.append(hall, hall.external(type_, data, now, len(self.entries), now), now)


def _message(board: str, seq: int, uci: str) -> tuple[str, bytes]:
    return f"venue/{T}/boards/{board}/move", json.dumps({"seq": seq, "move": uci}).encode()


def _per_board(entries) -> dict[str, list[tuple[str, dict]]]:
    out: dict[str, list] = {}
    for _writer, type_, data in entries:
        out.setdefault(data.get("board") or data.get("game", "").split("-")[-1], []).append((type_, data))
    return out


def test_two_shards_write_what_one_gateway_writes(shared_data):
    games = _games(shared_data)
    setup = round_started(*BOARDS)
    one = Hall(T)
    one.fold("round_started", setup)
    a, b = Hall(T, boards=parse("1-2")), Hall(T, boards=parse("3-4"))
    for hall in (a, b):
        hall.fold("round_started", setup)
    single, sharded = Log(one), Log(a, b)
    now = 0
    for ply in range(1, 31):
        for board in BOARDS:
            now += 7
            topic, payload = _message(board, ply, games[board][ply - 1])
            single.append(one, one.handle(topic, payload, now), now)
            shard = a if board in ("1", "2") else b
            sharded.append(shard, shard.handle(topic, payload, now), now)
        if ply % 10 == 0:
            now += 200
            for hall, log in ((one, single), (a, sharded), (b, sharded)):
                log.append(hall, hall.tick(now), now)
    assert _per_board(sharded.entries) == _per_board(single.entries)
    assert {w for w, t, d in sharded.entries if d["board"] in ("3", "4")} == {b}  # each board by its shard
    for hall in (a, b):  # every shard folded the whole log: the same games as the one gateway
        assert {g: s.moves for g, s in hall.state.games.items()} == {g: s.moves for g, s in one.state.games.items()}
        assert [hall.state.games[f"1-{x}"].fen for x in BOARDS] == [one.state.games[f"1-{x}"].fen for x in BOARDS]


def test_a_shard_ends_a_held_gap_for_its_boards_only():
    """A seq that skips one is held; when the hold expires the timer records ``seq_gap`` and applies
    it (DESIGN.md "Device protocol"): on the shard that has the board, not on the other one."""
    setup = round_started(*BOARDS)
    a, b = Hall(T, hold_ms=1000, boards=parse("1-2")), Hall(T, hold_ms=1000, boards=parse("3-4"))
    for hall in (a, b):
        hall.fold("round_started", setup)
    log = Log(a, b)
    log.append(b, b.handle(*_message("3", 2, "e2e4"), 10), 10)
    assert [t for _w, t, _d in log.entries] == ["message_held"]
    log.append(a, a.tick(2000), 2000)
    assert [t for _w, t, _d in log.entries] == ["message_held"]
    log.append(b, b.tick(2000), 2000)
    assert [t for _w, t, _d in log.entries][1:3] == ["seq_gap", "move_played"]
    assert a.state.games["1-3"].moves == b.state.games["1-3"].moves == ["e2e4"]


def test_ownership_and_the_lead():
    a, b = Hall(T, boards=parse("1-2")), Hall(T, boards=parse("3-4"))
    one = Hall(T)
    assert a.lead and not b.lead and one.lead
    assert a.mine("2") and not a.mine("3") and b.mine("3") and one.mine("3")
    assert a.mine(None) and not b.mine(None)  # an entry about no board: the lead's


def test_a_shard_subscribes_to_its_boards_only():
    filters = topic_filters(T, parse("3-4"))
    assert len(filters) == 10 and f"venue/{T}/boards/3/move" in filters
    assert not any("/+/" in f or f.endswith("/feedback") or "/1/" in f for f in filters)


def test_shard_client_ids_and_stores(tmp_path):
    """Two shards are two MQTT sessions (no takeover); one range run twice is one session (the
    second gives way); the SQLite log is refused for a shard."""
    from gateway import Gateway
    from services.eventlog import open_log
    from services.eventlog.memory import MemoryLog

    mem = MemoryLog(T)
    ids = {Gateway(mem, "mqtt://127.0.0.1:1", T, boards=spec).client_id for spec in ("1-500", "501-1000", "1-500")}
    assert ids == {f"venue-gateway-{T}-boards-1-500", f"venue-gateway-{T}-boards-501-1000"}
    assert Gateway(mem, "mqtt://127.0.0.1:1", T).client_id == f"venue-gateway-{T}"
    with pytest.raises(ValueError, match="needs the Redis event log"):
        Gateway(open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", T), "mqtt://127.0.0.1:1", T, boards="1-2")


def test_cli_boards_refusals():
    from venue.serve import CliError, shard_of

    assert shard_of(None, "sqlite:///x") is None
    assert shard_of("1-3", "redis://127.0.0.1:6379/0").spec == "1-3"
    with pytest.raises(CliError, match="Redis store"):
        shard_of("1-3", "sqlite:///x.sqlite")
    with pytest.raises(CliError, match="--boards: boards: range 5-2 is backwards"):
        shard_of("5-2", "redis://127.0.0.1:6379/0")
