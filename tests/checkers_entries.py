"""Log entries for a recorded checkers game (a ``services.rules.checkers_pdn`` record) played as
game 1 of a Master division match of the 11-Man National 2017 on board 1 (games ``1-1.1`` and
``1-1.2``, colours reversed in game 2: X.A.b), under the preset's control ``{ white = "90m", black =
"90m", match_clock = true, alternative = "4800+10" }`` (X.A.a: 90 minutes, or 80 minutes + 10 s).
Pure: ``items(record)`` -> ``[(type, data, at), ...]`` for ``EventLog.append_many``.

``entries(record)``: the same record as a finished game 1 of a match without clock entries (the
German Open 2004 game of the checkers pages' browser tests, test_checkers_pages and
test_broadcast_pages): ``round_started``, every ``move_played``, then ``game_ended`` 1/2-1/2 by
agreement, the result that game records.
"""

from __future__ import annotations

from services.rules.checkers_pdn import replay

PRESET = {"white": "90m", "black": "90m", "match_clock": True, "alternative": "4800+10"}


def items(record) -> list[tuple[str, dict, int]]:
    """``round_started`` with the match's two SETUPs (the record's Black and White in game 1), then a
    ``move_played`` for each of the record's plies in game 1, a second apart."""
    game = replay(record)
    match = {"id": "1-1", "games": 2}
    setups = [{"id": f"1-1.{n}", "board": "1", "round": "1", "variant": "checkers", "fen": None,
               "white": record.tags["White"] if n == 1 else record.tags["Black"],
               "black": record.tags["Black"] if n == 1 else record.tags["White"],
               "time_control": dict(PRESET), "match": {**match, "game_no": n}} for n in (1, 2)]
    out = [("round_started", {"round": "1", "event": "11-Man National", "site": "Tulsa",
                              "date": "2017.07.10", "games": setups}, 1000)]
    for p in game.played:
        turn = "white" if p.ply % 2 == 1 else "black"
        out.append(("move_played", {"game": "1-1.1", "board": "1", "ply": p.ply, "move": p.move,
                                    "san": p.san, "fen": p.fen, "turn": turn, "claimable": []},
                    1000 + p.ply * 1000))
    return out


def entries(record) -> list[tuple[str, dict, int]]:
    game = replay(record)
    setup = {"id": "1-1.1", "board": "1", "round": "1", "variant": "checkers", "fen": None,
             "white": record.tags["White"], "black": record.tags["Black"], "time_control": "5400",
             "match": {"id": "1-1", "game_no": 1, "games": 2}}
    out = [("round_started", {"round": "1", "event": "Checkers test", "site": "Reutlingen",
                              "date": "2004.05.01", "games": [setup]}, 1000)]
    for p in game.played:
        out.append(("move_played", {"game": "1-1.1", "board": "1", "ply": p.ply, "move": p.move,
                                    "san": p.san, "fen": p.fen, "claimable": [],
                                    "turn": "white" if p.ply % 2 == 1 else "black"}, 1000 + p.ply))
    out.append(("game_ended", {"game": "1-1.1", "board": "1", "result": "1/2-1/2",
                               "termination": "agreement", "ply": game.ply}, 99_000))
    return out
