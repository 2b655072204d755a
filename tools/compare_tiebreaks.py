"""Compare our tie-breaks (``venue tiebreaks``) with FIDE's TieBreakServer on generated events.

FIDE's TieBreakServer (github.com/OttoMilvang/TieBreakServer, ``tiebreakchecker.py``) is the oracle.
Each generated event is a small Swiss or round robin (seeded: the same ``--seed`` gives the same
files) with unplayed rounds of every kind FIDE C.07 Art. 16 distinguishes, placed in the first, a
middle and the last round: pairing-allocated byes (``U``), full-, half- and zero-point byes (``F``
``H`` ``Z``), forfeits (``+``/``-``, one-sided and double), absences (a blank round block) and
withdrawals (the line cut short, or ``0000 - -`` / ``0000 - Z`` to the end). One event in five also
holds C.07's hard case named in issue 30: a player with a bye, then a forfeit loss, then a withdrawal.

Both programs rank and compute the same tie-breaks; the script compares every printed value and rank
and prints the number of events compared, equal and differing, the differing cells by tie-break, and
how often each kind of unplayed round was placed in each position.

Usage::

    python tools/compare_tiebreaks.py --tbs /work/scratch/tbs --python /work/scratch/tbs/.venv/bin/python \
        --events 240 --seed 30 [--out DIR] [--edition 2026|2024] [--keep DIR]

``--reports N``: also the rating reports we export (``venue export --format trf``) of the chess seed
events (events/*.toml, played N times with seeded results through the arbiter's actions,
tests/trf_events.py): the oracle must read each (it refuses a file whose points column disagrees with
its codes) and compute the event's tie-breaks as we do from the file, as any TRF16 reader sees it (our
own VPS/VPT lines left out: the classical points), each with the C.07 text the oracle picks from the
file's start date (before 1 March 2026: Aug-2024).

``--edition 2024`` writes a start date (TRF ``042``) before 1 March 2026, which makes the
TieBreakServer apply the Aug-2024 text of C.07 (its ``find_tmversion``), and runs ours with
``--edition 2024``. ``--out``: each differing event as ``NAME.trf``, ``NAME.tbs.tsv``, ``NAME.ours.tsv``.
``--keep``: every event with the oracle's answer (to freeze fixtures). Exit 0 when all are equal.
The oracle is not part of the project: fetch and run it outside the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from venue import tiebreaks as venue_tiebreaks  # noqa: E402

SWISS_TIEBREAKS = ["PTS", "BH", "BH/C1", "BH/C2", "BH/M1", "SB", "SB/C1", "SB/M1", "ARO", "WIN", "WON",
                   "BPG", "BWG", "KS", "DE"]
ROUND_ROBIN_TIEBREAKS = ["PTS", "DE", "BPG", "KS", "SB", "WON", "WIN", "BH", "ARO"]
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
KINDS = ("PAB", "FPB", "HPB", "ZPB", "forfeit", "double forfeit", "absence", "withdrawal")


@dataclass
class Block:
    """One round of one player as the TRF writes it."""

    opponent: int = 0
    color: str = "-"
    code: str = " "


@dataclass
class Event:
    """A generated event: its name, TRF text, system and where its unplayed rounds fell."""

    name: str
    text: str
    swiss: bool
    placed: Counter = field(default_factory=Counter)


def _position(rnd: int, rounds: int) -> str:
    return "first" if rnd == 1 else "last" if rnd == rounds else "middle"


def _played(rng: random.Random) -> tuple[str, str]:
    return rng.choice([("1", "0"), ("1", "0"), ("=", "="), ("=", "="), ("0", "1"), ("0", "1")])


def _swiss(rng: random.Random, n: int, rounds: int, hard_case: bool) -> tuple[dict[int, list[Block]], Counter]:
    """Random pairings by score (no colour or repeat rules: tie-breaks do not depend on them)."""
    grid: dict[int, list[Block]] = {p: [] for p in range(1, n + 1)}
    placed: Counter = Counter()
    withdrawn: dict[int, int] = {}  # player -> first round missed to the end
    if rng.random() < 0.7:
        w = rng.randint(1, n)
        withdrawn[w] = rng.randint(2, rounds) if rng.random() < 0.8 else 1
        placed["withdrawal", _position(withdrawn[w], rounds)] += 1
    hard = rng.randint(1, n) if hard_case else None
    if hard is not None:
        withdrawn[hard] = min(3, rounds)
        withdrawn = {p: r for p, r in withdrawn.items() if p == hard or r > 3}
    had_pab: set[int] = set()
    for rnd in range(1, rounds + 1):
        present = [p for p in grid if withdrawn.get(p, rounds + 1) > rnd]
        for p in grid:
            if p not in present:
                grid[p].append(Block())
        byes: dict[int, str] = {}
        if hard is not None and rnd == 1:
            byes[hard] = rng.choice("HZF")
        for p in present:
            if p not in byes and p != hard and rng.random() < 0.07:
                byes[p] = rng.choice("HZF ")
        for p, code in byes.items():
            grid[p].append(Block(0, "-", code))
            kind = {"H": "HPB", "Z": "ZPB", "F": "FPB", " ": "absence"}[code]
            placed[kind, _position(rnd, rounds)] += 1
        pool = [p for p in present if p not in byes]
        score = {p: sum(POINTS[b.code] for b in grid[p]) for p in grid}
        pool.sort(key=lambda p: (-score[p], rng.random()))
        if len(pool) % 2:
            cands = [p for p in reversed(pool) if p not in had_pab and p != hard] or [pool[-1]]
            pab = cands[0]
            pool.remove(pab)
            had_pab.add(pab)
            grid[pab].append(Block(0, "-", "U"))
            placed["PAB", _position(rnd, rounds)] += 1
        for i in range(0, len(pool), 2):
            a, b = pool[i], pool[i + 1]
            if rng.random() < 0.5:
                a, b = b, a
            if hard is not None and rnd == 2 and hard in (a, b):
                ra, rb = ("-", "+") if a == hard else ("+", "-")
                placed["forfeit", _position(rnd, rounds)] += 1
            else:
                x = rng.random()
                if x < 0.06:
                    ra, rb = rng.choice([("+", "-"), ("-", "+")])
                    placed["forfeit", _position(rnd, rounds)] += 1
                elif x < 0.08:
                    ra, rb = "-", "-"
                    placed["double forfeit", _position(rnd, rounds)] += 1
                else:
                    ra, rb = _played(rng)
            grid[a].append(Block(b, "w", ra))
            grid[b].append(Block(a, "b", rb))
    return grid, placed


def _berger(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin rounds by the circle method (FIDE C.05 Berger tables' construction)."""
    players = list(range(1, n + 1)) + ([0] if n % 2 else [])
    m = len(players)
    out = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        out.append(pairs)
        players = [players[0]] + [players[-1]] + players[1:-1]
    return out


