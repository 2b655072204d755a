"""The tournament in the event log: the ``tournament_registered`` entry (docs/tournament-log.md).

Pure. :func:`tournament_registered_data` writes the tournament file (``services.regulations.model
.Tournament``) as plain JSON, so the log alone tells every later reader (the dashboard's standings,
``venue export``, an appeals committee) who plays, how rounds are paired and scored, the tie-breaks in
the regulations' order, prizes and the play-off rule. :func:`tournament_from_data` reads it back.

Left out on purpose: arbiters' password hashes and environment names (a secret has no place in a log
spectators' processes read) and the devices' MQTT client names (hall wiring, not the tournament).
"""

from __future__ import annotations

from services.events import TournamentRegistered
from services.regulations.model import (
    APPENDIX_DEFAULT,
    DrawOfferPolicy,
    Fine,
    HallBoard,
    Player,
    Prizes,
    Regulations,
    RoundSchedule,
    Tournament,
)

ENTRY_TYPE = TournamentRegistered.TYPE


def tournament_registered_data(t: Tournament) -> dict:
    """The ``data`` of a ``tournament_registered`` entry for ``t``.

    Shape (all plain JSON)::

        {"name", "slug", "game", "system", "kind", "rounds_total", "site",
         "federation", "chief_arbiter", "deputy_arbiters": [str, ...] (the last three only when set),
         "players": [{"start_no", "name", "rating", "fide_id", "federation", "title", "team"?}, ...],
         "rounds": [{"number", "start" (ISO 8601), "start_ms", "end_ms"}, ...],
         "boards": [int, ...], "time_controls": {kind: PGN text or table},
         "regulations": {"scoring", "tiebreaks": [code...], "classical_only", "playoff",
                         "prizes": {"amounts", "currency", "sharing", "withhold_after_forfeit"},
                         "fine_not_at_board": {"amount", "currency"} or None,
                         "armageddon_after_draw", "draw_offers": {"policy", "min_moves", "exempt_kinds"},
                         "default_time_ms": {kind: ms}, "clock_tolerance_ms",
                         "ballot_moves_before_clock": true (only when set: checkers X.A.d),
                         "period_added": "on_expiry" (only when set), "appendix": {"rapid", "blitz"}
                         (only when not A.5 and B.3), "guidelines_iii": true (only when set: FIDE
                         Guidelines III announced), "move_timers": [name...] (only when the file
                         names them, [] included: checkers X.B.a, X.B.c)},
         "broadcast_delay_ms": ms (0: no delay; docs/broadcast.md),
         "broadcast_lichess_rounds": ["ID:BOARDS", ...] (only when set: ``[broadcast] lichess_rounds``)}
    """
    r = t.regulations
    fine = r.fine_not_at_board
    return {
        "name": t.name, "slug": t.slug, "game": t.game, "system": t.system, "kind": t.kind,
        "rounds_total": t.rounds_total, "site": t.site,
        # only when set, so the logs of files without them stay as they were registered
        **({"federation": t.federation} if t.federation else {}),
        **({"chief_arbiter": t.chief_arbiter} if t.chief_arbiter else {}),
        **({"deputy_arbiters": list(t.deputy_arbiters)} if t.deputy_arbiters else {}),
        "players": [{"start_no": p.start_no, "name": p.name, "rating": p.rating, "fide_id": p.fide_id,
                     "federation": p.federation, "title": p.title, **({"team": p.team} if p.team else {})}
                    for p in t.players],
        "rounds": [{"number": s.number, "start": s.start, "start_ms": s.start_ms, "end_ms": s.end_ms}
                   for s in t.rounds],
        "boards": [b.number for b in t.boards],
        "time_controls": {k: (dict(v) if isinstance(v, dict) else v) for k, v in t.time_controls.items()},
        "regulations": {
            "scoring": r.scoring, "tiebreaks": list(r.tiebreaks), "classical_only": r.tiebreaks_classical_only,
            "playoff": r.playoff,
            "prizes": {"amounts": list(r.prizes.amounts), "currency": r.prizes.currency,
                       "sharing": r.prizes.sharing, "withhold_after_forfeit": r.prizes.withhold_after_forfeit},
            "fine_not_at_board": None if fine is None else {"amount": fine.amount, "currency": fine.currency},
            "armageddon_after_draw": r.armageddon_after_draw,
            "draw_offers": {"policy": r.draw_offers.policy, "min_moves": r.draw_offers.min_moves,
                            "exempt_kinds": sorted(r.draw_offers.exempt_kinds)},
            "default_time_ms": dict(r.default_time_ms), "clock_tolerance_ms": r.clock_tolerance_ms,
            # only when set, so the logs of files without it stay as they were registered
            **({"ballot_moves_before_clock": True} if r.ballot_moves_before_clock else {}),
            **({"rules": dict(r.rules)} if r.rules else {}),
            **({"period_added": r.period_added} if r.period_added != "on_move" else {}),
            **({"appendix": dict(r.appendix)} if r.appendix != APPENDIX_DEFAULT else {}),
            **({"guidelines_iii": True} if r.guidelines_iii else {}),
            **({"move_timers": list(r.move_timers)} if r.move_timers is not None else {}),
        },
        # always, as the folded entry has it (0 when the file sets none): a file read again compares equal
        "broadcast_delay_ms": t.broadcast_delay_ms,
        # only when set, so the logs of files without it stay as they were registered
        **({"broadcast_lichess_rounds": list(t.broadcast_lichess_rounds)} if t.broadcast_lichess_rounds else {}),
    }


