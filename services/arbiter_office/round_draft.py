"""The next round's life cycle before it starts (docs/pairing.md "The round's life cycle"): pair it
into a draft, change the draft by hand, publish it, start it. Pure: each function reads a
``TournamentView`` folded from the log and returns the entry to append (``services.events.rounds``,
``round_started``), or raises :class:`DraftError` saying why not; the fold
(``services.state.fold_draft``) applies the entries with :func:`changed_draft`.

- :func:`draft_round`: the Dutch system (FIDE C.04.3) or the Berger tables (C.05 Annex 1) as the
  tournament file's ``system`` says, each board with its colour rule and the reasons for its floats
  (``services.tournament.pairing.dutch.check``), the PAB with its reasons, the absent with theirs.
- :func:`swap_entry`: two players exchanged, or a board set by hand; refused when it breaks a
  forbidden pair or a basic rule of C.04.1 (b: not twice against each other, d: no second PAB, f: the
  colour difference, g: no colour three times in a row; a topscorer's colours in the last round
  excepted, C.04.3 A.7) unless the arbiter overrides, and then recorded with those rules.
- :func:`publish_entry`, :func:`start_data`: the draft the arbiter saw published; the published
  draft started (``round_started``), never while an earlier round has a game without a result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import msgspec

from services.events.rounds import DraftBoard, DraftBye, PairingDrafted, PairingPublished, PairingSwapped
from services.arbiter_office.round_from_file import (ROUND_ROBIN, _matches, _pairs_round_robin, field_of, place,
                                           round_data, swiss_input)
from services.regulations.model import Tournament
from services.tournament.pairing.dutch import NoValidPairing
from services.tournament.pairing.dutch.check import check_round
from services.tournament.pairing.dutch.history import BLACK, NO_COLOR, WHITE, RoundInput
from services.tournament.pairing.dutch.result import pair_input
from services.tournament.pairing.dutch.state import RoundPlayer, build_players

if TYPE_CHECKING:  # services.state folds with this module's changed_draft: no import at run time
    from services.state.draft import PairingDraft

SWISS = "swiss-dutch"
BYE_WORDS = {"H": "half-point", "F": "full-point", "Z": "zero-point"}
PLAYED = ("1-0", "0-1", "1/2-1/2")


class DraftError(ValueError):
    """A draft action refused: ``str()`` says why, with the rule; ``status`` 409 when the draft
    changed since the arbiter saw it (another arbiter's action came first), else 400."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _names(view) -> dict[int, str]:
    return {sno: p["name"] for sno, p in view.players.items()}


def _numbers(names: Mapping[int, str]) -> str:
    """The registered start numbers as runs: "1-24", "1-3, 5"."""
    runs: list[list[int]] = []
    for sno in sorted(names):
        if runs and sno == runs[-1][1] + 1:
            runs[-1][1] = sno
        else:
            runs.append([sno, sno])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs) or "none"


def _who(names: Mapping[int, str], sno: int) -> str:
    return f"{names.get(sno, '?')} ({sno})"


def _latest(view) -> int:
    return max((int(r) for r in view.state.rounds if r.isdigit()), default=0)


def _next_round(view, t: Tournament, round_no: int | None) -> int:
    """``round_no`` (default: the round after the latest started) when it can still be drafted."""
    latest = _latest(view)
    rnd = latest + 1 if round_no is None else round_no
    if rnd <= latest:
        raise DraftError(f"round {rnd} has started already; round {latest + 1} is the next to pair")
    if rnd > latest + 1:
        raise DraftError(f"round {rnd} cannot be paired before round {latest + 1} (rounds are paired in order)")
    if rnd > t.rounds_total:
        raise DraftError(f"round {rnd} is past the last round ({t.rounds_total}) of {t.name}")
    return rnd


def _tournament(view) -> Tournament:
    try:
        return field_of(view)
    except ValueError as exc:
        raise DraftError(str(exc)) from None


def _draft_version(view, round_no: int) -> int:
    d = view.state.tournament.drafts.get(round_no)
    return d.version if d is not None else 0


