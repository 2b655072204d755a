"""A round as the broadcast platforms take it (issue 13 "Feeds for the platforms people watch on").

lichess's relay (lichess-org/lila ``modules/relay``, read for this) keeps each game of a round in its
own chapter and, on every poll or push, looks for the chapter a game belongs to: first by a
``GameId`` tag when both have one; else by the same ``Event`` and ``Site``, the same round and board
numbers (``Round "R.B"`` or ``Board``), and the same players: their ``WhiteFideId``/``BlackFideId``
when both sides carry them, else their ``White``/``Black`` names. Our feeds write a ``GameId`` (the
game's id, stable for the whole event) and the players' FIDE IDs from the tournament file, so a
game keeps its moves across polls even when its board numbers are swapped or a name is corrected
mid-round (tests/unit/test_relay_feed.py).

The push API (``POST /api/broadcast/round/{id}/push``) takes PGN text (lila reads the first 100
games and keeps at most 100 chapters a round: ``services.views.relay_rounds``) and answers
``{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error": str}, ...]}`` (``read_answer``).
Pure: GAMEs in, text out.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import chess.pgn

from services.events.vocabulary import Variant
from services.arbiter_office.view_pgn import game_pgn



class BadPgn(ValueError):
    """A PGN text we would send that python-chess does not read back as written (a bug: never
    pushed)."""


def checked_pgn(game: dict, round_info: dict | None) -> str:
    """One chess GAME as PGN (``services.arbiter_office.view_pgn.game_pgn``), read back by python-chess: no
    parse error, the same moves. Raises BadPgn otherwise."""
    text = game_pgn(game, round_info)
    read = chess.pgn.read_game(io.StringIO(text))
    if read is None or read.errors:
        raise BadPgn(f"game {game.get('id')}: python-chess cannot read our PGN ({read.errors if read else 'empty'})")
    moves = [m.uci() for m in read.mainline_moves()]
    if moves != list(game.get("moves") or []):
        raise BadPgn(f"game {game.get('id')}: the PGN holds {len(moves)} plies, the record {game.get('ply')}")
    return text


class PgnCache:
    """Each game's checked PGN (``checked_pgn``), made again only when the GAME or the round's info
    changed: writing and reading back a 40-ply game costs ~20 ms, so a 200-board round pushed every
    second would not keep up; a push re-makes only the games that moved since the last."""

    def __init__(self):
        self._texts: dict[str, tuple[str, str]] = {}  # game id -> (what it was made from, text)

    def text(self, game: dict, round_info: dict | None) -> str:
        """``checked_pgn(game, round_info)``, from the cache when nothing changed. Raises BadPgn."""
        key = json.dumps([game, round_info], sort_keys=True, default=str)
        gid = str(game.get("id"))
        hit = self._texts.get(gid)
        if hit is not None and hit[0] == key:
            return hit[1]
        text = checked_pgn(game, round_info)
        self._texts[gid] = (key, text)
        return text


def round_text(games: list[dict], round_info: dict | None, cache: PgnCache | None = None) -> str:
    """One push body: the chess ``games`` (in the order given) as PGN text, each checked by
    ``checked_pgn`` (through ``cache`` when given), a blank line between games (lila splits a body
    before each ``[`` that follows a blank line: ``MultiPgn.split``). Checkers games are left out
    (lichess broadcasts chess)."""
    make = cache.text if cache is not None else checked_pgn
    return "\n".join(make(g, round_info) for g in games if g.get("variant", Variant.CHESS) == Variant.CHESS)


@dataclass(frozen=True)
class Taken:
    """What lichess's answer says of one game we sent: ``game`` its id; ``moves`` the plies lichess
    read (None when it did not take the game); ``problem`` None when it took the game whole, else
    why not (its error, fewer plies than sent, no answer for it)."""

    game: str
    moves: int | None
    problem: str | None


def read_answer(sent: list[dict], answer) -> list[Taken]:
    """lichess's answer to a push of the GAMEs ``sent`` (in body order), one ``Taken`` per game sent.

    lila (``RelayPush``, ``JsonView``) answers ``{"games": [{"tags": {...}, "moves": N} |
    {"tags": {...}, "error": TEXT}, ...]}``: one entry per game it parsed, in the body's order (a
    game it could not parse at all has empty tags), and nothing for a game past the 100 it reads.
    An entry is matched to our game by its ``GameId`` tag when it has one, else by its place. A game
    is taken whole only when its entry has no error and as many plies as we sent (lila keeps a game
    whose last move is illegal, a DGT king moved to the centre, and reads one ply less); a game with
    no entry was not taken. An answer of another shape takes nothing."""
    entries = answer.get("games") if isinstance(answer, dict) else None
    entries = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    by_id: dict[str, dict] = {}
    for e in entries:
        tags = e.get("tags") if isinstance(e.get("tags"), dict) else {}
        if tags.get("GameId"):
            by_id.setdefault(str(tags["GameId"]), e)
    out = []
    for i, g in enumerate(sent):
        gid = str(g.get("id"))
        e = by_id.get(gid)
        if e is None and i < len(entries):
            tags = entries[i].get("tags") if isinstance(entries[i].get("tags"), dict) else {}
            e = entries[i] if not tags.get("GameId") else None
        plies = len(g.get("moves") or [])
        name = f"{g.get('white') or '?'} - {g.get('black') or '?'}"
        if e is None:
            out.append(Taken(gid, None, f"{name}: not in lichess's answer (not taken)"))
        elif e.get("error"):
            out.append(Taken(gid, None, f"{name}: {e['error']}"))
        elif not isinstance(e.get("moves"), int) or isinstance(e.get("moves"), bool):
            out.append(Taken(gid, None, f"{name}: lichess's answer gives no moves (not taken)"))
        elif e["moves"] < plies:
            out.append(Taken(gid, e["moves"], f"{name}: lichess read {e['moves']} of {plies} plies"))
        else:
            out.append(Taken(gid, e["moves"], None))
    return out
