"""The tournament fold as the JSON the dashboard serves (GET /api/standings, GET /api/crosstable).

Pure. Points and tie-break values are numbers (floats, halves exact); money is a string with the
prize rule's unit ("750000", "187500"), never a float. Shapes::

    STANDINGS = {"tournament": name, "slug": str|None, "round": N (latest started), "rounds_total" (None when no tournament file is registered),
                 "provisional": bool, "scoring": "standard"|"norway-armageddon",
                 "tiebreaks": [code, ...], "finished": bool,
                 "rows" (the final ranking: once a play-off has decided, the tied players in its order,
                         ranks 1..k; points and tie-breaks stay the main event's):
                        [{"rank", "start_no", "name", "rating", "points", "played" (games over the board: a
                           checkers match's two games count two), "in_progress", "at_board" ("playing": his
                           game is under way, "waiting": not started yet, null: no game open),
                           "tiebreaks": {code: value}, "provisional",
                           "rating_change": "+12.2"|None (live FIDE change, finished games only;
                           services.tournament.rating_change)}, ...],
                 "prizes": PRIZES|None, "playoff": PLAYOFF|None,
                 "numbers_chosen": bool (the players choose their pairing numbers in a Blitz order before
                                   round 1: Norway Chess 2023; services.arbiter_office.playoff_stage.numbers_chosen)}
    PRIZES = {"currency", "sharing", "undistributed",
              "awards": [{"start_no", "name", "places", "gross", "fines", "net", "withheld", "note",
                          "pending" (a place the play-off decides, not decided yet: nothing paid)}]}
    PLAYOFF = {"regulation", "players": [start_no...], "names": [...], "summary",
               "stages": [{"name", "kind", "condition", "quote",
                           "games": [{"label", "white", "black", "players", "armageddon",
                                      "time_control"}]}],   # the plan, as the regulations write it
               "status": "next_stage"|"stage_in_play"|"arbiter_decides"|"decided" (vocabulary.PlayoffStatus), "order": [start_no...] (decided: winner
               first), "how": [sentences], "reason" (arbiter: the regulations' words),
               "next": {"stage", "name", "kind", "players", "pairs", "colours", "pair_by_arbiter",
                        "time_control", "quote"}|None,
               "played": [{"stage", "round" ("P1"), "name", "kind", "players",
                           "games": [{"id", "board", "white", "black", "result"}]}]}
    CROSSTABLE = {"tournament", "round", "rounds": N (columns), "rounds_total", "scoring", "provisional",
                  "tiebreaks",
                  "rows": [{"rank", "start_no", "name", "rating", "total", "tiebreaks",
                            "cells": [{"round", "opponent", "color", "code", "points", "text",
                                       "games"?: [{"color", "code"}, {"color", "code"}]}]}]}
    # "games": a checkers match round (two games, colours reversed in game 2): game 1, game 2 from
    # the row's player's side; "color"/"code" are game 1's, "points" the two games' together
"""

from __future__ import annotations

from dataclasses import asdict
from decimal import Decimal

from services.events.vocabulary import PlayoffStatus
from services.arbiter_office.playoff_stage import numbers_chosen
from services.tournament.playoff_walk import ArbiterDecides, Decided, NextStage, Playing
from services.tournament.playoffs import playoff
from services.views.standings import TournamentView


def _money(d: Decimal) -> str:
    return format(d.normalize(), "f") if d == d.to_integral() else format(d, "f")


def prizes_json(view: TournamentView, provisional: bool = False) -> dict | None:
    """PRIZES (the module docstring) of the standings (``provisional``: games in progress count as
    draws), as /api/standings, /standings and the printed standings give them; None when the event
    has no prize rule or no tournament file."""
    result = view.prizes(provisional)
    rule = view.prize_rule()
    t = view.tournament
    if result is None or rule is None or t is None:  # a rule needs a tournament file
        return None
    names = {s: p["name"] for s, p in view.players.items()}
    return {"currency": rule.currency, "sharing": t.regulations.prizes.sharing,
            "undistributed": _money(result.undistributed),
            "awards": [{"start_no": a.start_no, "name": names.get(a.start_no, ""), "places": list(a.places),
                        "gross": _money(a.gross), "fines": _money(a.fines), "net": _money(a.net),
                        "withheld": _money(a.withheld), "note": a.note, "pending": a.pending}
                       for a in result.awards]}