def _seen(view, round_no: int, version: int | None) -> int:
    """The draft version the writer saw: ``version`` when given (DraftError 409 unless it is still
    the draft's), else the draft's version now."""
    now = _draft_version(view, round_no)
    if version is None:
        return now
    if version != now:
        d = view.state.tournament.drafts.get(round_no)
        who = f" (by {d.changes[-1]['by'] if d and d.changes else d.drafted_by if d else '?'})" if d else ""
        raise DraftError(f"round {round_no}'s draft is at version {now}{who}, not {version}: it changed since you "
                         "saw it; look at it again before acting", status=409)
    return version


def _open_draft(view, round_no: int, version: int | None) -> tuple[PairingDraft, int]:
    """Round ``round_no``'s draft, not started, and the version the writer saw (``_seen``)."""
    d = view.state.tournament.drafts.get(round_no)
    if d is None:
        raise DraftError(f"round {round_no} has no draft: pair it first (pair_round)")
    if d.started:
        raise DraftError(f"round {round_no} has started: its pairing can no longer change")
    return d, _seen(view, round_no, version)


# --- pairing into a draft -------------------------------------------------------------------------

@dataclass(frozen=True)
class DraftJob:
    """What pairing a draft needs, read from the state (:func:`prepare_draft`) and detached from it,
    so the pairing itself (:func:`finish_draft`, the costly part: ~0.7 s for 300 players) may run
    in another thread while the state goes on folding."""

    t: Tournament
    round: int
    seen: int
    names: Mapping[int, str]
    inp: RoundInput | None
    pairs: tuple[tuple[int, int | None], ...]
    absent: tuple[DraftBye, ...]
    by: str | None
    note: str | None


def prepare_draft(view, round_no: int | None = None, *, version: int | None = None, by: str | None = None,
                  note: str | None = None, initial_color: str = "white") -> DraftJob:
    """Everything :func:`draft_round` reads from ``view``; DraftError as there."""
    t = _tournament(view)
    rnd = _next_round(view, t, round_no)
    seen = _seen(view, rnd, version)
    names = _names(view)
    if len(names) < 2:
        raise DraftError(f"{len(names)} player(s) registered: a round pairs two or more; register the players first "
                         "(import_players or register_player; venue players import|add)")
    try:
        if t.system == SWISS:
            absences = view.absences(rnd)
            inp = swiss_input(t, rnd, view.results(rnd), absences, initial_color, view.forbidden, view.acceleration)
            absent = tuple(DraftBye(start_no=sno, code=code, player=names.get(sno, ""),
                                    reasons=[_absence(view, sno, code, rnd)]) for sno, code in sorted(absences.items()))
            return DraftJob(t, rnd, seen, names, inp, (), absent, by, note)
        if t.system in ROUND_ROBIN:
            pairs = _pairs_round_robin(t, rnd, view.pairing_numbers or None)
            return DraftJob(t, rnd, seen, names, None, tuple(pairs), (), by, note)
    except (ValueError, KeyError) as exc:
        raise DraftError(str(exc).strip("'\"")) from None
    raise DraftError(f"system {t.system!r}: rounds are not paired from the tournament file")


def finish_draft(job: DraftJob, pairing_numbers: Mapping[int, int] | None = None) -> PairingDrafted:
    """The ``pairing_drafted`` entry of ``job`` (pure: it reads only ``job``). DraftError when no
    pairing meets the absolute criteria (C.04.3)."""
    if job.inp is not None:
        try:
            checks = check_round(job.inp, pair_input(job.inp))
        except NoValidPairing as exc:
            raise DraftError(f"round {job.round} cannot be paired within the absolute criteria (FIDE C.04.3 "
                             f"C.1-C.3): {exc}") from None
        pairs: list[tuple[int, int | None]] = [(c.white, c.black) for c in checks]
        rules = {(c.white, c.black): (c.colour_rule, list(c.reasons)) for c in checks}
    else:
        pairs = list(job.pairs)
        rules = _berger_rules(job.t, job.round, pairs, pairing_numbers or {})
    names = job.names
    boards, pab = place(job.t, pairs)
    out = [DraftBoard(board=label, white_no=w, black_no=b, white=names.get(w, ""), black=names.get(b, ""),
                      colour_rule=rules.get((w, b), ("", []))[0], reasons=rules.get((w, b), ("", []))[1])
           for label, w, b in boards]
    byes = [DraftBye(start_no=s, code="U", player=names.get(s, ""), reasons=rules.get((s, None), ("", []))[1])
            for s in pab] + list(job.absent)
    return PairingDrafted(round=job.round, version=job.seen, system=job.t.system, boards=out, byes=byes,
                          by=job.by, note=job.note)


