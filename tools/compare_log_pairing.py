"""Compare the round paired from the event log with the arbiter's actions (what ``venue serve
--round N`` logs) with bbpPairings' pairing of the TRF those actions give.

For each shared Dutch fixture (../shared/data/pairing/dutch, a Swiss after K rounds) and each of
``--variants`` random sets of actions for round K+1 (0-2 withdrawals, 0-2 requested byes H/F/Z,
0-2 late entries with missed rounds Z or H, 0-2 forbidden pairs, Baku acceleration one time in
three), the fixture is written as log entries (tests/trf_log.py) with the actions as the console
records them (``player_withdrew``, ``bye_requested``, ``player_entered``, ``pairing_forbidden``,
``acceleration_set``), folded, and paired by ``round_from_view``. The same actions are entered in
the TRF exported from the log without them (``services.tournament.pairing.actions.apply_actions``,
what ``venue pair --withdraw ... --write`` does); that file is paired by bbpPairings (``--dutch FILE
-p``) and by ``venue pair``'s engine. Rounds no valid pairing exists for (bbpPairings exit 1) are
counted apart (ours must find none either).

Usage::

    python tools/compare_log_pairing.py --bbp /path/to/bbpPairings.exe [--variants 5] [--seed 16]

Prints the rounds compared and the differences; exit 0 when every round is equal. The binary is not
part of the project: build it from its public source outside the repository.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from trf_log import folded, pairs_of, read_pairs, trf_entries  # noqa: E402

from services.arbiter_office.round_from_file import round_from_view  # noqa: E402
from services.arbiter_office.tournament_export import tournament_trf  # noqa: E402
from services.tournament.pairing.actions import (BakuAcceleration, ForbiddenPair, LateEntry,  # noqa: E402
                                                 RequestedBye, Withdrawal, apply_actions, rounds_paired)
from services.tournament.pairing.dutch import NoValidPairing, pair_trf  # noqa: E402
from services.tournament.trf import dump_trf, parse_trf  # noqa: E402


def random_actions(rng: random.Random, t, rnd: int, pending: set[int]):
    """``(entries, actions)``: the same random actions as log entries and as pure records."""
    free = [s for s in sorted(t.players) if s not in pending]
    chosen = rng.sample(free, min(len(free), rng.randint(0, 2) + rng.randint(0, 2)))
    withdrawn, byes = chosen[:len(chosen) // 2], chosen[len(chosen) // 2:]
    entries, actions = [], []
    for sno in withdrawn:
        entries.append(("player_withdrew", {"start_no": sno, "from_round": rnd}))
        actions.append(Withdrawal(sno, rnd))
    for sno in byes:
        code = rng.choice("HFZ")
        entries.append(("bye_requested", {"start_no": sno, "round": rnd, "code": code}))
        actions.append(RequestedBye(sno, rnd, code))
    for i in range(rng.randint(0, 2)):
        sno, rating, missed = max(t.players) + 1 + i, rng.randint(1000, 2400), rng.choice("ZH")
        entries.append(("player_entered", {"start_no": sno, "name": f"Late {i + 1}", "rating": rating,
                                           "first_round": rnd, "missed": missed}))
        actions.append(LateEntry(f"Late {i + 1}", rnd, rating, missed=missed))
    for _ in range(rng.randint(0, 2)):
        pair = rng.sample(sorted(t.players), 2)
        entries.append(("pairing_forbidden", {"players": pair}))
        actions.append(ForbiddenPair(frozenset(pair)))
    if rng.random() < 1 / 3:
        entries.append(("acceleration_set", {"method": "baku"}))
        actions.append(BakuAcceleration())
    return entries, actions


def bbp_pairs(binary: str, text: str) -> set | None:
    """bbpPairings' pairing of ``text``; None when it finds no valid pairing (exit 1)."""
    with tempfile.TemporaryDirectory(prefix="venue-log-pairing") as tmp:
        src, out = os.path.join(tmp, "round.trf"), os.path.join(tmp, "round.pairs")
        Path(src).write_text(text)
        proc = subprocess.run([binary, "--dutch", src, "-p", out], capture_output=True, text=True, timeout=600)
        if proc.returncode == 1:
            return None
        proc.check_returncode()
        return read_pairs(Path(out).read_text())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bbp", required=True, help="a bbpPairings binary")
    p.add_argument("--variants", type=int, default=5, help="random action sets per fixture")
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--shared", default=str(ROOT.parent / "shared"), help="the shared folder (../shared)")
    args = p.parse_args(argv)
    compared = unpairable = 0
    differences: list[str] = []
    for path in sorted((Path(args.shared) / "data" / "pairing" / "dutch").glob("*.trf")):
        t = parse_trf(path.read_text())
        rnd = rounds_paired(t) + 1
        base = trf_entries(t)
        pending = [e for e in base if e[0] == "bye_requested"]
        played = base[:len(base) - len(pending)]
        own = [RequestedBye(d["start_no"], rnd, d["code"]) for _, d in pending]
        exported = parse_trf(tournament_trf(folded(played)))
        for v in range(args.variants):
            rng = random.Random(f"{args.seed}-{path.stem}-{v}")
            entries, actions = random_actions(rng, t, rnd, {d["start_no"] for _, d in pending})
            text = dump_trf(apply_actions(exported, own + actions, rnd))
            theirs = bbp_pairs(args.bbp, text)
            try:
                ours = pairs_of(round_from_view(folded(played + pending + entries), rnd))
            except NoValidPairing:
                ours = None
            try:
                engine = {(b.white, b.black) for b in pair_trf(parse_trf(text))}
            except NoValidPairing:
                engine = None
            compared += 1
            unpairable += theirs is None
            if not ours == theirs == engine:
                differences.append(f"{path.stem} variant {v}: {entries}")
    print(f"rounds compared: {compared} ({unpairable} without a valid pairing, for both)")
    print(f"differences: {len(differences)}")
    for line in differences:
        print(f"  {line}")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
