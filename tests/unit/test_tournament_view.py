"""The tournament fold (services/views/standings.py): results, standings, prizes, play-off.

Sources of the expected values: ../shared/data/tiebreaks/round-robin (FIDE TieBreakServer v1.9.57,
C.07 from March 2026); ../shared/regulations (Norway Chess 2023 points and prize money, US
Championship 2023 rules 1 and 6); FIDE Laws 6.7.1 and field case F10 (d) for forfeits.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest
from referee_harness import Referee as Enforcer
from tournament_view_log import Log, _replay_trf

from services.arbiter_office.playoff_stage import stage_entry
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.setup import round_from_pgn
from services.arbiter_office.tournament_log import tournament_from_data, tournament_registered_data
from services.views.standings import TournamentView
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _event(name: str):
    path = EVENTS / name
    return load_tournament(path.read_text("utf-8"), str(path))


def _points(view: TournamentView, provisional: bool = False) -> dict[int, float]:
    return {r.start_no: r.points for r in view.standings(provisional)}


# --- tournament_registered ------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(p.name for p in EVENTS.glob("*.toml")))
def test_registered_data_is_plain_json_and_reads_back(name: str) -> None:
    t = _event(name)
    data = tournament_registered_data(t)
    text = json.dumps(data)
    assert "password" not in text and "argon2" not in text  # no secrets in the log
    back = tournament_from_data(json.loads(text))
    assert (back.name, back.slug, back.game, back.system, back.kind, back.rounds_total, back.site) == \
        (t.name, t.slug, t.game, t.system, t.kind, t.rounds_total, t.site)
    assert back.players == t.players and back.rounds == t.rounds
    assert back.regulations == t.regulations and back.time_controls == t.time_controls
    assert [b.number for b in back.boards] == [b.number for b in t.boards]


def test_registered_us_2023_carries_rule_6_order_and_the_fine() -> None:
    data = tournament_registered_data(_event("us-championship-2023.toml"))
    # Rule 6: "1. Direct Encounter, 2. Most Blacks, 3. Koya System, 4. Sonneborn Berger, 5. Won Games"
    assert data["regulations"]["tiebreaks"] == ["DE", "BPG", "KS", "SB", "WON"]
    # Rule 1: "a fine of $500"; "Players who withdraw or forfeit a game may not receive any prize money."
    assert data["regulations"]["fine_not_at_board"] == {"amount": 500, "currency": "USD"}
    assert data["regulations"]["prizes"]["withhold_after_forfeit"] is True
    assert data["regulations"]["playoff"] == "us-2023" and len(data["players"]) == 12


# --- round robins from the tie-break fixtures -----------------------------------------------------
@pytest.mark.parametrize("name", ["rr-000100-6p", "rr-000110-10p", "rr-000101-13p", "rr-000104-4p",
                                  "rr-000120-12p-double", "rr-000121-5p-double"])
def test_round_robin_replayed_from_the_log_ranks_like_the_fide_program(shared_data: Path, name: str) -> None:
    """rr-000110-10p has forfeits ("5 w -", "7 b +"); the double ones play two cycles."""
    base = shared_data / "tiebreaks" / "round-robin" / name
    system = "double-round-robin" if name.endswith("double") else "round-robin"
    view = _replay_trf(base.with_suffix(".trf").read_text(), system).view
    rows = {r.start_no: r for r in view.standings()}
    with open(base.with_suffix(".tiebreaks.tsv"), newline="") as f:
        for x in csv.DictReader(f, delimiter="\t"):
            r = rows[int(x["StartNo"])]
            assert r.rank == int(x["Rank"]), x
            assert r.points == pytest.approx(float(x["PTS"]))
            for code in ("DE", "BPG", "KS", "SB", "WON"):
                assert r.tiebreaks[code] == pytest.approx(float(x[code]), abs=0.005), (code, x)


# --- results, corrections, provisional -----------------------------------------------------------
def _us_round_1(rounds_total: int | None = None) -> tuple[Log, dict]:
    t = _event("us-championship-2023.toml")
    if rounds_total is not None:
        t = replace(t, rounds_total=rounds_total)
    log = Log()
    log.add("tournament_registered", tournament_registered_data(t))
    data = round_from_tournament(t, 1)
    log.add("round_started", data)
    return log, data


def test_live_and_provisional_standings() -> None:
    log, _ = _us_round_1()
    assert log.add("game_ended", {"game": "1-1", "board": "1", "result": "1-0", "termination": "resignation"})
    rows = log.view.standings()
    assert rows[0].start_no == 1 and rows[0].points == 1 and rows[0].in_progress == 0
    assert {r.start_no: r.in_progress for r in rows}[2] == 1
    assert _points(log.view)[11] == 0 and not any(r.provisional for r in rows)
    pro = log.view.standings(provisional=True)
    # every game in progress counts as a draw "as if it ended now"
    assert {r.start_no: r.points for r in pro} == {1: 1, 12: 0, **{s: 0.5 for s in range(2, 12)}}
    assert all(r.provisional for r in pro)


def test_arbiter_reopens_and_awards_a_special_score() -> None:
    log, _ = _us_round_1()
    log.end("1-2", "1-0")
    log.add("arbiter_decision", {"game": "1-2", "board": "2", "result": "*", "forfeit": False, "by": "chief"})
    assert _points(log.view)[2] == 0 and log.view.games["1-2"].result == "*"
    # docs/arbiter.md set_result: special scores "1/2-0", "0-1/2", "0-0"
    log.add("arbiter_decision", {"game": "1-2", "board": "2", "result": "1/2-0", "forfeit": False, "by": "chief"})
    log.end("1-2", "1/2-0", termination="arbiter", by="arbiter")
    pts = _points(log.view)
    assert (pts[2], pts[11]) == (0.5, 0)
    cells = {r.start_no: r.cells[0] for r in log.view.crosstable()}
    assert (cells[2].code, cells[11].code) == ("=", "0") and cells[2].color == "w"


def test_forfeits_are_unplayed_and_withhold_prize_money() -> None:
    """FIDE Laws 6.7.1 default; F10 (d): both absent lose, unplayed for both; US 2023 rule 1."""
    log, _ = _us_round_1()
    log.add("default_forfeit", {"game": "1-3", "board": "3", "side": "black", "result": "1-0", "forfeit": True})
    log.end("1-3", "1-0", termination="forfeit", forfeit=True, by="regulations")
    log.end("1-4", "0-0", termination="forfeit", forfeit=True)
    cells = {r.start_no: r.cells[0] for r in log.view.crosstable()}
    assert (cells[3].code, cells[10].code, cells[4].code, cells[9].code) == ("+", "-", "-", "-")
    assert cells[3].color is None  # F14: a forfeit carries no colour
    rows = {r.start_no: r for r in log.view.standings()}
    assert rows[3].points == 1 and rows[3].played == 0 and rows[4].points == 0
    assert log.view.forfeited_or_withdrew() == {10, 4, 9}


def test_us_2023_fines_and_forfeits_in_the_prize_money() -> None:
    """US 2023 rule 1: "$500 to be deducted from their prize"; "Players who withdraw or forfeit a game
    may not receive any prize money." (the regulation gives no amounts: these are placeholders)."""
    t = _event("us-championship-2023.toml")
    t = replace(t, rounds_total=1, regulations=replace(t.regulations, prizes=replace(
        t.regulations.prizes, amounts=(10000, 6000, 4000))))
    log = Log()
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))
    log.end("1-1", "1-0")                      # 1 beats 12 with White
    log.end("1-2", "1-0", forfeit=True)        # 11 forfeits: 2 wins unplayed
    log.end("1-3", "0-1")                      # 10 beats 3 with Black
    for b in range(4, 7):
        log.end(f"1-{b}", "1/2-1/2")
    log.add("fine_recorded", {"game": "1-1", "board": "1", "player": "Player 01", "amount": 500, "currency": "USD",
                              "reason": "not at the board at the start", "by": "chief"})
    log.add("player_withdrew", {"player": "Player 10", "from_round": 2, "by": "chief"})
    # rule 6 order: "2. Most Blacks" puts 10 first; "5. Won Games" puts 1 (over the board) above 2 (forfeit)
    assert [r.start_no for r in log.view.standings()][:3] == [10, 1, 2]
    # rule 6: "If two or more Players are tied for first, a playoff shall be held to determine final
    # standings among all tied players": 10, 1 and 2 share the first place, their prizes wait for it
    # (issue 30: "Places decided by a play-off are paid by its result, never by tie-break first")
    assert {a.start_no for a in log.view.prizes().awards if a.pending} == {10, 1, 2}
    # "Three or Four Players: ... a rapid round robin (G/10 +2 increment)": 10 wins both, 1 beats 2
    stage = stage_entry(log.view, 1, ["1"], start_ms=None)
    log.add(*stage.encode())
    order = {10: 0, 1: 1, 2: 2}
    for g in stage.games:
        log.end(g.id, "1-0" if order[g.white_no] < order[g.black_no] else "0-1")
    assert [r.start_no for r in log.view.final_standings()][:3] == [10, 1, 2]
    awards = log.view.prizes().by_start_no()
    assert awards[10].gross == 10000 and awards[10].withheld == 10000 and awards[10].net == 0
    assert awards[1].gross == 6000 and awards[1].fines == 500 and awards[1].net == 5500
    assert awards[2].net == 4000
    assert 11 not in awards  # no prize place


