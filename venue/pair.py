"""``venue pair``: the next round of a tournament, printed in the bbpPairings / FIDE-endorsed format.

    venue pair FILE.trf [ACTIONS] [--write OUT.trf] [--check] [--check-with ENGINE]
                                        Dutch system (FIDE C.04.3): the next round of a Swiss
    venue pair --berger N [--round R] [--double]
                                        Berger tables (FIDE C.05 Annex 1): round R (default all)

Arbiter actions for the round being paired (each may be repeated; they are entered in the TRF the
way a pairing program reads them, and ``--write`` saves that file):
``--withdraw N`` (not paired from this round on), ``--bye N[:H|F|Z]`` (requested bye, default half
point), ``--late-entry "NAME[:RATING]"`` (a new player from this round, missed rounds as zero-point
byes), ``--forbid A,B[,C...]`` (must not meet), ``--baku`` (Baku acceleration, C.04.7).

``--check`` prints, after the pairing, each board with the reasons for its floats and colours and
the PAB's (the arbiter's check before publishing). ``--check-with ENGINE`` also pairs the same file
with an external engine (a bbpPairings binary: a path, or a name on PATH such as ``bbpPairings``)
and prints the differences.

Output: the number of pairs, then one ``white black`` pair of starting ranks a line; ``N 0`` is the
pairing-allocated bye of N (and, in a round robin with an odd number, the bye of the player paired
with the dummy). Exit codes: 0 done; 1 the round cannot be paired within the absolute criteria;
2 a usage error or a broken/unreadable file (one line on stderr, never a traceback); 3 the external
engine of ``--check-with`` paired the round differently (or failed).
"""

from __future__ import annotations

import argparse
import sys

from services.tournament.pairing.actions import (
    BYE_CODES,
    Action,
    BakuAcceleration,
    ForbiddenPair,
    LateEntry,
    RequestedBye,
    Withdrawal,
    apply_actions,
    rounds_paired,
)
from services.tournament.pairing.berger import berger_schedule
from services.tournament.pairing.dutch import NoValidPairing, round_input_from_trf
from services.tournament.pairing.dutch.result import Pairing, pair_input
from services.tournament.trf import TrfTournament, dump_trf, parse_trf


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue pair", description="Pair the next round: Dutch system "
                                "(FIDE C.04.3) from a TRF file, or Berger tables (FIDE C.05 Annex 1).")
    p.add_argument("trf", nargs="?", help="TRF16 file of a Swiss tournament (needs XXR, the number of rounds)")
    p.add_argument("--berger", type=int, metavar="N", help="print Berger-table pairings for N players instead")
    p.add_argument("--round", type=int, metavar="R", help="with --berger: only round R")
    p.add_argument("--double", action="store_true", help="with --berger: double round robin")
    a = p.add_argument_group("arbiter actions for the round being paired")
    a.add_argument("--withdraw", type=int, action="append", default=[], metavar="N",
                   help="player N withdraws: not paired from this round on")
    a.add_argument("--bye", action="append", default=[], metavar="N[:H|F|Z]",
                   help="player N asked for a bye this round (H half point, default; F full; Z zero)")
    a.add_argument("--late-entry", action="append", default=[], metavar="NAME[:RATING]",
                   help="a new player from this round (the next start number; missed rounds as zero-point byes)")
    a.add_argument("--forbid", action="append", default=[], metavar="A,B[,C]",
                   help="these players must not be paired with each other")
    a.add_argument("--baku", action="store_true", help="Baku acceleration (FIDE C.04.7)")
    a.add_argument("--write", metavar="OUT.trf", help="save the TRF with the actions entered (what was paired)")
    c = p.add_argument_group("the arbiter's check before publishing")
    c.add_argument("--check", action="store_true", help="print each board's float and colour reasons and the PAB's")
    c.add_argument("--check-with", metavar="ENGINE",
                   help="pair the same file with this engine (bbpPairings binary) and print the differences")
    return p


def format_pairs(pairs: list[tuple[int, int | None]]) -> str:
    """The bbpPairings output format: count, then ``white black`` lines, ``N 0`` for a bye."""
    lines = [str(len(pairs))] + [f"{w} {0 if b is None else b}" for w, b in pairs]
    return "\n".join(lines) + "\n"


def _number(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what}: not a start number: {text!r}") from None


