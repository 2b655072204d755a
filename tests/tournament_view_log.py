"""Entries folded into the tournament fold (``services.views.standings.TournamentView``) with rising
seq, as the log holds them (``Log``), and a TRF's tournament replayed as such a log (``_replay_trf``:
registered, each round started and its games ended, forfeits as TRF16 writes them), for the tests of
the fold, the standings routes and the tournament's export (test_tournament_view, test_standings_api,
test_tournament_view_export).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from tournament_view_log import Log``.
"""

from __future__ import annotations

from referee_harness import Referee as Enforcer

from services.eventlog.base import Entry
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView


class Log:
    """Entries with rising seq folded into a TournamentView (and shown to the regulations when
    given, ``referee_harness.Referee``, whose answers are appended as the gateway would)."""

    def __init__(self, enforcer: Enforcer | None = None) -> None:
        self.view = TournamentView()
        self.entries: list[Entry] = []
        self.enforcer = enforcer

    def add(self, type: str, data: dict, *, answer: bool = True) -> bool:
        e = Entry(len(self.entries) + 1, 1_700_000_000_000 + 1000 * len(self.entries), type, data)
        self.entries.append(e)
        changed = self.view.apply(e)
        if self.enforcer is not None and answer:
            # the regulations' answers (and answers to them), folded by the referee as the gateway does
            for t, d in self.enforcer.observe(type, data, e.at):
                self.add(t, d, answer=False)
        return changed

    def end(self, game: str, result: str, **extra) -> None:
        self.add("game_ended", {"game": game, "board": game.split("-")[1], "result": result, **extra})


_CODES = {("1", "0"): ("1-0", False), ("0", "1"): ("0-1", False), ("=", "="): ("1/2-1/2", False),
          ("+", "-"): ("1-0", True), ("-", "+"): ("0-1", True), ("-", "-"): ("0-0", True)}


def _replay_trf(text: str, system: str) -> Log:
    """The TRF's tournament as a log: registered, then each round started and its games ended."""
    t = parse_trf(text)
    log = Log()
    log.add("tournament_registered", {
        "name": t.name, "slug": "fixture", "system": system, "rounds_total": t.total_rounds,
        "players": [{"start_no": p.start_no, "name": p.name, "rating": p.rating} for p in t.players.values()],
        "regulations": {"scoring": "standard", "tiebreaks": ["DE", "BPG", "KS", "SB", "WON", "WIN"]}})
    for rnd in range(1, t.rounds_played + 1):
        games, ends = [], []
        for p in t.players.values():
            g = p.game(rnd)
            if g is None or g.opponent is None or not (g.color == "w" or (g.color is None and p.start_no < g.opponent)):
                continue
            gid = f"{rnd}-{len(games) + 1}"
            games.append({"id": gid, "board": str(len(games) + 1), "white": p.name, "white_no": p.start_no,
                          "black": t.players[g.opponent].name, "black_no": g.opponent})
            result, forfeit = _CODES[(g.result, t.players[g.opponent].game(rnd).result)]
            ends.append((gid, result, forfeit))
        log.add("round_started", {"round": str(rnd), "games": games})
        for gid, result, forfeit in ends:
            log.end(gid, result, forfeit=forfeit)
    return log
