"""The ``venue`` command (console script ``venue = venue.cli:main``; also ``python -m venue``).

Subcommands::

    venue demo [--speed X] [--port P] [--host H] [--boards-kind move|position] [--exit-when-done] [--tournament FILE.toml]
    venue serve --mqtt mqtt://HOST:PORT --store URL --tournament SLUG|FILE.toml [--round ROUND.pgn|N]
                [--round-start now|ISO] [--accept-changes] [--host H] [--port P]
    venue gateway --mqtt URL --store URL --tournament SLUG|FILE.toml [--round ROUND.pgn|N] [--boards SPEC]
                  [--round-start now|ISO] [--accept-changes]
    venue dashboard --store URL --tournament SLUG|FILE.toml [--host H] [--port P]
    venue simulate --mqtt URL --tournament SLUG --pgn FILE [--speed X] [--kind move|position] [--fault F ...] [--confirm-wait S]
    venue bridge livechess [--url ws://127.0.0.1:1982/api/v1.0] --mqtt URL --tournament SLUG --boards MAP
                  [--credentials FILE] [--state FILE] [--round LABEL] [--poll S] [--seq-jump N]
    venue pair ...        (venue.pair.main)
    venue tiebreaks ...   (venue.tiebreaks.main)
    venue export ...      (venue.export.main: PGN or TRF of a tournament from its log)
    venue round pair|swap|publish|start|show N --store URL --tournament SLUG  (venue.round.main)
    venue players import FILE|add NAME|list --store URL --tournament SLUG   (venue.players.main)
    venue broadcast lichess [--round-id ID[:BOARDS] ...] --store URL --tournament SLUG  (venue.broadcast.main: pushes)
    venue analyse --store URL --tournament SLUG [--engine PATH] [--budget-ms N] [--max-boards N]
                  (venue.analyse.main: engine evaluations for the broadcast audience; off by default)
    venue hash-password   (an argon2 hash for [[arbiters]] in a tournament file)

Exit codes: 0 done (or stopped with Ctrl-C), 2 a usage error or a clear failure (bad URL, broker or
store unreachable, missing or unreadable file, busy port): one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import difflib
import sys

# devices.station.FAULTS (kept here so the parser needs no MQTT client; a unit test keeps them equal)
SIMULATOR_FAULTS = ("disconnect", "duplicate", "illegal", "malformed", "out_of_order", "rotated")

EPILOG = "Docs: README.md and docs/ in the project. Exit code 2 on any error."


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 100_000:
        raise argparse.ArgumentTypeError("speed must be > 0 (1 = real time, 60 = a minute per second)")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range 0-65535: {value}")
    return value


def parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand except ``pair``/``tiebreaks`` (passed through)."""
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue", description="Real-time venue system for over-the-board "
                                "chess and checkers tournaments.", epilog=EPILOG)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser("demo", allow_abbrev=False, help="replay a real round on simulated boards; watch it in a browser",
                       description="Everything in one process: an embedded MQTT broker, a fresh SQLite "
                       "event log, the gateway, the dashboard and simulated boards and clocks replaying "
                       "round 5 of the FIDE Candidates 2024.")
    d.add_argument("--speed", type=_speed, default=60.0,
                   help="replay speed: 60 (default) plays a minute of the real game per second")
    d.add_argument("--host", default="127.0.0.1", help="dashboard address (default 127.0.0.1)")
    d.add_argument("--port", type=_port, default=8000, help="dashboard port (default 8000; 0 = any free)")
    d.add_argument("--boards-kind", choices=("move", "position"), default="move",
                   help="boards that send moves (default) or piece placements")
    d.add_argument("--exit-when-done", action="store_true",
                   help="stop when the round is over instead of serving until Ctrl-C")
    d.add_argument("--tournament", metavar="FILE.toml",
                   help="play round 1 of this tournament file (e.g. events/checkers-11-man-national-"
                   "2017.toml): its players, pairings, time control and arbiters, with shipped real "
                   "games replayed on its boards")

    s = sub.add_parser("serve", allow_abbrev=False, help="gateway and dashboard for a hall (Mosquitto + Redis or SQLite)")
    _mqtt(s)
    _store(s)
    s.add_argument("--round", metavar="ROUND.pgn|N",
                   help="the round's pairings as PGN (one game per board), or with a tournament file the "
                   "number of the round to pair and start; logged once as round_started")
    s.add_argument("--variant", choices=("chess", "checkers"), default="chess")
    _round_start(s)
    _http(s)

    g = sub.add_parser("gateway", allow_abbrev=False, help="the gateway alone: MQTT in, event log out")
    _mqtt(g)
    _store(g)
    g.add_argument("--round", metavar="ROUND.pgn|N",
                   help="optional: the round's pairings as PGN, or a round number to pair from the "
                   "tournament file; logged once as round_started")
    g.add_argument("--variant", choices=("chess", "checkers"), default="chess")
    g.add_argument("--boards", metavar="SPEC",
                   help="a shard of the hall: decide only for these boards (e.g. 1-500; one gateway "
                   "process per range, all on one Redis log; deploy/SCALE-OUT.md)")
    _round_start(g)

    b = sub.add_parser("dashboard", allow_abbrev=False, help="the spectators' dashboard alone, fed from the event log")
    _store(b)
    _http(b)
    b.add_argument("--refuse-until-caught-up", action="store_true",
                   help="behind a load balancer: answer 503 to everything but /api/health until the log "
                        "is replayed, so the balancer sends spectators to another node (deploy/README.md)")

    m = sub.add_parser("simulate", allow_abbrev=False, help="play a PGN file on simulated boards and clocks over MQTT")
    _mqtt(m)
    m.add_argument("--tournament", required=True, help="tournament slug (the MQTT topic prefix)")
    m.add_argument("--pgn", required=True, metavar="FILE", help="the games, one per board: PGN with %%clk, or checkers PDN")
    m.add_argument("--speed", type=_speed, default=60.0, help="replay speed (default 60)")
    m.add_argument("--kind", choices=("move", "position"), default="move",
                   help="boards that send moves (default) or piece placements")
    m.add_argument("--fault", action="append", default=[], choices=SIMULATOR_FAULTS, metavar="FAULT",
                   help="inject a fault on every board, repeatable: " + ", ".join(SIMULATOR_FAULTS)
                   + " (docs/protocol.md, devices/station.py)")
    m.add_argument("--credentials", metavar="FILE",
                   help="credentials.json of deploy/make-mosquitto-passwords.py: each board logs in as its own "
                        "device (the shipped Mosquitto's ACL)")
    m.add_argument("--confirm-wait", type=float, metavar="SECONDS",
                   help="how long each board waits at the end for the gateway to answer all its messages "
                        "(default 300; 0 when no gateway listens: docs/protocol.md)")

    br = sub.add_parser("bridge", allow_abbrev=False, help="real boards: publish DGT e-boards read by DGT LiveChess (docs/boards.md)")
    kinds = br.add_subparsers(dest="bridge", metavar="KIND", required=True)
    from venue.bridge_livechess import add_arguments

    add_arguments(kinds.add_parser("livechess", help="DGT LiveChess's local websocket API -> the device protocol"))

    p.venue_commands = sub.choices  # type: ignore[attr-defined]  # for _parse: each command's own parser
    sub.add_parser("pair", allow_abbrev=False, help="pair a round (venue pair --help)", add_help=False)
    sub.add_parser("tiebreaks", allow_abbrev=False, help="standings with tie-breaks (venue tiebreaks --help)", add_help=False)
    sub.add_parser("export", allow_abbrev=False, help="PGN or TRF of a tournament from its log (venue export --help)",
                   add_help=False)
    sub.add_parser("round", allow_abbrev=False, help="pair, change, publish and start a round on a running store "
                   "(venue round --help)", add_help=False)
    sub.add_parser("players", allow_abbrev=False, help="register or import players on a running store "
                   "(venue players --help)", add_help=False)
    sub.add_parser("hash-password", allow_abbrev=False, help="an argon2 hash for [[arbiters]] password_hash", add_help=False)
    sub.add_parser("broadcast", allow_abbrev=False, help="push a round to a lichess broadcast (venue broadcast lichess --help)",
                   add_help=False)
    sub.add_parser("analyse", allow_abbrev=False, help="engine evaluations for the broadcast audience (venue analyse "
                   "--help)", add_help=False)
    return p


