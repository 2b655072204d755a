"""The tournament as a pure fold of the event log: every round's games and results, standings,
crosstable, prizes and play-off (the issue "Pairings, standings, tie-breaks, prizes and playoffs").

``TournamentView.apply(entry)`` folds one entry (docs/events.md, docs/tournament-log.md) and returns
True when the standings may have changed. Entries read:

* ``tournament_registered``: players, system, scoring, tie-breaks, prizes, play-off rule. Without it
  (a round set up from a PGN file) players are numbered in the order their names first appear in
  ``round_started`` (White then Black, board by board), so standings still work (PTS only, standard
  scoring).
* ``round_started`` (SETUPs; ``white_no``/``black_no`` when set up from the file; ``byes``; a
  checkers match's second game, ``match.game_no`` 2, is kept on its first game's record:
  ``GameRecord.second``), ``armageddon_scheduled`` (Norway: the Armageddon game after a drawn
  classical game).
* ``game_ended``, ``armageddon_decided``, ``default_forfeit``, ``arbiter_decision`` (corrections; "*"
  reopens; forfeits "1-0"/"0-1"/"0-0" with ``forfeit``; special scores "0-0", "1/2-0", "0-1/2"),
  ``draw_claim_decided`` (an accepted claim is a draw, FIDE Laws 9.2/9.3), ``fine_recorded``,
  ``player_withdrew`` and ``lots_drawn`` (docs/tournament-log.md).
* Every entry about a game is also folded into a ``services.hall.view.HallView`` per set-up, so the
  moves and clocks of every round are kept for the tournament PGN.

Like HallView, ``apply`` never raises on data it does not understand (the entry is skipped) and
ignores entries at or below ``seq``. Reading (``standings``, ``crosstable``, ...) raises ValueError
only when the recorded results contradict each other (e.g. a player with two games in a round).
"""

from __future__ import annotations

import copy
from decimal import Decimal

from services.eventlog.base import Entry
from services.hall.tournament_games import BYE_CODES, GameRecord, result_code
from services.hall.tournament_log import tournament_from_data
from services.hall.tournament_rank import cross_rows, rank
from services.hall.view import HallView
from services.regulations.model import Tournament
from services.tournament.crosstable import CrossRow
from services.tournament.model import Field
from services.tournament.playoffs import PlayoffPlan, playoff
from services.tournament.prizes import PrizeResult, PrizeRule, distribute
from services.tournament.scoring import CLASSICAL, NORWAY, Scoring
from services.tournament.standings import StandingRow

ROUND_ROBIN = ("round-robin", "double-round-robin")
PROVISIONAL_RESULT = "1/2-1/2"
"""What an unfinished game counts as in provisional standings: a draw. The spectators' GAME holds no
evaluation (the gateway runs no engine) and FIDE has no rule to score an unfinished game; a draw is
the neutral reading, and for Norway scoring it counts the 1 point a drawn classical game is sure of
(``services.tournament.results``)."""


