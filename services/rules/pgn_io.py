"""PGN out (for rating, archives and broadcast) and PGN in (real games with clocks, for replay).

Written and read by python-chess's PGN writer and reader only (no hand-made PGN). Clock values are
milliseconds in the venue and ``[%clk h:mm:ss]`` comments in PGN (the lichess / DGT LiveChess
convention: the mover's remaining time after the move). Sources: PGN standard (Edwards 1994)
8.1.1 Seven Tag Roster, 9.6.1 TimeControl, 9.8.1 Termination.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, TextIO

import chess
import chess.pgn

from services.rules.base import MoveRefused
from services.rules.chess_moves import parse_move
from services.rules.results import PGN_TERMINATION, score

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


class PgnGame(NamedTuple):
    """One game read from PGN. ``tags``: every tag as read (dict, str -> str); ``moves``: the main
    line in UCI; ``clocks_ms``: per ply, the ``[%clk]`` value in ms, None where absent or not in
    h:mm:ss form (e.g. DGT's ``[%clk 1:30]``); ``result``: the Result tag ("*" if missing);
    ``start_fen``: the FEN tag or None for the standard start; ``errors``: the reader's complaints
    (illegal or unreadable moves; the main line stops before them)."""

    tags: dict
    moves: list
    clocks_ms: list
    result: str
    start_fen: str | None
    errors: list


def write_pgn(moves: Sequence[str], *, tags: dict | None = None, result: str = "*",
              termination: str | None = None, clocks_ms: Sequence[int | None] | None = None,
              time_control: str | None = None, start_fen: str | None = None,
              whole_seconds: bool = True) -> str:
    """One game as PGN text.

    ``moves``: UCI (or SAN) moves from ``start_fen`` (None = standard start); each must be legal,
    else ValueError naming the ply. ``tags``: any tags, the Seven Tag Roster filled with "?" /
    "????.??.??" where missing. ``result``: a code of ``results.SCORES``; the Result tag is its
    PGN form ("*" for scores PGN cannot express, e.g. "0-0"). ``termination``: a word of
    ``results.TERMINATIONS`` written as PGN's Termination value ("normal", "time forfeit", ...).
    ``clocks_ms``: per ply, the mover's remaining time in ms (None = no clock on that ply); written
    as ``[%clk h:mm:ss]``, floored to whole seconds unless ``whole_seconds`` is False.
    ``time_control``: the TimeControl tag in PGN form (e.g. "5400+30")."""
    if clocks_ms is not None and len(clocks_ms) != len(moves):
        raise ValueError(f"{len(clocks_ms)} clock values for {len(moves)} moves")
    pgn_result = score(result).pgn if result != "*" else "*"
    game = chess.pgn.Game()
    for name, default in _ROSTER_DEFAULTS.items():
        game.headers[name] = default
    for name, value in (tags or {}).items():
        game.headers[name] = str(value)
    game.headers["Result"] = pgn_result
    if time_control is not None:
        game.headers["TimeControl"] = time_control
    if termination is not None:
        if termination not in PGN_TERMINATION:
            raise ValueError(f"not a termination: {termination!r}")
        game.headers["Termination"] = PGN_TERMINATION[termination]
    if start_fen is not None:
        game.setup(start_fen)
    board = game.board()
    node: chess.pgn.GameNode = game
    for index, text in enumerate(moves):
        try:
            move = parse_move(board, text).move
        except MoveRefused as refused:
            raise ValueError(f"ply {index + 1}: {refused.reason}") from None
        board.push(move)
        node = node.add_variation(move)
        ms = clocks_ms[index] if clocks_ms is not None else None
        if ms is not None:
            node.set_clock(ms // 1000 if whole_seconds else ms / 1000)
    for name, value in list(game.headers.items()):
        game.headers[name] = escape_tag_value(value)  # python-chess writes values as they are
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n"


def escape_tag_value(value: str) -> str:
    """A tag value as the inside of a PGN string token (PGN standard 8.1.1 and 7: a backslash is
    written ``\\\\`` and a quote ``\\"``); PDN tags are written the same way."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def unescape_tag_value(text: str) -> str:
    """The tag value written as ``text`` inside a PGN string (``\\"`` a quote, ``\\\\`` a backslash);
    the inverse of ``escape_tag_value``. A lone backslash before anything else stays as it is."""
    return re.sub(r'\\(["\\])', r"\1", text)


def game_to_pgn(game, *, tags: dict | None = None, clocks_ms: Sequence[int | None] | None = None,
                time_control: str | None = None) -> str:
    """A ``ChessGame`` as PGN: its moves from its start position, its outcome as Result and
    Termination ("*" and no Termination while it goes on); other arguments as in ``write_pgn``."""
    outcome = game.outcome
    standard = game.start_fen == chess.STARTING_FEN
    return write_pgn(game.moves, tags=tags, result=outcome.result if outcome else "*",
                     termination=outcome.termination if outcome else None, clocks_ms=clocks_ms,
                     time_control=time_control, start_fen=None if standard else game.start_fen)


def read_pgn(source: str | TextIO) -> Iterator[PgnGame]:
    """Every game in ``source`` (PGN text, or an open text file), in order, as ``PgnGame``."""
    handle = io.StringIO(source) if isinstance(source, str) else source
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return
        yield _to_pgn_game(game)


def _to_pgn_game(game: chess.pgn.Game) -> PgnGame:
    moves, clocks = [], []
    for node in game.mainline():
        moves.append(node.move.uci())
        seconds = node.clock()
        clocks.append(None if seconds is None else round(seconds * 1000))
    tags = {name: unescape_tag_value(value) for name, value in game.headers.items()}
    start_fen = tags.get("FEN")
    return PgnGame(tags, moves, clocks, tags.get("Result", "*"), start_fen, [str(e) for e in game.errors])


def read_pgn_file(path) -> list[PgnGame]:
    """Every game of the PGN file at ``path`` (UTF-8, BOM tolerated)."""
    with open(path, encoding="utf-8-sig") as handle:
        return list(read_pgn(handle))


def write_pgn_games(games: Iterable[str]) -> str:
    """Several PGN texts (from ``write_pgn``) as one file: separated by one blank line."""
    return "\n".join(text.rstrip("\n") + "\n" for text in games)
