"""The tournament part of the state: who plays (start numbers), every pairing's result, fines,
withdrawals and drawings of lots (docs/tournament-log.md). Folded by ``services.state.fold``; read
by ``services.views.standings``.

Without a ``tournament_registered`` entry (a round set up from a PGN file) players are numbered in
the order their names first appear in ``round_started`` (White then Black, board by board), so
standings still work. A checkers match's second game is kept on its first game's record
(``GameRecord.second``), an Armageddon game on the drawn game's (``GameRecord.armageddon``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from services.events.tournament import Setup
from services.arbiter_office.round_draft import SWISS
from services.arbiter_office.tournament_games import BYE_CODES, GameRecord, result_code
from services.regulations.model import Player, Tournament
from services.state.draft import PairingDraft
from services.state.playoff import PlayoffState
from services.tournament.initial_ranking import initial_order

_FLIPPED = {"1-0": "0-1", "0-1": "1-0"}
"""A match's second game has the colours reversed: its result read from the first game's White."""


@dataclass
class TournamentState:
    """``tournament``: the registered file (None until ``tournament_registered``); ``registered``:
    that entry's data; ``players``: start number -> {"name", "rating", "fide_id", "federation",
    "title"}; ``records``: game id -> GameRecord (byes under "bye-{round}-{start_no}"); ``fines``:
    start number -> total; ``withdrawn``: start number -> first round not played; ``lots``: start
    number -> lot (tie-break LOT); ``pairing_numbers``: start number -> Berger pairing number.

    The arbiter's actions for the Swiss pairings (docs/pairing.md "Arbiter actions"):
    ``requested_byes``: round -> {start number: "H"/"F"/"Z"} (cancelled ones removed);
    ``late_entries``: start number -> {"first_round", "missed"} of players entered after the
    registration (also in ``players``; their missed rounds already started are bye records);
    ``forbidden``: groups of start numbers that must not meet (sorted tuples, each once);
    ``acceleration``: "baku" or None; ``playoff``: the play-off and the event's end
    (:class:`~services.state.playoff.PlayoffState`).

    ``drafts``: round -> :class:`~services.state.draft.PairingDraft`, the rounds paired into a draft
    before they start (docs/pairing.md "The round's life cycle"); ``roster``: players were
    registered by entries (``players_registered``): the start numbers are the C.04.2 initial order
    of everyone registered, no longer the file's order, and a registration of the file again leaves
    the players as they are."""

    tournament: Tournament | None = None
    registered: dict | None = None
    players: dict[int, dict] = field(default_factory=dict)
    records: dict[str, GameRecord] = field(default_factory=dict)
    fines: dict[int, Decimal] = field(default_factory=dict)
    withdrawn: dict[int, int] = field(default_factory=dict)
    lots: dict[int, int] = field(default_factory=dict)
    pairing_numbers: dict[int, int] = field(default_factory=dict)
    requested_byes: dict[int, dict[int, str]] = field(default_factory=dict)
    late_entries: dict[int, dict] = field(default_factory=dict)
    forbidden: list[tuple[int, ...]] = field(default_factory=list)
    acceleration: str | None = None
    arm_parent: dict[str, str] = field(default_factory=dict)
    drafts: dict[int, PairingDraft] = field(default_factory=dict)
    roster: bool = False
    second_parent: dict[str, str] = field(default_factory=dict)
    playoff: PlayoffState = field(default_factory=PlayoffState)

    # --- folding (called by services.state.fold) -------------------------------------------------
    def register(self, t: Tournament, data: dict) -> None:
        """A ``tournament_registered`` entry: the file's players replace the numbering (unless
        ``roster``: see the class docstring)."""
        self.tournament = t
        self.registered = data
        if self.roster:
            return
        for p in t.players:
            self.players[p.start_no] = {"name": p.name, "rating": p.rating, "fide_id": p.fide_id,
                                        "federation": p.federation, "title": p.title, "team": p.team,
                                        "k_factor": p.k_factor}

    def register_players(self, players: list[dict], frozen: str | None) -> None:
        """``players_registered``: ``players`` ({"name", "rating", "title", "fide_id", "federation",
        "sex", "birth", "team"}) join the registered ones and everyone takes the start number of the
        C.04.2 initial order (``services.tournament.initial_ranking``); what names start numbers
        (requested byes, late entries, forbidden pairs, withdrawals, lots, fines) follows. ValueError,
        nothing changed, when ``frozen`` (why the numbers are fixed: round 1 drafted or started) or a
        name or FIDE ID is registered already."""
        if frozen:
            raise ValueError(f"start numbers are fixed ({frozen}): enter a late player instead (player_entered)")
        names = {p["name"].casefold() for p in self.players.values()}
        ids = {str(p["fide_id"]) for p in self.players.values() if p.get("fide_id")}
        for p in players:
            if p["name"].casefold() in names:
                raise ValueError(f"a player named {p['name']!r} is registered already")
            if p.get("fide_id") and str(p["fide_id"]) in ids:
                raise ValueError(f"FIDE ID {p['fide_id']} ({p['name']}) is registered already")
            names.add(p["name"].casefold())
            if p.get("fide_id"):
                ids.add(str(p["fide_id"]))
        everyone = dict(self.players)
        for i, p in enumerate(players, start=max(everyone, default=0) + 1):
            everyone[i] = {k: v for k, v in p.items() if v is not None}
        self._renumber(everyone, {old: new for new, old in enumerate(initial_order(everyone), start=1)})
        self.roster = True

    def _renumber(self, everyone: dict[int, dict], new: dict[int, int]) -> None:
        """Give ``everyone`` (start number -> player) the start numbers ``new`` (old -> new) and
        carry every record that names a start number over."""
        self.players = {new[s]: p for s, p in sorted(everyone.items(), key=lambda x: new[x[0]])}
        self.requested_byes = {r: {new[s]: c for s, c in byes.items()} for r, byes in self.requested_byes.items()}
        self.late_entries = {new[s]: e for s, e in self.late_entries.items()}
        self.forbidden = [tuple(sorted(new[s] for s in group)) for group in self.forbidden]
        self.withdrawn = {new[s]: r for s, r in self.withdrawn.items()}
        self.lots = {new[s]: n for s, n in self.lots.items()}
        self.pairing_numbers = {new[s]: n for s, n in self.pairing_numbers.items()}
        self.fines = {new[s]: f for s, f in self.fines.items()}

    def as_player(self, start_no: int) -> Player:
        """The registered player ``start_no`` as the pairing and the exports read a player
        (``services.regulations.model.Player``); KeyError when nobody has that number."""
        p = self.players[start_no]
        return Player(start_no, p["name"], p.get("rating"), p.get("fide_id"), p.get("federation"), p.get("title"),
                      p.get("team"), p.get("k_factor"))

    def start_no(self, setup: Setup, side: str) -> int:
        """The start number of ``side`` in ``setup`` (``white_no``/``black_no``, else by name; a
        new number for a name never seen)."""
        no = getattr(setup, f"{side}_no")
        if isinstance(no, int) and not isinstance(no, bool) and no in self.players:
            return no
        name = getattr(setup, side) or ""
        for sno, p in self.players.items():
            if p["name"] == name:
                return sno
        sno = max(self.players, default=0) + 1
        self.players[sno] = {"name": name, "rating": getattr(setup, f"{side}_elo"), "fide_id": None,
                             "federation": None, "title": None}
        return sno

    def round_started(self, rnd: int, setups: list[Setup], byes: list) -> None:
        """A round's pairings (a round set up again replaces its pairing)."""
        for gid in [g for g, r in self.records.items() if r.round == rnd]:
            del self.records[gid]
        for setup in setups:
            gid = str(setup.id)
            follows = setup.match.follows if setup.match is not None else None
            if follows in self.records:  # a checkers match's second game: on the first game's record
                self.records[follows].second, self.records[follows].second_id = "*", gid
                self.second_parent[gid] = follows
                continue
            self.records[gid] = GameRecord(gid, rnd, str(setup.board or ""), self.start_no(setup, "white"),
                                           self.start_no(setup, "black"), kind=setup.kind or "classical")
        for bye in byes or []:
            sno, code = (bye, "U") if isinstance(bye, int) else (int(bye["start_no"]), bye.get("code", "U"))
            if code in BYE_CODES and sno in self.players:
                self.records[f"bye-{rnd}-{sno}"] = GameRecord("", rnd, "", sno, None, result=code)

    def armageddon(self, gid: str, follows: str) -> None:
        """An Armageddon game ``gid`` after the drawn game ``follows`` (Norway Chess 2023)."""
        parent = self.records.get(follows)
        if parent is None:
            return
        parent.armageddon_id = gid
        if parent.armageddon is None:
            parent.armageddon = "*"
        self.arm_parent[gid] = parent.id

    def set_result(self, gid: str, result: str, forfeit: bool) -> bool:
        """Record ``result`` for game ``gid``; False when it is not a result this record can hold."""
        if self.playoff.set_result(gid, result):
            return True
        if gid in self.second_parent:
            code = result_code(_FLIPPED.get(result, result), forfeit)
            if code is None or code[1] is not None:
                return False  # a special score in a match's second game: not scored here
            self.records[self.second_parent[gid]].second = code[0]
            return True
        if gid in self.arm_parent:
            if forfeit or result not in ("1-0", "0-1", "1/2-1/2", "*"):
                return False
            self.records[self.arm_parent[gid]].armageddon = result
            return True
        code = result_code(result, forfeit)
        record = self.records.get(gid)
        if code is None or record is None:
            return False
        if (record.result, record.special) != code:
            self._outdate_next_draft(record, code)
        record.set_result(*code)
        return True

    def _outdate_next_draft(self, record, code: tuple[str, str | None]) -> None:
        """A Swiss round's draft whose pairing read another result of ``record`` (a game of the round
        before) than ``code``, the one it gets now, reads the old result: noted in its ``outdated``
        until it is paired again (FIDE C.04.3 pairs from the scores after the previous round;
        docs/pairing.md "The round's life cycle"). A result changed back to the one the draft was
        paired from takes the game out again: the values are compared, not whether it changed."""
        draft = self.drafts.get(record.round + 1)
        if draft is None or draft.started or draft.system != SWISS:
            return
        paired_from = draft.paired_from.setdefault(record.id, (record.result, record.special))
        if code == paired_from:
            draft.outdated = [gid for gid in draft.outdated if gid != record.id]
        elif record.id not in draft.outdated:
            draft.outdated.append(record.id)

    def enter(self, start_no: int, player: dict, first_round: int, missed: str, started: list[int]) -> None:
        """A late entry: ``player`` ({"name", "rating", "fide_id", "federation", "title"}) as
        ``start_no`` from round ``first_round``; each round of ``started`` before it gets his bye
        record scored ``missed``. ValueError when the number or the name is taken (nothing changed)."""
        if start_no in self.players:
            raise ValueError(f"start number {start_no} is taken by {self.players[start_no]['name']!r}")
        if any(p["name"] == player["name"] for p in self.players.values()):
            raise ValueError(f"a player named {player['name']!r} is entered already")
        self.players[start_no] = dict(player)
        self.late_entries[start_no] = {"first_round": first_round, "missed": missed}
        for rnd in started:
            if rnd < first_round:
                self.records[f"bye-{rnd}-{start_no}"] = GameRecord("", rnd, "", start_no, None, result=missed)

    def absences(self, round_no: int) -> dict[int, str]:
        """Start number -> TRF code of the players not to be paired in round ``round_no`` (Swiss):
        a requested bye's code; a late entry's ``missed`` code before his first round; "Z" for a
        player withdrawn by then (a withdrawal outranks a bye he had asked for: he no longer
        plays)."""
        out = dict(self.requested_byes.get(round_no, {}))
        for sno, entered in self.late_entries.items():
            if round_no < entered["first_round"]:
                out[sno] = entered["missed"]
        for sno, first in self.withdrawn.items():
            if first <= round_no:
                out[sno] = "Z"
        return out

    def player(self, start_no, name) -> int:
        """The start number of a player given by number or name; KeyError when unknown."""
        if isinstance(start_no, int) and start_no in self.players:
            return start_no
        for sno, p in self.players.items():
            if p["name"] == name:
                return sno
        raise KeyError(f"unknown player {name!r}")
