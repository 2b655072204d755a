"""The tournament file's shape: one msgspec Struct per TOML table (docs/tournament-file.md).

``msgspec.convert(tomllib.loads(text), TournamentFile)`` checks what a table may hold, the kind
of every value and the closed sets (systems, kinds of game, draw policies, ...), and refuses a key
no table has (a misspelt setting would otherwise be dropped in silence: ``polcy = "never"``
losing an event's draw ban). Each Struct's ``__post_init__`` checks its own fields
(``FieldError``: durations, dates, tie-break codes, time controls, passwords); what needs several
tables (the event's kind has a control, a checkers-only setting) is checked by
``services.regulations.tournament_file``, which builds ``model.Tournament`` from these and gives
every problem its file and line.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from services.struct_errors import FieldError
from services.tournament.tiebreaks import parse_spec
from services.views.relay_rounds import FILE, MappingError, parse_round_ids

from .controls import control_from_spec, starting_time_problem
from .fields import duration_ms

Kind = Literal["classical", "rapid", "blitz", "armageddon"]
Duration = Annotated[int | str, Meta(description="must be a duration: \"30m\", \"90s\", \"1h30m\" or milliseconds")]
When = Annotated[datetime, Meta(description="must be a date and time with its UTC offset, e.g. "
                                            "2023-10-05T13:00:00-05:00")]
Control = Annotated[str | dict[str, Any], Meta(description="must be PGN TimeControl text or a table")]
Quote = Annotated[str, Meta(description="must be the rule's words, quoted as text")]


class Table(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A table of the file: a key it does not know is refused."""


def check_duration(field: str, value: int | str | None) -> None:
    """FieldError unless ``value`` is a duration (``fields.duration_ms``) or None."""
    if value is None:
        return
    try:
        duration_ms(value)
    except ValueError as exc:
        raise FieldError(field, str(exc)) from None


def check_quotes(table: msgspec.Struct, *fields: str) -> None:
    """FieldError for a quoted rule left empty."""
    for name in fields:
        text = getattr(table, name)
        if text is not None and not text.strip():
            raise FieldError(name, "a quoted rule must not be empty")


class Event(Table):
    """``[tournament]``: the event itself."""

    name: str
    slug: Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$",
                              description="must be lower-case letters, digits and '-' (it is used in MQTT topics)")]
    system: Literal["round-robin", "double-round-robin", "swiss-dutch", "matches"]
    rounds: Annotated[int, Meta(ge=1)]
    game: Literal["chess", "checkers"] = "chess"
    kind: Kind = "classical"
    site: str = ""
    federation: Annotated[str, Meta(pattern=r"^([A-Z]{3})?$",
                                    description="must be FIDE's three-letter code (e.g. \"NOR\")")] = ""
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = []


class PlayerRow(Table):
    """``[[players]]``: ``start_no`` defaults to the row's place in the file."""

    name: str
    start_no: int | None = None
    rating: int | None = None
    fide_id: str | int | None = None
    federation: str | None = None
    title: str | None = None
    team: str | None = None
    k_factor: Annotated[Literal[10, 20, 40] | None, Meta(description="must be 10, 20 or 40 (FIDE Rating Regulations 8.3.3)")] = None


class RoundRow(Table):
    """``[[rounds]]``: the scheduled start of play (FIDE Laws 6.7.1: the default time counts from
    it) and the end where a regulation needs one (checkers X.B.e); ``number`` defaults to the row's
    place."""

    start: When
    number: int | None = None
    end: When | None = None

    def __post_init__(self) -> None:
        for name in ("start", "end"):
            when = getattr(self, name)
            if when is not None and when.tzinfo is None:
                raise FieldError(name, "needs a UTC offset (e.g. -05:00) so the default time is measured right")
        if self.end is not None and self.end <= self.start:
            raise FieldError("end", "must be after the start")


class BoardRow(Table):
    """``[[boards]]``: a hall board and the MQTT client names of its devices."""

    number: int | None = None
    board_device: str | None = None
    clock_device: str | None = None


class TimeControls(Table):
    """``[time_controls]``: a control per kind of game (PGN TimeControl text or a table,
    ``services.regulations.controls``); one that gives a side no time is refused."""

    classical: Control | None = None
    rapid: Control | None = None
    blitz: Control | None = None
    armageddon: Control | None = None

    def __post_init__(self) -> None:
        for kind, spec in self.given().items():
            try:
                problem = starting_time_problem(control_from_spec(spec))
            except ValueError as exc:
                problem = str(exc)
            if problem:
                raise FieldError(kind, problem)

    def given(self) -> dict[str, str | dict[str, Any]]:
        """Kind -> spec, for the kinds the file gives."""
        return {k: v for k, v in msgspec.structs.asdict(self).items() if v is not None}


