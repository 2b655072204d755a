"""PGN of the spectators' GAMEs (``services.views.spectator``): Seven Tag Roster, TimeControl, Termination
and the clock after every ply as ``[%clk h:mm:ss]`` (PGN standard 8.1.1; %clk as used by DGT and
lichess broadcasts), with what lichess's relay reads (docs/broadcast.md): ``Round "R.B"``, ``Board``,
a stable ``GameId``, ``WhiteFideId``/``WhiteTitle``/``WhiteTeam``. Pure: a GAME dict in, text out.

Chess games are written by the rules core's PGN writer (``services.rules.pgn_io.write_pgn``, on
python-chess), which re-derives SAN from the moves, so the export is exactly the moves the gateway
accepted; clocks are floored to whole seconds as PGN's ``h:mm:ss`` needs. Checkers games are written as PDN text
(``[GameType "21"]``, American checkers) by the rules core's PDN writer.
"""

from __future__ import annotations

import chess

from services.clock.pgn import format_time_control
from services.events.vocabulary import GameStatus, Termination, Variant
from services.regulations.controls import control_from_spec
from services.rules.pgn_io import write_pgn
from services.rules.results import PGN_TERMINATION, SCORES

# The PGN standard's Termination values (8.1.1 "Termination") for the view's termination words.
_TERMINATION: dict[str | None, str] = {
    None: "unterminated",
    Termination.TIME_FORFEIT: "time forfeit",
    "flag_fall": "time forfeit",
    Termination.FORFEIT: "rules infraction",
    "default_forfeit": "rules infraction",
    Termination.ARBITER: "adjudication",
    "adjudication": "adjudication",
    "result_slip": "normal",
    "claim_upheld": "normal",
    "abandoned": "abandoned",
}


def termination_tag(game: dict) -> str:
    """The PGN ``Termination`` value: "normal" for an ending on the board or by the players
    (checkmate, repetition, agreement, resignation ...), "time forfeit", "rules infraction",
    "adjudication", or "unterminated" while the game is on."""
    if game.get("status") != GameStatus.ENDED:
        return "unterminated"
    return _TERMINATION.get(game.get("termination"), "normal")


