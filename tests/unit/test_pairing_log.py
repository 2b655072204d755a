"""The arbiter's actions for the next Swiss pairing as log entries: their fold
(services/state/fold_pairing.py, TournamentState.absences) and the round paired from the log with
them (services/arbiter_office/round_from_file.round_from_view, what ``venue serve --round N`` logs).

Expected pairings: bbpPairings (FIDE-endorsed), as committed in tests/data/pairing/actions (each the
shared fixture with ``venue pair``'s actions entered; tests/data/pairing/README.md) and in
../shared/data/pairing/dutch (NAME.pairs); and ``venue pair`` on the TRF the log exports (the pure
side, itself checked against bbpPairings: docs/pairing.md), with the same actions.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from trf_log import as_log, folded, pairs_of, read_pairs, trf_entries

from services.arbiter_office.round_from_file import round_from_view
from services.arbiter_office.tournament_export import tournament_trf
from services.state import HallState
from services.tournament.pairing.actions import rounds_paired
from services.tournament.trf import parse_trf
from venue.pair import main as venue_pair

ACTIONS = Path(__file__).resolve().parents[1] / "data" / "pairing" / "actions"


def _withdrew(n: int, rnd: int) -> tuple[str, dict]:
    return "player_withdrew", {"start_no": n, "from_round": rnd}


def _bye(n: int, rnd: int, code: str) -> tuple[str, dict]:
    return "bye_requested", {"start_no": n, "round": rnd, "code": code}


def _entered(n: int, name: str, rating: int, rnd: int) -> tuple[str, dict]:
    return "player_entered", {"start_no": n, "name": name, "rating": rating, "first_round": rnd}


def _forbidden(*players: int) -> tuple[str, dict]:
    return "pairing_forbidden", {"players": list(players)}


# The log entries for the actions of each committed fixture: the differences between
# tests/data/pairing/actions/NAME.trf and the shared fixture it was written from.
FIXTURE_ACTIONS = {
    "all-actions-001001": [_withdrew(4, 7), _withdrew(11, 7), _bye(10, 7, "H"), _forbidden(1, 2),
                           _entered(53, "Late Player", 1800, 7)],
    "baku-001005": [("acceleration_set", {"method": "baku"})],
    "bye-full-zero-001019": [_bye(2, 3, "F"), _bye(6, 3, "Z")],
    "bye-half-001002": [_bye(5, 6, "H")],
    "forbidden-001002": [_forbidden(1, 7), _forbidden(8, 9, 11)],
    "late-entry-001003": [_entered(14, "Late Player", 2100, 8)],
    "withdrawal-001002": [_withdrew(3, 6), _withdrew(8, 6)],
    "late-entries-001001": [_entered(53, "Late A", 1000, 7), _entered(54, "Late B", 1000, 7)],
    "late-entries-001005": [_entered(30, "Late A", 1000, 4), _entered(31, "Late B", 1000, 4)],
    "late-entries-001030": [_entered(7, "Late A", 1000, 5), _entered(8, "Late B", 1000, 5)],
}


def _shared(shared_data: Path, number: str) -> Path:
    [path] = (shared_data / "pairing" / "dutch").glob(f"dutch-{number}-*.trf")
    return path


def test_every_action_fixture_has_its_entries() -> None:
    assert sorted(FIXTURE_ACTIONS) == sorted(p.stem for p in ACTIONS.glob("*.trf"))


def test_the_fold_keeps_each_action(shared_data: Path) -> None:
    """Fixture dutch-001019 (6 players, 2 rounds played): every action's entry folded."""
    state = HallState()
    entries = [*trf_entries(parse_trf(_shared(shared_data, "001019").read_text())),
               _bye(2, 3, "F"), _bye(6, 4, "H"), _bye(6, 3, "Z"),
               ("bye_request_cancelled", {"start_no": 6, "round": 3}),
               _entered(7, "Late Player", 1500, 4), ("player_entered", {**_entered(8, "Late H", 1400, 4)[1], "missed": "H"}),
               _forbidden(3, 1), _forbidden(1, 3), ("acceleration_set", {"method": "baku"}), _withdrew(5, 4)]
    for entry in as_log(entries):
        state.apply(entry)
    t = state.tournament
    assert state.errors == []
    assert t.requested_byes == {3: {2: "F"}, 4: {6: "H"}}  # 6's bye for round 3 was cancelled
    assert t.late_entries == {7: {"first_round": 4, "missed": "Z"}, 8: {"first_round": 4, "missed": "H"}}
    assert t.players[7]["name"] == "Late Player" and t.players[7]["rating"] == 1500
    # the rounds started before the entry (1 and 2) are his missed rounds
    assert [(r.round, r.white, r.result) for k, r in t.records.items() if k.startswith("bye-") and r.white == 8] \
        == [(1, 8, "H"), (2, 8, "H")]
    assert t.forbidden == [(1, 3)] and t.acceleration == "baku"
    assert t.absences(3) == {2: "F", 7: "Z", 8: "H"}
    assert t.absences(4) == {5: "Z", 6: "H"}  # withdrawn from round 4 on


