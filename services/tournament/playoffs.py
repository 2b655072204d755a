"""Play-offs for a tie for first place, as each event's regulations call for them. Pure.

:func:`playoff` names the play-off and creates its games with their time controls. Players are given
best first by the tie-breaks (the order the regulations use to pair them). Stages after the first
depend on results not known yet: their games name their players by a description ("winner of A"), and
each stage says when it is played (``condition``).

Time controls are data: ``{"white_ms", "black_ms", "increment_ms", "increment_from_move"}`` (ms, as
services/clock takes them), the PGN ``TimeControl`` tag where PGN can express it, and the name of the
regulation's control (the tests' ``tests/regulation_controls.py`` holds it under that name).

Regulations (../shared/regulations):
* US Championship 2023, "6. Playoff Procedures" (:data:`US_2023`);
* US Championship 2013, "Playoff Regulations" (:data:`US_2013`), with Armageddon colours by time
  bidding (:func:`armageddon_by_bid`);
* Norway Chess 2023, "Tie-breaks" of the classical event (:data:`NORWAY_2023`).
"""

from __future__ import annotations

from services.tournament.pairing.berger import berger_round

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

MINUTE = 60_000
SECOND = 1_000

US_2023 = "us-2023"
US_2013 = "us-2013"
NORWAY_2023 = "norway-2023"
REGULATIONS = (US_2023, US_2013, NORWAY_2023)

Who = int | str  # a start number, or a description of a player not known yet ("winner of A")


def control(white_ms: int, black_ms: int | None = None, increment_ms: int = 0, increment_from_move: int = 1,
            catalogue: str = "") -> dict:
    """A time control as data. ``pgn`` is the PGN TimeControl tag ("600+2"), None when PGN cannot say
    it (different times for White and Black, or an increment from a later move)."""
    black_ms = white_ms if black_ms is None else black_ms
    pgn = None
    if white_ms == black_ms and increment_from_move == 1:
        pgn = f"{white_ms // SECOND}+{increment_ms // SECOND}" if increment_ms else f"{white_ms // SECOND}"
    return {"white_ms": white_ms, "black_ms": black_ms, "increment_ms": increment_ms,
            "increment_from_move": increment_from_move, "pgn": pgn, "catalogue": catalogue}


US_2023_RAPID = control(10 * MINUTE, increment_ms=2 * SECOND, catalogue="us-2023/rapid-playoff")
US_2023_BLITZ = control(3 * MINUTE, increment_ms=2 * SECOND, catalogue="us-2023/blitz-playoff")
US_2023_ARMAGEDDON = control(5 * MINUTE, 4 * MINUTE, 2 * SECOND, 61, catalogue="us-2023/armageddon")
US_2013_RAPID = control(25 * MINUTE, increment_ms=5 * SECOND, catalogue="us-2013/rapid-playoff")
US_2013_ARMAGEDDON_BASE_MS = 45 * MINUTE
NORWAY_BLITZ = control(3 * MINUTE, increment_ms=2 * SECOND, catalogue="norway-2023/playoff-blitz")
NORWAY_ARMAGEDDON = control(10 * MINUTE, 7 * MINUTE, 1 * SECOND, 41, catalogue="norway-2023/playoff-armageddon")


@dataclass(frozen=True)
class PlayoffGame:
    """One game: ``white``/``black`` (None when colours are not yet decided, e.g. by bidding), or the
    two ``players`` in that case; ``time_control`` (see :func:`control`); ``armageddon`` (Black has draw
    odds); ``label`` ("A1", ...)."""

    label: str
    players: tuple[Who, Who]
    white: Who | None
    black: Who | None
    time_control: dict | None
    armageddon: bool = False


@dataclass
class Stage:
    """A stage: ``name``, ``kind`` (match, round-robin, double-round-robin, armageddon,
    armageddon-series, arbiter), ``players``, ``games``, ``condition`` (when it is played), ``quote``
    (the regulation's words)."""

    name: str
    kind: str
    players: list[Who]
    games: list[PlayoffGame]
    condition: str = "always"
    quote: str = ""


