"""PDN (Portable Draughts Notation) for American checkers: read records, replay them, write games.

Reader: tag pairs (``[Event "..."]``), then movetext: move numbers (``12.``, ``12...``), moves in
numeric notation, ``{comments}``, ``(variations)`` (skipped), ``$n`` glyphs, and a result
(``1-0``, ``0-1``, ``1/2-1/2``, ``*``; the 10x10 forms ``2-0``, ``0-2``, ``1-1`` are read as the
same). Text that is none of these, even glued to a move as in
``26-22Whiteoversteppedthetimecontrolonthismove.`` (two Tinsley records), is kept as a note after
that move, never taken for a move and never an error. A ``[FEN]`` tag (set-up position) is honoured
and the moves are read in order whoever is to move. ``[GameType]`` must be 21 (English/American
checkers) when present. The moves are then played through ``CheckersGame`` (pydraughts decides
their legality).

Why not pydraughts' ``draughts.PDN.PDNReader`` (0.6.7) for reading: measured on the shared data,
it reads the German Open game and our own exports correctly (the unit tests use it as a check of
``write_pdn``), but
- it pairs moves by move number, two tokens per number: 387 of the 724 Tinsley records come out
  with other moves than the file's, 386 of them a move short where a move number is missing
  (``13. 12-16 19x12 10x15 1-0``);
- set-up games: with ``[FEN "W:..."]`` it takes ``1... 10-14 2. 30-26`` as the moves
  ``10-14``, ``2``, ``30-26``; with ``[FEN "B:..."]`` it doubles Black's first move and drops
  White's reply;
- a result token inside a comment (``{... 1-0 ...}``) ends the game there and starts a new one;
  unbraced text glued to a move is taken for the move;
- it re-splits the rest of the file for every game: 18 s for tinsley.pdn (ours: 0.4 s).
Its ``PDNWriter`` numbers the moves of a game from the standard start as ``1... 11-15 2. 22-17``
(it treats a FEN with Black to move as a set-up position), so ``write_pdn`` is ours too.

Results: PDN for checkers gives the first player's (Black's) score first; the venue's result
codes give White's first (``checkers_results``). ``PdnGame.result`` is the PDN token as written,
``PdnGame.venue_result`` the venue code; ``write_pdn`` converts back.

Writer (``write_pdn``): tags Event, Date, Black, White, Result, GameType "21" (and FEN with SetUp
"1" for a set-up position), then the moves with every jump written out (regulation X.A.g.i of the
11-Man National 2017: record "all jumps").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.rules.base import BLACK, WHITE, MoveRefused, other
from services.rules.checkers_board import Position
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_notation import format_fen
from services.rules.checkers_results import PDN_TOKENS, RECORDED, from_pdn, to_pdn
from services.rules.results import score
from services.rules.pgn_io import escape_tag_value, unescape_tag_value

_TAG_RE = re.compile(r'^\s*\[\s*(\w+)\s+"(.*)"\s*\]\s*$')
_MOVE_RE = re.compile(r"^(\d{1,2}(?:[-x:]\d{1,2})+)[!?]*(.*)$", re.IGNORECASE)
_NUMBER_RE = re.compile(r"^\d+\.+(.*)$")
_TIME_NOTE = re.compile(r"overstep|time\s*control|time\s*forfeit|lost\s*on\s*time|flag", re.IGNORECASE)


class PdnError(ValueError):
    """A PDN text that cannot be read as checkers records (e.g. another GameType). ``str()`` says why."""


class PdnReplayError(ValueError):
    """A record that does not replay. ``ply``: the ply refused (1-based; 0 = not a move: the
    start position or the result); ``move``: its text; ``reason``: why (the rules engine's words)."""

    def __init__(self, ply: int, move: str, reason: str):
        super().__init__(f"ply {ply} ({move}): {reason}" if ply else reason)
        self.ply = ply
        self.move = move
        self.reason = reason


@dataclass
class PdnGame:
    """One record as read. ``tags``: tag name -> value, in file order; ``moves``: move texts as
    written; ``result``: the PDN result token, Black's score first ("1-0" = Black won, "0-1",
    "1/2-1/2", "*"; "2-0"/"0-2"/"1-1" read as "1-0"/"0-1"/"1/2-1/2"), None when missing;
    ``notes``: (number of moves before the note, text) for comments and stray text."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str | None = None
    notes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def venue_result(self) -> str | None:
        """The result as a venue result code (White's score first: PDN "1-0" -> "0-1"); None when
        the record has no result or "*"."""
        if self.result is None or self.result == "*":
            return None
        return from_pdn(self.result)


def _strip_variations(text: str) -> str:
    depth, out = 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _read_movetext(text: str, game: PdnGame) -> None:
    pieces = re.split(r"(\{[^}]*\})", text)
    for piece in pieces:
        if piece.startswith("{"):
            note = piece[1:-1].strip()
            if note:
                game.notes.append((len(game.moves), note))
            continue
        for token in _strip_variations(piece).split():
            number = _NUMBER_RE.match(token)
            if number:
                token = number.group(1)
                if not token:
                    continue
            if token in PDN_TOKENS:
                game.result = PDN_TOKENS[token]
                continue
            if re.fullmatch(r"\$\d+", token):
                continue
            move = _MOVE_RE.match(token)
            if move:
                game.moves.append(move.group(1))
                if move.group(2).strip():
                    game.notes.append((len(game.moves), move.group(2).strip()))
                continue
            game.notes.append((len(game.moves), token))


def read_pdn(text: str) -> list[PdnGame]:
    """Every record in a PDN text, in order (see the module docstring for what is read).

    Raises PdnError when a game's GameType is not 21. Never raises on stray text (kept as notes).
    """
    games: list[PdnGame] = []
    current: PdnGame | None = None
    movetext: list[str] = []

    def finish() -> None:
        if current is not None:
            _read_movetext("\n".join(movetext), current)
            if current.tags or current.moves or current.result:
                games.append(current)

    for line in text.lstrip("\ufeff").splitlines():
        tag = _TAG_RE.match(line)
        if tag:
            if current is None or any(s.strip() for s in movetext):
                finish()
                current, movetext = PdnGame(), []
            current.tags[tag.group(1)] = unescape_tag_value(tag.group(2))
        elif line.strip():
            if current is None:
                current, movetext = PdnGame(), []
            movetext.append(line)
    finish()
    for g in games:
        game_type = g.tags.get("GameType", "21").split(",")[0].strip()
        if game_type != "21":
            raise PdnError(f"GameType {g.tags['GameType']!r} is not English/American checkers (21)")
    return games


def replay(record: PdnGame) -> CheckersGame:
    """Replay a record through ``CheckersGame.play`` from its FEN tag (or the start) and apply its
    result. Raises PdnReplayError when a move is refused (with the ply and the engine's reason),
    when the FEN tag is bad, or when the recorded result contradicts the board (e.g. "1/2-1/2"
    although the side to move has no move).

    Result: a game over on the board keeps the board's outcome; a decisive result with a note
    after the last move about the time control (e.g. "Red overstepped the time control on this
    move.") is a flag fall of the loser (regulation X.A.b); any other "1-0"/"0-1"/"1/2-1/2" ends
    the game with termination "recorded"; "*" or no result leaves it open.
    """
    try:
        game = CheckersGame(fen=record.tags.get("FEN"))
    except ValueError as exc:
        raise PdnReplayError(0, "", f"bad FEN tag: {exc}") from None
    for text in record.moves:
        try:
            game.play(text)
        except MoveRefused as exc:
            raise PdnReplayError(game.ply + 1, text, exc.reason) from None
    result = record.venue_result
    if game.outcome is not None:
        if result is not None and result != game.outcome.result:
            raise PdnReplayError(
                0, "", f"recorded result {record.result} contradicts the board: PDN {to_pdn(game.outcome.result)}"
            )
        return game
    if result is None:
        return game
    winner = score(result).winner
    loser = other(winner) if winner else None
    last_notes = [note for at, note in record.notes if at == len(record.moves)]
    if loser and any(_TIME_NOTE.search(note) for note in last_notes):
        named = " ".join(last_notes).lower()
        if ("red" in named or "black" in named) and loser != BLACK or "white" in named and loser != WHITE:
            note = " ".join(last_notes)
            raise PdnReplayError(0, "", f"recorded result {record.result} contradicts the note {note!r}")
        game.flag_fall(loser)
    else:
        game.end(result, RECORDED)
    return game


def _movetext(game: CheckersGame, width: int = 79) -> str:
    tokens: list[str] = []
    number = 1
    turn = BLACK if game.initial_fen.startswith("B") else WHITE
    for i, move in enumerate(game.moves):
        if turn == BLACK:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(move)
        if turn == WHITE:  # Black moves first: a move number covers Black's move and White's reply
            number += 1
        turn = other(turn)
    tokens.append(to_pdn(game.outcome.result) if game.outcome else "*")
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


def write_pdn(game: CheckersGame, tags: Mapping[str, str] | None = None) -> str:
    """The game as one PDN record (ends with a blank line).

    ``tags``: values for Event, Date (``YYYY.MM.DD``), Black, White and any extra tags (written
    after the standard ones; "?" for a missing standard one). Result comes from the game, in PDN's
    form (Black's score first) ("*" while it goes on), GameType is "21"; FEN and SetUp "1" are
    added for a set-up position.
    Quotes and backslashes in tag values are escaped (``\\"``, ``\\\\``: PGN standard 8.1.1).
    Raises ValueError when a tag value holds a line break (PGN standard 7: not in a string).
    """
    given = dict(tags or {})
    out = {name: given.pop(name, "?") for name in ("Event", "Date", "Black", "White")}
    out["Result"] = to_pdn(game.outcome.result) if game.outcome else "*"
    out["GameType"] = "21"
    if game.initial_fen != format_fen(Position.start()):
        out["SetUp"] = "1"
        out["FEN"] = game.initial_fen
    for name in ("Result", "GameType", "SetUp", "FEN"):
        given.pop(name, None)
    out.update(given)
    for name, value in out.items():
        if "\n" in str(value) or "\r" in str(value) or not re.fullmatch(r"\w+", name):
            raise ValueError(f"tag {name!r} cannot be written in PDN: {value!r}")
    head = "".join(f'[{name} "{escape_tag_value(value)}"]\n' for name, value in out.items())
    return f"{head}\n{_movetext(game)}\n\n"