def playoff_json(view: TournamentView, force: bool = False) -> dict | None:
    """The play-off (see the module docstring) or None when there is none."""
    po = view.state.tournament.playoff
    plan = view.playoff(force=force) if not po.stages else playoff(po.regulation, po.tied)
    if plan is None:
        return None
    names = {s: p["name"] for s, p in view.players.items()}
    return {**_progress(view), "regulation": plan.regulation, "players": plan.players,
            "names": [names.get(s, str(s)) for s in plan.players], "summary": plan.summary,
            "tiebreaks": plan.tiebreaks,
            "stages": [{"name": s.name, "kind": s.kind, "condition": s.condition, "quote": s.quote,
                        "games": [{"label": g.label, "white": g.white, "black": g.black,
                                   "players": list(g.players), "armageddon": g.armageddon,
                                   "time_control": g.time_control} for g in s.games]}
                       for s in plan.stages]}


def _progress(view: TournamentView) -> dict:
    """The play-off as played so far: PLAYOFF's ``status``, ``order``, ``how``, ``next``, ``played``."""
    step = view.playoff_step()
    po = view.state.tournament.playoff
    out: dict = {"status": None, "order": [], "how": [], "reason": None, "next": None, "played": [
        {"stage": s.stage, "round": s.round, "name": s.name, "kind": s.kind, "players": s.players,
         "games": [{"id": gid, "board": view.state.games[gid].board if gid in view.state.games else "",
                    "white": po.games[gid].white, "black": po.games[gid].black, "result": po.games[gid].result}
                   for gid in s.games]} for s in po.stages]}
    if isinstance(step, Decided):
        out.update(status=PlayoffStatus.DECIDED, order=list(step.order), how=list(step.how))
    elif isinstance(step, Playing):
        out.update(status=PlayoffStatus.STAGE_IN_PLAY, how=list(step.how))
    elif isinstance(step, ArbiterDecides):
        out.update(status=PlayoffStatus.ARBITER_DECIDES, reason=step.reason)
    elif isinstance(step, NextStage):
        sp = step.spec
        out.update(status=PlayoffStatus.NEXT_STAGE, how=list(step.how), next={
            "stage": len(po.stages) + 1, "name": sp.name, "kind": sp.kind, "players": list(sp.players),
            "pairs": [list(p) for p in sp.pairs], "colours": sp.colours, "pair_by_arbiter": sp.pair_by_arbiter,
            "time_control": sp.time_control, "quote": sp.quote})
    return out


def standings_json(view: TournamentView, provisional: bool = False) -> dict:
    """STANDINGS (module docstring). Raises ValueError when recorded results contradict each other."""
    t = view.tournament
    rows = view.final_standings(provisional)
    at = view.at_board()
    changes = view.rating_changes()
    return {"tournament": view.name, "slug": t.slug if t else None, "round": view.current_round,
            "rounds_total": t.rounds_total if t else None, "provisional": provisional,
            "scoring": t.regulations.scoring if t else "standard", "tiebreaks": view.tiebreak_order(),
            "finished": view.finished(), "rows": [{**asdict(r), "at_board": at.get(r.start_no),
                                       "rating_change": _change(changes.get(r.start_no))} for r in rows],
            "prizes": prizes_json(view, provisional), "playoff": playoff_json(view),
            "numbers_chosen": numbers_chosen(t)}


def _change(change) -> str | None:
    """A row's live FIDE rating change as shown (``+12.2``), None for an unrated player."""
    return None if change is None else change.shown()


def crosstable_json(view: TournamentView, provisional: bool = False) -> dict:
    """CROSSTABLE (module docstring). Raises ValueError as :func:`standings_json`."""
    rows = view.crosstable(provisional)
    t = view.tournament
    return {"tournament": view.name, "round": view.current_round, "rounds": view.current_round,
            "rounds_total": t.rounds_total if t else None,
            "scoring": t.regulations.scoring if t else "standard",
            "provisional": provisional, "tiebreaks": view.tiebreak_order(),
            "rows": [{"rank": r.rank, "start_no": r.start_no, "name": r.name, "rating": r.rating,
                      "total": r.total, "tiebreaks": r.tiebreaks,
                      "cells": [_cell(c) for c in r.cells]} for r in rows]}


def _cell(c) -> dict:
    """One CROSSTABLE cell; a match round's also has ``games`` (module docstring)."""
    cell = {"round": c.round, "opponent": c.opponent, "color": c.color, "code": c.code, "points": c.points,
            "text": c.text}
    if c.games:
        cell["games"] = [{"color": colour, "code": code} for colour, code in c.games]
    return cell
