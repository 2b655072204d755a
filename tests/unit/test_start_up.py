"""``venue serve`` started on a log that holds the event already (issue 10 "A restart forfeits the
hall"): venue.start_up over an in-memory log, as the command calls it.

The preset events/us-championship-2023.toml schedules round 1 at 2023-10-05T13:00:00-05:00; its 12
players make 6 boards (Berger tables, FIDE C.05 Annex 1). ``--round-start`` is recorded in the
round's ``round_started`` (``start_ms``, with ``scheduled_start_ms`` the file's time), never in the
registration; a round in the log is never set up again; a changed file is refused while a round is
in play (docs/tournament-log.md "A changed file").
"""

from __future__ import annotations

from datetime import datetime

import pytest
from start_up_preset import EVENTS, preset, types

from venue.serve import CliError
from venue.start_up import start_up
from venue.tournament import parse_round_start

SCHEDULED_MS = int(datetime.fromisoformat("2023-10-05T13:00:00-05:00").timestamp() * 1000)  # the preset's round 1
NOW = SCHEDULED_MS + 2 * 365 * 86_400_000  # a rehearsal two years on
BEFORE_R1 = SCHEDULED_MS - 600_000  # the hall set up ten minutes before round 1 starts
BEFORE_R2 = int(datetime.fromisoformat("2023-10-06T13:00:00-05:00").timestamp() * 1000) - 600_000


async def test_round_start_goes_into_the_round_and_the_registration_stays_the_file(log):
    t = preset()
    done = await start_up(log, t, 1, start_ms=NOW, now_ms=NOW)
    registered, started = await log.read()
    assert registered.type == "tournament_registered" and started.type == "round_started"
    assert registered.data["rounds"][0]["start"] == "2023-10-05T13:00:00-05:00"
    assert (started.data["start_ms"], started.data["scheduled_start_ms"]) == (NOW, SCHEDULED_MS)
    assert len(started.data["games"]) == 6 and done.added
    assert done.lines[0] == "tournament file registered: 2023 U.S. Championship (12 players, 11 rounds)"
    assert done.lines[1].startswith("round 1 (6 boards) logged: starts ")
    assert done.lines[1].endswith("(--round-start; the file says 2023-10-05T13:00:00-05:00)")


async def test_without_round_start_the_round_carries_the_files_schedule(log):
    await start_up(log, preset(), None, now_ms=BEFORE_R1)
    started = (await log.read())[-1]
    assert started.data["round"] == "1" and started.data["start_ms"] == SCHEDULED_MS
    assert "scheduled_start_ms" not in started.data
    assert started.data["date"] == "2023.10.05"


@pytest.mark.parametrize("again", [
    {"round_no": None, "start_ms": None},                 # the README's restart: without --round
    {"round_no": 1, "start_ms": NOW + 3_600_000},         # the first command again, an hour later
    {"round_no": None, "start_ms": NOW + 3_600_000},
])
async def test_a_restart_with_the_same_file_appends_nothing(log, again):
    t = preset()
    await start_up(log, t, 1, start_ms=NOW, now_ms=NOW)
    before = await log.read()
    done = await start_up(log, t, again["round_no"], start_ms=again["start_ms"], now_ms=NOW + 3_600_000)
    assert await log.read() == before
    assert not done.added and done.setup["round"] == "1" and len(done.setup["games"]) == 6
    assert done.lines[0] == "tournament file unchanged since it was registered: nothing appended"
    line = done.lines[1]
    assert line.startswith("round 1 in play since ") and "(started with --round-start; the file says " \
        "2023-10-05T13:00:00-05:00): 0 of 6 games ended; carrying on" in line
    assert line.endswith("--round-start ignored (the round's start is in the log)") == (again["start_ms"] is not None)


async def test_a_changed_file_is_refused_while_the_round_is_in_play(log):
    await start_up(log, preset(), 1, start_ms=NOW, now_ms=NOW)
    before = await log.read()
    shorter = preset(lambda s: s.replace('[regulations.default_time]\nclassical = "30m"',
                                         '[regulations.default_time]\nclassical = "15m"'))
    with pytest.raises(CliError) as refused:
        await start_up(log, shorter, None, now_ms=NOW)
    assert str(refused.value).splitlines() == [
        "the tournament file differs from the one registered, and round 1 is in play (1 change(s)):",
        "    regulations default_time_ms.classical: 30 min -> 15 min",
        "nothing was changed: put the file back as it was, or run again with --accept-changes to register "
        "these changes for the games in play"]
    assert await log.read() == before
    done = await start_up(log, shorter, None, accept_changes=True, now_ms=NOW)
    entry = (await log.read())[-1]
    assert len(await log.read()) == len(before) + 1 and entry.type == "tournament_registered"
    assert entry.data["by"] == "organiser"
    assert entry.data["changes"] == [{"section": "regulations", "key": "default_time_ms.classical",
                                      "was": 1_800_000, "now": 900_000}]
    assert done.lines[:2] == ["tournament file changed: 1 change(s) registered (--accept-changes with round 1 in "
                              "play):", "    regulations default_time_ms.classical: 30 min -> 15 min"]
    again = await start_up(log, shorter, None, now_ms=NOW)  # and that file is now the registered one
    assert again.lines[0].startswith("tournament file unchanged") and (await log.read())[-1] == entry


