"""What the commands that act on a running store share (``venue round``, ``venue players``): the
tournament's log folded, and a ``main`` that turns errors into exit codes."""

from __future__ import annotations

import argparse
import asyncio
import sys

from services.eventlog import EventLogError
from services.views.standings import TournamentView
from venue.errors import CliError


async def folded(log) -> TournamentView:
    """Every entry of ``log`` folded into a new ``TournamentView``."""
    view = TournamentView()
    for entry in await log.read(0):
        view.apply(entry)
    return view


async def open_tournament(store: str, slug: str):
    """``(log, view)``: the tournament's log at ``store`` and its fold. ValueError, nothing written,
    when the store is not there (an SQLite file is never created by these commands), or it holds
    no registered tournament named ``slug`` (the message names those it holds)."""
    from services.eventlog import open_log
    from services.eventlog.stores import missing_store, naming, tournaments

    why = missing_store(store)
    if why is not None:
        raise ValueError(why)
    log = open_log(store, slug)
    try:
        view = await folded(log)
        if view.tournament is None:
            held = [t for t in await tournaments(store) if t != slug]
            what = (f"the log of {slug!r} registers no tournament (venue serve --tournament FILE.toml registers it)"
                    if view.seq else naming(slug, held))
            raise ValueError(what)
    except BaseException:
        await log.close()
        raise
    return log, view


def run_main(parser: argparse.ArgumentParser, run, argv: list[str] | None) -> int:
    """Parse ``argv`` and run ``run(args)`` (a coroutine function returning the exit code); 2 with
    one line on stderr for a bad URL or slug (ValueError), a bad argument (CliError) or a store that
    cannot be read."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return asyncio.run(run(args))
    except (ValueError, EventLogError, CliError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
