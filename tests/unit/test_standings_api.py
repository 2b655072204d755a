"""The standings routes (dashboard/standings.py) over a TournamentView, with Starlette's TestClient.

Expected values: US Championship 2023 (rule 6 tie-break order; the Berger table of C.05 Annex 1 for
12 players, round 1: 1-12, 2-11, ...); Norway Chess 2023 points and prize money (regulations)."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.testclient import TestClient
from referee_harness import Referee as Enforcer
from tournament_view_log import Log

from dashboard.standings import routes
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.setup import round_from_pgn
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.tournament.trf import parse_trf

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _event(name: str):
    path = EVENTS / name
    return load_tournament(path.read_text("utf-8"), str(path))


def _client(view) -> TestClient:
    app = Starlette(routes=routes())
    if view is not None:
        app.state.tournament_view = view
    return TestClient(app)


def _us_log() -> Log:
    t = _event("us-championship-2023.toml")
    log = Log()
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))
    log.end("1-1", "1-0")
    return log


def test_standings_json() -> None:
    body = _client(_us_log().view).get("/api/standings").json()
    assert body["tournament"] == "2023 U.S. Championship" and body["round"] == 1 and body["rounds_total"] == 11
    assert body["tiebreaks"] == ["DE", "BPG", "KS", "SB", "WON"] and body["provisional"] is False
    top = body["rows"][0]
    assert (top["rank"], top["start_no"], top["name"], top["points"]) == (1, 1, "Player 01", 1.0)
    assert set(top["tiebreaks"]) == {"DE", "BPG", "KS", "SB", "WON"}
    assert body["prizes"] is None and body["playoff"] is None and body["finished"] is False


def test_provisional_counts_games_in_progress_as_draws() -> None:
    body = _client(_us_log().view).get("/api/standings?provisional=1").json()
    pts = {r["start_no"]: r["points"] for r in body["rows"]}
    assert body["provisional"] is True and pts[2] == 0.5 and pts[12] == 0.0
    assert all(r["provisional"] for r in body["rows"])


def test_crosstable_json() -> None:
    body = _client(_us_log().view).get("/api/crosstable").json()
    assert body["rounds"] == 1
    row = body["rows"][0]
    assert row["start_no"] == 1 and row["total"] == 1.0
    assert row["cells"] == [{"round": 1, "opponent": 12, "color": "w", "code": "1", "points": 1.0, "text": "  12 w 1"}]


def test_norway_prizes_in_json() -> None:
    t = _event("norway-chess-2023.toml")
    log = Log(Enforcer(t))
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))
    log.end("1-1", "1-0")
    body = _client(log.view).get("/api/standings").json()
    assert body["scoring"] == "norway-armageddon" and body["rows"][0]["points"] == 3.0
    first = body["prizes"]["awards"][0]
    # "#1 750 000" NOK, "This does not apply to the first prize"
    assert (first["start_no"], first["net"], body["prizes"]["currency"]) == (1, "750000", "NOK")


def test_downloads() -> None:
    client = _client(_us_log().view)
    pgn = client.get("/api/tournament.pgn")
    assert pgn.status_code == 200 and pgn.headers["content-type"].startswith("application/x-chess-pgn")
    assert 'filename="us-championship-2023.pgn"' in pgn.headers["content-disposition"]
    assert pgn.text.count("[Event ") == 6
    trf = client.get("/api/tournament.trf")
    assert trf.status_code == 200
    parsed = parse_trf(trf.text)
    assert parsed.players[1].games[0].result == "1" and parsed.total_rounds == 11


def test_pages() -> None:
    client = _client(_us_log().view)
    for path, script in (("/standings", "standings.js"), ("/crosstable", "standings.js")):
        page = client.get(path)
        assert page.status_code == 200 and "2023 U.S. Championship" in page.text and script in page.text
        assert "Round 1 of 11" in page.text and "/static/style.css" in page.text


def test_without_a_fold_or_with_contradicting_results() -> None:
    assert _client(None).get("/api/standings").status_code == 503
    assert _client(None).get("/standings").status_code == 200
    log = Log()
    pgn = ('[White "A"]\n[Black "B"]\n[Round "1"]\n\n*\n\n[White "A"]\n[Black "C"]\n[Round "1"]\n\n*\n')
    log.add("round_started", round_from_pgn(pgn))  # A on two boards of one round
    r = _client(log.view).get("/api/standings")
    assert r.status_code == 409 and "two results" in r.json()["error"]


def test_a_new_result_is_served_at_once() -> None:
    """Bodies are kept per log seq: the next entry makes a fresh one."""
    log = _us_log()
    client = _client(log.view)
    assert {r["start_no"]: r["points"] for r in client.get("/api/standings").json()["rows"]}[2] == 0
    log.end("1-2", "1-0")
    assert {r["start_no"]: r["points"] for r in client.get("/api/standings").json()["rows"]}[2] == 1


def test_a_long_name_is_cut_to_the_trf_name_field() -> None:
    """The tournament file takes a 90-character name; TRF16 (C.04 Annex 2) gives the name columns
    15-47, 33 columns: the export writes its first 33 characters (the standings keep it whole)
    instead of refusing the file with a 409 that blamed the results."""
    path = EVENTS / "us-championship-2023.toml"
    long = "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine Maximilian Alexander Theodore Jr. III.."
    assert len(long) == 90
    text = path.read_text("utf-8").replace('name = "Player 02"', f'name = "{long}"', 1)
    t = load_tournament(text, str(path))
    log = Log()
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))
    log.end("1-1", "1-0")
    client = _client(log.view)
    trf = client.get("/api/tournament.trf")
    assert trf.status_code == 200, trf.text
    line = next(ln for ln in trf.text.splitlines() if ln.startswith("001    2"))
    assert line[14:47] == long[:33] and line[47] == " "
    assert parse_trf(trf.text).players[2].name == long[:33].rstrip()
    assert any(r["name"] == long for r in client.get("/api/standings").json()["rows"])


def test_an_export_that_cannot_be_written_does_not_blame_the_results() -> None:
    """A 409 for a value the TRF columns cannot hold (a 15-digit FIDE id in the 11 columns 58-68)
    says so; "do not add up" is for results."""
    client = _client(_us_log().view)
    view = client.app.state.tournament_view
    for info in view.players.values():
        info["fide_id"] = "123456789012345"
    r = client.get("/api/tournament.trf")
    assert r.status_code == 409
    assert "do not add up" not in r.json()["error"]
    assert r.json()["error"].startswith("the TRF export cannot write this tournament: player ")