@dataclass
class PlayoffPlan:
    """The play-off a regulation calls for: ``regulation``, ``players`` (best first), ``summary``,
    ``stages`` in order, ``tiebreaks`` within the play-off where the regulation gives them."""

    regulation: str
    players: list[int]
    summary: str
    stages: list[Stage] = field(default_factory=list)
    tiebreaks: list[str] = field(default_factory=list)

    @property
    def games(self) -> list[PlayoffGame]:
        """All games of all stages, in order."""
        return [g for s in self.stages for g in s.games]


def _berger(players: Sequence[Who]) -> list[list[tuple[Who, Who]]]:
    """Berger tables (FIDE C.05 Annex 1, ``services.tournament.pairing.berger``): rounds of (white,
    black) pairs for pairing numbers 1..n in the order of ``players``; a bye is dropped."""
    n = len(players)
    return [[(players[w - 1], players[b - 1]) for w, b in berger_round(n, r) if b is not None]
            for r in range(1, n + (n & 1))]


def _round_robin(prefix: str, players: Sequence[Who], tc: dict | None, double: bool = False) -> list[PlayoffGame]:
    games = []
    cycles = 2 if double else 1
    for c in range(cycles):
        for r, pairs in enumerate(_berger(players), start=1):
            for b, (w, bl) in enumerate(pairs, start=1):
                if c == 1:
                    w, bl = bl, w
                games.append(PlayoffGame(f"{prefix}{c * 100 + r}.{b}", (w, bl), w, bl, tc))
    return games


def _match(prefix: str, a: Who, b: Who, tc: dict, games: int = 2) -> list[PlayoffGame]:
    return [PlayoffGame(f"{prefix}{i + 1}", (a, b), a if i % 2 == 0 else b, b if i % 2 == 0 else a, tc)
            for i in range(games)]


def _armageddon(label: str, a: Who, b: Who, tc: dict | None) -> PlayoffGame:
    return PlayoffGame(label, (a, b), None, None, tc, armageddon=True)


def playoff(regulation: str, tied: Sequence[int]) -> PlayoffPlan | None:
    """The play-off for the players ``tied`` for first (best first by the tie-breaks).

    Returns None when fewer than two are tied (no play-off). Raises ValueError for an unknown
    regulation or a repeated player.
    """
    tied = list(tied)
    if len(set(tied)) != len(tied):
        raise ValueError("a player is listed twice")
    if len(tied) < 2:
        return None
    if regulation == US_2023:
        return _us_2023(tied)
    if regulation == US_2013:
        return _us_2013(tied)
    if regulation == NORWAY_2023:
        return _norway(tied)
    raise ValueError(f"unknown regulation {regulation!r} (known: {', '.join(REGULATIONS)})")


_US23_ARM = ("An Armageddon Game is defined as follows: White shall start with 5 minutes and black shall start "
             "with 4 minutes. A 2-second increment shall be added starting with move 61. Black shall be "
             "declared the winner if the game ends in a draw.")