def draft_round(view, round_no: int | None = None, *, version: int | None = None, by: str | None = None,
                note: str | None = None, initial_color: str = "white") -> PairingDrafted:
    """Pair round ``round_no`` (default: the next) into a draft (module docstring): a
    ``pairing_drafted`` entry with the boards in pairing order on the file's hall boards, each with
    its colour rule and reasons, and the byes (the PAB "U", the absent with their C.04.2 codes).
    ``version``: the draft version the arbiter saw (a re-pairing), checked as the fold does.
    Raises DraftError: no tournament registered, a round started or out of order, an earlier game
    without a result (naming them), no pairing within the absolute criteria (C.04.3)."""
    job = prepare_draft(view, round_no, version=version, by=by, note=note, initial_color=initial_color)
    return finish_draft(job, view.pairing_numbers)


def _berger_rules(t: Tournament, rnd: int, pairs, numbers: Mapping[int, int]) -> dict:
    """Each pair's colour rule and reason from the Berger tables (C.05 Annex 1)."""
    number = dict(numbers) if numbers else {p.start_no: i for i, p in enumerate(t.players, start=1)}
    out = {}
    for w, b in pairs:
        if b is None:
            out[(w, None)] = ("", [f"{w} is paired with the bye number this round: the Berger tables' odd player "
                                   "out (C.05 Annex 1)"])
        else:
            out[(w, b)] = ("C.05 Annex 1", [f"Berger table, round {rnd}: pairing numbers {number.get(w)} - "
                                            f"{number.get(b)} (C.05 Annex 1)"])
    return out


def _absence(view, sno: int, code: str, rnd: int) -> str:
    """Why ``sno`` is not paired in round ``rnd``, in words."""
    ts = view.state.tournament
    if ts.withdrawn.get(sno, rnd + 1) <= rnd:
        return f"withdrew from round {ts.withdrawn[sno]}: not paired ({code})"
    entered = ts.late_entries.get(sno)
    if entered is not None and rnd < entered["first_round"]:
        return f"entered late, plays from round {entered['first_round']}: this round scores {code}"
    return f"asked for a {BYE_WORDS.get(code, code)} bye this round (FIDE C.04.2)"


# --- changes by hand ------------------------------------------------------------------------------

def changed_draft(boards: Sequence[DraftBoard], byes: Sequence[DraftBye], ev: PairingSwapped,
                  names: Mapping[int, str]) -> tuple[list[DraftBoard], list[DraftBye]]:
    """The draft's boards and byes after ``ev`` (module docstring; ``PairingSwapped``): the boards
    it changed are marked "by hand" with its reason and warnings. ``names``: start number -> name.
    Raises ValueError for a player not in the draft, an absent player put on a board, a board the
    draft does not have, or the same player twice."""
    boards, byes = list(boards), list(byes)
    touched: set[int] = set()

    def where(sno: int) -> tuple[str, int, str]:
        for i, b in enumerate(boards):
            if sno in (b.white_no, b.black_no):
                return "board", i, "white" if b.white_no == sno else "black"
        for i, y in enumerate(byes):
            if y.start_no == sno:
                if y.code != "U":
                    raise ValueError(f"{_who(names, sno)} is not paired this round ({y.code}: "
                                     f"{(y.reasons or [''])[0]}); he cannot be put on a board")
                return "bye", i, "U"
        raise ValueError(f"{_who(names, sno)} is not in round {ev.round}'s draft")

    def put(place: tuple[str, int, str], sno: int) -> None:
        kind, i, side = place
        if kind == "bye":
            byes[i] = msgspec.structs.replace(byes[i], start_no=sno, player=names.get(sno, ""))
            return
        touched.add(i)
        key = "white" if side == "white" else "black"
        boards[i] = msgspec.structs.replace(boards[i], **{f"{key}_no": sno, key: names.get(sno, "")})

    def exchange(a: int, b: int) -> None:
        if a == b:
            return
        pa, pb = where(a), where(b)
        put(pa, b)
        put(pb, a)

    if ev.kind == "exchange":
        if len(ev.players) != 2 or ev.players[0] == ev.players[1]:
            raise ValueError(f"an exchange names two different players, not {ev.players}")
        exchange(*ev.players)
    else:
        index = next((i for i, b in enumerate(boards) if b.board == str(ev.board)), None)
        if index is None:
            raise ValueError(f"round {ev.round}'s draft has no board {ev.board}")
        if ev.white_no is None or ev.black_no is None or ev.white_no == ev.black_no:
            raise ValueError("a board set by hand needs two different players, White and Black")
        exchange(ev.white_no, boards[index].white_no)
        exchange(ev.black_no, boards[index].black_no)
        touched.add(index)
    line = f"{'exchanged' if ev.kind == 'exchange' else 'set'} by hand{' by ' + ev.by if ev.by else ''}: {ev.reason}"
    for i in touched:
        boards[i] = msgspec.structs.replace(boards[i], colour_rule="by hand", reasons=[line, *ev.warnings])
    return boards, byes


