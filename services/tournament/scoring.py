"""Points per round: the classical 1 / ½ / 0, forfeits, byes, and Norway Chess's 3-point system.

Pure. A :class:`Scoring` turns a TRF16 result code (from the player's side) into points. Defaults follow
FIDE C.04.1 (a pairing-allocated bye scores as a win unless the regulations say otherwise) and the
TRF16 codes: "1" "=" "0" played; "W" "D" "L" played, not rated; "+" "-" forfeit; "U" pairing-allocated
bye (PAB); "H" half-point bye; "F" full-point bye; "Z" zero-point bye; " " not played.

Norway Chess 2023 ("Points"):
    "Win in the classical game: 3 points / Loss in the classical game: 0 points /
     Draw in the classical game & win Armageddon: 1½ points / Draw in the main game & loss Armageddon:
     1 point" and "If the Armageddon game is drawn, black will win."
Its tie-breaks count only classical points ("For tie-breaks purpose, only points in classical games will
be counted"): :func:`norway_points` gives the standings points, :data:`CLASSICAL` the tie-break points.
"""

from __future__ import annotations

from dataclasses import dataclass

PLAYED_CODES = frozenset("10=WDL")
"""Codes of a game played over the board (C.07 Art. 16: everything else is an unplayed round)."""

VOLUNTARY_UNPLAYED_CODES = frozenset("-HZ ")
"""Codes of a voluntary unplayed round (VUR, C.07 Art. 16.2): forfeit loss, half- or zero-point bye,
absence. A PAB ("U"), a forfeit win ("+") and a full-point bye ("F") are not voluntary."""


@dataclass(frozen=True)
class Scoring:
    """Points for each TRF16 result code. Values in game points (floats: halves are exact).

    ``win`` "1"/"W", ``draw`` "="/"D", ``loss`` "0"/"L", ``forfeit_win`` "+", ``forfeit_loss`` "-",
    ``pab`` "U" (C.04.1: "as many points as a win, unless the regulations say otherwise"),
    ``half_bye`` "H", ``full_bye`` "F", ``zero_bye`` "Z", ``absent`` " ".
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    pab: float = 1.0
    half_bye: float = 0.5
    full_bye: float = 1.0
    zero_bye: float = 0.0
    absent: float = 0.0

    def points(self, code: str) -> float:
        """Points scored for the TRF result ``code``. Raises ValueError for an unknown code."""
        table = {
            "1": self.win, "W": self.win, "=": self.draw, "D": self.draw, "0": self.loss, "L": self.loss,
            "+": self.forfeit_win, "-": self.forfeit_loss, "U": self.pab, "H": self.half_bye,
            "F": self.full_bye, "Z": self.zero_bye, " ": self.absent,
        }
        try:
            return table[code]
        except KeyError:
            raise ValueError(f"unknown TRF result code {code!r}") from None

    def round_points(self, code: str, armageddon: str | None = None) -> tuple[float, float]:
        """(standings points, tie-break points) for one round; ``armageddon`` is ignored here.
        Raises ValueError for an unknown code."""
        p = self.points(code)
        return p, p


CLASSICAL = Scoring()
"""1 / ½ / 0, forfeit 1 / 0, PAB 1, half-point bye ½ (FIDE C.04.1, C.07)."""

PAB_HALF = Scoring(pab=0.5)
"""For events whose regulations give a pairing-allocated bye half a point."""

NORWAY_WIN = 3.0
NORWAY_ARMAGEDDON_WIN = 1.5
NORWAY_ARMAGEDDON_LOSS = 1.0
NORWAY_LOSS = 0.0


def norway_points(classical: str, armageddon: str | None = None) -> float:
    """Norway Chess 2023 points for one round, from the player's side.

    ``classical`` is "1", "0" or "=" (or "+"/"-": a forfeited classical game scores as a win/loss; the
    regulations do not say otherwise); ``armageddon`` is "1" or "0" from the same player's side, needed
    only after a classical draw. A drawn Armageddon is a win for Black ("If the Armageddon game is drawn,
    black will win"): report it as "1" for Black and "0" for White (see :func:`armageddon_winner`).

    Raises ValueError for an unknown code, or for a classical draw whose Armageddon has no result yet.
    """
    if classical in ("1", "+"):
        return NORWAY_WIN
    if classical in ("0", "-"):
        return NORWAY_LOSS
    if classical == "=":
        if armageddon == "1":
            return NORWAY_ARMAGEDDON_WIN
        if armageddon == "0":
            return NORWAY_ARMAGEDDON_LOSS
        raise ValueError("classical draw: the Armageddon result ('1' or '0') is needed (Norway Chess 2023)")
    raise ValueError(f"unknown classical result {classical!r}")


@dataclass(frozen=True)
class NorwayScoring(Scoring):
    """Norway Chess 2023: standings points by :func:`norway_points`, tie-break points 1 / ½ / 0 from
    the classical game only ("For tie-breaks purpose, only points in classical games will be counted")."""

    def round_points(self, code: str, armageddon: str | None = None) -> tuple[float, float]:
        """(Norway points, classical points). Raises ValueError as :func:`norway_points` does; a
        classical draw without an Armageddon result yet counts 1 point (the points it is sure of)
        only when ``armageddon`` is "*" (in progress)."""
        tb = CLASSICAL.points(code)
        if code not in "10=+-":
            return self.points(code), tb
        if code == "=" and armageddon == "*":
            return NORWAY_ARMAGEDDON_LOSS, tb
        return norway_points(code, armageddon), tb


NORWAY = NorwayScoring(win=NORWAY_WIN, draw=NORWAY_ARMAGEDDON_LOSS, loss=NORWAY_LOSS, forfeit_win=NORWAY_WIN,
                       forfeit_loss=NORWAY_LOSS, pab=NORWAY_WIN, half_bye=NORWAY_ARMAGEDDON_LOSS,
                       full_bye=NORWAY_WIN)
"""Norway Chess 2023 points (byes are not in its regulations; scored here as the nearest result)."""


def armageddon_winner(result: str) -> str:
    """"white" or "black" for an Armageddon game result "1-0", "0-1" or "1/2-1/2" (draw odds: a draw
    is a win for Black; Norway Chess 2023, US Championship 2013 and 2023). Raises ValueError otherwise."""
    if result == "1-0":
        return "white"
    if result in ("0-1", "1/2-1/2"):
        return "black"
    raise ValueError(f"unknown Armageddon result {result!r}")
