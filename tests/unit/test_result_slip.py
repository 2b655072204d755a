"""Results entered by hand for any game of any round (services/arbiter_office/result_slip.py; docs/arbiter.md
"Results"): the game found by the slip's numbers, forfeits as slips write them, an Armageddon's own
result, a correction after the round (standings move; the next round's draft is named), an undo
keeping the history, and the termination in the PGN ``Termination`` tag.

Sources: the PGN standard 9.8.1 (Termination values: "normal", "adjudication", "rules infraction");
TRF16 (``+``/``-`` forfeits, FIDE C.04.2); FIDE Laws 8.7 (the result slip), 9.2 (a claim);
events/us-championship-2013.toml (24 players, a Swiss: 12 boards) and events/norway-chess-2023.toml
(Armageddon after a drawn classical game; its scoring: a classical win 3, an Armageddon win 1.5
after the draw's 1, an Armageddon loss 1: the file's ``[regulations]``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from trf_log import as_log

from services.events import ArmageddonScheduled
from services.arbiter_office.result_slip import SlipError, correction_notice, find_game, parse_result, result_entries
from services.arbiter_office.round_draft import draft_round, publish_entry, start_data
from services.arbiter_office.tournament_export import tournament_trf
from services.arbiter_office.tournament_log import tournament_registered_data
from services.arbiter_office.view_pgn import game_pgn
from services.regulations.clock_watches import ClockWatches  # none: results by slip, no clock events
from services.regulations.referee import due
from services.regulations.tournament_file import load_tournament
from services.views.spectator import game_json
from services.views.standings import TournamentView

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _fold(view: TournamentView, *events) -> None:
    for ev in events:
        view.apply(as_log([ev.encode() if hasattr(ev, "encode") else ev], view.seq + 1)[0])


def _started(preset: str) -> TournamentView:
    """Round 1 of ``preset`` drafted, published and started."""
    t = load_tournament((EVENTS / preset).read_text(), preset)
    view = TournamentView()
    _fold(view, ("tournament_registered", tournament_registered_data(t)))
    _fold(view, draft_round(view, 1))
    _fold(view, publish_entry(view, 1, 1))
    _fold(view, ("round_started", start_data(view, 1, start_ms=1_000)))
    return view


def _enter(view: TournamentView, rnd, board, text, part=None, **kw):
    g = find_game(view.state, rnd, board, part)
    result, forfeit = parse_result(text)
    _fold(view, *result_entries(g, result, forfeit=forfeit, by="chief", **kw))
    return g


def _tag(g, name: str) -> str:
    pgn = game_pgn(game_json(g))
    return next(line for line in pgn.splitlines() if line.startswith(f"[{name} "))


@pytest.mark.parametrize("text, expected", [
    ("1-0", ("1-0", False)), ("½-½", ("1/2-1/2", False)), ("=", ("1/2-1/2", False)), (" 0 - 1 ", ("0-1", False)),
    ("+/-", ("1-0", True)), ("-/+", ("0-1", True)), ("-/-", ("0-0", True)), ("1-0F", ("1-0", True)),
    ("0F-1F", ("0-1", True)), ("*", ("*", False)), ("1/2-0", ("1/2-0", False))])
def test_slip_results(text, expected):
    """Slips and pairing programs' forms: TRF16 ``+``/``-`` as ``+/-``, Swiss-Manager's ``1-0F``."""
    assert parse_result(text) == expected


def test_a_bad_result_is_refused_naming_the_forms():
    with pytest.raises(SlipError, match=r"'2-0' is not a result \(write 1-0"):
        parse_result("2-0")
    # docs/arbiter.md names the slip's spellings (1-0, ½-½, +/-, -/+, -/-, 1-0F, *): a colon is not
    # one of them (a new user's "1:0" was taken as 1-0 without a word)
    with pytest.raises(SlipError, match=r"'1:0' is not a result \(write 1-0, 0-1, 1/2-1/2, a forfeit \+/-"):
        parse_result("1:0")
    with pytest.raises(SlipError, match="a forfeit is written 1-0, 0-1 or 0-0"):
        parse_result("1/2-1/2", forfeit=True)


def test_a_slip_finds_its_game_and_says_what_the_round_holds():
    view = _started("us-championship-2013.toml")
    assert find_game(view.state, 1, 7).id == "1-7"
    with pytest.raises(SlipError, match=r"round 1 has no game on board 13 \(its boards: 1, 2, 3, .*, 12\)"):
        find_game(view.state, 1, 13)
    with pytest.raises(SlipError, match="no round 2 has started"):
        find_game(view.state, 2, 1)


def test_the_termination_says_how_and_pgn_tags_it():
    """A slip (Laws 8.7): PGN "normal"; the arbiter's decision: "adjudication"; a forfeit: "rules
    infraction" and TRF ``+``/``-``; the board's own result: its reason; a claim upheld: "normal"."""
    view = _started("us-championship-2013.toml")
    assert _tag(_enter(view, 1, 1, "1-0", how="slip"), "Termination") == '[Termination "normal"]'
    assert view.state.games["1-1"].termination == "result_slip"
    assert _tag(_enter(view, 1, 2, "0-1"), "Termination") == '[Termination "adjudication"]'
    g = _enter(view, 1, 3, "+/-")
    assert (g.termination, g.forfeit, _tag(g, "Termination")) == ("forfeit", True, '[Termination "rules infraction"]')
    # a forfeit written on the slip (the console's "How" left at "slip": a new user's +/- was refused)
    g = _enter(view, 1, 7, "-/+", how="slip")
    assert (g.termination, g.forfeit, g.result) == ("forfeit", True, "0-1")
    with pytest.raises(SlipError, match="a forfeit is the arbiter's or a forfeit, not 'claim'"):
        _enter(view, 1, 8, "+/-", how="claim")
    assert _enter(view, 1, 4, "1/2-1/2", how="board", reason="agreement").termination == "agreement"
    assert _enter(view, 1, 5, "1/2-1/2", how="claim").termination == "claim_upheld"
    line_of_3 = next(line for line in tournament_trf(view).splitlines() if line.startswith("001    3 "))
    assert line_of_3.rstrip().endswith("+")  # player 3 had White on board 3: a forfeit win
    with pytest.raises(SlipError, match="the board's reported result needs its reason"):
        _enter(view, 1, 6, "1-0", how="board", reason="nonsense")