class TournamentView:
    """The fold. ``tournament``: the registered file (None until ``tournament_registered``);
    ``players``: start number -> {"name", "rating", ...}; ``games``: game id -> GameRecord (byes
    under "bye-{round}-{start_no}"); ``fines``: start number -> total recorded; ``withdrawn``: start
    number -> the first round he no longer plays; ``lots``: start number -> lot (tie-break LOT);
    ``pairing_numbers``: start number -> Berger pairing number (a recorded drawing of lots)."""

    def __init__(self, tournament: Tournament | None = None) -> None:
        self.seq = 0
        self.tournament = tournament
        self.players: dict[int, dict] = {}
        self.games: dict[str, GameRecord] = {}
        self.rounds: dict[int, dict] = {}
        self.fines: dict[int, Decimal] = {}
        self.withdrawn: dict[int, int] = {}
        self.lots: dict[int, int] = {}
        self.pairing_numbers: dict[int, int] = {}
        self._halls: dict[str, HallView] = {}
        self._arm_parent: dict[str, str] = {}
        self._second_parent: dict[str, str] = {}
        if tournament is not None:
            self._register(tournament)

    # --- folding -------------------------------------------------------------------------------
    def apply(self, entry: Entry) -> bool:
        """Fold one entry; True when standings may have changed. Idempotent per ``seq``."""
        if entry.seq <= self.seq:
            return False
        self.seq = entry.seq
        gid = (entry.data or {}).get("game") if isinstance(entry.data, dict) else None
        hall = self._halls.get(gid) if isinstance(gid, str) else None
        if hall is not None:
            hall.apply(entry)
        handler = _HANDLERS.get(entry.type)
        if handler is None:
            return False
        try:
            return bool(handler(self, entry))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return False

    def _register(self, t: Tournament) -> None:
        self.tournament = t
        for p in t.players:
            self.players[p.start_no] = {"name": p.name, "rating": p.rating, "fide_id": p.fide_id,
                                        "federation": p.federation, "title": p.title}

    def _on_tournament_registered(self, e: Entry) -> bool:
        self._register(tournament_from_data(e.data))
        return True

    def _start_no(self, setup: dict, side: str) -> int:
        no = setup.get(f"{side}_no")
        if isinstance(no, int) and not isinstance(no, bool) and no in self.players:
            return no
        name = setup.get(side) or ""
        for sno, p in self.players.items():
            if p["name"] == name:
                return sno
        sno = max(self.players, default=0) + 1
        self.players[sno] = {"name": name, "rating": setup.get(f"{side}_elo"), "fide_id": None,
                             "federation": None, "title": None}
        return sno

    def _on_round_started(self, e: Entry) -> bool:
        d = e.data
        rnd = int(d["round"])
        for gid in [g for g, r in self.games.items() if r.round == rnd]:
            del self.games[gid]  # a round set up again replaces its pairing
        self.rounds[rnd] = {"round": str(rnd), "event": d.get("event") or "", "site": d.get("site") or "",
                            "date": d.get("date") or "", "at": e.at}
        hall = HallView()
        hall.apply(e)
        for setup in d["games"]:
            gid = str(setup["id"])
            follows = (setup.get("match") or {}).get("follows")
            if follows in self.games:  # a checkers match's second game: on the first game's record
                self.games[follows].second, self.games[follows].second_id = "*", gid
                self._second_parent[gid] = follows
                self._halls[gid] = hall
                continue
            self.games[gid] = GameRecord(gid, rnd, str(setup.get("board") or ""), self._start_no(setup, "white"),
                                         self._start_no(setup, "black"), kind=setup.get("kind") or "classical")
            self._halls[gid] = hall
        for bye in d.get("byes") or []:
            sno, code = (bye, "U") if isinstance(bye, int) else (int(bye["start_no"]), bye.get("code", "U"))
            if code in BYE_CODES and sno in self.players:
                self.games[f"bye-{rnd}-{sno}"] = GameRecord("", rnd, "", sno, None, result=code)
        return True

    def _on_armageddon_scheduled(self, e: Entry) -> bool:
        d = e.data
        parent = self.games[d["follows"]]
        parent.armageddon_id = str(d["id"])
        if parent.armageddon is None:
            parent.armageddon = "*"
        self._arm_parent[parent.armageddon_id] = parent.id
        hall = HallView()
        hall.apply(Entry(e.seq, e.at, "round_started", {**self.rounds.get(parent.round, {}),
                                                        "round": str(parent.round), "games": [d]}))
        self._halls[parent.armageddon_id] = hall
        return True

    def _set(self, gid: str, result: str, forfeit: bool) -> bool:
        if gid in self._second_parent:
            code = result_code(_FLIPPED.get(result, result), forfeit)
            if code is None or code[1] is not None:
                return False  # a special score in a match's second game: not scored here
            self.games[self._second_parent[gid]].second = code[0]
            return True
        if gid in self._arm_parent:
            if forfeit or result not in ("1-0", "0-1", "1/2-1/2", "*"):
                return False
            self.games[self._arm_parent[gid]].armageddon = result
            return True
        code = result_code(result, forfeit)
        if code is None:
            return False
        self.games[gid].set_result(*code)
        return True

    def _on_game_ended(self, e: Entry) -> bool:
        d = e.data
        return self._set(d["game"], d["result"], bool(d.get("forfeit")))

    def _on_armageddon_decided(self, e: Entry) -> bool:
        # "If the Armageddon game is drawn, black will win" (Norway Chess 2023): the decided result
        return self._set(e.data["game"], e.data.get("result") or "0-1", False)

    def _on_default_forfeit(self, e: Entry) -> bool:
        return self._set(e.data["game"], e.data["result"], True)

    def _on_arbiter_decision(self, e: Entry) -> bool:
        return self._set(e.data["game"], e.data["result"], bool(e.data.get("forfeit")))

    def _on_draw_claim_decided(self, e: Entry) -> bool:
        return e.data.get("accepted") is True and self._set(e.data["game"], "1/2-1/2", False)

    def _player(self, d: dict) -> int:
        no = d.get("start_no")
        if isinstance(no, int) and no in self.players:
            return no
        name = d.get("player")
        for sno, p in self.players.items():
            if p["name"] == name:
                return sno
        raise KeyError(f"unknown player {name!r}")

    def _on_fine_recorded(self, e: Entry) -> bool:
        sno = self._player(e.data)
        self.fines[sno] = self.fines.get(sno, Decimal(0)) + Decimal(int(e.data["amount"]))
        return True

    def _on_player_withdrew(self, e: Entry) -> bool:
        sno = self._player(e.data)
        self.withdrawn[sno] = int(e.data.get("from_round") or max(self.rounds, default=0) + 1)
        return True

    def _on_lots_drawn(self, e: Entry) -> bool:
        numbers = {int(k): int(v) for k, v in e.data["numbers"].items()}
        if e.data.get("purpose") == "pairing_numbers":
            self.pairing_numbers = numbers
            return False
        self.lots = numbers
        return True

    # --- reading -------------------------------------------------------------------------------
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
        for ``services.hall.round_from_file.round_from_tournament(results_so_far=...)``."""
        return [g.as_result() for g in self._ordered() if before_round is None or g.round < before_round]

    def absent(self, round_no: int) -> set[int]:
        """Players withdrawn by round ``round_no`` (not to be paired in a Swiss)."""
        return {s for s, r in self.withdrawn.items() if r <= round_no}

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
        """The prize money by the standings now (final once the last round is over), fines deducted
        and forfeits withheld where the file says so; None when the file gives no prize amounts."""
        rule = self.prize_rule()
        if rule is None:
            return None
        return distribute(self.standings(provisional), rule, fines=self.fines,
                          forfeited_or_withdrew=self.forfeited_or_withdrew())

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
        """The spectators' GAMEs (services.hall.view) of round ``rnd`` in board order, each followed
        by its match's second game (checkers) and its Armageddon game; copies."""
        out = []
        for g in self._ordered():
            if g.round != rnd or not g.id:
                continue
            for gid in (g.id, g.second_id, g.armageddon_id):
                game = self._halls[gid].game(gid) if gid in self._halls else None
                if game is not None:
                    out.append(game)
        return out

    def round_info(self, rnd: int) -> dict:
        """ROUND of services.hall.view (``round``, ``event``, ``site``, ``date``) for round ``rnd``."""
        info = copy.deepcopy(self.rounds.get(rnd) or {"round": str(rnd)})
        info.pop("at", None)
        return info

    def _ordered(self) -> list[GameRecord]:
        def key(g: GameRecord) -> tuple:
            return (g.round, g.black is None, int(g.board) if g.board.isdigit() else 10**9, g.board, g.white)

        return sorted(self.games.values(), key=key)


_FLIPPED = {"1-0": "0-1", "0-1": "1-0"}
"""A match's second game has the colours reversed: its result read from the first game's White."""

_HANDLERS = {
    "tournament_registered": TournamentView._on_tournament_registered,
    "round_started": TournamentView._on_round_started,
    "armageddon_scheduled": TournamentView._on_armageddon_scheduled,
    "game_ended": TournamentView._on_game_ended,
    "armageddon_decided": TournamentView._on_armageddon_decided,
    "default_forfeit": TournamentView._on_default_forfeit,
    "arbiter_decision": TournamentView._on_arbiter_decision,
    "draw_claim_decided": TournamentView._on_draw_claim_decided,
    "fine_recorded": TournamentView._on_fine_recorded,
    "player_withdrew": TournamentView._on_player_withdrew,
    "lots_drawn": TournamentView._on_lots_drawn,
}
