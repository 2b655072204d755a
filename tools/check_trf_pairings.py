"""Check the Swiss rounds of a TRF we export with the endorsed Dutch engine's checker (bbpPairings -c).

A Swiss is made from a shared Dutch fixture's players (../shared/data/pairing/dutch, names and
ratings) and played through the arbiter's actions (tests/trf_events.py): every round paired by our
own Dutch engine from the log (``draft_round``), its results entered by slip (seeded, forfeits now and
then), with the organiser's edges on the way: a requested half-point bye (round 3), a forbidden pair
(from round 4), a withdrawal (from round 5), and a correction of a round-2 result after round 3 was
paired. ``venue export``'s TRF of the whole event is then checked by ``bbpPairings --dutch FILE -c``,
which re-pairs every round from the results before it and lists each round whose pairing differs.

A correction after the next round was paired is in the file (what is rated), and the round paired
before it was paired on the old result (C.04 F.7 of the Dutch rules' former text: "this will only
affect pairing yet to be made"); the checker, reading the corrected file, may then list that round.
So each round is also checked *as paired*: the file of the rounds before it with the results known
when it was drafted, plus the round itself.

Usage::

    python tools/check_trf_pairings.py --bbp /path/to/bbpPairings.exe [--fixture NAME.trf] [--rounds 7]
        [--seed 30] [--keep DIR]

Prints each round's verdict for the final file and as paired; exit 0 when every round passes as
paired and the final file differs only in rounds paired before a correction. The binary is not part
of the project: build it from its public source outside the repository.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from trf_events import enter, play  # noqa: E402

from services.arbiter_office.tournament_export import tournament_trf  # noqa: E402
from services.regulations.tournament_file import load_tournament  # noqa: E402
from services.tournament.scoring import CLASSICAL  # noqa: E402
from services.tournament.trf import dump_trf, parse_trf  # noqa: E402
from services.views.standings import TournamentView  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "data" / "pairing" / "dutch"


def swiss_file(fixture: Path, rounds: int) -> str:
    """A swiss-dutch tournament file with ``fixture``'s players (start number, name, rating)."""
    t = parse_trf(fixture.read_text())
    lines = ['[tournament]', f'name = "TRF check: players of {fixture.stem}"', 'slug = "trf-check"',
             'system = "swiss-dutch"', f'rounds = {rounds}', 'site = "Oslo"', 'federation = "NOR"',
             'chief_arbiter = "IA Chief Arbiter 1000001"', 'deputy_arbiters = ["FA Deputy Arbiter 1000002"]',
             '[time_controls]', 'classical = "5400+30"']
    for p in sorted(t.players.values(), key=lambda p: p.start_no):
        lines += ['[[players]]', f'start_no = {p.start_no}', f'name = "{p.name}"']
        if p.rating:
            lines.append(f'rating = {p.rating}')
    for r in range(1, rounds + 1):
        lines += ['[[rounds]]', f'number = {r}', f'start = "2026-01-{r + 9:02d}T15:00:00+01:00"']
    return "\n".join(lines) + "\n"


def _checker(binary: str, text: str, name: str) -> dict[int, bool]:
    """bbpPairings -c on ``text``: round -> True when its pairing is the checker's."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.trf"
        path.write_text(text)
        out = subprocess.run([binary, "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=600)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"bbpPairings -c failed ({out.returncode}): {out.stderr or out.stdout}")
    verdict: dict[int, bool] = {}
    current = None
    for line in out.stdout.splitlines():
        if line.startswith(f"{name}: Round #"):
            current = int(line.rsplit("#", 1)[1])
            verdict[current] = True
        elif current is not None and line.strip():
            verdict[current] = False
    return verdict


def as_paired(before: str, final: str, rnd: int) -> str:
    """The file of the rounds before ``rnd`` as they stood when it was drafted (``before``), with
    round ``rnd`` from ``final``; points recomputed from the codes, the rounds after left off."""
    t, f = parse_trf(before), parse_trf(final)
    for sno, p in t.players.items():
        games = p.games[:rnd - 1]
        games += [g for g in f.players[sno].games[rnd - 1:rnd]]
        p.games = games
        p.points = sum(CLASSICAL.points(g.result) for g in games)
    return dump_trf(t)


def main(argv: list[str] | None = None) -> int:
    """Run the check; returns 0 when it passes (module docstring), 1 otherwise."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bbp", required=True, help="a bbpPairings binary")
    ap.add_argument("--fixture", default="dutch-001024-32p-r7of11.trf", help="a file of ../shared/data/pairing/dutch")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--keep", type=Path, help="write the exported TRF (and each round's as-paired file) here")
    args = ap.parse_args(argv)
    t = load_tournament(swiss_file(FIXTURES / args.fixture, args.rounds), "trf-check.toml")
    snapshots: dict[int, str] = {}
    corrected: set[int] = set()

    def snapshot(rnd: int):
        def hook(view: TournamentView) -> list:
            snapshots[rnd] = tournament_trf(view)
            return extras.get(rnd, lambda v: [])(view)
        return hook

    def requested_bye(view: TournamentView) -> list:
        return [("bye_requested", {"start_no": 2, "round": 3, "code": "H", "by": "chief"})]

    def forbidden(view: TournamentView) -> list:
        met = {(g.white, g.black) for g in view.games.values()} | {(g.black, g.white) for g in view.games.values()}
        a = 1
        b = next(s for s in sorted(view.players) if s != a and (a, s) not in met)
        return [("pairing_forbidden", {"players": [a, b], "by": "chief", "note": "same family"})]

    def withdrawal(view: TournamentView) -> list:
        return [("player_withdrew", {"start_no": 5, "from_round": 5, "by": "chief"})]

    def correction(view: TournamentView) -> list:
        g = next(g for g in view.games.values() if g.round == 2 and g.black is not None and g.result == "1-0")
        board = next(view.state.games[i].board for i in view.state.rounds["2"].games
                     if view.state.games[i].setup.white_no == g.white)
        enter(view, 2, board, "0-1")
        corrected.add(3)  # round 3 was paired on the old result
        return []

    extras = {3: requested_bye, 4: forbidden, 5: withdrawal}
    view = play(t, args.seed, args.rounds, before={r: snapshot(r) for r in range(1, args.rounds + 1)},
                after={3: correction})
    final = tournament_trf(view)
    verdict = _checker(args.bbp, final, "final")
    paired = {r: _checker(args.bbp, as_paired(snapshots[r], final, r), f"round{r}").get(r, False)
              for r in range(2, args.rounds + 1)}
    paired[1] = verdict.get(1, False)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        (args.keep / "final.trf").write_text(final)
        for r in range(2, args.rounds + 1):
            (args.keep / f"round{r}-as-paired.trf").write_text(as_paired(snapshots[r], final, r))
    print(f"{t.name}: {len(t.players)} players, {args.rounds} rounds, seed {args.seed}; bbpPairings -c")
    print("round  final file  as paired")
    ok = True
    for r in range(1, args.rounds + 1):
        fine = verdict.get(r, False)
        print(f"{r:>5}  {'same' if fine else 'differs':<10}  {'same' if paired[r] else 'differs'}"
              + ("  (paired before a correction of an earlier round)" if r in corrected else ""))
        ok = ok and paired[r] and (fine or r in corrected)
    print("pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
