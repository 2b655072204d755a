"""``venue demo --tournament FILE.toml``: the demo's way with a tournament file.

Everything in one process, as ``venue demo``: an embedded MQTT broker on a free port, a fresh SQLite
event log in a temporary directory, then

1. the tournament file is read and checked (``venue.tournament.load_file``) and registered in the log
   (``tournament_registered``); its schedule is moved so that round 1 starts now (at the next
   whole minute, at least 30 s ahead: the players are at their boards before the start, so the
   regulations' default time and fines see no one late; the file's own dates are printed);
2. round 1 is paired from the file (Berger tables or the Dutch system) and logged as
   ``round_started``: the boards and players of the round are the file's (a pairing-allocated bye
   gets no board);
3. the gateway (with the file's regulations), the dashboard (with the file's arbiters) and one
   simulated board and clock per board of the round, replaying real games shipped in ``venue/data``:
   checkers, the six Tinsley-Chinook games of London 1992 (one per board, in file order), or, when
   the rounds are Master division matches (a match clock: the 11-Man National preset), five real
   matches of London 1992 (``CHECKERS_MATCHES``: two games of one ballot with the colours reversed,
   the second game's clock starting where the first left each player; the ballots recorded in
   ``round_started`` are those matches' own); chess, the
   four games of the Candidates 2024 round 5, again from the first when the round has more boards.
   The moves and results are the real games'; the clocks run the event's time control
   (``services.clock.GameClock``: each move's thinking time is the real game's for chess, seeded
   and realistic for checkers; a side that would run short thinks faster).

Prints the progress as ``venue demo`` does, "round over" when every game of the round has ended,
then keeps serving until Ctrl-C (or returns with ``exit_when_done``). A real game's result that the
event's regulations refuse or leave to the arbiter (a draw agreed where the file bans draw offers, a
draw claim, Norway's Armageddon game after a draw, which no shipped game plays) leaves its game
open: once every board has played its moves the demo lists those games instead of "round over"
(an arbiter can decide them in the console).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
import time
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

from services.events import ArmageddonScheduled, DrawClaimReported, DrawOfferRefused
from services.events.vocabulary import GameStatus, Variant
from venue.demo_run import ROUND_FILE, STOPS_WHEN_DONE, run_task, wall_clock, watch
from venue.demo_workdir import demo_workdir
from venue.errors import CliError
from venue.serve import dashboard_at, gateway_ready
from venue.tournament import missing_passwords

CHECKERS_FILE = "tinsley_chinook_1992.pdn"
CHECKERS_MATCHES = "tinsley_chinook_1992_matches.pdn"
LEAD_MS = 30_000  # round 1 starts at least this long after the demo does
SETTLE_S = 3.0  # the boards are done and the log quiet this long: the games still open stay open
ARBITER_PENDING = (DrawOfferRefused.TYPE, DrawClaimReported.TYPE, ArmageddonScheduled.TYPE)


def shipped_text(name: str) -> str:
    """The text of a file shipped in ``venue/data``."""
    return resources.files("venue").joinpath("data", name).read_text("utf-8")


def starting_now(t, now_ms: int):
    """The tournament ``t`` with its schedule moved so that round 1 starts at the first whole
    minute at least ``LEAD_MS`` after ``now_ms`` (every round moved by the same amount, so the
    gaps between rounds stay the file's). ``t`` is returned unchanged when it has no round 1."""
    try:
        first = t.round(1)
    except KeyError:
        return t
    target = math.ceil((now_ms + LEAD_MS) / 60_000) * 60_000
    shift = target - first.start_ms
    rounds = []
    for r in t.rounds:
        start_ms = r.start_ms + shift
        try:
            zone = datetime.fromisoformat(r.start).tzinfo or timezone.utc
        except ValueError:
            zone = timezone.utc
        text = datetime.fromtimestamp(start_ms / 1000, zone).isoformat()
        end = r.end_ms + shift if r.end_ms is not None else None
        rounds.append(dataclasses.replace(r, start=text, start_ms=start_ms, end_ms=end))
    return dataclasses.replace(t, rounds=tuple(rounds))


def start_words(filed, t) -> str:
    """``"round 1 scheduled for 01:06:00 UTC (in the event's zone 2026-12-01T20:06:00-05:00; the file
    says 2017-07-10T09:00:00-05:00); the boards start at once, ..."``: the demo starts its boards as
    soon as it is ready, before the scheduled start (a newcomer should not wait a minute), so it
    says so. Round 1 of ``t`` (``filed`` moved by ``starting_now``) in
    the zone of the progress lines (``wall_clock``), then as the log records it, in the file's
    zone, and the file's own date. KeyError when ``t`` has no round 1."""
    first = t.round(1)
    was = filed.round(1).start if filed.rounds else "?"
    return (f"round 1 scheduled for {wall_clock(first.start_ms)} (in the event's zone {first.start}; "
            f"the file says {was}); the demo's boards start playing at once")


def round_scripts(game: str, setup: dict) -> tuple[list, list[str]]:
    """One Script per board of the round ``setup`` (``round_started`` data), replaying the shipped
    real games under each board's time control; and one line per board saying whose moves it
    plays. Raises ValueError when a shipped game does not replay."""
    from devices.checkers_script import script_from_record
    from devices.records import retime
    from devices.script import scripts_from_pgn
    from services.rules.checkers_pdn import read_pdn

    scripts, lines = [], []
    if game == Variant.CHECKERS and any(g.get("match") for g in setup["games"]):
        return _match_scripts(setup)
    if game == Variant.CHECKERS:
        records = read_pdn(shipped_text(CHECKERS_FILE))
        for i, g in enumerate(setup["games"]):
            record = records[i % len(records)]
            scripts.append(script_from_record(record, g["board"], control=g.get("time_control"),
                                              number=i % len(records) + 1))
            tags = record.tags
            lines.append(f"board {g['board']:>2}  {g['black']} (Black) - {g['white']} (White): moves of "
                         f"{tags.get('Event', '?')}, {tags.get('Black', '?')} - {tags.get('White', '?')}")
        return scripts, lines
    sources = scripts_from_pgn(shipped_text(ROUND_FILE))
    for i, g in enumerate(setup["games"]):
        source = sources[i % len(sources)]
        try:
            script = retime(source, g.get("time_control"), board=g["board"])
        except ValueError:  # no control the clock can run (e.g. a bidding Armageddon): real clocks
            script = dataclasses.replace(source, board=str(g["board"]))
        scripts.append(script)
        tags = script.tags
        lines.append(f"board {g['board']:>2}  {g['white']} - {g['black']}: moves of "
                     f"{tags.get('Event', '?')} {tags.get('Date', '?')[:4]}, round {tags.get('Round', '?')}, "
                     f"{tags.get('White', '?')} - {tags.get('Black', '?')}")
    return scripts, lines


def match_ballots(count: int) -> list[dict]:
    """The ballots of the first ``count`` matches the demo replays (``CHECKERS_MATCHES`` in file
    order, again from the first): each match's own opening, as ``Ballot.to_json()`` of the ACF deck
    (``{"ballot": None, ...}`` for an opening the deck lacks)."""
    from services.rules.checkers_ballots import Ballot, load_deck
    from services.rules.checkers_pdn import read_pdn, replay

    deck: dict[tuple[str, ...], Ballot] = {b.moves: b for b in load_deck(include_barred=True)}
    records = read_pdn(shipped_text(CHECKERS_MATCHES))
    out = []
    for i in range(count):
        opening = tuple(replay(records[(2 * i) % len(records)]).moves[:3])
        ballot = deck.get(opening)
        out.append(ballot.to_json() if ballot else {"ballot": None, "moves": list(opening), "name": None})
    return out


def _match_scripts(setup: dict) -> tuple[list, list[str]]:
    """Scripts for a round of checkers matches: per match, the next real match of
    ``CHECKERS_MATCHES`` (``devices.checkers_script.match_scripts``: game 2's clock carried over)."""
    from devices.checkers_script import match_scripts
    from services.rules.checkers_pdn import read_pdn

    records = read_pdn(shipped_text(CHECKERS_MATCHES))
    firsts = [g for g in setup["games"] if (g.get("match") or {}).get("game_no") == 1]
    scripts, lines = [], []
    for i, g in enumerate(firsts):
        k = (2 * i) % len(records)
        one, two = records[k], records[k + 1]
        scripts += match_scripts(one, two, g["board"], control=g.get("time_control"), numbers=(k + 1, k + 2))
        ballot = g.get("ballot") or {}
        lines.append(f"board {g['board']:>2}  match {g['black']} - {g['white']}, ballot "
                     f"{ballot.get('ballot')} ({' '.join(ballot.get('moves') or [])}): moves of "
                     f"{one.tags.get('Event', '?')} and {two.tags.get('Event', '?')[len('London 1992, '):]}")
    return scripts, lines


def _gateway(log, mqtt_url: str, t, speed: float):
    """The gateway with the file's settings, told the replay speed (its regulations' clock model
    runs at that rate)."""
    from gateway import Gateway

    return Gateway(log, mqtt_url, t.slug, tournament=t, clock_rate=speed)


async def run_tournament_demo(path: str, speed: float = 60.0, host: str = "127.0.0.1", port: int = 8000,
                              kind: str = "move", exit_when_done: bool = False, out=print) -> int:
    """Run the demo with the tournament file at ``path`` (module docstring); returns the exit code.
    CliError for a broken file, a round that cannot be paired, checkers with ``kind`` "position",
    a busy port or a failing broker."""
    from dashboard.arbiter.auth import Accounts
    from devices.simulate import play_scripts
    from gateway import embedded_broker
    from services.eventlog import open_log
    from venue.tournament import load_file, register, start_round

    filed = load_file(path)
    if filed.game == Variant.CHECKERS and kind != "move":
        raise CliError("checkers boards send moves: --boards-kind position is for chess only")
    t = starting_now(filed, int(time.time() * 1000))
    try:
        accounts = Accounts.load(t)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    with demo_workdir() as tmp:
        store = f"sqlite:///{Path(tmp) / 'venue.sqlite'}"
        log = open_log(store, t.slug)
        try:
            async with contextlib.AsyncExitStack() as stack:
                try:
                    mqtt_url = await stack.enter_async_context(embedded_broker(port=0))
                except Exception as exc:  # amqtt's errors have no common base worth naming
                    raise CliError(f"cannot start the embedded MQTT broker: {exc}") from None
                view = await register(log, t)
                setup = await start_round(log, view, 1, ballots=match_ballots(len(t.players)) if
                                          t.game == Variant.CHECKERS else None)
                if setup is None or not setup["games"]:
                    raise CliError(f"{path}: round 1 has no game to play")
                try:
                    scripts, lines = round_scripts(t.game, setup)
                except ValueError as exc:
                    raise CliError(f"a shipped game does not replay: {exc}") from None
                gateway = _gateway(log, mqtt_url, t, speed)
                gateway_task = run_task(stack, gateway.run(), "gateway")  # stopped before the broker
                await gateway_ready(gateway, gateway_task)
                url, app = await stack.enter_async_context(
                    dashboard_at(log, host, port, clock_rate=speed, accounts=accounts))
                _header(out, path, filed, t, setup, lines, speed, url, mqtt_url, store, accounts, exit_when_done)
                sim = run_task(stack, play_scripts(mqtt_url, t.slug, scripts, speed=speed, kind=kind),
                                "simulators")
                waiting = await _play_round(app.state.feed.view, log, sim, gateway_task, out)
                if waiting:
                    out(f"every board has played its game; {len(waiting)} game(s) wait for an "
                        f"arbiter's decision ({url}/arbiter):")
                    for line in waiting:
                        out(f"    {line}")
                else:
                    out("round over")
                if exit_when_done:
                    return 0
                out("Still serving the round; Ctrl-C to stop.")
                await asyncio.Event().wait()
        finally:
            await log.close()
    return 0


async def _play_round(view, log, sim: asyncio.Task, gateway_task: asyncio.Task, out) -> list[str]:
    """Print the progress until every game of the round has ended ([] then); or, once the boards
    have played every move and the log has been quiet for ``SETTLE_S``, one line per game still open (a result the
    regulations refused or left to the arbiter: a banned draw offer, a draw claim, an Armageddon
    game scheduled after a draw). CliError when the boards or the gateway fail."""
    watching = asyncio.ensure_future(watch(view, out))
    try:
        done, _ = await asyncio.wait({watching, sim, gateway_task}, return_when=asyncio.FIRST_COMPLETED)
        if watching in done:
            return []
        for name, task in (("the gateway", gateway_task), ("the simulated boards", sim)):
            if task in done and (task.cancelled() or task.exception() is not None):
                raise CliError(f"{name} stopped: {None if task.cancelled() else task.exception()}")
        if gateway_task in done:
            raise CliError("the gateway stopped")
        loop = asyncio.get_running_loop()
        last, quiet_since = -1, loop.time()
        while not watching.done():  # the gateway may still be working through the boards' messages
            if view.seq != last:
                last, quiet_since = view.seq, loop.time()
            elif loop.time() - quiet_since >= SETTLE_S:
                return await _open_games(view, log)
            await asyncio.sleep(0.2)
        return []
    finally:
        watching.cancel()


async def _open_games(view, log) -> list[str]:
    why: dict[str, str] = {}
    for entry in await log.read():
        game = entry.data.get("game") or entry.data.get("id")  # armageddon_scheduled: its SETUP
        if entry.type in ARBITER_PENDING and game:
            rule = entry.data.get("rule")
            why[game] = entry.type.replace("_", " ") + (f": {rule}" if rule else "")
    return [f"board {g['board']}  {g['white']} - {g['black']}: {why.get(g['id'], 'no result yet')}"
            for g in view.games() if g["status"] != GameStatus.ENDED]


def _header(out, path, filed, t, setup, lines, speed, url, mqtt_url, store, accounts, exit_when_done=False) -> None:
    games = setup["games"]
    boards = len({g["board"] for g in games})
    what = f"{boards} boards" if boards == len(games) else f"{boards} matches of two games"
    out(f"Venue demo: {t.name}, round {setup['round']} from {path}: {what} replayed at {speed:g}x")
    out(f"  {start_words(filed, t)}; players and pairings from the file, moves and results from "
        "real games (venue/data/README.md), clocks for the event's time control:")
    for line in lines:
        out(f"    {line}")
    for bye in setup.get("byes") or []:  # the PAB's start number, or {"start_no", "code"} of an absent player
        no, code = (bye, "") if isinstance(bye, int) else (bye["start_no"], f" ({bye['code']})")
        out(f"    bye         {t.player(no).name}{code}")
    out(f"  spectators   {url}/")
    out(f"  arbiters     {url}/arbiter ({len(accounts.by_login)} login(s) from the file and "
        "the environment)")
    for name in missing_passwords(t):
        out(f"               set {name} to let that arbiter of the file log in")
    out(f"  API          {url}/api/games   standings {url}/api/standings")
    out(f"  MQTT broker  {mqtt_url} (embedded)   event log {store}")
    out(STOPS_WHEN_DONE if exit_when_done else "Ctrl-C to stop.")
