"""The tournament so far as files: PGN of every game of every round, and FIDE TRF16. Pure.

* :func:`tournament_pgn`: each round's games in board order, each Armageddon game after the game it
  follows, then the play-off's stages (rounds "P1", "P2", ...) in stage order, written by
  ``services.arbiter_office.view_pgn.game_pgn`` (Seven Tag Roster, ``[%clk]`` per ply).
  A time control the tournament file gives as a table (Norway 120 min + 10 s from move 41) is
  written as PGN text where PGN can say it, else "?" (PGN standard 9.6.1: unknown), by
  ``services.arbiter_office.view_pgn.pgn_time_control`` (a checkers match clock: game 1's control, game 2 "?").
* :func:`tournament_trf`: ``services.tournament.trf.dump_trf`` of ``services.arbiter_office.tournament_trf``;
  ``parse_trf`` reads it back to the same results (tests/unit/test_tournament_view_export.py).
  Checkers matches (two games a round): each game its own TRF round, ``2r - 1`` and ``2r``
  (``services.arbiter_office.tournament_trf``; tests/unit/test_match_crosstable.py).
"""

from __future__ import annotations

from services.arbiter_office.tournament_trf import trf_from_field
from services.views.standings import TournamentView
from services.arbiter_office.view_pgn import game_pgn, pgn_time_control  # noqa: F401 (pgn_time_control: kept here too)
from services.tournament.results import second_games
from services.tournament.scoring import NORWAY, NORWAY_ARMAGEDDON_LOSS, NORWAY_ARMAGEDDON_WIN, NORWAY_LOSS, NORWAY_WIN
from services.tournament.trf import dump_trf


def tournament_pgn(view: TournamentView) -> str:
    """Every game of every round started so far, as one PGN text ("" when no round has started):
    the main event's rounds in order, then the play-off's stages in stage order, each stage's games
    as ``/api/round.pgn?round=P1`` writes them (``Round "P1"``, the stage's date; docs/tournament-log.md:
    "every game of every round"; the TRF leaves them out, its rounds are the main event's).
    Raises ValueError when a recorded chess move is illegal (see ``game_pgn``)."""
    texts = []
    for rnd in sorted(view.rounds):
        info = view.round_info(rnd)
        for game in view.round_games(rnd):
            texts.append(game_pgn(game, info))
    for label in view.playoff_rounds():
        info = view.playoff_info(label)
        texts += [game_pgn(game, info) for game in view.playoff_games(label)]
    return "\n".join(texts)


def tournament_trf(view: TournamentView) -> str:
    """The tournament so far as TRF16 text (the rounds started; games in progress are left blank):
    the results as they stand now (a result corrected after a later round was paired included), the
    ranks in the final order (a decided play-off's on top; the play-off's games are not rounds of the
    report: its crosstable is the main event's), the tournament section from the file (``services.arbiter_office.tournament_trf``).
    Raises ValueError when recorded results contradict each other or a field does not fit TRF columns."""
    fld, _ = view.rank()
    records = view.records()
    final = view.final_standings()  # a play-off's order on top once it has decided
    matches = any(g.second is not None for g, _ in records)
    t = view.tournament
    info = {s: p for s, p in view.players.items()}
    rounds_total = max(t.rounds_total if t else 0, view.current_round)
    # the day a round was played where it was, else its scheduled day (132); 042/052 the first and
    # last of these, so the header's dates agree with the rounds' (fresh-user report finding 2)
    round_dates = view.played_dates()[:rounds_total]
    control = _control_text(t.time_controls.get(t.kind)) if t else ""
    return dump_trf(trf_from_field(
        fld, name=view.name or "Tournament", rounds_total=rounds_total,
        site=t.site if t else (view.round_info(view.current_round).get("site") or ""),
        system=t.system if t else "", players_info=info, ranks={r.start_no: r.rank for r in final},
        dates=round_dates, initial_color=None,
        seconds=second_games(g for g, _ in records) if matches else None,
        federation=t.federation if t else "", chief_arbiter=t.chief_arbiter if t else "",
        arbiters=t.deputy_arbiters if t else (), time_control=control,
        round_dates=round_dates, forbidden=view.forbidden, standings=_standings_system(view),
        scheduled_colours=_scheduled_colours(records)))


def _scheduled_colours(records) -> dict[tuple[int, int], str]:
    """``(start_no, round) -> "w"/"b"``: the colours every pairing at a board was scheduled with."""
    out: dict[tuple[int, int], str] = {}
    for g, _ in records:
        if g.black is not None:
            out[(g.white, g.round)], out[(g.black, g.round)] = "w", "b"
    return out


def _control_text(spec) -> str:
    """The 122 line's text for the event's main control: PGN TimeControl text where PGN can write
    it, else the file's table in words ("white 120m, black 120m, increment 10s, ...")."""
    text = pgn_time_control(spec)
    if text not in (None, "?"):
        return str(text)
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in spec.items()) if isinstance(spec, dict) else ""


def _standings_system(view: TournamentView) -> str:
    """The event's point system in words where its standings points are not the classical ones
    (written in the TRF's VPS line), else ""."""
    if view.scoring() is not NORWAY or view.tournament is None:
        return ""
    return (f"{view.tournament.regulations.scoring}: VPT holds the standings points, classical win {NORWAY_WIN}, "
            f"draw and Armageddon won {NORWAY_ARMAGEDDON_WIN}, draw and Armageddon lost {NORWAY_ARMAGEDDON_LOSS}, "
            f"loss {NORWAY_LOSS}; columns 81-84 hold the classical points (BBW ...), 86-89 the final rank")
