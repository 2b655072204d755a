"""``venue round start N --at TIME`` (docs/pairing.md "The round's life cycle"): a start more than a
minute in the past is refused with one line and nothing is written. FIDE Laws 6.7.1: the default time
counts from the start, so a start long past ("2020-01-01", a new user's typo of the year) would have
every player not yet seen at the board lose at once; the console's ``start_round`` refuses it too
(test_console_rounds_api.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from services.eventlog import open_log
from services.hall.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from venue.round import main as venue_round

EVENTS = Path(__file__).resolve().parents[2] / "events"


def test_a_start_in_the_past_is_refused_and_nothing_written(tmp_path, capsys) -> None:
    store = f"sqlite:///{tmp_path / 'event.sqlite'}"
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")

    async def register() -> None:
        log = open_log(store, t.slug)
        await log.append("tournament_registered", tournament_registered_data(t))
        await log.close()

    async def count() -> int:
        log = open_log(store, t.slug)
        try:
            return len(await log.read())
        finally:
            await log.close()

    asyncio.run(register())
    where = ["--store", store, "--tournament", t.slug]
    assert venue_round(["pair", "1", *where]) == 0
    assert venue_round(["publish", "1", *where]) == 0
    before = asyncio.run(count())
    capsys.readouterr()
    assert venue_round(["start", "1", "--at", "2020-01-01T10:00:00+00:00", *where]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "min in the past" in err[0] and "6.7.1" in err[0]
    assert asyncio.run(count()) == before
    assert venue_round(["start", "1", *where]) == 0  # now: started
    assert asyncio.run(count()) == before + 1
