"""A weighted graph whose maximum weight matching is recomputed after edge changes, with pairs that
can be fixed once decided (bbpPairings' "finalizePair").
"""

from __future__ import annotations

from collections.abc import Callable

from services.tournament.pairing.matching import WeightedMatcher


class MatchingGraph:
    """Vertices ``0..n-1``, every pair a candidate edge; weights are ints, 0 meaning no edge.

    :meth:`solve` returns ``mate`` with ``mate[v] == v`` for an unmatched vertex (the convention of
    the Dutch engine). A fixed pair loses all its other edges and is always reported matched. The
    optimum is maintained incrementally (:class:`~services.tournament.pairing.matching.WeightedMatcher`),
    so a solve after a few changes costs far less than one from scratch.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.matcher = WeightedMatcher(n)
        self.fixed: dict[int, int] = {}
        self._compacted_at = 0

    def set(self, i: int, j: int, weight: int) -> None:
        """Set the weight of edge i-j (0 removes it); an edge at a fixed vertex stays out (a decided pair
        outweighs any other edge)."""
        if i in self.fixed or j in self.fixed:
            return
        if i > j:
            i, j = j, i
        m = self.matcher
        k = i * (2 * self.n - i - 1) // 2 + (j - i - 1)
        if weight < 0:
            weight = 0
        old = m.w[k]
        if old != weight:
            if k not in m.changed:
                m.changed[k] = old
            m.w[k] = weight
            m.sw[k] = m.scale * weight

    def set_at(self, v: int, others: list[int], weights: list[int]) -> None:
        """:meth:`set` for the edges ``v``-``others[x]`` with weights ``weights[x]``, in that order: a
        bracket's edges at one vertex without a call per edge."""
        fixed = self.fixed
        if v in fixed:
            return
        m = self.matcher
        w, sw, changed, scale = m.w, m.sw, m.changed, m.scale
        n2 = 2 * self.n - 1
        row_v = (v * (n2 - v) >> 1) - v - 1  # edge v-j for j > v: row_v + j
        for u, weight in zip(others, weights):
            if u > v:
                k = row_v + u
            else:
                k = (u * (n2 - u) >> 1) + v - u - 1
            if weight < 0:
                weight = 0
            old = w[k]
            if old != weight and u not in fixed:
                if k not in changed:
                    changed[k] = old
                w[k] = weight
                sw[k] = scale * weight

    def fix(self, i: int, j: int) -> None:
        """Decide the pair i-j: every edge at i or j goes; the pair stays matched."""
        m = self.matcher
        for v in (i, j):
            ends = m.neighbend[v] if m.fresh else m.active[v]
            for k in {p >> 1 for p in ends if m.w[p >> 1]}:
                m.set_weight_of(k, 0)
            m.isolate(v)
        self.fixed[i] = j
        self.fixed[j] = i

    def load(self, weight: Callable[[int, int], int], duals: list[int]) -> None:
        """Set every edge i-j (i < j) to ``weight(i, j)`` at once and start the optimum from
        ``duals`` (falling back to duals that are always feasible when these are not): the fast way
        to weigh a whole round before anything is fixed."""
        m, n = self.matcher, self.n
        m.w = [max(weight(i, j), 0) for i in range(n) for j in range(i + 1, n)]
        m.changed.clear()
        if not m.start_from_duals(duals):
            top = [0] * n
            for k, wk in enumerate(m.w):
                for v in (m.ei[k], m.ej[k]):
                    if 2 * wk > top[v]:
                        top[v] = 2 * wk
            m.start_from_duals(top)

    def start_from_duals(self, duals: list[int]) -> bool:
        """Restart the optimum from vertex duals that keep every edge feasible (see
        :meth:`~services.tournament.pairing.matching.WeightedMatcher.start_from_duals`); False when
        they do not (nothing changes then). Fixed pairs stay fixed."""
        return self.matcher.start_from_duals(duals)

    def compact(self) -> None:
        """Forget removed edges (those of fixed pairs, mostly) in the search's lists, once an eighth
        of the vertices more have been fixed since the last time (each pass reads every list)."""
        if len(self.fixed) - self._compacted_at >= max(8, self.n // 8):
            self._compacted_at = len(self.fixed)
            self.matcher.compact()

    def solve(self, bulk: bool = False) -> list[int]:
        """A maximum weight matching as a mate list (unmatched: itself). ``bulk``: most of the
        changes since the last solve raised whole groups of edges alike (a new bracket's weights)."""
        self.matcher.share_raises = bulk
        mate = self.matcher.solve()
        result = [v if m == -1 else m for v, m in enumerate(mate)]
        for v, p in self.fixed.items():
            result[v] = p
        return result
