"""``venue round pair|swap|publish|start|show N --store URL --tournament SLUG``: the round's life
cycle on a running store, for scripts (docs/pairing.md "The round's life cycle"; the console's
``pair_round``, ``swap_pairing``, ``publish_pairing``, ``start_round`` write the same entries).

Each command folds the tournament's log, builds its entry with ``services.arbiter_office.round_draft`` and
appends it; the running gateway and dashboards pick it up from the log as they pick up moves, so
nothing is restarted. It then reads the log again up to its entry and says whether the fold applied
it: an entry that named a draft version another arbiter had changed in the meantime is kept in the
log as refused and changes nothing (exit 1).

    venue round pair N     pair round N (Dutch or Berger, as the tournament file says) into a draft
    venue round swap N A B --reason TEXT [--override]      exchange players A and B
    venue round swap N --board L --white A --black B --reason TEXT [--override]   set board L by hand
    venue round publish N  publish the draft as it stands (or --version V: the one you saw)
    venue round start N [--at now|ISO]   start the published draft (now, or at that time)
    venue round show N     print the draft

Exit codes: 0 done; 1 refused (the rule or the reason printed on stderr: a game without a result,
a rule an exchange breaks, a draft changed since); 2 a usage error, a store that cannot be read, a
tournament the store does not hold.
"""

from __future__ import annotations

import argparse
import sys
import time

from services.events import RoundStarted
from services.arbiter_office.round_draft import DraftError, draft_round, publish_entry, start_data, swap_entry
from services.arbiter_office.round_from_file import LAST_START_MS
from services.views.standings import TournamentView
from venue.errors import round_number
from venue.store_cli import open_tournament, run_main

