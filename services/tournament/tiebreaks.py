"""Tie-breaks (FIDE C.07) in the order an event's regulations give, and the rank they produce.

Pure. Entry point :func:`compute_tiebreaks`::

    table = compute_tiebreaks(field, ["PTS", "DE", "BPG", "KS", "SB", "WON"], round_robin=True)
    table.rows  -> [TieBreakRow(start_no, rank, values={"PTS": 3.0, "DE": 0, ...}), ...] in rank order

Tie-break names (C.07 acronyms; modifiers after "/"):

==========  =====================================================================  =============
name        meaning                                                                C.07
==========  =====================================================================  =============
PTS         points (the event's scoring)                                           Art. 5 (verify)
DE          Direct Encounter, rank among the still tied, 0 = not separated         Art. 6
WIN WON     rounds scored as a win / games won over the board                      Art. 7.1, 7.2
BPG BWG     games played / won with Black                                          Art. 7.3, 7.4
BH          Buchholz; BH/C1 Cut-1, BH/M1 Median-1, BH/C2, BH/M2, ...               Art. 8 (verify), 14
SB          Sonneborn-Berger (SB/C1 ... as for BH)                                 Art. 9 (verify), 14
KS          Koya System; KS/L-1, KS/L-2: Koya Extended (limit -½, -1 point);       Art. 9 (verify)
            KSX = KS/L-1
ARO         Average Rating of Opponents (ARO/C1 ... as for BH)                     Art. 10 (verify)
LOT         a recorded drawing of lots (``lots``: start number -> lot, lowest wins)  Art. 12 (verify)
==========  =====================================================================  =============

Article numbers other than 6, 7, 14 and 16 are given as "(verify)": their meaning is certain, their
exact number in the March-2026 text was not checked. Unplayed rounds follow C.07 Art. 16 in the
chosen ``edition`` ("2026", default, or "2024").
Ranks: players equal on every tie-break so far share a rank (1, 2, 2, 4, ...); each tie-break only
orders players that are still tied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field as dc_field

from services.tournament.buchholz import buchholz
from services.tournament.direct_encounter import direct_encounter
from services.tournament.game_counts import black_played, black_won, wins, won
from services.tournament.koya import koya
from services.tournament.model import Field
from services.tournament.rating_average import average_rating_of_opponents
from services.tournament.unplayed import EDITIONS

Value = float | int | None

_SPEC = re.compile(r"^(PTS|DE|WIN|WON|BPG|BWG|BH|SB|KS|KSX|ARO|LOT)((?:/(?:C\d+|M\d+|L[+-]?\d+))*)$")

DECIMALS = {"PTS": 1, "BH": 1, "KS": 1, "KSX": 1, "SB": 2}
"""Printed decimals per tie-break, as in ../shared/data/tiebreaks (others are whole numbers)."""

LOWER_IS_BETTER = frozenset({"DE", "LOT"})

REGULATION_TIEBREAKS: dict[str, list[str]] = {
    # us-championship-2023.txt, 6.: "1. Direct Encounter, 2. Most Blacks, 3. Koya System,
    # 4. Sonneborn Berger, 5. Won Games"
    "us-2023": ["PTS", "DE", "BPG", "KS", "SB", "WON"],
    # us-championship-2013.txt, Playoff Regulations: "1. Direct Encounter (if applicable) 2. Most Blacks
    # 3. Sonneborn-Berger 4. Won Games"
    "us-2013": ["PTS", "DE", "BPG", "SB", "WON"],
    # norway-chess-2023.txt: "1. Direct Encounter 2. Sonneborn-Berger 3. Koya System 4. The Koya System
    # Extended 5. Drawing of [lots]"; classical points only (scoring.NORWAY)
    "norway-2023": ["PTS", "DE", "SB", "KS", "KSX", "LOT"],
}
"""The tie-breaks of each event's regulations, in their order (PTS first)."""


@dataclass(frozen=True)
class TieBreakSpec:
    """A parsed tie-break name: ``name`` (base acronym), ``cut_low``/``cut_high`` (Cut-n, Median-n),
    ``limit_offset`` (Koya Extended, in points), ``text`` (as given, upper-case)."""

    text: str
    name: str
    cut_low: int = 0
    cut_high: int = 0
    limit_offset: float = 0.0

    @property
    def decimals(self) -> int:
        """Decimals to print this tie-break with."""
        return DECIMALS.get(self.name, 0)


