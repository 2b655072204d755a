"""Players registered or imported before round 1 (services/arbiter_office/player_import.py, the
``players_registered`` entry and its fold): start numbers in FIDE C.04.2's initial order (rating,
then title GM-IM-WGM-FM-WIM-CM-WFM-WCM, then name), and bad files refused with file and line.

Sources: ../shared/data/trf/example1.trf (FIDE's TRF example, the 9. Karl-Mala-Gedenkturnier 2005:
its rated players 1-145 are numbered in exactly that order, e.g. 21 Isserman (FM) before 22 Schlawin
at the same rating; 280 Kammerer, rated 2005, was a late entry); ../shared/data/pairing/dutch/dutch-001004-119p-r5of10.trf (119 players
numbered by rating, equal ratings by name); FIDE's rating-list download layout (``ID Number``,
``Name``, ``Fed``, ``Sex``, ``Tit``, ``WTit``, ``OTit``, ``FOA``, ``SRtng`` ... at their columns).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from trf_log import as_log

from services.arbiter_office.player_import import (SAVE_AS_UTF8, RosterFileError, decode_players_file, read_players,
                                                   registration_entry)
from services.arbiter_office.round_draft import draft_round
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView

EVENTS = Path(__file__).resolve().parents[2] / "events"
FIDE_HEADER = ("ID Number      Name                                                         Fed Sex Tit  WTit OTit  "
               "         FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")


def _view(preset: str = "us-championship-2013.toml", players: bool = True) -> TournamentView:
    t = load_tournament((EVENTS / preset).read_text(), preset)
    data = tournament_registered_data(t)
    if not players:
        data["players"] = []
    view = TournamentView()
    view.apply(as_log([("tournament_registered", data)])[0])
    return view


def _fold(view: TournamentView, entry) -> None:
    view.apply(as_log([entry.encode() if hasattr(entry, "encode") else entry], view.seq + 1)[0])


def _csv(players, shuffle_seed: int) -> str:
    rows = list(players)
    random.Random(shuffle_seed).shuffle(rows)
    lines = ["Name;Rating;Title;FIDE ID;Fed"]
    lines += [f"{p.name};{p.rating or ''};{p.title};{p.fide_id};{p.federation}" for p in rows]
    return "\n".join(lines) + "\n"


def test_a_trf_imported_numbers_its_rated_players_as_fide_did(shared_data: Path) -> None:
    path = shared_data / "trf" / "example1.trf"
    t = parse_trf(path.read_text())
    view = _view(players=False)
    _fold(view, registration_entry(view.state, read_players(path.read_text(), path.name), path.name))
    got = [view.players[s]["name"] for s in range(1, 147)]
    late = t.players[280]  # Kammerer (2005): entered late in the real event, numbered after everyone
    assert [n for n in got if n != late.name] == [t.players[s].name for s in range(1, 146)]
    at = got.index(late.name) + 1
    assert view.players[at - 1]["rating"] >= late.rating >= view.players[at + 1]["rating"]
    assert view.players[21]["title"] == "FM" and view.players[1]["title"] == "GM"


def test_a_shuffled_csv_comes_back_in_the_initial_order(shared_data: Path) -> None:
    path = shared_data / "pairing" / "dutch" / "dutch-001004-119p-r5of10.trf"
    t = parse_trf(path.read_text())
    view = _view(players=False)
    _fold(view, registration_entry(view.state, read_players(_csv(t.players.values(), 27), "players.csv"), "players.csv"))
    assert {sno: p["name"] for sno, p in view.players.items()} == {s: p.name for s, p in t.players.items()}


def test_fide_s_rating_list_text(shared_data: Path) -> None:
    """example1's first 30 players written in FIDE's download layout, in reverse: the same order and
    titles back (TRF16 "g"/"m"/"f" are FIDE's GM/IM/FM)."""
    t = parse_trf((shared_data / "trf" / "example1.trf").read_text())
    first = [t.players[s] for s in range(1, 31)]
    lines = [FIDE_HEADER]
    for p in reversed(first):
        title = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM"}.get(p.title, "")
        lines.append(f"{p.fide_id:<15}{p.name:<61}{p.federation:<4}{'M':<4}{title:<5}{'':<5}{'':<15}{'':<4}"
                     f"{p.rating:<6}{'0':<4}{'10':<3}{'':<6}{'':<4}{'':<3}{'':<6}{'':<4}{'':<3}{p.birth[:4]:<6}")
    players = read_players("\n".join(lines) + "\n", "standard_rating_list.txt")
    view = _view(players=False)
    _fold(view, registration_entry(view.state, players, "standard_rating_list.txt"))
    assert [view.players[s]["name"] for s in range(1, 31)] == [p.name for p in first]
    assert view.players[1]["fide_id"] == first[0].fide_id and view.players[1]["federation"] == first[0].federation


@pytest.mark.parametrize("text, name, message", [
    ("Name,Rating\nCarlsen,2830\nCaruana,28x0\n", "players.csv", "players.csv:3: rating: '28x0' is not a rating"),
    ("Name,Rating\nCarlsen,2830\n,2700\n", "players.csv", "players.csv:3: name: missing"),
    ("Player,Elo,Title\nA,2500,XM\n", "p.csv", "p.csv:2: title: 'XM' is not a FIDE title"),
    ("Rating,Fed\n2500,NOR\n", "p.csv", "p.csv:1: header: no name column"),
    ("Name,Fed\nA,NO\n", "p.csv", "p.csv:2: federation: 'NO' is not a three-letter federation code"),
    ("Name,FIDE ID\nA,1503014\nB,1503014\n", "p.csv", "p.csv:3: FIDE ID: B is in the file twice (line 2 too)"),
    ("Name\nA\na\n", "p.csv", "p.csv:3: name: a is in the file twice (line 2 too)"),
    ("012 x\n001    1 m    Someone                           23x0 NOR     1503014\n", "t.trf",
     "t.trf:2: rating (columns 49-52): not a number"),
    ("Name\n", "p.csv", "p.csv: no player in the file"),
])
def test_a_malformed_file_is_refused_with_file_and_line_and_registers_nothing(text, name, message) -> None:
    view = _view()
    before = dict(view.players)
    with pytest.raises(RosterFileError) as refused:
        read_players(text, name)
    assert str(refused.value).startswith(message)
    assert view.players == before


def test_a_file_that_is_not_utf8_is_refused_at_its_line_and_column_with_the_fix() -> None:
    # docs/tournament-log.md "Registration": "the first fault refuses the whole file with its name and
    # line". A new user's "Müller, Hans" saved by Excel as "CSV (Windows)" (Windows-1252: "ü" is the one
    # byte 0xFC) read "'utf-8' codec can't decode byte 0xfc in position 14". No encoding is guessed.
    windows = 'Name,Rating\n"Müller, Hans",2000\n'.encode("cp1252")
    assert windows[14] == 0xFC  # the report's "position 14": line 2, after its '"M', column 3
    expected = f"latin1.csv:2:3: byte 0xFC is not UTF-8 text: {SAVE_AS_UTF8}"
    for data in (windows, b"\xef\xbb\xbf" + windows):  # a byte order mark counts in no column
        with pytest.raises(RosterFileError) as refused:
            decode_players_file(data, "latin1.csv")
        assert str(refused.value) == expected
    assert 'Excel: "CSV UTF-8"' in SAVE_AS_UTF8
    # the same name in UTF-8, with Excel's "CSV UTF-8" byte order mark or without, is read as written
    for data in ('Name,Rating\n"Müller, Hans",2000\n'.encode(), '\ufeffName,Rating\n"Müller, Hans",2000\n'.encode()):
        [p] = read_players(decode_players_file(data, "utf8.csv"), "utf8.csv")
        assert (p.name, p.rating) == ("Müller, Hans", 2000)
    # the console's browser reads the file as UTF-8 and leaves U+FFFD for the byte (File.text()): the
    # same line and column, never a name registered as "M\ufffdller"
    with pytest.raises(RosterFileError) as refused:
        read_players(windows.decode("utf-8", errors="replace"), "latin1.csv")
    assert str(refused.value) == f"latin1.csv:2:3: a character that was not UTF-8 text (read as U+FFFD): {SAVE_AS_UTF8}"


def test_the_numbers_are_fixed_once_round_1_is_drafted() -> None:
    """us-championship-2013's 24 players and two more registered: everyone is numbered again (the
    new 2850 player first); after round 1's draft a registration is refused (a late entry then)
    and the fold refuses one that comes all the same."""
    view = _view()
    bye_for = view.players[3]["name"]
    _fold(view, ("bye_requested", {"start_no": 3, "round": 2, "code": "H"}))
    new = read_players("Name,Rating,Title\nTop Player,2850,GM\nLow Player,1000,\n", "late.csv")
    _fold(view, registration_entry(view.state, new, "late.csv"))
    assert view.players[1]["name"] == "Top Player" and len(view.players) == 26
    assert {view.players[s]["name"] for s in view.state.tournament.requested_byes[2]} == {bye_for}
    draft = draft_round(view, 1)
    assert len(draft.boards) == 13 and draft.boards[0].white == "Top Player"
    _fold(view, draft)
    more = read_players("Name\nAnother\n", "more.csv")
    with pytest.raises(ValueError, match=r"start numbers are fixed \(round 1 is drafted\)"):
        registration_entry(view.state, more, "more.csv")
    _fold(view, ("players_registered", {"players": [{"name": "Another"}]}))  # written all the same
    assert view.state.errors[-1][1] == "players_registered" and len(view.players) == 26
    with pytest.raises(ValueError, match="Top Player is registered already"):
        registration_entry(_view_with(new).state, new, "again.csv")


def _view_with(players) -> TournamentView:
    view = _view()
    _fold(view, registration_entry(view.state, players, "x.csv"))
    return view
