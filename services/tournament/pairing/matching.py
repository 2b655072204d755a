"""Maximum weight matching in a general graph (Edmonds' blossom method, primal-dual, O(n^3)).

The Dutch system (FIDE C.04.3) is solved here, as bbpPairings does, as a sequence of maximum weight
matching problems whose integer edge weights encode the pairing criteria in order of priority. This
module is the matching engine: pure, integers only (Python ints, so weights may be any size).

The method is the one of Galil, "Efficient algorithms for finding maximum matching in graphs" (1986),
in the structure made public by Joris van Rantwijk (mwmatching.py, public domain): vertex and blossom
dual variables, S/T labels, blossoms shrunk and expanded, and the least-slack edges kept per blossom.
Written here afresh; it computes a maximum *weight* matching (not forced to maximum cardinality).
"""

from __future__ import annotations

from collections.abc import Iterable
from heapq import heappop, heappush


HALF_SPLIT_MIN = 2000


def max_weight_matching(n: int, edges: Iterable[tuple[int, int, int]]) -> list[int]:
    """A maximum weight matching of the graph with vertices ``0..n-1``.

    ``edges``: (i, j, weight) with i != j, both in range, weight an int; edges with weight <= 0 are
    ignored (they can never make a matching heavier). Returns ``mate``, a list of length n where
    ``mate[v]`` is v's partner or -1 when v is unmatched. Raises ValueError for an edge whose end is
    out of range or a loop.
    """
    edge_list: list[tuple[int, int, int]] = []
    for i, j, w in edges:
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise ValueError(f"bad edge ({i}, {j}) for {n} vertices")
        edge_list.append((i, j, max(w, 0)))
    matcher = WeightedMatcher(n, [(i, j) for i, j, _ in edge_list])
    for k, (_, _, w) in enumerate(edge_list):
        matcher.set_weight_of(k, w)
    return matcher.solve()