def _us_2023(tied: list[int]) -> PlayoffPlan:
    n = len(tied)
    if n == 2:
        a, b = tied
        return PlayoffPlan(US_2023, tied, "two-game rapid match G/10+2, then Armageddon", [
            Stage("rapid match", "match", [a, b], _match("R", a, b, US_2023_RAPID),
                  quote="Two Players: The tie will be broken with a two-game rapid match (G/10 +2 increment)."),
            Stage("Armageddon", "armageddon", [a, b], [_armageddon("A1", a, b, US_2023_ARMAGEDDON)],
                  condition="the rapid match is tied",
                  quote="If the contest is still undecided, the match will be decided by an Armageddon Game. "
                        + _US23_ARM),
        ])
    if n <= 4:
        return PlayoffPlan(US_2023, tied, "rapid round robin G/10+2, then blitz G/3+2, then Armageddon games", [
            Stage("rapid round robin", "round-robin", list(tied), _round_robin("R", tied, US_2023_RAPID),
                  quote="Three or Four Players: If there are three or four Players tied for first, the Players "
                        "shall contest a rapid round robin (G/10 +2 increment)."),
            Stage("blitz round robin or match", "round-robin", ["players still tied"], [],
                  condition="no clear winner of the rapid round robin: a blitz (G/3+2) round robin if three or "
                            "four remain tied, a 2-game match if two remain",
                  quote="If no clear winner is produced, the remaining tied players shall contest a blitz (G/3 "
                        "+2 increment) a) round robin (if three or four players remain tied) or b) 2-game match "
                        "(if two players remain tied)."),
            Stage("Armageddon series", "armageddon-series", ["players still tied"], [],
                  condition="still undecided after the blitz",
                  quote="If the contest is still undecided, the winner will be decided by a series of Armageddon "
                        "Games. " + _US23_ARM),
        ])
    return PlayoffPlan(US_2023, tied, "blitz round robin G/3+2, then Armageddon games", [
        Stage("blitz round robin", "round-robin", list(tied), _round_robin("B", tied, US_2023_BLITZ),
              quote="More Than Four Players: If more than four players are tied for first place, all tied "
                    "players shall contest a blitz (G3 + 2 increment) round robin."),
        Stage("Armageddon series", "armageddon-series", ["players still tied"], [],
              condition="more than one player still tied for first",
              quote="If more than one player is still tied for first, the winner will be decided by a series "
                    "of Armageddon Games. " + _US23_ARM),
    ])


_US13_ARM = ("An Armageddon Game is defined as a game with base time of 45 minutes for each Player. Black will "
             "have draw odds. Each Player shall bid an amount of time ... The Player who bids the lowest amount "
             "of time chooses his color and begins with that amount of time; the other Player receives 45:00.")
_US13_TB = ["DE", "BPG", "SB", "WON"]  # "1. Direct Encounter (if applicable) 2. Most Blacks 3. Sonneborn-Berger 4. Won Games"


def _us13_two(prefix: str, a: Who, b: Who, condition: str = "always") -> list[Stage]:
    return [
        Stage(f"{prefix}rapid match", "match", [a, b], _match(f"{prefix}R", a, b, US_2013_RAPID), condition=condition,
              quote="Two Players: The tie will be broken with a two-game rapid match (G/25+5)."),
        Stage(f"{prefix}Armageddon", "armageddon", [a, b], [_armageddon(f"{prefix}A", a, b, None)],
              condition="the rapid match is tied",
              quote="If the contest is still undecided, the match will be decided by an Armageddon Game. " + _US13_ARM),
    ]


def _us_2013(tied: list[int]) -> PlayoffPlan:
    n = len(tied)
    plan = PlayoffPlan(US_2013, tied, "", tiebreaks=list(_US13_TB))
    if n == 2:
        plan.summary = "two-game rapid match G/25+5, then Armageddon with time bidding"
        plan.stages = _us13_two("", tied[0], tied[1])
    elif n == 3:
        top, second, third = tied
        plan.summary = "Armageddon between the two lowest on tie-breaks; the winner plays the highest"
        plan.stages = [Stage("Armageddon of the two lowest", "armageddon", [second, third],
                             [_armageddon("A1", second, third, None)],
                             quote="Three players: If there are three Players tied for first, the two Players "
                                   "with the lowest tie-breaks will contest an Armageddon Game. " + _US13_ARM)]
        plan.stages += _us13_two("final ", top, "winner of A1")
    elif n == 4:
        p1, p2, p3, p4 = tied
        plan.summary = "Armageddon games 1-4 and 2-3; the winners play the two-player play-off"
        plan.stages = [Stage("Armageddon semi-finals", "armageddon", list(tied),
                             [_armageddon("A1", p1, p4, None), _armageddon("A2", p2, p3, None)],
                             quote="Four Players: Tie-breaks will be used to determine pairing numbers: 1 plays 4 "
                                   "and 2 plays 3. Each Player will contest an Armageddon Game. " + _US13_ARM)]
        plan.stages += _us13_two("final ", "winner of A1", "winner of A2")
    else:
        plan.summary = "more than four tied: the Arbiter and the Club decide how to find the top four"
        plan.stages = [Stage("find the top four", "arbiter", list(tied), [],
                             quote="More Than Four Players: ... a combination of math tie-breaks and playoffs will "
                                   "be used to find the top four players and the procedure described above (\"Four "
                                   "Players\") shall be followed. The format ... will be determined by the Arbiter "
                                   "and the Chess Club and Scholastic Center of Saint Louis.")]
        plan.stages += [Stage("Armageddon semi-finals", "armageddon", ["top four"], [],
                              condition="after the top four are known: 1 plays 4, 2 plays 3")]
        plan.stages += _us13_two("final ", "winner of 1-4", "winner of 2-3")
    return plan


