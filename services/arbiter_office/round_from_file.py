"""A round's set-up from the tournament file: the ``round_started`` data of docs/events.md. Pure.

* Round robin (``system`` "round-robin" / "double-round-robin"): the Berger tables (FIDE C.05 Annex 1,
  ``services.tournament.pairing.berger``); pairing number = start number unless a recorded drawing
  of lots (or the players' choice, Norway Chess 2023) gives ``lots``.
* Swiss (``"swiss-dutch"``): the Dutch system (FIDE C.04.3, ``services.tournament.pairing.dutch``)
  over the results so far, written as a TRF16 file (``services.arbiter_office.tournament_trf``).

:func:`round_from_view` pairs the next round of a tournament folded from the log
(``services.views.standings``). Boards are numbered 1.. in pairing order; hall boards are those
of the file's ``[[boards]]`` in that order (numbers after the last one when the file lists fewer).
A pairing-allocated bye (C.04.1, C.05 Annex 1 "the highest number counts as a bye") gets no board:
``byes: [start_no]``.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone, tzinfo

from services.arbiter_office.tournament_rank import build_field
from services.regulations.checkers_match import is_match_event, match_setups
from services.regulations.controls import control_from_spec
from services.arbiter_office.tournament_trf import trf_from_field
from services.regulations.model import Player, Tournament
from services.tournament.pairing.actions import Action, BakuAcceleration, ForbiddenPair, RequestedBye, apply_actions
from services.tournament.pairing.berger import berger_schedule
from services.tournament.pairing.dutch import round_input_from_trf
from services.tournament.pairing.dutch.history import RoundInput
from services.tournament.pairing.dutch.result import pair_input
from services.tournament.results import GameResult

ROUND_ROBIN = ("round-robin", "double-round-robin")
LAST_START_MS = 253_402_214_400_000
"""The latest start a round can have: 9999-12-31T00:00:00Z in ms since the epoch, the last day of
Python's calendar (``datetime``) less one, so that the start has a date (``round_times``) in any UTC
offset (under 24 h). A later one cannot be dated: its readers (the arbiter's ``start_ms``,
``--round-start``, ``venue round start --at``) refuse it as a bad value."""


def _pairs_round_robin(t: Tournament, round_no: int, lots: Mapping[int, int] | None) -> list[tuple[int, int | None]]:
    n = len(t.players)
    numbers = dict(lots) if lots else {p.start_no: i for i, p in enumerate(t.players, start=1)}
    if sorted(numbers.values()) != list(range(1, n + 1)) or set(numbers) != {p.start_no for p in t.players}:
        raise ValueError(f"pairing numbers must give each of the {n} players one of 1..{n}")
    by_number = {v: k for k, v in numbers.items()}
    schedule = berger_schedule(n, 2 if t.system == "double-round-robin" else 1)
    if not 1 <= round_no <= len(schedule):
        raise ValueError(f"round {round_no} does not exist: the Berger tables give {len(schedule)} rounds")
    return [(by_number[w], None if b is None else by_number[b]) for w, b in schedule[round_no - 1]]


def swiss_input(t: Tournament, round_no: int, results: Iterable[GameResult | tuple[GameResult, str | None]],
                absences: Mapping[int, str], initial_color: str = "white", forbidden: Sequence[Iterable[int]] = (),
                acceleration: str | None = None) -> RoundInput:
    """The Dutch engine's input for round ``round_no`` of ``t`` (a Swiss): the TRF of the results so
    far with the arbiter's actions entered (:func:`swiss_actions`), read back as
    ``services.tournament.pairing.dutch`` reads a TRF. Raises ValueError when an earlier game has no
    result (naming the games: round, board, players) or the results do not cover the rounds before."""
    records = [r if isinstance(r, tuple) else (r, None) for r in results]
    records = [(g, s) for g, s in records if g.round < round_no]
    open_games = [g for g, _ in records if not g.finished]
    if open_games:
        names = {p.start_no: p.name for p in t.players}
        listed = "; ".join(f"round {g.round}: {names.get(g.white, g.white)} - "
                           f"{names.get(g.black, g.black) if g.black is not None else 'bye'}" for g in open_games[:12])
        more = f" and {len(open_games) - 12} more" if len(open_games) > 12 else ""
        raise ValueError(f"round {round_no} cannot be paired: {len(open_games)} game(s) of an earlier round have no "
                         f"result ({listed}{more}); record them first")
    players = {p.start_no: (p.name, p.rating) for p in t.players}
    fld = build_field(players, records, rounds=round_no - 1)
    # after round 1 the first colour is read from the history, as from the exported TRF (no XXC)
    trf = trf_from_field(fld, name=t.name, rounds_total=t.rounds_total,
                         initial_color=initial_color if round_no == 1 else None)
    trf = apply_actions(trf, swiss_actions(round_no, absences, forbidden, acceleration), round_no)
    inp = round_input_from_trf(trf)
    if inp.played_rounds != round_no - 1:
        raise ValueError(f"round {round_no} cannot be paired: results are recorded for "
                         f"{inp.played_rounds} rounds, not {round_no - 1}")
    return inp


def _pairs_swiss(t: Tournament, round_no: int, results: Iterable[GameResult | tuple[GameResult, str | None]],
                 absences: Mapping[int, str], initial_color: str, forbidden: Sequence[Iterable[int]],
                 acceleration: str | None) -> list[tuple[int, int | None]]:
    inp = swiss_input(t, round_no, results, absences, initial_color, forbidden, acceleration)
    return [(p.white, p.black) for p in pair_input(inp)]


def swiss_actions(round_no: int, absences: Mapping[int, str], forbidden: Sequence[Iterable[int]] = (),
                  acceleration: str | None = None) -> list[Action]:
    """The arbiter's actions for round ``round_no`` as ``services.tournament.pairing.actions``
    records, what ``venue pair`` enters in a TRF: ``absences`` (start number -> "H"/"F"/"Z": a
    requested bye, a withdrawal's or a late entry's missed round) as that round's entries,
    ``forbidden`` groups as ``XXP`` lines, ``acceleration`` "baku" as C.04.7's ``192`` record."""
    actions: list[Action] = [RequestedBye(sno, round_no, code) for sno, code in sorted(absences.items())]
    actions += [ForbiddenPair(frozenset(group)) for group in forbidden]
    if acceleration == "baku":
        actions.append(BakuAcceleration())
    elif acceleration is not None:
        raise ValueError(f"acceleration {acceleration!r}: only Baku acceleration (C.04.7) is known")
    return actions


