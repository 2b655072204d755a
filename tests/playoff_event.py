"""A seed event played to its last round with a tie for first, for the play-off tests (unit and
live): the tournament file's players and Berger pairings (events/*.toml), every game decisive by a
fixed rule so the final standings can be worked out by hand.

``norway_two_tied``: Norway Chess 2023 (events/norway-chess-2023.toml, 10 players, 9 rounds, "Win in
the classical game: 3 points"). Player 1 beats everyone but 2; player 2 beats everyone but 3; 3 beats
2; among 3..10 the higher start number wins. By hand: 1 and 2 have 8 wins = 24 points, 10 has 7 wins
= 21 (loses only to 1 and 2), 9 has 6 wins = 18, ... The first place is shared by 1 and 2; Direct
Encounter puts 2 first (he beat 1), so the play-off's order of the tie is (2, 1) and 2 has White in
the first blitz game.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from services.events import GameEnded, Termination
from services.events.game import EndedBy
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[1] / "events"


def winner(a: int, b: int, top: tuple[int, int, int] = (1, 2, 3)) -> int:
    """The rule of the module docstring: who wins the game between ``a`` and ``b``."""
    first, second, third = top
    pair = {a, b}
    if pair == {first, second}:
        return second
    if pair == {second, third}:
        return third
    for p in (first, second):
        if p in pair:
            return p
    return max(a, b)


def three_tied(a: int, b: int) -> int:
    """Three tied for first: 1 beats 2, 2 beats 3, 3 beats 1 (a cycle), each of them beats everyone
    else, and among the others the higher start number wins: 1, 2 and 3 have 8 wins of 9 each."""
    cycle = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    if frozenset((a, b)) in cycle:
        return cycle[frozenset((a, b))]
    for p in (1, 2, 3):
        if p in (a, b):
            return p
    return max(a, b)


def tied_top(n: int):
    """A rule for ``n`` tied for first: players 1..n draw with each other and beat everyone else;
    among the others the higher start number wins. Each of 1..n scores (n - 1) / 2 + (N - n)."""

    def rule(a: int, b: int) -> int | None:
        if a <= n and b <= n:
            return None
        if a <= n or b <= n:
            return min(a, b)
        return max(a, b)

    return rule


def tournament(name: str, slug: str):
    """The events/ file ``name`` with ``slug``; its rounds' schedule kept."""
    t = load_tournament((EVENTS / name).read_text(), name)
    return dataclasses.replace(t, slug=slug)


def main_event(t, rule=winner) -> list[tuple[str, dict]]:
    """``tournament_registered``, then each round's ``round_started`` and a ``game_ended`` per game by
    ``rule`` (:func:`winner`, :func:`three_tied`, :func:`tied_top`: the winner, None for a draw; the
    arbiter's results), round by round."""
    out: list[tuple[str, dict]] = [("tournament_registered", tournament_registered_data(t))]
    for rnd in range(1, t.rounds_total + 1):
        data = round_from_tournament(t, rnd)
        out.append(("round_started", data))
        for g in data["games"]:
            w, b = g["white_no"], g["black_no"]
            won = rule(w, b)
            result = "1/2-1/2" if won is None else "1-0" if won == w else "0-1"
            out.append(GameEnded(game=g["id"], board=g["board"], result=result, termination=Termination.ARBITER,
                                 by=EndedBy.ARBITER).encode())
    return out