def parse_spec(text: str) -> TieBreakSpec:
    """Parse "BH/C1", "SB", "KS/L-1", ... Raises ValueError naming the unknown tie-break or modifier."""
    t = text.strip().upper()
    m = _SPEC.match(t)
    if not m:
        raise ValueError(f"unknown tie-break {text!r} (known: PTS, DE, WIN, WON, BPG, BWG, BH, SB, KS, KSX, ARO, "
                         "LOT; modifiers /Cn, /Mn, /L-n)")
    name = m.group(1)
    spec = TieBreakSpec(t, name, limit_offset=-0.5 if name == "KSX" else 0.0)
    for mod in filter(None, m.group(2).split("/")):
        kind, num = mod[0], int(mod[1:])
        if kind in "CM" and name not in ("BH", "SB", "ARO"):
            raise ValueError(f"tie-break {text!r}: /{mod} applies to BH, SB and ARO only")
        if kind == "L" and name not in ("KS", "KSX"):
            raise ValueError(f"tie-break {text!r}: /{mod} applies to KS only")
        if kind == "C":
            spec = TieBreakSpec(t, name, num, spec.cut_high, spec.limit_offset)
        elif kind == "M":
            spec = TieBreakSpec(t, name, num, num, spec.limit_offset)
        else:
            spec = TieBreakSpec(t, name, spec.cut_low, spec.cut_high, num * 0.5)
    return spec


@dataclass
class TieBreakRow:
    """One player: start number, rank after all tie-breaks, and each tie-break's value by its name."""

    start_no: int
    rank: int
    values: dict[str, Value] = dc_field(default_factory=dict)


@dataclass
class TieBreakTable:
    """The tie-breaks in order and the players in rank order (equal ranks by start number)."""

    specs: list[TieBreakSpec]
    rows: list[TieBreakRow]

    def by_start_no(self) -> dict[int, TieBreakRow]:
        """Rows keyed by start number."""
        return {r.start_no: r for r in self.rows}


def _rerank(order: list[int], ranks: dict[int, int], key: Callable[[int], tuple]) -> list[int]:
    """Order players by (previous rank, ``key``) and give equal ranks to those still equal."""
    order = sorted(order, key=lambda s: (ranks[s], key(s), s))
    new: dict[int, int] = {}
    for i, s in enumerate(order):
        pos = i + 1
        # a player whose old rank is his position starts a new group of previously tied players
        if i == 0 or ranks[s] == pos or key(s) != key(order[i - 1]):
            new[s] = pos
        else:
            new[s] = new[order[i - 1]]
    ranks.update(new)
    return order


def compute_tiebreaks(field: Field, specs: Sequence[str | TieBreakSpec], *, round_robin: bool,
                      edition: str = "2026", lots: Mapping[int, int] | None = None,
                      win: float = 1.0, draw: float = 0.5) -> TieBreakTable:
    """Compute ``specs`` in order and rank the players by them.

    ``round_robin`` selects the round-robin treatment of unplayed rounds and DE; ``edition`` the C.07
    text ("2026" or "2024"); ``lots`` the recorded drawing of lots for LOT; ``win``/``draw`` the values
    of a win and a draw in tie-break points. Raises ValueError for an unknown tie-break or edition.
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown C.07 edition {edition!r} (known: {', '.join(EDITIONS)})")
    parsed = [s if isinstance(s, TieBreakSpec) else parse_spec(s) for s in specs]
    players = list(field.players)
    ranks = {s: 1 for s in players}
    order = sorted(players)
    values: dict[int, dict[str, Value]] = {s: {} for s in players}
    for spec in parsed:
        vals = _compute_one(field, spec, ranks, round_robin, edition, lots, win, draw)
        sign = 1 if spec.name in LOWER_IS_BETTER else -1
        for s in players:
            values[s][spec.text] = vals[s]

        def key(s: int) -> tuple[bool, float]:  # a missing value ranks last
            v = vals[s]
            return v is None, 0 if v is None else sign * v

        order = _rerank(order, ranks, key)
    rows = [TieBreakRow(s, ranks[s], values[s]) for s in order]
    return TieBreakTable(parsed, rows)


def _compute_one(field: Field, spec: TieBreakSpec, ranks: dict[int, int], round_robin: bool, edition: str,
                 lots: Mapping[int, int] | None, win: float, draw: float) -> Mapping[int, Value]:
    n = spec.name
    if n == "PTS":
        return {s: p.points for s, p in field.players.items()}
    if n == "DE":
        return direct_encounter(field, ranks, round_robin=round_robin, win=win)
    if n == "WIN":
        return wins(field, win)
    if n == "WON":
        return won(field, win)
    if n == "BPG":
        return black_played(field)
    if n == "BWG":
        return black_won(field, win)
    if n in ("BH", "SB"):
        return buchholz(field, round_robin=round_robin, edition=edition, sonneborn_berger=n == "SB",
                        cut_low=spec.cut_low, cut_high=spec.cut_high, draw=draw)
    if n in ("KS", "KSX"):
        return koya(field, round_robin=round_robin, limit_offset=spec.limit_offset, win=win)
    if n == "ARO":
        return average_rating_of_opponents(field, spec.cut_low, spec.cut_high)
    if n == "LOT":
        return {s: (lots or {}).get(s) for s in field.players}
    raise ValueError(f"unknown tie-break {spec.text!r}")  # unreachable: parse_spec checks


def format_value(spec: TieBreakSpec, value: Value) -> str:
    """The value as the fixtures print it: fixed decimals per tie-break, "" for None."""
    if value is None:
        return ""
    d = spec.decimals
    return f"{value:.{d}f}" if d else str(int(round(value)))
