"""A round as the broadcast platforms take it (issue 13 "Feeds for the platforms people watch on").

lichess's relay (lichess-org/lila ``modules/relay``, read for this) keeps each game of a round in its
own chapter and, on every poll or push, looks for the chapter a game belongs to: first by a
``GameId`` tag when both have one; else by the same ``Event`` and ``Site``, the same round and board
numbers (``Round "R.B"`` or ``Board``), and the same players: their ``WhiteFideId``/``BlackFideId``
when both sides carry them, else their ``White``/``Black`` names. Our feeds write a ``GameId`` (the
game's id, stable for the whole event) and the players' FIDE IDs from the tournament file, so a
game keeps its moves across polls even when its board numbers are swapped or a name is corrected
mid-round (tests/unit/test_relay_feed.py).

The push API (``POST /api/broadcast/round/{id}/push``) takes PGN text of at most ``MAX_GAMES``
games and answers ``{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error": str}, ...]}``.
Pure: GAMEs in, text out.
"""

from __future__ import annotations

import io

import chess.pgn

from services.events.vocabulary import Variant
from services.hall.view_pgn import game_pgn

MAX_GAMES = 100  # games a push may hold (lichess's push API)


class BadPgn(ValueError):
    """A PGN text we would send that python-chess does not read back as written (a bug: never
    pushed)."""


def checked_pgn(game: dict, round_info: dict | None) -> str:
    """One chess GAME as PGN (``services.hall.view_pgn.game_pgn``), read back by python-chess: no
    parse error, the same moves. Raises BadPgn otherwise."""
    text = game_pgn(game, round_info)
    read = chess.pgn.read_game(io.StringIO(text))
    if read is None or read.errors:
        raise BadPgn(f"game {game.get('id')}: python-chess cannot read our PGN ({read.errors if read else 'empty'})")
    moves = [m.uci() for m in read.mainline_moves()]
    if moves != list(game.get("moves") or []):
        raise BadPgn(f"game {game.get('id')}: the PGN holds {len(moves)} plies, the record {game.get('ply')}")
    return text


def round_batches(games: list[dict], round_info: dict | None, max_games: int = MAX_GAMES) -> list[str]:
    """The round's chess games as PGN texts of at most ``max_games`` games each (in board order),
    each game checked by ``checked_pgn``. Checkers games are left out (lichess broadcasts chess)."""
    texts = [checked_pgn(g, round_info) for g in games if g.get("variant", "chess") == Variant.CHESS]
    return ["\n".join(texts[i:i + max_games]) for i in range(0, len(texts), max_games)]


def game_errors(answer) -> list[str]:
    """The per-game errors of a push's answer, each ``"White - Black: error"`` (empty when every
    game was taken)."""
    out = []
    for g in (answer or {}).get("games", []) if isinstance(answer, dict) else []:
        if isinstance(g, dict) and g.get("error"):
            tags = g.get("tags") or {}
            out.append(f"{tags.get('White', '?')} - {tags.get('Black', '?')}: {g['error']}")
    return out
