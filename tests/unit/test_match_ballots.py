"""Ballots drawn for a round of checkers matches (venue.tournament.start_round): one per match from
the ACF deck of 156 openings (services/rules/data/acf_3move_ballots.csv), recorded in
``round_started``, the same for both games of a match (issue 6: "both games of a match play the same
ballot with colours reversed"), and none drawn again in a later round while the deck lasts."""

from pathlib import Path

from services.eventlog import open_log
from services.rules.checkers_ballots import load_deck
from venue.tournament import load_file, register, start_round

PRESET = str(Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml")


async def test_each_match_gets_a_drawn_ballot_recorded_in_the_round():
    log = open_log("memory://", "ballots")
    view = await register(log, load_file(PRESET))
    first = await start_round(log, view, 1)
    deck = {b.number: b for b in load_deck()}
    numbers = []
    for one, two in zip(first["games"][0::2], first["games"][1::2]):
        assert one["ballot"] == two["ballot"]
        number = one["ballot"]["ballot"]
        assert number in deck and one["ballot"]["moves"] == list(deck[number].moves)
        numbers.append(number)
    assert len(set(numbers)) == 5
    # start_round pairs from the view folded from the log: round 1 as logged, then its results (round 2
    # needs them; all drawn). Without round 1 folded, round 2's draw could not see its ballots.
    for entry in await log.read(view.seq):
        view.apply(entry)
    for entry in await log.read():
        for g in entry.data.get("games", []) if entry.type == "round_started" else []:
            view.apply(await log.append("game_ended", {"game": g["id"], "board": g["board"],
                                                       "result": "1/2-1/2", "termination": "agreement"}))
    second = await start_round(log, view, 2)
    again = {g["ballot"]["ballot"] for g in second["games"]}
    assert len(again) == 5 and not again & set(numbers)
    await log.close()
