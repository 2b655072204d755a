"""``venue players import FILE|add NAME|list --store URL --tournament SLUG``: registration on a running
store (docs/tournament-log.md "Registration"; the console's ``import_players`` and
``register_player`` write the same ``players_registered`` entry).

    venue players import FILE        a TRF16 file, a CSV file (header row) or FIDE's rating-list text
    venue players add NAME [--rating R] [--title GM] [--fide-id ID] [--federation NOR]
    venue players list               the registered players by start number

Before round 1 is drafted every registration gives everyone the start numbers of FIDE C.04.2's
initial order (rating, title, name); afterwards a new player is a late entry (the console's
``enter_player``). Exit codes: 0 done; 1 refused (a malformed file, with its file and line, the
column too for a byte that is not UTF-8; a name or FIDE ID registered already; numbers fixed):
nothing registered; 2 a usage error, a file to import that cannot be read or a store that cannot be
read.
"""

from __future__ import annotations

import argparse
import sys

from services.events.tournament import RegisteredPlayer
from services.arbiter_office.player_import import decode_players_file, read_players, registration_entry
from services.views.standings import TournamentView
from venue.store_cli import open_tournament, run_main

BY = "organiser"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue players",
                                description="Register or import players on a running store.")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    i = sub.add_parser("import", allow_abbrev=False, help="import a TRF, CSV or FIDE rating-list file")
    i.add_argument("file")
    a = sub.add_parser("add", allow_abbrev=False, help="register one player")
    a.add_argument("name")
    a.add_argument("--rating", default="")
    a.add_argument("--title", default="")
    a.add_argument("--fide-id", default="")
    a.add_argument("--federation", default="")
    sub.add_parser("list", allow_abbrev=False, help="print the registered players")
    for s in sub.choices.values():
        s.add_argument("--store", required=True, metavar="URL")
        s.add_argument("--tournament", required=True, metavar="SLUG")
    return p


def _players(args: argparse.Namespace) -> tuple[list[RegisteredPlayer], str | None]:
    """What to register; ValueError (RosterFileError) naming the file and line of a fault."""
    if args.action == "import":
        try:
            with open(args.file, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise Unreadable(f"{args.file}: cannot read it: {exc.strerror or exc}") from None
        return read_players(decode_players_file(data, args.file), args.file), args.file.rsplit("/", 1)[-1]
    row = ",".join(x.replace(",", " ") for x in (args.name, args.rating, args.title, args.fide_id, args.federation))
    try:
        return read_players(f"Name,Rating,Title,FIDE ID,Fed\n{row}\n", CLI), None
    except ValueError as exc:  # the options' own names, not the CSV line the options were written as
        raise ValueError(str(exc).removeprefix(f"{CLI}:2: ").replace("FIDE ID:", "--fide-id:", 1)) from None


CLI = "the command line"


class Unreadable(ValueError):
    """The file to import cannot be read (missing, a folder): a usage error, exit 2. A file that is
    not UTF-8 text is a malformed one (its line and column: exit 1, ``decode_players_file``)."""


def print_players(view: TournamentView, out=None) -> None:
    """The registered players by start number: number, title, name, rating, federation, FIDE ID."""
    out = out or sys.stdout
    for sno, p in sorted(view.players.items()):
        print(f"{sno:>4}  {p.get('title') or '':<4}{p['name']:<34}{p.get('rating') or '':>5}  "
              f"{p.get('federation') or '':<4}{p.get('fide_id') or ''}", file=out)


async def run(args: argparse.Namespace) -> int:
    log, view = await open_tournament(args.store, args.tournament)
    try:
        if args.action == "list":
            print_players(view)
            return 0
        try:
            players, source = _players(args)
            entry = await log.append(*registration_entry(view.state, players, source, by=BY).encode())
        except Unreadable as exc:
            print(f"venue players {args.action}: error: {exc}", file=sys.stderr)
            return 2
        except ValueError as exc:
            print(f"venue players {args.action}: refused, nothing registered: {exc}", file=sys.stderr)
            return 1
        for later in await log.read(view.seq):
            view.apply(later)
        print(f"venue players {args.action}: {len(players)} player(s) registered (seq {entry.seq}); start numbers "
              "in FIDE C.04.2's initial order:")
        print_players(view)
        return 0
    finally:
        await log.close()


def main(argv: list[str] | None = None) -> int:
    """Run ``venue players`` with ``argv``; returns the exit code (module docstring)."""
    return run_main(_parser(), run, argv)
