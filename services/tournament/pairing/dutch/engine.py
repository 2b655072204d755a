"""The Dutch system's bracket-by-bracket procedure over maximum weight matchings (C.04.3 B and C).

Score groups are paired from the top (C.04.3 B.1). For each bracket (moved-down players plus the
residents) and the score group below it, the engine:

1. chooses which moved-down players (MDPs) are paired in the bracket, highest first (C.04.3 B.2/C.6);
2. chooses their opponents, preferring the highest-ranked resident that keeps the optimum (S1-S2
   order of B.2, B.5);
3. among the remainder, finds the fewest exchanges between S1 and S2 and which players are exchanged
   (B.3-B.4: lowest S1 players out, highest S2 players in), then pairs each S1 player with the
   highest S2 player that keeps the optimum (B.5 transpositions);
4. checks (with a separate cardinality matching over everyone left) that the rest of the round can
   still be paired (C.4); if not, this is the penultimate pairing bracket and it is paired again
   together with all players below it (B.8, the collapsed last bracket).

Each step fixes a decision by raising edge weights slightly and recomputing the optimum, exactly in
the manner of bbpPairings v6 (whose results the tests compare with).
"""

from __future__ import annotations

from services.tournament.pairing.dutch.colours import may_meet
from services.tournament.pairing.dutch.graph import MatchingGraph
from services.tournament.pairing.dutch.history import RoundInput
from services.tournament.pairing.dutch.state import RoundPlayer, build_players
from services.tournament.pairing.dutch.weights import Bracket


class NoValidPairing(ValueError):
    """No pairing of the round meets the absolute criteria (C.04.3 C.1-C.3)."""


def _complete(mate: list[int]) -> bool:
    return all(m != v for v, m in enumerate(mate))


def _validity_graph(players: list[RoundPlayer], threshold: int | None) -> tuple[MatchingGraph, int | None]:
    """(graph, PAB score). The graph joins the pairs allowed by C.1 and C.3 and, for an odd number of
    players, a dummy vertex to each player who may take the PAB (C.2) with the lowest score a PAB
    assignee can have in a complete pairing (C.4, C.5), which is the PAB score returned (None for an
    even number). Raises :class:`NoValidPairing` when the round cannot be paired."""
    n = len(players)
    odd = n & 1
    graph = MatchingGraph(n + odd)
    for i in range(n):
        for j in range(i + 1, n):
            if may_meet(players[i], players[j], threshold):
                graph.set(i, j, 1)
    if not odd:
        if not _complete(graph.solve()):
            raise NoValidPairing("the players cannot all be paired within the absolute criteria (C.04.3 C.1-C.4)")
        return graph, None
    for score in sorted({p.score for p in players if p.bye_ok}):
        for i, p in enumerate(players):
            if p.bye_ok and p.score == score:
                graph.set(i, n, 1)
        if _complete(graph.solve()):
            return graph, score
    raise NoValidPairing("the players cannot all be paired within the absolute criteria (C.04.3 C.1-C.4)")


def pair_round(inp: RoundInput) -> tuple[list[tuple[RoundPlayer, RoundPlayer]], RoundPlayer | None]:
    """Pair round ``inp.played_rounds + 1`` by the Dutch system.

    Returns (pairs, bye): pairs of :class:`RoundPlayer` in no particular order (colours are chosen by
    :func:`~.colours.color_for`), and the player given the pairing-allocated bye (C.04.1 c), or None.
    Raises :class:`NoValidPairing` when no pairing meets the absolute criteria.
    """
    players, _ = build_players(inp)
    threshold = None
    if inp.played_rounds >= inp.total_rounds - 1:
        threshold = inp.played_rounds * max(inp.points.win, inp.points.draw) >> 1
    n = len(players)
    validity, bye_score = _validity_graph(players, threshold)

    pairs: list[tuple[RoundPlayer, RoundPlayer]] = []
    nxt = 0
    top = players[0].score if players else 0
    by_index: list[RoundPlayer] = []
    vindex: list[int] = []
    while nxt < n and players[nxt].score >= top:
        by_index.append(players[nxt])
        vindex.append(len(vindex))
        nxt += 1
    special = nxt == n
    sg_begin = 0
    while len(by_index) > 1 or nxt < n:
        next_begin = len(by_index)
        group_start = nxt
        while nxt < n and (special or players[nxt].score >= players[group_start].score):
            by_index.append(players[nxt])
            vindex.append(nxt)
            nxt += 1
        matched = _pair_bracket(
            Bracket(by_index, sg_begin, next_begin, special, nxt == n, inp.played_rounds, threshold, bye_score),
            validity,
            vindex,
        )
        if not special and not _complete(validity.solve()):
            del by_index[next_begin:]
            del vindex[next_begin:]
            nxt = group_start
            special = True
            continue
        special = nxt == n
        new_players: list[RoundPlayer] = []
        new_vindex: list[int] = []
        sg_begin = 0
        for idx, p in enumerate(by_index):
            if idx < next_begin and idx in matched:
                if idx < matched[idx]:
                    pairs.append((p, by_index[matched[idx]]))
            else:
                new_players.append(p)
                new_vindex.append(vindex[idx])
                if idx < next_begin:
                    sg_begin += 1
        by_index, vindex = new_players, new_vindex
    bye = by_index[0] if by_index else None
    return pairs, bye