def test_withdrawal_is_recorded_for_prizes_and_pairing() -> None:
    log, _ = _us_round_1()
    log.add("player_withdrew", {"player": "Player 05", "from_round": 2, "by": "chief"})
    assert log.view.withdrawn == {5: 2} and log.view.absent(2) == {5} and log.view.absent(1) == set()
    assert 5 in log.view.forfeited_or_withdrew()


# --- Norway Chess 2023 ----------------------------------------------------------------------------
def _norway_round_1() -> Log:
    t = _event("norway-chess-2023.toml")
    log = Log(Enforcer(t))
    log.add("tournament_registered", tournament_registered_data(t))
    log.add("round_started", round_from_tournament(t, 1))  # 1-10, 2-9, 3-8, 4-7, 5-6
    log.end("1-1", "1-0")
    log.end("1-2", "1/2-1/2", termination="agreement")     # the Enforcer schedules "1-2-A"
    log.end("1-3", "1/2-1/2", termination="agreement")     # and "1-3-A"
    log.end("1-4", "0-1")
    return log


def test_norway_armageddon_points() -> None:
    """"Win in the classical game: 3 points / ... Draw in the classical game & win Armageddon: 1½ points /
    Draw in the main game & loss Armageddon: 1 point"; "If the Armageddon game is drawn, black will win"."""
    log = _norway_round_1()
    assert log.view.games["1-2"].armageddon_id == "1-2-A"
    pts = _points(log.view)
    assert (pts[1], pts[10], pts[7], pts[4]) == (3, 0, 3, 0)
    assert (pts[2], pts[9], pts[3], pts[8]) == (1, 1, 1, 1)  # the Armageddon is on: 1 point is sure
    pro = _points(log.view, provisional=True)
    assert (pro[2], pro[9]) == (1, 1.5)  # a drawn Armageddon "as if it ended now" is Black's
    log.end("1-2-A", "1/2-1/2")  # the Enforcer answers armageddon_decided 0-1
    assert any(e.type == "armageddon_decided" for e in log.entries)
    log.end("1-3-A", "1-0")
    log.end("1-5", "1-0")
    pts = _points(log.view)
    assert (pts[2], pts[9], pts[3], pts[8], pts[5], pts[6]) == (1, 1.5, 1.5, 1, 3, 0)
    # "For tie-breaks purpose, only points in classical games will be counted": SB over 1 / ½ / 0
    sb = {r.start_no: r.tiebreaks["SB"] for r in log.view.standings()}
    assert sb[9] == sb[2] == 0.25  # a draw with a player on ½ classical point


