"""Chess game results and terminations: as PGN writes them, as points, and as TRF result codes.

Sources:
- PGN standard (Edwards 1994) section 8.1.1, Result tag: "1-0", "0-1", "1/2-1/2", "*" (unfinished).
- FIDE Handbook C.04 Annex 2 (TRF-16), player section, result of a round, one code per player:
  "1" win, "=" draw, "0" loss, "+" forfeit win, "-" forfeit loss (game not played).
- FIDE Laws of Chess: forfeit at the default time 6.7; the arbiter's penalties 12.9 (raising the
  opponent's score, reducing the offender's points, declaring the game lost), which give the special
  scores 0-0, ½-0 and 0-½.

A ``Score`` is the full result of one game: points per side, whether it was played, the PGN result
and each side's TRF code. ``SCORES`` lists every score the venue can record, keyed by ``code``:

| code      | meaning                                       | white | black | played | PGN      | TRF W/B |
|-----------|-----------------------------------------------|-------|-------|--------|----------|---------|
| "1-0"     | White won                                      | 1     | 0     | yes    | 1-0      | 1 / 0   |
| "0-1"     | Black won                                      | 0     | 1     | yes    | 0-1      | 0 / 1   |
| "1/2-1/2" | drawn                                          | ½     | ½     | yes    | 1/2-1/2  | = / =   |
| "+:-"     | White won by forfeit (no play)                 | 1     | 0     | no     | 1-0      | + / -   |
| "-:+"     | Black won by forfeit (no play)                 | 0     | 1     | no     | 0-1      | - / +   |
| "-:-"     | double forfeit, 0-0 without play               | 0     | 0     | no     | *        | - / -   |
| "0-0"     | arbiter: both lose (played)                    | 0     | 0     | yes    | *        | 0 / 0   |
| "1/2-0"   | arbiter: ½ to White, 0 to Black (played)       | ½     | 0     | yes    | *        | = / 0   |
| "0-1/2"   | arbiter: 0 to White, ½ to Black (played)       | 0     | ½     | yes    | *        | 0 / =   |

PGN cannot express the last four (its Result has only four values), so their PGN result is "*"
and the real score is carried by the ``Termination``/annotation of the writer.
Points are ``fractions.Fraction`` so sums are exact (½ + ½ == 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.events.vocabulary import GameResult, Termination
from services.rules.base import BLACK, WHITE

HALF = Fraction(1, 2)

PGN_RESULTS = (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW, GameResult.UNFINISHED)

# Termination words (Outcome.termination), with the FIDE Laws article they come from
# (services.events.vocabulary.Termination says each article in full).
CHECKMATE = Termination.CHECKMATE  # 5.1.1
STALEMATE = Termination.STALEMATE  # 5.2.1
FIVEFOLD_REPETITION = Termination.FIVEFOLD_REPETITION  # 9.6.1
SEVENTYFIVE_MOVES = Termination.SEVENTYFIVE_MOVES  # 9.6.2
INSUFFICIENT_MATERIAL = Termination.INSUFFICIENT_MATERIAL  # 5.2.2 dead position, by material alone
DEAD_POSITION = Termination.DEAD_POSITION  # 5.2.2 dead position otherwise (a blockade, a forced line)
TIME_FORFEIT = Termination.TIME_FORFEIT  # 6.9
AGREEMENT = Termination.AGREEMENT  # 5.2.3, 9.1
RESIGNATION = Termination.RESIGNATION  # 5.1.2
THREEFOLD_REPETITION = Termination.THREEFOLD_REPETITION  # 9.2
FIFTY_MOVES = Termination.FIFTY_MOVES  # 9.3
FORFEIT = Termination.FORFEIT  # 6.7 default time, or not played
ARBITER = Termination.ARBITER  # an arbiter's decision (e.g. 7.5.5, 12.9)
RESULT_SLIP = Termination.RESULT_SLIP  # 8.7: the players' result as they signed it on the slip
CLAIM_UPHELD = Termination.CLAIM_UPHELD  # 9.2, 9.3 (and the 40-move rule): a claim the arbiter upheld

TERMINATIONS = (
    CHECKMATE, STALEMATE, FIVEFOLD_REPETITION, SEVENTYFIVE_MOVES, INSUFFICIENT_MATERIAL,
    DEAD_POSITION, TIME_FORFEIT, AGREEMENT, RESIGNATION, THREEFOLD_REPETITION, FIFTY_MOVES, FORFEIT,
    ARBITER, RESULT_SLIP, CLAIM_UPHELD,
)
DECISIVE_TERMINATIONS = (CHECKMATE, RESIGNATION)  # always a win for one side
DRAWN_TERMINATIONS = (
    STALEMATE, FIVEFOLD_REPETITION, SEVENTYFIVE_MOVES, INSUFFICIENT_MATERIAL, DEAD_POSITION,
    AGREEMENT, THREEFOLD_REPETITION, FIFTY_MOVES, CLAIM_UPHELD,
)

# How PGN's Termination tag words them (PGN standard 9.8.1 values, lichess-style detail).
PGN_TERMINATION: dict[str, str] = {
    CHECKMATE: "normal", STALEMATE: "normal", FIVEFOLD_REPETITION: "normal",
    SEVENTYFIVE_MOVES: "normal", INSUFFICIENT_MATERIAL: "normal", DEAD_POSITION: "normal",
    AGREEMENT: "normal",
    RESIGNATION: "normal", THREEFOLD_REPETITION: "normal", FIFTY_MOVES: "normal",
    TIME_FORFEIT: "time forfeit", FORFEIT: "rules infraction", ARBITER: "adjudication",
    RESULT_SLIP: "normal", CLAIM_UPHELD: "normal",
}


@dataclass(frozen=True)
class Score:
    """One game's score. ``code``: key in ``SCORES``; ``white``/``black``: points (Fraction);
    ``played``: False for forfeits without play (they count for neither side's games played);
    ``pgn``: the PGN Result value; ``trf_white``/``trf_black``: TRF-16 result codes."""

    code: str
    white: Fraction
    black: Fraction
    played: bool
    pgn: str
    trf_white: str
    trf_black: str

    def points(self, side: str) -> Fraction:
        """Points of ``side`` ("white"/"black"); ValueError for anything else."""
        if side == WHITE:
            return self.white
        if side == BLACK:
            return self.black
        raise ValueError(f"not a side: {side!r}")

    def trf(self, side: str) -> str:
        """TRF-16 result code of ``side`` ("white"/"black"); ValueError for anything else."""
        if side == WHITE:
            return self.trf_white
        if side == BLACK:
            return self.trf_black
        raise ValueError(f"not a side: {side!r}")

    @property
    def winner(self) -> str | None:
        """"white", "black" or None (draw, double loss, or an unequal split with no winner)."""
        if self.white == 1 and self.black == 0:
            return WHITE
        if self.black == 1 and self.white == 0:
            return BLACK
        return None


_ONE, _ZERO = Fraction(1), Fraction(0)

SCORES: dict[str, Score] = {
    s.code: s
    for s in (
        Score("1-0", _ONE, _ZERO, True, "1-0", "1", "0"),
        Score("0-1", _ZERO, _ONE, True, "0-1", "0", "1"),
        Score("1/2-1/2", HALF, HALF, True, "1/2-1/2", "=", "="),
        Score("+:-", _ONE, _ZERO, False, "1-0", "+", "-"),
        Score("-:+", _ZERO, _ONE, False, "0-1", "-", "+"),
        Score("-:-", _ZERO, _ZERO, False, "*", "-", "-"),
        Score("0-0", _ZERO, _ZERO, True, "*", "0", "0"),
        Score("1/2-0", HALF, _ZERO, True, "*", "=", "0"),
        Score("0-1/2", _ZERO, HALF, True, "*", "0", "="),
    )
}

# Other spellings accepted on input (½ sign, TRF pairs, "0-0" forfeits written with F).
_ALIASES = {
    "½-½": "1/2-1/2", "=-=": "1/2-1/2", "+-": "+:-", "-+": "-:+", "--": "-:-",
    "+/-": "+:-", "-/+": "-:+", "½-0": "1/2-0", "0-½": "0-1/2",
}


def score(code: str) -> Score:
    """The ``Score`` for a result code (any key of ``SCORES`` or an accepted alias such as "½-½").
    Raises ValueError naming the code and the accepted ones (e.g. for "*", which is no score)."""
    text = code.strip() if isinstance(code, str) else code
    text = _ALIASES.get(text, text)
    try:
        return SCORES[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a result: {code!r} (expected one of {', '.join(SCORES)})") from None


def result_for_winner(side: str | None) -> GameResult:
    """"1-0" when ``side`` is "white", "0-1" for "black", "1/2-1/2" for None (a draw)."""
    if side is None:
        return GameResult.DRAW
    if side == WHITE:
        return GameResult.WHITE_WINS
    if side == BLACK:
        return GameResult.BLACK_WINS
    raise ValueError(f"not a side: {side!r}")


def check_outcome(result: str, termination: str) -> Score:
    """Validate a (result, termination) pair before a game is ended with it; returns the Score.

    Raises ValueError when the termination word is unknown, when a decisive termination
    (checkmate, resignation) comes with a result that is not a win, when a drawing termination
    (stalemate, repetition, 50/75 moves, dead position, agreement) comes with one that is not a draw,
    or when a forfeit score without play (+/-) is given with a termination other than "forfeit" or
    "arbiter". Time forfeits may be wins or draws (FIDE Laws 6.9)."""
    sc = score(result)
    if termination not in TERMINATIONS:
        raise ValueError(f"not a termination: {termination!r} (expected one of {', '.join(TERMINATIONS)})")
    if termination in DECISIVE_TERMINATIONS and sc.code not in ("1-0", "0-1"):
        raise ValueError(f"{termination} needs a win (1-0 or 0-1), not {result!r}")
    if termination in DRAWN_TERMINATIONS and sc.code != "1/2-1/2":
        raise ValueError(f"{termination} is a draw (1/2-1/2), not {result!r}")
    if termination == TIME_FORFEIT and sc.code not in ("1-0", "0-1", "1/2-1/2"):
        raise ValueError(f"a flag fall scores 1-0, 0-1 or 1/2-1/2 (FIDE Laws 6.9), not {result!r}")
    if not sc.played and termination not in (FORFEIT, ARBITER):
        raise ValueError(f"{result!r} is a score without play: its termination is 'forfeit' or 'arbiter'")
    return sc
