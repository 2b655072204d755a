"""The polled PGN feed as lichess's relay and chess.com read it (issue 13 "Polled PGN"):
``Round "R.B"``, ``Board``, ``GameId``, the players' FIDE IDs, titles and teams from the tournament
file, ``TimeControl``, ``%clk`` on every move, ``ETag``/``Last-Modified`` and ``304``; and, with
lichess's matching rules as a model (tests/lichess_relay.py, after lila's ``modules/relay``), each
game keeps its moves with its players when two boards' tags are swapped or a name is corrected
mid-round.

The event: tests/broadcast_helpers.py (the Keres Memorial sample's players: names, ratings, FIDE
IDs and titles from ../shared/data/chess/quirks/demoLiveGames.pgn; player 1's team is the file's);
the boards play Candidates 2024 round 5 games.
"""

from __future__ import annotations

import asyncio
import io

import anyio
import chess.pgn
import pytest
from starlette.testclient import TestClient

from broadcast_helpers import T0, candidates_round5, keres_players, registration_entries, tournament_text
from dashboard.app import create_app
from lichess_relay import Study
from replay_entries import game_entries
from services.eventlog.memory import MemoryLog
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament

TEAMS = {1: "Estonia"}


def games_of(text: str) -> list[tuple[dict, list[str]]]:
    stream, out = io.StringIO(text), []
    while (g := chess.pgn.read_game(stream)) is not None:
        assert not g.errors
        out.append((dict(g.headers), [m.uci() for m in g.mainline_moves()]))
    return out


@pytest.fixture
def hall(shared_data):
    players = keres_players(shared_data)
    text = tournament_text(players, teams=TEAMS)
    rnd = candidates_round5(shared_data)
    items = registration_entries(text, T0)
    for board, g in ((1, rnd[0]), (2, rnd[1])):
        items += game_entries(g, f"1-{board}", str(board), T0 + 1000, end=False)[: 1 + 2 * 6]
    log = MemoryLog("keres-rapid")
    asyncio.run(log.append_many(items))
    with TestClient(create_app(log)) as client:
        for _ in range(300):
            if client.get("/api/health").json()["caught_up"]:
                break
            client.portal.call(anyio.sleep, 0.01)
        yield client, log, players, text


def append(client, log, items) -> None:
    seq = client.portal.call(log.append_many, items)[-1].seq
    for _ in range(300):
        if client.get("/api/health").json()["seq"] >= seq:
            return
        client.portal.call(anyio.sleep, 0.01)
    raise AssertionError("the feed did not fold the new entries")


def test_the_round_feed_has_what_lichess_reads(hall):
    client, _, players, _ = hall
    (w1, m1), (w2, _) = games_of(client.get("/api/round.pgn").text)
    assert (w1["Round"], w1["Board"], w1["GameId"]) == ("1.1", "1", "1-1")
    assert (w2["Round"], w2["Board"], w2["GameId"]) == ("1.2", "2", "1-2")
    # Berger round 1: 1-4 and 2-3 (FIDE C.05 Annex 1); details from the sample's tags
    assert (w1["White"], w1["WhiteFideId"], w1["WhiteTitle"]) == ("Ehlvest, Jaan", "4500016", "GM")
    assert (w1["Black"], w1["BlackFideId"], w1["BlackTitle"]) == ("Smirnov, Artem", "4143256", "IM")
    assert w1["WhiteTeam"] == "Estonia" and "BlackTeam" not in w1
    assert w1["TimeControl"] == "900+10" and w1["Event"] == "Keres Rapid" and w1["Site"] == "Tallinn EST"
    game = chess.pgn.read_game(io.StringIO(client.get("/api/games/1-1.pgn").text))
    assert all(node.clock() is not None for node in game.mainline())  # %clk on every move
    assert len(m1) == 6