class WeightedMatcher:
    """A maximum weight matching that is kept up to date while edge weights change.

    The graph has a fixed set of candidate edges (by default every pair of ``0..n-1``); each has an
    int weight, 0 meaning absent. :meth:`solve` returns the current optimum. Between two calls only
    the vertices whose edges changed are disturbed: blossom duals are pushed down onto the vertices
    (which keeps every edge feasible), a changed vertex gets the least dual that keeps its edges
    feasible, matched edges that stopped being tight are unmatched, and the search restarts only
    from the free vertices whose dual is still positive (a free vertex with dual 0 already meets the
    optimality conditions). Each stage then grows alternating trees from those roots until it
    augments, or a root's dual reaches 0, or a matched S-vertex's dual reaches 0 (that vertex is
    then set free by flipping its path to the root, which keeps every condition). A vertex inside
    a big blossom scans only its edges to the vertices outside the blossom (every-pair graphs).

    Edge k has endpoints ``2k`` (its first vertex) and ``2k+1`` (its second); ``mate[v]`` holds the
    remote endpoint of v's matched edge. Blossoms are numbered n..2n-1. Duals are kept in units of
    1/``scale`` (slack = u_i + u_j - scale * w) and the scale doubles when a half-unit is needed, so
    all arithmetic stays exact on Python ints.
    """

    def __init__(self, n: int, pairs: list[tuple[int, int]] | None = None) -> None:
        self.n = n
        if pairs is None:
            pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
            self.dense = True
        else:
            self.dense = False
        self.ei = [i for i, _ in pairs]
        self.ej = [j for _, j in pairs]
        self.w = [0] * len(pairs)
        self.sw = [0] * len(pairs)
        """``scale * w``, kept with the weights: the search reads it for every edge it scans."""
        self.endpoint = [v for pair in pairs for v in pair]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j) in enumerate(pairs):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.active: list[list[int]] = [[] for _ in range(n)]
        """Per vertex, the remote endpoints of its edges that have had a positive weight (an edge
        whose weight dropped to 0 stays listed and is skipped): far shorter than every pair."""
        self.listed = [False] * len(pairs)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.blossomparent = [-1] * (2 * n)
        # Not a blossom (a vertex, or a blossom number not in use): no children, no endpoints.
        self.blossomchilds: list[list[int]] = [[] for _ in range(2 * n)]
        self.blossomleaves: list[list[int]] = [[] for _ in range(2 * n)]
        self.blossombase = list(range(n)) + [-1] * n
        self.blossomendps: list[list[int]] = [[] for _ in range(2 * n)]
        self.bestedge = [-1] * (2 * n)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * n)
        self.unusedblossoms = list(range(n, 2 * n))
        self.dualvar = [0] * (2 * n)
        self.allowedge = [0] * len(pairs)
        self.stage = 0
        self.queue: list[int] = []
        self.scale = 2
        self.fresh = True
        self.changed: dict[int, int] = {}
        """Edges changed since the last solve, with their weight at that solve."""
        self.dirty: list[int] = []
        self.outside: list[list[int] | None] = [None] * (2 * n)
        """Per blossom (every-pair graphs), the vertices outside it, found when first needed: a
        vertex of a big blossom scans only the edges leaving it (most of its edges stay inside)."""
        self.ends_by_vertex: list[list[int] | None] = [None] * n
        """Per vertex (every-pair graphs), the remote endpoint of its edge to each vertex (-1 for
        itself), made when first needed."""
        self.isolated_vertex = [False] * n
        """Vertices whose edges all weigh 0 for good (see :meth:`isolate`)."""
        self.share_raises = False
        """Set by the caller before a :meth:`solve` after a bulk re-weighting: each raised edge's
        deficit is then shared by both ends (keeps pairs whose edges rose alike tight)."""

    def edge(self, i: int, j: int) -> int:
        """The index of the candidate edge i-j of a graph built with every pair."""
        if i > j:
            i, j = j, i
        return i * (2 * self.n - i - 1) // 2 + (j - i - 1)

    def set_weight(self, i: int, j: int, weight: int) -> None:
        """Set the weight of the edge i-j (every-pair graphs); 0 or less removes it."""
        self.set_weight_of(self.edge(i, j), weight)

    def set_weight_of(self, k: int, weight: int) -> None:
        """Set the weight of candidate edge ``k``; 0 or less removes it."""
        weight = max(weight, 0)
        if self.w[k] != weight:
            self.changed.setdefault(k, self.w[k])
            self.w[k] = weight
            self.sw[k] = self.scale * weight

    def isolate(self, v: int) -> None:
        """Tell the search that every edge at v now weighs 0 and stays so (a decided pair): the
        blossoms' lists of outside vertices leave v out."""
        if not self.isolated_vertex[v]:
            self.isolated_vertex[v] = True
            self.outside = [None] * (2 * self.n)

    def compact(self) -> None:
        """Drop the edges whose weight is 0 from the per-vertex lists the search scans (they come
        back if they gain a weight again)."""
        if self.fresh:
            return
        w, listed, active = self.w, self.listed, self.active
        for v in range(self.n):
            ends = active[v]
            kept = [p for p in ends if w[p >> 1]]
            if len(kept) != len(ends):
                for p in ends:
                    if not w[p >> 1]:
                        listed[p >> 1] = False
                active[v] = kept

    def start_from_duals(self, duals: list[int]) -> bool:
        """Forget the current optimum and start the next :meth:`solve` from these vertex duals (in
        units where an edge is feasible when ``duals[i] + duals[j] >= 2 * weight``): the edges they
        make tight are matched greedily. For weights that are sums of vertex terms the caller knows
        duals making nearly every edge tight, far better than the generic start. Returns False (and
        changes nothing) when the duals are not feasible for the current weights."""
        n, w = self.n, self.w
        if len(duals) != n or any(d < 0 for d in duals):
            return False
        for k, wk in enumerate(w):
            if wk and duals[self.ei[k]] + duals[self.ej[k]] < 2 * wk:
                return False
        self.active = [[p for p in self.neighbend[v] if w[p >> 1]] for v in range(n)]
        self.listed = [bool(x) for x in w]
        self.fresh = False
        self.changed.clear()
        self.mate = [-1] * n
        self.inblossom = list(range(n))
        self.blossomparent = [-1] * (2 * n)
        self.blossomchilds = [[] for _ in range(2 * n)]
        self.blossombase = list(range(n)) + [-1] * n
        self.blossomendps = [[] for _ in range(2 * n)]
        self.blossombestedges = [None] * (2 * n)
        self.unusedblossoms = list(range(n, 2 * n))
        self.scale = 2
        self.sw = [2 * x for x in w]
        self.dualvar = list(duals) + [0] * n
        self._match_tight(list(range(n)))
        for v in range(n):
            if self.mate[v] == -1 and self.dualvar[v]:
                self.dualvar[v] = self._required(v)
        return True

    def slack(self, k: int) -> int:
        """Slack of edge k between two different top-level blossoms (units of 1/scale)."""
        return self.dualvar[self.ei[k]] + self.dualvar[self.ej[k]] - self.scale * self.w[k]

    def leaves(self, b: int) -> list[int]:
        """The vertices inside blossom b (b itself for a vertex); kept per blossom from its creation
        (a blossom's vertex set never changes while it exists)."""
        if b < self.n:
            return [b]
        return self.blossomleaves[b]

    # -- warm start ---------------------------------------------------------------------------

    def _required(self, v: int) -> int:
        """The least dual of v that keeps all its edges feasible."""
        req = 0
        dual, endpoint, w, scale = self.dualvar, self.endpoint, self.w, self.scale
        for p in self.active[v]:
            wk = w[p >> 1]
            if wk:
                r = scale * wk - dual[endpoint[p]]
                if r > req:
                    req = r
        return req

    def _prepare(self) -> None:
        n = self.n
        w = self.w
        if self.fresh:
            self.fresh = False
            self.active = [[p for p in self.neighbend[v] if w[p >> 1]] for v in range(n)]
            self.listed = [bool(x) for x in w]
            # Each vertex starts with the dual of its heaviest edge (feasible); edges tight at both
            # ends are matched greedily, and a vertex left free drops to the least feasible dual.
            dual, endpoint, mate = self.dualvar, self.endpoint, self.mate
            for v in range(n):
                dual[v] = max((w[p >> 1] for p in self.active[v]), default=0)
            for v in range(n):
                if mate[v] != -1:
                    continue
                for p in self.active[v]:
                    u = endpoint[p]
                    if mate[u] == -1 and dual[v] + dual[u] == 2 * w[p >> 1]:
                        mate[v] = p
                        mate[u] = p ^ 1
                        break
            for v in range(n):
                if mate[v] == -1 and dual[v]:
                    dual[v] = self._required(v)
            self.changed.clear()
            return
        # A changed edge inside a blossom, or one whose end must take a higher dual, dissolves the
        # blossoms around that end, pushing their duals down onto their vertices: every edge stays
        # feasible and every edge inside stays tight; only a matched edge leaving such a blossom may
        # lose its tightness. Blossoms elsewhere are kept.
        touched: set[int] = set()
        inb = self.inblossom
        ei, ej, listed, active, sw = self.ei, self.ej, self.listed, self.active, self.sw
        share = self.share_raises
        raised: dict[int, int] = {}
        up: list[int] = []
        for k, old in self.changed.items():
            wk = w[k]
            if wk > old:
                if not listed[k]:
                    listed[k] = True
                    active[ei[k]].append(2 * k + 1)
                    active[ej[k]].append(2 * k)
                up.append(k)
                if not share:
                    i, j = ei[k], ej[k]
                    raised[i] = raised.get(i, 0) + 1
                    raised[j] = raised.get(j, 0) + 1
            elif wk < old:
                i, j = ei[k], ej[k]
                if inb[i] == inb[j] and inb[i] >= n:
                    touched.update(self._dissolve_around(i))
                touched.add(i)
                touched.add(j)
        dual = self.dualvar
        if share:
            # Many raised edges: share each deficit between both ends, so a pair whose edge rose
            # like its neighbours' stays tight (far fewer vertices to search again).
            short = []
            for k in up:
                if dual[ei[k]] + dual[ej[k]] < sw[k]:
                    short.append(k)
                    for v in (ei[k], ej[k]):
                        if inb[v] >= n:
                            touched.update(self._dissolve_around(v))
            need: dict[int, int] = {}
            for k in short:
                i, j = ei[k], ej[k]
                sl = dual[i] + dual[j] - sw[k]
                if sl < 0:
                    half = (1 - sl) >> 1
                    if need.get(i, 0) < half:
                        need[i] = half
                    if need.get(j, 0) < half:
                        need[j] = half
            for v, d in need.items():
                dual[v] += d
                touched.add(v)
        else:
            for k in up:
                i, j = ei[k], ej[k]
                c = i if raised.get(i, 0) >= raised.get(j, 0) else j
                if inb[c] >= n:
                    touched.update(self._dissolve_around(c))
                sl = dual[i] + dual[j] - sw[k]
                if sl < 0:
                    dual[c] -= sl
                    touched.add(c)
        self.changed.clear()
        inb = self.inblossom
        mate, endpoint = self.mate, self.endpoint
        freed: list[int] = []
        for v in touched:
            p = mate[v]
            if p == -1:
                continue
            u = endpoint[p]
            k = p >> 1
            if inb[u] != inb[v] and (w[k] == 0 or dual[u] + dual[v] != sw[k]):
                mate[u] = mate[v] = -1
                freed.append(u)
        touched.update(freed)
        for v in touched:
            if mate[v] == -1 and dual[v] > 0 and inb[v] == v:
                dual[v] = self._required(v)
        self._match_tight(sorted(touched))

    def _match_tight(self, vertices: list[int]) -> None:
        """Match free vertices (outside blossoms) joined by a tight edge: complementary slackness
        holds for such an edge, so each one saves a search stage."""
        mate, dual, endpoint, w, inb, scale = self.mate, self.dualvar, self.endpoint, self.w, self.inblossom, self.scale
        for v in vertices:
            if mate[v] != -1 or inb[v] != v or not dual[v]:
                continue
            dv = dual[v]
            for p in self.active[v]:
                wk = w[p >> 1]
                if not wk:
                    continue
                x = endpoint[p]
                if mate[x] == -1 and inb[x] == x and dv + dual[x] == scale * wk:
                    mate[v] = p
                    mate[x] = p ^ 1
                    break

    def _dissolve_around(self, v: int) -> list[int]:
        """Dissolve every blossom containing v, pushing its dual onto its vertices; the vertices whose
        dual changed."""
        n = self.n
        out: list[int] = []
        b = self.inblossom[v]
        while b >= n:
            d = self.dualvar[b]
            leaves = self.leaves(b)
            if d:
                for x in leaves:
                    self.dualvar[x] += d
            out.extend(leaves)
            for child in self.blossomchilds[b]:
                self.blossomparent[child] = -1
                for x in self.leaves(child):
                    self.inblossom[x] = child
            self.blossomchilds[b], self.blossomendps[b] = [], []
            self.blossombase[b] = -1
            self.blossombestedges[b] = None
            self.dualvar[b] = 0
            self.unusedblossoms.append(b)
            b = self.inblossom[v]
        return out

    # -- the blossom machinery (Galil 1986; structure of van Rantwijk's mwmatching) ----------------

    def assign_label(self, w: int, t: int, p: int) -> None:
        """Label w's blossom S (t=1) or T (t=2), reached through endpoint p; a T-blossom's mate becomes S."""
        while True:
            b = self.inblossom[w]
            self.label[w] = self.label[b] = t
            self.labelend[w] = self.labelend[b] = p
            self.bestedge[w] = self.bestedge[b] = -1
            if t == 1:
                for x in self.leaves(b):
                    heappush(self.queue, x)
                return
            base = self.blossombase[b]
            mp = self.mate[base]
            w, t, p = self.endpoint[mp], 1, mp ^ 1

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from S-vertices v and w; the base of their common blossom, or -1 (augmenting)."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Shrink the odd cycle closed by edge k (through the tree, with the given base) into a blossom."""
        v, w = self.ei[k], self.ej[k]
        inb = self.inblossom
        bb, bv, bw = inb[base], inb[v], inb[w]
        b = self.unusedblossoms.pop()
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = inb[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = inb[w]
        self.blossomchilds[b] = path
        self.blossomleaves[b] = [x for sub in path for x in (self.blossomleaves[sub] if sub >= self.n else (sub,))]
        self.outside[b] = None
        self.blossomendps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for x in self.leaves(b):
            if self.label[inb[x]] == 2:
                heappush(self.queue, x)
            inb[x] = b
        # The least-slack edge to other S-blossoms (for the dual change) is found lazily, only if a
        # dual change happens while this blossom exists: most blossoms vanish before that.
        for sub in path:
            self.blossombestedges[sub] = None
            self.bestedge[sub] = -1
        self.bestedge[b] = -1
        self.dirty.append(b)

    def _refresh_bestedge(self, b: int) -> None:
        """Recompute the least-slack edge from S-blossom b to another S-blossom."""
        inb, label, w, endpoint = self.inblossom, self.label, self.w, self.endpoint
        dual, ei, ej, scale = self.dualvar, self.ei, self.ej, self.scale
        best, best_slack = -1, 0
        inside = self.leaves(b)
        if self.dense:
            # Few S-vertices outside a big blossom (the usual case): look those pairs up directly.
            others = [y for y in range(self.n) if label[inb[y]] == 1 and inb[y] != b]
            if len(others) * 4 < self.n:
                n2 = 2 * self.n
                for x in inside:
                    dx = dual[x]
                    for y in others:
                        i, j = (x, y) if x < y else (y, x)
                        k = i * (n2 - i - 1) // 2 + (j - i - 1)
                        wk = w[k]
                        if wk:
                            sl = dx + dual[y] - scale * wk
                            if best == -1 or sl < best_slack:
                                best, best_slack = k, sl
                self.bestedge[b] = best
                return
        for x in inside:
            dx = dual[x]
            for p in self.active[x]:
                k = p >> 1
                wk = w[k]
                if not wk:
                    continue
                y = endpoint[p]
                by = inb[y]
                if by != b and label[by] == 1:
                    sl = dx + dual[y] - scale * wk
                    if best == -1 or sl < best_slack:
                        best, best_slack = k, sl
        self.bestedge[b] = best

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Undo blossom b (dual 0); within a stage a T-blossom's children are relabelled along its path."""
        n = self.n
        for s in self.blossomchilds[b]:
            self.blossomparent[s] = -1
            if s < n:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for x in self.leaves(s):
                    self.inblossom[x] = s
        if not endstage and self.label[b] == 2:
            childs = self.blossomchilds[b]
            endps = self.blossomendps[b]
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowedge[endps[j - endptrick] >> 1] = self.stage
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p >> 1] = self.stage
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                found = -1
                for x in self.leaves(bv):
                    if self.label[x] != 0:
                        found = x
                        break
                if found != -1:
                    self.label[found] = 0
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
                    self.assign_label(found, 2, self.labelend[found])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b], self.blossomendps[b] = [], []
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.dualvar[b] = 0
        self.unusedblossoms.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Flip the matching inside blossom b so that vertex v becomes its base."""
        n = self.n
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= n:
            self.augment_blossom(t, v)
        childs = self.blossomchilds[b]
        endps = self.blossomendps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= n:
                self.augment_blossom(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.blossomchilds[b] = childs[i:] + childs[:i]
        self.blossomendps[b] = endps[i:] + endps[:i]
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]]

    def augment_path(self, s: int, p: int) -> None:
        """Give S-vertex s the mate endpoint p (-1: none) and flip its tree path up to the root."""
        n = self.n
        while True:
            bs = self.inblossom[s]
            if bs >= n:
                self.augment_blossom(bs, s)
            self.mate[s] = p
            if self.labelend[bs] == -1:
                break
            t = self.endpoint[self.labelend[bs]]
            bt = self.inblossom[t]
            s = self.endpoint[self.labelend[bt]]
            j = self.endpoint[self.labelend[bt] ^ 1]
            if bt >= n:
                self.augment_blossom(bt, j)
            self.mate[j] = self.labelend[bt]
            p = self.labelend[bt] ^ 1

    def _rescale(self) -> None:
        self.scale *= 2
        self.sw = [2 * x for x in self.sw]
        self.dualvar = [2 * d for d in self.dualvar]

    # -- the search ------------------------------------------------------------------------------

    def solve(self) -> list[int]:
        """The current maximum weight matching: ``mate[v]`` is v's partner, -1 when unmatched."""
        n = self.n
        self._prepare()
        label, endpoint, w = self.label, self.endpoint, self.w
        while True:
            self.stage += 1
            stage = self.stage
            label[:] = [0] * (2 * n)
            self.labelend[:] = [-1] * (2 * n)
            self.bestedge[:] = [-1] * (2 * n)
            self.blossombestedges[n:] = [None] * n
            self.dirty.clear()
            self.queue[:] = []
            inb = self.inblossom
            roots = False
            for v in range(n - 1, -1, -1):
                if self.mate[v] == -1 and self.dualvar[v] > 0 and label[inb[v]] == 0:
                    self.assign_label(v, 1, -1)
                    roots = True
            if not roots:
                break
            while True:
                augmented = False
                allowedge = self.allowedge
                bestedge, ei, ej = self.bestedge, self.ei, self.ej
                dense, outside, ends_by_vertex = self.dense, self.outside, self.ends_by_vertex
                isolated = self.isolated_vertex
                while self.queue and not augmented:
                    v = heappop(self.queue)
                    inb = self.inblossom
                    dual = self.dualvar
                    dv = dual[v]
                    bv = inb[v]
                    sw = self.sw
                    ends = self.active[v]
                    if bv >= n and dense:
                        # v lies in a blossom: its edges inside it are never used, and in a big
                        # blossom they are most of its edges; scan those to the vertices outside.
                        out = outside[bv]
                        if out is None:
                            out = outside[bv] = [y for y in range(n) if inb[y] != bv and not isolated[y]]
                        if len(out) < len(ends):
                            row = ends_by_vertex[v]
                            if row is None:
                                nb = self.neighbend[v]
                                row = ends_by_vertex[v] = nb[:v] + [-1] + nb[v:]
                            ends = [row[y] for y in out]
                    for p in ends:
                        k = p >> 1
                        wk = w[k]
                        if not wk:
                            continue
                        x = endpoint[p]
                        bx = inb[x]
                        if bv == bx:
                            continue
                        kslack = 0
                        if allowedge[k] != stage:
                            kslack = dv + dual[x] - sw[k]
                            if kslack <= 0:
                                allowedge[k] = stage
                            elif label[bx] != 1 and label[x] != 0:
                                continue
                        if allowedge[k] == stage:
                            lx = label[bx]
                            if lx == 0:
                                if self.mate[self.blossombase[bx]] == -1:
                                    self._augment(k)
                                    augmented = True
                                    break
                                self.assign_label(x, 2, p ^ 1)
                            elif lx == 1:
                                base = self.scan_blossom(v, x)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                    bv = inb[v]
                                else:
                                    self._augment(k)
                                    augmented = True
                                    break
                            elif label[x] == 0:
                                label[x] = 2
                                self.labelend[x] = p ^ 1
                        elif label[bx] == 1:
                            be = bestedge[bv]
                            if be == -1 or kslack < dual[ei[be]] + dual[ej[be]] - sw[be]:
                                bestedge[bv] = k
                        elif label[x] == 0:
                            be = bestedge[x]
                            if be == -1 or kslack < dual[ei[be]] + dual[ej[be]] - sw[be]:
                                bestedge[x] = k
                if augmented:
                    break
                if not self._adjust_duals():
                    break
            for b in range(n, 2 * n):
                if (self.blossomparent[b] == -1 and self.blossombase[b] >= 0 and label[b] == 1
                        and self.dualvar[b] == 0):
                    self.expand_blossom(b, True)
        return [-1 if p == -1 else endpoint[p] for p in self.mate]

    def _augment(self, k: int) -> None:
        self.augment_path(self.ei[k], 2 * k + 1)
        self.augment_path(self.ej[k], 2 * k)

    def _adjust_duals(self) -> bool:
        """One dual change; False when the stage must end (a dual reached 0)."""
        n = self.n
        label, inb = self.label, self.inblossom
        for b in self.dirty:
            if self.blossombase[b] >= 0 and self.blossomparent[b] == -1 and label[b] == 1:
                self._refresh_bestedge(b)
        self.dirty.clear()
        while True:
            dual = self.dualvar
            deltatype, delta, deltaedge, deltablossom, deltavertex = -1, 0, -1, -1, -1
            for v in range(n):
                if label[inb[v]] == 1 and (deltatype == -1 or dual[v] < delta):
                    delta, deltatype, deltavertex = dual[v], 1, v
            bestedge, ei, ej, w, scale = self.bestedge, self.ei, self.ej, self.w, self.scale
            for v in range(n):
                be = bestedge[v]
                if be != -1 and label[inb[v]] == 0:
                    d = dual[ei[be]] + dual[ej[be]] - scale * w[be]
                    if d < delta:
                        delta, deltatype, deltaedge = d, 2, be
            odd = False
            parent = self.blossomparent
            for b in range(2 * n):
                be = bestedge[b]
                if be != -1 and parent[b] == -1 and label[b] == 1:
                    s = dual[ei[be]] + dual[ej[be]] - scale * w[be]
                    if s & 1:
                        odd = True
                        break
                    if s >> 1 < delta:
                        delta, deltatype, deltaedge = s >> 1, 3, be
            if odd:
                self._rescale()
                continue
            for b in range(n, 2 * n):
                if (self.blossombase[b] >= 0 and self.blossomparent[b] == -1 and label[b] == 2
                        and dual[b] < delta):
                    delta, deltatype, deltablossom = dual[b], 4, b
            break
        if delta:
            for v in range(n):
                lv = label[inb[v]]
                if lv == 1:
                    dual[v] -= delta
                elif lv == 2:
                    dual[v] += delta
            for b in range(n, 2 * n):
                if self.blossombase[b] >= 0 and self.blossomparent[b] == -1:
                    if label[b] == 1:
                        dual[b] += delta
                    elif label[b] == 2:
                        dual[b] -= delta
        if deltatype == 1:
            if self.mate[deltavertex] != -1:
                self.augment_path(deltavertex, -1)
            return False
        if deltatype == 2:
            self.allowedge[deltaedge] = self.stage
            i, j = self.ei[deltaedge], self.ej[deltaedge]
            if label[inb[i]] == 0:
                i = j
            heappush(self.queue, i)
        elif deltatype == 3:
            self.allowedge[deltaedge] = self.stage
            heappush(self.queue, self.ei[deltaedge])
        else:
            self.expand_blossom(deltablossom, False)
        return True
