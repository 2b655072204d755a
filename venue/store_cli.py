"""What the commands that act on a running store share (``venue round``, ``venue players``): the
tournament's log folded, and a ``main`` that turns errors into exit codes."""

from __future__ import annotations

import argparse
import asyncio
import sys

from services.eventlog import EventLogError
from services.views.standings import TournamentView


async def folded(log) -> TournamentView:
    """Every entry of ``log`` folded into a new ``TournamentView``."""
    view = TournamentView()
    for entry in await log.read(0):
        view.apply(entry)
    return view


def run_main(parser: argparse.ArgumentParser, run, argv: list[str] | None) -> int:
    """Parse ``argv`` and run ``run(args)`` (a coroutine function returning the exit code); 2 with
    one line on stderr for a bad URL or slug (ValueError) or a store that cannot be read."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return asyncio.run(run(args))
    except (ValueError, EventLogError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
