"""dashboard.feed: the encoded snapshot and /api/games text (built from per-game cached JSON) are
always exactly the fold's state, and resuming gives the deltas after a seq or None when too old.
Data: round 5 of the FIDE Candidates 2024, ../shared/data/chess/fide_candidates_2024_open.pgn."""

from __future__ import annotations

import json

import chess.pgn
import pytest

from dashboard.feed import Feed
from dashboard.hub import Hub
from services.eventlog.base import Entry
from services.hall.view_replay import game_entries, round_started


@pytest.fixture(scope="module")
def entries(shared_data):
    games = []
    with open(shared_data / "chess" / "fide_candidates_2024_open.pgn", encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            if g.headers["Round"] == "5":
                games.append(g)
    items = [round_started(games, "5", 0)]
    for i, g in enumerate(games, start=1):
        items += game_entries(g, f"5-{i}", str(i), 1000)[:40]
    return [Entry(i, at, t, d) for i, (t, d, at) in enumerate(sorted(items, key=lambda x: x[2]), start=1)]


def test_cached_texts_equal_the_fold(entries):
    feed = Feed(None, Hub())
    for e in entries:
        feed.ingest(e)
        if e.seq % 5 == 0:
            assert json.loads(feed.snapshot()[1]) == feed.view.snapshot()
            assert json.loads(feed.games_text()[1]) == {"round": feed.view.round, "seq": feed.view.seq,
                                                       "games": feed.view.games()}


def test_since(entries):
    feed = Feed(None, Hub(), history=20)
    for e in entries:
        feed.ingest(e)
    last = feed.view.seq
    assert [s for s, _ in feed.since(last - 5)] == list(range(last - 4, last + 1))
    assert feed.since(last) == []
    assert feed.since(last - 100) is None  # older than the 20 kept: a snapshot instead
    assert feed.since(last + 1) is None  # from another log (or a restarted one): a snapshot
