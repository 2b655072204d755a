"""Replaying a round of real games over MQTT: one simulated board and clock per hall board."""

from __future__ import annotations

import asyncio

from devices.records import scripts_from_text
from devices.script import Script
from devices.station import CONFIRM_WAIT_S, RETRY_S, SimulatedBoard


async def simulate(mqtt_url: str, tournament: str, pgn_text: str, *, speed: float = 1.0,
                   kind: str = "move", faults: frozenset = frozenset(),
                   boards: list[str] | None = None, username: str | None = None,
                   password: str | None = None, outage_s: float = 1.0, variant: str | None = None,
                   control=None, seed: object = 0,
                   logins: dict[str, tuple[str, str]] | None = None, round: str | None = None,
                   retry_s: float = RETRY_S, confirm_wait_s: float = CONFIRM_WAIT_S) -> None:
    """Play every game of ``pgn_text`` at once, each on its hall board; return when all are done.

    ``pgn_text``: PGN (chess, with ``[%clk]``) or PDN (checkers); ``variant``: "chess",
    "checkers" or None to tell from the text (``devices.records.detect_variant``). ``boards``: the
    hall board of each game in file order (default: Board tag, else the order, as
    ``services.arbiter_office.setup.round_from_pgn``). ``speed``: 60 plays an hour in a minute. ``kind``:
    ``"move"`` or ``"position"`` boards (chess only); ``faults``: see ``devices.station``;
    ``control``: the time control for the clocks (checkers default: 90 minutes each; chess default:
    the games' own ``[%clk]``); ``seed``: checkers thinking times (``devices.thinking``);
    ``logins``: ``{board: (username, password)}``, each board's own login (the venue's Mosquitto
    keeps a login to its board and makes it the client id: ``board_logins``), else ``username``
    and ``password`` (or the URL's) for every board; ``round``, ``retry_s``, ``confirm_wait_s``: the
    stations' end-to-end acknowledgement (``devices.station.SimulatedBoard``: each returns once the
    gateway has answered all its messages). Raises
    ValueError for a broken file or bad options; the first device error otherwise (the others
    are cancelled).
    """
    scripts = scripts_from_text(pgn_text, variant=variant, boards=boards, control=control, seed=seed)
    await play_scripts(mqtt_url, tournament, scripts, speed=speed, kind=kind, faults=faults,
                       username=username, password=password, outage_s=outage_s, logins=logins, round=round,
                       retry_s=retry_s, confirm_wait_s=confirm_wait_s)


async def play_scripts(mqtt_url: str, tournament: str, scripts: list[Script], *, speed: float = 1.0,
                       kind: str = "move", faults: frozenset = frozenset(),
                       username: str | None = None, password: str | None = None,
                       outage_s: float = 1.0,
                       logins: dict[str, tuple[str, str]] | None = None, round: str | None = None,
                       retry_s: float = RETRY_S, confirm_wait_s: float = CONFIRM_WAIT_S) -> list[SimulatedBoard]:
    """Play ``scripts`` at once, one ``SimulatedBoard`` per hall board (options as ``simulate``):
    scripts on the same board are played one after the other on it, in order (a checkers match:
    ``SimulatedBoard.then``); returns the stations when all are done (their ``sent`` and
    ``feedback``). Raises ValueError for bad options, or a board missing from ``logins``, before
    anything is sent."""
    by_board: dict[str, list[Script]] = {}
    for script in scripts:
        by_board.setdefault(script.board, []).append(script)
    if logins is not None and (missing := sorted(set(by_board) - set(logins))):
        raise ValueError(f"no login for boards {', '.join(missing)}")
    stations = [SimulatedBoard(mqtt_url, tournament, games[0], speed=speed, kind=kind, faults=faults,
                               username=logins[board][0] if logins else username,
                               password=logins[board][1] if logins else password,
                               outage_s=outage_s, then=tuple(games[1:]), round=round, retry_s=retry_s,
                               confirm_wait_s=confirm_wait_s)
                for board, games in by_board.items()]
    async with asyncio.TaskGroup() as group:
        for station in stations:
            group.create_task(station.run())
    return stations


def board_logins(credentials: dict, tournament: str) -> dict[str, tuple[str, str]]:
    """``{board: (username, password)}`` of ``tournament``'s board logins in ``credentials``, the
    ``credentials.json`` of deploy/make-mosquitto-passwords.py (``{"devices": [{"tournament",
    "board", "device", "username", "password"}, ...]}``); a board's login also sends its clock's
    messages. ValueError when the file has no board of that tournament."""
    logins = {d["board"]: (d["username"], d["password"]) for d in credentials.get("devices", [])
              if d.get("tournament") == tournament and d.get("device") == "board"}
    if not logins:
        raise ValueError(f"the credentials hold no board login of tournament {tournament!r}")
    return logins
