"""Entries of the organiser: the tournament registered from its file, players registered or imported,
rounds set up, withdrawals, drawings of lots, and the arbiter's actions that reach the next Swiss
pairing (requested byes, late entries, forbidden pairs, acceleration) (docs/events.md "Round set-up",
docs/tournament-log.md)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from .base import Event, entry
from .match_setup import CheckersMatch, ThreeMoveBallot, ballot_of, match_of
from .vocabulary import ByeCode


class TimeControlTable(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A time control PGN cannot write, as the tournament file's table gives it
    (``services.regulations.controls``, docs/tournament-file.md): ``white``/``black`` (each side's
    time: a duration text such as "10m", or ms), ``increment`` (per move from
    ``increment_from_move``, a duration or ms), ``delay``/``delay_kind`` ("simple" or "bronstein"),
    ``match_clock`` (checkers match clocks, X.A.b: carried into the match's second game),
    ``bidding``/``base`` (Armageddon by bidding, ``base`` a duration), ``draw_goes_to`` and
    ``alternative`` (for the regulations, not the clock). A key not given stays out when written
    (``omit_defaults``): the JSON is the table as given."""

    white: str | int | None = None
    black: str | int | None = None
    increment: str | int | None = None
    increment_from_move: int | None = None
    delay: str | int | None = None
    delay_kind: str | None = None
    match_clock: bool | None = None
    bidding: bool | None = None
    base: str | int | None = None
    draw_goes_to: str | None = None
    alternative: str | None = None

    def table(self) -> dict[str, Any]:
        """The keys given, as the file's table has them (a new dict)."""
        return msgspec.to_builtins(self)


TimeControlSpec = str | TimeControlTable | None  # PGN TimeControl text (PGN standard 9.6.1), a table, or none


def time_control_spec(value: Any) -> TimeControlSpec:
    """``value`` (PGN text, a table as a dict or :class:`TimeControlTable`, or None) as a
    :class:`TimeControlSpec` (a table's unknown keys left out, as reading an entry leaves them:
    the tournament file's tables are checked against ``controls.TABLE_KEYS`` before they reach the
    log). Raises msgspec.ValidationError for a table key of the wrong type, ValueError for any
    other kind of value."""
    if value is None or isinstance(value, (str, TimeControlTable)):
        return value
    if isinstance(value, dict):
        return msgspec.convert(value, TimeControlTable, strict=False)
    raise ValueError("a time control is PGN TimeControl text or a table")


def spec_json(spec: TimeControlSpec) -> str | dict[str, Any] | None:
    """``spec`` as the API and the log write it: the PGN text, the table's keys given (a new dict), or None."""
    return spec.table() if isinstance(spec, TimeControlTable) else spec


