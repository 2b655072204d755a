"""The arbiters' desk pushes the hall grid (dashboard/arbiter/desk.py): the whole grid when a round
starts, then the row of each board an entry changes, and only when it changed. Entries: FIDE
Candidates 2024 (open) round 1 as tests/replay_entries.py writes them; statuses as
docs/protocol.md "Status" records them."""

from __future__ import annotations

import io
import json

import chess.pgn
from replay_entries import game_entries, round_started

from dashboard.arbiter.desk import Desk
from dashboard.feed import Feed
from dashboard.hub import Hub
from services.eventlog.base import Entry


def test_rows_are_pushed_for_the_boards_that_change(shared_data):
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    games = []
    while (g := chess.pgn.read_game(stream)) is not None and len(games) < 4:
        games.append(g)
    desk = Desk()
    feed = Feed(None, Hub(64), observers=[desk.ingest])
    desk.attach(feed.state)
    client = desk.hub.add()
    rows = [round_started(games, "1"), *game_entries(games[0], "1-1", "1", 1000, end=False)[:3],
            ("device_offline", {"board": "3", "device": "board"}, 5000),
            ("message_duplicate", {"board": "3", "device": "board", "seq": 1}, 5001)]  # the row unchanged: not sent
    for seq, (t, d, at) in enumerate(rows, start=1):
        feed.ingest(Entry(seq=seq, at=at, type=t, data=d))
    sent = [json.loads(text) for _, text in client.take()]
    assert sent[0]["type"] == "hall" and [r["board"] for r in sent[0]["hall"]] == ["1", "2", "3", "4"]
    boards = [(m["row"]["board"], m["row"]["ply"], m["row"]["device"], m["row"]["alerts"]) for m in sent
              if m["type"] == "board"]
    # board 1: the clock started, 1.e4, the press; board 3: offline, with its alert
    assert boards == [("1", 0, None, 0), ("1", 1, None, 0), ("1", 1, None, 0), ("3", 0, "offline", 1)]
    assert desk.snapshot_dict()["hall"][2]["problems"] == ["offline", "alerts"]


def test_a_round_started_is_pushed_as_an_action(shared_data):
    """A new user's finding: the console's Round tools said "next to pair: round 1" after the round
    started, until reloaded. The start is now a recorded action (who started which round), pushed live
    like the others, and the console reloads the Round tools on it (dashboard/static/arbiter.js)."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    games = [chess.pgn.read_game(stream) for _ in range(4)]
    desk = Desk()
    feed = Feed(None, Hub(64), observers=[desk.ingest])
    desk.attach(feed.state)
    client = desk.hub.add()
    _type, data, at = round_started(games, "1")
    feed.ingest(Entry(seq=1, at=at, type="round_started", data={**data, "by": "chief"}))
    feed.ingest(Entry(seq=2, at=at + 1, type="note_added", data={"text": "round 1 on time", "by": "chief"}))
    actions = [json.loads(text)["action"] for _, text in client.take() if json.loads(text)["type"] == "action"]
    assert [(a["seq"], a["type"], a.get("round"), a.get("games"), a["by"]) for a in actions] == [
        (1, "round_started", "1", 4, "chief"), (2, "note_added", None, None, "chief")]
    assert desk.snapshot_dict()["actions"] == actions
