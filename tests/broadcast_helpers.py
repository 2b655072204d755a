"""A small rapid round robin for the broadcast tests (delay, feeds, pushes, pages).

The players are the four of the DGT sample ../shared/data/chess/quirks/demoLiveGames.pgn (Paul
Keres Memorial 2011, Tallinn, rapid 900+10, round 7: names, ratings, FIDE IDs and titles as its
tags give them). The tournament file is ours (a four-player round robin: round 1 pairs 1-4 and
2-3, FIDE C.05 Annex 1); the moves played are real games' (FIDE Candidates 2024, round 5, from
../shared/data/chess/fide_candidates_2024_open.pgn), through ``replay_entries``.
"""

from __future__ import annotations

import io

import chess.pgn

from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament

T0 = 1_717_000_000_000  # an instant in ms; every entry of a test is placed relative to it


def keres_players(shared_data) -> list[dict]:
    """``[{"name", "rating", "fide_id", "title"}, ...]`` of the sample's four games, board order."""
    text = (shared_data / "chess" / "quirks" / "demoLiveGames.pgn").read_text()
    stream, out = io.StringIO(text), []
    while (g := chess.pgn.read_headers(stream)) is not None:
        for side in ("White", "Black"):
            p = {"name": g[side], "rating": int(g[f"{side}Elo"]), "fide_id": g[f"{side}FideId"],
                 "title": g.get(f"{side}Title")}
            if p not in out:
                out.append(p)
    return out[:4]


def tournament_text(players: list[dict], delay_s: int | None = None, teams: dict | None = None,
                    start: str = "2024-05-29T18:00:00+00:00", starts: list[str] | None = None,
                    feds: dict | None = None) -> str:
    """A four-player rapid round robin (900+10, the sample's TimeControl) as a tournament file;
    ``delay_s``: its ``[broadcast] delay``; ``teams``/``feds``: start number -> team / federation
    (the test's own values: the sample has none); ``starts``: the three rounds' starts (ISO 8601),
    else a day apart from ``start``."""
    lines = ['[tournament]', 'name = "Keres Rapid"', 'slug = "keres-rapid"', 'system = "round-robin"',
             'kind = "rapid"', 'rounds = 3', 'site = "Tallinn EST"', '', '[time_controls]', 'rapid = "900+10"']
    for i, p in enumerate(players, start=1):
        lines += ['', '[[players]]', f'start_no = {i}', f'name = "{p["name"]}"', f'rating = {p["rating"]}',
                  f'fide_id = "{p["fide_id"]}"'] + ([f'title = "{p["title"]}"'] if p["title"] else [])
        if teams and i in teams:
            lines.append(f'team = "{teams[i]}"')
        if feds and i in feds:
            lines.append(f'federation = "{feds[i]}"')
    for n in (1, 2, 3):
        when = starts[n - 1] if starts else f"{start[:8]}{int(start[8:10]) + n - 1:02d}{start[10:]}"
        lines += ['', '[[rounds]]', f'number = {n}', f'start = "{when}"']
    if delay_s is not None:
        lines += ['', '[broadcast]', f'delay = {delay_s}']
    return "\n".join(lines) + "\n"


def registration_entries(text: str, at: int, start_ms: int | None = None) -> list[tuple[str, dict, int]]:
    """``tournament_registered`` and round 1's ``round_started`` for the file ``text``, at ``at``."""
    t = load_tournament(text)
    return [("tournament_registered", tournament_registered_data(t), at),
            ("round_started", round_from_tournament(t, 1, start_ms=start_ms or at), at)]


def candidates_round5(shared_data) -> list[chess.pgn.Game]:
    """Round 5 of the FIDE Candidates 2024 (the moves the tests' boards play)."""
    f = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    out = []
    while (g := chess.pgn.read_game(f)) is not None:
        if g.headers["Round"].split(".")[0] == "5":
            out.append(g)
    return out
