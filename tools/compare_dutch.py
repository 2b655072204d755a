"""Compare our Dutch pairing (FIDE C.04.3) with bbpPairings' on thousands of random tournaments.

bbpPairings (the FIDE-endorsed program) is the oracle: its random tournament generator (``-g`` with a
config of players, rounds, draw, forfeit, retirement and half-point-bye rates) makes each tournament,
then every round of it is paired again from the rounds before it, by bbpPairings (``--dutch FILE -p``)
and by us, and the two pairings are compared (the same pairs with the same colours).

Each compared round may carry one of the organiser's edges on top of the generated history:
withdrawals and requested byes for the round being paired (``0000 - Z``/``H``/``F`` entries, TRF-2026
``240`` lines), late entries (new players absent from the earlier rounds), forbidden pairs (``XXP``),
Baku acceleration (``192 FIDE_DUTCH_2025_BAKU``), an explicit or inferred first colour.

Usage::

    python tools/compare_dutch.py --bbp /path/to/bbpPairings.exe --tournaments 2000 --seed 7 \
        [--workers 2] [--out DIR] [--min-players 6] [--max-players 400]

Prints the number of tournaments and rounds compared and the differences by kind; writes each
differing round to ``--out`` as ``NAME.trf`` (the input), ``NAME.pairs`` (bbpPairings' pairing, the
fixture format of tests/data/pairing) and ``NAME.ours``. Exit 0 when every compared round is equal.
The binary is not part of the project: build it from its public source outside the repository.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.tournament.pairing.dutch import NoValidPairing, pair_trf  # noqa: E402
from services.tournament.trf import parse_trf  # noqa: E402

_POINTS = {"1": 10, "+": 10, "W": 10, "F": 10, "U": 10, "=": 5, "D": 5, "H": 5}
_ROUND_START, _WIDTH = 91, 10
VARIANTS = ("plain", "withdrawal", "requested_bye", "late_entry", "forbidden", "baku", "colour", "bye_240")


@dataclass
class Outcome:
    """What one tournament gave: rounds compared per variant, differences (name, kind, files)."""

    rounds: Counter = field(default_factory=Counter)
    differences: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    generator_failures: int = 0


def _config(rng: random.Random, min_players: int, max_players: int) -> tuple[dict[str, str], int]:
    """A random generator config (bbpPairings' keys) and its number of rounds; sizes lean small so
    that thousands of tournaments stay affordable, with a tail up to ``max_players``."""
    x = rng.random()
    hi = max_players
    if x < 0.55:
        hi = min(max_players, 40)
    elif x < 0.9:
        hi = min(max_players, 150)
    players = rng.randint(min_players, max(min_players, hi))
    rounds = rng.randint(3, max(3, min(13, players - 1 if players < 14 else 13)))
    cfg = {
        "PlayersNumber": str(players),
        "RoundsNumber": str(rounds),
        "DrawPercentage": str(rng.choice([0, 10, 30, 50, 70])),
        "ForfeitRate": str(rng.choice([3, 8, 20, 60, 1000])),
        "RetiredRate": str(rng.choice([2.5, 5, 15, 50, 1000])),
        "HalfPointByeRate": str(rng.choice([2, 5, 15, 50, 1000])),
    }
    return cfg, rounds


def _blocks(line: str) -> list[str]:
    body = line[_ROUND_START:]
    return [body[i:i + _WIDTH - 2].ljust(8) for i in range(0, len(body), _WIDTH)]


def _absent_block(code: str) -> str:
    return f"0000 - {code}"


def _player_line(start_no: int, rating: int, blocks: list[str]) -> str:
    points = sum(_POINTS.get(b[7], 0) for b in blocks)
    head = f"001 {start_no:4d}      Test{start_no:04d} Player{start_no:04d}".ljust(48) + f"{rating:4d}"
    head = head.ljust(80) + f"{points // 10:2d}.{points % 10}" + f"{start_no:5d}"
    return (head.ljust(_ROUND_START) + "  ".join(blocks)).rstrip()


def _prefix(lines: list[str], k: int, total: int, rng: random.Random, variant: str) -> str | None:
    """The TRF to pair round k+1: rounds 1..k of the generated tournament, the requested byes of
    round k+1 the generator drew, and the ``variant``'s edge. None when the variant cannot apply."""
    players = []
    for line in lines:
        if line.startswith("001"):
            players.append((int(line[4:8]), int(line[48:52] or 0), _blocks(line)))
    n = len(players)
    rows: dict[int, tuple[int, list[str]]] = {}
    for s, rating, blocks in players:
        past = blocks[:k]
        nxt = blocks[k] if k < len(blocks) else ""
        if nxt.startswith("0000") and nxt[7] in "HZF":
            past = past + [nxt]
        rows[s] = (rating, past)
    extra: list[str] = []
    present = [s for s, (_, b) in rows.items() if len(b) == k]
    if variant == "withdrawal":
        if len(present) < 5:
            return None
        for s in rng.sample(present, rng.randint(1, min(3, len(present) - 4))):
            rows[s] = (rows[s][0], rows[s][1] + [_absent_block("Z")])
    elif variant == "requested_bye":
        if len(present) < 5:
            return None
        for s in rng.sample(present, rng.randint(1, min(4, len(present) - 4))):
            rows[s] = (rows[s][0], rows[s][1] + [_absent_block(rng.choice("HHF"))])
    elif variant == "bye_240":
        if len(present) < 5:
            return None
        chosen = sorted(rng.sample(present, rng.randint(1, min(3, len(present) - 4))))
        extra.append(f"240 H {k + 1:3d} " + " ".join(f"{s:4d}" for s in chosen))
    elif variant == "late_entry":
        if k == 0:
            return None
        for j in range(rng.randint(1, 3)):
            s = n + j + 1
            missed = [_absent_block(rng.choice("ZZH")) if rng.random() < 0.7 else "        " for _ in range(k)]
            rows[s] = (rng.randint(1400, 2700), missed)
    elif variant == "forbidden":
        if len(present) < 6:
            return None
        for _ in range(rng.randint(1, 3)):
            a = rng.randrange(len(present) - 1)
            group = [present[a]] + rng.sample(present[a + 1:min(len(present), a + 8)], rng.randint(1, 2)
                                               if len(present) - a > 2 else 1)
            extra.append("XXP " + " ".join(str(s) for s in group))
    elif variant == "baku":
        extra.append("192 FIDE_DUTCH_2025_BAKU")
    if k == 0 or variant == "colour":
        extra.append(f"XXC {rng.choice(['white1', 'black1'])}")
    out = ["012 AutoTest Tournament"]
    for s in sorted(rows):
        rating, blocks = rows[s]
        out.append(_player_line(s, rating, blocks))
    out.append(f"XXR {total}")
    out.extend(extra)
    return "\n".join(out) + "\n"


def _bbp_pairs(bbp: str, trf_path: str, out_path: str) -> str:
    """bbpPairings' pairing (its output file's text) or ``"NO PAIRING"`` / ``"ERROR ..."``."""
    proc = subprocess.run([bbp, "--dutch", trf_path, "-p", out_path], capture_output=True, text=True)
    if proc.returncode == 1:
        return "NO PAIRING\n"
    if proc.returncode:
        return f"ERROR {proc.returncode}: {proc.stderr.strip()}\n"
    return Path(out_path).read_text()


def _our_pairs(text: str) -> str:
    try:
        pairing = pair_trf(parse_trf(text))
    except NoValidPairing:
        return "NO PAIRING\n"
    except ValueError as exc:
        return f"ERROR: {exc}\n"
    return "\n".join([str(len(pairing))] + [f"{p.white} {p.black or 0}" for p in pairing]) + "\n"


def _as_set(text: str) -> frozenset | str:
    lines = text.split("\n")
    if not lines[0].strip().isdigit():
        return lines[0].split(":")[0]
    return frozenset(tuple(line.split()) for line in lines[1:int(lines[0]) + 1])


def _kind(ours: frozenset | str, theirs: frozenset | str) -> str:
    if isinstance(ours, str) or isinstance(theirs, str):
        return f"ours {ours if isinstance(ours, str) else 'paired'} / bbp {theirs if isinstance(theirs, str) else 'paired'}"
    bye_o = {p for p in ours if p[1] == "0"}
    bye_t = {p for p in theirs if p[1] == "0"}
    if bye_o != bye_t:
        return "bye"
    unordered_o = {frozenset(p) for p in ours}
    unordered_t = {frozenset(p) for p in theirs}
    return "colours" if unordered_o == unordered_t else "pairs"


def compare_tournament(args: tuple[str, int, int, int, str | None]) -> Outcome:
    """Generate tournament ``index`` of the run ``seed`` and compare each of its rounds."""
    bbp, seed, index, max_players, min_players_s = args
    min_players = int(min_players_s or 6)
    rng = random.Random(seed * 1_000_003 + index)
    cfg, total = _config(rng, min_players, max_players)
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="dutchcmp") as tmp:
        cfg_path = os.path.join(tmp, "gen.cfg")
        Path(cfg_path).write_text("".join(f"{k}={v}\n" for k, v in cfg.items()))
        gen_path = os.path.join(tmp, "gen.trf")
        proc = subprocess.run([bbp, "--dutch", "-g", cfg_path, "-o", gen_path, "-s", str(rng.getrandbits(31))],
                              capture_output=True, text=True)
        if proc.returncode:
            outcome.generator_failures += 1
            return outcome
        lines = Path(gen_path).read_text().replace("\r", "\n").split("\n")
        for k in range(total):
            variant = "plain" if rng.random() < 0.5 else rng.choice(VARIANTS[1:])
            text = _prefix(lines, k, total, rng, variant)
            if text is None:
                variant = "plain"
                text = _prefix(lines, k, total, rng, variant)
            trf_path = os.path.join(tmp, "round.trf")
            Path(trf_path).write_text(text)
            theirs = _bbp_pairs(bbp, trf_path, os.path.join(tmp, "round.pairs"))
            ours = _our_pairs(text)
            outcome.rounds[variant] += 1
            a, b = _as_set(ours), _as_set(theirs)
            if a != b:
                name = f"s{seed}-t{index}-{cfg['PlayersNumber']}p-r{k + 1}of{total}-{variant}"
                outcome.differences.append((name, _kind(a, b), {"trf": text, "pairs": theirs, "ours": ours}))
    return outcome


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; print the summary; return 0 when every round agreed, else 1."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bbp", required=True, help="path to a bbpPairings binary (built outside the project)")
    ap.add_argument("--tournaments", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--min-players", type=int, default=6)
    ap.add_argument("--max-players", type=int, default=400)
    ap.add_argument("--out", help="folder for the differing rounds (TRF, bbp's and our pairing)")
    args = ap.parse_args(argv)
    tasks = [(args.bbp, args.seed, i, args.max_players, str(args.min_players)) for i in range(args.tournaments)]
    total = Outcome()
    with multiprocessing.Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(compare_tournament, tasks), start=1):
            total.rounds.update(outcome.rounds)
            total.differences.extend(outcome.differences)
            total.generator_failures += outcome.generator_failures
            if done % 100 == 0:
                print(f"  {done} tournaments, {sum(total.rounds.values())} rounds, "
                      f"{len(total.differences)} differences", file=sys.stderr, flush=True)
    rounds = sum(total.rounds.values())
    print(f"tournaments compared: {args.tournaments - total.generator_failures} (seed {args.seed}; "
          f"{total.generator_failures} more that bbpPairings' generator could not complete)")
    print(f"rounds compared: {rounds}  ({', '.join(f'{v} {total.rounds[v]}' for v in VARIANTS if total.rounds[v])})")
    print(f"differences: {len(total.differences)}")
    for kind, count in Counter(k for _, k, _ in total.differences).most_common():
        print(f"  {kind}: {count}")
    for variant, count in Counter(n.rsplit("-", 1)[1] for n, _, _ in total.differences).most_common():
        print(f"  in {variant} rounds: {count}")
    if args.out and total.differences:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, _, files in total.differences:
            for ext, content in files.items():
                (out / f"{name}.{ext}").write_text(content)
        print(f"written to {out}")
    return 0 if not total.differences else 1


if __name__ == "__main__":
    raise SystemExit(main())