def test_cheap_polling_etag_last_modified_and_304(hall, shared_data):
    client, log, _, _ = hall
    first = client.get("/api/round.pgn")
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert client.get("/api/round.pgn", headers={"If-None-Match": etag}).status_code == 304
    assert client.get("/api/round.pgn", headers={"If-Modified-Since": modified}).status_code == 304
    again = client.get("/api/round.pgn", headers={"If-None-Match": '"something else"'})
    assert again.status_code == 200 and again.text == first.text
    game = client.get("/api/games/1-1.pgn")
    assert client.get("/api/games/1-1.pgn", headers={"If-None-Match": game.headers["etag"]}).status_code == 304
    rnd = candidates_round5(shared_data)
    nxt = game_entries(rnd[0], "1-1", "1", T0 + 1000, end=False)[13:15]  # board 1's 7th ply and its press
    append(client, log, nxt)
    changed = client.get("/api/round.pgn", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    # board 2 did not change: its own feed still answers 304
    b2 = client.get("/api/games/1-2.pgn")
    assert client.get("/api/games/1-2.pgn", headers={"If-None-Match": b2.headers["etag"]}).status_code == 304


@pytest.mark.parametrize("older", [False, True], ids=["lila-gameid", "lila-older-rule"])
def test_swapped_board_tags_keep_each_games_moves_with_its_players(hall, older):
    """The organiser swaps boards 1 and 2 between two polls (their Board and Round tags change
    places): every chapter still holds its own players' moves, and no chapter is added."""
    client, log, _, _ = hall
    study = Study(older=older)
    study.update(games_of(client.get("/api/round.pgn").text))
    by_players = {(c["tags"]["White"], c["tags"]["Black"]): list(c["moves"]) for c in study.chapters}
    polled = games_of(client.get("/api/round.pgn").text)
    (t1, m1), (t2, m2) = polled
    swap = {k: t2[k] for k in ("Board", "Round")}, {k: t1[k] for k in ("Board", "Round")}
    study.update([({**t1, **swap[0]}, m1), ({**t2, **swap[1]}, m2)])
    assert len(study.chapters) == 2
    assert {(c["tags"]["White"], c["tags"]["Black"]): c["moves"] for c in study.chapters} == by_players


def test_a_name_corrected_mid_round_keeps_the_games_moves(hall):
    """The organiser corrects "Smirnov, Artem" to "Smirnov, Artyom" in the tournament file and
    registers it during the round (README "A changed file", --accept-changes): the next poll names
    him so, and lichess's relay keeps board 1's moves in its chapter (by GameId, and by FIDE IDs)."""
    client, log, _, text = hall
    study, older = Study(), Study(older=True)
    polled = games_of(client.get("/api/round.pgn").text)
    study.update(polled)
    older.update(polled)
    fixed = load_tournament(text.replace("Smirnov, Artem", "Smirnov, Artyom"))
    data = {**tournament_registered_data(fixed), "by": "organiser",
            "changes": [{"setting": "players", "was": "Smirnov, Artem", "now": "Smirnov, Artyom"}]}
    append(client, log, [("tournament_registered", data, T0 + 600_000)])
    assert client.get("/api/games/1-1").json()["black"] == "Smirnov, Artyom"
    again = games_of(client.get("/api/round.pgn").text)
    assert again[0][0]["Black"] == "Smirnov, Artyom" and again[0][1] == polled[0][1]
    for s in (study, older):
        s.update(again)
        assert len(s.chapters) == 2
        assert s.chapters[0]["tags"]["Black"] == "Smirnov, Artyom" and s.chapters[0]["moves"] == polled[0][1]


def test_a_rating_corrected_mid_round_reaches_the_game_in_play(hall):
    """A new user's finding: a rating changed with --accept-changes reached the standings but not
    the game in play (its ``white_elo`` stayed, its PGN had no WhiteElo); README "A changed file":
    "the changes then apply to the games in play too". The corrected figure is the test's own."""
    import dataclasses

    client, log, _, text = hall
    t = load_tournament(text)
    game = client.get("/api/games/1-1").json()
    white = next(p for p in t.players if p.name == game["white"])
    corrected = white.rating + 7 if white.rating else 2700
    fixed = dataclasses.replace(t, players=tuple(dataclasses.replace(p, rating=corrected) if p is white else p
                                                 for p in t.players))
    data = {**tournament_registered_data(fixed), "by": "organiser",
            "changes": [{"setting": "players", "was": str(white.rating), "now": str(corrected)}]}
    append(client, log, [("tournament_registered", data, T0 + 600_000)])
    assert client.get("/api/games/1-1").json()["white_elo"] == corrected
    [(tags, _moves)] = games_of(client.get("/api/games/1-1.pgn").text)
    assert tags["WhiteElo"] == str(corrected)
