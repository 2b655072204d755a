"""The preset events/us-championship-2023.toml as the start-up tests load it (test_start_up,
test_start_up_pgn, tests/integration/test_gateway_pgn_round_live.py): the file, edited or not
(``preset``); its round 1 as the Berger tables pair its 12 players (FIDE C.05 Annex 1, round 1:
1-12, 2-11, 3-10, 4-9, 5-8, 6-7), written as an outside pairing program's PGN (``pairings_pgn``); a
change of its default time (``LATER``); and the entry types a log holds (``types``).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from start_up_preset import preset``.
"""

from __future__ import annotations

from pathlib import Path

from services.regulations.tournament_file import load_tournament


EVENTS = Path(__file__).resolve().parents[1] / "events"
PRESET = EVENTS / "us-championship-2023.toml"


def preset(edit=lambda text: text, path=PRESET):
    """The tournament file at ``path`` (the preset), its text first passed through ``edit``."""
    return load_tournament(edit(path.read_text()), str(path))


async def types(log) -> list[str]:
    """The types of the entries ``log`` holds, in order."""
    return [e.type for e in await log.read()]


ROUND_1 = [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)]  # FIDE C.05 Annex 1, round 1
LATER = ('[regulations.default_time]\nclassical = "30m"', '[regulations.default_time]\nclassical = "15m"')


def pairings_pgn(tmp_path: Path) -> str:
    """Round 1 of the preset as a PGN of six games without moves (``ROUND_1``'s pairs, players named
    as the file names them), written in ``tmp_path``; its path."""
    names = {p.start_no: p.name for p in preset().players}
    games = [f'[Event "2023 U.S. Championship"]\n[Round "1"]\n[Board "{board}"]\n'
             f'[White "{names[white]}"]\n[Black "{names[black]}"]\n[Result "*"]\n\n*\n'
             for board, (white, black) in enumerate(ROUND_1, start=1)]
    path = tmp_path / "round1.pgn"
    path.write_text("\n".join(games))
    return str(path)
