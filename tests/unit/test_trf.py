"""TRF16 reader/writer (services/tournament/trf.py) against the real files in ../shared/data.

Sources: FIDE TRF16 (C.04 Annex 2) column layout; files listed in ../shared/data/SOURCES.md (trf/) and
the fixtures of ../shared/data/tiebreaks and ../shared/data/pairing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.tournament.trf import (
    TrfGame,
    TrfPlayer,
    dump_trf,
    format_player_line,
    parse_player_line,
    parse_trf,
)

# Same rule as tests/conftest.py (parametrisation needs the path at collection time).
SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"

TRF_FILES = sorted(
    list((SHARED_DATA / "trf").glob("*.trf"))
    + list((SHARED_DATA / "tiebreaks").glob("*/*.trf"))
    + list((SHARED_DATA / "pairing").glob("**/*.trf"))
)


def _norm(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


def test_files_found(shared_data: Path) -> None:
    assert len(list((shared_data / "trf").glob("*.trf"))) == 5


@pytest.mark.parametrize("path", TRF_FILES, ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    text = path.read_text()
    assert _norm(dump_trf(parse_trf(text))) == _norm(text)


@pytest.mark.parametrize("path", TRF_FILES, ids=lambda p: p.name)
def test_canonical_layout_reparses_to_same_fields(path: Path) -> None:
    t = parse_trf(path.read_text())
    for p in t.players.values():
        assert parse_player_line(format_player_line(p)) == p


@pytest.mark.parametrize("path", TRF_FILES, ids=lambda p: p.name)
def test_pairings_are_symmetric(path: Path) -> None:
    # SOURCES.md: "every pairing entry is matched by the opponent's entry for the same round".
    t = parse_trf(path.read_text())
    for p in t.players.values():
        for g in p.games:
            if g.opponent is not None:
                back = t.players[g.opponent].game(g.round)
                assert back is not None and back.opponent == p.start_no


def test_example1_fields(shared_data: Path) -> None:
    # FIDE's example1.txt, first player line and the "spielfrei" entry count (SOURCES.md: 284 / 7).
    t = parse_trf((shared_data / "trf" / "example1.trf").read_text())
    assert len(t.players) == 284
    assert t.name == "9. Karl-Mala-Gedenkturnier"
    assert t.header_value("122") == "40/120, 60"
    p = t.players[1]
    assert (p.title, p.name, p.rating, p.federation, p.fide_id, p.birth, p.points, p.rank) == (
        "g", "Vasquez,Rodrigo", 2558, "CHI", "3400042", "1969.12.06", 6.0, 4,
    )
    assert p.games[0] == TrfGame(1, 141, "w", "1")
    assert p.games[5] == TrfGame(6, 25, "b", "=")
    assert len(p.games) == 7
    # 10 forfeit pairs (SOURCES.md)
    forfeits = sum(1 for q in t.players.values() for g in q.games if g.result == "+" and g.opponent)
    assert forfeits == 10
    assert t.players[13].games[0] == TrfGame(1, 153, None, "-")


def test_byes_and_xxr(shared_data: Path) -> None:
    # xx_open_internacional_de_gros: XXR 9, "0000 - H" half-point byes.
    t = parse_trf((shared_data / "trf" / "xx_open_internacional_de_gros_2010_after_r5.trf").read_text())
    assert t.total_rounds == 9
    assert t.players[14].games[2] == TrfGame(3, None, None, "H")
    assert t.players[1].sex == "m" and t.players[1].title == "g"
    # lichess: blank opponent for byes, withdrawn rounds "-"
    t = parse_trf((shared_data / "trf" / "lichess_swiss_FaLp5fSD_2020-05-29.trf").read_text())
    assert t.total_rounds == 10
    assert t.players[5].games[0] == TrfGame(1, None, None, "H")
    assert t.players[5].games[1] == TrfGame(2, None, None, "-")
    assert t.players[1].rating is None and t.players[1].rank is None


def test_changed_player_written_canonically() -> None:
    text = "012 T\nXXR 1\n001    1      A                                 2000 NOR     1000001 1990/01/01  1.0    1     2 w 1\n" \
           "001    2      B                                 1900 NOR     1000002 1990/01/01  0.0    2     1 b 0\n"
    t = parse_trf(text)
    t.players[2].name = "Bee"
    t.total_rounds = 2
    t.players[3] = TrfPlayer(3, name="C", games=[TrfGame(1, None, None, "U")])
    out = dump_trf(t)
    assert "XXR 2" in out
    assert "001    2      Bee  " in out
    assert out.splitlines()[-1] == "001    3      C" + " " * 76 + "0000 - U"  # opponent at columns 92-95
    assert parse_trf(out).players[3].games == [TrfGame(1, None, None, "U")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("001         A", "line 3: start number (columns 5-8): missing"),
        ("001    1      A                                 20x0", "line 3: rating (columns 49-52)"),
        ("001    1      A                                 2000                             1.0    1     2 x 1",
         "line 3: round 1 colour (column 97)"),
        ("001    1      A                                 2000                             1.0    1     2 w 7",
         "line 3: round 1 result (column 99)"),
        ("001    1      A                                 2000                             1.0    1    zz w 1",
         "line 3: round 1 opponent (columns 92-95)"),
        ("001    1      A                                 2000                             1.0    1     9 w 1",
         "line 3: round 1 opponent: start number 9 is not in the file"),
        ("001    1      A                                 2000                             1.0    1     2 w",
         "line 3: round 1 (columns 92-99): block cut short"),
        ("001    1      A                                 2000                             1.0    1     2w  1",
         "line 3: round 1 (columns 92-99): misaligned"),
        ("001    1      A                                 2000                             1.0    1     1 w 1",
         "paired with itself"),
    ],
)
def test_broken_lines_name_line_and_field(line: str, message: str) -> None:
    text = "012 T\nXXR 1\n" + line + "\n001    2      B\n"
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_trf(text)


def test_trf2026_number_of_rounds_record() -> None:
    # TRF-2026 record 142 "Number of rounds"; XXR wins when both are present.
    assert parse_trf("012 T\n142 9\n").total_rounds == 9
    assert parse_trf("012 T\n142 9\nXXR 7\n").total_rounds == 7
    assert dump_trf(parse_trf("012 T\n142 9\n")) == "012 T\n142 9\n"
    with pytest.raises(ValueError, match="line 2: 142"):
        parse_trf("012 T\n142 x\n")


def test_duplicate_start_number_and_bad_xxr() -> None:
    with pytest.raises(ValueError, match="line 2: start number .*duplicate 1"):
        parse_trf("001    1      A\n001    1      B\n")
    with pytest.raises(ValueError, match="line 1: XXR"):
        parse_trf("XXR nine\n")
