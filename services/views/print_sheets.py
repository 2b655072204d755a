"""What the arbiter prints for a round, as plain data for the print templates (pure): the pairing
list by board and by name, the standings with the event's tie-breaks, the wall chart (crosstable),
the players' pairing cards and the boards' result slips. A projection of ``TournamentView`` (its
fold of the log), with no model of its own.

The numbers are the TRF's and FIDE's: start numbers (C.04.2: the pairing numbers), points before
the round (finished games only, the event's scoring), results as a pairing list writes them ("1 - 0",
"½ - ½", "+ - -" a forfeit, FIDE C.04.1), byes by their TRF code (U pairing-allocated, H/F/Z
requested, FIDE C.04.2). Raises ``SheetError`` for a round that was not set up and ValueError when
the recorded results contradict each other (as the standings do).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.tournament.crosstable import CrossRow
from services.views.standings import ROUND_ROBIN, TournamentView

RESULT_TEXT = {"1-0": "1 - 0", "0-1": "0 - 1", "1/2-1/2": "½ - ½", "+-": "+ - -", "-+": "- - +", "--": "- - -",
               "1/2-0": "½ - 0", "0-1/2": "0 - ½", "0-0": "0 - 0", "*": ""}
BYE_TEXT = {"U": "bye (pairing-allocated)", "H": "half-point bye", "F": "full-point bye", "Z": "zero-point bye"}
TIEBREAK_NAMES = {"PTS": "Points", "DE": "Direct Encounter", "WIN": "Rounds won", "WON": "Games won over the board",
                  "BPG": "Games played with Black", "BWG": "Games won with Black", "BH": "Buchholz",
                  "SB": "Sonneborn-Berger", "KS": "Koya System", "KSX": "Koya System (extended)",
                  "ARO": "Average Rating of Opponents", "LOT": "Drawing of lots"}
"""FIDE C.07 names of the tie-break codes (services.tournament.tiebreaks)."""


class SheetError(LookupError):
    """A print view asked of something the log does not hold (a round not set up)."""


@dataclass(frozen=True)
class Player:
    """A player as a sheet names him: start number, name, title, federation, rating."""

    no: int
    name: str
    title: str = ""
    federation: str = ""
    rating: int | None = None


@dataclass(frozen=True)
class Board:
    """One board of a round: White and Black with their points before the round, the result text
    (blank until recorded), and a bye's code on a row of its own (``black`` None)."""

    board: str
    white: Player
    black: Player | None
    white_points: float
    black_points: float | None
    result: str
    bye: str = ""


@dataclass(frozen=True)
class Listing:
    """A player's line of the alphabetical pairing list: his board, colour and opponent."""

    player: Player
    points: float
    board: str
    colour: str
    opponent: Player | None
    bye: str = ""


@dataclass(frozen=True)
class CardLine:
    """A round on a pairing card: opponent, colour, result for the card's player, score after it."""

    round: int
    opponent: Player | None
    colour: str
    result: str
    score: float


@dataclass
class Sheets:
    """The heading every sheet shares: event, site, system, rounds, the round printed and its date."""

    event: str
    site: str
    system: str
    rounds_total: int | None
    round: int
    date: str
    players: dict[int, Player] = field(default_factory=dict)


def header(view: TournamentView, rnd: int | None = None) -> Sheets:
    """The shared heading for round ``rnd`` (default: the latest started): the tournament file's
    name, site and system when one is registered, else what the round's entry says. ``date``: when
    the round started ("YYYY-MM-DD HH:MM" in the event's zone, ``Tournament.zone``): its recorded
    start (``round_started``'s ``start_ms``, the schedule's or the console's "start now" or "start
    at": "the default time counts from it", docs/tournament-file.md), else the file's scheduled
    start, else the round entry's day."""
    t = view.tournament
    rnd = view.current_round if rnd is None else rnd
    info = view.rounds.get(rnd) or {}
    players = {s: Player(s, p.get("name") or "?", p.get("title") or "", p.get("federation") or "", p.get("rating"))
               for s, p in view.players.items()}
    site, date = str(info.get("site") or "").strip("?"), str(info.get("date") or "").replace(".", "-")
    if t is None:
        return Sheets(view.name or "Tournament", site, "", None, rnd, date, players)
    sched = next((r for r in t.rounds if r.number == rnd), None)
    start = view.round_start_ms(rnd)
    if start is not None:
        # a round started now or at another time than the file says: the sheet at the hall's door
        # gives the start the default time counts from
        date = t.local(start, rnd).strftime("%Y-%m-%d %H:%M")
    elif sched is not None:
        date = sched.start[:16].replace("T", " ")  # the scheduled start, as the file writes it
    return Sheets(t.name, t.site or site, t.system, t.rounds_total, rnd, date, players)


def _check_round(view: TournamentView, rnd: int) -> None:
    if rnd not in view.rounds:
        started = ", ".join(map(str, sorted(view.rounds))) or "none"
        raise SheetError(f"Round {rnd} has not been set up (rounds set up: {started})")


