"""The arbiter's fixed penalties for a completed illegal move (FIDE Laws 7.5.5) and an incorrect
draw claim (9.5.3), by the time class of the game (Appendices A and B), as pure functions.

The text of the FIDE Laws of Chess taking effect from 1 January 2023 (FIDE Handbook E.01,
handbook.fide.com/chapter/E012023; the 2023 Arbiters' Manual prints the same text, pp. 28, 40-42):

- 7.5.5: "After the action taken under Article 7.5.1, 7.5.2, 7.5.3 or 7.5.4 for the first completed
  illegal move by a player, the arbiter shall give two minutes extra time to his/her opponent; for
  the second completed illegal move by the same player the arbiter shall declare the game lost by
  this player. However, the game is drawn if the position is such that the opponent cannot
  checkmate the player's king by any possible series of legal moves." (7.5.3: a clock press without
  a move, and 7.5.4: a move made with two hands, are "penalised as if an illegal move".)
- 9.5.3: "If the claim is found to be incorrect, the arbiter shall add two minutes to the
  opponent's remaining thinking time. Then the game shall continue."
- A.1 (rapid): "either all the moves must be completed in a fixed time of more than 10 minutes but
  less than 60 minutes for each player; or the time allotted plus 60 times any increment is of more
  than 10 minutes but less than 60 minutes for each player."
- A.3: "The penalties mentioned in Articles 7 and 9 of the Competitive Rules of Play shall be one
  minute instead of two minutes." It stands on its own in Appendix A, so it holds in every rapid
  game, under A.4 (the Competitive Rules apply: one arbiter for at most three games) or A.5.
- B.1 (blitz): "all the moves must be completed in a fixed time of 10 minutes or less for each
  player; or the allotted time plus 60 times any increment is 10 minutes or less".
- B.2: "The Competitive Rules of Play shall apply if: B.2.1 one arbiter supervises one game and
  B.2.2 each game is recorded ..." (two minutes, as in 7.5.5 and 9.5.3); B.3: "Otherwise, play
  shall be governed by the Rapid chess Laws as in Article A.2, A.3 and A.5." (one minute); B.4: the
  event's regulations say which applies.
- A.5.2 (rapid under A.5, blitz under B.3): "If the opponent does not claim and the arbiter does not
  intervene, the illegal move shall stand and the game shall continue. Once the opponent has made
  his/her next move, an illegal move cannot be corrected unless this is agreed by the players
  without intervention of the arbiter."

The 2023 text was read in two independent transcriptions of it (the rulebook of
richelbilderbeek/conquer_chess, and a citation catalogue that checks the Arbiters' Manual 2025
wording page by page), which agree on every article quoted here. Whether the game is then lost or
drawn (7.5.5, last sentence) is the rules core's question: ``ChessGame.illegal_move_loss``.
"""

from __future__ import annotations

from dataclasses import dataclass

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
TIME_CLASSES = (STANDARD, RAPID, BLITZ)
ILLEGAL_MOVE, INCORRECT_CLAIM = "illegal_move", "incorrect_claim"
KINDS = (ILLEGAL_MOVE, INCORRECT_CLAIM)
# Which part of the appendix an event's regulations chose (A.6, B.4); None for standard play.
APPENDIX_RULES = {STANDARD: (None,), RAPID: ("A.4", "A.5"), BLITZ: ("B.2", "B.3")}

TWO_MINUTES_MS = 120_000
ONE_MINUTE_MS = 60_000
TEN_MINUTES_MS = 600_000
SIXTY_MINUTES_MS = 3_600_000


@dataclass(frozen=True)
class Penalty:
    """The penalty for one offence: ``add_ms`` (ms added to the opponent's remaining time; 0 when
    the game is lost), ``game_lost`` (the arbiter declares the game lost by the offender, unless the
    opponent cannot checkmate by any possible series of legal moves: 7.5.5), ``law`` (the articles
    that decide it) and ``reason`` (one sentence for the arbiter's log)."""

    kind: str
    offence_no: int
    add_ms: int
    game_lost: bool
    law: str
    reason: str

    def to_json(self) -> dict:
        """``{"kind", "offence_no", "add_ms", "game_lost", "law", "reason"}``."""
        return {"kind": self.kind, "offence_no": self.offence_no, "add_ms": self.add_ms,
                "game_lost": self.game_lost, "law": self.law, "reason": self.reason}