def test_bad_action_entries_are_counted_not_raised(shared_data: Path) -> None:
    """The fold never raises on data (services/state/fold.py): an unknown player, a start number
    taken, a bye code that is not H/F/Z, a forbidden "pair" of one."""
    state = HallState()
    entries = [*trf_entries(parse_trf(_shared(shared_data, "001019").read_text())), _bye(99, 3, "H"), _entered(2, "Someone", 1500, 3),
               ("bye_requested", {"start_no": 1, "round": 3, "code": "X"}), _forbidden(1, 1)]
    for entry in as_log(entries):
        state.apply(entry)
    assert [e[1] for e in state.errors] == ["bye_requested", "player_entered", "bye_requested", "pairing_forbidden"]
    assert state.tournament.requested_byes == {} and state.tournament.forbidden == []
    assert state.tournament.players[2]["name"] != "Someone"


def test_every_shared_fixture_paired_from_its_log(shared_data: Path) -> None:
    """The 40 shared fixtures written as log entries (tests/trf_log.py) and paired from the fold:
    each is bbpPairings' NAME.pairs (pairs and colours)."""
    paths = sorted((shared_data / "pairing" / "dutch").glob("*.trf"))
    assert len(paths) == 40
    for path in paths:
        t = parse_trf(path.read_text())
        got = pairs_of(round_from_view(folded(trf_entries(t)), rounds_paired(t) + 1))
        assert got == read_pairs(path.with_suffix(".pairs").read_text()), path.stem


@pytest.mark.parametrize("name", sorted(FIXTURE_ACTIONS))
def test_actions_from_the_log_pair_as_bbppairings(shared_data: Path, name: str) -> None:
    """The shared fixture's log, then the actions' entries: the round paired from the log is
    bbpPairings' pairing of the file with those actions entered; its ``round_started`` lists the
    players left out with their codes; once folded, the TRF exported from the log shows for each
    of them that round's entry as the fixture does (``0000 - Z``, ``0000 - H`` ...), and the late
    entries' lines with their missed rounds."""
    base = parse_trf(_shared(shared_data, name.rsplit("-", 1)[1]).read_text())
    fixture = parse_trf((ACTIONS / f"{name}.trf").read_text())
    rnd = rounds_paired(base) + 1
    view = folded(trf_entries(base) + FIXTURE_ACTIONS[name])
    data = round_from_view(view, rnd)
    assert pairs_of(data) == read_pairs((ACTIONS / f"{name}.pairs").read_text())
    left_out = {sno: p.games[rnd - 1].result for sno, p in fixture.players.items()
                if len(p.games) >= rnd and p.games[rnd - 1].opponent is None and p.games[rnd - 1].result != "U"}
    assert {b["start_no"]: b["code"] for b in data["byes"] if isinstance(b, dict)} == left_out
    view.apply(as_log([("round_started", data)], view.seq + 1)[0])
    exported = parse_trf(tournament_trf(view))
    for sno, code in left_out.items():
        assert exported.players[sno].game(rnd).result == code
    for sno in set(fixture.players) - set(base.players):  # late entries
        assert [g.result for g in exported.players[sno].games[:rnd - 1]] == [g.result for g in fixture.players[sno].games]
        assert exported.players[sno].name == fixture.players[sno].name