async def test_between_rounds_a_changed_file_is_registered_with_its_changes(log):
    await start_up(log, preset(), 1, now_ms=BEFORE_R1)
    for g in (await log.read())[-1].data["games"]:
        await log.append("game_ended", {"game": g["id"], "board": g["board"], "result": "1/2-1/2",
                                        "termination": "agreement", "ply": 60, "by": "device"})
    later = preset(lambda s: s.replace('start = "2023-10-06T13:00:00-05:00"', 'start = "2023-10-06T15:00:00-05:00"'))
    done = await start_up(log, later, 2, now_ms=BEFORE_R2)
    registered, started = (await log.read())[-2:]
    assert registered.data["changes"] == [{"section": "schedule", "key": "2.start", "was": "2023-10-06T13:00:00-05:00",
                                           "now": "2023-10-06T15:00:00-05:00"}]
    assert done.lines[0] == "tournament file changed: 1 change(s) registered (no round in play):"
    assert started.data["round"] == "2"
    assert started.data["start_ms"] == int(datetime.fromisoformat("2023-10-06T15:00:00-05:00").timestamp() * 1000)


async def test_a_round_over_is_said_so(log):
    await start_up(log, preset(), 1, now_ms=BEFORE_R1)
    for g in (await log.read())[-1].data["games"]:
        await log.append("game_ended", {"game": g["id"], "board": g["board"], "result": "1-0",
                                        "termination": "resignation", "ply": 41, "by": "device"})
    done = await start_up(log, preset(), None, now_ms=NOW)
    assert done.lines[1] == "round 1 over (6 of 6 games ended); carrying on"


async def test_round_start_moves_a_rounds_end_with_its_start(log):
    """11-Man National 2017 X.B.e counts from the round's end: ``--round-start`` moves the round as a
    whole, so its ``round_started`` carries the end at the same distance from the start as the file
    schedules it, and the late-start rule reads it from there."""
    path = EVENTS / "checkers-11-man-national-2017.toml"
    t = preset(lambda s: s.replace("# end = ", "end = "), path)
    length = t.round(1).end_ms - t.round(1).start_ms
    done = await start_up(log, t, 1, start_ms=NOW, now_ms=NOW)
    assert (done.setup["start_ms"], done.setup["end_ms"]) == (NOW, NOW + length)
    assert done.setup["scheduled_start_ms"] == t.round(1).start_ms


def test_parse_round_start():
    assert parse_round_start("now", NOW) == NOW
    assert parse_round_start("2023-10-05T13:00:00-05:00", NOW) == SCHEDULED_MS
    with pytest.raises(CliError, match="needs a UTC offset"):
        parse_round_start("2023-10-05T13:00:00", NOW)
    with pytest.raises(CliError, match="not a date and time"):
        parse_round_start("tomorrow", NOW)
    # a start whose date Python's calendar cannot write in the round's offset (past 9999-12-31,
    # round_from_file.LAST_START_MS): refused as the option's bad value, as the console's start_ms is
    # (docs/arbiter.md "A bad body is refused with 400 {"error"} naming the field")
    with pytest.raises(CliError, match="--round-start: '9999-12-31T23:00:00-05:00' is outside"):
        parse_round_start("9999-12-31T23:00:00-05:00", NOW)


async def test_an_earlier_round_is_never_set_up_again(log):
    """``--round 1`` once round 2 is in the log: nothing appended; the hall carries on with round 2."""
    await start_up(log, preset(), 1, now_ms=BEFORE_R1)
    for g in (await log.read())[-1].data["games"]:
        await log.append("game_ended", {"game": g["id"], "board": g["board"], "result": "0-1",
                                        "termination": "resignation", "ply": 30, "by": "device"})
    await start_up(log, preset(), 2, now_ms=BEFORE_R2)
    before = await log.read()
    done = await start_up(log, preset(), 1, start_ms=NOW, now_ms=NOW)
    assert await log.read() == before and done.setup["round"] == "2"
    assert done.lines[1].endswith("carrying on; round 1 is in the log already; round 2 is the latest; "
                                  "--round-start ignored (the round's start is in the log)")


