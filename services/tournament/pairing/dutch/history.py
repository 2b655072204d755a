"""The pure input of a Swiss pairing: each player's game history, and how it is read from a TRF file.

Scores are kept in tenths of a point (a win 10, a draw 5) so that all arithmetic is integral.
Definitions (FIDE C.04.1 / C.04.2, as bbpPairings v6 applies them to TRF16 codes):

- a *played* game has an opponent, a colour and a result 1/0/= (or W/D/L); forfeits (+/-) and byes are
  not played: they give no colour and do not stop a later pairing of the same players (C.04.1 b, f);
- a player *participated in the pairing* of a round when paired (even if the game was forfeited) or
  given the pairing-allocated bye (code U); requested byes H/F/Z and absences did not;
- a player with an entry for the round being paired (e.g. ``0000 - H``, ``0000 - Z``) is absent from
  it: a requested bye or a withdrawal; so is any start number listed in ``RoundInput.absent``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.tournament.pairing.dutch import records  # noqa: I001 (a sibling module, not the package API)
from services.tournament.pairing.dutch.acceleration import baku_accelerations
from services.tournament.trf import TrfTournament

WHITE, BLACK, NO_COLOR = 0, 1, 2
LOSS, DRAW, WIN = 0, 1, 2


def invert(color: int) -> int:
    """The other colour; NO_COLOR stays NO_COLOR."""
    return NO_COLOR if color == NO_COLOR else 1 - color


@dataclass(frozen=True)
class Game:
    """One round of a player's history.

    ``opponent``: start number, None without an opponent; ``color``: WHITE/BLACK/NO_COLOR (as recorded;
    a forfeited game keeps its colour but it does not count, C.04.1 f); ``score``: LOSS/DRAW/WIN;
    ``played``: the game was played over the board; ``participated``: paired or given the
    pairing-allocated bye in that round.
    """

    opponent: int | None
    color: int
    score: int
    played: bool
    participated: bool


ABSENT = Game(None, NO_COLOR, LOSS, False, False)
"""A round without any entry: the player was not there and scored nothing."""


@dataclass(frozen=True)
class PointSystem:
    """Points in tenths for each kind of result (TRF 162/BB* lines; FIDE default 1-0.5-0)."""

    win: int = 10
    draw: int = 5
    loss: int = 0
    zero_bye: int = 0
    forfeit_loss: int = 0
    pab: int = 10

    def of(self, start_no: int, game: Game) -> int:
        """Points (tenths) that ``game`` gave the player ``start_no``."""
        if game.score == LOSS:
            if not game.participated:
                return self.zero_bye
            return self.loss if game.played else self.forfeit_loss
        if game.score == WIN:
            return self.pab if game.opponent is None and game.participated else self.win
        return self.draw


@dataclass
class PlayerRecord:
    """A player's history: ``games[r-1]`` is round r, for every round before the one being paired.

    ``accelerations``: virtual points (tenths) per round index (0-based), e.g. from XXA lines (C.04.5
    acceleration); missing entries are 0. ``next_entry``: the player's entry for the round being
    paired, if the file has one (then the player is not paired: requested bye or withdrawal).
    """

    start_no: int
    games: list[Game] = field(default_factory=list)
    accelerations: list[int] = field(default_factory=list)
    next_entry: Game | None = None


@dataclass
class RoundInput:
    """Everything the Dutch system needs to pair round ``played_rounds + 1``.

    ``players`` by start number; ``total_rounds`` the planned number of rounds (for the last-round
    exception of C.04.3 C.3 on colours of top scorers); ``initial_color`` the colour drawn for the
    top-ranked player in round 1 (WHITE/BLACK), NO_COLOR when unknown; ``absent`` start numbers not to
    be paired this round (withdrawals, requested byes) in addition to those with a ``next_entry``;
    ``forbidden`` groups of players who must not meet each other this round (the organiser's
    forbidden pairs, TRF ``XXP``; C.04.3 C.1 treats them like players who have met).
    """

    players: dict[int, PlayerRecord]
    played_rounds: int
    total_rounds: int
    initial_color: int = NO_COLOR
    points: PointSystem = field(default_factory=PointSystem)
    absent: frozenset[int] = frozenset()
    forbidden: tuple[frozenset[int], ...] = ()


_WIN_CODES = "+W1FU"
_DRAW_CODES = "D=H"
_UNPLAYED_CODES = "+-HFUZ "


def _game_from_trf(start_no: int, opponent: int | None, color: str | None, code: str) -> Game:
    """A TRF16 round block as a :class:`Game`. Raises ValueError for a code that needs an opponent
    (or a colour) and has none."""
    col = WHITE if color == "w" else BLACK if color == "b" else NO_COLOR
    score = WIN if code in _WIN_CODES else DRAW if code in _DRAW_CODES else LOSS
    played = opponent is not None and col != NO_COLOR and code not in _UNPLAYED_CODES
    if code not in _UNPLAYED_CODES and col == NO_COLOR and opponent is not None:
        raise ValueError(f"player {start_no}: a played game needs a colour")
    if code in "HFUZ" and opponent is not None:
        raise ValueError(f"player {start_no}: bye code {code!r} with an opponent")
    participated = opponent is not None or code in "U+"
    return Game(opponent, col, score, played, participated)


def _point_system(t: TrfTournament) -> PointSystem:
    """Points per result from BBW/BBD/BBL/BBZ/BBF/BBU lines (bbpPairings' TRF extension, points as
    ``BBW  1.0``); the FIDE default 1-0.5-0 otherwise. Raises ValueError for an unreadable value."""
    codes = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye", "BBF": "forfeit_loss", "BBU": "pab"}
    values: dict[str, int] = {}
    for line in t.header:
        name = codes.get(line[:3])
        if name is None:
            continue
        try:
            values[name] = round(float(line[3:].strip()) * 10)
        except ValueError:
            raise ValueError(f"{line[:3]}: not a number of points: {line[3:].strip()!r}") from None
    if "win" in values and "pab" not in values:
        values["pab"] = values["win"]
    return PointSystem(**values)


def _initial_color(t: TrfTournament, players: dict[int, PlayerRecord], rank_order: list[int]) -> int:
    """The colour of the top-ranked player in the first round with colours (XXC white1/black1 when
    given, else inferred as bbpPairings does: C.04.3 E.5 parity backwards)."""
    for line in t.header:
        if line.startswith("XXC"):
            words = line[3:].split()
            if "white1" in words:
                return WHITE
            if "black1" in words:
                return BLACK
    first = None
    for rec in players.values():
        for idx, g in enumerate(rec.games):
            if g.color != NO_COLOR and (first is None or idx < first):
                first = idx
    if first is None:
        return NO_COLOR
    number = 0
    for start_no in rank_order:
        games = players[start_no].games
        if any(g.participated for g in games[: first + 1]):
            color = games[first].color if first < len(games) else NO_COLOR
            guess = invert(color) if number & 1 else color
            if guess != NO_COLOR:
                return guess
            number += 1
    return NO_COLOR


def round_input_from_trf(t: TrfTournament) -> RoundInput:
    """The pairing input for the round after the last one in ``t`` (a parsed TRF16 file).

    The number of rounds played is that of the last round in which someone was paired; an entry after
    it (a bye code with no opponent) marks the player absent from the round being paired. Raises
    ValueError when XXR (total rounds) or every player line is missing, when a game's opponent does not list the same game
    back, or when the file pairs more rounds than XXR.
    """
    if t.total_rounds is None:
        raise ValueError("the total number of rounds (XXR line) is missing")
    if not t.players:
        raise ValueError("no player (001) lines")
    accel = records.accelerations(t)
    played_rounds = 0
    raw: dict[int, list[Game]] = {}
    for start_no in sorted(t.players):
        p = t.players[start_no]
        games: list[Game] = []
        skipped = 0
        for g in p.games:
            if g.opponent is None and g.color is None and g.result == " ":
                skipped += 1
                continue
            games.extend([ABSENT] * skipped)
            skipped = 0
            played_rounds = max(played_rounds, len(games))
            game = _game_from_trf(start_no, g.opponent, g.color, g.result)
            games.append(game)
            if game.participated:
                played_rounds = max(played_rounds, len(games))
        raw[start_no] = games
    if raw and all(len(g) > played_rounds for g in raw.values()):
        played_rounds += 1
    if played_rounds >= t.total_rounds:
        raise ValueError(f"{played_rounds} rounds are paired already; XXR says {t.total_rounds} in all")
    players: dict[int, PlayerRecord] = {}
    for start_no, games in raw.items():
        games = games + [ABSENT] * (played_rounds - len(games))
        rec = PlayerRecord(start_no, games[:played_rounds], (accel or {}).get(start_no, []))
        if len(games) > played_rounds:
            rec.next_entry = games[played_rounds]
        players[start_no] = rec
    for start_no, rec in players.items():
        for rnd, game in enumerate(rec.games, start=1):
            if not game.played or game.opponent is None:  # played implies an opponent (_game_from_trf)
                continue
            back = players[game.opponent].games[rnd - 1]
            if not back.played or back.opponent != start_no or back.color == game.color:
                raise ValueError(f"round {rnd}: player {start_no}'s game contradicts player {game.opponent}'s entry")
    points = _point_system(t)
    if accel is None:
        accel = {}
        if records.is_baku(t):
            accel = baku_accelerations(sorted(raw), t.total_rounds, points.win, points.draw, points.loss, played_rounds)
            for start_no, rec in players.items():
                rec.accelerations = accel.get(start_no, [])
    for start_no, values in accel.items():
        if len(values) > t.total_rounds:
            raise ValueError(f"player {start_no}: more acceleration entries than rounds (XXR {t.total_rounds})")
    order = sorted(players)
    return RoundInput(
        players, played_rounds, t.total_rounds, _initial_color(t, players, order), points,
        absent=records.requested_byes(t, played_rounds + 1),
        forbidden=records.forbidden_groups(t, played_rounds + 1),
    )