def _round_robin(rng: random.Random, n: int) -> tuple[dict[int, list[Block]], Counter, int]:
    schedule = _berger(n)
    rounds = len(schedule)
    grid: dict[int, list[Block]] = {p: [] for p in range(1, n + 1)}
    placed: Counter = Counter()
    withdrawn: dict[int, int] = {}
    if rng.random() < 0.6:
        w = rng.randint(1, n)
        withdrawn[w] = rng.randint(2, rounds)
        placed["withdrawal", _position(withdrawn[w], rounds)] += 1
    # a withdrawn player's later games: forfeited to the opponents, or left unplayed for both
    blank_after = rng.random() < 0.4
    for rnd, pairs in enumerate(schedule, start=1):
        for a, b in pairs:
            if 0 in (a, b):
                p = a or b
                grid[p].append(Block())
                continue
            out_a, out_b = withdrawn.get(a, rounds + 1) <= rnd, withdrawn.get(b, rounds + 1) <= rnd
            if (out_a or out_b) and blank_after:
                grid[a].append(Block())
                grid[b].append(Block())
                placed["absence", _position(rnd, rounds)] += 1
                continue
            if out_a or out_b:
                ra, rb = ("-" if out_a else "+"), ("-" if out_b else "+")
                kind = "double forfeit" if out_a and out_b else "forfeit"
            else:
                x = rng.random()
                kind = "forfeit" if x < 0.08 else "double forfeit" if x < 0.1 else ""
                ra, rb = rng.choice([("+", "-"), ("-", "+")]) if kind == "forfeit" else ("-", "-") if kind else _played(rng)
            if kind:
                placed[kind, _position(rnd, rounds)] += 1
            grid[a].append(Block(b, "w", ra))
            grid[b].append(Block(a, "b", rb))
    return grid, placed, rounds


