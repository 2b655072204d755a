"""``venue export --store URL --tournament SLUG --format pgn|pdn|trf [-o FILE]``

Reads the tournament's whole event log (``services.eventlog.open_log``), folds it with
``services.views.standings.TournamentView`` and writes every game of every round as PGN (chess,
with ``[%clk]``) or PDN (checkers), or the tournament so far as FIDE TRF16, to FILE or stdout. The
log is only read: a store that is not there is an error, never created (an SQLite file).

Exit status 0 on success; 2 on a usage error, a store that cannot be read or is not there, a
tournament the store does not hold (the message names those it holds), a log without any round, a
format that is not the game's (PGN for checkers, PDN for chess), results that contradict each
other, or a file that cannot be written (one line on stderr).
Also runnable as ``python -m venue.export``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from services.eventlog import EventLogError, open_log
from services.arbiter_office.tournament_export import tournament_pgn, tournament_trf
from services.views.standings import TournamentView

PAGE = 10_000


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue export", description="PGN or FIDE TRF of a tournament from its event log")
    p.add_argument("--store", required=True, help="event log URL: sqlite:///PATH, redis://HOST:PORT/DB")
    p.add_argument("--tournament", required=True, help="tournament slug")
    p.add_argument("--format", choices=("pgn", "pdn", "trf"), required=True,
                   help="pgn: the games of a chess event; pdn: the games of a checkers event; trf: FIDE TRF16")
    p.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    return p


async def fold_log(store: str, tournament: str) -> TournamentView:
    """Every entry of the log folded into a TournamentView. Raises ValueError (bad URL or slug) or
    EventLogError (store unreachable)."""
    from services.eventlog.stores import missing_store

    why = missing_store(store)
    if why is not None:
        raise ValueError(why)
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
    """The ``fmt`` ("pgn", "pdn" or "trf") text of ``view``. Raises ValueError as the writers do,
    or for PGN asked of a checkers event or PDN of a chess one (the games are written in the
    game's own notation)."""
    if fmt == "trf":
        return tournament_trf(view)
    game = view.tournament.game if view.tournament is not None else _game_of(view)
    wanted = "pdn" if game == "checkers" else "pgn"
    if fmt != wanted:
        raise ValueError(f"--format {fmt}: the games of this {game} event are written as {wanted.upper()} "
                         f"(--format {wanted})")
    return tournament_pgn(view)


def _game_of(view: TournamentView) -> str:
    """"checkers" when the log's games are checkers games, else "chess" (a log without a file)."""
    games = view.state.games.values()
    return "checkers" if games and all(g.variant == "checkers" for g in games) else "chess"


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 2 error)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        view = asyncio.run(fold_log(args.store, args.tournament))
        if not view.seq:
            from services.eventlog.stores import naming, tournaments

            raise ValueError(naming(args.tournament, asyncio.run(tournaments(args.store))))
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
