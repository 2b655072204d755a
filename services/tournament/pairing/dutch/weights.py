"""Edge weights that encode the Dutch criteria for one pairing bracket (C.04.3 C.1-C.21).

A weight is one big integer made of fields, highest priority first; a maximum weight matching then
meets the criteria in their order of priority. The fields, in order (after the absolute criteria
C.1/C.3, which leave no edge at all):

1. completion and PAB eligibility (C.4, C.2), in the last brackets only;
2. number of pairs in the bracket (C.5) and their score differences (C.6);
3. pairs and pair scores in the next bracket (C.7, C.8: the choice of downfloaters must let the
   next bracket be paired as well as possible); in the last brackets instead the unplayed games of
   the two players (C.9: the sum over the pairs is largest when the PAB assignee, the one player left
   out, has the fewest unplayed games);
4. colour criteria: absolute imbalance (C.10), absolute preference incl. the repeated-colour clause
   (C.11), colour preferences met (C.12), strong preferences met (C.13);
5. floats: downfloaters / upfloaters repeated from the previous round and two rounds before
   (C.14-C.17), then their score differences (C.18-C.21);
6. room at the bottom for the tie-breaks on exchanges and order (C.04.3 B, the "generation" order)
   that the engine adds.

Field widths are sized from the bracket (players, distinct score differences) so that no field can
overflow into the one above. This is the scheme of bbpPairings v6 (FIDE-endorsed), restated.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from services.tournament.pairing.dutch.colours import may_meet, preferences_compatible
from services.tournament.pairing.dutch.history import NO_COLOR, invert
from services.tournament.pairing.dutch.state import FLOAT_DOWN, FLOAT_UP, RoundPlayer

OFFSET = 10
"""Added to "score above the bracket minimum" keys to keep them apart from pair score differences."""


def _bits(count: int) -> int:
    return count.bit_length()


@dataclass
class Bracket:
    """The players under consideration: ``players[:sg_begin]`` moved down into the bracket,
    ``players[sg_begin:next_begin]`` its residents, ``players[next_begin:]`` the next score group
    (or, in the special brackets, every player left). ``bye_score``: the lowest possible score of the
    PAB assignee (C.5), None without a PAB. ``special``: this is the last bracket or the
    penultimate pairing bracket being repaired (C.04.3 B.8 collapsed last bracket); ``final``: the
    next score group is the last one. Raises nothing; the caller guarantees residents exist.
    """

    players: list[RoundPlayer]
    sg_begin: int
    next_begin: int
    special: bool
    final: bool
    played_rounds: int
    top_threshold: int | None
    bye_score: int | None = None

    def candidate(self, p: RoundPlayer) -> bool:
        """p may be the PAB assignee: eligible (C.2) with the lowest possible PAB score (C.5)."""
        return p.bye_ok and (self.bye_score is None or p.score <= self.bye_score)

    def __post_init__(self) -> None:
        ps = self.players
        self.min_score = ps[-1].score
        diffs: list[int] = []
        for p in range(self.next_begin):
            diffs.append(ps[p].score - self.min_score + OFFSET)
            first = max(self.sg_begin, p + 1)
            for o in range(first, self.next_begin):
                if o <= first or ps[o].score < ps[o - 1].score:
                    diffs.append(ps[p].score - ps[o].score)
        self.shifts: dict[int, int] = {}
        total = 0
        for value, group in groupby(sorted(diffs)):
            self.shifts[value] = total
            total += _bits(len(list(group)))
        self.sd_bits = total
        self.pcb = _bits(self.next_begin - self.sg_begin)
        self.next_bits = _bits(len(ps) - self.next_begin)
        self.unplayed_bits = _bits(sum(p.unplayed for p in ps)) + 1
        self._below: dict[tuple[bool, bool, int], int] = {}

    def base_weight(self, hi: int, lo: int) -> int:
        """The weight of the edge between ``players[hi]`` and ``players[lo]`` (hi < lo): 0 when the
        absolute criteria forbid the pair."""
        h, l = self.players[hi], self.players[lo]
        if not may_meet(h, l, self.top_threshold):
            return 0
        if hi >= self.next_begin:
            # Both below the bracket: the weight depends on PAB candidacy and unplayed games only.
            key = (self.candidate(h), self.candidate(l), h.unplayed + l.unplayed if self.special else 0)
            cached = self._below.get(key)
            if cached is None:
                cached = self._below[key] = self._weight(h, l, False, False)
            return cached
        return self._weight(h, l, True, lo < self.next_begin)

    def _weight(self, h: RoundPlayer, l: RoundPlayer, hi_in: bool, lo_in: bool) -> int:
        """:meth:`base_weight` for players h above l that may meet; ``hi_in``/``lo_in``: each is in
        the bracket (not in the score group below)."""
        S, mn, pcb, sd = self.shifts, self.min_score, self.pcb, self.sd_bits
        h_pab, l_pab = self.candidate(h), self.candidate(l)
        r = (1 + (not h_pab) + (not l_pab)) if self.special else 0
        r = (r << pcb) | lo_in
        r <<= sd
        if lo_in:
            r += (1 << S[h.score - mn + OFFSET]) + (1 << S[l.score - mn + OFFSET]) - (1 << S[h.score - l.score])
        if not self.special:
            if self.final:
                r <<= max(pcb, self.next_bits) + 3
                r += 1 + (not h_pab) + (not l_pab)
            else:
                r = (r << self.next_bits) + (not lo_in)
            r <<= sd
            if hi_in:
                r += 1 << S[h.score - mn + OFFSET]
            if lo_in:
                r += 1 << S[l.score - mn + OFFSET]
        else:
            r = (r << self.unplayed_bits) + h.unplayed + l.unplayed
        r = _colour_fields(r, l, h, lo_in, pcb)
        pr = self.played_rounds
        for back in (1, 2):
            if pr < back:
                continue
            r <<= pcb
            if lo_in:
                r += l.floats[back - 1] == FLOAT_DOWN
                r += h.score <= l.score and h.floats[back - 1] == FLOAT_DOWN
            r <<= pcb
            r -= lo_in and h.score > l.score and l.floats[back - 1] == FLOAT_UP
        for back in (1, 2):
            if pr < back:
                continue
            r <<= sd
            if lo_in:
                if l.floats[back - 1] == FLOAT_DOWN:
                    r += 1 << S[l.score - mn + OFFSET]
                if h.floats[back - 1] == FLOAT_DOWN:
                    r += 1 << S[h.score - mn + OFFSET]
                    if h.score > l.score:
                        r -= 1 << S[h.score - l.score]
            r <<= sd
            if lo_in and l.floats[back - 1] == FLOAT_UP and h.score > l.score:
                r -= 1 << S[h.score - l.score]
        return r << (3 * pcb + 1)

    def exchange_weight(self, base: int, hi_remainder_index: int, remainder_pairs: int) -> int:
        """``base`` plus the low-order preferences used while choosing exchanges in a remainder
        (C.04.3 B.3-B.4: fewest exchanges, then the smallest difference of exchanged sequence numbers):
        0 stays 0."""
        if not base:
            return 0
        addend = int(hi_remainder_index < remainder_pairs)
        addend = ((addend << (2 * self.pcb)) - hi_remainder_index) << 1
        return base + addend


def _colour_fields(r: int, p: RoundPlayer, o: RoundPlayer, mask: bool, width: int) -> int:
    """Append the four colour fields (C.10-C.13) for the lower player p against the higher o."""
    r <<= width
    r += mask and (not p.absolute_imbalance or not o.absolute_imbalance or p.color_pref != o.color_pref)
    r <<= width
    if mask:
        if p.imbalance == o.imbalance:
            rep_ok = p.repeated == NO_COLOR or p.repeated != o.repeated
        else:
            rep_ok = (o if p.imbalance > o.imbalance else p).repeated != invert(p.color_pref)
        r += not p.absolute or not o.absolute or p.color_pref != o.color_pref or rep_ok
    r <<= width
    r += mask and preferences_compatible(p.color_pref, o.color_pref)
    r <<= width
    r += mask and (
        (not p.strong and not p.absolute) or (not o.strong and not o.absolute)
        or (p.absolute and o.absolute) or p.color_pref != o.color_pref
    )
    return r