def swap_entry(view, round_no: int, version: int | None, *, reason: str, players: Sequence[int] = (),
               board: str | None = None, white_no: int | None = None, black_no: int | None = None,
               override: bool = False, by: str | None = None, note: str | None = None) -> PairingSwapped:
    """A change by hand to round ``round_no``'s draft at ``version`` (the version the arbiter saw;
    None: as it stands): ``players`` (two start numbers exchanged) or ``board`` with ``white_no``
    and ``black_no``; ``reason`` in words (required). The boards it makes are checked against the
    rules (module docstring): DraftError naming each rule broken unless ``override``, and then the
    entry records them as ``warnings``. Raises DraftError also for a draft that is missing, started
    or changed since (409), and as :func:`changed_draft`."""
    t = _tournament(view)
    d, seen = _open_draft(view, round_no, version)
    if not (reason or "").strip():
        raise DraftError("reason: say why the pairing is changed by hand (it is recorded)")
    kind: Literal["exchange", "board"] = "exchange" if players else "board"
    ev = PairingSwapped(round=round_no, version=seen, kind=kind, reason=reason.strip()[:500],
                        players=[int(p) for p in players], board=None if board is None else str(board),
                        white_no=white_no, black_no=black_no, by=by, note=note)
    names = _names(view)
    unknown = [sno for sno in [*ev.players, white_no, black_no] if sno is not None and sno not in names]
    if unknown:
        raise DraftError(f"no player has start number {unknown[0]} (registered: {_numbers(names)})")
    try:
        boards, byes = changed_draft(d.boards, d.byes, ev, names)
    except ValueError as exc:
        raise DraftError(str(exc)) from None
    before = {(b.white_no, b.black_no) for b in d.boards}
    made = [(b.white_no, b.black_no) for b in boards if (b.white_no, b.black_no) not in before]
    pab = [y.start_no for y in byes if y.code == "U" and y.start_no not in {x.start_no for x in d.byes}]
    if not made and not pab:
        raise DraftError("the draft already reads so: nothing to change")
    broken = broken_rules(view, t, round_no, made, pab)
    if broken and not override:
        raise DraftError("refused: " + "; ".join(broken) + ". Give override to record the change with these rules "
                         "broken (the arbiter's decision)")
    return msgspec.structs.replace(ev, warnings=broken)


