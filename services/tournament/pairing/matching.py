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
        if w > 0:
            edge_list.append((i, j, w))
    if not edge_list:
        return [-1] * n
    return _Solver(n, edge_list).solve()


class _Solver:
    """One run of the blossom algorithm; see :func:`max_weight_matching`.

    Edge k has endpoints ``2k`` (its first vertex) and ``2k+1`` (its second); ``mate[v]`` holds the
    remote endpoint of v's matched edge. Blossoms are numbered n..2n-1; duals are doubled so that all
    arithmetic stays integral (slack = u_i + u_j - 2 w).
    """

    def __init__(self, n: int, edges: list[tuple[int, int, int]]) -> None:
        self.n = n
        self.edges = edges
        maxw = max(w for _, _, w in edges)
        self.endpoint = [v for i, j, _ in edges for v in (i, j)]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.blossomparent = [-1] * (2 * n)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * n)
        self.blossombase = list(range(n)) + [-1] * n
        self.blossomendps: list[list[int] | None] = [None] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * n)
        self.unusedblossoms = list(range(n, 2 * n))
        self.dualvar = [maxw] * n + [0] * n
        self.allowedge = [False] * len(edges)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        i, j, w = self.edges[k]
        return self.dualvar[i] + self.dualvar[j] - 2 * w

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                out.append(t)
            else:
                stack.extend(reversed(self.blossomchilds[t]))
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        while True:
            b = self.inblossom[w]
            self.label[w] = self.label[b] = t
            self.labelend[w] = self.labelend[b] = p
            self.bestedge[w] = self.bestedge[b] = -1
            if t == 1:
                self.queue.extend(self.leaves(b))
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
        v, w, _ = self.edges[k]
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
        self.blossomendps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for x in self.leaves(b):
            if self.label[inb[x]] == 2:
                self.queue.append(x)
            inb[x] = b
        bestedgeto: dict[int, int] = {}
        for sub in path:
            if self.blossombestedges[sub] is None:
                lists = [[p // 2 for p in self.neighbend[x]] for x in self.leaves(sub)]
            else:
                lists = [self.blossombestedges[sub]]
            for lst in lists:
                for kk in lst:
                    i, j, _ = self.edges[kk]
                    if inb[j] == b:
                        i, j = j, i
                    bj = inb[j]
                    if bj != b and self.label[bj] == 1:
                        cur = bestedgeto.get(bj, -1)
                        if cur == -1 or self.slack(kk) < self.slack(cur):
                            bestedgeto[bj] = kk
            self.blossombestedges[sub] = None
            self.bestedge[sub] = -1
        best = list(bestedgeto.values())
        self.blossombestedges[b] = best
        be = -1
        for kk in best:
            if be == -1 or self.slack(kk) < self.slack(be):
                be = kk
        self.bestedge[b] = be

    def expand_blossom(self, b: int, endstage: bool) -> None:
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
                self.allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p // 2] = True
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
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
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

    def augment_matching(self, k: int) -> None:
        v, w, _ = self.edges[k]
        n = self.n
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
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

    def solve(self) -> list[int]:
        n = self.n
        label, inb, endpoint = self.label, self.inblossom, self.endpoint
        for _ in range(n):
            label[:] = [0] * (2 * n)
            self.bestedge[:] = [-1] * (2 * n)
            self.blossombestedges[n:] = [None] * n
            self.allowedge[:] = [False] * len(self.edges)
            self.queue[:] = []
            for v in range(n):
                if self.mate[v] == -1 and label[inb[v]] == 0:
                    self.assign_label(v, 1, -1)
            augmented = False
            while True:
                while self.queue and not augmented:
                    v = self.queue.pop()
                    for p in self.neighbend[v]:
                        k = p >> 1
                        w = endpoint[p]
                        if inb[v] == inb[w]:
                            continue
                        kslack = 0
                        if not self.allowedge[k]:
                            kslack = self.slack(k)
                            if kslack <= 0:
                                self.allowedge[k] = True
                        if self.allowedge[k]:
                            lw = label[inb[w]]
                            if lw == 0:
                                self.assign_label(w, 2, p ^ 1)
                            elif lw == 1:
                                base = self.scan_blossom(v, w)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                else:
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                            elif label[w] == 0:
                                label[w] = 2
                                self.labelend[w] = p ^ 1
                        elif label[inb[w]] == 1:
                            b = inb[v]
                            if self.bestedge[b] == -1 or kslack < self.slack(self.bestedge[b]):
                                self.bestedge[b] = k
                        elif label[w] == 0:
                            if self.bestedge[w] == -1 or kslack < self.slack(self.bestedge[w]):
                                self.bestedge[w] = k
                if augmented:
                    break
                deltatype = 1
                delta = min(self.dualvar[:n])
                deltaedge = deltablossom = -1
                for v in range(n):
                    if label[inb[v]] == 0 and self.bestedge[v] != -1:
                        d = self.slack(self.bestedge[v])
                        if d < delta:
                            delta, deltatype, deltaedge = d, 2, self.bestedge[v]
                for b in range(2 * n):
                    if self.blossomparent[b] == -1 and label[b] == 1 and self.bestedge[b] != -1:
                        d = self.slack(self.bestedge[b]) // 2
                        if d < delta:
                            delta, deltatype, deltaedge = d, 3, self.bestedge[b]
                for b in range(n, 2 * n):
                    if (self.blossombase[b] >= 0 and self.blossomparent[b] == -1 and label[b] == 2
                            and self.dualvar[b] < delta):
                        delta, deltatype, deltablossom = self.dualvar[b], 4, b
                dual = self.dualvar
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
                    break
                if deltatype == 2:
                    self.allowedge[deltaedge] = True
                    i, j, _ = self.edges[deltaedge]
                    if label[inb[i]] == 0:
                        i, j = j, i
                    self.queue.append(i)
                elif deltatype == 3:
                    self.allowedge[deltaedge] = True
                    i, _, _ = self.edges[deltaedge]
                    self.queue.append(i)
                else:
                    self.expand_blossom(deltablossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if (self.blossomparent[b] == -1 and self.blossombase[b] >= 0 and label[b] == 1
                        and self.dualvar[b] == 0):
                    self.expand_blossom(b, True)
        return [-1 if p == -1 else endpoint[p] for p in self.mate]
