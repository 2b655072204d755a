"""The tournament as its file describes it: players, schedule, hall, time controls, regulations.

Pure data (frozen dataclasses). ``services.regulations.tournament_file.load_tournament`` builds it
from TOML; docs/tournament-file.md documents every field with the regulation it serves.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo

KINDS = ("classical", "rapid", "blitz", "armageddon")
DRAW_POLICIES = ("allowed", "not_before_move", "never")
SCORING_SYSTEMS = ("standard", "norway-armageddon")
SYSTEMS = ("round-robin", "double-round-robin", "swiss-dutch", "matches")
PLAYOFF_RULES = ("none", "us-2023", "us-2013", "norway-2023")
PRIZE_SHARING = ("tiebreak", "equal", "equal-except-first")


@dataclass(frozen=True)
class Player:
    """A participant. ``start_no`` is the starting rank (1-based; TRF column 001); ``fide_id``,
    ``federation`` (FIDE's three-letter code), ``title`` (GM, IM, WGM, ...) and ``team`` (a team
    event's team, or a player's club) are shown on the pages and written to every export (PGN
    ``WhiteFideId``, ``WhiteTitle``, ``WhiteTeam``, as lichess's broadcasts read them)."""

    start_no: int
    name: str
    rating: int | None = None
    fide_id: str | None = None
    federation: str | None = None
    title: str | None = None
    team: str | None = None
    k_factor: int | None = None  # the rating list's K (FIDE Rating Regulations 8.3.3), for live rating changes


@dataclass(frozen=True)
class RoundSchedule:
    """A round's scheduled start of play (FIDE Laws 6.7.1: default time counts from it).
    ``start_ms``: ms since the epoch; ``start``: the ISO 8601 text of the file; ``end_ms``: the
    scheduled end of the round where a regulation needs one (checkers Major/Minor X.B.c, e)."""

    number: int
    start: str
    start_ms: int
    end_ms: int | None = None


@dataclass(frozen=True)
class HallBoard:
    """A board in the playing hall and the devices on it (their MQTT client names)."""

    number: int
    board_device: str | None = None
    clock_device: str | None = None


@dataclass(frozen=True)
class DrawOfferPolicy:
    """When players may agree a draw. ``policy``: "allowed"; "not_before_move" (not until each
    player has made ``min_moves`` moves: Norway 2023 "until at least 30 moves have been made by
    each player", US 2013 "in less than 30 moves"); "never" (US 2023 "no draw" rule: draws only by
    a claim verified by an arbiter). ``exempt_kinds``: kinds of game the policy does not cover
    (Norway: "This rule does not apply to Blitz and Armageddon games")."""

    policy: str = "allowed"
    min_moves: int = 0
    exempt_kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Fine:
    """A fine the arbiter may record (US 2023 rule 1: "$500 to be deducted from their prize")."""

    amount: int
    currency: str = "USD"


@dataclass(frozen=True)
class Prizes:
    """Prize money: ``amounts`` by place (1st first); ``sharing``: "tiebreak" (places decided by
    tie-break), "equal" (shared equally on equal scores) or "equal-except-first" (Norway 2023);
    ``withhold_after_forfeit``: US 2023 "Players who withdraw or forfeit a game may not receive any
    prize money"."""

    amounts: tuple[int, ...] = ()
    currency: str = "USD"
    sharing: str = "tiebreak"
    withhold_after_forfeit: bool = False


PERIOD_ADDED = ("on_move", "on_expiry")
APPENDIX_PARTS = {"rapid": ("A.4", "A.5"), "blitz": ("B.2", "B.3")}
# A.4 and B.2 need adequate supervision (one arbiter for at most three games, one per game in blitz);
# A.5 and B.3 are what applies "otherwise": the usual case, so the default.
APPENDIX_DEFAULT = {"rapid": "A.5", "blitz": "B.3"}

MOVE_TIMERS = ("five_minute", "one_minute")
"""The referee's move timers an event's regulations may provide (11-Man National 2017 X.B.a, X.B.c)."""

RULE_KEYS = ("default_time", "draw_offers", "fines", "armageddon", "armageddon_draw", "late_start", "time_trouble",
             "clock", "match_carry", "match_flag", "ballot", "penalties", "move_timers", "both_flags")
"""The settings whose rule a tournament file may quote (``[regulations.rules]``, or ``rule`` beside the
setting: docs/tournament-file.md)."""


@dataclass(frozen=True)
class Regulations:
    """The event's own rules, as the product enforces them.

    ``default_time_ms``: per kind of game, the lateness after the scheduled start that loses by
    default (FIDE Laws 6.7.1; US: 30 min; Norway: 15 min classical, 3 min blitz); a missing kind
    means 0 (the Laws' default when the regulations say nothing). ``armageddon_after_draw``: Norway
    classical: "If the classical game is drawn, an Armageddon game will be played"; the Armageddon
    draw goes to Black ("If the Armageddon game is drawn, black will win").
    ``ballot_moves_before_clock`` (checkers, 11-Man National 2017 X.A.d): False (the default, the
    regulation's first way): "As the game starts, Red's clock is started, Red's first balloted move
    is made, Red's clock is stopped, and White's is automatically started, etc."; True (its
    alternative): "the three balloted moves may be played prior to starting white's clock for
    white's second move": no time is charged for them. ``rules``: the event's own words for a
    setting (``RULE_KEYS``), quoted in the tournament file beside it: the audit trail cites them
    (``services.regulations.quotes``). ``period_added``: when the event's clocks add a later
    period's time: "on_move" (a move counter, on the press completing the period's moves) or
    "on_expiry" (when the period's time runs out; FIDE Laws 6.9 then decides whether the moves were
    made: ``services.clock.expiry``). ``appendix``: which part of the Laws' appendices governs
    rapid and blitz games (FIDE Laws A.6, B.4: the event's regulations say): ``{"rapid": "A.4" or
    "A.5", "blitz": "B.2" or "B.3"}``; it decides the penalties' time (A.3) and whether an
    unnoticed illegal move stands (A.5.2). ``guidelines_iii``: the event announced the FIDE Laws'
    Guidelines III (games without increment, quickplay finishes; III.2.1: "shall only be used at an
    event if their use has been announced beforehand"): both flags fallen without knowing which fell
    first then continue or draw the game (III.3.1). ``move_timers``: the referee's move timers the
    event's rules provide (``MOVE_TIMERS``: 11-Man National 2017 X.B.a five-minute rule, X.B.c
    one-minute rule, both Major and Minor division rules; () for the Master division, X.A.i "not
    subject to the One-Minute Rule"); None when the file says nothing (then none is provided)."""

    draw_offers: DrawOfferPolicy = DrawOfferPolicy()
    default_time_ms: dict[str, int] = field(default_factory=dict)
    fine_not_at_board: Fine | None = None
    scoring: str = "standard"
    tiebreaks: tuple[str, ...] = ()
    tiebreaks_classical_only: bool = False
    playoff: str = "none"
    prizes: Prizes = Prizes()
    armageddon_after_draw: bool = False
    clock_tolerance_ms: int = 2000
    ballot_moves_before_clock: bool = False
    rules: dict[str, str] = field(default_factory=dict)
    period_added: str = "on_move"
    appendix: dict[str, str] = field(default_factory=lambda: dict(APPENDIX_DEFAULT))
    guidelines_iii: bool = False
    move_timers: tuple[str, ...] | None = None

    def fine_currency(self) -> str:
        """The currency a fine is recorded in: the fines' (``[regulations.fines] currency``; left out
        there, the prizes'), else the prizes' (``[regulations.prizes] currency``): a fine is deducted
        from the prize (US 2023 rule 1)."""
        if self.fine_not_at_board is not None:
            return self.fine_not_at_board.currency
        return self.prizes.currency

    def default_time_for(self, kind: str) -> int:
        """The default time in ms for a kind of game (0 when the regulations set none: Laws 6.7.1)."""
        return self.default_time_ms.get(kind, 0)

    def draw_agreement_allowed(self, kind: str, white_moves: int, black_moves: int) -> tuple[bool, str]:
        """May the players agree a draw now? ``white_moves``/``black_moves``: moves completed by
        each. Returns (allowed, the rule quoted when not)."""
        p = self.draw_offers
        if p.policy == "allowed" or kind in p.exempt_kinds:
            return True, ""
        if p.policy == "never":
            return False, "draws by agreement are not allowed in this event (draws only by a claim to the arbiter)"
        if min(white_moves, black_moves) < p.min_moves:
            return False, (f"no draw by agreement before {p.min_moves} moves by each player "
                           f"(White has made {white_moves}, Black {black_moves})")
        return True, ""


@dataclass(frozen=True)
class ArbiterAccount:
    """An arbiter's login. ``password_hash`` is an argon2 hash (never the password); or
    ``password_env`` names the environment variable that holds the password at start-up."""

    login: str
    name: str = ""
    password_hash: str | None = None
    password_env: str | None = None


@dataclass(frozen=True)
class Tournament:
    """Everything the tournament file says. ``game``: "chess" or "checkers"; ``system``: one of
    SYSTEMS; ``time_controls``: kind -> control spec (PGN TimeControl text, or a table for controls
    PGN cannot write, e.g. Armageddon with different times per side); ``kind``: the kind of the
    event's main games; ``broadcast_delay_ms``: how long the public routes and pushes lag the hall
    (``[broadcast] delay``, 0 to 3600 s: elite events delay the public feed 15 to 30 minutes so
    nobody can relay moves to a player; docs/broadcast.md); arbiters see the hall live.
    ``broadcast_lichess_rounds``: ``[broadcast] lichess_rounds``, the lichess rounds and the hall
    boards each carries (``"ID:1-100"``, checked) for ``venue broadcast lichess`` without ``--round-id``. ``federation``
    (FIDE code), ``chief_arbiter`` and ``deputy_arbiters`` (as the rating report names them: title,
    name, FIDE id) are the TRF16 header's 032, 102 and 112 lines."""

    name: str
    slug: str
    game: str
    system: str
    kind: str
    rounds_total: int
    players: tuple[Player, ...]
    rounds: tuple[RoundSchedule, ...]
    boards: tuple[HallBoard, ...]
    time_controls: dict
    regulations: Regulations
    arbiters: tuple[ArbiterAccount, ...] = ()
    site: str = ""
    source: str = ""
    broadcast_delay_ms: int = 0
    broadcast_lichess_rounds: tuple[str, ...] = ()
    federation: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()

    def player(self, start_no: int) -> Player:
        """The player with that starting rank; KeyError if none."""
        for p in self.players:
            if p.start_no == start_no:
                return p
        raise KeyError(f"no player with starting rank {start_no}")

    def round(self, number: int) -> RoundSchedule:
        """The schedule of a round; KeyError if the file has none for it."""
        for r in self.rounds:
            if r.number == number:
                return r
        raise KeyError(f"round {number} is not scheduled in the tournament file")

    def zone(self, number: int | None = None) -> tzinfo:
        """The event's zone: the UTC offset the file writes round ``number``'s start with, else the
        one of its last scheduled round (a play-off, a round past the schedule), else UTC (the file
        gives every start with its offset: docs/tournament-file.md). Dates and times printed for the
        event (PGN ``Date``, the print views, TRF 042/052/132) are read in it."""
        rows = [r for r in self.rounds if r.number == number] or sorted(self.rounds, key=lambda r: r.start_ms)[-1:]
        for r in rows:
            with contextlib.suppress(ValueError):
                return datetime.fromisoformat(r.start).tzinfo or timezone.utc
        return timezone.utc

    def local(self, ms: int, number: int | None = None) -> datetime:
        """``ms`` (since the epoch) as a time in the event's zone (:meth:`zone` of round ``number``).
        Raises ValueError (OverflowError, OSError included) for a time no calendar holds."""
        try:
            return datetime.fromtimestamp(ms / 1000, self.zone(number))
        except (OverflowError, OSError) as exc:
            raise ValueError(f"{ms} ms is no time a calendar holds ({exc})") from None

    def pgn_date(self, ms: int | None, number: int | None = None) -> str:
        """The PGN ``Date`` ("YYYY.MM.DD", PGN standard 8.1.1.3) of the day ``ms`` falls on in the
        event's zone (:meth:`zone`); "" when ``ms`` is None or no time a calendar holds."""
        if ms is None:
            return ""
        try:
            return self.local(ms, number).strftime("%Y.%m.%d")
        except ValueError:
            return ""
