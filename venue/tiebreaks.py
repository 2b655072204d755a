"""``venue tiebreaks FILE.trf --system round-robin|swiss --tiebreaks PTS,DE,BPG,KS,SB,WON [--tsv]``

Prints the standings of a TRF file with its tie-breaks: one line per player in standings order (rank,
then start number), ``Rank  StartNo  Name  <tie-break> ...``, values with the fixtures' decimals, and
a note saying why an ARO is blank where one is. ``--tsv``: the TSV format of ../shared/data/tiebreaks
instead (``StartNo  Rank  <tie-break> ...`` in start-number order, no names), for programs. Exit status
0 on success, 2 on a usage error, an unreadable or broken file, or an unknown tie-break (the message
names the line and field, or the tie-break).

Also runnable as ``python -m venue.tiebreaks``.
"""

from __future__ import annotations

import argparse
import sys

from services.tournament.model import field_from_trf
from services.tournament.scoring import CLASSICAL, PAB_HALF
from services.tournament.tiebreaks import compute_tiebreaks, format_value, parse_spec
from services.tournament.trf import parse_trf
from services.tournament.unplayed import EDITIONS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue tiebreaks", description="FIDE C.07 tie-breaks of a TRF file")
    p.add_argument("file", help="tournament report in FIDE TRF16")
    p.add_argument("--system", choices=("round-robin", "swiss"), required=True)
    p.add_argument("--tiebreaks", required=True, help="comma-separated, in order: e.g. PTS,DE,BPG,KS,SB,WON")
    p.add_argument("--edition", choices=EDITIONS, default=EDITIONS[0], help="C.07 edition (default %(default)s)")
    p.add_argument("--pab", choices=("1", "0.5"), default="1", help="points for a pairing-allocated bye")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds to count (default: the rounds played, the longest player line; XXR's later "
                        "rounds are not played yet)")
    p.add_argument("--tsv", action="store_true",
                   help="the fixtures' TSV (start-number order, no names) instead of the standings")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 2 error). Output on stdout, errors on stderr."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors; keep it a return value
        return int(exc.code or 0)
    try:
        specs = [parse_spec(s) for s in args.tiebreaks.split(",") if s.strip()]
        if not specs:
            raise ValueError("no tie-break given")
        with open(args.file, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
        t = parse_trf(text)
        # mid-event, XXR's rounds not yet played are no unplayed rounds (C.07 counts the rounds played
        # so far): counting them gave every player virtual opponents (a new user's Buchholz 26 for 2)
        most = max(t.total_rounds or 0, t.rounds_played)
        if args.rounds is not None and not 1 <= args.rounds <= most:
            raise ValueError(f"--rounds {args.rounds}: the file has rounds 1 to {most}")
        rounds = args.rounds if args.rounds is not None else t.rounds_played
        field = field_from_trf(t, PAB_HALF if args.pab == "0.5" else CLASSICAL, rounds=rounds)
        table = compute_tiebreaks(field, specs, round_robin=args.system == "round-robin", edition=args.edition)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"venue tiebreaks: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.tsv:
        out = ["\t".join(["StartNo", "Rank"] + [s.text for s in specs])]
        for row in sorted(table.rows, key=lambda r: r.start_no):
            out.append("\t".join([str(row.start_no), str(row.rank)] + [format_value(s, row.values[s.text])
                                                                       for s in specs]))
        sys.stdout.write("\n".join(out) + "\n")
        return 0
    sys.stdout.write(standings_text(table, specs, {s: p.name for s, p in t.players.items()}))
    return 0


def standings_text(table, specs, names: dict[int, str]) -> str:
    """The standings as aligned text: ``Rank  No  Name  <tie-break> ...`` in rank order (then start
    number), and a note for each blank ARO (``services.tournament.rating_average``: ARO is given only
    when every player of the event is rated, and to a player with a game played against a rated
    opponent)."""
    rows = sorted(table.rows, key=lambda r: (r.rank, r.start_no))
    width = max([len("Name")] + [len(names.get(r.start_no, "")) for r in rows])
    cols = [s.text for s in specs]
    cells = [[format_value(s, r.values[s.text]) for s in specs] for r in rows]
    widths = [max([len(c)] + [len(line[i]) for line in cells]) for i, c in enumerate(cols)]
    out = [f"{'Rank':>4}  {'No':>4}  {'Name':<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cols, widths))]
    for r, line in zip(rows, cells):
        out.append(f"{r.rank:>4}  {r.start_no:>4}  {names.get(r.start_no, ''):<{width}}  "
                   + "  ".join(f"{c:>{w}}" for c, w in zip(line, widths)))
    for spec in specs:
        if spec.text.startswith("ARO"):
            blank = [r.start_no for r in rows if r.values[spec.text] is None]
            if blank:
                why = ("not every player of the event is rated, and ARO is given only when all are (as FIDE's "
                       "TieBreakServer gives it)" if len(blank) == len(rows) else
                       "no game played against a rated opponent (unplayed rounds do not count)")
                out.append(f"note: {spec.text} is blank for {len(blank)} player(s) "
                           f"({', '.join(map(str, blank[:20]))}{' ...' if len(blank) > 20 else ''}): {why}")
    return "\n".join(line.rstrip() for line in out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
