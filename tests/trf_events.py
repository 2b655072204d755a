"""Whole events played through the arbiter's actions, for the TRF export's tests and
tools/check_trf_pairings.py: each round drafted by our own pairing (Berger tables, or the Dutch
system from the log), published, started, and its results entered by slip, seeded.

``play(t, seed, rounds, before=..., after=...)``: ``before[r]`` / ``after[r]``: entries folded before
round ``r`` is drafted / after its results (a requested bye, a withdrawal, a forbidden pair, a
correction of an earlier result). A result is drawn from ``RESULTS`` (a forfeit now and then); in an
event whose regulations play an Armageddon game after a classical draw (Norway Chess 2023) it is
scheduled as the gateway schedules it (``services.regulations.referee.due``) and given a result too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from trf_log import as_log
from services.events import ArmageddonScheduled
from services.arbiter_office.result_slip import find_game, parse_result, result_entries
from services.arbiter_office.round_draft import draft_round, publish_entry, start_data
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.model import Tournament
from services.regulations.clock_watches import ClockWatches  # none: results by slip, no clock events
from services.regulations.referee import due
from services.regulations.tournament_file import load_tournament
from services.views.standings import TournamentView

EVENTS = Path(__file__).resolve().parents[1] / "events"
RESULTS = ["1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1", "0-1"]
DAY_MS = 86_400_000
START_MS = 1_685_000_000_000  # 2023-05-25, a day in each seed event's year

Hook = Callable[[TournamentView], Sequence]


def event(name: str) -> Tournament:
    """The seed event ``events/NAME``."""
    return load_tournament((EVENTS / name).read_text("utf-8"), name)


def fold(view: TournamentView, *entries) -> None:
    """Fold records (``encode()``) or ``(type, data)`` pairs into ``view`` with rising seqs."""
    for ev in entries:
        view.apply(as_log([ev.encode() if hasattr(ev, "encode") else ev], view.seq + 1)[0])


def enter(view: TournamentView, rnd: int, board: str, text: str, part: str | None = None,
          forfeit: bool = False) -> None:
    """The slip's result ``text`` for round ``rnd``'s board (``part`` "armageddon": its Armageddon)."""
    g = find_game(view.state, rnd, board, part)
    result, lost = parse_result(text, forfeit=forfeit)
    fold(view, *result_entries(g, result, forfeit=lost, by="chief", how="forfeit" if lost else "slip"))


def play(t: Tournament, seed: int, rounds: int | None = None, *, forfeit_rate: float = 0.04,
         before: Mapping[int, Hook] | None = None, after: Mapping[int, Hook] | None = None) -> TournamentView:
    """``t`` registered and its first ``rounds`` (default all) played (module docstring)."""
    rng = random.Random(seed)
    view = TournamentView()
    fold(view, ("tournament_registered", tournament_registered_data(t)))
    for rnd in range(1, (rounds or t.rounds_total) + 1):
        if before and rnd in before:
            fold(view, *before[rnd](view))
        fold(view, draft_round(view, rnd))
        fold(view, publish_entry(view, rnd, None))
        start = t.rounds[rnd - 1].start_ms if len(t.rounds) >= rnd else START_MS + (rnd - 1) * DAY_MS
        fold(view, ("round_started", start_data(view, rnd, start_ms=start)))
        boards = [view.state.games[g].board for g in view.state.rounds[str(rnd)].games]
        for board in boards:
            forfeit = rng.random() < forfeit_rate
            text = rng.choice(["1-0", "0-1", "0-0"]) if forfeit else rng.choice(RESULTS)
            enter(view, rnd, board, text, forfeit=forfeit)
            g = find_game(view.state, rnd, board)
            scheduled = [e for e in due(view.state, g, start + 3_600_000, ClockWatches()) if isinstance(e, ArmageddonScheduled)]
            if scheduled:
                fold(view, *scheduled)
                enter(view, rnd, board, rng.choice(["1-0", "0-1"]), part="armageddon")
        if after and rnd in after:
            fold(view, *after[rnd](view))
    return view
