"""Which lichess broadcast round carries which hall boards (issue 31: "Any number of boards on
lichess").

lichess keeps a round's games as the chapters of one study and makes a chapter only while the round
has fewer than ``MAX_GAMES`` (100): lila ``RelaySync.createChapter`` creates one when
``RelayFetch.maxChaptersToShow > nb`` (``Max(100)``), and a push body is cut to that many games before
anything is read (``RelayPush.pgnToGames``: ``MultiPgn.split(body, maxChaptersToShow)``). Both say
nothing: the push is answered with a success for every game parsed, chapter or not. An event of more
boards is broadcast on several lichess rounds (boards 1-100, 101-200, ...), each with its own id.

A mapping is one ``LichessRound`` per lichess round id: the boards it carries (``Boards``: ranges of
hall board numbers, or every board). ``parse_round_ids`` reads the command line's
``--round-id ID:1-100`` (several) or the tournament file's ``[broadcast] lichess_rounds``, ``check_mapping`` refuses one that cannot work (a range over the
limit, a board in two rounds, the same id twice), ``assign`` splits a round's games between the
lichess rounds in a stable order (each board's first game by board number, then the boards' further
games: an Armageddon game, a match's game 2) and keeps out what a lichess round cannot take. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_GAMES = 100  # lila RelayFetch.maxChaptersToShow: the chapters a broadcast round keeps

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
_ID = re.compile(r"^[A-Za-z0-9]{1,32}$")  # lichess ids are 8 letters and digits; tests use others


class MappingError(ValueError):
    """A lichess round mapping that cannot work (the message says why and what to give instead)."""


@dataclass(frozen=True)
class Boards:
    """Hall boards by number: ``ranges`` ``((first, last), ...)``, inclusive, ascending, disjoint.
    ``count`` boards in all."""

    ranges: tuple[tuple[int, int], ...]

    @property
    def count(self) -> int:
        """How many board numbers the ranges hold."""
        return sum(b - a + 1 for a, b in self.ranges)

    def __contains__(self, board: object) -> bool:
        """Whether hall board ``board`` (a label such as ``"17"``) is in a range; a label that is no
        whole number is in none."""
        try:
            n = int(str(board))
        except ValueError:
            return False
        return any(a <= n <= b for a, b in self.ranges)

    def __str__(self) -> str:
        return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in self.ranges)


def parse_boards(text: str) -> Boards:
    """``"1-100"``, ``"101-150,160"``: board numbers (>= 1) -> Boards. Raises MappingError on
    anything else, a range that runs backwards, or overlapping parts."""
    ranges = []
    for part in text.split(","):
        m = _RANGE.match(part)
        if not m:
            raise MappingError(f"boards {text!r}: expected numbers and ranges such as 1-100 or 101-150,160")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a < 1 or b < a:
            raise MappingError(f"boards {part.strip()!r}: a range runs from board 1 or more upwards")
        ranges.append((a, b))
    ranges.sort()
    for (_a1, b1), (a2, _b2) in zip(ranges, ranges[1:]):
        if a2 <= b1:
            raise MappingError(f"boards {text!r}: board {a2} is given twice")
    return Boards(tuple(ranges))


@dataclass(frozen=True)
class LichessRound:
    """One lichess broadcast round: its ``id`` (``/api/broadcast/round/{id}/push``) and the hall
    ``boards`` it carries (None: every board, the one-round mapping)."""

    id: str
    boards: Boards | None = None

    def carries(self, board: object) -> bool:
        """Whether this lichess round carries hall board ``board``."""
        return self.boards is None or board in self.boards

    def label(self) -> str:
        """``"ID"`` or ``"ID (boards 1-100)"`` for messages."""
        return self.id if self.boards is None else f"{self.id} (boards {self.boards})"


FLAG = "--round-id"
"""How the command line spells one lichess round (``venue broadcast lichess --round-id``)."""

FILE = "lichess_rounds"
"""How the tournament file spells the mapping (``[broadcast] lichess_rounds = ["ID:1-100", ...]``)."""


def _spell(specs: list[str], source: str) -> str:
    """``specs`` (``["ID:1-100", "ID2:101-200"]``) as the ``source`` (FLAG or FILE) writes them."""
    if source == FILE:
        return "lichess_rounds = [" + ", ".join(f'"{s}"' for s in specs) + "]"
    return " ".join(f"{FLAG} {s}" for s in specs)


def parse_round_id(spec: str, source: str = FLAG) -> LichessRound:
    """``ID`` or ``ID:BOARDS`` (``abcd1234:1-100``) -> LichessRound. ``source``: FLAG or FILE, how
    messages name the item. Raises MappingError."""
    ident, sep, boards = spec.partition(":")
    ident = ident.strip()
    if not _ID.match(ident):
        where = f"{FLAG} {spec!r}" if source == FLAG else f"{spec!r}"
        raise MappingError(f"{where}: a lichess round id is letters and digits (from the round's URL)")
    return LichessRound(ident, parse_boards(boards) if sep else None)


def parse_round_ids(specs: list[str], source: str = FLAG) -> list[LichessRound]:
    """Every ``--round-id`` given (or the tournament file's ``lichess_rounds``: ``source`` FILE),
    read and checked (``check_mapping``). Raises MappingError."""
    rounds = [parse_round_id(s, source) for s in specs]
    check_mapping(rounds, source)
    return rounds


def check_mapping(rounds: list[LichessRound], source: str = FLAG) -> None:
    """Refuse a mapping that cannot work: none; one id twice; an id without boards beside others
    (which boards would it carry?); a board in two rounds; a round given more than ``MAX_GAMES``
    boards (lichess would keep the first 100 and answer success for the rest). ``source``: FLAG or
    FILE, how the hints spell a mapping. Raises MappingError."""
    if not rounds:
        raise MappingError(f"no lichess round: give {_spell(['ID'], source)} (or ID:1-100 for each round of a "
                           "larger event)")
    ids = [r.id for r in rounds]
    for ident in ids:
        if ids.count(ident) > 1:
            raise MappingError(f"lichess round {ident} is given twice")
    if len(rounds) > 1 and any(r.boards is None for r in rounds):
        raise MappingError("with several lichess rounds, give each its boards: "
                           + _spell(["ID:1-100", "ID2:101-200"], source))
    for r in rounds:
        if r.boards is not None and r.boards.count > MAX_GAMES:
            raise MappingError(f"lichess round {r.id} would carry {r.boards.count} boards ({r.boards}): lichess keeps "
                               f"at most {MAX_GAMES} games a round; split them, e.g. {_split_hint(r, source)}")
    seen: dict[int, str] = {}
    for r in rounds:
        for a, b in (r.boards.ranges if r.boards else ()):
            for n in range(a, b + 1):
                if n in seen:
                    raise MappingError(f"board {n} is in lichess rounds {seen[n]} and {r.id}: give each board one round")
                seen[n] = r.id


def _split_hint(r: LichessRound, source: str = FLAG) -> str:
    assert r.boards is not None
    first = r.boards.ranges[0][0]
    last = r.boards.ranges[-1][1]
    mid = first + MAX_GAMES - 1
    return _spell([f"{r.id}:{first}-{mid}", f"ID2:{mid + 1}-{min(last, mid + MAX_GAMES)}"], source)


@dataclass(frozen=True)
class Assignment:
    """A round's games split between lichess rounds: ``games`` ``{round id: [GAME, ...]}`` (at most
    ``MAX_GAMES`` each, in the order lichess gets them); ``unmapped`` the games on a board no lichess
    round carries; ``over`` ``[(GAME, round id), ...]`` the games a full lichess round cannot take."""

    games: dict[str, list[dict]]
    unmapped: list[dict]
    over: list[tuple[dict, str]]


def _board_key(game: dict) -> tuple[int, str]:
    board = str(game.get("board", ""))
    return (int(board), board) if board.isdigit() else (10 ** 9, board)


def assign(games: list[dict], rounds: list[LichessRound], limit: int = MAX_GAMES) -> Assignment:
    """Split ``games`` (GAMEs with ``board``) between ``rounds``: each game to the first round that
    carries its board. A lichess round takes each board's first game first (board order), then the
    boards' further games (board order) while it has room: a mapping of at most ``limit`` boards
    thus always carries every board's main game, and the order stays the same from push to push and
    across restarts (which games lichess keeps as chapters never changes)."""
    out: dict[str, list[dict]] = {r.id: [] for r in rounds}
    unmapped: list[dict] = []
    firsts: list[dict] = []
    further: list[dict] = []
    seen: set = set()
    for g in sorted(games, key=_board_key):  # sorted() is stable: a board's games keep their order
        (further if g.get("board") in seen else firsts).append(g)
        seen.add(g.get("board"))
    over: list[tuple[dict, str]] = []
    for g in firsts + further:
        target = next((r for r in rounds if r.carries(g.get("board"))), None)
        if target is None:
            unmapped.append(g)
        elif len(out[target.id]) >= limit:
            over.append((g, target.id))
        else:
            out[target.id].append(g)
    for r in rounds:
        out[r.id].sort(key=_board_key)
    return Assignment(out, unmapped, over)