def _venue_pair(trf_text: str, args: list[str], tmp_path: Path) -> set[tuple[int, int | None]]:
    path = tmp_path / "exported.trf"
    path.write_text(trf_text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert venue_pair([str(path), *args]) == 0
    return read_pairs(out.getvalue())


def test_the_log_pairs_as_venue_pair_on_its_exported_trf(shared_data: Path, tmp_path: Path) -> None:
    """For each of the 40 shared fixtures: the TRF exported from its log (GET /api/tournament.trf),
    paired by ``venue pair`` with the arbiter's actions (--withdraw, --bye N:H|F|Z, --late-entry,
    --forbid, --baku every other fixture, and the fixture's own requested byes), is the round
    paired from the log with the same actions as entries (what ``venue serve --round N`` logs)."""
    for i, path in enumerate(sorted((shared_data / "pairing" / "dutch").glob("*.trf"))):
        t = parse_trf(path.read_text())
        rnd = rounds_paired(t) + 1
        entries = trf_entries(t)
        pending = [(kind, d) for kind, d in entries if kind == "bye_requested"]  # the fixture's own
        played = entries[:len(entries) - len(pending)]
        w, b = [s for s in sorted(t.players) if s >= 3 and s not in {d["start_no"] for _, d in pending}][:2]
        code, late = "HFZ"[i % 3], max(t.players) + 1
        actions = [_withdrew(w, rnd), _bye(b, rnd, code), _entered(late, "Late Player", 1500, rnd), _forbidden(1, 2)]
        args = [f"--bye={d['start_no']}:{d['code']}" for _, d in pending]
        args += [f"--withdraw={w}", f"--bye={b}:{code}", "--late-entry=Late Player:1500", "--forbid=1,2"]
        if i % 2:
            actions.append(("acceleration_set", {"method": "baku"}))
            args.append("--baku")
        expected = _venue_pair(tournament_trf(folded(played)), args, tmp_path)
        got = round_from_view(folded(played + pending + actions), rnd)
        assert pairs_of(got) == expected, path.stem
        assert {x["start_no"]: x["code"] for x in got["byes"] if isinstance(x, dict)} \
            == {**{d["start_no"]: d["code"] for _, d in pending}, w: "Z", b: code}


def test_a_cancelled_bye_is_paired_again(shared_data: Path) -> None:
    """bye-half-001002 asks a half-point bye for 5; cancelled, the round is the shared fixture's
    own pairing again (dutch-001002's .pairs, bbpPairings)."""
    path = _shared(shared_data, "001002")
    t = parse_trf(path.read_text())
    cancel = ("bye_request_cancelled", {"start_no": 5, "round": 6})
    data = round_from_view(folded(trf_entries(t) + [_bye(5, 6, "H"), cancel]), 6)
    assert pairs_of(data) == read_pairs(path.with_suffix(".pairs").read_text())
    assert [b for b in data["byes"] if isinstance(b, dict)] == []


def test_a_player_entered_ahead_sits_out_until_his_round(shared_data: Path) -> None:
    """A late entry from round 8 recorded before round 7 is paired: round 7 leaves him out with his
    missed-round code and is the fixture's own pairing (dutch-001001's .pairs, bbpPairings: a player
    who never took part in a pairing has no pairing number yet, docs/pairing.md); set up, round 7
    is one more missed round on his line."""
    path = _shared(shared_data, "001001")
    view = folded(trf_entries(parse_trf(path.read_text())) + [_entered(53, "Late Player", 1800, 8)])
    data = round_from_view(view, 7)
    assert pairs_of(data) == read_pairs(path.with_suffix(".pairs").read_text())
    assert [b for b in data["byes"] if isinstance(b, dict)] == [{"start_no": 53, "code": "Z"}]
    view.apply(as_log([("round_started", data)], view.seq + 1)[0])
    assert [g.result for g in parse_trf(tournament_trf(view)).players[53].games] == ["Z"] * 7
