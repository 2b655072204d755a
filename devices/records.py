"""A file of real games, PGN (chess) or PDN (checkers), as the Scripts the simulators play.

Pure. ``detect_variant`` tells the two apart from the text; ``scripts_from_text`` reads either;
``retime`` puts a chess game under another time control (the tournament demo plays real games under
the event's control: the moves and each move's thinking time are the game's, the clock figures are
``GameClock``'s for the new control).
"""

from __future__ import annotations

import dataclasses
import re

from devices.checkers_script import scripts_from_pdn
from devices.script import Ply, Script, scripts_from_pgn
from devices.thinking import clock_figures, control_of
from services.events.vocabulary import Termination

VARIANTS = ("chess", "checkers")
_GAMETYPE = re.compile(r'^\s*\[\s*GameType\s+"\s*(\d+)', re.MULTILINE)
_TAG_LINE = re.compile(r"^\s*\[.*\]\s*$")
_COMMENT = re.compile(r"\{[^}]*\}")
_NUMERIC_MOVE = re.compile(r"^(?:\d+\.+)?(\d{1,2})([-x:]\d{1,2})+$", re.IGNORECASE)
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"}


def detect_variant(text: str) -> str:
    """"checkers" when the text is PDN for checkers (a ``[GameType "21"]`` tag, or a first move in
    numeric notation such as ``11-15`` or ``1. 9-14``), else "chess" (PGN: ``e4``, ``1. Nf3``).
    A result token (``1-0``) is never taken for a move."""
    tag = _GAMETYPE.search(text)
    if tag:
        return "checkers" if tag.group(1) == "21" else "chess"
    for line in text.splitlines():
        if _TAG_LINE.match(line):
            continue
        for token in _COMMENT.sub(" ", line).split():
            if token in _RESULTS or re.fullmatch(r"\d+\.+", token):
                continue
            return "checkers" if _NUMERIC_MOVE.match(token) else "chess"
    return "chess"


def scripts_from_text(text: str, *, variant: str | None = None, boards: list[str] | None = None,
                      control=None, seed: object = 0) -> list[Script]:
    """Every game of ``text`` as a Script. ``variant``: "chess", "checkers" or None (detected:
    ``detect_variant``); ``boards``: the hall board of each game in file order; ``control``: a
    time control for every game (PGN TimeControl text, tournament-file table or ``TimeControl``):
    checkers clocks are computed for it (default 90 minutes each), chess games are ``retime``d to
    it (default: the game's own ``[%clk]`` figures); ``seed``: checkers thinking times. Raises
    ValueError for an unknown variant, a broken file or a game that does not replay."""
    variant = variant or detect_variant(text)
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: expected one of {VARIANTS}")
    if variant == "checkers":
        return scripts_from_pdn(text, boards=boards, control=control, seed=seed)
    scripts = scripts_from_pgn(text, boards=boards)
    return scripts if control is None else [retime(s, control) for s in scripts]


def retime(script: Script, control, *, board: str | None = None) -> Script:
    """``script`` under ``control`` (see ``scripts_from_text``), optionally on another hall
    ``board``: the same moves, thinking times and result; starting figures and the clock after
    each ply from a ``GameClock`` of the control (a side that would run short thinks faster:
    ``devices.thinking``). A game lost on time keeps its result and reason, and the loser's clock
    shows 0 at the end (``Script.flag``). Raises ValueError for an unreadable or untimed control."""
    tc = control_of(control)
    thinks, clocks, start = clock_figures([p.think_ms for p in script.plies], script.first_side, tc)
    plies = [Ply(p.uci, p.side, clock, think)
             for p, clock, think in zip(script.plies, clocks, thinks)]
    flag = script.flag
    if script.reason == Termination.TIME_FORFEIT and script.result in ("1-0", "0-1"):
        flag = "black" if script.result == "1-0" else "white"
    return dataclasses.replace(script, board=str(board or script.board), plies=plies,
                               white_ms=start["white"], black_ms=start["black"], flag=flag)
