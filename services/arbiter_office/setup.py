"""A round's set-up from a PGN file: the ``round_started`` entry of docs/events.md.

Pure: text in, dict out; no I/O. Each PGN game becomes one hall board; the moves in the file, if any,
are ignored (the file is a pairing list, or a finished round replayed by the simulators).

Which board: the ``Board`` tag when present, else the game's order in the file (1-based). When every
``Round`` tag reads ``R.B`` with the same ``R`` (the broadcast convention of DGT LiveChess exports,
lichess and our own feeds), the games are of round ``R``, each on its ``Board`` tag's board, else on
board ``B``.
A file holding several rounds must be narrowed with ``round=``.

Kind (FIDE Laws, Appendix A.1 and B.1): from the first time-control period, base + 60 x increment:
10 minutes or less is ``"blitz"``, less than 60 minutes ``"rapid"``, else ``"classical"``;
``"armageddon"`` when the Event tag says so. Unknown time control: ``"classical"``.
"""

from __future__ import annotations

import io
import re

import chess
import chess.pgn

from services.events.vocabulary import Variant
from services.rules.start_position import StartPositionError, check_start

VARIANTS = tuple(v.value for v in Variant)
_UNKNOWN = ("", "?", "-", "??")
# SETUP key suffix -> PGN tag suffix of the players' details (as lichess's broadcasts write them)
_DETAIL_TAGS = (("title", "Title"), ("fide_id", "FideId"), ("fed", "Fed"), ("team", "Team"))
_DOTTED = re.compile(r"^(\d+)\.(\d+)$")
_TC_PERIOD = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+(?:\.\d+)?))?$")
_TC_WORDS = re.compile(r"(\d+)\s*min\w*(?:\D+?(\d+)\s*sec)?", re.IGNORECASE)


def round_from_pgn(text: str, *, variant: str = "chess", round: str | None = None) -> dict:
    """The ``round_started`` data for the games in ``text`` (PGN, or PDN for checkers).

    Returns ``{"round", "event", "site", "date", "games": [SETUP, ...]}``, SETUP =
    ``{"id": "{round}-{board}", "board", "round", "white", "black", "white_elo", "black_elo",
    "variant", "time_control", "fen", "kind"}`` plus ``white_title``, ``white_fide_id``, ``white_fed``,
    ``white_team`` (and Black's) from the ``WhiteTitle``/``WhiteFideId``/``WhiteFed``/``WhiteTeam``
    tags when present (boards as strings, Elo as int or None, ``fen`` the
    ``FEN`` tag when ``SetUp`` is "1" or a FEN tag is present, else None), games sorted by board.

    ``round``: keep only the games of that round (a file of a whole tournament).
    Raises ValueError: no game, a game the parser could not read, a start position that cannot be
    played (``services.rules.start_position``: chess and checkers, naming the game and its board), two games
    on one board, a game without White or Black tag, games of several rounds without ``round=``, an unknown variant.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: expected one of {VARIANTS}")
    headers = _read_all_headers(text, variant)
    if not headers:
        raise ValueError("no game found in the PGN text")
    if round is not None:
        headers = [h for h in headers if _tag(h, "Round") == round or _round_part(h) == round]
        if not headers:
            raise ValueError(f"no game of round {round!r} in the PGN text")
    the_round, boards = _rounds_and_boards(headers)
    games = []
    seen: dict[str, int] = {}
    for index, (h, board) in enumerate(zip(headers, boards), start=1):
        if board in seen:
            raise ValueError(f"games {seen[board]} and {index} are both on board {board}")
        seen[board] = index
        games.append(_setup(h, index, the_round, board, variant))
    games.sort(key=lambda g: (int(g["board"]) if g["board"].isdigit() else 10**9, g["board"]))
    first = headers[0]
    return {
        "round": the_round,
        "event": _tag(first, "Event") or "",
        "site": _tag(first, "Site") or "",
        "date": _tag(first, "Date") or "????.??.??",
        "games": games,
    }


def hall_boards(text: str, *, variant: str = "chess") -> list[str]:
    """The hall board of each game of ``text``, in file order, by the rules of ``round_from_pgn``
    (Board tag, else ``R.B`` round tags, else the order). Raises ValueError as ``round_from_pgn``."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: expected one of {VARIANTS}")
    headers = _read_all_headers(text, variant)
    if not headers:
        raise ValueError("no game found in the PGN text")
    return _rounds_and_boards(headers)[1]


