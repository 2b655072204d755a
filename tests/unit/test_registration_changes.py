"""A restart with a tournament file (issue 10 "A restart forfeits the hall"): the differences between
the registered file and the file given now (services.arbiter_office.tournament_changes) and the decision to
register it (services.arbiter_office.registration).

Every value comes from the preset events/us-championship-2023.toml (its schedule, its 30-minute
default time quoting US 2023 rule 1, its "never" draw policy quoting rule 2, its 12 players) and
from the edits each test makes to it; what "in play" means is the rule of docs/tournament-log.md
"A changed file": a round started whose games are not all ended.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from services.arbiter_office.registration import ORGANISER, registration, rounds_in_play
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_changes import describe, registration_changes
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.state import HallState

PRESET = Path(__file__).resolve().parents[2] / "events" / "us-championship-2023.toml"


def preset(edit=lambda text: text):
    return load_tournament(edit(PRESET.read_text()), str(PRESET))


def stored(t) -> dict:
    """The registration as read back from a log (JSON)."""
    return json.loads(json.dumps(tournament_registered_data(t)))


def edited(text: str) -> str:
    """The organiser's edits: a rating for Player 03, Player 12 struck off, round 1 an hour later,
    a 15-minute default time, draws by agreement allowed after 30 moves, a rapid control of G/15."""
    text = text.replace('name = "Player 03"', 'name = "Player 03"\nrating = 2700')
    text = text.replace('[[players]]\nstart_no = 12\nname = "Player 12"\n', "")
    text = text.replace('start = "2023-10-05T13:00:00-05:00"', 'start = "2023-10-05T14:00:00-05:00"')
    text = text.replace('[regulations.default_time]\nclassical = "30m"', '[regulations.default_time]\nclassical = "15m"')
    text = text.replace('policy = "never"', 'policy = "not_before_move"\nmin_moves = 30')
    return text.replace('rapid = "600+2"', 'rapid = "900+0"')


def test_the_same_file_has_no_changes():
    t = preset()
    assert registration_changes(stored(t), tournament_registered_data(t)) == []


def test_changes_are_listed_setting_by_setting():
    t = preset()
    changes = registration_changes(stored(t), tournament_registered_data(preset(edited)))
    rows = [(c["section"], c["key"], c["was"], c["now"]) for c in changes]
    assert rows == [
        ("players", "3.rating", None, 2700),
        ("players", "12", {"name": "Player 12", "rating": None, "fide_id": None, "federation": None, "title": None},
         None),
        ("schedule", "1.start", "2023-10-05T13:00:00-05:00", "2023-10-05T14:00:00-05:00"),
        ("time_controls", "rapid", "600+2", "900+0"),
        ("regulations", "draw_offers.policy", "never", "not_before_move"),
        ("regulations", "draw_offers.min_moves", 0, 30),
        ("regulations", "default_time_ms.classical", 30 * 60_000, 15 * 60_000),
    ]
    assert [describe(c) for c in changes] == [
        "player 3 rating: (none) -> 2700",
        'player 12 removed (was {"name": "Player 12", "rating": null, "fide_id": null, "federation": null, '
        '"title": null})',
        'round 1 start: "2023-10-05T13:00:00-05:00" -> "2023-10-05T14:00:00-05:00"',
        'time control rapid: "600+2" -> "900+0"',
        'regulations draw_offers.policy: "never" -> "not_before_move"',
        "regulations draw_offers.min_moves: 0 -> 30",
        "regulations default_time_ms.classical: 30 min -> 15 min",
    ]


def test_a_registration_with_changes_compares_as_the_file_it_registered():
    """The ``changes`` and ``by`` of a re-registration are not the file's: the next restart with the
    same file finds nothing changed."""
    t, moved = preset(), preset(edited)
    again = registration(stored(t), moved, accept_changes=True).data
    assert again["by"] == ORGANISER and again["changes"]
    assert registration(json.loads(json.dumps(again)), moved).outcome == "unchanged"


def test_a_round_end_added_is_shown_in_utc():
    """A checkers Major/Minor division file gets its round end (11-Man National 2017 X.B.e)."""
    t = preset()
    end = dataclasses.replace(t.rounds[0], end_ms=t.rounds[0].start_ms + 4 * 3_600_000)
    changes = registration_changes(stored(t), tournament_registered_data(
        dataclasses.replace(t, rounds=(end, *t.rounds[1:]))))
    # 13:00 at UTC-5 is 18:00 UTC; four hours later 22:00 UTC
    assert [describe(c) for c in changes] == ["round 1 end_ms: (none) -> 2023-10-05T22:00:00+00:00"]


def in_play_state(t, ended: int) -> HallState:
    """The hall after round 1 of ``t`` was set up and its first ``ended`` games ended."""
    state = HallState()
    state.fold("tournament_registered", tournament_registered_data(t), 1)
    data = round_from_tournament(t, 1)
    state.fold("round_started", data, 2)
    for g in data["games"][:ended]:
        state.fold("game_ended", {"game": g["id"], "board": g["board"], "result": "1-0", "termination": "resignation",
                                  "ply": 0, "by": "device"}, 3)
    return state


def test_a_round_is_in_play_until_all_its_games_have_ended():
    t = preset()
    assert rounds_in_play(HallState()) == ()
    assert rounds_in_play(in_play_state(t, 0)) == ("1",)  # pairings out, no move yet
    assert rounds_in_play(in_play_state(t, 5)) == ("1",)  # 12 players: 6 boards, one still playing
    assert rounds_in_play(in_play_state(t, 6)) == ()


def test_the_decision():
    t, moved = preset(), preset(edited)
    first = registration(None, t)
    assert (first.outcome, first.data, first.changes) == ("first", tournament_registered_data(t), [])
    assert registration(stored(t), t, ("1",)) == registration(stored(t), t, ("1",), True)
    assert registration(stored(t), t, ("1",)).outcome == "unchanged"
    assert registration(stored(t), t, ("1",)).data is None
    between = registration(stored(t), moved, ())
    assert between.outcome == "changed" and between.data["by"] == ORGANISER
    assert between.data["changes"] == between.changes == registration_changes(stored(t), stored(moved))
    assert {k: v for k, v in between.data.items() if k not in ("changes", "by")} == tournament_registered_data(moved)
    refused = registration(stored(t), moved, ("1",))
    assert (refused.outcome, refused.data, refused.in_play) == ("refused", None, ("1",))
    assert refused.changes == between.changes
    accepted = registration(stored(t), moved, ("1",), accept_changes=True)
    assert accepted.outcome == "changed" and accepted.data == between.data
