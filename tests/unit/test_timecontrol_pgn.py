"""PGN TimeControl notation (PGN standard 9.6.1) read and written by TimeControl."""

from __future__ import annotations

import pytest

from services.clock import (
    NotExpressibleInPgn,
    Period,
    TimeControl,
    TimeControlSyntaxError,
)
from regulation_controls import armageddon_by_bid, control

S = 1000


@pytest.mark.parametrize("text, white", [
    ("40/5400+30:1800+30", (Period(40, 5400 * S, 30 * S), Period(None, 1800 * S, 30 * S))),
    ("5400+30", (Period(None, 5400 * S, 30 * S),)),
    ("300+2", (Period(None, 300 * S, 2 * S),)),
    ("40/9000", (Period(40, 9000 * S),)),  # PGN standard 9.6.1's example "40/9000"
    ("300", (Period(None, 300 * S),)),  # "300": a five minute sudden death period
    ("4500+60", (Period(None, 4500 * S, 60 * S),)),  # the standard's incremental example
    ("40/7200:20/3600:900", (Period(40, 7200 * S), Period(20, 3600 * S), Period(None, 900 * S))),
    ("60+0", (Period(None, 60 * S),)),  # lichess 2017-05 writes "+0"
])
def test_parse(text, white):
    tc = TimeControl.parse_pgn(text)
    assert tc.kind == "periods" and tc.white == white and tc.black == white


@pytest.mark.parametrize("text", ["40/5400+30:1800+30", "5400+30", "300+2", "40/9000", "300",
                                  "?", "-", "*60", "40/7200:20/3600:900"])
def test_round_trip(text):
    assert TimeControl.parse_pgn(text).to_pgn() == text


def test_special_kinds():
    """"?" unknown, "-" no time control, "*180" sandclock (PGN standard 9.6.1)."""
    assert TimeControl.parse_pgn("?").kind == "unknown"
    assert TimeControl.parse_pgn("-").kind == "untimed"
    sand = TimeControl.parse_pgn("*60")
    assert sand.kind == "sandclock" and sand.starting_ms("white") == 30 * S
    assert not TimeControl.parse_pgn("?").timed


def test_plus_zero_is_written_without_the_increment():
    assert TimeControl.parse_pgn("60+0").to_pgn() == "60"


@pytest.mark.parametrize("text", [
    "15 min/game + 10 sec/move",  # the DGT LiveChess sample's tag (quirks/), not PGN notation
    "", "40/", "0/300", "300:40/1800", "90+30s", "*0", "*", "300+", "+2", "40/5400+30:",
    "5400.5", "G/10+2",
])
def test_syntax_errors(text):
    with pytest.raises(TimeControlSyntaxError):
        TimeControl.parse_pgn(text)


def test_real_tags_in_the_shared_files(shared_data):
    """Every TimeControl tag in ../shared/data/chess: lichess' tags parse and write back the same
    (bar "+0"); the DGT LiveChess sample's "15 min/game + 10 sec/move" is refused."""
    import re

    seen = set()
    for path in sorted((shared_data / "chess").rglob("*.pgn")):
        seen |= set(re.findall(r'\[TimeControl "([^"]*)"\]', path.read_text()))
    assert seen == {"-", "15 min/game + 10 sec/move", "180+0", "180+2", "300+0", "60+0",
                    "600+0", "900+10", "900+20"}
    for text in seen - {"15 min/game + 10 sec/move"}:
        assert TimeControl.parse_pgn(text).to_pgn() == text.removesuffix("+0")
    with pytest.raises(TimeControlSyntaxError):
        TimeControl.parse_pgn("15 min/game + 10 sec/move")


@pytest.mark.parametrize("name, reason", [
    ("norway-2023/classical", "from move 41"),  # increment from move 41
    ("us-2023/armageddon", "different"),  # White 5 min, Black 4 min
    ("norway-2023/armageddon", "different"),
    ("checkers-2017/master-90", "match clock"),
])
def test_not_expressible(name, reason):
    with pytest.raises(NotExpressibleInPgn, match=reason):
        control(name).to_pgn()


def test_not_expressible_delay_fraction_and_bid():
    with pytest.raises(NotExpressibleInPgn, match="delay"):
        TimeControl.symmetric(Period(None, 60 * S, delay_ms=5 * S, delay_kind="simple")).to_pgn()
    with pytest.raises(NotExpressibleInPgn, match="whole number"):
        TimeControl.symmetric(Period(None, 60500)).to_pgn()
    with pytest.raises(NotExpressibleInPgn):
        armageddon_by_bid(20 * 60 * S, "black").to_pgn()


def test_expressible_catalogue_entries():
    """US 2013/2023 classical is "40/5400+30:1800+30" (the brief's example)."""
    assert control("us-2023/classical").to_pgn() == "40/5400+30:1800+30"
    assert control("us-2013/rapid-playoff").to_pgn() == "1500+5"
    assert control("norway-2023/blitz").to_pgn() == "180+2"