def tournament_from_data(data: dict) -> Tournament:
    """The :class:`Tournament` a ``tournament_registered`` entry describes (without arbiters or
    devices). Raises KeyError or TypeError for data missing ``name``, ``slug``, ``system`` or a
    player's ``start_no``/``name``; optional fields take the tournament file's defaults."""
    regs = data.get("regulations") or {}
    pz = regs.get("prizes") or {}
    fine = regs.get("fine_not_at_board")
    draws = regs.get("draw_offers") or {}
    players = tuple(sorted((Player(int(p["start_no"]), str(p["name"]), p.get("rating"), p.get("fide_id"),
                                   p.get("federation"), p.get("title"), p.get("team"))
                           for p in data.get("players") or []),
                           key=lambda p: p.start_no))
    rounds = tuple(RoundSchedule(int(s["number"]), s.get("start", ""), int(s.get("start_ms") or 0),
                                 s.get("end_ms")) for s in data.get("rounds") or [])
    return Tournament(
        name=data["name"], slug=data["slug"], game=data.get("game", "chess"), system=data["system"],
        kind=data.get("kind", "classical"), rounds_total=int(data.get("rounds_total") or 0),
        players=players, rounds=rounds, boards=tuple(HallBoard(int(b)) for b in data.get("boards") or []),
        time_controls=dict(data.get("time_controls") or {}),
        regulations=Regulations(
            draw_offers=DrawOfferPolicy(draws.get("policy", "allowed"), int(draws.get("min_moves", 0)),
                                        frozenset(draws.get("exempt_kinds") or ())),
            default_time_ms=dict(regs.get("default_time_ms") or {}),
            fine_not_at_board=None if not fine else Fine(int(fine["amount"]), fine.get("currency", "USD")),
            scoring=regs.get("scoring", "standard"), tiebreaks=tuple(regs.get("tiebreaks") or ()),
            tiebreaks_classical_only=bool(regs.get("classical_only")), playoff=regs.get("playoff", "none"),
            prizes=Prizes(tuple(pz.get("amounts") or ()), pz.get("currency", "USD"), pz.get("sharing", "tiebreak"),
                          bool(pz.get("withhold_after_forfeit"))),
            armageddon_after_draw=bool(regs.get("armageddon_after_draw")),
            clock_tolerance_ms=int(regs.get("clock_tolerance_ms", 2000)),
            ballot_moves_before_clock=bool(regs.get("ballot_moves_before_clock")),
            rules={str(k): str(v) for k, v in (regs.get("rules") or {}).items()},
            period_added=str(regs.get("period_added") or "on_move"),
            appendix={**APPENDIX_DEFAULT, **{str(k): str(v) for k, v in (regs.get("appendix") or {}).items()}},
            guidelines_iii=bool(regs.get("guidelines_iii")),
            move_timers=None if regs.get("move_timers") is None else tuple(str(m) for m in regs["move_timers"])),
        site=data.get("site", ""),
        broadcast_delay_ms=int(data.get("broadcast_delay_ms") or 0),
        broadcast_lichess_rounds=tuple(str(x) for x in data.get("broadcast_lichess_rounds") or ()),
        federation=str(data.get("federation") or ""), chief_arbiter=str(data.get("chief_arbiter") or ""),
        deputy_arbiters=tuple(str(a) for a in data.get("deputy_arbiters") or ()),
    )
