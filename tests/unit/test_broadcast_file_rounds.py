"""The tournament file's ``[broadcast] lichess_rounds`` (issue 31 item 1: "or a mapping in the
tournament file's ``[broadcast]``"): the lichess rounds ``venue broadcast lichess`` pushes to when
given no ``--round-id``, checked as the command line's are (lichess keeps 100 games a round: lila
``RelayFetch.maxChaptersToShow``, ``services.views.relay_rounds``), carried by the log's
``tournament_registered`` so the pusher, which reads only the log, finds it.

The games: the first 12 of the FIDE World Cup 2025 (../shared/data/chess/fide_world_cup_2025.pgn)
on hall boards 1-12; the file: tests/broadcast_helpers.py's four-player Keres Rapid.
"""

from __future__ import annotations

import io

import chess.pgn
import msgspec
import pytest

from broadcast_helpers import tournament_text
from lichess_double import LichessDouble
from replay_entries import round_started
from services.eventlog.base import Entry
from services.events import decode
from services.arbiter_office.tournament_changes import registration_changes
from services.arbiter_office.tournament_log import tournament_from_data, tournament_registered_data
from services.regulations.fields import TournamentFileError
from services.regulations.tournament_file import load_tournament
from services.views.relay_rounds import MappingError
from venue.broadcast import Pusher, lichess_push

TOKEN = "lip_test_token"
T0 = 1_760_000_000_000
PLAYERS = [{"name": f"P{i}", "rating": 2000, "fide_id": str(i), "title": None} for i in range(4)]


def file_with(broadcast: str) -> str:
    return tournament_text(PLAYERS) + "\n[broadcast]\n" + broadcast + "\n"


def test_the_mapping_is_read_and_carried_by_the_log():
    t = load_tournament(file_with('delay = 60\nlichess_rounds = ["roundA01:1-100", "roundB02:101-200"]'))
    assert t.broadcast_lichess_rounds == ("roundA01:1-100", "roundB02:101-200")
    data = tournament_registered_data(t)
    folded = msgspec.to_builtins(decode("tournament_registered", decode("tournament_registered", data).encode()[1]))
    assert tournament_from_data(folded).broadcast_lichess_rounds == t.broadcast_lichess_rounds
    assert registration_changes(folded, data) == []  # the same file read again changes nothing
    # a file without it registers as before (no new key in its entry)
    assert "broadcast_lichess_rounds" not in tournament_registered_data(load_tournament(tournament_text(PLAYERS)))


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize("value, message", [
    # lichess keeps 100 games a round (lila maxChaptersToShow): the hint is in the file's own spelling
    ('["abcd1234:1-200"]', 'would carry 200 boards .*lichess_rounds = \\["abcd1234:1-100", "ID2:101-200"\\]'),
    ('["abcd:1-100", "efgh:100-150"]', "board 100 is in lichess rounds abcd and efgh"),
    ('["abcd:1-50", "abcd:51-100"]', "given twice"),
    ('["abcd", "efgh:101-200"]', 'give each its boards: lichess_rounds = \\["ID:1-100", "ID2:101-200"\\]'),
    ('["ab/cd:1-10"]', "'ab/cd:1-10': a lichess round id is letters and digits"),
    ('["abcd:1-x"]', "expected numbers and ranges"),
    ('"abcd:1-100"', "must be a list of lichess round ids"),
    ("[1, 2]", "item 1: must be text, not 1"),
])
def test_a_mapping_that_cannot_work_is_refused_with_its_line(value, message):
    text = file_with(f"delay = 0\nlichess_rounds = {value}")
    with pytest.raises(TournamentFileError, match=message) as err:
        load_tournament(text, "event.toml")
    assert err.value.field == "broadcast.lichess_rounds"
    assert err.value.line == _line(text, "lichess_rounds =")
    assert str(err.value).startswith(f"event.toml:{err.value.line}")


@pytest.fixture(scope="module")
def world_cup_12(shared_data) -> list[chess.pgn.Game]:
    stream = io.StringIO((shared_data / "chess" / "fide_world_cup_2025.pgn").read_text(encoding="utf-8"))
    out = []
    while len(out) < 12 and (g := chess.pgn.read_game(stream)) is not None:
        if g.headers.get("Black") != "bye":
            out.append(g)
    return out


def _log(text: str, games: list[chess.pgn.Game]) -> list[Entry]:
    t = load_tournament(text)
    kind, data, _ = round_started(games, "1")
    return [Entry(1, T0, "tournament_registered", tournament_registered_data(t)), Entry(2, T0, kind, data)]


def test_the_pusher_without_round_ids_pushes_to_the_files_rounds(world_cup_12):
    lines: list[str] = []
    with LichessDouble(TOKEN, "roundA01", "roundB02") as lichess:
        p = Pusher(lichess_push(TOKEN, lichess.url), [], out=lines.append)
        assert p.step(T0) is False  # nothing in the log yet: no mapping needed
        for e in _log(file_with('lichess_rounds = ["roundA01:1-6", "roundB02:7-12"]'), world_cup_12):
            p.hall.take(e)
        assert p.step(T0 + 1000) is True
    assert [c["tags"]["Board"] for c in lichess.chapters["roundA01"]] == [str(b) for b in range(1, 7)]
    assert [c["tags"]["Board"] for c in lichess.chapters["roundB02"]] == [str(b) for b in range(7, 13)]
    assert lines[0] == "lichess rounds from the tournament file: roundA01 (boards 1-6), roundB02 (boards 7-12)"
    assert p.not_pushed == []


def test_round_ids_given_win_over_the_file(world_cup_12):
    with LichessDouble(TOKEN, "given01", "roundA01") as lichess:
        from services.views.relay_rounds import parse_round_ids
        p = Pusher(lichess_push(TOKEN, lichess.url), parse_round_ids(["given01"]), out=lambda line: None)
        for e in _log(file_with('lichess_rounds = ["roundA01:1-12"]'), world_cup_12):
            p.hall.take(e)
        assert p.step(T0 + 1000) is True
    assert len(lichess.chapters["given01"]) == 12 and not lichess.chapters["roundA01"]


def test_no_round_ids_and_none_in_the_file_is_refused(world_cup_12):
    with LichessDouble(TOKEN, "x") as lichess:
        p = Pusher(lichess_push(TOKEN, lichess.url), [], out=lambda line: None)
        for e in _log(tournament_text(PLAYERS), world_cup_12):
            p.hall.take(e)
        with pytest.raises(MappingError, match=r"give --round-id ID .*or \[broadcast\] lichess_rounds"):
            p.step(T0 + 1000)
        assert lichess.requests == 0


def test_the_command_takes_no_round_id(monkeypatch, capsys):
    """Without ``--round-id`` the command starts (the mapping comes from the log): an unreadable
    store is then the first refusal, not the missing flag."""
    from venue.cli import main

    monkeypatch.setenv("LICHESS_TOKEN", TOKEN)
    code = main(["broadcast", "lichess", "--store", "nosuch://x", "--tournament", "x"])
    err = capsys.readouterr().err
    assert code == 2 and "--round-id" not in err and "venue broadcast: error:" in err