class DrawOffers(Table):
    """``[regulations.draw_offers]``: when players may agree a draw."""

    policy: Literal["allowed", "not_before_move", "never"] = "allowed"
    min_moves: int = 0
    exempt_kinds: list[Annotated[Kind, Meta(description="must be a kind of game: classical, rapid, blitz or "
                                                        "armageddon")]] = []
    rule: Quote | None = None

    def __post_init__(self) -> None:
        if self.policy == "not_before_move" and self.min_moves < 1:
            raise FieldError("min_moves", "must be at least 1 with policy not_before_move")
        check_quotes(self, "rule")


class DefaultTime(Table):
    """``[regulations.default_time]``: per kind of game (FIDE Laws 6.7.1; a kind left out has 0)."""

    classical: Duration | None = None
    rapid: Duration | None = None
    blitz: Duration | None = None
    armageddon: Duration | None = None
    rule: Quote | None = None

    def __post_init__(self) -> None:
        for kind in ("classical", "rapid", "blitz", "armageddon"):
            check_duration(kind, getattr(self, kind))
        check_quotes(self, "rule")

    def ms(self) -> dict[str, int]:
        """Kind -> default time in ms, for the kinds the file gives."""
        return {k: duration_ms(v) for k, v in msgspec.structs.asdict(self).items() if k != "rule" and v is not None}


class Fines(Table):
    """``[regulations.fines]``: US 2023 rule 1 ("a fine of $500 to be deducted from their prize").
    ``currency`` left out: the prizes' (``[regulations.prizes] currency``: the fine is deducted from
    the prize)."""

    not_at_board_at_start: int | None = None
    currency: str | None = None
    rule: Quote | None = None

    def __post_init__(self) -> None:
        check_quotes(self, "rule")


class Tiebreaks(Table):
    """``[regulations.tiebreaks]``: FIDE C.07 codes in the event's order (docs/tiebreaks.md)."""

    order: list[str] = []
    classical_only: bool = False

    def __post_init__(self) -> None:
        for code in self.order:
            try:
                parse_spec(code)
            except ValueError as exc:
                raise FieldError("order", f"{exc} (FIDE C.07 codes, docs/tiebreaks.md)") from None


class Playoff(Table):
    """``[regulations.playoff]``: the event's play-off rule."""

    rule: Literal["none", "us-2023", "us-2013", "norway-2023"] = "none"


class Prizes(Table):
    """``[regulations.prizes]``: amounts by place and how equal scores share them."""

    amounts: list[Annotated[int, Meta(ge=0, description="amounts are whole non-negative numbers")]] = []
    currency: str = "USD"
    sharing: Literal["tiebreak", "equal", "equal-except-first"] = "tiebreak"
    withhold_after_forfeit: bool = False


class Armageddon(Table):
    """``[regulations.armageddon]``: Norway 2023, a drawn classical game is followed by an
    Armageddon ("If the Armageddon game is drawn, black will win": ``draw_rule``)."""

    after_draw: bool = False
    rule: Quote | None = None
    draw_rule: Quote | None = None

    def __post_init__(self) -> None:
        check_quotes(self, "rule", "draw_rule")


class Appendix(Table):
    """``[regulations.appendix]``: which part of the Laws' appendices governs rapid and blitz
    (FIDE Laws A.6, B.4)."""

    rapid: Literal["A.4", "A.5"] = "A.5"
    blitz: Literal["B.2", "B.3"] = "B.3"


class Rules(Table):
    """``[regulations.rules]``: the event's words for a setting, one field per ``model.RULE_KEYS``
    (the audit trail cites them: ``services.regulations.quotes``)."""

    default_time: Quote | None = None
    draw_offers: Quote | None = None
    fines: Quote | None = None
    armageddon: Quote | None = None
    armageddon_draw: Quote | None = None
    late_start: Quote | None = None
    time_trouble: Quote | None = None
    clock: Quote | None = None
    match_carry: Quote | None = None
    match_flag: Quote | None = None
    ballot: Quote | None = None
    penalties: Quote | None = None
    move_timers: Quote | None = None
    both_flags: Quote | None = None

    def __post_init__(self) -> None:
        check_quotes(self, *self.__struct_fields__)

    def given(self) -> dict[str, str]:
        """Key -> quote, for the rules the file quotes."""
        return {k: v for k, v in msgspec.structs.asdict(self).items() if v is not None}


