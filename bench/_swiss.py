"""A possible Swiss tournament for the pairing and tie-break benches: every round paired by our Dutch
engine (``services.tournament.pairing.dutch.pair_trf``, FIDE C.04.3), so every colour history and
float is one a Swiss can have (bbpPairings' checker, ``bbpPairings --dutch FILE -c``, accepts it).

Results are drawn at random with a seeded RNG: white wins 40 %, draws 30 %, black wins 26 %,
forfeits 2 %; a player asks for a half-point bye 2 % of the time; the pairing-allocated bye scores
a point (``U``).
"""

from __future__ import annotations

import random

from services.tournament.pairing.dutch import pair_trf
from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament

POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


def dutch_swiss(players: int, rounds: int, seed: int, total_rounds: int | None = None) -> TrfTournament:
    """``players`` (start number ``s`` rated 2700 - 3 s) paired by our engine for ``rounds`` rounds
    with seeded random results; XXR ``total_rounds`` (default ``rounds``), first colour white."""
    rng = random.Random(seed)
    total = total_rounds or rounds
    t = TrfTournament(total_rounds=total, header=["012 Benchmark Swiss", f"XXR {total}", "XXC white1"])
    for s in range(1, players + 1):
        t.players[s] = TrfPlayer(start_no=s, name=f"Player {s}", rating=2700 - 3 * s, points=0.0)
    for rnd in range(1, rounds + 1):
        for p in t.players.values():
            if rng.random() < 0.02:
                p.games.append(TrfGame(rnd, None, None, "H"))
        for board in pair_trf(t):
            w, b = t.players[board.white], (t.players[board.black] if board.black else None)
            if b is None:
                w.games.append(TrfGame(rnd, None, None, "U"))
                continue
            x = rng.random()
            codes = ("+", "-") if x < 0.02 else ("1", "0") if x < 0.42 else ("=", "=") if x < 0.72 else ("0", "1")
            w.games.append(TrfGame(rnd, b.start_no, "w", codes[0]))
            b.games.append(TrfGame(rnd, w.start_no, "b", codes[1]))
        for p in t.players.values():
            p.points = sum(POINTS.get(g.result, 0.0) for g in p.games)
    return t
