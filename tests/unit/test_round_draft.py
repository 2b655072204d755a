"""The next round's life cycle as log entries (docs/pairing.md "The round's life cycle"):
services/arbiter_office/round_draft.py builds ``pairing_drafted`` / ``pairing_swapped`` / ``pairing_published``
/ ``round_started``, services/state/fold_draft.py folds them.

Expected values: bbpPairings' pairings of the shared Dutch fixtures (../shared/data/pairing/dutch,
NAME.pairs); the fixtures' own histories (who met whom, who had which colour: the TRF lines); FIDE
C.04.1 b, d, f, g for the rules an exchange breaks; the Berger tables (C.05 Annex 1) for a round
robin; events/norway-chess-2023.toml (10 players) and events/us-championship-2013.toml (24 players).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from trf_log import as_log, folded, read_pairs, trf_entries

from services.events import PairingPublished, PairingSwapped, RoundStarted
from services.arbiter_office.round_draft import DraftError, draft_round, publish_entry, start_data, swap_entry
from services.arbiter_office.round_from_file import round_from_view
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.tournament.pairing.actions import rounds_paired
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _fixture(shared_data: Path, number: str) -> Path:
    [path] = (shared_data / "pairing" / "dutch").glob(f"dutch-{number}-*.trf")
    return path


def _append(view: TournamentView, *events) -> None:
    """Fold typed entries as the log would (seqs after the view's)."""
    for ev in events:
        view.apply(as_log([ev.encode()], view.seq + 1)[0])


def _swiss(shared_data: Path, number: str) -> tuple[TournamentView, int]:
    t = parse_trf(_fixture(shared_data, number).read_text())
    return folded(trf_entries(t)), rounds_paired(t) + 1


def _pairs(draft) -> set[tuple[int, int | None]]:
    return {(b.white_no, b.black_no) for b in draft.boards} | {(y.start_no, None) for y in draft.byes if y.code == "U"}


def test_every_shared_fixture_drafts_as_bbppairings(shared_data: Path) -> None:
    """The 40 shared fixtures as logs: each round's draft is bbpPairings' NAME.pairs (pairs and
    colours), every board carries the colour rule that decided it (C.04.3 E.1-E.5), and a draft with
    a PAB gives its reasons (C.2 eligible, C.5/C.4, C.9)."""
    paths = sorted((shared_data / "pairing" / "dutch").glob("*.trf"))
    assert len(paths) == 40
    for path in paths:
        t = parse_trf(path.read_text())
        draft = draft_round(folded(trf_entries(t)), rounds_paired(t) + 1)
        assert _pairs(draft) == read_pairs(path.with_suffix(".pairs").read_text()), path.stem
        assert all(b.colour_rule in ("E.1", "E.2", "E.3", "E.4", "E.5") for b in draft.boards), path.stem
        for bye in (y for y in draft.byes if y.code == "U"):
            assert "(C.2)" in bye.reasons[0] and "(C.9)" in bye.reasons[-1], path.stem


def test_the_draft_is_folded_and_nobody_plays_it_yet(shared_data: Path) -> None:
    """dutch-001003 (13 players, round 8 of 10): the draft is version 1 with bbpPairings' boards
    and the PAB; no round is set up by it (the hall plays the rounds started only)."""
    view, rnd = _swiss(shared_data, "001003")
    rounds_before = dict(view.state.rounds)
    _append(view, draft_round(view, rnd, by="chief"))
    d = view.state.tournament.drafts[rnd]
    assert (d.version, d.published, d.started, d.drafted_by) == (1, None, False, "chief")
    assert _pairs(d) == read_pairs(_fixture(shared_data, "001003").with_suffix(".pairs").read_text())
    assert view.state.rounds == rounds_before


def test_an_exchange_moves_two_players_and_a_stale_publish_is_refused(shared_data: Path) -> None:
    """Two arbiters on one draft (dutch-001005, round 4): the first exchanges two players (version 2),
    the second publishes the version 1 he saw: refused by the fold (kept in ``refused``), in every
    process alike; the builder refuses it at once with 409; publishing version 2 works."""
    view, rnd = _swiss(shared_data, "001005")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    first, second = d.boards[0], d.boards[1]
    swap = swap_entry(view, rnd, 1, players=[first.white_no, second.white_no], reason="players' request", by="a1",
                      override=True)
    stale = PairingPublished(round=rnd, version=1, by="a2")
    _append(view, swap, stale)
    assert d.version == 2 and d.published is None
    assert d.refused == [{"type": "pairing_published", "version": 1, "draft_version": 2, "by": "a2",
                          "at": view.seq}]
    assert (d.boards[0].white_no, d.boards[1].white_no) == (second.white_no, first.white_no)
    assert d.boards[0].colour_rule == "by hand" and d.boards[0].reasons[0] == "exchanged by hand by a1: players' request"
    with pytest.raises(DraftError) as refused:
        publish_entry(view, rnd, 1, by="a2")
    assert refused.value.status == 409 and "version 2" in str(refused.value)
    _append(view, publish_entry(view, rnd, 2, by="a2"))
    assert d.is_published and d.published_by == "a2"


def test_two_exchanges_on_the_same_version_keep_the_first(shared_data: Path) -> None:
    """Both arbiters exchange on version 1: the log's order decides; the second is refused by the fold."""
    view, rnd = _swiss(shared_data, "001005")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    a = PairingSwapped(round=rnd, version=1, kind="exchange", players=[d.boards[0].white_no, d.boards[1].white_no],
                       reason="first", by="a1")
    b = PairingSwapped(round=rnd, version=1, kind="exchange", players=[d.boards[2].white_no, d.boards[3].white_no],
                       reason="second", by="a2")
    before = list(d.boards)
    _append(view, a, b)
    assert d.version == 2 and [c["reason"] for c in d.changes] == ["first"]
    assert d.boards[2:] == before[2:] and d.refused[0]["by"] == "a2"


def test_an_exchange_that_pairs_players_again_is_refused_with_c041b(shared_data: Path) -> None:
    """dutch-001005: 1 and 15 met in round 1 (the fixture's line of 1: ``15 b 1``); a board set by
    hand to 15 - 1 breaks C.04.1 b; with override it is recorded with the rule."""
    view, rnd = _swiss(shared_data, "001005")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    board = next(b for b in d.boards if 1 in (b.white_no, b.black_no))
    with pytest.raises(DraftError) as refused:
        swap_entry(view, rnd, 1, board=board.board, white_no=15, black_no=1, reason="test")
    text = str(refused.value)
    assert "Test0015 Player0015 (15) and Test0001 Player0001 (1) have played each other already (round 1)" in text
    assert "FIDE C.04.1 b: two players shall not play against each other more than once" in text
    ev = swap_entry(view, rnd, 1, board=board.board, white_no=15, black_no=1, reason="test", override=True)
    _append(view, ev)
    changed = next(b for b in d.boards if b.board == board.board)
    assert (changed.white_no, changed.black_no) == (15, 1)
    assert any("C.04.1 b" in w for w in changed.reasons)
    assert {1, 15, board.white_no, board.black_no} <= {n for b in d.boards for n in (b.white_no, b.black_no)}


def test_a_third_white_in_a_row_is_refused_with_c041g(shared_data: Path) -> None:
    """dutch-001005: 18 had White in rounds 2 and 3 (his line: ``23 w 1  11 w 0``), so his
    preference is absolute (C.04.3 A.6.a): a board giving him White again breaks C.04.1 g."""
    view, rnd = _swiss(shared_data, "001005")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    board = next(b for b in d.boards if 18 in (b.white_no, b.black_no))
    assert board.black_no == 18  # the engine gave him Black (C.04.3 E)
    with pytest.raises(DraftError) as refused:
        swap_entry(view, rnd, 1, players=[board.white_no, 18], reason="colours reversed")
    assert ("Test0018 Player0018 (18) had White in his last two games played: FIDE C.04.1 g: no player shall "
            "receive the same colour three times in a row") in str(refused.value)


def test_a_forbidden_pair_is_refused(shared_data: Path) -> None:
    view, rnd = _swiss(shared_data, "001005")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    a, b = d.boards[0].white_no, d.boards[1].black_no
    view.apply(as_log([("pairing_forbidden", {"players": [a, b]})], view.seq + 1)[0])
    with pytest.raises(DraftError, match=r"are a forbidden pair \(the organiser's; TRF XXP"):
        swap_entry(view, rnd, None, board=d.boards[0].board, white_no=a, black_no=b, reason="x")


def test_a_second_pab_is_refused_with_c041d(shared_data: Path) -> None:
    """dutch-001003 round 8: the PAB given by hand to a player who had one already (his TRF line has
    ``0000 - U``) breaks C.04.1 d."""
    path = _fixture(shared_data, "001003")
    t = parse_trf(path.read_text())
    had = sorted(s for s, p in t.players.items() if any(g.result == "U" for g in p.games))
    view, rnd = _swiss(shared_data, "001003")
    _append(view, draft_round(view, rnd))
    d = view.state.tournament.drafts[rnd]
    pab = next(y.start_no for y in d.byes if y.code == "U")
    other = next(s for s in had if s != pab and d.place_of(s) and d.place_of(s)[0] == "board")
    with pytest.raises(DraftError, match=r"C\.04\.1 d: he shall not receive the pairing-allocated bye"):
        swap_entry(view, rnd, 1, players=[pab, other], reason="x")


def test_absent_players_are_listed_with_their_reasons(shared_data: Path) -> None:
    """A withdrawal and a requested half-point bye (C.04.2) are byes of the draft with their codes."""
    t = parse_trf(_fixture(shared_data, "001005").read_text())
    rnd = rounds_paired(t) + 1
    view = folded(trf_entries(t) + [("player_withdrew", {"start_no": 3, "from_round": rnd}),
                                    ("bye_requested", {"start_no": 7, "round": rnd, "code": "H"})])
    draft = draft_round(view, rnd)
    absent = {y.start_no: (y.code, y.reasons[0]) for y in draft.byes if y.code != "U"}
    assert absent == {3: ("Z", f"withdrew from round {rnd}: not paired (Z)"),
                      7: ("H", "asked for a half-point bye this round (FIDE C.04.2)")}
    with pytest.raises(DraftError, match="is not paired this round"):
        _append(view, draft)
        swap_entry(view, rnd, 1, players=[3, draft.boards[0].white_no], reason="x")


def _registered(name: str) -> TournamentView:
    t = load_tournament((EVENTS / name).read_text(), name)
    view = TournamentView()
    view.apply(as_log([("tournament_registered", tournament_registered_data(t))])[0])
    return view


def test_start_is_the_published_draft_and_marks_it_started() -> None:
    """us-championship-2013 round 1 (24 players): the draft's boards are the round the file pairs
    (what ``venue serve --round 1`` logs); start needs it published; the started round is the draft,
    and the draft is then fixed."""
    view = _registered("us-championship-2013.toml")
    expected = round_from_view(view, 1, start_ms=1_000)
    with pytest.raises(DraftError, match="round 1 has no draft"):
        start_data(view, 1, start_ms=1_000)
    _append(view, draft_round(view, 1))
    with pytest.raises(DraftError, match="it was never published"):
        start_data(view, 1, start_ms=1_000)
    _append(view, publish_entry(view, 1, 1))
    data = start_data(view, 1, start_ms=1_000, version=1)
    assert data["games"] == expected["games"] and data["byes"] == expected["byes"]
    assert data["draft_version"] == 1 and data["start_ms"] == 1_000
    view.apply(as_log([(RoundStarted.TYPE, data)], view.seq + 1)[0])
    d = view.state.tournament.drafts[1]
    assert d.started and view.state.current == "1"
    with pytest.raises(DraftError, match="has started"):
        swap_entry(view, 1, None, players=[1, 2], reason="x")
    late = PairingPublished(round=1, version=1)
    _append(view, late)  # a round started: the fold changes nothing and counts it
    assert view.state.errors[-1][1] == "pairing_published"


def test_a_change_after_publishing_needs_publishing_again() -> None:
    view = _registered("us-championship-2013.toml")
    _append(view, draft_round(view, 1))
    _append(view, publish_entry(view, 1, 1))
    _append(view, swap_entry(view, 1, 1, players=[1, 2], reason="the organiser's wish", override=True))
    with pytest.raises(DraftError, match=r"it changed after version 1 was published \(now version 2\)"):
        start_data(view, 1, start_ms=1_000)


def test_a_round_robin_is_drafted_from_the_berger_tables_and_not_started_over_an_open_game() -> None:
    """norway-chess-2023 (10 players, C.05 Annex 1): round 2 may be drafted while round 1 is played
    (the tables do not read results), but not started while a game of round 1 has no result: the
    refusal names it."""
    view = _registered("norway-chess-2023.toml")
    _append(view, draft_round(view, 1))
    _append(view, publish_entry(view, 1, 1))
    view.apply(as_log([(RoundStarted.TYPE, start_data(view, 1, start_ms=1_000))], view.seq + 1)[0])
    draft = draft_round(view, 2)
    assert all(b.colour_rule == "C.05 Annex 1" and b.reasons[0].startswith("Berger table, round 2")
               for b in draft.boards)
    _append(view, draft)
    _append(view, publish_entry(view, 2, 1))
    game = view.state.games["1-1"]
    with pytest.raises(DraftError) as refused:
        start_data(view, 2, start_ms=2_000)
    assert f"round 1 board 1: {game.white} - {game.black} (1-1)" in str(refused.value)
    assert "5 game(s) of an earlier round have no result" in str(refused.value)


def test_a_swiss_round_is_not_drafted_before_the_results_and_says_which() -> None:
    """us-championship-2013: round 2 of a Swiss reads round 1's results (C.04.3): refused, naming
    the games without one."""
    view = _registered("us-championship-2013.toml")
    _append(view, draft_round(view, 1))
    _append(view, publish_entry(view, 1, 1))
    view.apply(as_log([(RoundStarted.TYPE, start_data(view, 1, start_ms=1_000))], view.seq + 1)[0])
    with pytest.raises(DraftError, match=r"12 game\(s\) of an earlier round have no result \(round 1: "):
        draft_round(view, 2)


def test_an_exchange_naming_no_registered_player_says_so() -> None:
    """A new user's finding: an exchange naming start number 30 of the 24 of us-championship-2013
    was told "? (30) is not in round 1's draft"."""
    view = _registered("us-championship-2013.toml")
    _append(view, draft_round(view, 1))
    with pytest.raises(DraftError) as err:
        swap_entry(view, 1, 1, players=[1, 30], reason="the organiser's wish")
    assert str(err.value) == "no player has start number 30 (registered: 1-24)"


def test_a_round_of_fewer_than_two_players_is_not_paired() -> None:
    """A new user's finding: round 1 paired with no player said "no player (001) lines" (a TRF
    reader's words); with one, a round of one PAB fixed the start numbers before the others came."""
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")
    data = tournament_registered_data(t)
    for players in ([], data["players"][:1]):
        view = TournamentView()
        view.apply(as_log([("tournament_registered", {**data, "players": players})])[0])
        with pytest.raises(DraftError) as err:
            draft_round(view, 1)
        assert str(err.value) == (f"{len(players)} player(s) registered: a round pairs two or more; register the "
                                  "players first (import_players or register_player; venue players import|add)")
