"""``venue broadcast lichess [--round-id ID[:BOARDS] [--round-id ID2:BOARDS ...]] --store URL --tournament SLUG
[--round R] [--url BASE]``

Pushes a round to lichess broadcast rounds with the push API (``POST
/api/broadcast/round/{id}/push``, docs/broadcast.md), through berserk (the lichess API client), with
the token from ``LICHESS_TOKEN``:

- one lichess round carries at most 100 games (lila keeps 100 chapters a round and answers success
  for the games it drops: ``services.views.relay_rounds``): a larger round goes to several lichess
  rounds, each with the hall boards it carries (``--round-id abcd1234:1-100 --round-id
  efgh5678:101-200``); a mapping that leaves a lichess round over 100 boards, or a board in two, is
  refused, and so is (at the first push) one that gives a lichess round more than 100 games; without
  ``--round-id`` the mapping is the registered tournament file's ``[broadcast] lichess_rounds``
  (``["abcd1234:1-100", "efgh5678:101-200"]``, checked when the file is read);
- whole-round snapshots per lichess round (its games, PGN with %clk, ``services.views.relay``), each
  game checked by python-chess before it is sent;
- lichess's answer read per game (``services.views.relay.read_answer``): a game it refused, cut short
  or left out of its answer is reported and never counted as pushed; games no lichess round carries
  are reported too;
- coalesced: at most one push every ``--interval`` seconds (default 1) to each lichess round, and
  only when its PGN changed since the last push taken;
- the broadcast delay of the tournament file applies (``services.views.delay.DelayedHall``): a push
  holds the hall as it was that long ago;
- a failed push (lichess down, 429, 5xx) is tried again with back-off (1 s, 2 s, 4 s ... 60 s),
  always with the latest snapshot, each lichess round on its own;
- a restart reads the log from the start and pushes the round as it stands (lichess keeps each game
  with its chapter by the ``GameId`` tag, so nothing is doubled; the games go to the same lichess
  rounds in the same order).

Exit status 0 on Ctrl-C; 2 on a usage error, a mapping that cannot work, no token, or a store that
cannot be read (one line on stderr).
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
from services.views.relay import PgnCache, read_answer, round_text
from services.views.relay_rounds import FILE, MAX_GAMES, Assignment, LichessRound, MappingError, assign, parse_round_ids
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


Push = Callable[[str, str], dict]  # (lichess round id, PGN text) -> lichess's answer; raises PushFailed


def lichess_push(token: str, base_url: str = LICHESS) -> Push:
    """``push(round_id, pgn_text) -> answer`` with berserk (its session and requestor: berserk's
    own ``push_pgn_update`` throws the answer, and with it the per-game results, away). Raises
    PushFailed."""
    import berserk
    from berserk.exceptions import ApiError, ResponseError
    from berserk.formats import JSON
    from berserk.session import Requestor

    session = berserk.TokenSession(token)
    requestor = Requestor(session, base_url.rstrip("/"), default_fmt=JSON)

    def push(round_id: str, text: str) -> dict:
        try:
            # berserk types ``data`` as text or a mapping; requests sends bytes as they are (the PGN's UTF-8)
            return requestor.post(f"/api/broadcast/round/{round_id}/push", data=text.encode("utf-8"))  # type: ignore[call-overload]
        except ResponseError as exc:
            code = exc.status_code
            raise PushFailed(f"HTTP {code}: {exc.cause or exc.reason}", code == 429 or code >= 500) from None
        except ApiError as exc:
            raise PushFailed(f"no answer: {exc}", True) from None

    return push


@dataclass
class Target:
    """One lichess round's push state: ``last_text`` the last body lichess took; the time of the
    last push and of the next retry (ms); ``failures`` in a row; ``taken`` ``{game id: plies}`` the
    games its last answer took; ``problems`` the games it did not take whole (text)."""

    round: LichessRound
    last_text: str | None = None
    last_push_ms: int | None = None
    retry_at_ms: int | None = None
    failures: int = 0
    taken: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Plan:
    """One push to make: ``games`` (GAMEs, in body order) as ``text`` to ``target``."""

    target: Target
    games: list[dict]
    text: str


def _game_name(g: dict) -> str:
    return f"board {g.get('board')}: {g.get('white') or '?'} - {g.get('black') or '?'}"


@dataclass
class Pusher:
    """Pushes round ``round_no`` (None: the round current when the first push is made) of the log
    folded into ``hall`` to the lichess ``rounds`` with ``push``; ``interval_ms`` between pushes to
    a lichess round at least; ``out`` reports. Driven by ``step(now_ms)`` (``run`` loops it).
    ``errors``: the games the latest answers did not take whole; ``not_pushed``: the games no lichess
    round carries (on no mapped board, or past a lichess round's 100). Raises MappingError from the
    first snapshot that gives a lichess round more than 100 games."""

    push: Push
    rounds: list[LichessRound]
    round_no: str | None = None
    interval_ms: int = 1000
    out: Callable[[str], None] = print
    hall: DelayedHall = field(default_factory=DelayedHall)
    targets: dict[str, Target] = field(default_factory=dict)
    pushes: int = 0
    errors: list[str] = field(default_factory=list)
    not_pushed: list[str] = field(default_factory=list)
    checked: bool = False
    texts: PgnCache = field(default_factory=PgnCache)

    def __post_init__(self) -> None:
        self.targets = {r.id: Target(r) for r in self.rounds}

    def _mapped(self) -> bool:
        """Whether the lichess rounds are known: given (``--round-id``), or else the registered
        tournament file's ``[broadcast] lichess_rounds`` once the log has it (read when the first
        ``tournament_registered`` is folded; a later change of the file does not move games between
        lichess rounds mid-run). Raises MappingError when the log has a tournament or a round and no
        mapping is to be had."""
        if self.targets:
            return True
        t = self.hall.live.config
        if t is not None and t.broadcast_lichess_rounds:
            self.rounds = parse_round_ids(list(t.broadcast_lichess_rounds), FILE)
            self.targets = {r.id: Target(r) for r in self.rounds}
            self.out("lichess rounds from the tournament file: " + ", ".join(r.label() for r in self.rounds))
            return True
        if t is not None or self.hall.live.current is not None:
            raise MappingError("no lichess round: give --round-id ID (--round-id ID:1-100 --round-id ID2:101-200 "
                               "for a larger event), or [broadcast] lichess_rounds in the tournament file")
        return False

    def snapshot(self) -> tuple[Assignment, dict | None] | None:
        """The round's games as the public may see them now, split between the lichess rounds, and
        the round's info; None before the round exists."""
        view = SpectatorView(self.hall.public, public=True)
        if self.round_no is None:
            self.round_no = self.hall.public.current
        r = self.hall.public.round(self.round_no) if self.round_no is not None else None
        if r is None:
            return None
        games = [g for g in view.games(self.round_no) if g.get("variant", "chess") == "chess"]
        return assign(games, self.rounds, MAX_GAMES), r.info()

    def _check(self, split: Assignment) -> None:
        """The first snapshot: refuse a mapping that leaves a lichess round over lichess's limit;
        after it, what no lichess round takes is reported whenever it changes."""
        if not self.checked and split.over:
            over = {rid for _, rid in split.over}
            counts = ", ".join(f"{rid} would carry {len(split.games[rid]) + sum(1 for _, r in split.over if r == rid)} "
                               f"games" for rid in sorted(over))
            raise MappingError(f"round {self.round_no}: lichess round {counts}: lichess keeps at most {MAX_GAMES} "
                               f"games a round; give each lichess round fewer boards (--round-id ID:1-100 "
                               f"--round-id ID2:101-200)")
        self.checked = True
        missing = [f"{_game_name(g)} (no --round-id carries board {g.get('board')})" for g in split.unmapped]
        missing += [f"{_game_name(g)} (lichess round {rid} is full: {MAX_GAMES} games)" for g, rid in split.over]
        if missing != self.not_pushed:
            self.not_pushed = missing
            if missing:
                self.out(f"round {self.round_no}: not pushed {len(missing)}: " + "; ".join(missing))

    def step(self, now_ms: int) -> bool:
        """Release what is due, and push each lichess round whose games changed when a push to it
        is allowed now (not within ``interval_ms`` of its last, not before its retry's time). True
        when a push was taken."""
        plans = self.due(now_ms)
        return self.send(plans, now_ms) if plans else False

    def due(self, now_ms: int) -> list[Plan]:
        """The pushes to make now (``step``'s first half: the folds only). Raises MappingError
        (``_check``)."""
        self.hall.release(now_ms)
        if not self._mapped():
            return []
        snap = self.snapshot()
        if snap is None:
            return []
        split, info = snap
        self._check(split)
        plans = []
        for rid, t in self.targets.items():
            if t.retry_at_ms is not None and now_ms < t.retry_at_ms:
                continue
            if t.last_push_ms is not None and now_ms - t.last_push_ms < self.interval_ms:
                continue
            games = split.games[rid]
            if not games:
                continue
            text = round_text(games, info, self.texts)
            if text != t.last_text:
                plans.append(Plan(t, games, text))
        return plans

    def send(self, plans: list[Plan], now_ms: int) -> bool:
        """Make the pushes ``plans`` (``step``'s second half: the HTTP requests, blocking); True when
        lichess took at least one; a failed one plans its retry."""
        pushed = False
        for plan in plans:
            t = plan.target
            t.last_push_ms = now_ms
            try:
                answer = self.push(t.round.id, plan.text)
            except PushFailed as exc:
                t.failures += 1
                wait = BACKOFF_S[min(t.failures, len(BACKOFF_S)) - 1] if exc.retry else BACKOFF_S[-1]
                t.retry_at_ms = now_ms + wait * 1000
                self.out(f"push{self._to(t)} failed ({exc}); trying again in {wait} s")
                continue
            t.failures, t.retry_at_ms, t.last_text = 0, None, plan.text
            taken = read_answer(plan.games, answer)
            t.taken = {x.game: x.moves for x in taken if x.moves is not None}
            t.problems = [x.problem for x in taken if x.problem]
            self.errors = [p for target in self.targets.values() for p in target.problems]
            self.pushes += 1
            pushed = True
            self.out(f"pushed round {self.round_no}{self._to(t)}: {len(t.taken)} games"
                     + (f"; lichess refused {len(t.problems)}: " + "; ".join(t.problems) if t.problems else ""))
        return pushed

    def _to(self, t: Target) -> str:
        return "" if len(self.targets) == 1 and t.round.boards is None else f" to lichess round {t.round.label()}"

    async def run(self, log, clock: Callable[[], int], tick_s: float = 0.2) -> None:
        """Follow ``log`` from its start and push as ``step`` allows, until cancelled. Raises
        MappingError (``due``)."""
        async def follow() -> None:
            async for entry in log.follow(0):
                self.hall.take(entry)

        reader = asyncio.create_task(follow())
        try:
            while True:
                if reader.done():
                    reader.result()
                now = clock()
                plans = self.due(now)  # the folds stay on this loop, beside the follower
                if plans:
                    await asyncio.to_thread(self.send, plans, now)  # berserk is blocking
                await asyncio.sleep(tick_s)
        finally:
            reader.cancel()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue broadcast", description="push a round to a lichess broadcast")
    sub = p.add_subparsers(dest="platform", required=True)
    li = sub.add_parser("lichess", allow_abbrev=False, help="lichess's push API (token in LICHESS_TOKEN)")
    li.add_argument("--round-id", action="append", metavar="ID[:BOARDS]",
                    help="a lichess broadcast round's id, with the hall boards it carries when the round has "
                    f"more than {MAX_GAMES} (lichess keeps {MAX_GAMES} games a round): --round-id ID:1-100 "
                    "--round-id ID2:101-200 (default: the tournament file's [broadcast] lichess_rounds)")
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
    try:
        # none given: the registered tournament file's [broadcast] lichess_rounds (Pusher._mapped)
        rounds = parse_round_ids(args.round_id) if args.round_id else []
    except MappingError as exc:
        print(f"venue broadcast: error: {exc}", file=sys.stderr)
        return 2
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
    pusher = Pusher(lichess_push(token, args.url), rounds, args.round, int(args.interval * 1000),
                    out=lambda line: print(line, flush=True))
    try:
        asyncio.run(pusher.run(log, lambda: int(time.time() * 1000)))
    except KeyboardInterrupt:
        return 0
    except (EventLogError, MappingError) as exc:
        print(f"venue broadcast: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