def broken_rules(view, t: Tournament, round_no: int, pairs: Sequence[tuple[int, int]],
                 pab: Sequence[int] = ()) -> list[str]:
    """The rules the boards ``pairs`` ((White, Black) start numbers) and the PAB of ``pab`` would
    break in round ``round_no``, as sentences naming the players and the rule: a forbidden pair
    (TRF XXP), C.04.1 b (a Swiss: not twice against each other; a round robin: not more often than
    its cycles, C.05), d (no second PAB), f and g (colours; none for a topscorer in the last round,
    C.04.3 A.7). Colours are checked in a Swiss only (a round robin's come from the tables)."""
    names = _names(view)
    out: list[str] = []
    for w, b in pairs:
        if any(w in g and b in g for g in view.forbidden):
            out.append(f"{_who(names, w)} and {_who(names, b)} are a forbidden pair (the organiser's; TRF XXP, "
                       "C.04.3 C.1)")
        met = [r.round for r in view.games.values()
               if r.round < round_no and {r.white, r.black} == {w, b} and r.result in PLAYED]
        cycles = 2 if t.system == "double-round-robin" else 1
        if len(met) >= cycles:
            rule = ("FIDE C.04.1 b: two players shall not play against each other more than once" if t.system == SWISS
                    else f"C.05: the tables pair them {cycles} time(s)")
            out.append(f"{_who(names, w)} and {_who(names, b)} have played each other already "
                       f"(round {', '.join(map(str, met))}): {rule}")
    if t.system != SWISS:
        return out
    inp = swiss_input(t, round_no, view.results(round_no), view.absences(round_no), "white", view.forbidden,
                      view.acceleration)
    _, everyone = build_players(inp)
    threshold = _topscorer_threshold(inp)
    for w, b in pairs:
        for sno, colour in ((w, WHITE), (b, BLACK)):
            p = everyone.get(sno)
            if p is not None:
                out += _colour_rules(p, colour, threshold, names)
    for sno in pab:
        p = everyone.get(sno)
        if p is not None and not p.bye_ok:
            out.append(f"{_who(names, sno)} has had a pairing-allocated bye or scored a win without playing: FIDE "
                       "C.04.1 d: he shall not receive the pairing-allocated bye")
    return out


def _topscorer_threshold(inp: RoundInput) -> int | None:
    """50 % of the maximum score in tenths before the last round (C.04.3 A.7), else None; as the
    engine reads it (``dutch.engine.pair_round``)."""
    if inp.played_rounds >= inp.total_rounds - 1:
        return inp.played_rounds * max(inp.points.win, inp.points.draw) >> 1
    return None


def _colour_rules(p: RoundPlayer, colour: int, threshold: int | None, names: Mapping[int, str]) -> list[str]:
    """C.04.1 f/g broken by giving ``p`` ``colour``: his absolute preference is the other one."""
    if not p.absolute or p.color_pref in (NO_COLOR, colour):
        return []
    if threshold is not None and p.score > threshold:
        return []  # C.04.3 A.7: a topscorer's colours may break f and g in the last round
    word = "White" if colour == WHITE else "Black"
    whites = p.colors.count(WHITE)
    blacks = len(p.colors) - whites
    if p.imbalance > 1:
        after = whites - blacks + (1 if colour == WHITE else -1)
        return [f"{_who(names, p.start_no)} has had {whites} White and {blacks} Black: {word} again makes the "
                f"difference {after:+d}: FIDE C.04.1 f: the difference between the number of black and white games "
                "shall not be greater than 2 or less than -2"]
    return [f"{_who(names, p.start_no)} had {word} in his last two games played: FIDE C.04.1 g: no player shall "
            "receive the same colour three times in a row"]


# --- publishing and starting ----------------------------------------------------------------------

def _current_results(view, d: PairingDraft) -> None:
    """DraftError when the Swiss draft ``d`` was paired before a result of the round before changed
    (``PairingDraft.outdated``): its pairing reads the old scores (FIDE C.04.3 pairs from the scores
    after the previous round), so it is paired again before it is published or started."""
    if not d.outdated:
        return
    games = []
    for gid in d.outdated:
        g = view.state.games.get(gid)
        games.append(f"board {g.board} ({gid}, now {g.result})" if g is not None else gid)
    raise DraftError(f"round {d.round}'s draft (version {d.version}) was paired before the result of round "
                     f"{d.round - 1} {', '.join(games)} changed: it reads the old result; pair it again (pair_round)")


def publish_entry(view, round_no: int, version: int | None, *, by: str | None = None,
                  note: str | None = None) -> PairingPublished:
    """Publish round ``round_no``'s draft at ``version`` (the one the arbiter saw; None: as it
    stands). DraftError: no draft, started, published already as it stands, changed since (409), or
    paired before a result of the round before changed (``_current_results``)."""
    d, seen = _open_draft(view, round_no, version)
    _current_results(view, d)
    if d.is_published:
        raise DraftError(f"round {round_no}'s draft version {d.version} is published already")
    return PairingPublished(round=round_no, version=seen, by=by, note=note)


def unfinished_games(view, before_round: int) -> list[str]:
    """The games of rounds before ``before_round`` without a result, as "round R board B: White -
    Black (game id)" (an Armageddon game or a match's second game included)."""
    out = []
    for number, r in view.state.rounds.items():
        if not number.isdigit() or int(number) >= before_round:
            continue
        for gid in r.games:
            g = view.state.games.get(gid)
            if g is not None and not g.ended:
                out.append(f"round {number} board {g.board}: {g.white} - {g.black} ({gid})")
    return out


