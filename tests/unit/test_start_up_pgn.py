"""``venue gateway``/``venue serve --tournament FILE.toml --round ROUND.pgn``: the round's pairings
come from a PGN file, and the tournament file is registered in the log all the same
(docs/tournament-log.md "A changed file": the commands "register the file they are given each time
they start"), so what folds the log (the views, a restarted gateway) has the tournament. Once: the
same file again appends nothing; a changed file is refused while the round is in play, as for a
round paired from the file (tests/unit/test_start_up.py). venue.serve.prepare over an in-memory
log, as both commands call it.

The preset events/us-championship-2023.toml (12 players); the PGN holds its round 1 as the Berger
tables pair it (FIDE C.05 Annex 1, round 1: 1-12, 2-11, 3-10, 4-9, 5-8, 6-7, as the published
10-player table's 1-10, 2-9, ...), one game a board, without moves.
"""

from __future__ import annotations

import pytest
from start_up_preset import LATER, ROUND_1, pairings_pgn, preset, types

from services.state import HallState
from venue.serve import CliError, prepare


async def test_the_file_is_registered_before_the_pgn_round(log, tmp_path):
    done = await prepare(log, preset(), pairings_pgn(tmp_path), "chess")
    assert await types(log) == ["tournament_registered", "round_started"]
    assert done.lines == ["tournament file registered: 2023 U.S. Championship (12 players, 11 rounds)",
                          "round 1 (6 boards, logged)"]
    state = HallState()
    for entry in await log.read():
        state.apply(entry)
    assert state.config is not None and state.config.name == "2023 U.S. Championship"
    assert [(g.white, g.black) for g in (state.games[f"1-{b}"] for b in range(1, 7))] == [
        (f"Player {w:02d}", f"Player {b:02d}") for w, b in ROUND_1]


async def test_a_restart_with_the_same_file_registers_nothing_again(log, tmp_path):
    pgn = pairings_pgn(tmp_path)
    await prepare(log, preset(), pgn, "chess")
    before = await log.read()
    again = await prepare(log, preset(), pgn, "chess")
    assert await log.read() == before
    assert again.lines == ["tournament file unchanged since it was registered: nothing appended",
                           "round 1 (6 boards, already in the log)"]


async def test_a_changed_file_is_refused_while_the_pgn_round_is_in_play(log, tmp_path):
    pgn = pairings_pgn(tmp_path)
    await prepare(log, preset(), pgn, "chess")
    before = await log.read()
    shorter = preset(lambda s: s.replace(*LATER))
    with pytest.raises(CliError) as refused:
        await prepare(log, shorter, pgn, "chess")
    assert str(refused.value).splitlines()[:2] == [
        "the tournament file differs from the one registered, and round 1 is in play (1 change(s)):",
        "    regulations default_time_ms.classical: 30 min -> 15 min"]
    assert await log.read() == before
    done = await prepare(log, shorter, pgn, "chess", accept_changes=True)
    entry = (await log.read())[-1]
    assert await types(log) == ["tournament_registered", "round_started", "tournament_registered"]
    assert (entry.data["by"], entry.data["changes"]) == ("organiser", [
        {"section": "regulations", "key": "default_time_ms.classical", "was": 1_800_000, "now": 900_000}])
    assert done.lines[-1] == "round 1 (6 boards, already in the log)"


async def test_a_log_that_missed_the_registration_gets_it_once(log, tmp_path):
    # a log written before this fix: the PGN round without the file; the next start registers it
    pgn = pairings_pgn(tmp_path)
    await prepare(log, None, pgn, "chess")
    assert await types(log) == ["round_started"]
    await prepare(log, preset(), pgn, "chess")
    await prepare(log, preset(), pgn, "chess")
    assert await types(log) == ["round_started", "tournament_registered"]