async def test_a_round_whose_default_time_has_passed_is_not_started(log):
    """A log with no round (a wrong store, a log lost) and a file whose round 1 is long past: started
    as scheduled, FIDE Laws 6.7.1 (US 2023 rule 1: "more than 30 (thirty) minutes late ... shall
    forfeit") would default every player at once. Refused, nothing written; --round-start starts it."""
    with pytest.raises(CliError, match="default time .* passed long ago.*--round-start now"):
        await start_up(log, preset(), None, now_ms=NOW)
    assert await types(log) == []
    done = await start_up(log, preset(), None, start_ms=NOW, now_ms=NOW)
    assert done.added and (await log.read())[-1].data["start_ms"] == NOW


async def test_a_long_past_round_without_a_default_time_is_refused_for_what_it_is(log):
    """A new user's finding: the checkers preset (no default time: docs/arbiter.md "Not at the
    board": "With a default time of zero ... nobody is defaulted automatically") was refused with
    "its default time (0 min, FIDE Laws 6.7.1) passed long ago: every absent player would lose at
    once", which is not so. Still refused (its clocks and scheduled times would count from 2017),
    nothing written, with the reason that holds and the way to start it."""
    t = preset(path=EVENTS / "checkers-11-man-national-2017.toml")
    assert t.regulations.default_time_for(t.kind) == 0
    with pytest.raises(CliError) as refused:
        await start_up(log, t, None, now_ms=NOW)
    assert "long past" in str(refused.value) and "--round-start now" in str(refused.value)
    assert "default time" not in str(refused.value) and "would lose" not in str(refused.value)
    assert await types(log) == []


async def test_rounds_are_started_in_order_and_never_while_one_is_in_play(log):
    """A new user's finding: ``--round 3`` while round 1 was in play was accepted and left round 1's
    games orphaned. Rounds are played in order, each once the one before is over."""
    await start_up(log, preset(), 1, now_ms=BEFORE_R1)
    with pytest.raises(CliError, match="round 1 is still in play \\(0 of 6 games ended\\)"):
        await start_up(log, preset(), 2, now_ms=BEFORE_R2)
    with pytest.raises(CliError, match="rounds are played in order .* start round 2"):
        await start_up(log, preset(), 3, start_ms=NOW, now_ms=NOW)
    assert await types(log) == ["tournament_registered", "round_started"]


async def test_a_file_without_players_is_registered_and_no_round_started_unasked(log):
    # An event run from the console (docs/arbiter.md): the players are imported there and each round is
    # paired, published and started there. A new user's `venue serve --tournament club.toml` with no
    # players registered the file, then failed "cannot pair round 1: no player (001) lines", exit 2.
    t = preset(lambda text: text[:text.index("[[players]]")])
    assert t.players == ()
    done = await start_up(log, t, None, now_ms=NOW)
    assert await types(log) == ["tournament_registered"] and done.setup is None and not done.added
    assert "the file lists no players: register them in the arbiters' console" in done.lines[-1]
    again = await start_up(log, t, None, now_ms=NOW)  # a restart: nothing more, still no round
    assert await types(log) == ["tournament_registered"] and again.setup is None


async def test_a_round_started_from_its_published_pairing_says_so_at_a_restart(log):
    """A new user's finding: after a restart the banner said "started with --round-start" of a round
    started from the console (pair, publish, start: docs/pairing.md "The round's life cycle")."""
    from services.arbiter_office.round_draft import draft_round, publish_entry, start_data
    from services.arbiter_office.tournament_log import tournament_registered_data
    from services.state import HallState
    from services.views.standings import TournamentView

    t = preset()
    await log.append("tournament_registered", tournament_registered_data(t))

    async def view() -> TournamentView:
        state = HallState()
        for e in await log.read():
            state.apply(e)
        return TournamentView(state)

    await log.append(*draft_round(await view(), 1, by="chief").encode())
    await log.append(*publish_entry(await view(), 1, None, by="chief").encode())
    await log.append("round_started", start_data(await view(), 1, start_ms=NOW, now_ms=NOW, by="chief"))
    before = await log.read()
    done = await start_up(log, t, None, now_ms=NOW + 60_000)
    assert await log.read() == before
    assert done.lines[1].startswith("round 1 in play since ")
    assert ("(started from its published pairing, version 1; the file says 2023-10-05T13:00:00-05:00): "
            "0 of 6 games ended; carrying on") in done.lines[1]