def time_class(time_ms: int, increment_ms: int = 0, periods: int = 1) -> str:
    """The time class of a game under FIDE Laws A.1 and B.1: ``time_ms`` + 60 x ``increment_ms``
    (per player) of 10 minutes or less is blitz, more than 10 and less than 60 minutes rapid, else
    standard. A control of more than one period (e.g. 40 moves in 90 minutes, then 30 minutes) is
    standard: A.1 and B.1 speak of all the moves in one fixed time. Raises ValueError for a
    negative time or increment, or fewer than one period."""
    if time_ms < 0 or increment_ms < 0:
        raise ValueError(f"time and increment must not be negative, got {time_ms}, {increment_ms}")
    if periods < 1:
        raise ValueError(f"a control has at least one period, got {periods}")
    if periods > 1:
        return STANDARD
    total = time_ms + 60 * increment_ms
    if total <= TEN_MINUTES_MS:
        return BLITZ
    if total < SIXTY_MINUTES_MS:
        return RAPID
    return STANDARD


def penalty(kind: str, offence_no: int, game_class: str = STANDARD, appendix: str | None = None) -> Penalty:
    """The penalty for the ``offence_no``-th (from 1) offence of ``kind`` by one player in one game:
    ``ILLEGAL_MOVE`` (a completed illegal move, a press without a move, a two-handed move: 7.5.1 -
    7.5.5) or ``INCORRECT_CLAIM`` (9.5.3). ``game_class``: ``STANDARD``, ``RAPID`` or ``BLITZ``;
    ``appendix``: for blitz, "B.2" or "B.3" (B.4: the event's regulations say which; it decides the
    time), for rapid "A.4" or "A.5" (the time is the same under both, A.3), None for standard.

    Illegal move: the first gives the opponent two minutes (7.5.5), one in rapid (A.3) and in blitz
    under B.3 (which applies A.3); the second loses the game (7.5.5, in every class: A.5.2 applies
    7.5.5 too). Incorrect claim: every one gives the opponent two minutes (9.5.3), one minute in
    rapid and blitz under B.3 (A.3); it never loses the game by itself.

    Raises ValueError for an unknown kind, class or appendix part (or a missing one in blitz), or an
    offence number below 1."""
    if kind not in KINDS:
        raise ValueError(f"not a penalty kind: {kind!r} (expected one of {', '.join(KINDS)})")
    if game_class not in TIME_CLASSES:
        raise ValueError(f"not a time class: {game_class!r} (expected one of {', '.join(TIME_CLASSES)})")
    if game_class == RAPID and appendix is None:
        appendix = "A.5"  # the same time under A.4 and A.5 (A.3)
    if appendix not in APPENDIX_RULES[game_class]:
        raise ValueError(f"{game_class}: the appendix part must be one of {APPENDIX_RULES[game_class]}, "
                         f"got {appendix!r} (FIDE Laws A.6, B.4: the event's regulations say which)")
    if not isinstance(offence_no, int) or isinstance(offence_no, bool) or offence_no < 1:
        raise ValueError(f"offences count from 1, got {offence_no!r}")
    minute = game_class == RAPID or appendix == "B.3"
    add_ms = ONE_MINUTE_MS if minute else TWO_MINUTES_MS
    time_law = {RAPID: ", A.3", BLITZ: ", B.3, A.3" if minute else ", B.2"}.get(game_class, "")
    words = "one minute" if minute else "two minutes"
    if kind == INCORRECT_CLAIM:
        return Penalty(kind, offence_no, add_ms, False, "FIDE Laws 9.5.3" + time_law,
                       f"incorrect claim: {words} added to the opponent's remaining time")
    if offence_no == 1:
        return Penalty(kind, offence_no, add_ms, False, "FIDE Laws 7.5.5" + time_law,
                       f"first completed illegal move: {words} extra time to the opponent")
    appendix_law = {RAPID: ", A.5.2" if appendix == "A.5" else "", BLITZ: ", A.5.2" if minute else ""}
    return Penalty(kind, offence_no, 0, True, "FIDE Laws 7.5.5" + appendix_law.get(game_class, ""),
                   f"completed illegal move number {offence_no} by the same player: the game is lost, "
                   "unless the opponent cannot checkmate by any possible series of legal moves")


def illegal_move_stands(game_class: str, appendix: str | None, opponent_moved: bool) -> bool:
    """Whether a completed illegal move noticed only now stands (is kept in the record, flagged,
    and not corrected): in rapid under A.5 and blitz under B.3 once the opponent has made his/her
    next move (A.5.2); never in standard play or under A.4/B.2, where the position before the
    irregularity is reinstated whenever it is found during the game (7.5.1). Raises ValueError as
    ``penalty`` does for a bad class or appendix part."""
    if game_class not in TIME_CLASSES:
        raise ValueError(f"not a time class: {game_class!r}")
    if game_class == RAPID and appendix is None:
        raise ValueError("rapid: the appendix part (A.4 or A.5) decides whether an illegal move stands")
    if appendix not in APPENDIX_RULES[game_class]:
        raise ValueError(f"{game_class}: the appendix part must be one of {APPENDIX_RULES[game_class]}, "
                         f"got {appendix!r}")
    return opponent_moved and appendix in ("A.5", "B.3")