def round_from_tournament(t: Tournament, round_no: int, *, results_so_far=None, lots: Mapping[int, int] | None = None,
                          absent: Iterable[int] | Mapping[int, str] = (), initial_color: str = "white",
                          forbidden: Sequence[Iterable[int]] = (), acceleration: str | None = None,
                          ballots: Sequence[dict | None] | None = None, start_ms: int | None = None) -> dict:
    """The ``round_started`` data for round ``round_no`` of ``t``.

    Returns ``{"round": "N", "event", "site", "date": "YYYY.MM.DD", "games": [SETUP...],
    "byes": [start_no (the pairing-allocated bye), {"start_no", "code"} (a Swiss player absent:
    "H"/"F"/"Z") ...], "start_ms", "scheduled_start_ms"}``. ``start_ms``: when the round
    starts (ms since the epoch; the default time counts from it, FIDE Laws 6.7.1): the argument
    (``--round-start``), else the file's schedule; ``scheduled_start_ms``, the schedule, only when
    the two differ; both left out for a round the file does not schedule and no ``start_ms`` given.
    ``date``: the day the round starts, in the schedule's UTC offset (UTC when unscheduled). SETUP = ``{"id": "{round}-{board}", "board", "round", "white", "black",
    "white_no", "black_no", "white_elo", "black_elo", "variant", "time_control" (the file's spec of
    ``t.kind``: PGN text, or a table as a dict), "fen": None, "kind"}`` and, where the file gives
    them, the players' ``white_title``/``black_title``, ``*_fide_id``, ``*_fed``, ``*_team``
    (:func:`player_details`).

    ``results_so_far``: :class:`GameResult` (or ``(GameResult, special score)``) of earlier rounds,
    needed for a Swiss; ``lots``: start number -> pairing number (round robin). Swiss only:
    ``absent``: start numbers not to be paired, with their TRF code (start number -> "H"/"F"/"Z": a
    requested bye, a withdrawal "Z", a late entry's missed round), or without one (then "Z");
    ``forbidden``: groups of start numbers that must not meet (``XXP``); ``acceleration``: "baku"
    (C.04.7) or None; ``initial_color``: the colour drawn for the first-ranked player in round 1
    (C.04.3 E.5; later rounds read it from the history, as a pairing program reads the exported
    TRF). The Swiss round is paired from the TRF of the results so far with these entered the way
    ``venue pair`` enters its actions (``swiss_actions``, ``services.tournament.pairing.actions``):
    the same pairing as ``venue pair`` on the exported TRF with the same actions.

    Checkers match events (``services.regulations.checkers_match.is_match_event``: the main control
    is a match clock, 11-Man National 2017 X.A.a): each pairing is a match of two games on its hall
    board (``checkers_match.match_setups``: ids ``"{round}-{board}.1"``/``".2"``, ``match``, colours
    reversed in game 2), both with ``ballots[i]`` (``Ballot.to_json()``, the i-th pairing's; None
    when not given).

    Raises ValueError for a round
    outside the event, pairing numbers that are not 1..n, a system that cannot be paired from the
    file ("matches"), an earlier round without all results, or no valid Swiss pairing
    (``NoValidPairing``).
    """
    if not 1 <= round_no <= t.rounds_total:
        raise ValueError(f"round {round_no} is not one of the {t.rounds_total} rounds of {t.name}")
    absences = dict(absent) if isinstance(absent, Mapping) else dict.fromkeys(absent, "Z")
    if t.system in ROUND_ROBIN:
        pairs = _pairs_round_robin(t, round_no, lots)
    elif t.system == "swiss-dutch":
        pairs = _pairs_swiss(t, round_no, results_so_far or [], absences, initial_color, forbidden, acceleration)
    else:
        raise ValueError(f"system {t.system!r}: rounds are not paired from the tournament file")
    boards, pab = place(t, pairs)
    return round_data(t, round_no, boards, pab, absences if t.system == "swiss-dutch" else {}, ballots=ballots,
                      start_ms=start_ms)


