"""The play-off's games in the tournament's PGN, and the play-off's dates (fresh-user report
2026-12-07, findings 1 and 5).

docs/tournament-log.md: "`GET /api/tournament.pgn` (every game of every round, `[%clk]` per ply)";
docs/tiebreaks.md: the TRF's ranks are "in the final order ... the play-off's games are not rounds of
the report". The 2023 U.S. Championship (events/us-championship-2023.toml,
../shared/regulations/us-championship-2023.txt rule 6): "Two Players: The tie will be broken with a
two-game rapid match (G/10 +2 increment). If the contest is still undecided, the match will be
decided by an Armageddon Game ... Black shall be declared the winner if the game ends in a draw."
The main event is tests/playoff_event.py's ``winner`` rule: 1 and 2 tie for first, Direct Encounter
puts 2 first. The play-off is played as the arbiter played it in the report: the rapid match 1-1,
lots for the Armageddon's colours, the Armageddon drawn by a claim.

Dates: the file's rounds start at "2023-10-05T13:00:00-05:00" and so on (UTC-5), and a main round's
``Date`` is its start's day in that offset (``round_from_file.round_times``). The stages below start
at 03:00 UTC, which is 22:00 the evening before in UTC-5: the PGN ``Date`` is that evening's day.
"""

from __future__ import annotations

import json
import re

import pytest
from playoff_event import main_event, tournament, winner

from dashboard.arbiter.actions import build
from gateway.hall import Hall
from services.arbiter_office.tournament_export import tournament_pgn, tournament_trf
from services.arbiter_office.view_pgn import round_pgn
from services.tournament.playoff_walk import Decided
from services.tournament.trf import parse_trf
from services.views.spectator import SpectatorView
from services.views.standings import TournamentView

T = "po-pgn"
P1_START = 1_697_511_600_000  # 2023-10-17T03:00:00Z = 2023-10-16 22:00 in UTC-5
P2_START = P1_START + 86_400_000  # 2023-10-18T03:00:00Z = 2023-10-17 22:00 in UTC-5
MAIN_GAMES = 11 * 6  # "12-player tournaments paired as a Round Robin": 11 rounds of 6 games


class Played:
    """The event folded into a gateway's hall; ``act`` posts an arbiter's action at ``now``."""

    def __init__(self) -> None:
        self.t = tournament("us-championship-2023.toml", T)
        self.hall = Hall(T, config=self.t)
        self.log: list[tuple[str, dict]] = []
        for type_, data in main_event(self.t, winner):
            self.hall.fold(type_, data, 0)
            self.log.append((type_, data))
        self.now = P1_START

    def act(self, action: str, body: dict) -> None:
        for type_, data in build(action, body, "chief", {}, self.hall.state, self.now):
            self.log.append((type_, data))
            self.log += self.hall.external(type_, json.loads(json.dumps(data)), self.now, None, self.now).entries

    @property
    def view(self) -> TournamentView:
        return TournamentView(self.hall.state)


@pytest.fixture(scope="module")
def played() -> Played:
    ev = Played()
    assert ev.view.tied_for_first() == [2, 1]
    ev.act("start_playoff_stage", {"stage": 1, "boards": [1]})
    ev.act("enter_playoff_result", {"stage": 1, "game": 1, "result": "1-0", "how": "slip"})
    ev.act("enter_playoff_result", {"stage": 1, "game": 2, "result": "1-0", "how": "slip"})
    ev.now = P2_START
    ev.act("draw_lots", {"purpose": "playoff_colours", "stage": 2, "numbers": {"1": 1, "2": 2}})
    ev.act("start_playoff_stage", {"stage": 2, "boards": [1]})
    ev.act("enter_playoff_result", {"stage": 2, "game": 1, "result": "1/2-1/2", "how": "claim"})
    step = ev.view.playoff_step()
    assert isinstance(step, Decided) and step.order == (2, 1)  # the report: "decided, order [2, 1]"
    return ev


def _tags(text: str, tag: str) -> list[str]:
    return re.findall(rf'^\[{tag} "([^"]*)"\]$', text, flags=re.M)


def test_the_play_off_games_follow_the_main_event_in_stage_order(played: Played) -> None:
    text = tournament_pgn(played.view)
    rounds = _tags(text, "Round")
    # two rapid games and the Armageddon game after the 66 games of the round robin
    assert len(_tags(text, "Event")) == MAIN_GAMES + 3
    assert [r.split(".")[0] for r in rounds[:MAIN_GAMES]] == [str(n) for n in range(1, 12) for _ in range(6)]
    assert rounds[MAIN_GAMES:] == ["P1", "P1", "P2"]


def test_each_stage_is_written_as_its_round_pgn(played: Played) -> None:
    # "as /api/round.pgn?round=P1 writes them": dashboard/api.py round_pgn_route's own call
    spectators = SpectatorView(played.hall.state)
    stages = "\n".join(round_pgn(spectators.games(label), played.hall.state.rounds[label].info())
                       for label in ("P1", "P2"))
    assert tournament_pgn(played.view).endswith(stages)


def test_the_stages_carry_the_day_they_started_in_the_events_zone(played: Played) -> None:
    text = tournament_pgn(played.view)
    dates = dict(zip(_tags(text, "GameId"), _tags(text, "Date")))
    assert dates["P1-1"] == dates["P1-2"] == "2023.10.16" and dates["P2-1"] == "2023.10.17"
    # the main rounds as before: round 1 "2023-10-05T13:00:00-05:00"
    assert dates["1-1"] == "2023.10.05"
    # /api/games and /api/rounds read the round's ROUND
    assert played.hall.state.rounds["P1"].info()["date"] == "2023.10.16"


def test_the_armageddon_keeps_its_scored_result_and_unknown_control(played: Played) -> None:
    # view_pgn.shown_result: a drawn Armageddon game is written as scored ("Black shall be declared
    # the winner if the game ends in a draw"); 5 min against 4 min has no PGN TimeControl: "?"
    text = tournament_pgn(played.view).split('[Round "P2"]')[1]
    assert '[Result "0-1"]' in text and '[TimeControl "?"]' in text


def test_the_trf_keeps_the_main_events_rounds_only(played: Played) -> None:
    trf = parse_trf(tournament_trf(played.view))
    assert trf.total_rounds == 11
    assert {len(p.games) for p in trf.players.values()} == {11}
    # ranks in the final order: the play-off's winner 2 first
    assert trf.players[2].rank == 1 and trf.players[1].rank == 2


def test_a_stage_logged_without_its_date_gets_the_day_it_started() -> None:
    # an entry written before the stages carried a date: the fold reads its start_ms in the event's zone
    ev = Played()
    made = build("start_playoff_stage", {"stage": 1, "boards": [1]}, "chief", {}, ev.hall.state, P1_START)
    (type_, data), = made
    data = {k: v for k, v in data.items() if k != "date"}
    ev.hall.external(type_, json.loads(json.dumps(data)), P1_START, None, P1_START)
    assert ev.hall.state.rounds["P1"].date == "2023.10.16"