class Setup(msgspec.Struct, kw_only=True):
    """One game of a round (SETUP, docs/events.md): ``id`` "{round}-{board}" (a checkers match's
    games "{round}-{board}.1"/".2", an Armageddon game "{game}-A"), ``board`` (hall board label),
    players and ratings, ``variant`` "chess"/"checkers", ``time_control`` (PGN TimeControl text or a
    tournament-file table), ``fen`` (start position; None for the standard start), ``kind``
    ("classical", "rapid", "blitz", "armageddon"), the players' start numbers when paired from a
    tournament file, ``match`` (:class:`CheckersMatch`: which game of a checkers match, X.A.b) and
    ``ballot`` (:class:`ThreeMoveBallot`: the opening, X.A.d) for checkers, ``follows`` and ``rule`` for an
    Armageddon game; the players' ``*_title`` (GM, IM, ...), ``*_fide_id``, ``*_fed`` (FIDE's
    three-letter federation code) and ``*_team`` from the tournament file, when it gives them."""

    id: str
    board: str
    round: str = ""
    white: str = ""
    black: str = ""
    white_elo: int | None = None
    black_elo: int | None = None
    white_no: int | None = None
    black_no: int | None = None
    white_title: str | None = None
    black_title: str | None = None
    white_fide_id: str | None = None
    black_fide_id: str | None = None
    white_fed: str | None = None
    black_fed: str | None = None
    white_team: str | None = None
    black_team: str | None = None
    variant: str = "chess"
    time_control: TimeControlSpec = None
    fen: str | None = None
    kind: str | None = None
    match: CheckersMatch | None = None
    ballot: ThreeMoveBallot | None = None
    follows: str | None = None
    rule: str | None = None

    def __post_init__(self) -> None:
        """A table, a match or a ballot given as a dict (built in code, not read) becomes a
        :class:`TimeControlTable`, :class:`CheckersMatch` or :class:`ThreeMoveBallot`, as reading it
        from the log would make it: the live state equals the one rebuilt from the log. Raises
        msgspec.ValidationError for a dict that does not fit (``match_of``, ``ballot_of``)."""
        if self.time_control is not None and not isinstance(self.time_control, (str, TimeControlTable)):
            self.time_control = time_control_spec(self.time_control)
        if self.match is not None and not isinstance(self.match, CheckersMatch):
            self.match = match_of(self.match)
        if self.ballot is not None and not isinstance(self.ballot, ThreeMoveBallot):
            self.ballot = ballot_of(self.ballot)

    def setup(self) -> "Setup":
        """This SETUP's own fields as a plain :class:`Setup` (an entry that is also one, an
        ``armageddon_scheduled``, without its entry's fields)."""
        if type(self) is Setup:
            return self
        return Setup(**{f: getattr(self, f) for f in Setup.__struct_fields__})


@entry("tournament_registered")
class TournamentRegistered(Event, kw_only=True):
    """The tournament file as registered (``services.arbiter_office.tournament_log.tournament_registered_data``
    gives the shape): players, schedule, time controls, regulations. Kept as plain data: the one
    reader is ``tournament_from_data``."""

    name: str
    slug: str
    system: str
    game: str = "chess"
    kind: str = "classical"
    rounds_total: int = 0
    site: str = ""
    federation: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = []
    players: list[dict] = []
    rounds: list[dict] = []
    boards: list[int] = []
    time_controls: dict = {}
    regulations: dict = {}
    changes: list[dict] = []
    by: str | None = None
    broadcast_delay_ms: int = 0
    broadcast_lichess_rounds: list[str] = []


@entry("round_started")
class RoundStarted(Event, kw_only=True):
    """A round set up (``--round`` from a PGN of pairings or paired from the tournament file).
    ``start_ms``: when the round starts (the schedule, or ``--round-start``): the default time (FIDE
    Laws 6.7.1) counts from it; ``scheduled_start_ms``: the file's schedule when that differs; ``end_ms``: the round's scheduled end
    (the late-start rule, checkers X.B.e), moved with its start;
    ``byes``: start numbers (or ``{"start_no", "code"}``) not paired this round; ``draft_version``:
    the published draft it starts (``pairing_published``; None for a round paired and started at
    once, ``venue serve --round N``, or set up from a PGN file); ``by``: who started it (the
    arbiter's login from the console, "organiser" from ``venue round start``; None when a server
    set it up at its start)."""

    round: str
    games: list[Setup]
    event: str = ""
    site: str = ""
    date: str = ""
    byes: list[Any] = []
    start_ms: int | None = None
    scheduled_start_ms: int | None = None
    end_ms: int | None = None
    draft_version: int | None = None
    by: str | None = None


@entry("player_withdrew")
class PlayerWithdrew(Event, kw_only=True):
    """A player withdrew: not paired from ``from_round`` on (docs/tournament-log.md)."""

    player: str | None = None
    start_no: int | None = None
    from_round: int | None = None
    by: str | None = None
    note: str | None = None


