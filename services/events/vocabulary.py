"""The domain's closed sets of words, one ``enum.StrEnum`` each (DESIGN.md "one vocabulary": "termination,
side and result as enums or literals").

Every member *is* the string the log, the device protocol, the API and the exports have always
carried (``Termination.TIME_FORFEIT == "time_forfeit"``, ``str(GameResult.WHITE_WINS) == "1-0"``), so
a member can stand wherever the word stood: JSON and msgspec encode a member as its value, a word
read back from the log compares equal to its member, and ``Termination("time_forfeit")`` turns a word
into its member (``ValueError`` for a word outside the set). Code names the member, never the bare
word: ``tests/unit/test_bare_words.py`` fails on a bare termination or status word outside this module.

This module imports nothing of the project: the rules core (``services.rules``), the events, the fold,
the gateway and the dashboard all stand on it.

Sources: FIDE Laws of Chess (1 January 2023), FIDE Handbook C.04 (Swiss rules, TRF-16), the PGN
standard (Edwards 1994), the WCDF rules of checkers as adopted by the ACF and the 11-Man National
2017 regulations (``../shared/regulations``), DESIGN.md "Device protocol".
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

Side = Literal["white", "black"]
"""A side of the board (FIDE Laws 1.1). In checkers Black is the side the venue's boards show as Red.
A ``Literal`` rather than an enum: every record, key and message has carried the two words since the
first commit, and ``services.rules.base.Side`` is this one."""


class Termination(StrEnum):
    """How a game ended (``GameEnded.termination``, ``Outcome.termination``, PGN ``Termination``
    via ``services.rules.results.PGN_TERMINATION``). Chess's words with the FIDE Laws article each
    comes from; checkers adds ``NO_LEGAL_MOVES``, ``FORTY_MOVES``, ``LATE_START`` and ``RECORDED``
    (``services.rules.checkers_results``)."""

    CHECKMATE = "checkmate"
    """FIDE Laws 5.1.1: the player who checkmates the opponent's king wins."""
    STALEMATE = "stalemate"
    """FIDE Laws 5.2.1: the player to move has no legal move and is not in check: drawn."""
    FIVEFOLD_REPETITION = "fivefold_repetition"
    """FIDE Laws 9.6.1: the same position at least five times: drawn without a claim."""
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    """FIDE Laws 9.6.2: 75 moves each without a capture or a pawn move: drawn without a claim."""
    INSUFFICIENT_MATERIAL = "insufficient_material"
    """FIDE Laws 5.2.2: a dead position by material alone (e.g. king against king and bishop)."""
    DEAD_POSITION = "dead_position"
    """FIDE Laws 5.2.2: a dead position otherwise (a blockade, a forced line)."""
    TIME_FORFEIT = "time_forfeit"
    """FIDE Laws 6.9: a flag fell (a draw when the opponent cannot checkmate by any series of legal
    moves); checkers X.A.b: always a loss."""
    AGREEMENT = "agreement"
    """FIDE Laws 5.2.3, 9.1: drawn by agreement (where the regulations allow it)."""
    RESIGNATION = "resignation"
    """FIDE Laws 5.1.2: a player resigned."""
    THREEFOLD_REPETITION = "threefold_repetition"
    """FIDE Laws 9.2: a correct claim of the third repetition (checkers: the third repetition)."""
    FIFTY_MOVES = "fifty_moves"
    """FIDE Laws 9.3: a correct claim of 50 moves each without a capture or a pawn move."""
    FORFEIT = "forfeit"
    """FIDE Laws 6.7.1: lost at the default time; or a game not played (TRF ``+``/``-``)."""
    ARBITER = "arbiter"
    """An arbiter's decision (FIDE Laws 7.5.5, 12.9; checkers: the referee's adjudication)."""
    NO_LEGAL_MOVES = "no_legal_moves"
    """Checkers (WCDF rules): the side to move cannot move and has lost."""
    FORTY_MOVES = "forty_moves"
    """Checkers (WCDF rules): the 40-move rule claim upheld: drawn."""
    LATE_START = "late_start"
    """Checkers, 11-Man National 2017 X.B.e: "Any game, not started in accordance with this rule,
    shall be declared drawn"."""
    RECORDED = "recorded"
    """A result taken from a record that does not say how the game ended (a PDN file)."""
    RESULT_SLIP = "result_slip"
    """FIDE Laws 8.7: the players' result as they signed it on the result slip, entered by the
    arbiter (the game ended at the board: a resignation, an agreement; PGN "normal")."""
    CLAIM_UPHELD = "claim_upheld"
    """FIDE Laws 9.2, 9.3 (checkers: the 40-move rule): a claim the arbiter upheld, entered by hand:
    drawn."""


