"""Issue 27 item 6: the friction a new user met, one test each (the CSS/phone-layout items aside).

Sources: the issue's list; README ("One gateway per board"); events/us-championship-2013.toml and
events/checkers-11-man-national-2017.toml (a checkers match is two games: 11-Man National 2017 X.A);
the FIDE Laws 6.7.1 distinction the GAME's ``status`` keeps ("waiting" until the first move or the
clock's start).
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from trf_log import as_log

from dashboard.app import create_app
from services.eventlog import open_log
from services.eventlog.memory import MemoryLog
from services.eventlog.stores import missing_store, naming, tournaments
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_json import standings_json
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.views.standings import TournamentView
from venue.cli import main as venue
from venue.serve import _held

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _preset(name: str):
    return load_tournament((EVENTS / name).read_text(), name)


def _sqlite(tmp_path: Path, *slugs: str) -> str:
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"

    async def write() -> None:
        for slug in slugs:
            log = open_log(url, slug)
            await log.append("note_added", {"text": "x"})
            await log.close()

    asyncio.run(write())
    return url


def test_venue_serve_has_no_boards_option(capsys: pytest.CaptureFixture) -> None:
    """Only ``venue gateway`` has --boards (README "One gateway per board"); what serve says when it
    is refused beside another writer: tests/integration/test_writer_lease.py."""
    assert venue(["serve", "--mqtt", "mqtt://127.0.0.1:1", "--store", "memory://", "--tournament", "t",
                  "--boards", "1-3"]) == 2
    assert "venue serve: error: unrecognized arguments: --boards 1-3" in capsys.readouterr().err


def test_a_misspelt_slug_names_the_tournaments_the_store_holds(tmp_path: Path) -> None:
    url = _sqlite(tmp_path, "us-championship-2013", "norway-chess-2023")
    assert asyncio.run(tournaments(url)) == ["norway-chess-2023", "us-championship-2013"]
    assert asyncio.run(_held(url, "us-champonship-2013")) == (
        "the store holds no log named 'us-champonship-2013'; it holds: us-championship-2013, norway-chess-2023; "
        "did you mean 'us-championship-2013'?")
    assert naming("x", []) == "the store holds no tournament's log (none named 'x')"


def test_read_only_commands_never_create_the_store(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    missing = tmp_path / "missing.sqlite"
    assert missing_store(f"sqlite:///{missing}").startswith(f"no event log at {missing}")
    assert asyncio.run(tournaments(f"sqlite:///{missing}")) == []
    assert venue(["export", "--store", f"sqlite:///{missing}", "--tournament", "t", "--format", "pgn"]) == 2
    assert "the file does not exist (check --store)" in capsys.readouterr().err
    assert not missing.exists()


def test_export_offers_pdn_for_checkers(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``--format`` lists pdn; a checkers event's games are PDN, a chess event's PGN."""
    t = _preset("checkers-11-man-national-2017.toml")
    url, slug = f"sqlite:///{tmp_path / 'c.sqlite'}", f"c-{uuid.uuid4().hex[:6]}"

    async def write() -> None:
        log = open_log(url, slug)
        await log.append("tournament_registered", tournament_registered_data(t))
        await log.append("round_started", round_from_tournament(t, 1))
        await log.close()

    asyncio.run(write())
    assert venue(["export", "--help"]) == 0
    assert "{pgn,pdn,trf}" in capsys.readouterr().out
    assert venue(["export", "--store", url, "--tournament", slug, "--format", "pgn"]) == 2
    assert "the games of this checkers event are written as PDN (--format pdn)" in capsys.readouterr().err
    assert venue(["export", "--store", url, "--tournament", slug, "--format", "pdn"]) == 0
    assert '[GameType "21"]' in capsys.readouterr().out


def test_a_misspelt_option_prints_the_subcommand_s_usage(capsys: pytest.CaptureFixture) -> None:
    assert venue(["demo", "--exit-when-dne"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: venue demo ")
    assert "venue demo: error: unrecognized arguments: --exit-when-dne (did you mean --exit-when-done?)" in err


def test_the_login_page_says_when_no_login_is_configured(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    monkeypatch.delenv("VENUE_ARBITERS", raising=False)
    with TestClient(create_app(MemoryLog("no-logins"))) as client:
        page = client.get("/arbiter").text
    assert "No arbiter logins are configured for this hall" in page and "VENUE_ARBITERS=login:password" in page


def _view(preset: str, *entries) -> TournamentView:
    t = _preset(preset)
    view = TournamentView()
    for e in as_log([("tournament_registered", tournament_registered_data(t)),
                     ("round_started", round_from_tournament(t, 1, start_ms=1_000)), *entries]):
        view.apply(e)
    return view


def test_standings_say_waiting_for_a_game_not_started() -> None:
    """Round 1 of us-championship-2013: board 1 has a move (playing), board 2 none (waiting)."""
    view = _view("us-championship-2013.toml",
                 ("move_played", {"game": "1-1", "board": "1", "device": "board", "seq": 1, "ply": 1,
                                  "move": "e2e4", "san": "e4",
                                  "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                  "turn": "black", "claimable": [], "from": "move"}))
    at = {r["start_no"]: r["at_board"] for r in standings_json(view)["rows"]}
    one, two = view.state.games["1-1"].setup, view.state.games["1-2"].setup
    assert at[one.white_no] == at[one.black_no] == "playing"
    assert at[two.white_no] == at[two.black_no] == "waiting"


def test_a_checkers_match_counts_two_games() -> None:
    """11-Man National 2017: board 1's match, both games ended: each player has played 2 games."""
    view = _view("checkers-11-man-national-2017.toml",
                 ("game_ended", {"game": "1-1.1", "board": "1", "result": "1-0", "termination": "recorded"}),
                 ("game_ended", {"game": "1-1.2", "board": "1", "result": "1/2-1/2", "termination": "recorded"}))
    played = {r.start_no: r.played for r in view.standings()}
    g = view.state.games["1-1.1"].setup
    assert played[g.white_no] == played[g.black_no] == 2
