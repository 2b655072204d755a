"""Tournament files on the command line: ``--tournament FILE.toml`` for ``serve``, ``gateway``,
``dashboard`` and ``demo`` (docs/tournament-file.md), and ``venue hash-password``.

A tournament file is read and checked before anything starts (a broken one stops the command with
its file, line and field); it is registered in the log as ``tournament_registered`` (once, and again
only when the file changed: docs/tournament-log.md), and rounds are paired from it (Berger tables or
the Dutch system) and logged as ``round_started`` with their real start (``--round-start``). What
``venue serve`` does on a log that already holds the event is ``venue.start_up``'s.
"""

from __future__ import annotations

import getpass
import sys

from services.events import RoundStarted
from services.events.vocabulary import Variant
from services.arbiter_office.registration import registration
from services.arbiter_office.round_from_file import LAST_START_MS, round_from_view
from services.arbiter_office.tournament_log import ENTRY_TYPE, tournament_from_data
from services.views.standings import TournamentView
from services.regulations.fields import TournamentFileError
from services.regulations.model import Tournament
from services.regulations.tournament_file import load_tournament
from venue.errors import CliError, read_text


def is_file_argument(value: str) -> bool:
    """True when ``--tournament`` names a tournament file rather than a slug."""
    return value.endswith(".toml")


def load_file(path: str) -> Tournament:
    """The tournament file at ``path``; CliError with "FILE:LINE: FIELD: problem" when broken."""
    try:
        return load_tournament(read_text(path), path)
    except TournamentFileError as exc:
        raise CliError(str(exc)) from None


async def register(log, t: Tournament) -> TournamentView:
    """Log ``tournament_registered`` for ``t`` unless the log already has it unchanged (a changed
    file at once, with its ``changes``: ``services.arbiter_office.registration``; ``venue serve`` decides
    with the rounds in play instead, ``venue.start_up``); returns the tournament fold of the whole
    log (for pairing the next round)."""
    view, last = TournamentView(), None
    for entry in await log.read(0):
        view.apply(entry)
        if entry.type == ENTRY_TYPE:
            last = entry.data
    data = registration(last, t, accept_changes=True).data
    if data is not None:
        view.apply(await log.append(ENTRY_TYPE, data))
    return view


async def current_round(log) -> int:
    """The highest round number already started in the log (0 when none)."""
    best = 0
    for entry in await log.read(0):
        if entry.type == RoundStarted.TYPE:
            try:
                best = max(best, int(entry.data.get("round")))
            except (TypeError, ValueError):
                pass
    return best


async def start_round(log, view: TournamentView, round_no: int | None,
                      ballots: list[dict] | None = None, start_ms: int | None = None) -> dict | None:
    """Pair and log round ``round_no`` (None: round 1 when no round is in the log yet, else carry on
    with the round being played). Returns the ``round_started`` data logged, or None when nothing
    was logged (the round, or a later one, is in the log already). ``start_ms``: when the round
    starts (``--round-start``; None: the file's schedule), as :func:`pair_and_log`. CliError when
    the round cannot be paired (past the last round, results missing)."""
    started = await current_round(log)
    if round_no is None:
        if started:
            return None
        round_no = 1
    if round_no <= started:
        return None
    return await pair_and_log(log, view, round_no, start_ms, ballots)


async def pair_and_log(log, view: TournamentView, round_no: int, start_ms: int | None = None,
                       ballots: list[dict] | None = None) -> dict:
    """Pair round ``round_no`` of the tournament ``view`` folded from the log and append its
    ``round_started``, with ``start_ms`` (the round's real start, ms since the epoch; None: the
    file's schedule) and ``scheduled_start_ms`` when they differ (``round_from_file.round_times``).
    Returns the data appended. CliError when the round cannot be paired.

    Checkers matches (``services.regulations.checkers_match``): each match plays one three-move
    ballot, ``ballots[i]`` for the i-th pairing (``Ballot.to_json()``), else drawn here from the ACF
    deck (``checkers_ballots.draw_ballot`` with the system's randomness), skipping the ballots of
    the rounds already in the log; the draw is recorded in the SETUPs of ``round_started``."""
    if ballots is None and view.tournament is not None and view.tournament.game == Variant.CHECKERS:
        import random

        from services.arbiter_office.round_draft import draw_ballots

        ballots = draw_ballots(view, len(view.tournament.players) // 2, random.SystemRandom())
    try:
        data = round_from_view(view, round_no, ballots=ballots, start_ms=start_ms)
    except (ValueError, KeyError) as exc:
        raise CliError(f"cannot pair round {round_no}: {exc}") from None
    await log.append(RoundStarted.TYPE, data)
    return data


def parse_round_start(when: str, now_ms: int) -> int:
    """``--round-start``: "now" (``now_ms``) or ISO 8601 with its UTC offset, as ms since the epoch.
    It is recorded in the round's ``round_started`` (``start_ms``), never in the registered file:
    the default time (FIDE Laws 6.7.1) counts from it. CliError on a bad time."""
    from datetime import datetime

    if when == "now":
        return now_ms
    try:
        dt = datetime.fromisoformat(when)
    except ValueError:
        raise CliError(f"--round-start: not a date and time: {when!r} (write now or "
                       "2026-12-01T14:00:00+01:00)") from None
    if dt.tzinfo is None:
        raise CliError("--round-start needs a UTC offset, e.g. 2026-12-01T14:00:00+01:00")
    ms = int(dt.timestamp() * 1000)
    if not 0 <= ms <= LAST_START_MS:  # the round's date could not be written (round_from_file.round_times)
        raise CliError(f"--round-start: {when!r} is outside 1970-01-01 to 9999-12-31")
    return ms


def missing_passwords(t: Tournament, environ=None) -> list[str]:
    """The ``password_env`` variables of the file's arbiters that are not set (those arbiters
    cannot log in)."""
    import os

    env = os.environ if environ is None else environ
    return [a.password_env for a in t.arbiters if a.password_env and not env.get(a.password_env)]


async def tournament_in_log(log) -> Tournament | None:
    """The tournament the log registered last (None when it has none)."""
    last = None
    for entry in await log.read(0):
        if entry.type == ENTRY_TYPE:
            last = entry.data
    return tournament_from_data(last) if last else None


def hash_password_main(argv: list[str]) -> int:
    """``venue hash-password``: read a password (twice, not echoed; or one line from stdin when it
    is not a terminal) and print its argon2 hash for ``[[arbiters]] password_hash``."""
    from dashboard.arbiter.auth import hash_password

    if argv and argv[0] in ("-h", "--help"):
        print("usage: venue hash-password   (prints an argon2 hash for the tournament file)")
        return 0
    if sys.stdin.isatty():
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Again: "):
            print("venue: error: the two passwords differ", file=sys.stderr)
            return 2
    else:
        first = sys.stdin.readline().rstrip("\n")
    try:
        print(hash_password(first))
    except ValueError as exc:
        print(f"venue: error: {exc}", file=sys.stderr)
        return 2
    return 0
