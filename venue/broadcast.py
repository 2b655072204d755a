"""``venue broadcast lichess --round-id ID --store URL --tournament SLUG [--round R] [--url BASE]``

Pushes a round to a lichess broadcast round with the push API (``POST
/api/broadcast/round/{id}/push``, docs/broadcast.md), through berserk (the lichess API client), with
the token from ``LICHESS_TOKEN``:

- whole-round snapshots (every chess game of the round, PGN with %clk, ``services.views.relay``),
  at most ``MAX_GAMES`` games a push, each checked by python-chess before it is sent;
- coalesced: at most one push every ``--interval`` seconds (default 1), and only when the round's PGN
  changed since the last push taken;
- the broadcast delay of the tournament file applies (``services.views.delay.DelayedHall``): a push
  holds the hall as it was that long ago;
- a failed push (lichess down, 429, 5xx) is tried again with back-off (1 s, 2 s, 4 s ... 60 s),
  always with the latest snapshot; the per-game errors lichess answers are printed;
- a restart reads the log from the start and pushes the round as it stands (lichess keeps each game
  with its chapter by the ``GameId`` tag, so nothing is doubled).

Exit status 0 on Ctrl-C; 2 on a usage error, no token, or a store that cannot be read (one line on
stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from services.eventlog import EventLogError, open_log
from services.views.delay import DelayedHall
from services.views.relay import MAX_GAMES, game_errors, round_batches
from services.views.spectator import SpectatorView

LICHESS = "https://lichess.org"
TOKEN_ENV = "LICHESS_TOKEN"
BACKOFF_S = (1, 2, 4, 8, 16, 32, 60)


class PushFailed(Exception):
    """A push lichess did not take: ``retry`` when trying again later can help (no answer, 429,
    5xx), else the request itself is wrong (401, 403, 404: a bad token or round id)."""

    def __init__(self, message: str, retry: bool):
        super().__init__(message)
        self.retry = retry


def lichess_push(round_id: str, token: str, base_url: str = LICHESS) -> Callable[[str], dict]:
    """``push(pgn_text) -> answer`` for lichess round ``round_id`` with berserk (its session and
    requestor: berserk's own ``push_pgn_update`` throws the answer, and with it the per-game
    errors, away). Raises PushFailed."""
    import berserk
    from berserk.exceptions import ApiError, ResponseError
    from berserk.formats import JSON
    from berserk.session import Requestor

    session = berserk.TokenSession(token)
    requestor = Requestor(session, base_url.rstrip("/"), default_fmt=JSON)
    path = f"/api/broadcast/round/{round_id}/push"

    def push(text: str) -> dict:
        try:
            # berserk types ``data`` as text or a mapping; requests sends bytes as they are (the PGN's UTF-8)
            return requestor.post(path, data=text.encode("utf-8"))  # type: ignore[call-overload]
        except ResponseError as exc:
            code = exc.status_code
            raise PushFailed(f"HTTP {code}: {exc.cause or exc.reason}", code == 429 or code >= 500) from None
        except ApiError as exc:
            raise PushFailed(f"no answer: {exc}", True) from None

    return push


@dataclass
class Pusher:
    """Pushes round ``round_no`` (None: the round current when the first push is made) of the log
    folded into ``hall`` with ``push``; ``interval_ms`` between pushes at least; ``out`` reports.
    Driven by ``step(now_ms)`` (``run`` loops it)."""

    push: Callable[[str], dict]
    round_no: str | None = None
    interval_ms: int = 1000
    out: Callable[[str], None] = print
    hall: DelayedHall = field(default_factory=DelayedHall)
    last_text: str | None = None
    last_push_ms: int | None = None
    retry_at_ms: int | None = None
    failures: int = 0
    pushes: int = 0
    errors: list[str] = field(default_factory=list)

    def snapshot(self) -> list[str]:
        """The round's PGN texts (``MAX_GAMES`` games each) as the public may see it now."""
        view = SpectatorView(self.hall.public, public=True)
        if self.round_no is None:
            self.round_no = self.hall.public.current
        r = self.hall.public.round(self.round_no) if self.round_no is not None else None
        if r is None:
            return []
        return round_batches(view.games(self.round_no), r.info(), MAX_GAMES)

    def step(self, now_ms: int) -> bool:
        """Release what is due, and push the round when it changed and a push is allowed now (not
        within ``interval_ms`` of the last, not before a retry's time). True when pushed."""
        batches = self.due(now_ms)
        return self.send(batches, now_ms) if batches else False

    def due(self, now_ms: int) -> list[str] | None:
        """The round's batches to push now (``step``'s first half: the folds only), or None."""
        self.hall.release(now_ms)
        if self.retry_at_ms is not None and now_ms < self.retry_at_ms:
            return None
        if self.last_push_ms is not None and now_ms - self.last_push_ms < self.interval_ms:
            return None
        batches = self.snapshot()
        if not batches or "\n\n".join(batches) == self.last_text:
            return None
        return batches

    def send(self, batches: list[str], now_ms: int) -> bool:
        """Push ``batches`` (``step``'s second half: the HTTP requests, blocking); True when
        lichess took them, else a retry is planned."""
        text = "\n\n".join(batches)
        self.last_push_ms = now_ms
        try:
            answers = [self.push(batch) for batch in batches]
        except PushFailed as exc:
            self.failures += 1
            wait = BACKOFF_S[min(self.failures, len(BACKOFF_S)) - 1] if exc.retry else BACKOFF_S[-1]
            self.retry_at_ms = now_ms + wait * 1000
            self.out(f"push failed ({exc}); trying again in {wait} s")
            return False
        self.failures, self.retry_at_ms, self.last_text = 0, None, text
        self.pushes += 1
        errors = [e for a in answers for e in game_errors(a)]
        self.errors = errors
        games = sum(len((a or {}).get("games", [])) for a in answers if isinstance(a, dict))
        self.out(f"pushed round {self.round_no}: {games} games" + (f"; lichess refused {len(errors)}: "
                                                                   + "; ".join(errors) if errors else ""))
        return True

    async def run(self, log, clock: Callable[[], int], tick_s: float = 0.2) -> None:
        """Follow ``log`` from its start and push as ``step`` allows, until cancelled."""
        async def follow() -> None:
            async for entry in log.follow(0):
                self.hall.take(entry)

        reader = asyncio.create_task(follow())
        try:
            while True:
                if reader.done():
                    reader.result()
                now = clock()
                batches = self.due(now)  # the folds stay on this loop, beside the follower
                if batches:
                    await asyncio.to_thread(self.send, batches, now)  # berserk is blocking
                await asyncio.sleep(tick_s)
        finally:
            reader.cancel()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue broadcast", description="push a round to a lichess broadcast")
    sub = p.add_subparsers(dest="platform", required=True)
    li = sub.add_parser("lichess", allow_abbrev=False, help="lichess's push API (token in LICHESS_TOKEN)")
    li.add_argument("--round-id", required=True, help="the lichess broadcast round's id")
    li.add_argument("--store", required=True, help="event log URL: sqlite:///PATH, redis://HOST:PORT/DB")
    li.add_argument("--tournament", required=True, help="tournament slug")
    li.add_argument("--round", help="our round to push (default: the current round at the first push)")
    li.add_argument("--url", default=os.environ.get("LICHESS_URL", LICHESS),
                    help="lichess's address (default https://lichess.org, or LICHESS_URL)")
    li.add_argument("--interval", type=float, default=1.0, help="seconds between pushes at least (default 1)")
    return p


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    token = os.environ.get(TOKEN_ENV)
    if not token:
        print(f"venue broadcast: error: set {TOKEN_ENV} to a lichess token with the study:write scope",
              file=sys.stderr)
        return 2
    if not 0.2 <= args.interval <= 3600:
        print("venue broadcast: error: --interval must be 0.2 to 3600 seconds", file=sys.stderr)
        return 2
    try:
        log = open_log(args.store, args.tournament)
    except (ValueError, EventLogError) as exc:
        print(f"venue broadcast: error: {exc}", file=sys.stderr)
        return 2
    pusher = Pusher(lichess_push(args.round_id, token, args.url), args.round,
                    int(args.interval * 1000), out=lambda line: print(line, flush=True))
    try:
        asyncio.run(pusher.run(log, lambda: int(time.time() * 1000)))
    except KeyboardInterrupt:
        return 0
    except EventLogError as exc:
        print(f"venue broadcast: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
