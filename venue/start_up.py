"""``venue serve`` and ``venue gateway`` starting on a tournament's log, first or again (issue 10
"A restart forfeits the hall").

:func:`start_up` folds the log once (``services.state.HallState`` and the tournament's
``TournamentView``), then:

1. registers the tournament file as ``services.arbiter_office.registration`` decides: the same file appends
   nothing; a changed file is registered with its changes between rounds, refused while a round is
   in play unless the organiser gives ``--accept-changes`` (CliError, nothing written);
2. starts the round asked for (``--round N``; round 1 when the log has none, unless the file lists no
   players: an event run from the console, whose rounds the console starts) with its real start in
   ``round_started`` (``start_ms``: ``--round-start``, else the file's schedule), or carries on with
   the round in the log: a round already in the log is never set up again and its start never moved
   (``--round-start`` is then ignored, and said so);
3. returns the lines to print: what was registered or kept, and the round played now.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime

import msgspec

from services.arbiter_office.registration import Registration, registration, rounds_in_play
from services.arbiter_office.tournament_changes import describe
from services.arbiter_office.tournament_log import ENTRY_TYPE
from services.events import RoundStarted
from services.state import HallState
from services.views.standings import TournamentView

from venue.errors import CliError


@dataclass
class StartUp:
    """What :func:`start_up` did: ``lines`` to print, ``setup`` the ``round_started`` data of the
    round played now (None: no round), ``added`` whether that round was logged now."""

    lines: list[str] = field(default_factory=list)
    setup: dict | None = None
    added: bool = False


async def start_up(log, t, round_no: int | None, start_ms: int | None = None, accept_changes: bool = False,
                   now_ms: int | None = None) -> StartUp:
    """Register ``t`` (a ``Tournament``, or None for a slug) and start or carry on with the round
    (module docstring). ``round_no``: ``--round N`` (None: carry on, or round 1 in an empty log);
    ``start_ms``: ``--round-start`` in ms since the epoch. CliError when the changed file is
    refused, the round cannot be paired or ``--round N`` comes without a tournament file."""
    from venue.tournament import pair_and_log

    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    state, registered = await _folded(log)
    view = TournamentView(state)  # the standings read the same state
    if t is None and round_no is not None:
        raise CliError("--round N (a round number) needs --tournament FILE.toml to pair it from")
    carry = _round_to_carry_on(state, round_no)
    # a file without players is an event registered from the console (players imported there, each
    # round paired, published and started there: docs/arbiter.md): no round is started for it unasked
    console_run = t is not None and not t.players and round_no is None
    if carry is None and t is not None and not console_run:
        _check_startable(state, t, round_no or 1, start_ms, now_ms)  # before anything is written
    out = StartUp()
    if t is not None:
        out.lines += await _register(log, state, registered, t, accept_changes)
    if carry is not None:
        out.setup = _setup_of(state, carry)
        out.lines.append(round_line(state, carry, now_ms, start_ms is not None, round_no))
    elif t is None:
        out.lines.append("no round in the log yet")
    elif console_run:
        out.lines.append("no round in the log yet; the file lists no players: register them in the arbiters' "
                         "console (Round panel) or with venue players, then pair, publish and start round 1 there "
                         "(or venue round pair|publish|start 1)")
    else:
        number = round_no or 1
        out.setup = await pair_and_log(log, view, number, start_ms)
        out.added = True
        state.fold(RoundStarted.TYPE, out.setup, now_ms)
        out.lines.append(round_line(state, str(number), now_ms, start_ms is not None, round_no, new=True))
    return out


async def register_file(log, t, accept_changes: bool = False) -> list[str]:
    """Register the tournament file ``t`` as :func:`start_up` does (module docstring, step 1) for a
    round that comes from elsewhere (``--round FILE.pgn``): the log must hold the tournament whatever
    sets its rounds up, or what folds the log (views, a restarted gateway) has no tournament. Returns
    the lines to print; CliError when the changed file is refused (nothing written)."""
    state, registered = await _folded(log)
    return await _register(log, state, registered, t, accept_changes)


async def _folded(log) -> tuple[HallState, dict | None]:
    """The log folded, and the data of its latest ``tournament_registered`` (None: none)."""
    state, registered = HallState(), None
    for entry in await log.read(0):
        state.apply(entry)
        if entry.type == ENTRY_TYPE:
            registered = entry.data
    return state, registered


async def _register(log, state: HallState, registered: dict | None, t, accept_changes: bool) -> list[str]:
    reg = registration(registered, t, rounds_in_play(state), accept_changes)
    if reg.outcome == "refused":
        raise CliError(refusal(reg))
    if reg.data is not None:
        state.apply(await log.append(ENTRY_TYPE, reg.data))
    return registration_lines(reg, t)


def _check_startable(state: HallState, t, number: int, start_ms: int | None, now_ms: int) -> None:
    """CliError, before anything is written, when round ``number`` cannot be started now: a round
    skipped (rounds are played in order), the latest round still in play, or a start so long ago
    that the default time (FIDE Laws 6.7.1) has passed: every absent player would lose at once (a
    preset's date, a log lost or a wrong store: start it with ``--round-start``)."""
    latest = _highest(state)
    if number > latest + 1:
        raise CliError(f"round {number} cannot be started: the rounds are played in order and the latest in the "
                       f"log is {'none' if not latest else 'round ' + str(latest)}: start round {latest + 1}")
    playing = rounds_in_play(state)
    if playing:
        r = state.rounds[playing[-1]]
        games = [state.games[g] for g in r.games if g in state.games]
        ended = sum(1 for g in games if g.ended)
        raise CliError(f"round {number} cannot be started: round {r.number} is still in play ({ended} of "
                       f"{len(games)} games ended); record every result first (the arbiters' console)")
    if start_ms is not None:
        return
    try:
        scheduled = t.round(number)
    except KeyError:
        return
    default_ms = t.regulations.default_time_for(t.kind)
    if now_ms > scheduled.start_ms + default_ms:
        # with no default time nobody is defaulted automatically (docs/arbiter.md "Not at the board"),
        # but a round started in the past still has its clocks and scheduled times count from then
        why = (f"its default time ({default_ms // 60000} min, FIDE Laws 6.7.1) passed long ago: every absent player "
               "would lose at once" if default_ms else
               "it is long past: started so, its clocks and the regulations' times would count from then")
        raise CliError(f"round {number} is scheduled for {scheduled.start}, and {why}. Start it with --round-start "
                       "now (or the time it really starts), or fix the schedule in the tournament file. If the round "
                       "was already being played, this store does not hold its log: check --store")


def _round_to_carry_on(state: HallState, round_no: int | None) -> str | None:
    """The round of the log to carry on with (None: a round is to be started): the latest round set
    up, unless ``--round N`` names a round that is neither in the log nor before one in it (a round
    is never set up again, and the hall plays the latest)."""
    if round_no is None or str(round_no) in state.rounds or round_no <= _highest(state):
        return state.current
    return None


def _highest(state: HallState) -> int:
    return max((int(n) for n in state.rounds if n.isdigit()), default=0)


def _setup_of(state: HallState, number: str) -> dict:
    r = state.rounds[number]
    return {**r.info(), "games": [msgspec.to_builtins(state.games[g].setup) for g in r.games if g in state.games]}


def registration_lines(reg: Registration, t) -> list[str]:
    """What the registration did, for the console."""
    if reg.outcome == "first":
        return [f"tournament file registered: {t.name} ({len(t.players)} players, {t.rounds_total} rounds)"]
    if reg.outcome == "unchanged":
        return ["tournament file unchanged since it was registered: nothing appended"]
    why = (f"--accept-changes with round {_and(reg.in_play)} in play" if reg.in_play else "no round in play")
    return [f"tournament file changed: {len(reg.changes)} change(s) registered ({why}):",
            *(f"    {describe(c)}" for c in reg.changes)]


def refusal(reg: Registration) -> str:
    """The CliError text for a changed file refused while a round is in play."""
    lines = [f"the tournament file differs from the one registered, and round {_and(reg.in_play)} "
             f"is in play ({len(reg.changes)} change(s)):"]
    lines += [f"    {describe(c)}" for c in reg.changes]
    lines.append("nothing was changed: put the file back as it was, or run again with --accept-changes "
                 "to register these changes for the games in play")
    return "\n".join(lines)


def _and(numbers) -> str:
    return ", ".join(numbers)


def round_line(state: HallState, number: str, now_ms: int, start_given: bool, round_no: int | None,
               new: bool = False) -> str:
    """The round played now, for the console: ``round 1 (6 boards) logged: starts 14:02
    (--round-start; the file says ...)``, ``round 1 in play since 14:02 (started with --round-start;
    the file says ...): 2 of 6 games ended; carrying on; --round-start ignored``."""
    r = state.rounds[number]
    games = [state.games[g] for g in r.games if g in state.games]
    boards = len({g.board for g in games})
    start = r.start_ms if r.start_ms is not None else _scheduled_ms(state, number)
    origin = _origin(state, number, r, new)
    if new:
        return f"round {number} ({boards} boards) logged: starts {_when(start, now_ms)}{origin}"
    ended = sum(g.ended for g in games)
    if games and ended == len(games):
        head = f"round {number} over ({ended} of {len(games)} games ended)"
    elif start is not None and start > now_ms:
        head = f"round {number} set up, starts {_when(start, now_ms)}{origin}"
    else:
        since = f" since {_when(start, now_ms)}" if start is not None else ""
        head = f"round {number} in play{since}{origin}: {ended} of {len(games)} games ended"
    notes = ["carrying on"]
    if round_no is not None and str(round_no) != number:
        notes.append(f"round {round_no} is in the log already; round {number} is the latest")
    if start_given:
        notes.append("--round-start ignored (the round's start is in the log)")
    return "; ".join([head, *notes])


def _scheduled_ms(state: HallState, number: str) -> int | None:
    t = state.config
    try:
        return t.round(int(number)).start_ms if t is not None else None
    except (KeyError, ValueError):
        return None


def _origin(state: HallState, number: str, r, new: bool) -> str:
    t = state.config
    try:
        filed = t.round(int(number)).start if t is not None else None
    except (KeyError, ValueError):
        filed = None
    draft = state.tournament.drafts.get(int(number)) if number.isdigit() else None
    if draft is not None and draft.started and draft.published is not None:
        # started from the console or `venue round start`: the round's start is the arbiter's, not --round-start's
        how = f"started from its published pairing, version {draft.published}"
        return f" ({how}; the file says {filed})" if filed and r.scheduled_start_ms is not None else f" ({how})"
    if r.scheduled_start_ms is not None:
        verb = "--round-start" if new else "started with --round-start"
        return f" ({verb}; the file says {filed})" if filed else f" ({verb})"
    if r.start_ms is None and filed is None:
        return " (no scheduled start)"
    return " (as the file schedules it)" if filed else ""


def _when(ms: int | None, now_ms: int) -> str:
    """``ms`` in the machine's local time: ``14:02`` today, else ``2023-10-05 13:00``."""
    if ms is None:
        return "(no start)"
    at = datetime.fromtimestamp(ms / 1000).astimezone()
    today = datetime.fromtimestamp(now_ms / 1000).astimezone().date()
    return at.strftime("%H:%M") if at.date() == today else at.strftime("%Y-%m-%d %H:%M %Z")