class RegulationsTable(Table):
    """``[regulations]``: the event's own rules (docs/tournament-file.md)."""

    draw_offers: DrawOffers = msgspec.field(default_factory=DrawOffers)
    default_time: DefaultTime = msgspec.field(default_factory=DefaultTime)
    fines: Fines = msgspec.field(default_factory=Fines)
    scoring: Literal["standard", "norway-armageddon"] = "standard"
    tiebreaks: Tiebreaks = msgspec.field(default_factory=Tiebreaks)
    playoff: Playoff = msgspec.field(default_factory=Playoff)
    prizes: Prizes = msgspec.field(default_factory=Prizes)
    armageddon: Armageddon = msgspec.field(default_factory=Armageddon)
    clock_tolerance: Duration = 2000
    ballot_moves_before_clock: bool = False
    rules: Rules = msgspec.field(default_factory=Rules)
    period_added: Literal["on_move", "on_expiry"] = "on_move"
    appendix: Appendix = msgspec.field(default_factory=Appendix)
    guidelines_iii: bool = False
    """The event announced the FIDE Laws' Guidelines III (both flags fallen: III.3.1)."""
    move_timers: list[Literal["five_minute", "one_minute"]] | None = None
    """The referee's move timers the event provides (11-Man National 2017 X.B.a, X.B.c; none: X.A.i)."""

    def __post_init__(self) -> None:
        check_duration("clock_tolerance", self.clock_tolerance)


class ArbiterRow(Table):
    """``[[arbiters]]``: a login with an argon2 ``password_hash`` (``venue hash-password``) or the
    environment variable holding the password (``password_env``); a plain password is refused."""

    login: str
    name: str = ""
    password_hash: str | None = None
    password_env: str | None = None
    password: Any = None  # read only to refuse it, with its line

    def __post_init__(self) -> None:
        if self.password is not None:
            raise FieldError("password", "plain passwords are not accepted: give password_hash "
                                         "(`venue hash-password`) or password_env")
        if self.password_hash is None and self.password_env is None:
            raise ValueError("needs password_hash or password_env")
        if self.password_hash is not None and not self.password_hash.startswith("$argon2"):
            raise FieldError("password_hash", "is not an argon2 hash (make one with `venue hash-password`)")


MAX_BROADCAST_DELAY_MS = 3600 * 1000


class Broadcast(Table):
    """``[broadcast]``: how long the public sees the hall behind, whole seconds or a duration
    (0 to 3600 s, docs/broadcast.md); ``lichess_rounds``: the lichess broadcast rounds ``venue
    broadcast lichess`` pushes to when given no ``--round-id``, each ``"ID"`` or ``"ID:BOARDS"``
    (``["abcd1234:1-100", "efgh5678:101-200"]``), refused as the command line's would be (a round
    over lichess's 100 games, a board in two: ``services.views.relay_rounds.check_mapping``)."""

    delay: Annotated[int | str, Meta(description="must be whole seconds or a duration such as \"15m\"")] = 0
    lichess_rounds: Annotated[list[str], Meta(description="must be a list of lichess round ids with their "
                                                          "boards, e.g. [\"abcd1234:1-100\", \"efgh5678:101-200\"]")] = []

    def __post_init__(self) -> None:
        if isinstance(self.delay, str):
            check_duration("delay", self.delay)
        if not 0 <= self.ms() <= MAX_BROADCAST_DELAY_MS:
            raise FieldError("delay", f"must be between 0 and 3600 seconds, not {self.ms() / 1000:g}")
        if self.lichess_rounds:
            try:
                parse_round_ids(self.lichess_rounds, FILE)
            except MappingError as exc:
                raise FieldError("lichess_rounds", str(exc)) from None

    def ms(self) -> int:
        """The delay in ms."""
        return self.delay * 1000 if isinstance(self.delay, int) else duration_ms(self.delay)


class TournamentFile(Table):
    """The whole file (docs/tournament-file.md)."""

    tournament: Event
    time_controls: TimeControls
    players: list[PlayerRow] = []
    rounds: list[RoundRow] = []
    boards: list[BoardRow] = []
    regulations: RegulationsTable = msgspec.field(default_factory=RegulationsTable)
    arbiters: list[ArbiterRow] = []
    broadcast: Broadcast = msgspec.field(default_factory=Broadcast)
