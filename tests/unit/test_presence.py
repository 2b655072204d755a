"""Presence only from evidence of the player (issue 29, kind 6): starting White's clock used to
record "black is at the board" (``presence_noted``), so an absent Black was never defaulted in a hall
where the clocks are started at the round's start.

FIDE Laws 6.6: "At the time determined for the start of the game White's clock is started" (by
whoever is there: the arbiter starts it when nobody is); 6.7.1: "Any player who arrives at the
chessboard after the default time shall lose the game unless the arbiter decides otherwise". A player
is at the board once a move, a press by that side or the arbiter's check-in shows it. US 2023 rule 1:
"Players more than 30 (thirty) minutes late for a round shall forfeit that round" (the preset's
30-minute default time), counted from the round's start (T0)."""

from __future__ import annotations

from timer_pair import MIN, T0, Pair, tournament, walk

US_2023 = "us-championship-2023.toml"


def clock(pair: Pair, board: str, event: str, white_ms: int, black_ms: int, running) -> None:
    pair.handle(*pair.send(board, "clock", {"event": event, "white_ms": white_ms, "black_ms": black_ms,
                                            "running": running}))


def defaults(pair: Pair) -> dict[str, tuple[str, str]]:
    return {d["game"]: (d["side"], d["result"]) for t, d, _ in pair.log if t == "default_forfeit"}


def test_a_clock_started_at_the_start_shows_nobody_at_the_board():
    """Board 1: the arbiter starts White's clock at the start and nobody comes: both lose (0-0),
    as on board 3 where no clock was started; nothing records Black as present. Board 2: White
    plays 1.e4 and presses at 14:05 (the round's start + 5 min), Black never comes: Black loses
    (1-0) once the default time has run out, not a ms before."""
    pair = Pair(tournament(US_2023))
    pair.now = T0
    for board in ("1", "2"):
        clock(pair, board, "start", 90 * MIN, 90 * MIN, "white")
    pair.now = T0 + 5 * MIN
    pair.handle(*pair.send("2", "move", {"move": "e2e4"}))
    clock(pair, "2", "press", 85 * MIN + 30_000, 90 * MIN, "black")
    assert not [t for t, _, _ in pair.log if t == "presence_noted"]
    g1, g2 = pair.hall.state.games["1-1"], pair.hall.state.games["1-2"]
    assert g1.arrived == {"white": None, "black": None}
    assert g2.arrived == {"white": T0 + 5 * MIN, "black": None}
    said = walk(pair, T0 + 30 * MIN)  # a ms before the end of the default time, at it, a ms after
    assert "default_forfeit" not in " ".join(said[:2])  # (US 2023 rule 1's fines at the start come then)
    assert said[2].split() == ["default_forfeit", "game_ended"] * 3
    assert defaults(pair) == {"1-1": ("both", "0-0"), "1-2": ("black", "1-0"), "1-3": ("both", "0-0")}


def test_a_check_in_or_a_press_by_that_side_is_evidence():
    """The arbiter checks Black in on board 1 (``player_arrived``); on board 2 Black's own press
    (the clock then runs for White: 6.2.1) shows Black at the board. Each is then not defaulted."""
    pair = Pair(tournament(US_2023))
    pair.now = T0
    for board in ("1", "2"):
        clock(pair, board, "start", 90 * MIN, 90 * MIN, "white")
    pair.external("player_arrived", {"game": "1-1", "board": "1", "side": "black", "by": "chief"})
    pair.handle(*pair.send("2", "move", {"move": "e2e4"}))
    clock(pair, "2", "press", 90 * MIN, 90 * MIN, "black")
    pair.handle(*pair.send("2", "move", {"move": "e7e5"}))
    clock(pair, "2", "press", 90 * MIN, 90 * MIN, "white")
    walk(pair, T0 + 30 * MIN)
    assert defaults(pair) == {"1-1": ("white", "0-1"), "1-3": ("both", "0-0")}
