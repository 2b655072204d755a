"""The standings: a projection of the hall's state (``services.state.HallState``: its
``tournament`` part, the players, every pairing's result, fines, withdrawals and lots) into
standings with tie-breaks, the crosstable, prizes and the play-off (the issue "Pairings, standings,
tie-breaks, prizes and playoffs"), with no game model of its own.

``TournamentView(state)`` reads a state folded elsewhere (the dashboard's feed folds the one state
that every view reads); ``TournamentView()`` owns a new state and folds entries itself with
``apply`` (``venue export``, pairing the next round from the log). Reading (``standings``,
``crosstable``, ...) raises ValueError only when the recorded results contradict each other (e.g. a
player with two games in a round).
"""

from __future__ import annotations

import copy
from decimal import Decimal

from services.eventlog.base import Entry
from services.events.vocabulary import GameStatus, Variant
from services.arbiter_office.tournament_games import GameRecord
from services.arbiter_office.tournament_rank import cross_rows, rank
from services.regulations.model import Tournament
from services.state import HallState
from services.tournament.crosstable import CrossRow
from services.tournament.model import Field
from services.tournament.playoffs import PlayoffPlan, playoff
from services.tournament.prizes import PrizeResult, PrizeRule, distribute
from services.tournament.rating_change import RatingChange, rating_changes
from services.tournament.scoring import CLASSICAL, NORWAY, Scoring
from services.tournament.standings import StandingRow
from services.tournament.playoff_walk import Step
from services.views.playoff import decided_order, final_rows, playoff_step, prize_pending
from services.views.spectator import board_key, game_json

ROUND_ROBIN = ("round-robin", "double-round-robin")
PROVISIONAL_RESULT = "1/2-1/2"
"""What an unfinished game counts as in provisional standings: a draw. The spectators' GAME holds no
evaluation (the gateway runs no engine) and FIDE has no rule to score an unfinished game; a draw is
the neutral reading, and for Norway scoring it counts the 1 point a drawn classical game is sure of
(``services.tournament.results``)."""


