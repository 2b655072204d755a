"""The organiser's records of a TRF file that the Dutch pairing reads, besides the player lines.

- ``XXA NNNN pppp pppp ...``: virtual points (acceleration) of player NNNN per round, 4 columns each
  (bbpPairings / JaVaFo extension); ``250 mmmm gggg rrr RRR ffff llll`` (TRF-2026): game points
  ``gggg`` added to players ``ffff``-``llll`` from round ``rrr`` to ``RRR``;
- ``192 FIDE_DUTCH_2025_BAKU`` (or ``FIDE_DUTCH_BAKU``): Baku acceleration (C.04.7), when no
  acceleration is given by hand;
- ``XXP a b c ...``: players who must not meet each other in any round (forbidden pairs);
  ``260 rrr RRR aaaa bbbb ...`` (TRF-2026): the same from round ``rrr`` to ``RRR``;
- ``240 T rrr aaaa bbbb ...`` (TRF-2026): players with a bye of type T in round ``rrr``, i.e. not
  paired in it (requested byes).

Rounds are 1-based in the file. Points are in tenths. Every reader raises ValueError naming the
line it cannot read.
"""

from __future__ import annotations

from services.tournament.trf import TrfTournament


def _int(text: str, line: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"line not understood: {line!r}") from None


def _tenths(text: str, line: str) -> int:
    text = text.strip()
    if not text:
        return 0
    try:
        return round(float(text) * 10)
    except ValueError:
        raise ValueError(f"line not understood: {line!r}") from None


def _numbers(text: str, line: str) -> list[int]:
    return [_int(word, line) for word in text.split()]


def accelerations(t: TrfTournament) -> dict[int, list[int]] | None:
    """Virtual points (tenths) per player and 0-based round from XXA and 250 lines; None when the
    file gives none (then Baku acceleration may apply)."""
    out: dict[int, list[int]] = {}
    given = False
    for line in t.header:
        code = line[:3]
        if code == "XXA":
            given = True
            start_no = _int(line[4:8], line)
            values = out.setdefault(start_no, [])
            for pos in range(9, len(line.rstrip()), 5):
                values.append(_tenths(line[pos:pos + 4], line))
        elif code == "250":
            given = True
            if line[4:8].strip() and _tenths(line[4:8], line):
                raise ValueError(f"250 line: match points must be empty: {line!r}")
            points = _tenths(line[9:13], line)
            first_round, last_round = _int(line[14:17], line) - 1, _int(line[18:21], line) - 1
            first, last = _int(line[22:26], line), _int(line[27:31], line)
            if first_round > last_round or first > last or points == 0 or first_round < 0:
                raise ValueError(f"250 line not understood: {line!r}")
            for start_no in range(first, last + 1):
                values = out.setdefault(start_no, [])
                if len(values) < first_round:
                    values.extend([0] * (first_round - len(values)))
                for rnd in range(first_round, last_round + 1):
                    if rnd < len(values):
                        values[rnd] = points
                    else:
                        values.append(points)
    return out if given else None


def is_baku(t: TrfTournament) -> bool:
    """The tournament type (192 line) asks for Baku acceleration."""
    for line in t.header:
        if line[:3] == "192":
            return line[4:].strip() in ("FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU")
    return False


def forbidden_groups(t: TrfTournament, round_no: int) -> tuple[frozenset[int], ...]:
    """Groups of players who must not meet in round ``round_no`` (1-based): every XXP line, and the
    260 lines whose round range holds ``round_no``."""
    groups: list[frozenset[int]] = []
    for line in t.header:
        code = line[:3]
        if code == "XXP":
            groups.append(frozenset(_numbers(line[3:], line)))
        elif code == "260":
            first, last = _int(line[4:7], line), _int(line[8:11], line)
            if first <= round_no <= last:
                groups.append(frozenset(_numbers(line[12:], line)))
    return tuple(g for g in groups if len(g) > 1)


def requested_byes(t: TrfTournament, round_no: int) -> frozenset[int]:
    """Players with a 240 bye record for round ``round_no`` (1-based): not paired in it."""
    out: set[int] = set()
    for line in t.header:
        if line[:3] == "240" and len(line) > 9 and _int(line[6:9], line) == round_no:
            out.update(_numbers(line[10:], line))
    return frozenset(out)
