"""Read a tournament file (TOML, documented in docs/tournament-file.md) into ``model.Tournament``.

Pure: the caller reads the file and passes its text. ``tomllib`` parses it, ``msgspec.convert``
checks it against its shape (``file_schema.TournamentFile``: the tables, their keys, the kinds of
their values, each table's own checks), and ``load_tournament`` builds the model, checking what
needs several tables at once. Every problem raises ``TournamentFileError`` naming the file, the
line and the field at fault, so an organiser can mend it at once.
"""

from __future__ import annotations

import re
import tomllib
from typing import NoReturn

import msgspec

from services.events.vocabulary import Variant
from services.struct_errors import Step, dotted, refusal

from .fields import TournamentFileError, duration_ms, line_of
from .file_schema import BoardRow, PlayerRow, RegulationsTable, RoundRow, TournamentFile
from .model import (APPENDIX_DEFAULT, ArbiterAccount, DrawOfferPolicy, Fine, HallBoard, Player, Prizes,
                    Regulations, RoundSchedule, Tournament)

__all__ = ["load_tournament"]


def load_tournament(text: str, source: str = "<tournament file>") -> Tournament:
    """Parse and check a tournament file. ``text``: the TOML; ``source``: its name for messages.

    Raises TournamentFileError (a ValueError) with field and line for: TOML syntax errors, missing
    or mistyped fields, unknown tables or settings, unknown choices, duplicate starting ranks,
    rounds or boards, bad times and time controls, a checkers setting in a chess event."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise TournamentFileError(f"not valid TOML: {exc}", line=int(m.group(1)) if m else None,
                                  source=source) from None
    try:
        f = msgspec.convert(doc, TournamentFile)
    except msgspec.ValidationError as exc:
        _refuse(exc, doc, text, source)

    def fail(path: str, problem: str) -> NoReturn:
        raise TournamentFileError(problem, field=path, line=line_of(text, path), source=source)

    t = f.tournament
    controls = f.time_controls.given()
    if t.kind not in controls:
        fail("time_controls", f"has no control for the event's own kind of game, {t.kind!r}")
    if f.regulations.ballot_moves_before_clock and t.game != Variant.CHECKERS:
        fail("regulations.ballot_moves_before_clock", "is a checkers setting (three-move ballot, 11-Man "
             "National 2017 X.A.d): set tournament.game = \"checkers\" or leave it out")
    return Tournament(name=t.name, slug=t.slug, game=t.game, system=t.system, kind=t.kind,
                      rounds_total=t.rounds, players=_players(f.players, fail),
                      rounds=_rounds(f.rounds, t.rounds, fail), boards=_boards(f.boards, fail),
                      time_controls=controls, regulations=_regulations(f.regulations),
                      arbiters=tuple(ArbiterAccount(login=a.login, name=a.name, password_hash=a.password_hash,
                                                    password_env=a.password_env) for a in f.arbiters),
                      site=t.site, source=source, broadcast_delay_ms=f.broadcast.ms(),
                      broadcast_lichess_rounds=tuple(f.broadcast.lichess_rounds),
                      federation=t.federation, chief_arbiter=t.chief_arbiter,
                      deputy_arbiters=tuple(t.deputy_arbiters))


def _refuse(exc: msgspec.ValidationError, doc: dict, text: str, source: str) -> NoReturn:
    """Raise the TournamentFileError for msgspec's refusal of ``doc``: the field's dotted path and
    its line (a list's item is named by the key holding the list, whose line it is)."""
    why = refusal(exc, doc, TournamentFile)
    path: list[Step] = list(why.path)
    problem = why.problem
    last = path[-1] if len(path) > 2 else None
    if isinstance(last, int):  # an item of a list inside a table: the list's key and line
        path.pop()
        problem = f"item {last + 1}: {problem}"
    if why.unknown:
        problem = (f"unknown section ({why.problem})" if len(path) == 1 else
                   "unknown setting: misspelt, or not a setting of this table (docs/tournament-file.md "
                   f"lists them; {why.problem})")
    where = dotted(path)
    raise TournamentFileError(problem, field=where or None, line=line_of(text, where) if where else None,
                              source=source) from None


def _players(rows: list[PlayerRow], fail) -> tuple[Player, ...]:
    out: list[Player] = []
    for i, row in enumerate(rows):
        start_no = i + 1 if row.start_no is None else row.start_no
        if any(p.start_no == start_no for p in out):
            fail(f"players[{i}].start_no", f"starting rank {start_no} is used twice")
        out.append(Player(start_no=start_no, name=row.name, rating=row.rating,
                          fide_id=None if row.fide_id is None else str(row.fide_id),
                          federation=row.federation, title=row.title, team=row.team,
                          k_factor=row.k_factor))
    return tuple(sorted(out, key=lambda p: p.start_no))


def _rounds(rows: list[RoundRow], total: int, fail) -> tuple[RoundSchedule, ...]:
    out: list[RoundSchedule] = []
    for i, row in enumerate(rows):
        number = i + 1 if row.number is None else row.number
        if not 1 <= number <= total:
            fail(f"rounds[{i}].number", f"must be between 1 and tournament.rounds ({total})")
        if any(x.number == number for x in out):
            fail(f"rounds[{i}].number", f"round {number} is scheduled twice")
        out.append(RoundSchedule(number=number, start=row.start.isoformat(), start_ms=_ms(row.start),
                                 end_ms=None if row.end is None else _ms(row.end)))
    # rounds are played in their order (C.04.3 pairs each from the scores of the ones before)
    index = {id(x): i for i, x in enumerate(out)}
    ordered = sorted(out, key=lambda x: x.number)
    for before, after in zip(ordered, ordered[1:]):
        if after.start_ms <= before.start_ms:
            fail(f"rounds[{index[id(after)]}].start", f"round {after.number} starts ({after.start}) before round "
                 f"{before.number} ({before.start}): rounds are played in their order")
    return tuple(ordered)


def _ms(when) -> int:
    return int(when.timestamp() * 1000)


def _boards(rows: list[BoardRow], fail) -> tuple[HallBoard, ...]:
    """The hall's boards. A board number or a device named twice is refused (``fail``): a device
    (its MQTT client name) is one board's, or a wiring typo feeds one clock's presses to two games.
    A board's own board and clock device may be one (a board with its clock built in)."""
    out: list[HallBoard] = []
    devices: dict[str, tuple[int, str]] = {}  # device -> (the board, "board_device"/"clock_device") naming it first
    for i, row in enumerate(rows):
        number = i + 1 if row.number is None else row.number
        if number < 1 or any(b.number == number for b in out):
            fail(f"boards[{i}].number", f"board {number} is not a new positive number")
        for key in ("board_device", "clock_device"):
            device = getattr(row, key)
            if device is None:
                continue
            first = devices.setdefault(device, (number, key))
            if first[0] != number:
                fail(f"boards[{i}].{key}", f"{device!r} is board {first[0]}'s {first[1]} already: a device "
                     "feeds one board (else its presses or moves are recorded in two games)")
        out.append(HallBoard(number=number, board_device=row.board_device, clock_device=row.clock_device))
    return tuple(out)


def _regulations(r: RegulationsTable) -> Regulations:
    d, pz, fines = r.draw_offers, r.prizes, r.fines
    # a fine is deducted from the prize (US 2023 rule 1): without a currency of its own, the prizes'
    fine = None if fines.not_at_board_at_start is None else Fine(fines.not_at_board_at_start,
                                                                 fines.currency or pz.currency)
    return Regulations(draw_offers=DrawOfferPolicy(d.policy, d.min_moves, frozenset(d.exempt_kinds)),
                       default_time_ms=r.default_time.ms(), fine_not_at_board=fine, scoring=r.scoring,
                       tiebreaks=tuple(r.tiebreaks.order), tiebreaks_classical_only=r.tiebreaks.classical_only,
                       playoff=r.playoff.rule,
                       prizes=Prizes(tuple(pz.amounts), pz.currency, pz.sharing, pz.withhold_after_forfeit),
                       armageddon_after_draw=r.armageddon.after_draw,
                       clock_tolerance_ms=duration_ms(r.clock_tolerance),
                       ballot_moves_before_clock=r.ballot_moves_before_clock, rules=_rules(r),
                       period_added=r.period_added, appendix={**APPENDIX_DEFAULT, **msgspec.structs.asdict(r.appendix)},
                       guidelines_iii=r.guidelines_iii,
                       move_timers=None if r.move_timers is None else tuple(r.move_timers))


def _rules(r: RegulationsTable) -> dict[str, str]:
    """The event's quoted rules: ``[regulations.rules]`` (key -> quote) and ``rule`` beside a setting
    (``draw_offers``, ``default_time``, ``fines``, ``armageddon``; ``armageddon.draw_rule``)."""
    out = r.rules.given()
    beside = {"draw_offers": r.draw_offers.rule, "default_time": r.default_time.rule, "fines": r.fines.rule,
              "armageddon": r.armageddon.rule, "armageddon_draw": r.armageddon.draw_rule}
    out.update({k: v for k, v in beside.items() if v is not None})
    return out
