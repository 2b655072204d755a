"""A small rated event for the live FIDE rating changes' tests (tests/unit/test_rating_change.py,
tests/browser/test_rating_changes.py): four players, a round robin of three rounds, one game won by
forfeit. The changes each player's row must show, worked by hand from the FIDE Rating Regulations
effective from 1 March 2024 (the 8.1.2 table, 8.3.1-8.3.3), are in ``CHANGES``; the working is in
tests/unit/test_rating_change.py."""

from __future__ import annotations

PLAYERS = {1: ("A", 2450), 2: ("B", 2300), 3: ("C", 2150), 4: ("D", 1950)}  # start number -> name, rating
ROUNDS = {1: [("A", "D", "1-0", False), ("B", "C", "1/2-1/2", False)],
          2: [("A", "C", "1/2-1/2", False), ("D", "B", "0-1", False)],
          3: [("A", "B", "0-1", False), ("C", "D", "1-0", True)]}  # white, black, result, forfeit
CHANGES = {"A": "-9.7", "B": "+12.2", "C": "+11.0", "D": "-3.8"}


def _round_pgn(round_no: int, pairs) -> str:
    elo = dict(PLAYERS.values())
    return "".join(f'[Event "Rating test"]\n[Site "?"]\n[Date "2024.03.01"]\n[Round "{round_no}"]\n'
                   f'[Board "{b}"]\n[White "{w}"]\n[Black "{k}"]\n[WhiteElo "{elo[w]}"]\n[BlackElo "{elo[k]}"]\n'
                   f'[Result "*"]\n\n*\n\n' for b, (w, k) in enumerate(pairs, start=1))


def entries(at: int = 1_709_251_200_000) -> list[tuple[str, dict, int]]:
    """``round_started`` (the players' ratings from the PGN Elo tags) and ``game_ended`` per game."""
    from services.events import GameEnded, RoundStarted
    from services.arbiter_office.setup import round_from_pgn

    items: list[tuple[str, dict, int]] = []
    for r, games in ROUNDS.items():
        setup = round_from_pgn(_round_pgn(r, [(w, b) for w, b, _, _ in games]))
        items.append((RoundStarted.TYPE, setup, at))
        for g, (_, _, result, forfeit) in zip(setup["games"], games):
            ended = GameEnded(game=g["id"], result=result, board=g["board"], forfeit=forfeit, by="arbiter")
            items.append((*ended.encode(), at + 1))
        at += 86_400_000
    return items
