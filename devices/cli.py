"""``venue simulate``: replay a PGN (chess) or PDN (checkers) round on simulated boards and clocks
(devices.simulate)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from devices.simulate import board_logins, simulate
from devices.station import CONFIRM_WAIT_S, FAULTS, KINDS


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The options of ``venue simulate`` (added to ``parser`` when given, e.g. a subcommand's)."""
    parser = parser or argparse.ArgumentParser(allow_abbrev=False, prog="venue simulate",
                                               description="Replay real games over MQTT.")
    parser.add_argument("--mqtt", required=True, help="broker URL, mqtt://host:port")
    parser.add_argument("--tournament", required=True, help="tournament slug")
    parser.add_argument("--pgn", required=True, type=Path,
                        help="PGN file with [%%clk] comments (chess) or PDN file (checkers)")
    parser.add_argument("--variant", choices=("chess", "checkers"),
                        help="the game (default: told from the file)")
    parser.add_argument("--control", help="time control for the clocks, PGN TimeControl text "
                        "(checkers default: 90 minutes each; chess default: the file's %%clk)")
    parser.add_argument("--speed", type=float, default=1.0, help="60 plays an hour in a minute")
    parser.add_argument("--kind", choices=KINDS, default="move", help="move or placement boards")
    parser.add_argument("--fault", action="append", default=[], choices=sorted(FAULTS),
                        help="inject a fault (repeatable)")
    parser.add_argument("--boards", help="comma-separated hall boards, one per game in file order")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--confirm-wait", type=float, default=CONFIRM_WAIT_S, metavar="SECONDS",
                        help="how long each board waits at the end for the gateway to answer all its "
                        f"messages (default {CONFIRM_WAIT_S:g}; 0 when no gateway listens)")
    parser.add_argument("--credentials", type=Path,
                        help="credentials.json of deploy/make-mosquitto-passwords.py: each board logs "
                        "in with its own login (the venue's Mosquitto ties a login to its board)")
    return parser


def run(args: argparse.Namespace) -> int:
    """Run a parsed ``venue simulate``; returns the exit status (2 on bad input)."""
    try:
        text = args.pgn.read_text(encoding="utf-8")
        logins = None
        if getattr(args, "credentials", None) is not None:
            logins = board_logins(json.loads(args.credentials.read_text(encoding="utf-8")),
                                  args.tournament)
        asyncio.run(simulate(
            args.mqtt, args.tournament, text, speed=args.speed, kind=args.kind,
            faults=frozenset(args.fault), boards=args.boards.split(",") if args.boards else None,
            username=args.username, password=args.password, variant=args.variant,
            control=args.control, logins=logins, confirm_wait_s=getattr(args, "confirm_wait", CONFIRM_WAIT_S),
        ))
    except (OSError, ValueError, KeyError) as exc:
        print(f"venue simulate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    """``venue simulate --mqtt URL --tournament SLUG --pgn FILE [--speed X] ...``."""
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