class GameResult(StrEnum):
    """A game's result as recorded (``GameEnded.result``, ``GameState.result``): the PGN Result
    values (PGN standard 8.1.1) and the special scores of an arbiter's penalty (FIDE Laws 12.9:
    raising or reducing scores), which PGN cannot write. The first figure is White's in both games
    (``services.rules.checkers_results`` turns PDN's round at the file border)."""

    WHITE_WINS = "1-0"
    """White won (PGN 8.1.1)."""
    BLACK_WINS = "0-1"
    """Black won (PGN 8.1.1)."""
    DRAW = "1/2-1/2"
    """Drawn (PGN 8.1.1)."""
    UNFINISHED = "*"
    """Not over, or reopened (PGN 8.1.1: "game still in progress, game abandoned, or result
    otherwise unknown")."""
    BOTH_LOSE = "0-0"
    """FIDE Laws 12.9: an arbiter scores the game lost for both players."""
    WHITE_HALF = "1/2-0"
    """FIDE Laws 12.9: half a point to White, none to Black."""
    BLACK_HALF = "0-1/2"
    """FIDE Laws 12.9: none to White, half a point to Black."""


RESULTS_PLAYED: tuple[GameResult, ...] = (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW)
"""The results of a game played out (PGN 8.1.1 without ``*``)."""
SPECIAL_SCORES: tuple[GameResult, ...] = (GameResult.BOTH_LOSE, GameResult.WHITE_HALF, GameResult.BLACK_HALF)
"""The arbiter's special scores (FIDE Laws 12.9)."""


class GameStatus(StrEnum):
    """Where a game is (``GameState.status``, the spectators' GAME ``status``)."""

    WAITING = "waiting"
    """Set up for the round, no move and no running clock yet (FIDE Laws 6.7.1: the default time
    counts from the round's start)."""
    PLAYING = "playing"
    """A move made or the clock started (FIDE Laws 6.2)."""
    ENDED = "ended"
    """The game has a result (FIDE Laws 5, 6.9, 9); reopened by an arbiter's decision it plays on."""


class ClaimKind(StrEnum):
    """A draw claim (``Claim.kind``, ``draw_claimable``, ``draw_claim_reported``)."""

    THREEFOLD = "threefold"
    """FIDE Laws 9.2: the same position for the third time; checkers: the third repetition."""
    FIFTY_MOVES = "fifty_moves"
    """FIDE Laws 9.3: the last 50 moves by each player without a capture or a pawn move."""
    FORTY_MOVES = "forty_moves"
    """Checkers (WCDF rules): the 40-move rule."""
    UNNAMED = "claim"
    """A device's claim whose words name no kind: the arbiter identifies it
    (``services.rules.claim_words``)."""


class Variant(StrEnum):
    """The game played (``GameState.variant``, a SETUP's ``variant``, the tournament's ``game``)."""

    CHESS = "chess"
    """The FIDE Laws of Chess (python-chess)."""
    CHECKERS = "checkers"
    """American checkers / English draughts, WCDF rules as adopted by the ACF (pydraughts)."""


class DeviceKind(StrEnum):
    """The device of a hall board that sent a message (DESIGN.md "Device protocol")."""

    BOARD = "board"
    """The electronic board: moves (``move``) or piece placements (``position``)."""
    CLOCK = "clock"
    """The game clock: ``start``, ``press``, ``pause``, ``resume``, ``set`` (FIDE Laws 6)."""