@entry("lots_drawn")
class LotsDrawn(Event, kw_only=True):
    """A recorded drawing of lots: ``numbers`` (start number -> the lot each player drew: who drew and
    the outcome), ``purpose``: "pairing_numbers" (Berger pairing numbers, C.05), "tiebreak" (the
    tie-break lots, C.07 LOT: lowest first), "playoff_colours" (the colours of play-off stage
    ``stage``'s game, lot 1 takes White, where the regulations do not fix them), "playoff_order"
    (the play-off's own last resort, Norway Chess 2023 "5. Drawing of" [lots]: lowest first);
    ``method``, ``seed`` (a drawing by the program), ``by`` (the arbiter)."""

    numbers: dict[str, int]
    purpose: str = "tiebreak"
    stage: int | None = None
    method: str | None = None
    seed: int | None = None
    by: str | None = None
    note: str | None = None




class PairingAction(Event, kw_only=True):
    """Fields of every arbiter's action for the Swiss pairings: ``by`` (the arbiter's login) and
    ``note`` (docs/arbiter.md "Round tools")."""

    by: str | None = None
    note: str | None = None


class PlayerByeAction(PairingAction, kw_only=True):
    """About one player's round: ``start_no``, ``round`` and the player's name (``player``, for the
    record)."""

    start_no: int
    round: int
    player: str | None = None


@entry("bye_requested")
class ByeRequested(PlayerByeAction, kw_only=True):
    """``start_no`` asked not to be paired in round ``round`` (Swiss): a requested bye scored
    ``code`` (H half point, F full point, Z zero; FIDE C.04.2). The next pairing of that round leaves
    him out and its ``round_started`` lists him in ``byes`` with the code (docs/pairing.md)."""

    KEEP = ("code",)

    code: ByeCode = ByeCode.HALF


@entry("bye_request_cancelled")
class ByeRequestCancelled(PlayerByeAction, kw_only=True):
    """A requested bye of ``start_no`` for round ``round`` withdrawn before that round was paired:
    he is paired again."""


@entry("player_entered")
class PlayerEntered(PairingAction, kw_only=True):
    """A late entry (Swiss): a new player ``start_no`` who plays from round ``first_round``; the
    rounds before it are byes scored ``missed`` (Z zero-point, or H where the regulations give half a
    point), written so in the TRF (docs/pairing.md "Arbiter actions")."""

    KEEP = ("missed",)

    start_no: int
    name: str
    first_round: int
    rating: int | None = None
    fide_id: str | None = None
    federation: str | None = None
    title: str | None = None
    missed: Literal["Z", "H"] = "Z"


@entry("pairing_forbidden")
class PairingForbidden(PairingAction, kw_only=True):
    """``players`` (two or more start numbers) must not be paired with each other in the rounds
    still to be paired (the organiser's forbidden pairs, TRF ``XXP``; C.04.3 C.1 treats them like
    players who have met)."""

    players: list[int]


@entry("acceleration_set")
class AccelerationSet(PairingAction, kw_only=True):
    """The Swiss pairing's acceleration: ``method`` "baku" (Baku acceleration, FIDE C.04.7, TRF
    ``192 FIDE_DUTCH_2025_BAKU``) or "none"."""

    method: Literal["baku", "none"]


class RegisteredPlayer(msgspec.Struct, kw_only=True):
    """A player as registered or imported: ``name``, ``rating`` (FIDE, None: unrated), ``title``
    (FIDE's: GM, IM, WGM, FM, WIM, CM, WFM, WCM), ``fide_id``, ``federation`` (FIDE's three-letter
    code), ``sex`` ("m"/"w"), ``birth`` (as the source wrote it), ``team``."""

    name: str
    rating: int | None = None
    title: str | None = None
    fide_id: str | None = None
    federation: str | None = None
    sex: str | None = None
    birth: str | None = None
    team: str | None = None


@entry("players_registered")
class PlayersRegistered(PairingAction, kw_only=True):
    """Players entered (by hand) or imported (``source``: the file's name; a TRF, a CSV or FIDE's
    rating-list text) before the first round is paired. The fold adds them to the registered players
    and gives everyone start numbers again in the initial order of FIDE C.04.2 (rating, then FIDE
    title GM-IM-WGM-FM-WIM-CM-WFM-WCM, then name); once round 1 is drafted or started, a new player
    is a late entry (``player_entered``)."""

    players: list[RegisteredPlayer]
    source: str | None = None
