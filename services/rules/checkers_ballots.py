"""The ACF 3-move ballot deck and the draw of a ballot.

In 3-move play each game opens with a balloted first move of Black (Red), reply of White and second
move of Black; regulation X.A.d of the 11-Man National 2017: "Red's first balloted move is made
...". The deck is the ACF list of 3-move openings numbered 1-174, of which 156 are in play and 18
barred (``data/acf_3move_ballots.csv``, copied from ``../shared/data/checkers``; its sources are
in ``../shared/data/SOURCES.md``).

``draw_ballot`` is pure: the randomness is passed in (a seed or a ``random.Random``), so a draw can
be recorded in the event log and replayed exactly.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from importlib import resources

import msgspec

from services.events.match_setup import ThreeMoveBallot
from services.rules.checkers_game import CheckersGame

DECK_FILE = "acf_3move_ballots.csv"


@dataclass(frozen=True)
class Ballot:
    """One 3-move opening. ``number``: the ACF number (1-174); ``moves``: (Black's first move,
    White's reply, Black's second move) in numeric notation; ``in_deck``: True for the 156 openings
    in play, False for the 18 barred ones; ``flag``: "CROSSBOARD", "MAILPLAY" or "BARRED" (as in
    CheckerBoard's ACF table); ``name``: the traditional name or None; ``fen_after``: the position
    after the three moves as the source gives it (White to move; squares not sorted)."""

    number: int
    moves: tuple[str, str, str]
    in_deck: bool
    flag: str
    name: str | None
    fen_after: str

    def record(self) -> ThreeMoveBallot:
        """The ballot as a SETUP records it (``Setup.ballot``, X.A.d): number, moves and name."""
        return ThreeMoveBallot(ballot=self.number, moves=list(self.moves), name=self.name)

    def to_json(self) -> dict:
        """``{"ballot": number, "moves": [three moves], "name": name or None}`` for the event log
        (:meth:`record` as plain JSON: a new dict)."""
        return msgspec.to_builtins(self.record())


def load_deck(include_barred: bool = False) -> tuple[Ballot, ...]:
    """The shipped deck in ACF order: the 156 openings in play, or all 174 with ``include_barred``."""
    text = resources.files("services.rules.data").joinpath(DECK_FILE).read_text(encoding="utf-8")
    deck = []
    for row in csv.DictReader(io.StringIO(text)):
        ballot = Ballot(
            number=int(row["acf_no"]),
            moves=(row["black_1"], row["white_1"], row["black_2"]),
            in_deck=row["in_156_deck"] == "true",
            flag=row["checkerboard_flag"],
            name=row["traditional_name"] or None,
            fen_after=row["fen_after"],
        )
        if ballot.in_deck or include_barred:
            deck.append(ballot)
    return tuple(deck)


def draw_ballot(
    deck: Sequence[Ballot], rng_or_seed: random.Random | int | str, exclude: Collection[int] = ()
) -> Ballot:
    """Draw one ballot from ``deck`` uniformly, skipping the ballot numbers in ``exclude`` (those
    already used in the event). ``rng_or_seed``: a ``random.Random`` (its state advances) or a seed
    (int or str) for a fresh one; the same seed and deck always give the same ballot.

    Returns the ``Ballot`` (its ``number`` and ``moves`` are what is recorded). Raises ValueError
    when no ballot is left to draw, TypeError for any other kind of ``rng_or_seed``.
    """
    if isinstance(rng_or_seed, random.Random):
        rng = rng_or_seed
    elif isinstance(rng_or_seed, (int, str)) and not isinstance(rng_or_seed, bool):
        rng = random.Random(rng_or_seed)
    else:
        raise TypeError(f"rng_or_seed must be a random.Random, an int or a str, not {type(rng_or_seed).__name__}")
    used = set(exclude)
    left = [b for b in deck if b.number not in used]
    if not left:
        raise ValueError("no ballot left to draw: the deck is empty or every ballot is excluded")
    return left[rng.randrange(len(left))]


def start_game(ballot: Ballot) -> CheckersGame:
    """A new game with the ballot's three moves played (White to move). Raises
    ``base.MoveRefused`` if a move of the ballot is illegal (a corrupt deck)."""
    game = CheckersGame()
    for move in ballot.moves:
        game.play(move)
    return game
