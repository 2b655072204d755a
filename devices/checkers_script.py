"""What a simulated checkers board and clock will play: a real game from PDN.

Pure. Each PDN record is read and replayed by the rules core (``services.rules.checkers_pdn``:
``read_pdn``, ``replay``: pydraughts decides legality), and becomes a ``devices.script.Script``:

- the moves as the board sends them: standard numeric notation, every jump with its full route
  (``23x14``, ``6x15x24``; ``CheckersGame.moves``), whatever short form the record used;
- Black (Red) moves first from the standard start, so the clock starts for Black (11-Man National
  2017, X.A.d: "As the game starts, Red's clock is started");
- checkers PDN has no clock comments: thinking times are seeded-random and realistic, and the clock
  figures are computed by ``services.clock.GameClock`` for the match control (default 90 minutes
  each, sudden death: X.A.a option 1); see ``devices.thinking``;
- the result converted from PDN's spelling (Black's score first) to the venue's code (White's
  first: PDN "1-0" is "0-1"; docs/checkers.md), with the rules core's termination as the reason
  the board reports: ``recorded`` (the record does not say how it ended), ``no_legal_moves``, or
  ``time_forfeit`` for a record noting a flag fall (then ``Script.flag`` is the loser).
"""

from __future__ import annotations

from services.arbiter_office.setup import hall_boards
from services.rules.base import BLACK, WHITE, other
from services.rules.checkers_pdn import PdnGame, PdnReplayError, read_pdn, replay
from services.rules.results import TIME_FORFEIT, score

from devices.script import Ply, Script
from devices.thinking import clock_figures, control_of, thinking_times


def scripts_from_pdn(text: str, *, boards: list[str] | None = None, control=None,
                     seed: object = 0) -> list[Script]:
    """Every record of the PDN ``text`` as a Script (``variant`` "checkers").

    ``boards``: the hall board of each game in file order (default: Board tag, else the order, as
    ``services.arbiter_office.setup.round_from_pgn``); ``control``: the time control of every game (PGN
    TimeControl text, a tournament-file table, a ``TimeControl``; default: the record's TimeControl
    tag, else 90 minutes each); ``seed``: picks the thinking times (``devices.thinking``). Raises
    ValueError for a text with no record, another GameType, a record that does not replay (with
    its game number, ply and the rules' reason), or a ``boards`` list of the wrong length.
    """
    records = read_pdn(text)
    if not records:
        raise ValueError("no game found in the PDN text")
    if boards is None:
        boards = hall_boards(text, variant="checkers")
    boards = [str(b) for b in boards]
    if len(boards) != len(records):
        raise ValueError(f"{len(boards)} boards for {len(records)} games")
    return [script_from_record(record, board, control=control, seed=seed, number=index)
            for index, (record, board) in enumerate(zip(records, boards), start=1)]


def script_from_record(record: PdnGame, board: str, *, control=None, seed: object = 0,
                       number: int = 1, start: dict[str, int] | None = None) -> Script:
    """One PDN record as a Script on hall board ``board`` (see ``scripts_from_pdn``). ``number``:
    the record's place in its file, for error messages; ``start``: the clock's starting figures
    ``{"white", "black"}`` (ms) instead of the control's (a match's second game). Raises
    ValueError as ``scripts_from_pdn``."""
    try:
        game = replay(record)
    except PdnReplayError as exc:
        raise ValueError(f"game {number}: {exc}") from None
    moves = game.moves
    first = BLACK if game.initial_fen.startswith("B") else WHITE
    spec = control if control is not None else record.tags.get("TimeControl")
    thinks, clocks, start = clock_figures(thinking_times(moves, seed), first, control_of(spec), start)
    plies, side = [], first
    for move, clock, think in zip(moves, clocks, thinks):
        plies.append(Ply(move, side, clock, think))
        side = other(side)
    result, reason, flag = "*", "unfinished", None
    if game.outcome is not None:
        result, reason = game.outcome.result, game.outcome.termination
        winner = score(result).winner
        if reason == TIME_FORFEIT and winner is not None:  # always a win in checkers (X.A.b)
            flag = other(winner)
    fen = record.tags.get("FEN")
    return Script(str(board), plies, start[WHITE], start[BLACK], result, reason,
                  game.initial_fen if fen else None, dict(record.tags), variant="checkers", flag=flag)


def match_scripts(first: PdnGame, second: PdnGame, board: str, *, control=None, seed: object = 0,
                  numbers: tuple[int, int] = (1, 2)) -> list[Script]:
    """The two games of a Master division match on hall board ``board``: ``first`` then ``second``
    (two real games of one ballot with the colours reversed, e.g. London 1992 games 25 and 26).

    The second game's clock starts where the first left each player (11-Man National 2017 X.A.b:
    "Whatever time shows on the clocks at the conclusion of the first game is the time the player
    has to play the entire second game"): game 2's White has game 1's Black's time and the reverse
    (``Script.final_clocks``). When the first ends with a flag fall the second is still returned;
    the simulated board does not play it (X.A.b: it is forfeited, ``devices.station``). Raises
    ValueError as ``scripts_from_pdn``."""
    one = script_from_record(first, board, control=control, seed=seed, number=numbers[0])
    white, black = one.final_clocks()
    two = script_from_record(second, board, control=control, seed=seed, number=numbers[1],
                             start={"white": black, "black": white})
    return [one, two]