def test_norway_prize_money_shared_except_the_first_prize() -> None:
    """"Prize money will be shared among the players with the same score. This does not apply to the
    first prize." #1 750 000 ... #10 120 000 NOK."""
    log = _norway_round_1()
    log.end("1-2-A", "1/2-1/2")
    log.end("1-3-A", "1-0")
    log.end("1-5", "1-0")
    awards = log.view.prizes().by_start_no()
    # 3 points: 1, 5, 7 (tied on every tie-break; 1 ranks first by start number)
    assert awards[1].places == (1,) and awards[1].net == 750_000
    assert awards[5].places == (2, 3) and awards[5].net == awards[7].net == (400_000 + 250_000) // 2
    assert awards[9].net == awards[3].net == (200_000 + 180_000) // 2  # 1½ points, places 4-5
    assert awards[2].net == awards[8].net == (170_000 + 160_000) // 2  # 1 point, places 6-7
    assert awards[10].net == (140_000 + 130_000 + 120_000) // 3       # 0 points, places 8-10


# --- play-off ---------------------------------------------------------------------------------------
def test_us_2023_playoff_for_two_tied_after_the_last_round() -> None:
    """US 2023 rule 6, "Two Players: The tie will be broken with a two-game rapid match (G/10 +2
    increment)", then an Armageddon game."""
    log, _ = _us_round_1(rounds_total=1)
    log.end("1-1", "1-0")
    log.end("1-2", "1-0")
    for b in range(3, 6):
        log.end(f"1-{b}", "1/2-1/2")
    assert log.view.playoff() is None  # board 6 still playing
    log.end("1-6", "1/2-1/2")
    plan = log.view.playoff()
    assert plan.regulation == "us-2023" and plan.players == [1, 2]
    assert plan.stages[0].games[0].time_control["pgn"] == "600+2"
    assert plan.stages[1].kind == "armageddon"


