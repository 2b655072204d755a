"""``venue analyse --store URL --tournament SLUG [--engine PATH] [--budget-ms N] [--max-boards N]``

The engine evaluation for the broadcast audience (issue 31 item 4; docs/spectators.md "Engine
evaluation"): a separate process, off by default (nothing starts it but this command), that follows
the event log, analyses each new position of the current round's chess games on the first
``--max-boards`` hall boards (default 10) with Stockfish (Debian's package, /usr/games/stockfish;
python-chess's ``chess.engine``) for ``--budget-ms`` a position (default 1000), and appends each
answer as a ``position_evaluated`` entry (docs/events.md). The dashboard folds it into the public
view only (``services.state.fold_analysis``): every spectator reads the one evaluation, released with
the delayed move; never the arbiters' or the hall's screens.

The gateway's CPU is never taken: one engine with one thread and a small hash, run only on CPU time
nothing else wants (Linux's SCHED_IDLE: ``idle_priority``), analysing one position at a time; this
process itself at ``nice`` 10; a position the game has left while it was analysed is not written. Which positions: ``services.views.analysis.positions_due``.

Exit status 0 on Ctrl-C; 2 on a usage error, an engine that cannot be started, or a store that
cannot be read (one line on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
from typing import Callable

from services.eventlog import EventLogError, open_log
from services.eventlog.base import EventLog
from services.state import HallState
from services.views.analysis import (DEFAULT_BUDGET_MS, DEFAULT_MAX_BOARDS, Position, check_budget, check_max_boards,
                                     evaluation_entry, positions_due)

DEBIAN_STOCKFISH = "/usr/games/stockfish"  # Debian's package installs it off a user's PATH
ENGINE_OPTIONS = {"Threads": 1, "Hash": 16}  # one core at most, a small table: the hall's machine first
NICE = 10


def idle_priority() -> None:
    """Run the calling process (the engine, before it starts) only on CPU time nothing else wants:
    Linux's SCHED_IDLE (sched(7): "for running very low priority background jobs"; any ordinary
    process, the gateway's included, preempts it at once); elsewhere the lowest nice value, 19.
    Measured (bench/bench_analyse.py): at ``nice`` 10 the gateway's p99 on a loaded 2-core machine
    doubled, the engine taking a core the moment the gateway woke."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def default_engine() -> str | None:
    """Stockfish on the PATH, else Debian's /usr/games/stockfish; None when neither is there."""
    found = shutil.which("stockfish")
    if found:
        return found
    return DEBIAN_STOCKFISH if os.access(DEBIAN_STOCKFISH, os.X_OK) else None


class EngineError(RuntimeError):
    """The engine could not be started or stopped answering (the message says which and why)."""