def _parse(p: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed; an option the subcommand does not have is refused with the subcommand's
    usage and the closest option it has (argparse alone answers with the top-level usage)."""
    args, extra = p.parse_known_args(argv)
    if extra:
        sub = p.venue_commands.get(args.command) if args.command else None  # type: ignore[attr-defined]
        target = sub or p
        options = [o for a in target._actions for o in a.option_strings]
        close = difflib.get_close_matches(extra[0].split("=", 1)[0], options, n=1)
        target.error(f"unrecognized arguments: {' '.join(extra)}" + (f" (did you mean {close[0]}?)" if close else ""))
    return args


def _mqtt(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mqtt", required=True, metavar="URL", help="the broker, mqtt://[user:pass@]HOST:PORT")


def _store(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", required=True, metavar="URL",
                   help="the event log: redis://HOST:6379/0, sqlite:///PATH or memory://")
    p.add_argument("--tournament", required=True, metavar="SLUG|FILE.toml",
                   help="tournament slug (e.g. candidates-2024) or tournament file (docs/tournament-file.md)")


def _round_start(p: argparse.ArgumentParser) -> None:
    p.add_argument("--round-start", metavar="now|ISO",
                   help="with a tournament file: when the round being started starts, 'now' or e.g. "
                   "2026-12-01T14:00:00+01:00 (recorded in its round_started; the default time counts from "
                   "it, FIDE Laws 6.7.1); ignored for a round already in the log")
    p.add_argument("--accept-changes", action="store_true",
                   help="register a changed tournament file even while a round is in play (its changes "
                   "are printed and logged); without it such a file is refused")


def _http(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="dashboard address (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="dashboard port (default 8000)")


def _passthrough(name: str, argv: list[str]) -> int:
    """``venue pair``/``venue tiebreaks``/``venue export``: import the module only now and hand it
    the rest (so ``venue pair`` starts without the web stack)."""
    import importlib

    try:
        module = importlib.import_module(f"venue.{name}")
    except ImportError as exc:
        print(f"venue: error: 'venue {name}' is not available in this installation ({exc})", file=sys.stderr)
        return 2
    return int(module.main(argv) or 0)


def _run(args: argparse.Namespace) -> int:
    """Run one service command until it ends or Ctrl-C / SIGTERM."""
    from venue import serve

    if args.command == "demo":
        from venue.demo import run_demo

        coro = run_demo(speed=args.speed, host=args.host, port=args.port, kind=args.boards_kind,
                        exit_when_done=args.exit_when_done, tournament=args.tournament)
    elif args.command == "serve":
        coro = serve.run_serve(args.mqtt, args.store, args.tournament, args.round, args.variant,
                               args.host, args.port, args.round_start, args.accept_changes)
    elif args.command == "gateway":
        coro = serve.run_gateway(args.mqtt, args.store, args.tournament, args.round, args.variant,
                                 args.round_start, args.accept_changes, boards=args.boards)
    elif args.command == "dashboard":
        coro = serve.run_dashboard(args.store, args.tournament, args.host, args.port,
                                   refuse_until_caught_up=args.refuse_until_caught_up)
    elif args.command == "bridge":
        from venue import bridge_livechess as livechess

        coro = livechess.run(args)
    else:
        coro = serve.run_simulate(args.mqtt, args.tournament, args.pgn, args.speed, args.kind,
                                  faults=frozenset(args.fault), credentials=args.credentials,
                                  confirm_wait_s=args.confirm_wait)
    return serve.run_until_stopped(coro)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ("pair", "tiebreaks", "export", "broadcast", "round", "players", "analyse"):
        return _passthrough(args_list[0], args_list[1:])
    from venue.serve import CliError  # the web stack, loaded only by the commands that run it

    try:
        if args_list and args_list[0] == "hash-password":
            from venue.tournament import hash_password_main

            return hash_password_main(args_list[1:])
        args = _parse(parser(), args_list)
        if args.command is None:
            parser().print_help()
            return 2
        return _run(args)
    except CliError as exc:
        print(f"venue: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 0
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
