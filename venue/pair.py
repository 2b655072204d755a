"""``venue pair``: the next round of a tournament, printed in the bbpPairings / FIDE-endorsed format.

    venue pair FILE.trf                 Dutch system (FIDE C.04.3): the next round of a Swiss
    venue pair --berger N [--round R] [--double]
                                        Berger tables (FIDE C.05 Annex 1): round R (default all)

Output: the number of pairs, then one ``white black`` pair of starting ranks a line; ``N 0`` is the
pairing-allocated bye of N (and, in a round robin with an odd number, the bye of the player paired
with the dummy). Exit codes: 0 done; 1 the round cannot be paired within the absolute criteria;
2 a usage error or a broken/unreadable file (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys

from services.tournament.pairing.berger import berger_schedule
from services.tournament.pairing.dutch import NoValidPairing, pair_trf
from services.tournament.trf import parse_trf


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="venue pair", description="Pair the next round: Dutch system "
                                "(FIDE C.04.3) from a TRF file, or Berger tables (FIDE C.05 Annex 1).")
    p.add_argument("trf", nargs="?", help="TRF16 file of a Swiss tournament (needs XXR, the number of rounds)")
    p.add_argument("--berger", type=int, metavar="N", help="print Berger-table pairings for N players instead")
    p.add_argument("--round", type=int, metavar="R", help="with --berger: only round R")
    p.add_argument("--double", action="store_true", help="with --berger: double round robin")
    return p


def format_pairs(pairs: list[tuple[int, int | None]]) -> str:
    """The bbpPairings output format: count, then ``white black`` lines, ``N 0`` for a bye."""
    lines = [str(len(pairs))] + [f"{w} {0 if b is None else b}" for w, b in pairs]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run ``venue pair`` with ``argv`` (without the program name); returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.berger is not None:
            if args.trf is not None:
                raise ValueError("give either a TRF file or --berger N, not both")
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
        pairing = pair_trf(parse_trf(text))
    except NoValidPairing as exc:
        print(f"venue pair: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"venue pair: {args.trf or 'berger'}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(format_pairs([(p.white, p.black) for p in pairing]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