PAST_START_MS = 60_000
"""How far before now a round's start may be given (a click's or a command's own delay, a clock a
little off); further back is refused (``start_data``)."""


def start_data(view, round_no: int, *, start_ms: int, version: int | None = None,
               ballots: Sequence[dict | None] | None = None, now_ms: int | None = None,
               by: str | None = None) -> dict:
    """The ``round_started`` data that starts round ``round_no``'s published draft at ``start_ms``
    (ms since the epoch: now, or the time it starts; the default time counts from it, FIDE Laws
    6.7.1), with ``draft_version`` and ``by`` (who starts it, when given); ``ballots`` for a checkers match event (``round_data``).
    DraftError: an earlier round has a game without a result (naming each), no draft, not
    published, changed since it was published or since the arbiter saw it (409), started already,
    paired before a result of the round before changed (``_current_results``);
    ``start_ms`` more than ``PAST_START_MS`` before ``now_ms`` (when given): the default time would
    have run from a time nobody could be seen at the board, and players would lose at once."""
    if now_ms is not None and start_ms < now_ms - PAST_START_MS:
        ago = (now_ms - start_ms) // 60_000
        raise DraftError(f"the start is {ago} min in the past: the default time counts from it (FIDE Laws 6.7.1), "
                         "so players not yet seen would lose at once; start it now, or at a time to come")
    t = _tournament(view)
    latest = _latest(view)
    if round_no <= latest:
        raise DraftError(f"round {round_no} has started already")
    if round_no != latest + 1:
        raise DraftError(f"round {round_no} cannot start before round {latest + 1}")
    waiting = unfinished_games(view, round_no)
    if waiting:
        listed = "; ".join(waiting[:20]) + (f"; and {len(waiting) - 20} more" if len(waiting) > 20 else "")
        raise DraftError(f"round {round_no} cannot start: {len(waiting)} game(s) of an earlier round have no result: "
                         f"{listed}. Record every result first")
    d = view.state.tournament.drafts.get(round_no)
    if d is None:
        raise DraftError(f"round {round_no} has no draft: pair it (pair_round) and publish it (publish_pairing) first")
    _seen(view, round_no, version)
    _current_results(view, d)
    if not d.is_published:
        why = "it was never published" if d.published is None else \
            f"it changed after version {d.published} was published (now version {d.version})"
        raise DraftError(f"round {round_no}'s draft is not published: {why}; publish it first (publish_pairing)")
    boards = [(b.board, b.white_no, b.black_no) for b in d.boards]
    pab = [y.start_no for y in d.byes if y.code == "U"]
    absences = {y.start_no: y.code for y in d.byes if y.code != "U"}
    try:
        data = round_data(t, round_no, boards, pab, absences, ballots=ballots, start_ms=start_ms)
    except KeyError as exc:
        raise DraftError(f"round {round_no}'s draft names a player the tournament does not have: {exc}") from None
    data["draft_version"] = d.version
    if by is not None:
        data["by"] = by
    return data


def needs_ballots(t: Tournament) -> bool:
    """Whether ``t``'s rounds are checkers matches, each opened with a drawn ballot (11-Man National
    2017 X.A.d; ``services.regulations.checkers_match``)."""
    return _matches(t, t.time_controls.get(t.kind))


def draw_ballots(view, count: int, rng) -> list[dict]:
    """``count`` different three-move ballots from the ACF deck (``Ballot.to_json()``), none of
    those the rounds in the log used (again from the whole deck once it runs out); ``rng``: a
    ``random.Random`` (the edges pass the system's randomness)."""
    from services.rules.checkers_ballots import draw_ballot, load_deck

    deck, out = load_deck(), []
    recorded = (g.setup.ballot.ballot for g in view.state.games.values() if g.setup.ballot is not None)
    taken: set[int] = {n for n in recorded if isinstance(n, int)}
    for _ in range(count):
        if len(taken) >= len(deck):
            taken = set()
        ballot = draw_ballot(deck, rng, exclude=taken)
        taken.add(ballot.number)
        out.append(ballot.to_json())
    return out