def test_no_playoff_with_a_clear_winner_or_before_the_end() -> None:
    log, _ = _us_round_1()
    log.end("1-1", "1-0")
    assert log.view.playoff() is None and log.view.playoff(force=True) is None  # one leader


# --- without a tournament file ---------------------------------------------------------------------
PGN = """[Event "Club Open"]
[Round "3"]
[White "Adams, M"]
[Black "Short, N"]
[WhiteElo "2700"]
[Result "*"]

*

[Event "Club Open"]
[Round "3"]
[White "Carlsen, M"]
[Black "Anand, V"]
[Result "*"]

*
"""


def test_players_from_the_round_names_when_no_file_was_registered() -> None:
    log = Log()
    log.add("round_started", round_from_pgn(PGN))
    log.end("3-1", "1-0")
    view = log.view
    assert {s: p["name"] for s, p in view.players.items()} == {1: "Adams, M", 2: "Short, N", 3: "Carlsen, M",
                                                                  4: "Anand, V"}
    assert view.players[1]["rating"] == 2700 and view.name == "Club Open"
    rows = view.standings()
    assert [(r.start_no, r.points) for r in rows][0] == (1, 1)
    assert view.tiebreak_order() == ["PTS"] and view.current_round == 3


def test_entries_it_cannot_use_are_skipped() -> None:
    log, _ = _us_round_1()
    assert log.add("game_ended", {"game": "9-9", "result": "1-0"}) is False
    assert log.add("game_ended", {"game": "1-1", "result": "2-0"}) is False
    assert log.add("fine_recorded", {"player": "Nobody", "amount": 500}) is False
    assert log.add("move_played", {"game": "1-1", "ply": 1, "move": "e2e4", "san": "e4", "fen": "x",
                                   "turn": "black"}) is False
    assert log.view.apply(log.entries[0]) is False  # already folded
    assert _points(log.view)[1] == 0


def test_registration_is_written_once_and_again_after_a_change() -> None:
    from services.arbiter_office.registration import registration

    t = _event("us-championship-2023.toml")
    first = registration(None, t).data
    assert first == tournament_registered_data(t)
    assert registration(json.loads(json.dumps(first)), t).data is None  # as read back from the log
    changed = replace(t, players=t.players[:11])
    assert registration(first, changed).data["players"][-1]["start_no"] == 11