def _trf(name: str, grid: dict[int, list[Block]], rounds: int, swiss: bool, ratings: dict[int, int | None],
         start_date: str | None, rng: random.Random) -> str:
    lines = [f"012 {name}"]
    if start_date:
        lines.append(f"042 {start_date}")
    lines.append("092 Individual: Swiss-System" if swiss else "092 Individual: Round-Robin")
    for p, blocks in grid.items():
        # a withdrawal is written three ways: blocks left out, "0000 - -", "0000 - Z"
        style = rng.choice(["cut", "dash", "Z"])
        body = []
        for b in blocks:
            if b.opponent == 0 and b.code == " " and style != "cut":
                body.append(f"  0000 - {'-' if style == 'dash' else 'Z'}")
            elif b.opponent == 0 and b.code == " ":
                body.append("          ")
            else:
                body.append(f"  {b.opponent:>4} {b.color} {b.code}" if b.opponent else f"  0000 - {b.code}")
        text = "".join(body).rstrip()
        pts = sum(POINTS[b.code] for b in blocks)
        rating = ratings[p]
        head = (f"001 {p:>4} m    {'Player' + str(p):<33} {'' if rating is None else rating:>4} NOR "
                f"{'':>11} {'':<10} {pts:>4.1f} {p:>4}")
        lines.append(head + text)
    lines.append(f"XXR {rounds}")
    return "\n".join(lines) + "\n"


def generate(seed: int, count: int, edition: str) -> list[Event]:
    """``count`` events from ``seed``: two Swiss to one round robin."""
    rng = random.Random(seed)
    events = []
    for i in range(count):
        swiss = i % 3 != 2
        if swiss:
            n, rounds = rng.randint(5, 14), rng.randint(4, 8)
            rounds = min(rounds, n - 1)
            grid, placed = _swiss(rng, n, rounds, hard_case=i % 5 == 0)
        else:
            n = rng.randint(4, 9)
            grid, placed, rounds = _round_robin(rng, n)
        unrated = rng.random() < 0.15
        ratings: dict[int, int | None] = {p: (None if unrated and rng.random() < 0.3 else
                                              rng.randint(1400, 2700)) for p in grid}
        name = f"tb-{seed}-{i:04d}-{'swiss' if swiss else 'rr'}-{n}p-{rounds}r"
        date = "2025/06/01" if edition == "2024" else None
        events.append(Event(name, _trf(name, grid, rounds, swiss, ratings, date, rng), swiss, placed))
    return events


def oracle(tbs: Path, python: str, path: Path, swiss: bool, tiebreaks: list[str]) -> str:
    """The TieBreakServer's TSV for ``path``: ``StartNo Rank <tie-breaks>`` (``-dT``)."""
    cmd = [python, str(tbs / "tiebreakchecker.py"), "-i", str(path), "-s" if swiss else "-p", "-t", *tiebreaks, "-dT"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tbs, timeout=120).stdout
    return "\n".join(line for line in out.splitlines() if line and not line.startswith("Check")) + "\n"