def place(t: Tournament, pairs: Sequence[tuple[int, int | None]]) -> tuple[list[tuple[str, int, int]], list[int]]:
    """``(boards, pab)``: the pairs in order on the hall boards of the file's ``[[boards]]`` (numbers
    after the last one when it lists fewer), ``(label, white, black)`` each; ``pab`` the start
    numbers without an opponent (the pairing-allocated bye)."""
    halls = [b.number for b in t.boards]
    boards: list[tuple[str, int, int]] = []
    pab: list[int] = []
    for white, black in pairs:
        if black is None:
            pab.append(white)
            continue
        i = len(boards)
        boards.append((str(halls[i] if i < len(halls) else max(halls, default=0) + i - len(halls) + 1), white, black))
    return boards, pab


def round_data(t: Tournament, round_no: int, boards: Sequence[tuple[str, int, int]], pab: Sequence[int] = (),
               absences: Mapping[int, str] | None = None, *, ballots: Sequence[dict | None] | None = None,
               start_ms: int | None = None) -> dict:
    """The ``round_started`` data of round ``round_no`` of ``t`` with these ``boards`` (``(hall
    label, white start number, black start number)`` in board order), ``pab`` (start numbers of the
    pairing-allocated bye) and ``absences`` (start number -> TRF code of the players not paired);
    ``ballots``, ``start_ms`` and the shape as :func:`round_from_tournament`. KeyError for a start
    number that is not a player of ``t``."""
    times = round_times(t, round_no, start_ms)
    spec = t.time_controls.get(t.kind)
    games: list[dict] = []
    for label, white, black in boards:
        w, b = t.player(white), t.player(black)
        games.append({"id": f"{round_no}-{label}", "board": str(label), "round": str(round_no),
                      "white": w.name, "black": b.name, "white_no": white, "black_no": black,
                      "white_elo": w.rating, "black_elo": b.rating, "variant": t.game,
                      "time_control": dict(spec) if isinstance(spec, dict) else spec, "fen": None,
                      "kind": t.kind, **player_details("white", w), **player_details("black", b)})
    if _matches(t, spec):
        games = [g for i, pairing in enumerate(games)
                 for g in match_setups(pairing, ballots[i] if ballots and i < len(ballots) else None)]
    # start numbers without an opponent, then {start_no, code} of the absent
    byes: list[int | dict] = [*pab, *({"start_no": sno, "code": code} for sno, code in sorted((absences or {}).items()))]
    return {"round": str(round_no), "event": t.name, "site": t.site, "games": games, "byes": byes, **times}