class DeviceStatus(StrEnum):
    """A device's retained ``status`` message (DESIGN.md "Device protocol"; the last will says
    ``offline``)."""

    ONLINE = "online"
    """Connected."""
    OFFLINE = "offline"
    """Gone (its last will, or it said so)."""


class ClockEvent(StrEnum):
    """A clock message's ``event`` (DESIGN.md "Device protocol"; FIDE Laws 6)."""

    START = "start"
    """The clock is started (FIDE Laws 6.2)."""
    PRESS = "press"
    """A player completes a move by pressing (FIDE Laws 6.2.1)."""
    PAUSE = "pause"
    """Stopped by the arbiter (FIDE Laws 6.12.1)."""
    RESUME = "resume"
    """Restarted after a pause."""
    SET = "set"
    """Times set by hand (FIDE Laws 6.10.2: the arbiter corrects the clock)."""


class EndedBy(StrEnum):
    """Who ended a game (``GameEnded.by``)."""

    RULES = "rules"
    """The Laws applied by the gateway (checkmate, stalemate, dead position, 9.6, a flag: 6.9)."""
    DEVICE = "device"
    """A board's or clock's own result message."""
    REGULATIONS = "regulations"
    """The event's regulations (default time 6.7, a move timer, a late start X.B.e)."""
    ARBITER = "arbiter"
    """An arbiter's decision (the login is in ``GameEnded.arbiter``)."""


class GameKind(StrEnum):
    """The kind of game a round plays (a SETUP's ``kind``, the tournament file's ``kind``), which
    decides the penalties' appendix (FIDE Laws Appendices A, B) and the draw rules."""

    CLASSICAL = "classical"
    """Standard play (FIDE Laws, no appendix)."""
    RAPID = "rapid"
    """FIDE Laws Appendix A."""
    BLITZ = "blitz"
    """FIDE Laws Appendix B."""
    ARMAGEDDON = "armageddon"
    """A decisive game where a draw counts as Black's win (draw odds; Norway Chess 2023)."""


class PlayoffStatus(StrEnum):
    """Where a play-off for first place stands (the standings' ``playoff.status``,
    ``services.tournament.playoff_walk``)."""

    NEXT_STAGE = "next_stage"
    """The tie stands: the next stage is to be created."""
    STAGE_IN_PLAY = "stage_in_play"
    """A stage is being played."""
    ARBITER_DECIDES = "arbiter_decides"
    """The regulations leave the next step to the arbiter (or a drawing of lots is due)."""
    DECIDED = "decided"
    """The play-off has decided the order of the tied players."""


class ByeCode(StrEnum):
    """A requested bye's TRF-16 code (FIDE Handbook C.04.2 byes; C.04 Annex 2 writes it in a
    round's result column)."""

    HALF = "H"
    """Half-point bye."""
    FULL = "F"
    """Full-point bye."""
    ZERO = "Z"
    """Zero-point bye (also a late entry's missed rounds)."""