def ours(path: Path, swiss: bool, tiebreaks: list[str], edition: str) -> str:
    """``venue tiebreaks --tsv`` for ``path``."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = venue_tiebreaks.main([str(path), "--system", "swiss" if swiss else "round-robin",
                                   "--tiebreaks", ",".join(tiebreaks), "--edition", edition, "--tsv"])
    if rc:
        raise RuntimeError(f"venue tiebreaks failed on {path}")
    return buf.getvalue()


ORACLE_NAMES = {"KSX": "KS/L-1"}
"""Our tie-break names the oracle spells otherwise."""

REPORT_EVENTS = ("norway-chess-2023.toml", "us-championship-2013.toml", "us-championship-2023.toml",
                 "us-womens-championship-2013.toml", "us-womens-championship-2023.toml")


def reports(count: int) -> list[tuple[str, str, bool, list[str], str]]:
    """``(name, TRF text without VPS/VPT lines, swiss, tie-breaks, edition)`` of each seed event's
    report, played ``count`` times (seeds 1..count)."""
    from trf_events import event, play

    from services.arbiter_office.tournament_export import tournament_trf
    from services.tournament.standings import tiebreak_specs
    from services.tournament.trf import parse_trf

    out = []
    for name in REPORT_EVENTS:
        for seed in range(1, count + 1):
            view = play(event(name), seed)
            text = "\n".join(line for line in tournament_trf(view).splitlines() if line[:3] not in ("VPS", "VPT"))
            start = parse_trf(text).header_value("042") or ""
            edition = "2024" if start and start < "2026/03/01" else "2026"
            # LOT: no lots were drawn in these events (ours blank, the oracle 0)
            specs = [s.text for s in tiebreak_specs(view.tiebreak_order()) if s.name != "LOT"]
            swiss = view.tournament is not None and view.tournament.system == "swiss-dutch"
            out.append((f"{name[:-5]}-seed{seed}", text + "\n", swiss, specs, edition))
    return out


def _cells(tsv: str) -> dict[tuple[str, str], Decimal | None]:
    """Every value by (start number, column), as a number: the oracle prints a missing value as "-0"
    (ours ""), and a Koya score with no qualifying opponent as "0" (ours "0.0": the same value)."""
    rows = [line.split("\t") for line in tsv.splitlines() if line]
    header = rows[0]
    return {(r[0], h): (None if v in ("", "-0") else Decimal(v)) for r in rows[1:] for h, v in zip(header[1:], r[1:])}


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; returns 0 when every event is equal, 1 otherwise."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tbs", type=Path, required=True, help="folder holding the TieBreakServer's tiebreakchecker.py")
    ap.add_argument("--python", default=sys.executable, help="python with the TieBreakServer's requirements")
    ap.add_argument("--events", type=int, default=240)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--edition", choices=("2026", "2024"), default="2026")
    ap.add_argument("--out", type=Path, help="write differing events here")
    ap.add_argument("--keep", type=Path, help="write every event and the oracle's answer here")
    ap.add_argument("--reports", type=int, default=0, help="also the seed events' reports, played N times each")
    args = ap.parse_args(argv)
    differing: Counter = Counter()
    placed: Counter = Counter()
    equal = 0
    events = generate(args.seed, args.events, args.edition)
    with tempfile.TemporaryDirectory() as tmp:
        for ev in events:
            placed.update(ev.placed)
            path = Path(tmp) / f"{ev.name}.trf"
            path.write_text(ev.text)
            tbs_list = SWISS_TIEBREAKS if ev.swiss else ROUND_ROBIN_TIEBREAKS
            want = oracle(args.tbs, args.python, path, ev.swiss, tbs_list)
            got = ours(path, ev.swiss, tbs_list, args.edition)
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"{ev.name}.trf").write_text(ev.text)
                (args.keep / f"{ev.name}.tbs.tsv").write_text(want)
            w, g = _cells(want), _cells(got)
            diff = {k for k in w.keys() | g.keys() if w.get(k) != g.get(k)}
            if not diff:
                equal += 1
                continue
            for _, col in diff:
                differing[col] += 1
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"{ev.name}.trf").write_text(ev.text)
                (args.out / f"{ev.name}.tbs.tsv").write_text(want)
                (args.out / f"{ev.name}.ours.tsv").write_text(got)
    report_equal, report_differing = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, swiss, specs, edition in reports(args.reports):
            path = Path(tmp) / f"{name}.trf"
            path.write_text(text)
            # Koya Extended: ours "KSX", the oracle's "KS/L-1" (the limit ½ point lower)
            theirs = oracle(args.tbs, args.python, path, swiss, [ORACLE_NAMES.get(s, s) for s in specs])
            for mine, its in ORACLE_NAMES.items():
                theirs = theirs.replace(f"\t{its}", f"\t{mine}", 1)
            want, got = _cells(theirs), _cells(ours(path, swiss, specs, edition))
            if want == got:
                report_equal += 1
            else:
                report_differing.append(name)
    if args.reports:
        print(f"reports compared: {report_equal + len(report_differing)} (seed events x {args.reports}), "
              f"equal: {report_equal}, differing: {', '.join(report_differing) or 0}")
    n = len(events)
    print(f"events compared: {n} ({sum(e.swiss for e in events)} Swiss, {sum(not e.swiss for e in events)} "
          f"round robin), C.07 edition {args.edition}, seed {args.seed}")
    print(f"equal: {equal}   differing: {n - equal}")
    if differing:
        print("differing cells by column: " + ", ".join(f"{k} {v}" for k, v in differing.most_common()))
    print("unplayed rounds placed (kind: first / middle / last round):")
    for kind in KINDS:
        print(f"  {kind:<15} {placed[kind, 'first']:>4} {placed[kind, 'middle']:>5} {placed[kind, 'last']:>5}")
    return 0 if equal == n and not report_differing else 1


if __name__ == "__main__":
    raise SystemExit(main())