def _norway(tied: list[int]) -> PlayoffPlan:
    if len(tied) == 2:
        a, b = tied
        return PlayoffPlan(NORWAY_2023, tied, "two-game blitz match 3+2, a second one, then Armageddon", [
            Stage("blitz match", "match", [a, b], _match("B", a, b, NORWAY_BLITZ),
                  quote="This Play-off consists of a two-game blitz match with the time control of 3 min. + 2 sec. "
                        "increment per move."),
            Stage("second blitz match", "match", [a, b], _match("C", a, b, NORWAY_BLITZ),
                  condition="the first match is tied",
                  quote="If this match ends in a tie, a further match will be played."),
            Stage("Armageddon", "armageddon", [a, b], [_armageddon("A1", a, b, NORWAY_ARMAGEDDON)],
                  condition="the second match is tied",
                  quote="If this match ends in a tie, there will be an Armageddon game where white has 10 minutes "
                        "and black, with draw odds, has 7 minutes both with an increment of 1 second per move, "
                        "starting from move 41."),
        ])
    return PlayoffPlan(NORWAY_2023, tied, "double round robin (time control not given by the regulations)", [
        Stage("double round robin", "double-round-robin", list(tied), _round_robin("D", tied, None, double=True),
              quote="If more than two players share first place, there will be a double round-robin with the below "
                    "tiebreak rules."),
    ], tiebreaks=["DE", "SB", "KS", "KSX", "LOT"])


@dataclass(frozen=True)
class BidOutcome:
    """Result of US 2013 Armageddon bidding: who chooses the colour, his time (his bid), the other's
    time (45:00), and whether a coin toss decided."""

    chooser: int
    chooser_ms: int
    other: int
    other_ms: int
    coin_toss: bool


def armageddon_by_bid(bids: Mapping[int, int], coin_toss_winner: int | None = None) -> BidOutcome:
    """US Championship 2013 Armageddon bidding.

    ``bids``: the two players' bids in ms (each "equal to or less than 45:00"). "The Player who bids the
    lowest amount of time chooses his color and begins with that amount of time; the other Player receives
    45:00. If both Players bid exactly the same amount of time, the Chief Arbiter will flip a coin to
    determine who shall choose their color": pass the recorded ``coin_toss_winner`` then.
    Raises ValueError for not exactly two bids, a bid out of range, or equal bids without a coin toss.
    """
    if len(bids) != 2:
        raise ValueError("exactly two players bid")
    for p, ms in bids.items():
        if not 0 < ms <= US_2013_ARMAGEDDON_BASE_MS:
            raise ValueError(f"player {p}: bid {ms} ms is not in (0, 45:00]")
    (a, bid_a), (b, bid_b) = sorted(bids.items(), key=lambda kv: kv[1])
    if bid_a == bid_b:
        if coin_toss_winner is None or coin_toss_winner not in bids:
            raise ValueError("equal bids: the Chief Arbiter's coin toss (its winner) must be recorded")
        other = b if coin_toss_winner == a else a
        return BidOutcome(coin_toss_winner, bid_a, other, US_2013_ARMAGEDDON_BASE_MS, True)
    return BidOutcome(a, bid_a, b, US_2013_ARMAGEDDON_BASE_MS, False)