def game_kind(time_control: str | None, event: str = "") -> str:
    """``"classical"``, ``"rapid"``, ``"blitz"`` or ``"armageddon"`` (FIDE Laws A.1, B.1).

    ``time_control``: the PGN TimeControl tag (``"5400+30"``, ``"40/7200:1800+30"``,
    ``"15 min/game + 10 sec/move"``) or None. Unknown: ``"classical"``.
    """
    if "armageddon" in (event or "").lower():
        return "armageddon"
    seconds = _first_period_seconds(time_control)
    if seconds is None:
        return "classical"
    if seconds <= 600:
        return "blitz"
    if seconds < 3600:
        return "rapid"
    return "classical"


def _first_period_seconds(tc: str | None) -> float | None:
    """Base + 60 x increment of the first period, in seconds; None when unreadable."""
    if not tc or tc.strip() in _UNKNOWN:
        return None
    first = tc.strip().split(":")[0]
    m = _TC_PERIOD.match(first)
    if m:
        return int(m.group(2)) + 60 * float(m.group(3) or 0)
    m = _TC_WORDS.search(tc)
    if m:
        return int(m.group(1)) * 60 + 60 * int(m.group(2) or 0)
    return None


def _read_all_headers(text: str, variant: str) -> list[chess.pgn.Headers]:
    if not isinstance(text, str):
        raise ValueError("PGN text must be a str")
    stream = io.StringIO(text)
    out: list[chess.pgn.Headers] = []
    while True:
        h: chess.pgn.Headers | None
        if variant == Variant.CHESS:
            try:
                game = chess.pgn.read_game(stream)
            except Exception as exc:  # python-chess raises on some broken input; name the game
                raise ValueError(f"game {len(out) + 1}: unreadable PGN ({exc})") from exc
            if game is None:
                break
            if game.errors:
                raise ValueError(f"game {len(out) + 1}: broken PGN (FEN or move: {game.errors[0]})")
            h = game.headers
        else:
            h = chess.pgn.read_headers(stream)
            if h is None:
                break
        if not _tag(h, "White") or not _tag(h, "Black"):
            # python-chess fills the roster with "?" for text that is no PGN at all
            raise ValueError(f"game {len(out) + 1}: no White or Black tag (is this a PGN file?)")
        out.append(h)
    return out


def _tag(h: chess.pgn.Headers, name: str) -> str | None:
    value = h.get(name)
    if value is None or value.strip() in _UNKNOWN:
        return None
    return value.strip()


def _round_part(h: chess.pgn.Headers) -> str | None:
    m = _DOTTED.match(_tag(h, "Round") or "")
    return m.group(1) if m else None


def _rounds_and_boards(headers: list[chess.pgn.Headers]) -> tuple[str, list[str]]:
    rounds = [_tag(h, "Round") or "1" for h in headers]
    tags = [_tag(h, "Board") for h in headers]
    if len(set(rounds)) == 1:
        return rounds[0], [t or str(i) for i, t in enumerate(tags, start=1)]
    dotted = [m for m in (_DOTTED.match(r) for r in rounds) if m is not None]
    if len(dotted) == len(rounds) and len({m.group(1) for m in dotted}) == 1:
        # "R.B" (our own feeds write a Board tag beside it: the Board tag then names the board)
        return dotted[0].group(1), [t or str(int(m.group(2))) for t, m in zip(tags, dotted)]
    raise ValueError(f"games of several rounds {sorted(set(rounds))}: pass round=")


def _elo(h: chess.pgn.Headers, name: str) -> int | None:
    value = _tag(h, name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _setup(h: chess.pgn.Headers, index: int, the_round: str, board: str, variant: str) -> dict:
    board = str(board)
    fen = _tag(h, "FEN")
    try:
        check_start(fen, variant)  # FIDE Laws 3.10.3, 7.2.1: refused here, not move after move all game
    except StartPositionError as exc:
        raise ValueError(f"game {index} (board {board}): invalid FEN tag: {exc}") from None
    if fen is None and h.get("SetUp") == "1":
        raise ValueError(f"game {index}: SetUp \"1\" without a FEN tag")
    time_control = _tag(h, "TimeControl")
    return {
        "id": f"{the_round}-{board}",
        "board": board,
        "round": the_round,
        "white": _tag(h, "White"),
        "black": _tag(h, "Black"),
        "white_elo": _elo(h, "WhiteElo"),
        "black_elo": _elo(h, "BlackElo"),
        "variant": variant,
        "time_control": time_control,
        "fen": fen,
        "kind": game_kind(time_control, _tag(h, "Event") or ""),
        **{f"{side}_{key}": _tag(h, side.capitalize() + tag) for side in ("white", "black")
           for key, tag in _DETAIL_TAGS if _tag(h, side.capitalize() + tag)},
    }
