"""The maximum weight matching engine against its definition (exhaustive search on small graphs)."""

from __future__ import annotations

import random

import pytest

from services.tournament.pairing.matching import WeightedMatcher, max_weight_matching


def _best(n: int, weights: dict[tuple[int, int], int]) -> int:
    def rec(free: tuple[int, ...]) -> int:
        if not free:
            return 0
        v, rest = free[0], free[1:]
        best = rec(rest)
        for u in rest:
            w = weights.get((v, u), 0)
            if w > 0:
                best = max(best, w + rec(tuple(x for x in rest if x != u)))
        return best

    return rec(tuple(range(n)))


@pytest.mark.parametrize("seed", range(6))
def test_matches_exhaustive_search(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        n = rng.randint(1, 9)
        scale = rng.choice([3, 10, 10**30])
        edges = [(i, j, rng.randint(1, scale)) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.6]
        mate = max_weight_matching(n, edges)
        weights = {(i, j): w for i, j, w in edges}
        total = 0
        for v, m in enumerate(mate):
            if m != -1:
                assert mate[m] == v
                if v < m:
                    total += weights[(v, m)]
        assert total == _best(n, weights)


def test_odd_cycle_needs_a_blossom() -> None:
    # A triangle 0-1-2 with a pendant 3 on vertex 2: the best takes 0-1 and 2-3.
    assert max_weight_matching(4, [(0, 1, 5), (1, 2, 5), (0, 2, 5), (2, 3, 4)]) == [1, 0, 3, 2]


def test_non_positive_edges_are_ignored_and_bad_edges_rejected() -> None:
    assert max_weight_matching(2, [(0, 1, 0)]) == [-1, -1]
    with pytest.raises(ValueError):
        max_weight_matching(2, [(0, 2, 1)])
    with pytest.raises(ValueError):
        max_weight_matching(2, [(1, 1, 1)])


@pytest.mark.parametrize("seed", range(4))
def test_incremental_solves_stay_optimal(seed: int) -> None:
    """After edge changes around one or two vertices, the kept optimum is re-optimised correctly
    (checked against exhaustive search after every change)."""
    rng = random.Random(100 + seed)
    for _ in range(40):
        n = rng.randint(2, 9)
        matcher = WeightedMatcher(n)
        weights = {(i, j): 0 for i in range(n) for j in range(i + 1, n)}
        scale = rng.choice([4, 100, 10**25])
        for key in weights:
            if rng.random() < 0.6:
                weights[key] = rng.randint(1, scale)
                matcher.set_weight(*key, weights[key])
        for _ in range(10):
            mate = matcher.solve()
            total = sum(weights[(v, m)] for v, m in enumerate(mate) if m > v)
            assert all(m == -1 or mate[m] == v for v, m in enumerate(mate))
            assert total == _best(n, weights)
            for v in rng.sample(range(n), rng.randint(1, min(2, n))):
                for u in range(n):
                    if u != v:
                        key = (min(u, v), max(u, v))
                        roll = rng.random()
                        if roll < 0.3:
                            weights[key] = 0
                        elif roll < 0.6:
                            weights[key] = rng.randint(1, scale)
                        matcher.set_weight(*key, weights[key])


@pytest.mark.parametrize("seed", range(4))
def test_bulk_raises_shared_and_compaction_stay_optimal(seed: int) -> None:
    """Whole groups of edges raised at once (solved with ``share_raises``, as for a new bracket),
    removed edges compacted out of the search lists: still the optimum of exhaustive search."""
    rng = random.Random(200 + seed)
    for _ in range(30):
        n = rng.randint(3, 9)
        matcher = WeightedMatcher(n)
        weights = {(i, j): rng.randint(1, 50) if rng.random() < 0.7 else 0 for i in range(n) for j in range(i + 1, n)}
        for key, w in weights.items():
            matcher.set_weight(*key, w)
        for _ in range(6):
            group = set(rng.sample(range(n), rng.randint(2, n)))
            bump = rng.choice([1, 7, 1000])
            for (i, j), w in weights.items():
                if i in group and j in group and w:
                    weights[(i, j)] = w + bump + rng.randint(0, 3)
                    matcher.set_weight(i, j, weights[(i, j)])
                elif rng.random() < 0.1:
                    weights[(i, j)] = 0
                    matcher.set_weight(i, j, 0)
            matcher.share_raises = rng.random() < 0.7
            if rng.random() < 0.5:
                matcher.solve()
                matcher.compact()
            mate = matcher.solve()
            assert sum(weights[(v, m)] for v, m in enumerate(mate) if m > v) == _best(n, weights)


def test_start_from_duals() -> None:
    """Weights that are sums of vertex terms (w = a_i + a_j on the edges present): starting from the
    duals 2a_i gives the optimum of exhaustive search; infeasible duals are refused."""
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 9)
        a = [rng.randint(1, 20) for _ in range(n)]
        weights = {(i, j): (a[i] + a[j] if rng.random() < 0.7 else 0) for i in range(n) for j in range(i + 1, n)}
        matcher = WeightedMatcher(n)
        for key, w in weights.items():
            matcher.set_weight(*key, w)
        if any(weights.values()):
            assert not matcher.start_from_duals([0] * n)
        assert matcher.start_from_duals([2 * x for x in a])
        mate = matcher.solve()
        assert sum(weights[(v, m)] for v, m in enumerate(mate) if m > v) == _best(n, weights)
