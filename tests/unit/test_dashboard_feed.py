"""dashboard.feed: the encoded snapshot and /api/games text (built from per-game cached JSON) are
always exactly the fold's state, and resuming gives the deltas after a seq or None when too old.
Data: round 5 of the FIDE Candidates 2024, ../shared/data/chess/fide_candidates_2024_open.pgn."""

from __future__ import annotations

import json

import pytest

from dashboard.feed import Feed
from dashboard.hub import Hub
from services.eventlog.base import Entry
from replay_entries import game_entries, round_started


@pytest.fixture(scope="module")
def entries(round5):
    items = [round_started(round5, "5", 0)]
    for i, g in enumerate(round5, start=1):
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


# --- selections of boards (/ws/live?boards=SPEC) ---------------------------------------------------

from dashboard.boardspec import parse  # noqa: E402


def test_filtered_snapshot_is_the_fold_cut_to_the_boards(entries):
    feed = Feed(None, Hub())
    for e in entries:
        feed.ingest(e)
        if e.seq % 7 == 0:
            for spec in ("3", "1,4", "2-3", "9", "1-1000"):
                boards = parse(spec)
                want = feed.view.snapshot()
                want["games"] = [g for g in want["games"] if g["board"] in boards]
                assert json.loads(feed.snapshot(boards)[1]) == want
    assert feed.snapshot(parse("3")) is feed.snapshot(parse("3"))  # cached per selection and seq


def test_a_board_client_gets_that_games_moves_from_the_pgn(entries, round5):
    hub = Hub(cap=10_000)
    feed = Feed(None, hub)
    three, everyone = hub.add(parse("3")), hub.add()
    for e in entries:
        feed.ingest(e)
    mine = [json.loads(t) for _, t in three.take()]
    alls = [json.loads(t) for _, t in everyone.take()]
    assert mine[0]["type"] == "round" and [g["board"] for g in mine[0]["games"]] == ["3"]
    assert len(alls[0]["games"]) == 4 and alls[0]["seq"] == mine[0]["seq"]
    assert {m["id"] for m in mine[1:]} == {"5-3"}
    assert mine[1:] == [m for m in alls if m.get("id") == "5-3"]
    # The moves board 3 was sent are Gukesh-Abasov's, as the PGN has them (the first 40 entries).
    ucis = [m["append"]["move"] for m in mine if "append" in m]
    pgn = [mv.uci() for mv in round5[2].mainline_moves()]
    assert round5[2].headers["White"] == "Gukesh D" and ucis and ucis == pgn[:len(ucis)]


def test_since_with_boards(entries):
    feed = Feed(None, Hub(), history=len(entries))
    for e in entries:
        feed.ingest(e)
    last = feed.view.seq
    after = last - 30
    mine = feed.since(after, parse("2"))
    assert mine == [(s, t) for s, t in feed.since(after) if json.loads(t).get("id") == "5-2"]
    assert mine and all(s > after for s, _ in mine)
    assert feed.since(last, parse("2")) == []
    assert feed.since(0, parse("2")) is None  # the round began after seq 0: a cut snapshot instead
    assert feed.since(last - 100_000, parse("2")) is None
