"""One pairing of one round as the tournament fold keeps it, and how log results map onto it. Pure.

A :class:`GameRecord` is a hall game (``round_started`` SETUP) between two start numbers, or a bye.
Its ``result`` is a :class:`~services.tournament.results.GameResult` code: "1-0", "0-1", "1/2-1/2"
played; "+-", "-+", "--" forfeits (unplayed: FIDE Laws 6.7.1 default, arbiter's forfeit; field case
F10 (d) for "--"); "*" not finished; byes "U" (pairing-allocated), "H", "F", "Z". ``special`` holds an
arbiter's special score ("1/2-0", "0-1/2", "0-0" played; docs/arbiter.md ``set_result``).
``armageddon``: the result of the Armageddon game that followed a drawn classical game (Norway
Chess 2023), "*" while it is being played. ``second``: the result of a checkers match's second game
(11-Man National 2017: two games per match, colours reversed), written from this record's White's
side (game 1's colours) as a GameResult code, "*" while it is not finished; each game scores as a
game, so the round's points are the two games' together (``services.tournament.results``).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.arbiter_office.tournament_rank import SPECIAL_SCORES
from services.tournament.results import GameResult

PLAYED = ("1-0", "0-1", "1/2-1/2")
FORFEITS = {"1-0": "+-", "0-1": "-+", "0-0": "--"}
BYE_CODES = ("U", "H", "F", "Z")


def result_code(result: str, forfeit: bool) -> tuple[str, str | None] | None:
    """``(GameResult code, special score or None)`` for a logged ``result`` and ``forfeit`` flag;
    None when the pair is not a result (e.g. "2-0", or a forfeit written "1/2-1/2")."""
    if result == "½-½":
        result = "1/2-1/2"
    if forfeit:
        return (FORFEITS[result], None) if result in FORFEITS else None
    if result in PLAYED or result == "*":
        return result, None
    if result in SPECIAL_SCORES:
        return "*", result
    return None


@dataclass
class GameRecord:
    """A pairing: ``id`` (the log's game id, "" for a bye), ``round``, ``board`` (hall board, "" for a
    bye), ``white``/``black`` start numbers (``black`` None for a bye), ``result``/``special``/
    ``armageddon`` (module docstring), ``kind`` (classical, rapid, ...), ``armageddon_id`` (the id of
    the Armageddon game that follows it, when scheduled), ``second``/``second_id``: a checkers
    match's second game (module docstring)."""

    id: str
    round: int
    board: str
    white: int
    black: int | None
    result: str = "*"
    special: str | None = None
    armageddon: str | None = None
    kind: str = "classical"
    armageddon_id: str | None = None
    second: str | None = None
    second_id: str | None = None

    @property
    def finished(self) -> bool:
        """A result (or special score) is recorded, for both games of a match."""
        return (self.result != "*" or self.special is not None) and self.second != "*"

    def set_result(self, code: str, special: str | None) -> None:
        """Record a result from :func:`result_code`; "*" reopens the game (the arbiter overruled the
        ending, FIDE Laws 6.7.1 "unless the arbiter decides otherwise") and clears a special score."""
        self.result = code
        self.special = special

    def forfeited_by(self) -> list[int | None]:
        """Start numbers that lost this game (or the match's second game) by forfeit ("+-": Black,
        "-+": White, "--": both; ``black`` as it is, None for a bye)."""
        table: dict[str, list[int | None]] = {"+-": [self.black], "-+": [self.white], "--": [self.white, self.black]}
        return list(dict.fromkeys(table.get(self.result, []) + table.get(self.second or "", [])))

    def as_result(self, provisional: str | None = None) -> tuple[GameResult, str | None]:
        """``(GameResult, special)`` for ``services.arbiter_office.tournament_rank``; ``provisional`` is the
        result assumed for an unfinished game in provisional standings."""
        # a special score is stored as a placeholder draw that tournament_rank.build_field replaces
        result = "1/2-1/2" if self.special else self.result
        arm = self.armageddon if result == "1/2-1/2" and not self.special else None
        if provisional is not None and arm == "*":
            arm = provisional  # an Armageddon game in progress, read like any unfinished game
        pro = provisional if self.result == "*" and self.special is None else None
        second = provisional if provisional is not None and self.second == "*" else self.second
        return GameResult(self.round, self.white, self.black, result, arm, pro, second), self.special