def test_an_undo_goes_back_to_star_and_keeps_the_history():
    view = _started("us-championship-2013.toml")
    _enter(view, 1, 1, "1-0", how="slip")
    g = _enter(view, 1, 1, "*")
    assert (g.status, g.result, g.termination) == ("waiting", "*", None)
    assert view.state.errors == []
    with pytest.raises(SlipError, match="has no result to undo"):
        _enter(view, 1, 1, "*")
    assert result_entries(view.state.games["1-1"], "1-0", by="chief")[0].previous is None
    _enter(view, 1, 1, "0-1")
    again = result_entries(view.state.games["1-1"], "*", by="chief")[0]
    assert (again.previous, again.previous_termination) == ("0-1", "arbiter")


def test_a_correction_after_the_round_moves_the_standings_and_names_the_next_draft():
    """Every game of round 1 a draw, round 2 drafted; board 1 corrected to 1-0: 1 point for White's
    player, the draft named for pairing again; once round 2 starts, its pairing stands."""
    view = _started("us-championship-2013.toml")
    for board in range(1, 13):
        _enter(view, 1, board, "1/2-1/2", how="slip")
    _fold(view, draft_round(view, 2))
    white = view.state.games["1-1"].setup.white_no
    g = _enter(view, 1, 1, "1-0", how="arbiter", note="slip was wrong")
    points = {row.start_no: row.points for row in view.standings()}
    assert points[white] == 1.0
    assert correction_notice(view.state, g) == ("round 2 is drafted (version 1) from the old result: pair it again "
                                                "(pair_round) so its pairing reads the new one")
    _fold(view, draft_round(view, 2, version=1))
    _fold(view, publish_entry(view, 2, 2))
    _fold(view, ("round_started", start_data(view, 2, start_ms=2_000)))
    assert correction_notice(view.state, g).startswith("round 2 has started: its pairing stands")


def test_an_armageddon_has_its_own_result():
    """Norway Chess 2023: board 1's classical game drawn, then its Armageddon game (the gateway's
    ``armageddon_scheduled``): the slip names it ("armageddon"); Black wins it: the classical game's
    Black player (Black again in the Armageddon) gets 1 + 0.5, White 1 (the file's scoring)."""
    view = _started("norway-chess-2023.toml")
    classical = _enter(view, 1, 1, "1/2-1/2", how="slip")
    [scheduled] = [e for e in due(view.state, classical, 2_000, ClockWatches()) if isinstance(e, ArmageddonScheduled)]
    _fold(view, scheduled)  # "The player with White pieces will continue with White in Armageddon"
    arm = find_game(view.state, 1, 1, "armageddon")
    assert arm.id == "1-1-A" and find_game(view.state, 1, 1).id == "1-1"
    _enter(view, 1, 1, "0-1", part="armageddon", how="slip")
    points = {row.start_no: row.points for row in view.standings(provisional=True)}
    assert (points[classical.setup.white_no], points[classical.setup.black_no]) == (1.0, 1.5)