class TournamentView:
    """The standings of ``state`` (see the module docstring). ``tournament``: a tournament file to
    apply until the log registers one. Attributes read from the state: ``tournament`` (the
    registered file, else the given one), ``players`` (start number -> {"name", "rating", ...}),
    ``games`` (game id -> GameRecord; byes under "bye-{round}-{start_no}"), ``rounds`` (round number
    -> {"round", "event", "site", "date", "at"}), ``fines``, ``withdrawn``, ``lots``,
    ``pairing_numbers``."""

    def __init__(self, state: HallState | Tournament | None = None, tournament: Tournament | None = None):
        if isinstance(state, Tournament):
            state, tournament = None, state
        self.state = state if state is not None else HallState(tournament)

    def apply(self, entry: Entry) -> bool:
        """Fold one entry into the state (for a view that owns its state); True when the standings
        may have changed. Idempotent per ``seq``."""
        if entry.seq and entry.seq <= self.state.seq:
            return False
        return self.state.apply(entry).standings

    @property
    def seq(self) -> int:
        """The last log seq folded."""
        return self.state.seq

    @property
    def tournament(self) -> Tournament | None:
        """The registered tournament (else the one given), or None."""
        return self.state.config

    @property
    def players(self) -> dict[int, dict]:
        return self.state.tournament.players

    @property
    def games(self) -> dict[str, GameRecord]:
        return self.state.tournament.records

    @property
    def fines(self) -> dict[int, Decimal]:
        return self.state.tournament.fines

    @property
    def withdrawn(self) -> dict[int, int]:
        return self.state.tournament.withdrawn

    @property
    def lots(self) -> dict[int, int]:
        return self.state.tournament.lots

    @property
    def pairing_numbers(self) -> dict[int, int]:
        return self.state.tournament.pairing_numbers

    @property
    def rounds(self) -> dict[int, dict]:
        """Round number -> ``{"round", "event", "site", "date", "at"}`` of the numbered rounds."""
        return {int(n): {**r.info(), "at": r.at} for n, r in self.state.rounds.items() if n.isdigit()}

    @property
    def current_round(self) -> int:
        """The latest round started (0 before any)."""
        return max(self.rounds, default=0)

    @property
    def name(self) -> str:
        """The tournament's name (the file's, else the rounds' Event tag)."""
        if self.tournament is not None:
            return self.tournament.name
        r = self.rounds.get(self.current_round) or {}
        return r.get("event") or ""

    def scoring(self) -> Scoring:
        """The event's points (services.tournament.scoring): Norway Chess 3 / 1½ / 1 / 0 or 1 / ½ / 0."""
        t = self.tournament
        return NORWAY if t is not None and t.regulations.scoring == "norway-armageddon" else CLASSICAL

    def tiebreak_order(self) -> list[str]:
        """The regulations' tie-breaks in order (PTS is put first by the standings)."""
        t = self.tournament
        return list(t.regulations.tiebreaks) if t is not None and t.regulations.tiebreaks else ["PTS"]

    def results(self, before_round: int | None = None) -> list[tuple]:
        """``(GameResult, special score)`` of every pairing (of the rounds before ``before_round``),
        for ``services.arbiter_office.round_from_file.round_from_tournament(results_so_far=...)``."""
        return [g.as_result() for g in self._ordered() if before_round is None or g.round < before_round]

    def absent(self, round_no: int) -> set[int]:
        """Players not to be paired in round ``round_no`` of a Swiss (the keys of :meth:`absences`)."""
        return set(self.absences(round_no))

    def absences(self, round_no: int) -> dict[int, str]:
        """Start number -> TRF code ("H"/"F"/"Z") of the players not paired in round ``round_no`` of a
        Swiss: withdrawn by then, a requested bye, a late entry's missed round
        (``services.state.tournament.TournamentState.absences``)."""
        return self.state.tournament.absences(round_no)

    @property
    def late_entries(self) -> dict[int, dict]:
        """Start number -> ``{"first_round", "missed"}`` of the players entered late."""
        return self.state.tournament.late_entries

    @property
    def forbidden(self) -> list[tuple[int, ...]]:
        """Groups of start numbers that must not meet (``pairing_forbidden``)."""
        return self.state.tournament.forbidden

    @property
    def acceleration(self) -> str | None:
        """The Swiss pairing's acceleration ("baku", C.04.7) or None."""
        return self.state.tournament.acceleration

    def rank(self, provisional: bool = False) -> tuple[Field, list[StandingRow]]:
        """The tie-break field over the rounds started so far and its ranked rows. Tie-breaks count
        classical games only: the rounds hold the classical games, Armageddon games only add the
        Norway points (services.tournament.scoring.NorwayScoring), play-off games are not rounds."""
        t = self.tournament
        players = {s: (p["name"], p.get("rating")) for s, p in self.players.items()}
        records = self.records(provisional)
        return rank(players, records, rounds=self.current_round, scoring=self.scoring(),
                    tiebreaks=self.tiebreak_order(), round_robin=t is not None and t.system in ROUND_ROBIN,
                    lots=self.lots or None, provisional=provisional)

    def records(self, provisional: bool = False) -> list[tuple]:
        """``(GameResult, special score)`` of every pairing of every round started, in round and
        board order; ``provisional``: unfinished games (a match's second game too) read as
        :data:`PROVISIONAL_RESULT`."""
        return [g.as_result(PROVISIONAL_RESULT if provisional else None) for g in self._ordered()]

    def at_board(self) -> dict[int, str]:
        """Start number -> "playing" (a game of his under way: a move made or the clock running)
        or "waiting" (his game not started yet), for the players with a game without a result in
        a round started; the others are not in it."""
        out: dict[int, str] = {}
        for g in self.state.games.values():
            if g.ended or g.status not in (GameStatus.PLAYING, GameStatus.WAITING):
                continue
            for side in ("white", "black"):
                sno = getattr(g.setup, f"{side}_no")
                if isinstance(sno, int) and out.get(sno) != GameStatus.PLAYING:
                    out[sno] = g.status
        return out

    def rating_changes(self) -> dict[int, RatingChange]:
        """Each rated player's live FIDE rating change for the games finished so far, by start number
        (``services.tournament.rating_change``; K as the player's ``k_factor`` lists it); empty for
        checkers (no FIDE rating)."""
        t = self.tournament
        if t is not None and t.game == Variant.CHECKERS:
            return {}
        listed = {s: p["k_factor"] for s, p in self.players.items() if p.get("k_factor") is not None}
        return rating_changes(self.rank(False)[0], listed)

    def standings(self, provisional: bool = False) -> list[StandingRow]:
        """Ranked standings; ``provisional``: unfinished games count as :data:`PROVISIONAL_RESULT`."""
        return self.rank(provisional)[1]

    def crosstable(self, provisional: bool = False) -> list[CrossRow]:
        """The crosstable in rank order; a checkers match round's cell holds both games
        (``services.tournament.crosstable.CrossCell.games``)."""
        return cross_rows(*self.rank(provisional), self.records(provisional))

    def forfeited_or_withdrew(self) -> set[int]:
        """Players who lost a game by forfeit or withdrew (US 2023: no prize money for them)."""
        out = set(self.withdrawn)
        for g in self.games.values():
            out.update(s for s in g.forfeited_by() if s is not None)
        return out

    def prize_rule(self) -> PrizeRule | None:
        """The file's prize rule for ``services.tournament.prizes``; None without prize amounts."""
        t = self.tournament
        if t is None or not t.regulations.prizes.amounts:
            return None
        pz = t.regulations.prizes
        return PrizeRule(tuple(Decimal(a) for a in pz.amounts), currency=pz.currency,
                         sharing="tiebreak" if pz.sharing == "tiebreak" else "score",
                         first_prize_shared=pz.sharing != "equal-except-first",
                         withhold_after_forfeit=pz.withhold_after_forfeit, unit=Decimal(1),
                         source=t.source or t.name)

    def prizes(self, provisional: bool = False) -> PrizeResult | None:
        """The prize money by the final ranking now (final once the last round and the play-off are
        over), fines deducted and forfeits withheld where the file says so; the places a play-off
        decides are paid by its order, and held (``pending``) while it has not decided
        (``services.views.playoff``); None when the file gives no prize amounts."""
        rule = self.prize_rule()
        if rule is None:
            return None
        return distribute(self.final_standings(provisional), rule, fines=self.fines,
                          forfeited_or_withdrew=self.forfeited_or_withdrew(), decided=decided_order(self),
                          pending=prize_pending(self))

    def final_standings(self, provisional: bool = False) -> list[StandingRow]:
        """The standings with the play-off's order on top once it has decided (the final ranking;
        the rows keep the main event's points and tie-breaks)."""
        return final_rows(self, self.standings(provisional))

    def playoff_step(self) -> Step | None:
        """Where the play-off stands (``services.views.playoff.playoff_step``): None when none is due."""
        return playoff_step(self)

    def finished(self) -> bool:
        """The last round of the file has been played to the end (every game has a result)."""
        t = self.tournament
        last = [g for g in self.games.values() if t is not None and g.round == t.rounds_total]
        return bool(last) and all(g.finished for g in last)

    def tied_for_first(self, provisional: bool = False) -> list[int]:
        """Start numbers on the top score, best first by the tie-breaks."""
        rows = self.standings(provisional)
        return [r.start_no for r in rows if rows and r.points == rows[0].points]

    def playoff(self, force: bool = False) -> PlayoffPlan | None:
        """The play-off of the file's rule when two or more players tie for first after the last
        round (``force``: as if the event ended now); None otherwise or with rule "none"."""
        t = self.tournament
        if t is None or t.regulations.playoff == "none" or not (force or self.finished()):
            return None
        return playoff(t.regulations.playoff, self.tied_for_first())

    def round_games(self, rnd: int) -> list[dict]:
        """The spectators' GAMEs (services.views.spectator) of round ``rnd`` in board order, each followed
        by its match's second game (checkers) and its Armageddon game; copies."""
        out = []
        for g in self._ordered():
            if g.round != rnd or not g.id:
                continue
            for gid in (g.id, g.second_id, g.armageddon_id):
                if gid in self.state.games:
                    out.append(game_json(self.state.games[gid]))
        return out

    def round_start_ms(self, rnd: int) -> int | None:
        """When round ``rnd`` started (ms since the epoch, its ``round_started``'s ``start_ms``: the
        file's schedule, ``--round-start``, or the console's start now or at a time; the default
        time counts from it, docs/tournament-file.md); None for a round not set up or set up
        without a start (a round from a PGN file)."""
        r = self.state.rounds.get(str(rnd))
        return r.start_ms if r is not None else None

    def played_dates(self) -> list[str]:
        """Each round's day, round 1 first up to the last round scheduled or set up, as "YYYY.MM.DD"
        (or the file's ISO 8601 start): the day a round set up started (its entry's ``date``, its
        start in the event's zone), else the day the file schedules it, else "" (TRF16 132, and
        042/052 the first and last of them)."""
        t = self.tournament
        scheduled = {s.number: s.start for s in t.rounds} if t else {}
        last = max([self.current_round, *scheduled, t.rounds_total if t else 0])
        out = []
        for rnd in range(1, last + 1):
            day = str((self.rounds.get(rnd) or {}).get("date") or "")
            out.append(day if day and "?" not in day else scheduled.get(rnd, ""))
        return out

    def playoff_rounds(self) -> list[str]:
        """The rounds of the play-off's stages started so far ("P1", "P2", ...), in stage order."""
        return [s.round for s in sorted(self.state.tournament.playoff.stages, key=lambda s: s.stage)
                if s.round in self.state.rounds]

    def playoff_games(self, label: str) -> list[dict]:
        """The spectators' GAMEs of play-off round ``label`` ("P1") in hall-board order, a board's
        games in the order they are played (as ``/api/round.pgn?round=P1`` lists them); copies;
        [] for a round not set up."""
        r = self.state.rounds.get(label)
        games = [game_json(self.state.games[gid]) for gid in (r.games if r else []) if gid in self.state.games]
        return sorted(games, key=board_key)

    def playoff_info(self, label: str) -> dict:
        """ROUND (``round``, ``event``, ``site``, ``date``) of play-off round ``label``, as its
        ``playoff_stage_started`` set it up."""
        r = self.state.rounds.get(label)
        return r.info() if r else {"round": label}

    def round_info(self, rnd: int) -> dict:
        """ROUND of services.views.spectator (``round``, ``event``, ``site``, ``date``) for round ``rnd``."""
        info = copy.deepcopy(self.rounds.get(rnd) or {"round": str(rnd)})
        info.pop("at", None)
        return info

    def _ordered(self) -> list[GameRecord]:
        def key(g: GameRecord) -> tuple:
            return (g.round, g.black is None, int(g.board) if g.board.isdigit() else 10**9, g.board, g.white)

        return sorted(self.games.values(), key=key)
