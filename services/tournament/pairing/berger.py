"""Round-robin pairings by the Berger tables (FIDE Handbook C.05, Annex 1).

Pairing numbers 1..n. With an odd number of players a dummy n+1 is added; the player paired with it
has a bye that round (C.05 Annex 1: "if there is an odd number of players, the highest number counts
as a bye"). Each round is a list of boards ``(white, black)``; with a dummy, the board with the bye
is ``(player, None)`` (placed where the table has it).

The tables are generated, not stored: for n even and m = n - 1, in round r the players 1..m sit on a
ring; the white players of boards 2..n/2 are s, s+1, ... and their opponents s-2, s-3, ... (mod m),
where s = 2 + (r - 1)·n/2 (mod m); player n meets s - 1, with black in odd rounds and white in even
ones. This reproduces the published tables (e.g. 10 players, round 2: 10-6, 7-5, 8-4, 9-3, 1-2).
"""

from __future__ import annotations

Board = tuple[int, int | None]
"""(white, black) pairing numbers; black None: white has the bye."""


def _wrap(x: int, m: int) -> int:
    return (x - 1) % m + 1


def berger_round(n: int, rnd: int) -> list[Board]:
    """The boards of round ``rnd`` (1-based) of a single round robin of ``n`` players.

    Raises ValueError when n < 2 or rnd is outside 1..(number of rounds).
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    size = n + (n & 1)
    m = size - 1
    if not 1 <= rnd <= m:
        raise ValueError(f"round {rnd} does not exist: {n} players play {m} rounds")
    half = size // 2
    s = _wrap(2 + (rnd - 1) * half, m)
    first = _wrap(s - 1, m)
    boards: list[tuple[int, int]] = [(first, size) if rnd & 1 else (size, first)]
    for k in range(2, half + 1):
        boards.append((_wrap(s + k - 2, m), _wrap(s - k, m)))
    if size == n:
        return list(boards)
    out: list[Board] = []
    for white, black in boards:
        if white == size:
            out.append((black, None))
        elif black == size:
            out.append((white, None))
        else:
            out.append((white, black))
    return out


def berger_schedule(n: int, cycles: int = 1) -> list[list[Board]]:
    """Every round of a round robin of ``n`` players over ``cycles`` (1 or 2) cycles.

    Double round robin (C.05 Annex 1): the first cycle plays the table with its last two rounds in
    reverse order (so that nobody gets the same colour three times running across the two cycles);
    the second cycle plays the table in order with colours reversed. Raises ValueError for n < 2 or
    cycles not 1 or 2.
    """
    if cycles not in (1, 2):
        raise ValueError(f"cycles must be 1 or 2, got {cycles}")
    rounds = [berger_round(n, r) for r in range(1, n + (n & 1))]
    if cycles == 1:
        return rounds
    first = rounds[:-2] + [rounds[-1], rounds[-2]] if len(rounds) >= 2 else list(rounds)
    second: list[list[Board]] = [[(b, w) if b is not None else (w, None) for w, b in rnd] for rnd in rounds]
    return first + second


def schedule_by_player(n: int, numbers: dict[str, int], cycles: int = 1) -> list[list[tuple[str, str | None]]]:
    """The schedule with players' names: ``numbers`` maps each player to his pairing number (from a
    drawing of lots or a choice, see :mod:`.lots`). Raises ValueError when the numbers are not
    exactly 1..n."""
    if sorted(numbers.values()) != list(range(1, n + 1)):
        raise ValueError(f"pairing numbers must be 1..{n}, each once")
    name = {v: k for k, v in numbers.items()}
    return [
        [(name[w], None if b is None else name[b]) for w, b in rnd]
        for rnd in berger_schedule(n, cycles)
    ]
