"""A new GAME (see ``services.hall.view``) from one ``round_started`` SETUP (docs/events.md).

Pure: the start position comes from the SETUP's ``fen`` or the variant's standard start, and the
side to move first is read from that FEN (chess ``"... w ..."``; checkers ``"B:..."`` / ``"W:..."``,
where Black moves first from the standard start, ACF/WCDF rules).
"""

from __future__ import annotations

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHECKERS_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def start_fen(variant: str, fen: str | None) -> str:
    """The SETUP's FEN, else the standard start of ``variant`` ("chess" or "checkers")."""
    if fen:
        return fen
    return CHECKERS_START if variant == "checkers" else CHESS_START


def side_to_move(variant: str, fen: str) -> str:
    """"white" or "black": who moves in ``fen``. Raises ValueError on a FEN without a side."""
    if variant == "checkers":
        head = fen.split(":", 1)[0].strip().upper()
        if head in ("W", "B"):
            return "white" if head == "W" else "black"
        raise ValueError(f"checkers FEN without a side to move: {fen!r}")
    parts = fen.split()
    if len(parts) >= 2 and parts[1] in ("w", "b"):
        return "white" if parts[1] == "w" else "black"
    raise ValueError(f"chess FEN without a side to move: {fen!r}")


def _elo(value) -> int | None:
    try:
        return int(value) if value not in (None, "", "-") else None
    except (TypeError, ValueError):
        return None


def new_game(setup: dict, round_no: str) -> dict:
    """GAME at ply 0 from SETUP ``{"id", "board", "white", "black", ...}``; KeyError without an id.
    ``match`` (checkers matches: ``{"id", "game_no", "games", "follows"?}``) and ``ballot``
    (``{"ballot", "moves", "name"}``) are the SETUP's, None when it has none."""
    variant = setup.get("variant") or "chess"
    fen = start_fen(variant, setup.get("fen"))
    first = side_to_move(variant, fen)
    board = str(setup.get("board") or setup["id"].rsplit("-", 1)[-1])
    return {
        "id": str(setup["id"]),
        "board": board,
        "round": str(setup.get("round") or round_no),
        "white": setup.get("white") or "",
        "black": setup.get("black") or "",
        "white_elo": _elo(setup.get("white_elo")),
        "black_elo": _elo(setup.get("black_elo")),
        "variant": variant,
        "time_control": setup.get("time_control"),
        "kind": setup.get("kind"),
        "start_fen": fen,
        "first_side": first,
        "fen": fen,
        "ply": 0,
        "turn": first,
        "moves": [],
        "san": [],
        "clocks": [],
        "clock": None,
        "status": "waiting",
        "result": "*",
        "termination": None,
        "claimable": [],
        "last_move": None,
        "match": setup.get("match"),
        "ballot": setup.get("ballot"),
    }
