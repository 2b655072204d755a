"""Log entries for a recorded checkers game (a ``services.rules.checkers_pdn`` record) played as
game 1 of a Master division match of the 11-Man National 2017 on board 1 (games ``1-1.1`` and
``1-1.2``, colours reversed in game 2: X.A.b), under the preset's control ``{ white = "90m", black =
"90m", match_clock = true, alternative = "4800+10" }`` (X.A.a: 90 minutes, or 80 minutes + 10 s).
Pure: ``items(record)`` -> ``[(type, data, at), ...]`` for ``EventLog.append_many``.
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