def _pair_bracket(b: Bracket, validity: MatchingGraph, vindex: list[int]) -> dict[int, int]:
    """Pair one bracket; returns {index: partner index} for every player paired in it (both ends).

    Fixes the chosen pairs in ``validity`` too (by vertex ``vindex[i]``).
    """
    ps = b.players
    size = len(ps)
    sgb, nsgb = b.sg_begin, b.next_begin
    base: dict[tuple[int, int], int] = {}
    g = MatchingGraph(size)
    for lo in range(sgb, size):
        for hi in range(lo):
            w = b.base_weight(hi, lo)
            if w:
                base[(hi, lo)] = w
                g.set(hi, lo, w)

    def bw(hi: int, lo: int) -> int:
        return base.get((hi, lo), 0)

    mate = g.solve()
    matched: dict[int, int] = {}
    is_matched = [False] * size

    def in_bracket(v: int) -> bool:
        return sgb <= v < nsgb

    def fix(i: int, j: int) -> None:
        is_matched[i] = is_matched[j] = True
        matched[i] = j
        matched[j] = i
        g.fix(i, j)
        validity.fix(vindex[i], vindex[j])

    # 1. Which moved-down players are paired in this bracket (highest scores first).
    chosen = [False] * size
    group_score = None
    remaining = remaining_matched = 0
    for p in range(sgb):
        if p == 0 or ps[p].score < group_score:
            group_score = ps[p].score
            remaining = remaining_matched = 0
            q = p
            while q < size and ps[q].score >= group_score:
                remaining += 1
                if in_bracket(mate[q]):
                    remaining_matched += 1
                q += 1
        if not remaining_matched:
            continue
        if remaining <= remaining_matched:
            chosen[p] = True
            continue
        remaining -= 1
        if not in_bracket(mate[p]):
            for o in range(sgb, nsgb):
                w = bw(p, o)
                if w:
                    g.set(p, o, w | 1)
            mate = g.solve()
        if in_bracket(mate[p]):
            chosen[p] = True
            remaining_matched -= 1
            for o in range(sgb, nsgb):
                w = bw(p, o)
                if w:
                    g.set(p, o, (w | (nsgb - sgb)) + 1)

    # 2. Their opponents: the highest resident that keeps the optimum.
    for p in range(sgb):
        if not chosen[p]:
            continue
        addend = size
        top = -1
        for o in range(nsgb - 1, sgb - 1, -1):
            if is_matched[o]:
                continue
            w = bw(p, o)
            if w:
                g.set(p, o, w + addend)
                addend += 1
                top = o
        if mate[p] != top:
            # Only p's edges gained, and its partner's the most: the optimum stays optimal.
            mate = g.solve()
        fix(p, mate[p])

    # 3. The remainder: S1 = its first `pairs` players, S2 the rest.
    remainder = [p for p in range(sgb, nsgb) if not mate[p] < sgb]
    rpairs = sum(1 for p in remainder if mate[p] < p)

    def ew(hi: int, lo: int, hi_pos: int) -> int:
        return b.exchange_weight(bw(hi, lo), hi_pos, rpairs)

    for lo in remainder:
        for pos, hi in enumerate(remainder):
            if lo <= hi:
                break
            g.set(hi, lo, ew(hi, lo, pos))
    mate = g.solve()

    def pairs_down(v: int) -> bool:
        return v < mate[v] < nsgb

    exchanges = sum(1 for p in remainder[:rpairs] if not pairs_down(p))

    # 3a. Lowest S1 players to exchange.
    left = exchanges
    pos = rpairs
    while pos > 0 and left:
        pos -= 1
        p = remainder[pos]
        if pairs_down(p):
            for o in remainder[pos + 1:]:
                w = ew(p, o, pos)
                if w:
                    g.set(p, o, w - 1)
            mate = g.solve()
        exchange = not pairs_down(p)
        left -= exchange
        for o in remainder[pos + 1:]:
            if exchange:
                base.pop((p, o), None)
            g.set(p, o, ew(p, o, pos))

    # 3b. Highest S2 players to exchange.
    left = exchanges
    for pos in range(rpairs, len(remainder)):
        if left <= 1:
            break
        p = remainder[pos]
        already = pairs_down(p)
        if not already:
            for o in remainder[pos + 1:]:
                w = ew(p, o, pos)
                if w:
                    g.set(p, o, w + 1)
            mate = g.solve()
        if pairs_down(p):
            left -= 1
            for o in remainder[:pos]:
                base.pop((o, p), None)
                g.set(o, p, 0)
            for o in range(nsgb, size):
                base.pop((p, o), None)
                g.set(p, o, 0)
        if not already:
            for o in remainder[pos + 1:]:
                g.set(p, o, ew(p, o, pos))

    # 3c. Fix who is in S1 and who in S2, and drop the exchange preferences.
    for i, p in enumerate(remainder):
        for o in remainder[i + 1:]:
            if not pairs_down(p) or pairs_down(o):
                base.pop((p, o), None)
            g.set(p, o, bw(p, o))

    # 4. Each S1 player gets the highest S2 player that keeps the optimum.
    for p in remainder:
        if not pairs_down(p):
            continue
        addend = 0
        top = -1
        for o in reversed(remainder):
            if o <= p or is_matched[o]:
                continue
            w = bw(p, o)
            if w:
                g.set(p, o, w + addend)
                top = o
            addend += 1
        if mate[p] != top:
            # Only p's edges gained, and its partner's the most: the optimum stays optimal.
            mate = g.solve()
        fix(p, mate[p])
    return matched
