"""Direct Encounter (DE): FIDE C.07 Art. 6, reported as FIDE's TieBreakServer reports it.

Pure. Among players still tied (equal rank after the tie-breaks before DE), the points each scored in
the games between them decide (6.1); with more than one game against the same opponent (double round
robin) the average score against him counts. When only some players are separated, DE is applied again
among those still tied, until nothing changes (6.2). In a Swiss, when not all tied players have met, a
player is separated only if his score beats the best any other could still reach (6.3); otherwise DE
does not separate them.

The value is a rank among the players of the same previous rank: 1, 2, ... best first; 0 when DE did
not separate the group (or the player was not tied), exactly as the fixtures of ../shared/data/tiebreaks
show it. Lower is better.

In a round robin forfeits count as games between the scheduled opponents ("predetermined" pairing); in
a Swiss only games played over the board count.
"""

from __future__ import annotations

from services.tournament.model import Field

_MAX_PASSES = 30


def _separate(field: Field, group: list[int], de: dict[int, int], round_robin: bool, win: float) -> int:
    """One DE step on ``group`` (all with the same working value); returns how many were separated."""
    current = de[group[0]]
    members = set(group)
    score: dict[int, float] = {}
    best: dict[int, float] = {}
    met_all = True
    for sno in group:
        per_opp: dict[int, list[float]] = {}
        for e in field.players[sno].entries:
            if e.opponent in members and (round_robin or e.played):
                per_opp.setdefault(e.opponent, []).append(e.tb_points)
        score[sno] = sum(sum(v) / len(v) for v in per_opp.values())
        missing = len(group) - 1 - len(per_opp)
        if not round_robin and missing > 0:
            met_all = False
            best[sno] = score[sno] + missing * win
        else:
            best[sno] = score[sno]
    changes = 0
    if met_all:
        order = sorted(group, key=lambda s: (-score[s], s))
        rank = crank = current
        val = score[order[0]]
        for sno in order[1:]:
            rank += 1
            if score[sno] != val:
                crank, val = rank, score[sno]
                changes += 1
            de[sno] = crank
        de[order[0]] = current
        return changes
    order = sorted(group, key=lambda s: (-score[s], -best[s], s))
    rank = crank = current
    val = score[order[0]]
    unique = True
    for i in range(1, len(order)):
        rank += 1
        rest_best = max(best[s] for s in order[i:])
        if unique and val > rest_best:
            crank = rank
            changes += 1
        else:
            unique = False
        val = score[order[i]]
        de[order[i]] = crank
    de[order[0]] = current
    return changes


def direct_encounter(field: Field, ranks: dict[int, int], *, round_robin: bool, win: float = 1.0) -> dict[int, int]:
    """DE for every player, by start number. ``ranks`` is the rank after the previous tie-breaks
    (tied players share a rank). Returns 0 for players DE does not separate."""
    order = sorted(field.players, key=lambda s: (ranks[s], s))
    de = {s: ranks[s] for s in order}
    more = {s: True for s in order}
    for _ in range(_MAX_PASSES):
        pass_changes = 0
        i = 0
        while i < len(order):
            j = i
            while j < len(order) and de[order[j]] == de[order[i]]:
                j += 1
            if more[order[i]]:
                group = order[i:j]
                if len(group) == 1:
                    more[group[0]] = False
                else:
                    c = _separate(field, group, de, round_robin, win)
                    for s in group:
                        more[s] = c > 0
                    pass_changes += c
            i = j
        order.sort(key=lambda s: (ranks[s], de[s], s))
        if pass_changes == 0:
            break
    out: dict[int, int] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and ranks[order[j]] == ranks[order[i]]:
            j += 1
        offset = de[order[i]]
        if de[order[i]] != de[order[j - 1]]:
            offset -= 1
        for s in order[i:j]:
            out[s] = de[s] - offset
        i = j
    return out