def _result(g) -> str:
    text = RESULT_TEXT.get(g.special or g.result, g.result)
    if g.second not in (None, "*") and text:
        text += f", {RESULT_TEXT.get(g.second, g.second)}"  # a checkers match's second game
    if g.armageddon not in (None, "*") and text:
        text += f" (Armageddon {RESULT_TEXT.get(g.armageddon, g.armageddon)})"
    return text


def points_before(view: TournamentView, rnd: int) -> dict[int, float]:
    """Start number -> points from the rounds before ``rnd`` (finished games only)."""
    return {row.start_no: sum(c.points for c in row.cells if c.round < rnd) for row in view.crosstable()}


def pairings(view: TournamentView, rnd: int) -> list[Board]:
    """Round ``rnd`` by board (hall order), then its byes and absences by start number."""
    _check_round(view, rnd)
    heads = header(view, rnd).players
    pts = points_before(view, rnd)
    games = sorted((g for g in view.games.values() if g.round == rnd),
                   key=lambda g: (g.black is None, int(g.board) if g.board.isdigit() else 10**9, g.board, g.white))
    return [Board(g.board, heads[g.white], heads[g.black] if g.black is not None else None, pts.get(g.white, 0.0),
                  pts.get(g.black, 0.0) if g.black is not None else None,
                  _result(g) if g.black is not None else "", "" if g.black is not None else g.result)
            for g in games]


def by_name(view: TournamentView, rnd: int) -> list[Listing]:
    """Round ``rnd`` as one line per player, alphabetical by name (the list a player looks himself
    up in at the hall's door)."""
    out = []
    for b in pairings(view, rnd):
        out.append(Listing(b.white, b.white_points, b.board, "White" if b.black else "", b.black, b.bye))
        if b.black is not None:
            out.append(Listing(b.black, b.black_points or 0.0, b.board, "Black", b.white))
    return sorted(out, key=lambda x: (x.player.name.casefold(), x.player.no))


def tiebreak_legend(view: TournamentView) -> list[tuple[str, str]]:
    """The event's tie-breaks in order as ``(code, C.07 name)`` (PTS left out: it is the points)."""
    out = []
    for code in view.tiebreak_order():
        base, _, mod = code.partition("/")
        if base == "PTS":
            continue
        name = TIEBREAK_NAMES.get(base, base)
        out.append((code, f"{name} ({_modifier(mod)})" if mod else name))
    return out


def _modifier(mod: str) -> str:
    kind, num = mod[:1], mod[1:]
    return {"C": f"Cut-{num}", "M": f"Median-{num}", "L": f"limit {num}"}.get(kind, mod)


def wall_chart(view: TournamentView) -> tuple[list[CrossRow], bool]:
    """The crosstable rows in rank order, and whether it is drawn square (a round robin: a column
    per opponent, by start number) rather than by round (a Swiss)."""
    t = view.tournament
    return view.crosstable(), t is not None and t.system in ROUND_ROBIN


def square_cells(rows: list[CrossRow]) -> dict[int, dict[int, str]]:
    """A round robin's square chart: start number -> opponent's start number -> results against
    him in round order ("1", "½", "0", "+", "-"; a double round robin has two)."""
    marks = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-", "W": "1", "D": "½", "L": "0"}
    out: dict[int, dict[int, str]] = {r.start_no: {} for r in rows}
    for r in rows:
        for c in r.cells:
            if c.opponent is not None:
                mark = marks.get(c.code, "")  # "*": not played yet
                prev = out[r.start_no].get(c.opponent)
                out[r.start_no][c.opponent] = f"{prev} {mark}".strip() if prev else mark
    return out


def cards(view: TournamentView, rnd: int) -> list[tuple[Player, list[CardLine]]]:
    """Each player's pairing card up to round ``rnd``, by start number: every round's opponent,
    colour, result and the score after it (the card a Swiss is paired from by hand, FIDE C.04)."""
    _check_round(view, rnd)
    heads = header(view, rnd).players
    out = []
    for row in sorted(view.crosstable(), key=lambda r: r.start_no):
        score, lines = 0.0, []
        for c in row.cells:
            if c.round > rnd:
                continue
            score += c.points
            colour = {"w": "White", "b": "Black"}.get(c.color or "", "")
            result = _card_result(c.code, c.points)
            lines.append(CardLine(c.round, heads.get(c.opponent) if c.opponent is not None else None, colour,
                                  result, score))
        out.append((heads[row.start_no], lines))
    return out


def _card_result(code: str, points: float) -> str:
    if code in BYE_TEXT:
        return BYE_TEXT[code]
    if code in ("+", "-"):
        return {"+": "+ (forfeit win)", "-": "- (forfeit loss)"}[code]
    if code == "*":
        return ""
    return {"1": "1", "=": "½", "0": "0"}.get(code, f"{points:g}")