class Analyser:
    """Follows ``log`` into ``state`` (the live fold) and appends an evaluation of each position
    ``positions_due`` names. ``budget_ms`` a position; ``max_boards`` from board 1; ``out`` one line
    per evaluation; ``idle``: the engine at idle priority (``idle_priority``, the product's way).
    ``evaluated``: how many were written; ``stale``: analysed but left by the game before the answer
    came (not written)."""

    def __init__(self, log: EventLog, engine_path: str, budget_ms: int = DEFAULT_BUDGET_MS,
                 max_boards: int = DEFAULT_MAX_BOARDS, out: Callable[[str], None] = print, idle: bool = True):
        self.log = log
        self.engine_path = engine_path
        self.budget_ms = check_budget(budget_ms)
        self.max_boards = check_max_boards(max_boards)
        self.out = out
        self.idle = idle  # the engine at idle priority (idle_priority); tests on a busy machine run it as usual
        self._transport: asyncio.SubprocessTransport | None = None
        self.state = HallState()
        self.analysed: dict[str, tuple[int, str]] = {}
        self.evaluated = 0
        self.stale = 0
        self._changed = asyncio.Event()

    async def _follow(self) -> None:
        async for entry in self.log.follow(0):
            self.state.apply(entry)
            self._changed.set()

    async def _open_engine(self):
        import chess.engine

        try:
            if self.idle:
                self._transport, engine = await chess.engine.popen_uci([self.engine_path], preexec_fn=idle_priority)
            else:
                self._transport, engine = await chess.engine.popen_uci([self.engine_path])
            await engine.configure(ENGINE_OPTIONS)
        except (OSError, chess.engine.EngineError) as exc:
            raise EngineError(f"cannot start the engine {self.engine_path}: {exc}") from None
        return engine

    async def analyse(self, engine, pos: Position) -> bool:
        """Analyse one position and append its evaluation; False when the game left it meanwhile."""
        import chess
        import chess.engine

        try:
            info = await engine.analyse(chess.Board(pos.fen), chess.engine.Limit(time=self.budget_ms / 1000))
        except chess.engine.EngineError as exc:
            raise EngineError(f"the engine stopped answering: {exc}") from None
        self.analysed[pos.game] = (pos.ply, pos.fen)
        g = self.state.games.get(pos.game)
        if g is None or g.ply != pos.ply:
            self.stale += 1
            return False
        record = evaluation_entry(pos, info, str(engine.id.get("name", "engine")), self.budget_ms)
        await self.log.append(*record.encode())
        self.evaluated += 1
        score = f"#{record.mate}" if record.mate is not None else f"{(record.score_cp or 0) / 100:+.2f}"
        self.out(f"{pos.game} ply {pos.ply}: {score} depth {record.depth} {' '.join(record.best_line_san[:3])}")
        return True

    async def run(self) -> None:
        """Until cancelled: catch up with the log, then analyse what is due as it comes. Raises
        EngineError, EventLogError."""
        engine = await self._open_engine()
        caught_up = await self.log.last_seq()
        reader = asyncio.create_task(self._follow())
        try:
            while True:
                if reader.done():
                    reader.result()
                    return
                due = positions_due(self.state, self.analysed, self.max_boards) if self.state.seq >= caught_up else []
                if due:
                    await self.analyse(engine, due[0])
                    continue
                self._changed.clear()
                try:
                    await asyncio.wait_for(self._changed.wait(), timeout=1.0)
                except asyncio.TimeoutError:
                    pass
        finally:
            reader.cancel()
            try:
                await asyncio.wait_for(engine.quit(), timeout=2)
            except (asyncio.TimeoutError, Exception):  # gone already, or starved at idle priority
                if self._transport is not None:
                    self._transport.kill()  # never leave an engine behind (nor wait for one)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue analyse",
                                description="engine evaluations for the broadcast audience, appended to the log")
    p.add_argument("--store", required=True, help="event log URL: sqlite:///PATH, redis://HOST:PORT/DB")
    p.add_argument("--tournament", required=True, help="tournament slug")
    p.add_argument("--engine", help=f"a UCI engine (default: stockfish on the PATH, else {DEBIAN_STOCKFISH})")
    p.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS,
                   help=f"time the engine is given a position, ms (default {DEFAULT_BUDGET_MS})")
    p.add_argument("--max-boards", type=int, default=DEFAULT_MAX_BOARDS,
                   help=f"analyse hall boards 1 to N only (default {DEFAULT_MAX_BOARDS})")
    return p


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    engine = args.engine or default_engine()
    if engine is None:
        print(f"venue analyse: error: no engine: install Debian's stockfish ({DEBIAN_STOCKFISH}) or give --engine PATH",
              file=sys.stderr)
        return 2
    try:
        log = open_log(args.store, args.tournament)
        analyser = Analyser(log, engine, args.budget_ms, args.max_boards, out=lambda line: print(line, flush=True))
    except (ValueError, EventLogError) as exc:
        print(f"venue analyse: error: {exc}", file=sys.stderr)
        return 2
    os.nice(NICE)  # this process folds the log beside the gateway: it waits when the machine is busy
    try:
        asyncio.run(analyser.run())
    except KeyboardInterrupt:
        return 0
    except (EventLogError, EngineError) as exc:
        print(f"venue analyse: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