DETAILS = (("title", "title"), ("fide_id", "fide_id"), ("fed", "federation"), ("team", "team"))
"""SETUP key suffix -> ``Player`` attribute of the players' details a round carries."""


def player_details(side: str, player) -> dict:
    """``{"white_title": "GM", "white_fide_id": "1503014", "white_fed": "NOR", "white_team": ...}``
    of ``player`` (a ``Player``) for ``side``: only the details the tournament file gives."""
    out = {}
    for key, attr in DETAILS:
        value = getattr(player, attr, None)
        if value not in (None, ""):
            out[f"{side}_{key}"] = str(value)
    return out


def round_times(t: Tournament, round_no: int, start_ms: int | None = None) -> dict:
    """``date``, ``start_ms``, (when moved) ``scheduled_start_ms`` and (when the file schedules an end)
    ``end_ms`` of round ``round_no`` starting at ``start_ms`` (None: as the file schedules it; a
    moved round keeps its scheduled length); see :func:`round_from_tournament`."""
    try:
        scheduled = t.round(round_no)
    except KeyError:
        scheduled = None
    if start_ms is None:
        if scheduled is None:
            return {"date": "????.??.??"}
        start_ms = scheduled.start_ms
    zone: tzinfo = timezone.utc
    if scheduled is not None:
        with contextlib.suppress(ValueError):
            zone = datetime.fromisoformat(scheduled.start).tzinfo or timezone.utc
    out = {"date": datetime.fromtimestamp(start_ms / 1000, zone).strftime("%Y.%m.%d"), "start_ms": start_ms}
    if scheduled is not None and scheduled.start_ms != start_ms:
        out["scheduled_start_ms"] = scheduled.start_ms
    if scheduled is not None and scheduled.end_ms is not None:
        # a round moved keeps its length: the late-start rule (checkers X.B.e) counts from its end
        out["end_ms"] = start_ms + (scheduled.end_ms - scheduled.start_ms)
    return out


def _matches(t: Tournament, spec) -> bool:
    try:
        return is_match_event(t.game, control_from_spec(spec) if spec else None)
    except ValueError:
        return False


def round_from_view(view, round_no: int, *, initial_color: str = "white",
                    ballots: Sequence[dict | None] | None = None, start_ms: int | None = None) -> dict:
    """:func:`round_from_tournament` for the tournament a ``TournamentView`` folded from the log:
    its registered file and the players entered late (``player_entered``), the results of the
    earlier rounds, the recorded pairing numbers (``lots_drawn``), and for a Swiss the arbiter's
    actions for the round (``TournamentView.absences``: withdrawals, requested byes, late entries'
    missed rounds; forbidden pairs; the acceleration); ``ballots`` and ``start_ms`` as there.
    Raises ValueError when no ``tournament_registered`` entry was folded, or as
    :func:`round_from_tournament`."""
    t = field_of(view)
    return round_from_tournament(t, round_no, results_so_far=view.results(round_no),
                                 lots=view.pairing_numbers or None, absent=view.absences(round_no),
                                 forbidden=view.forbidden, acceleration=view.acceleration,
                                 initial_color=initial_color, ballots=ballots, start_ms=start_ms)


def field_of(view) -> Tournament:
    """The tournament a ``TournamentView`` folded from the log pairs: its registered file with the
    players entered late (``player_entered``) added, or, once players were registered by entries
    (``players_registered``), with every registered player under his C.04.2 start number.
    ValueError when no ``tournament_registered`` entry was folded."""
    if view.tournament is None:
        raise ValueError("no tournament_registered entry in the log: rounds cannot be paired from the file")
    t = view.tournament
    ts = view.state.tournament
    if ts.roster:  # players registered by entries: the log's roster and its C.04.2 start numbers
        return replace(t, players=tuple(ts.as_player(sno) for sno in sorted(ts.players)))
    registered = {p.start_no for p in t.players}
    late = tuple(ts.as_player(sno) for sno in sorted(view.players) if sno in view.late_entries and sno not in registered)
    return replace(t, players=t.players + late) if late else t
