"""``venue export --store URL --tournament SLUG --format pgn|trf [-o FILE]``

Reads the tournament's whole event log (``services.eventlog.open_log``), folds it with
``services.views.standings.TournamentView`` and writes every game of every round as PGN (with
``[%clk]``) or the tournament so far as FIDE TRF16, to FILE or stdout. The log is only read.

Exit status 0 on success; 2 on a usage error, a store that cannot be read, a log without any round,
results that contradict each other, or a file that cannot be written (one line on stderr).
Also runnable as ``python -m venue.export``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from services.eventlog import EventLogError, open_log
from services.hall.tournament_export import tournament_pgn, tournament_trf
from services.views.standings import TournamentView

PAGE = 10_000


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue export", description="PGN or FIDE TRF of a tournament from its event log")
    p.add_argument("--store", required=True, help="event log URL: sqlite:///PATH, redis://HOST:PORT/DB")
    p.add_argument("--tournament", required=True, help="tournament slug")
    p.add_argument("--format", choices=("pgn", "trf"), required=True)
    p.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    return p


async def fold_log(store: str, tournament: str) -> TournamentView:
    """Every entry of the log folded into a TournamentView. Raises ValueError (bad URL or slug) or
    EventLogError (store unreachable)."""
    log = open_log(store, tournament)
    view = TournamentView()
    try:
        after = 0
        while True:
            entries = await log.read(after, PAGE)
            for e in entries:
                view.apply(e)
            if len(entries) < PAGE:
                return view
            after = entries[-1].seq
    finally:
        await log.close()


def export_text(view: TournamentView, fmt: str) -> str:
    """The ``fmt`` ("pgn" or "trf") text of ``view``. Raises ValueError as the writers do."""
    return tournament_pgn(view) if fmt == "pgn" else tournament_trf(view)


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 2 error)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        view = asyncio.run(fold_log(args.store, args.tournament))
        if not view.rounds:
            raise ValueError(f"the log of {args.tournament!r} in {args.store} holds no round")
        text = export_text(view, args.format)
        if args.output == "-":
            sys.stdout.write(text)
        else:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    except (ValueError, EventLogError, OSError) as exc:
        print(f"venue export: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
