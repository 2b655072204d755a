"""Pick the most varied of the rounds that tools/compare_dutch.py wrote (``--out``) as test fixtures.

Each differing round is classed by the organiser's edge it carries (plain, withdrawal, requested bye,
late entry, forbidden pair, Baku, given first colour, 240 bye record), how it differed (pairs, PAB,
colours), the number of players (6-10, 11-20, 21-40, 41+), where it falls (round 1, middle,
penultimate, last) and whether the players to pair are odd or even; the smallest file of each class is
taken in turn until ``--count`` are chosen. Copies ``NAME.trf`` and ``NAME.pairs`` (bbpPairings'
pairing) into ``--to``.

Usage: python tools/select_fixtures.py DIFF_DIR --to tests/data/pairing/oracle [--count 300]
"""

from __future__ import annotations

import argparse
import re
import shutil
from collections import defaultdict
from pathlib import Path

NAME = re.compile(r"s(\d+)-t(\d+)-(\d+)p-r(\d+)of(\d+)-(\w+)$")


def _kind(pairs: str, ours: str) -> str:
    if not pairs[:1].isdigit() or not ours[:1].isdigit():
        return "no-pairing"
    a = {tuple(x.split()) for x in pairs.split("\n")[1:] if x}
    b = {tuple(x.split()) for x in ours.split("\n")[1:] if x}
    if {p for p in a if p[1] == "0"} != {p for p in b if p[1] == "0"}:
        return "bye"
    return "colours" if {frozenset(p) for p in a} == {frozenset(p) for p in b} else "pairs"


def main() -> None:
    """Select and copy; print the count per class dimension."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source")
    ap.add_argument("--to", required=True)
    ap.add_argument("--count", type=int, default=300)
    args = ap.parse_args()
    classes: dict[tuple, list[tuple[int, Path]]] = defaultdict(list)
    for trf in Path(args.source).glob("*.trf"):
        m = NAME.match(trf.stem)
        pairs, ours = trf.with_suffix(".pairs").read_text(), trf.with_suffix(".ours").read_text()
        if m is None or pairs.startswith("ERROR"):
            continue
        players, rnd, total, variant = int(m[3]), int(m[4]), int(m[5]), m[6]
        size = "6-10" if players <= 10 else "11-20" if players <= 20 else "21-40" if players <= 40 else "41+"
        where = "first" if rnd == 1 else "last" if rnd == total else "penultimate" if rnd == total - 1 else "middle"
        lines = pairs.split("\n")
        odd = "odd" if lines[0].isdigit() and any(x.endswith(" 0") for x in lines[1:]) else "even"
        classes[(variant, _kind(pairs, ours), size, where, odd)].append((trf.stat().st_size, trf))
    for members in classes.values():
        members.sort()
    chosen: list[Path] = []
    depth = 0
    while len(chosen) < args.count and any(len(m) > depth for m in classes.values()):
        for key in sorted(classes):
            if len(classes[key]) > depth and len(chosen) < args.count:
                chosen.append(classes[key][depth][1])
        depth += 1
    out = Path(args.to)
    out.mkdir(parents=True, exist_ok=True)
    for trf in chosen:
        shutil.copy(trf, out / trf.name)
        shutil.copy(trf.with_suffix(".pairs"), out / f"{trf.stem}.pairs")
    print(f"{len(chosen)} fixtures from {sum(len(m) for m in classes.values())} rounds in {len(classes)} classes")


if __name__ == "__main__":
    main()
