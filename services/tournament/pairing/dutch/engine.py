"""The Dutch system's bracket-by-bracket procedure over one maximum weight matching (C.04.3 B and C).

One graph joins every pair of players to be paired. Its first optimum checks that the round can be
paired at all (C.1-C.4) and fixes the PAB assignee's score (C.5). Then score groups are paired from
the top (B.1): for each bracket (moved-down players plus residents) the edges of the bracket and of
the next score group get the weights of :mod:`.weights`, the edges further down keep those of the
completion check (so every decision leaves the rest of the round pairable), and the engine:

1. chooses which moved-down players (MDPs) are paired in the bracket, highest first (B.2, C.6);
2. gives each the highest resident that keeps the optimum (B.2, B.5);
3. in the remainder finds the fewest exchanges between S1 and S2 and which players are exchanged
   (B.3-B.4: lowest S1 players out, highest S2 players in);
4. pairs each S1 player with the highest S2 player that keeps the optimum (B.5 transpositions).

Each step fixes a decision by raising edge weights slightly and recomputing the optimum, in the
manner of bbpPairings (FIDE-endorsed), whose pairings the fixtures and tools/compare_dutch.py
compare with.
"""

from __future__ import annotations

from services.tournament.pairing.dutch.graph import MatchingGraph
from services.tournament.pairing.dutch.history import RoundInput
from services.tournament.pairing.dutch.state import RoundPlayer, build_players
from services.tournament.pairing.dutch.weights import RoundWeights


class NoValidPairing(ValueError):
    """No pairing of the round meets the absolute criteria (C.04.3 C.1-C.4)."""


def pair_round(inp: RoundInput) -> tuple[list[tuple[RoundPlayer, RoundPlayer]], RoundPlayer | None]:
    """Pair round ``inp.played_rounds + 1`` by the Dutch system.

    Returns (pairs, bye): pairs of :class:`RoundPlayer` in no particular order (colours are chosen by
    :func:`~.colours.color_for`), and the player given the pairing-allocated bye (C.04.1 c), or None.
    Raises :class:`NoValidPairing` when no pairing meets the absolute criteria.
    """
    players, _ = build_players(inp)
    if not players:
        return [], None
    threshold = None
    if inp.played_rounds >= inp.total_rounds - 1:
        threshold = inp.played_rounds * max(inp.points.win, inp.points.draw) >> 1
    return _Round(players, RoundWeights(players, threshold, inp.played_rounds)).pair()


class _Round:
    """The state of one round's pairing: the graph over all players (vertex = index in ``players``,
    which are in pairing order) and the decisions taken so far."""

    def __init__(self, players: list[RoundPlayer], weights: RoundWeights) -> None:
        self.players = players
        self.w = weights
        self.n = len(players)
        self.g = MatchingGraph(self.n)
        self.matched = [False] * self.n
        self.mate: list[int] = []

    def solve(self, bulk: bool = False) -> None:
        self.mate = self.g.solve(bulk)

    def _complete(self) -> bool:
        """At most one player unmatched, and that one may take the PAB (C.2, C.4)."""
        free = [v for v, m in enumerate(self.mate) if m == v]
        return len(free) <= 1 and all(self.players[v].bye_ok for v in free)

    def _initial(self) -> bool:
        """Weigh every edge for the completion check, solve, and (odd number) fix the PAB score and
        whether C.9 applies in the first bracket. Returns the C.9 flag."""
        n, w, ps = self.n, self.w, self.players
        odd = n & 1
        top = ps[0].score
        allowed = w.allowed_pairs()
        if odd:
            self.g.load(w.completion_weights(top, allowed), w.completion_duals(top))
        else:
            self.g.load(w.outside_weights(allowed), w.outside_duals())
        self.solve()
        if not self._complete():
            raise NoValidPairing("the players cannot all be paired within the absolute criteria (C.04.3 C.1-C.4)")
        if not odd:
            return False
        bye = next(v for v, m in enumerate(self.mate) if m == v)
        w.set_bye_score(ps[bye].score)
        c9 = w.bye_score >= top
        if c9:
            for v, p in enumerate(ps):
                if p.score < top:
                    break
                if ps[self.mate[v]].score < top:
                    c9 = False
                    break
        played = sorted((p.played for p in ps if p.score == w.bye_score), reverse=True)
        w.c9_rank = {count: rank for rank, count in enumerate(played)}
        w.c9 = c9
        self.g.load(w.outside_weights(allowed), w.outside_duals())
        return c9

    def pair(self) -> tuple[list[tuple[RoundPlayer, RoundPlayer]], RoundPlayer | None]:
        """Pair the brackets from the top; returns (pairs, PAB assignee or None)."""
        ps, n = self.players, self.n
        odd = n & 1
        self.w.c9 = self._initial()
        bracket = [v for v in range(n) if ps[v].score >= ps[0].score]
        nxt = len(bracket)
        sg_begin = 0  # moved-down players in `bracket`
        sg_vertex = 0  # the first resident's vertex
        pairs: list[tuple[RoundPlayer, RoundPlayer]] = []
        while len(bracket) > 1 or nxt < n:
            next_begin = len(bracket)
            next_vertex = sg_vertex + (next_begin - sg_begin)
            group_start = nxt
            while nxt < n and ps[nxt].score >= ps[group_start].score:
                bracket.append(nxt)
                nxt += 1
            _Bracket(self, bracket, sg_begin, next_begin, sg_vertex, next_vertex).pair()
            new_bracket: list[int] = []
            sg_begin = 0
            c9 = bool(odd) and group_start < n and self.w.bye_score >= ps[group_start].score
            for idx, v in enumerate(bracket):
                if idx < next_begin and self.matched[v]:
                    if v < self.mate[v]:
                        pairs.append((ps[v], ps[self.mate[v]]))
                    continue
                new_bracket.append(v)
                if idx < next_begin:
                    sg_begin += 1
                if c9 and ps[self.mate[v]].score < ps[group_start].score:
                    c9 = False
            self.w.c9 = c9
            bracket = new_bracket
            sg_vertex = next_vertex
        paired = {id(p) for pair in pairs for p in pair}
        left = [p for p in ps if id(p) not in paired]
        return pairs, (left[0] if left else None)


