"""Standings of the checkers preset, whose rounds are two-game matches: each game scores as a game
(1 / ½ / 0, the preset's ``scoring = "standard"``), so a round gives a player up to 2 points.

Sources: events/checkers-11-man-national-2017.toml (11 players, round robin: round 1 is 2-11, 3-10,
4-9, 5-8, 6-7 on boards 1-5, FIDE C.05 Annex 1, number 1 the bye); regulation X.A.b ("A player whose
time expires forfeits the current game, as well as the next game if not started"); the results of
London 1992 games 25 (White won, venue "1-0") and 26 (drawn) of ../shared/data/checkers/tinsley.pdn
(records 700, 701) for the match on board 1.
"""

from __future__ import annotations

from pathlib import Path

from services.eventlog.base import Entry
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.views.standings import TournamentView
from services.regulations.tournament_file import load_tournament

PRESET = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"


def folded(*ends: tuple[str, str, dict]) -> TournamentView:
    t = load_tournament(PRESET.read_text("utf-8"), str(PRESET))
    entries = [("tournament_registered", tournament_registered_data(t)), ("round_started", round_from_tournament(t, 1))]
    entries += [("game_ended", {"game": g, "board": g.split("-")[1].split(".")[0], "result": r, **extra})
                for g, r, extra in ends]
    view = TournamentView()
    for seq, (type_, data) in enumerate(entries, start=1):
        view.apply(Entry(seq, 1_700_000_000_000 + seq, type_, data))
    return view


def points(view: TournamentView) -> dict[int, float]:
    return {r.start_no: r.points for r in view.standings()}


def test_each_game_of_a_match_scores_as_a_game():
    # board 1: Player 02 White in game 1 (London 1992 game 25, won by White: "1-0"), Black in game 2
    # (game 26, drawn): 1 + 1/2; Player 11: 0 + 1/2
    view = folded(("1-1.1", "1-0", {"termination": "recorded"}), ("1-1.2", "1/2-1/2", {"termination": "recorded"}))
    assert points(view)[2] == 1.5 and points(view)[11] == 0.5
    record = view.games["1-1.1"]
    assert (record.result, record.second, record.second_id, record.finished) == ("1-0", "1/2-1/2", "1-1.2", True)
    assert "1-1.2" not in view.games  # one pairing per match: never "two results in a round"
    assert [g["id"] for g in view.round_games(1)][:2] == ["1-1.1", "1-1.2"]


def test_a_match_half_played_is_not_finished():
    view = folded(("1-1.1", "1-0", {"termination": "recorded"}))
    assert not view.games["1-1.1"].finished
    assert points(view)[2] == 1 and points(view)[11] == 0
    # provisional standings count the unfinished second game as a draw, like any unfinished game
    pro = {r.start_no: r.points for r in view.standings(provisional=True)}
    assert pro[2] == 1.5 and pro[11] == 0.5


def test_a_flag_in_game_one_costs_both_games():
    # X.A.b: Player 11 (Black in game 1) flags: game 1 lost on time (played), game 2 lost by forfeit;
    # in game 2 Player 11 is White: "0-1" with forfeit
    view = folded(("1-1.1", "1-0", {"termination": "time_forfeit"}),
                  ("1-1.2", "0-1", {"termination": "forfeit", "forfeit": True}))
    assert points(view)[2] == 2 and points(view)[11] == 0
    assert view.games["1-1.1"].second == "+-"
    assert 11 in view.forfeited_or_withdrew()