def pgn_time_control(spec, game_no: int | None = None) -> str | None:
    """A tournament-file control spec as PGN TimeControl text (PGN standard 9.6.1, which PDN uses):
    text as it is; a table by ``services.clock.pgn.format_time_control`` where PGN can write it,
    else "?" (unknown); None stays None. A match clock (checkers X.A.b) is the per-game control of
    the match's first game (``game_no`` 1 or None: "5400" for 90 minutes, "4800+10"); a later game
    of the match starts on the time left from the one before, which PGN cannot write: "?"."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, dict) and spec.get("match_clock"):
        if game_no not in (None, 1):
            return "?"
        spec = {k: v for k, v in spec.items() if k != "match_clock"}
    try:
        control = control_from_spec(spec)
        return format_time_control(control) if control is not None else "?"
    except ValueError:  # includes NotExpressibleInPgn
        return "?"


ARMAGEDDON = "armageddon"
# GAME key suffix -> PGN tag suffix of the players' details: lichess's relay reads WhiteTitle,
# WhiteFideId (it matches players by FIDE ID before names) and WhiteTeam; WhiteFed as DGT writes it.
DETAIL_TAGS = (("title", "Title"), ("fide_id", "FideId"), ("fed", "Fed"), ("team", "Team"))


def is_armageddon(game: dict) -> bool:
    """An Armageddon game (draw odds for Black): its kind, or the game it follows a drawn one."""
    return game.get("kind") == ARMAGEDDON


def shown_result(game: dict) -> str:
    """The result as the regulations score it: a drawn Armageddon game is a win for Black
    (``scored``, Norway Chess 2023 "If the Armageddon game is drawn, black will win"), else the
    result played."""
    return game.get("scored") or game.get("result") or "*"


def round_tag(game: dict, round_info: dict | None = None) -> str:
    """``Round`` as broadcasts write it: ``R.B`` (round R, board B: lichess's relay and DGT
    LiveChess), ``R.B.2`` for the second game on a board (an Armageddon game, a checkers match's
    game 2), plain ``R`` when the board is no number."""
    r = str(game.get("round") or (round_info or {}).get("round") or "?")
    board = str(game.get("board") or "")
    if not board.isdigit() or not r.isdigit():
        return r
    second = game.get("follows") or (game.get("match") or {}).get("game_no") == 2
    return f"{r}.{board}.2" if second else f"{r}.{board}"


def headers(game: dict, round_info: dict | None) -> list[tuple[str, str]]:
    """``[(tag, value), ...]``: the Seven Tag Roster first (PGN standard 8.1.1), then the rest:
    ``Board``, ``GameId`` (the game's id: lichess's relay keeps a game's moves with it across polls
    by it, whatever its board or names become), ratings, the players' titles, FIDE IDs, federations
    and teams where known, ``TimeControl``, ``Termination``. An Armageddon game says so in its
    ``Event`` and scores as the regulations do (``shown_result``)."""
    r = round_info or {}
    event = r.get("event") or "?"
    if is_armageddon(game):
        event = f"{event} - Armageddon" if event != "?" else "Armageddon"
    tags = [
        ("Event", event),
        ("Site", r.get("site") or "?"),
        ("Date", r.get("date") or "????.??.??"),
        ("Round", round_tag(game, r)),
        ("White", game.get("white") or "?"),
        ("Black", game.get("black") or "?"),
        ("Result", shown_result(game)),
        ("Board", str(game.get("board") or "")),
        ("GameId", str(game.get("id") or "")),
    ]
    for side in ("White", "Black"):
        if game.get(f"{side.lower()}_elo"):
            tags.append((f"{side}Elo", str(game[f"{side.lower()}_elo"])))
        for key, tag in DETAIL_TAGS:
            value = game.get(f"{side.lower()}_{key}")
            if value not in (None, ""):
                tags.append((side + tag, str(value)))
    game_no = (game.get("match") or {}).get("game_no")
    tags.append(("TimeControl", pgn_time_control(game.get("time_control"), game_no) or "?"))
    tags.append(("Termination", termination_tag(game)))
    return [(k, v) for k, v in tags if v != ""]


def clocks_for_pgn(game: dict) -> list[int | None]:
    """``clocks`` one per ply, the last one filled from the clock's reading when its press has not
    reached the log yet but the clock already runs for the other side (a %clk on every move)."""
    moves = game.get("moves") or []
    clocks = list(game.get("clocks") or [])[: len(moves)]
    clocks += [None] * (len(moves) - len(clocks))
    clock = game.get("clock") or {}
    if moves and clocks[-1] is None and clock:
        first = game.get("first_side") or "white"
        mover = first if len(moves) % 2 == 1 else ("black" if first == "white" else "white")
        if clock.get("running") not in (None, mover) and isinstance(clock.get(f"{mover}_ms"), int):
            clocks[-1] = clock[f"{mover}_ms"]
    return clocks


def game_pgn(game: dict, round_info: dict | None = None) -> str:
    """One game as PGN text ending in a newline. Raises ValueError when a recorded chess move is
    not legal from the previous position (the log and the view disagree: a bug, never hidden)."""
    if game.get("variant") == Variant.CHECKERS:
        return _pdn(game, round_info)
    tags = dict(headers(game, round_info))
    result = tags.pop("Result")
    time_control = tags.pop("TimeControl")
    termination = game.get("termination") if game.get("status") == GameStatus.ENDED else None
    if game.get("scored") and game.get("scored") != game.get("result"):
        termination = None  # the regulations' score, not how the board ended: Termination "normal"
    if termination not in PGN_TERMINATION:
        termination = None  # a word the rules core does not know: the tag from termination_tag()
    else:
        tags.pop("Termination")
    moves = game.get("moves") or []
    clocks = list(clocks_for_pgn(game))
    clocks += [None] * (len(moves) - len(clocks))
    start = game.get("start_fen")
    if game.get("stood"):
        moves, clocks, start = _after_stood(game, moves, clocks, tags)
    return write_pgn(moves, tags=tags, result=result if result in SCORES or result == "*" else "*",
                     termination=termination, clocks_ms=clocks[: len(moves)],
                     time_control=time_control,
                     start_fen=None if start in (None, chess.STARTING_FEN) else start)


def _after_stood(game: dict, moves: list, clocks: list, tags: dict) -> tuple[list, list, str]:
    """A game with an illegal move that stood (FIDE Laws A.5.2, GAME ``stood``) cannot be written as
    one series of legal moves: the movetext starts from the position the last such move left
    (``SetUp``/``FEN``), and the tag ``IllegalMoveStood`` gives the record up to it (SAN, the
    illegal moves marked), so the PGN stays valid for every reader."""
    last = max(game["stood"], key=lambda x: x["ply"])
    ply = last["ply"]
    sans = list(game.get("san") or moves)[:ply]
    marked = {x["ply"] for x in game["stood"]}
    tags["IllegalMoveStood"] = " ".join(f"{san}(illegal)" if i in marked else san
                                         for i, san in enumerate(sans, start=1)) + " (FIDE Laws A.5.2)"
    return moves[ply:], clocks[ply:], last["fen"]


def round_pgn(games: list[dict], round_info: dict | None = None) -> str:
    """Every game of the round, one after another, separated by a blank line."""
    return "\n".join(game_pgn(g, round_info) for g in games)


def _pdn(game: dict, round_info: dict | None) -> str:
    """A checkers GAME as PDN by the rules core (``services.rules.checkers_pdn.write_pdn``): the moves
    are replayed through ``CheckersGame`` (so a bad record raises ValueError), the result is written
    in PDN's form (Black's score first). PDN has no %clk convention, so no clocks are written."""
    from services.rules.checkers_game import CheckersGame
    from services.rules.checkers_pdn import write_pdn

    board = CheckersGame(game.get("start_fen"))
    for move in game.get("moves") or []:
        board.play(move)
    if game.get("status") == GameStatus.ENDED and game.get("result") not in (None, "*") and board.outcome is None:
        board.end(game["result"], game.get("termination") or Termination.ARBITER)
    tags = {tag: value for tag, value in headers(game, round_info)
            if tag not in ("Result", "Termination") and value not in ("", "?")}
    tags["Termination"] = termination_tag(game)
    return write_pdn(board, tags)