class _Bracket:
    """One pairing bracket: ``vs`` the vertices of its moved-down players (``vs[:sgb]``), residents
    (``vs[sgb:nsgb]``) and the next score group (``vs[nsgb:]``); residents' vertices run from
    ``sgv`` to ``nsgv`` (exclusive)."""

    def __init__(self, rnd: _Round, vs: list[int], sgb: int, nsgb: int, sgv: int, nsgv: int) -> None:
        self.r = rnd
        self.vs = vs
        self.sgb, self.nsgb, self.sgv, self.nsgv = sgb, nsgb, sgv, nsgv
        w = rnd.w
        # base[lo][hi]: the bracket weight of the edge between vs[hi] and vs[lo] (hi < lo).
        self.base: list[list[int]] = [[] for _ in vs]
        for lo in range(sgb, len(vs)):
            in_bracket = lo < nsgb
            row = self.base[lo] = w.weight_row(vs[:lo], vs[lo], in_bracket, not in_bracket)
            rnd.g.set_at(vs[lo], vs[:lo], row)

    def _set(self, i: int, j: int, weight: int) -> None:
        self.r.g.set(self.vs[i], self.vs[j], weight)

    def _in_bracket(self, v: int) -> bool:
        """Vertex v is one of this bracket's residents."""
        return self.sgv <= v < self.nsgv

    def _pairs_down(self, v: int) -> bool:
        """v is matched to a lower resident of the bracket."""
        return v < self.r.mate[v] < self.nsgv

    def _fix(self, v: int, m: int) -> None:
        self.r.matched[v] = self.r.matched[m] = True
        self.r.g.fix(v, m)

    def pair(self) -> None:
        r = self.r
        r.g.compact()
        r.solve(bulk=True)
        self._choose_mdps()
        self._pair_mdps()
        self._pair_remainder()

    def _choose_mdps(self) -> None:
        """Step 1: which moved-down players are paired in the bracket, highest score first (C.6)."""
        r, vs, ps, base = self.r, self.vs, self.r.players, self.base
        sgb, nsgb = self.sgb, self.nsgb
        group_score = None
        remaining = remaining_matched = 0
        for p in range(sgb):
            score = ps[vs[p]].score
            if group_score is None or score < group_score:
                group_score = score
                remaining = remaining_matched = 0
                q = p
                while ps[vs[q]].score >= group_score:
                    remaining += 1
                    remaining_matched += self._in_bracket(r.mate[vs[q]])
                    q += 1
            if not remaining_matched:
                continue
            v = vs[p]
            if remaining <= remaining_matched:
                r.matched[v] = True
                continue
            remaining -= 1
            if not self._in_bracket(r.mate[v]):
                for o in range(sgb, nsgb):
                    if base[o][p]:
                        self._set(p, o, base[o][p] | 1)
                r.solve()
            if self._in_bracket(r.mate[v]):
                r.matched[v] = True
                remaining_matched -= 1
                for o in range(sgb, nsgb):
                    if base[o][p]:
                        self._set(p, o, (base[o][p] | (nsgb - sgb)) + 1)

    def _pair_mdps(self) -> None:
        """Step 2: each chosen moved-down player gets the highest resident that keeps the optimum."""
        r, vs, base = self.r, self.vs, self.base
        for p in range(self.sgb):
            v = vs[p]
            if not r.matched[v]:
                continue
            addend = len(vs)
            top = -1
            for o in range(self.nsgb - 1, self.sgb - 1, -1):
                if r.matched[vs[o]]:
                    continue
                if base[o][p]:
                    self._set(p, o, base[o][p] + addend)
                    addend += 1
                    top = vs[o]
            if r.mate[v] != top:
                # Otherwise only v's edges gained, its partner's the most: the optimum stays optimal.
                r.solve()
            self._fix(v, r.mate[v])

    def _pair_remainder(self) -> None:
        """Steps 3 and 4: exchanges in the remainder, then S1 against S2 (C.04.3 B.3-B.5)."""
        r, vs, base, w = self.r, self.vs, self.base, self.r.w
        g, mate, matched = r.g, r.mate, r.matched
        rem = [o for o in range(self.sgb, self.nsgb) if mate[vs[o]] >= self.sgv]
        rpairs = sum(1 for o in rem if mate[vs[o]] < vs[o])
        rv = [vs[o] for o in rem]  # the remainder's vertices
        add = [w.exchange_weight(1, pos, rpairs) - 1 for pos in range(len(rem))]

        def exchange_row(it: int, step: int = 0) -> list[int]:
            """The exchange weights (plus ``step`` where there is an edge) of rem[it] to the players
            below it in the remainder."""
            p, a = rem[it], add[it] + step
            return [base[o][p] + a if base[o][p] else 0 for o in rem[it + 1:]]

        for i, lo in enumerate(rem):
            row = base[lo]
            g.set_at(rv[i], rv[:i], [row[hi] + a if row[hi] else 0 for hi, a in zip(rem, add[:i])])
        r.solve()
        exchanges = sum(1 for p in rem[:rpairs] if not self._pairs_down(vs[p]))

        # 3a. The lowest S1 players that can be exchanged are.
        left = exchanges
        it = rpairs
        while it > 0 and left:
            it -= 1
            p = rem[it]
            v = vs[p]
            if self._pairs_down(v):
                g.set_at(v, rv[it + 1:], exchange_row(it, -1))
                r.solve()
            exchange = not self._pairs_down(v)
            left -= exchange
            if exchange:
                for o in rem[it + 1:]:
                    base[o][p] = 0
            g.set_at(v, rv[it + 1:], exchange_row(it))

        # 3b. The highest S2 players that can be exchanged are.
        left = exchanges
        for it in range(rpairs, len(rem)):
            if left <= 1:
                break
            p = rem[it]
            v = vs[p]
            already = self._pairs_down(v)
            if not already:
                g.set_at(v, rv[it + 1:], exchange_row(it, 1))
                r.solve()
            if self._pairs_down(v):
                left -= 1
                for o in rem[:it]:
                    base[p][o] = 0
                g.set_at(v, rv[:it], [0] * it)
                for o in range(self.nsgb, len(vs)):
                    base[o][p] = 0
                g.set_at(v, vs[self.nsgb:], [0] * (len(vs) - self.nsgb))
            if not already:
                g.set_at(v, rv[it + 1:], exchange_row(it))

        # 3c. Fix who is in S1 and who in S2; drop the exchange preferences.
        mate = r.mate
        nsgv = self.nsgv
        down = [v < mate[v] < nsgv for v in rv]
        for i, p in enumerate(rem):
            if not down[i]:
                for o in rem[i + 1:]:
                    base[o][p] = 0
            else:
                for o, d in zip(rem[i + 1:], down[i + 1:]):
                    if d:
                        base[o][p] = 0
            g.set_at(rv[i], rv[i + 1:], [base[o][p] for o in rem[i + 1:]])

        # 4. Each S1 player gets the highest S2 player that keeps the optimum.
        for p in rem:
            v = vs[p]
            if not self._pairs_down(v):
                continue
            addend = 0
            top = -1
            others: list[int] = []
            weights: list[int] = []
            for o in reversed(rem):
                if o <= p or matched[vs[o]]:
                    continue
                if base[o][p]:
                    others.append(vs[o])
                    weights.append(base[o][p] + addend)
                    top = vs[o]
                addend += 1
            g.set_at(v, others, weights)
            if r.mate[v] != top:
                # Otherwise only v's edges gained, its partner's the most: the optimum stays optimal.
                r.solve()
            self._fix(v, r.mate[v])
