"""A weighted graph whose maximum weight matching is recomputed after edge changes, with pairs that
can be fixed once decided (bbpPairings' "finalizePair").
"""

from __future__ import annotations

from services.tournament.pairing.matching import max_weight_matching


class MatchingGraph:
    """Vertices ``0..n-1``; edge weights are ints, 0 meaning no edge.

    :meth:`solve` returns ``mate`` with ``mate[v] == v`` for an unmatched vertex (the convention of
    the Dutch engine). Fixed pairs are isolated from the rest and always matched to each other.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.adj: list[dict[int, int]] = [{} for _ in range(n)]
        self.fixed: dict[int, int] = {}

    def set(self, i: int, j: int, weight: int) -> None:
        """Set the weight of edge i-j (0 removes it)."""
        if weight > 0:
            self.adj[i][j] = weight
            self.adj[j][i] = weight
        else:
            self.adj[i].pop(j, None)
            self.adj[j].pop(i, None)

    def fix(self, i: int, j: int) -> None:
        """Decide the pair i-j: every other edge at i or j goes."""
        for v in (i, j):
            for k in self.adj[v]:
                self.adj[k].pop(v, None)
            self.adj[v] = {}
        self.fixed[i] = j
        self.fixed[j] = i

    def solve(self) -> list[int]:
        """A maximum weight matching as a mate list (unmatched: itself)."""
        verts = [v for v in range(self.n) if v not in self.fixed and self.adj[v]]
        index = {v: k for k, v in enumerate(verts)}
        edges = [(index[i], index[j], w) for i in verts for j, w in self.adj[i].items() if i < j]
        mate = max_weight_matching(len(verts), edges)
        result = list(range(self.n))
        for v, p in self.fixed.items():
            result[v] = p
        for k, v in enumerate(verts):
            if mate[k] != -1:
                result[v] = verts[mate[k]]
        return result
