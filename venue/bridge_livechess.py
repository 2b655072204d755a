"""``venue bridge livechess``: run the DGT LiveChess bridge (docs/boards.md).

The command's options and its run (a command of the ``venue`` line: its errors are ``CliError``, the
broker checked as ``venue serve`` checks it); the bridge itself is ``devices.livechess``, which knows
nothing of the command line."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from devices.livechess.api import DEFAULT_URL
from venue.errors import CliError

log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``venue bridge livechess``."""
    p.add_argument("--url", default=DEFAULT_URL, help=f"LiveChess's websocket API (default {DEFAULT_URL})")
    p.add_argument("--mqtt", required=True, metavar="URL", help="the broker, mqtt://[user:pass@]HOST:PORT")
    p.add_argument("--tournament", required=True, metavar="SLUG", help="tournament slug (the MQTT topic prefix)")
    p.add_argument("--boards", required=True, metavar="MAP",
                   help="e-board serial numbers to hall boards: SERIAL=BOARD,SERIAL=BOARD... or a file "
                   "with one SERIAL=BOARD a line")
    p.add_argument("--credentials", type=Path, metavar="FILE",
                   help="credentials.json of deploy/make-mosquitto-passwords.py: each hall board's link "
                   "logs in with that board's own login (the venue's Mosquitto ties a login to its board)")
    p.add_argument("--state", type=Path, metavar="FILE",
                   help="where the boards' seqs are kept across restarts (default livechess-SLUG.json)")
    p.add_argument("--round", metavar="LABEL",
                   help="the round the seqs belong to: a new label starts every board's seqs at 1 "
                   "(docs/protocol.md); without it the state file's round goes on")
    p.add_argument("--poll", type=float, default=1.0, metavar="S",
                   help="ask LiveChess for its e-board list every S seconds (default 1: a board that stops "
                   "responding shows offline within that)")
    p.add_argument("--seq-jump", type=int, default=0, metavar="N",
                   help="after a power cut of the hall computer: move every board's seqs N ahead")


async def run(args: argparse.Namespace) -> int:
    """Run a parsed ``venue bridge livechess`` until cancelled. Raises CliError on bad input."""
    # here, not at the top: building the parser (every venue command) loads no MQTT client or web stack
    from devices.livechess.bridge import LiveChessBridge, parse_board_map
    from devices.simulate import board_logins
    from venue.serve import check_mqtt, redact

    try:
        boards = parse_board_map(args.boards)
        logins = None
        if args.credentials is not None:
            logins = board_logins(json.loads(args.credentials.read_text(encoding="utf-8")), args.tournament)
        if args.poll <= 0 or args.seq_jump < 0:
            raise ValueError("--poll must be > 0 and --seq-jump >= 0")
        state = args.state or Path(f"livechess-{args.tournament}.json")
        bridge = LiveChessBridge(args.url, args.mqtt, args.tournament, boards, state, round=args.round,
                                 logins=logins, poll_s=args.poll, seq_jump=args.seq_jump)
    except (OSError, ValueError, KeyError) as exc:
        raise CliError(f"bridge livechess: {exc}") from None
    if logins is None:
        await check_mqtt(args.mqtt)
    print(f"venue bridge livechess: {args.url} -> {redact(args.mqtt)} ({args.tournament}), {len(boards)} "
          f"e-boards, state {state}. Ctrl-C to stop.", flush=True)
    await bridge.run()
    return 0
