"""Replaying a round of real games over MQTT: one simulated board and clock per hall board."""

from __future__ import annotations

import asyncio

from devices.script import scripts_from_pgn
from devices.station import SimulatedBoard


async def simulate(mqtt_url: str, tournament: str, pgn_text: str, *, speed: float = 1.0,
                   kind: str = "move", faults: frozenset = frozenset(),
                   boards: list[str] | None = None, username: str | None = None,
                   password: str | None = None, outage_s: float = 1.0) -> None:
    """Play every game of ``pgn_text`` at once, each on its hall board; return when all are done.

    ``boards``: the hall board of each game in file order (default: Board tag, else the order, as
    ``services.hall.setup.round_from_pgn``). ``speed``: 60 plays an hour in a minute. ``kind``:
    ``"move"`` or ``"position"`` boards; ``faults``: see ``devices.station``. Raises ValueError for a
    broken PGN or bad options; the first device error otherwise (the others are cancelled).
    """
    scripts = scripts_from_pgn(pgn_text, boards=boards)
    stations = [SimulatedBoard(mqtt_url, tournament, script, speed=speed, kind=kind, faults=faults,
                               username=username, password=password, outage_s=outage_s)
                for script in scripts]
    async with asyncio.TaskGroup() as group:
        for station in stations:
            group.create_task(station.run())