def _actions(args: argparse.Namespace, t: TrfTournament) -> list[Action]:
    """The arbiter actions of the command line, for the round after the last one paired."""
    rnd = rounds_paired(t) + 1
    actions: list[Action] = [Withdrawal(n, rnd) for n in args.withdraw]
    for text in args.bye:
        number, _, code = text.partition(":")
        code = (code or "H").upper()
        if code not in BYE_CODES:
            raise ValueError(f"--bye {text}: the bye is H, F or Z")
        actions.append(RequestedBye(_number(number, "--bye"), rnd, code))
    for text in args.late_entry:
        name, _, rating = text.rpartition(":") if ":" in text else (text, "", "")
        if not name.strip():
            raise ValueError(f"--late-entry {text!r}: a name is needed")
        actions.append(LateEntry(name.strip(), rnd, _number(rating, "--late-entry rating") if rating else None))
    for text in args.forbid:
        players = frozenset(_number(x, "--forbid") for x in text.split(","))
        actions.append(ForbiddenPair(players))
    if args.baku:
        actions.append(BakuAcceleration())
    return actions


def _print_check(t: TrfTournament, pairing: list[Pairing]) -> None:
    from services.tournament.pairing.dutch.check import check_round

    inp = round_input_from_trf(t)
    print(f"check: round {inp.played_rounds + 1} of {inp.total_rounds}, {len(pairing)} boards")
    for b in check_round(inp, pairing):
        if b.black is None:
            print(f"  bye  {b.white}: " + "; ".join(b.reasons))
            continue
        assert b.black_score is not None  # a board with both players has both scores
        line = f"  {b.board:>3}  {b.white} ({b.white_score / 10:.1f}) - {b.black} ({b.black_score / 10:.1f})  colours {b.colour_rule}"
        print(line + ("" if not b.reasons else "; " + "; ".join(b.reasons)))


def _check_with(engine: str, text: str, pairing: list[Pairing]) -> int:
    """Pair ``text`` with the external engine and print the differences; 0 same, 3 different/failed."""
    import os
    import shutil
    import subprocess
    import tempfile

    from services.tournament.pairing.dutch.check import compare_pairings

    binary = engine if os.sep in engine else (shutil.which(engine) or engine)
    with tempfile.TemporaryDirectory(prefix="venue-pair") as tmp:
        src, out = os.path.join(tmp, "round.trf"), os.path.join(tmp, "round.pairs")
        with open(src, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            proc = subprocess.run([binary, "--dutch", src, "-p", out], capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"check-with {engine}: cannot run it: {exc}")
            return 3
        if proc.returncode:
            print(f"check-with {engine}: exit {proc.returncode}: {proc.stderr.strip()}")
            return 3
        with open(out, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    theirs = [(int(w), int(b) or None) for w, b in (line.split() for line in lines[1:int(lines[0]) + 1])]
    diff = compare_pairings(pairing, theirs)
    if not diff:
        print(f"check-with {engine}: the same {len(pairing)} boards, the same colours")
        return 0
    print(f"check-with {engine}: {len(diff)} difference(s)")
    for line in diff:
        print(f"  {line}")
    return 3


def main(argv: list[str] | None = None) -> int:
    """Run ``venue pair`` with ``argv`` (without the program name); returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.berger is not None:
            if args.trf is not None:
                raise ValueError("give either a TRF file or --berger N, not both")
            if args.berger < 2:
                raise ValueError(f"--berger {args.berger}: a round robin needs at least 2 players")
            rounds = berger_schedule(args.berger, 2 if args.double else 1)
            if args.round is not None:
                if not 1 <= args.round <= len(rounds):
                    raise ValueError(f"round {args.round} does not exist: {len(rounds)} rounds")
                rounds = [rounds[args.round - 1]]
            sys.stdout.write("".join(format_pairs(r) for r in rounds))
            return 0
        if args.trf is None:
            raise ValueError("a TRF file (or --berger N) is required")
        try:
            with open(args.trf, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read {args.trf}: {exc}") from None
        t = parse_trf(text)
        kind = (t.header_value("092") or "").lower()
        if "robin" in kind or "berger" in kind:
            # a round robin's rounds are fixed by the Berger tables (FIDE C.05 Annex 1), not paired
            raise ValueError(f"the file is a {t.header_value('092')} (TRF 092), not a Swiss: its rounds come from "
                             "the Berger tables (venue pair --berger N), the Dutch system does not pair it")
        actions = _actions(args, t)
        if actions:
            t = apply_actions(t, actions)
            text = dump_trf(t)
        if args.write:
            try:
                with open(args.write, "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise ValueError(f"cannot write {args.write}: {exc}") from None
        pairing = pair_input(round_input_from_trf(t))
    except NoValidPairing as exc:
        print(f"venue pair: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"venue pair: {args.trf or 'berger'}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(format_pairs([(p.white, p.black) for p in pairing]))
    if args.check or args.check_with:
        _print_check(t, pairing)
    if args.check_with:
        return _check_with(args.check_with, text, pairing)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