class AlertKind(StrEnum):
    """What an arbiter's alert is about: the entry type it was born from, or ``NOT_AT_BOARD`` (one
    per round, ``services.views.not_at_board``). The values are the entry types' ``TYPE`` words
    (``tests/unit/test_vocabulary.py`` checks each is registered)."""

    DRAW_CLAIMABLE = "draw_claimable"
    """FIDE Laws 9.2, 9.3: a draw can be claimed."""
    DRAW_CLAIM_REPORTED = "draw_claim_reported"
    """A device reports a claim (FIDE Laws 9.2, 9.3: the arbiter verifies it)."""
    DRAW_OFFER_REFUSED = "draw_offer_refused"
    """A draw by agreement the regulations forbid (FIDE Laws 9.1.1)."""
    FLAG_FELL = "flag_fell"
    """FIDE Laws 6.9."""
    BOTH_FLAGS_FELL = "both_flags_fell"
    """FIDE Laws 6.8, 6.11, Guidelines III.3.1: both flags at 0, which fell first unknown."""
    MOVE_REJECTED = "move_rejected"
    """An illegal move on a board (FIDE Laws 7.5)."""
    MOVE_PLAYED = "move_played"
    """An illegal move that stood (FIDE Laws A.5.2, B.3)."""
    MESSAGE_REJECTED = "message_rejected"
    """A malformed device message (DESIGN.md "Device protocol": bad input is alerted)."""
    SEQ_GAP = "seq_gap"
    """Device messages missing."""
    RESULT_HELD = "result_held"
    """A device's result waits behind missing device messages (issue 28)."""
    DEVICE_OFFLINE = "device_offline"
    """A device went offline during its game."""
    CLOCK_DISAGREEMENT = "clock_disagreement"
    """The clock and the time control's model disagree (FIDE Laws 6.10)."""
    ARMAGEDDON_SCHEDULED = "armageddon_scheduled"
    """A drawn game is followed by an Armageddon game."""
    ARMAGEDDON_DECIDED = "armageddon_decided"
    """A drawn Armageddon game: Black wins."""
    SCORE_SHEET_DIFFERENCES = "score_sheet_differences"
    """A score sheet differs from the board's record (FIDE Laws 8.1)."""
    MOVE_TIMER_WARNING = "move_timer_warning"
    """Checkers 2017 X.B.a/c: the move timer's warning."""
    MOVE_TIMER_FORFEIT = "move_timer_forfeit"
    """Checkers 2017 X.B.a/c: the move timer expired."""
    LATE_START_DRAW = "late_start_draw"
    """Checkers 2017 X.B.e: not started in time, drawn."""
    MATCH_FORFEIT = "match_forfeit"
    """Checkers 2017 X.A.b: a flag in a match's first game forfeits the second."""
    GATEWAY_DEAF = "gateway_deaf"
    """The gateway's probe through the broker does not come back: the broker delivers it nothing
    (issue 28; ``services.events.broker_link``)."""
    TIME_TROUBLE_IMPENDING = "time_trouble_impending"
    """Checkers 2017 X.A.d: five minutes or less."""
    MATCH_GAME_READY = "match_game_ready"
    """Checkers 2017 X.A.b: the match's second game is next."""
    PENALTY_PROPOSED = "penalty_proposed"
    """FIDE Laws 7.5.5, 9.5.3: a penalty to apply."""
    PENALTY_WITHDRAWN = "penalty_withdrawn"
    """FIDE Laws 7.5.1, A.5.2: a penalty proposal no longer due (the arbiter's, or an illegal move that stood)."""
    PENALTY_IN_DOUBT = "penalty_in_doubt"
    """FIDE Laws 7.5.1: a penalty proposal whose press may have been the replacement move's."""
    GAME_ENDED = "game_ended"
    """A game the Laws or the regulations ended that the arbiter must be told of (9.6, 6.9, 6.7)."""
    NOT_AT_BOARD = "not_at_board"
    """FIDE Laws 6.7.1: the round's players not at the board, and default losses."""


class AlertSeverity(StrEnum):
    """How urgent an alert is (docs/arbiter.md)."""

    ACTION = "action"
    """An arbiter must decide."""
    WARNING = "warning"
    """Look at it."""
    INFO = "info"
    """For the record."""


class AlertStatus(StrEnum):
    """Where an alert is (docs/arbiter.md)."""

    OPEN = "open"
    """Waiting for an arbiter."""
    RESOLVED = "resolved"
    """Closed by an arbiter's action, a later entry or the players."""
    LAPSED = "lapsed"
    """A claim whose position is gone (FIDE Laws 9.2: the claim is made on the move)."""
    WITHDRAWN = "withdrawn"
    """A penalty proposal the gateway withdrew (FIDE Laws 7.5.1)."""
    SUPERSEDED = "superseded"
    """Moot: its game's result is final (FIDE Laws 5, 6.9, 9: the game has ended), or a new round
    started after it (``services.views.alerts.MOOT_AT_END``)."""