BY = "organiser"
"""``by`` of the entries written from the command line."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=False, prog="venue round",
                                description="Pair, change, publish and start a round on a running store.")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, text in (("pair", "pair round N into a draft"), ("swap", "change round N's draft by hand"),
                       ("publish", "publish round N's draft"), ("start", "start round N's published draft"),
                       ("show", "print round N's draft")):
        s = sub.add_parser(name, allow_abbrev=False, help=text, description=text)
        s.add_argument("round", type=int, metavar="N")
        s.add_argument("--store", required=True, metavar="URL", help="the event log: sqlite:///PATH or redis://...")
        s.add_argument("--tournament", required=True, metavar="SLUG", help="the tournament's slug")
        if name in ("swap", "publish", "start", "pair"):
            s.add_argument("--version", type=int, metavar="V",
                           help="the draft version you saw (refused if it changed since); default: as it stands")
            s.add_argument("--note", help="a note for the record")
        if name == "swap":
            s.add_argument("players", type=int, nargs="*", metavar="A B", help="two start numbers to exchange")
            s.add_argument("--board", metavar="L", help="set this board by hand (with --white and --black)")
            s.add_argument("--white", type=int, metavar="A")
            s.add_argument("--black", type=int, metavar="B")
            s.add_argument("--reason", required=True, help="why (recorded)")
            s.add_argument("--override", action="store_true",
                           help="record the change even though it breaks a rule (the rules are recorded with it)")
        if name == "start":
            s.add_argument("--at", default="now", metavar="now|ISO",
                           help="when the round starts: now (default) or e.g. 2026-12-01T14:00:00+01:00")
    return p


def _start_ms(text: str, now_ms: int) -> int:
    if text == "now":
        return now_ms
    from datetime import datetime

    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise DraftError(f"--at: not a date and time: {text!r} (now, or e.g. 2026-12-01T14:00:00+01:00)") from None
    if when.tzinfo is None:
        raise DraftError("--at needs a UTC offset, e.g. 2026-12-01T14:00:00+01:00")
    ms = int(when.timestamp() * 1000)
    if not 0 <= ms <= LAST_START_MS:  # the round's date could not be written (round_from_file.round_times)
        raise DraftError(f"--at: {text!r} is outside 1970-01-01 to 9999-12-31")
    return ms


def _entry(args: argparse.Namespace, view: TournamentView) -> tuple[str, dict]:
    """The entry the command appends. Raises DraftError."""
    n, seen = args.round, getattr(args, "version", None)
    if args.action == "pair":
        return draft_round(view, n, version=seen, by=BY, note=args.note).encode()
    if args.action == "swap":
        if bool(args.players) == bool(args.board):
            raise DraftError("give two start numbers to exchange, or --board L --white A --black B")
        if args.players and len(args.players) != 2:
            raise DraftError(f"an exchange names two start numbers, not {len(args.players)}")
        return swap_entry(view, n, seen, players=args.players, board=args.board, white_no=args.white,
                          black_no=args.black, reason=args.reason, override=args.override, by=BY,
                          note=args.note).encode()
    if args.action == "publish":
        return publish_entry(view, n, seen, by=BY, note=args.note).encode()
    now = int(time.time() * 1000)
    t = view.tournament
    ballots = None
    if t is not None:
        from services.arbiter_office.round_draft import draw_ballots, needs_ballots

        d = view.state.tournament.drafts.get(n)
        if needs_ballots(t) and d is not None:
            import random

            ballots = draw_ballots(view, len(d.boards), random.SystemRandom())
    return RoundStarted.TYPE, start_data(view, n, start_ms=_start_ms(args.at, now), version=seen, ballots=ballots,
                                         now_ms=now, by=BY)


def print_draft(view: TournamentView, n: int, out=None) -> None:
    """Round ``n``'s draft as text on ``out`` (default stdout): its version and state, each board
    with its colour rule and reasons, the byes, the refused entries."""
    out = out or sys.stdout
    d = view.state.tournament.drafts.get(n)
    if d is None:
        print(f"round {n}: no draft", file=out)
        return
    state = "started" if d.started else "published" if d.is_published else (
        f"draft (version {d.published} was published)" if d.published else "draft, not published")
    print(f"round {n}, version {d.version}: {state}; {len(d.boards)} boards ({d.system})", file=out)
    for b in d.boards:
        print(f"  {b.board:>4}  {b.white_no:>3} {b.white} - {b.black_no:>3} {b.black}  [{b.colour_rule}]", file=out)
        for reason in b.reasons:
            print(f"          {reason}", file=out)
    for y in d.byes:
        print(f"  bye   {y.start_no:>3} {y.player} ({y.code}): {'; '.join(y.reasons)}", file=out)
    for r in d.refused:
        print(f"  refused: {r['type']} by {r['by']} named version {r['version']}, the draft had {r['draft_version']}",
              file=out)


def refused(view: TournamentView, n: int, type_: str, at: int) -> bool:
    """Whether the fold kept the entry ``type_`` appended at ``at`` for round ``n`` as refused
    (it named a draft version another writer had changed before it reached the log)."""
    d = view.state.tournament.drafts.get(n)
    return d is not None and any(r["type"] == type_ and r["at"] == at for r in d.refused)


async def run(args: argparse.Namespace) -> int:
    round_number(args.round, "N")  # before the store is opened: nothing read, nothing written
    log, view = await open_tournament(args.store, args.tournament)
    try:
        if args.action == "show":
            drafts = view.state.tournament.drafts
            if args.round not in drafts:
                have = ", ".join(str(n) for n in sorted(drafts)) or "none yet (venue round pair N)"
                print(f"venue round show: round {args.round} has no draft; rounds with a draft: {have}",
                      file=sys.stderr)
                return 1
            print_draft(view, args.round)
            return 0
        try:
            type_, data = _entry(args, view)
        except DraftError as exc:
            print(f"venue round {args.action}: refused: {exc}", file=sys.stderr)
            return 1
        entry = await log.append(type_, data)
        for later in await log.read(view.seq):
            view.apply(later)
        if refused(view, args.round, type_, entry.at):
            print(f"venue round {args.action}: refused: the draft of round {args.round} changed before this reached "
                  "the log (another arbiter acted first); look at it again (venue round show)", file=sys.stderr)
            return 1
        if type_ == RoundStarted.TYPE:
            print(f"venue round start: round {args.round} started ({len(data['games'])} games), seq {entry.seq}")
        else:
            print(f"venue round {args.action}: {type_} appended, seq {entry.seq}")
            print_draft(view, args.round)
        return 0
    finally:
        await log.close()


def main(argv: list[str] | None = None) -> int:
    """Run ``venue round`` with ``argv``; returns the exit code (module docstring)."""
    return run_main(_parser(), run, argv)
