"""Any number of boards on lichess (issue 31): a round of more than 100 boards goes to several
lichess broadcast rounds, each carrying the boards it is given, and lichess's answer is read per game.

The limit and the answer are lila's (lichess-org/lila): a round makes a chapter only while it has
fewer than 100 (``RelaySync.createChapter``: ``RelayFetch.maxChaptersToShow > nb``, ``Max(100)``), a
push body is cut to its first 100 games (``RelayPush.pgnToGames``: ``MultiPgn.split``), and the answer
lists every game read with success or error, chapter or not (``JsonView``: ``{"games": [{"tags",
"moves"} | {"tags", "error"}]}``). tests/lichess_double.py serves that over real HTTP.

The games: the FIDE World Cup 2025 (../shared/data/chess/fide_world_cup_2025.pgn), its first 200 games
with moves in file order (rounds 1.1 to 2.x), on hall boards 1-200 of one round; each played to at
most 40 plies in three pushes (8, 20, 40 plies; the games shorter than 40 end with their result).
"""

from __future__ import annotations

import io

import chess.pgn
import pytest

from lichess_double import MAX_CHAPTERS, LichessDouble, read_games
from replay_entries import round_started
from services.eventlog.base import Entry
from services.views.relay import read_answer
from services.views.relay_rounds import MAX_GAMES, LichessRound, MappingError, assign, parse_round_ids
from venue.broadcast import Pusher, lichess_push

TOKEN = "lip_test_token"
T0 = 1_760_000_000_000
STAGES = (8, 20, 40)


@pytest.fixture(scope="module")
def world_cup_200(shared_data) -> list[chess.pgn.Game]:
    stream = io.StringIO((shared_data / "chess" / "fide_world_cup_2025.pgn").read_text(encoding="utf-8"))
    out = []
    while len(out) < 200 and (g := chess.pgn.read_game(stream)) is not None:
        if g.headers.get("Black") != "bye" and next(iter(g.mainline_moves()), None) is not None:
            out.append(g)
    assert len(out) == 200
    return out


def staged_entries(games: list[chess.pgn.Game]) -> list[list[Entry]]:
    """The log in three parts: the round's start and each game to 8 plies; to 20; to 40 (a game
    of 40 plies or fewer ends there, with its result). Only ``move_played`` and ``game_ended``: the
    push reads moves and results (the clocks are tests/unit/test_broadcast_push.py's)."""
    parts: list[list[tuple[str, dict]]] = [[round_started(games, "1")[:2]], [], []]
    for board_no, g in enumerate(games, start=1):
        board, moves = g.board(), list(g.mainline_moves())
        base = {"game": f"1-{board_no}", "board": str(board_no)}
        for ply, move in enumerate(moves[: STAGES[-1]], start=1):
            san = board.san(move)
            board.push(move)
            part = next(k for k, n in enumerate(STAGES) if ply <= n)
            parts[part].append(("move_played", {**base, "device": "board", "seq": ply, "ply": ply, "move": move.uci(),
                                                "san": san, "fen": board.fen(), "from": "move",
                                                "turn": "white" if board.turn == chess.WHITE else "black"}))
        if len(moves) <= STAGES[-1]:
            parts[-1].append(("game_ended", {**base, "result": g.headers["Result"], "termination": "agreement",
                                             "ply": len(moves), "by": "device"}))
    seq, out = 0, []
    for part in parts:
        entries = []
        for t, d in part:
            seq += 1
            entries.append(Entry(seq, T0, t, d))
        out.append(entries)
    return out


def test_a_200_board_round_on_two_lichess_rounds_every_game_there_moves_only_growing(world_cup_200):
    """The acceptance: 200 boards to lichess rounds A (boards 1-100) and B (101-200) through an
    endpoint with lichess's limits, pushed three times as the games go on; board 150's game refused
    by the endpoint (a chapter lichess cannot take). Every other game is a chapter of its round with
    the moves pushed last; no chapter's moves ever shrank; the refused game is reported and not
    counted."""
    parts = staged_entries(world_cup_200)
    refused = world_cup_200[149]  # board 150
    lines: list[str] = []
    with LichessDouble(TOKEN, "roundA01", "roundB02") as lichess:
        lichess.refuse_ids = {"1-150"}
        rounds = parse_round_ids(["roundA01:1-100", "roundB02:101-200"])
        p = Pusher(lichess_push(TOKEN, lichess.url), rounds, out=lines.append)
        for k, part in enumerate(parts):
            for e in part:
                p.hall.take(e)
            assert p.step(T0 + 1000 * (k + 1)) is True
        assert lichess.shrunk == []  # moves only growing
        for rid, boards in (("roundA01", range(1, 101)), ("roundB02", range(101, 201))):
            chapters = {c["tags"]["GameId"]: c["moves"] for c in lichess.chapters[rid]}
            expected = {f"1-{b}" for b in boards} - ({"1-150"} if rid == "roundB02" else set())
            assert set(chapters) == expected, rid
            last = {g.headers["GameId"]: [m.uci() for m in g.mainline_moves()]
                    for g in read_games([t for r, t in lichess.pushes if r == rid][-1])}
            assert all(chapters[gid] == last[gid] for gid in expected)
    assert all(len(ms) == min(40, len(list(world_cup_200[int(g.split("-")[1]) - 1].mainline_moves())))
               for rid in lichess.chapters for g, ms in ((c["tags"]["GameId"], c["moves"]) for c in lichess.chapters[rid]))
    assert p.targets["roundA01"].taken.keys() == {f"1-{b}" for b in range(1, 101)}
    assert len(p.targets["roundB02"].taken) == 99 and "1-150" not in p.targets["roundB02"].taken
    name = f"{refused.headers['White']} - {refused.headers['Black']}"
    assert p.errors == [f"{name}: Cannot add a chapter to this study"]
    assert lines[-1] == (f"pushed round 1 to lichess round roundB02 (boards 101-200): 99 games; lichess refused 1: "
                         f"{name}: Cannot add a chapter to this study")
    assert p.not_pushed == []


def test_what_the_old_pusher_did_loses_a_game_that_lichess_answers_with_success(world_cup_200):
    """The bug, against the endpoint: 101 games in two requests to one lichess round (the old
    pusher's batches of 100). lila answers success for the 101st and keeps 100 chapters."""
    games = world_cup_200[:101]
    texts = [str(g) for g in games]
    with LichessDouble(TOKEN, "onlyround") as lichess:
        push = lichess_push(TOKEN, lichess.url)
        answers = [push("onlyround", "\n\n".join(texts[:100])), push("onlyround", texts[100])]
    assert [len(a["games"]) for a in answers] == [100, 1] and all("moves" in a["games"][0] for a in answers)
    assert len(lichess.chapters["onlyround"]) == MAX_CHAPTERS  # the 101st is nowhere


def test_a_body_of_101_games_is_cut_to_100_and_the_last_reported_not_taken(world_cup_200):
    """lila reads the first 100 games of a body and answers for those only: ``read_answer`` reports
    the 101st as not taken."""
    games = world_cup_200[:101]
    sent = [{"id": g.headers.get("GameId") or f"g{i}", "white": g.headers["White"], "black": g.headers["Black"],
             "moves": [m.uci() for m in g.mainline_moves()]} for i, g in enumerate(games)]
    with LichessDouble(TOKEN, "onlyround") as lichess:
        answer = lichess_push(TOKEN, lichess.url)("onlyround", "\n\n".join(str(g) for g in games))
    taken = read_answer(sent, answer)
    assert [t.moves is not None for t in taken] == [True] * 100 + [False]
    assert taken[-1].problem == f"{sent[-1]['white']} - {sent[-1]['black']}: not in lichess's answer (not taken)"


def test_one_lichess_round_for_a_round_over_the_limit_is_refused_at_the_first_push(world_cup_200):
    """``--round-id ID`` alone for 101 boards: lichess would keep 100, so the pusher refuses at the
    first snapshot (before any push), naming the round and the count."""
    parts = staged_entries(world_cup_200[:101])
    with LichessDouble(TOKEN, "onlyround") as lichess:
        p = Pusher(lichess_push(TOKEN, lichess.url), [LichessRound("onlyround")], out=lambda line: None)
        for e in parts[0]:
            p.hall.take(e)
        with pytest.raises(MappingError, match="onlyround would carry 101 games"):
            p.step(T0 + 1000)
        assert lichess.requests == 0


def test_boards_no_lichess_round_carries_are_reported_not_pushed(world_cup_200):
    parts = staged_entries(world_cup_200[:12])
    lines: list[str] = []
    with LichessDouble(TOKEN, "top") as lichess:
        p = Pusher(lichess_push(TOKEN, lichess.url), parse_round_ids(["top:1-10"]), out=lines.append)
        for e in parts[0]:
            p.hall.take(e)
        assert p.step(T0 + 1000)
    assert [c["tags"]["Board"] for c in lichess.chapters["top"]] == [str(b) for b in range(1, 11)]
    assert len(p.not_pushed) == 2 and all("no --round-id carries board" in x for x in p.not_pushed)
    assert any(line.startswith("round 1: not pushed 2: board 11: ") for line in lines)


@pytest.mark.parametrize("specs, message", [
    (["abcd:1-101"], "would carry 101 boards"),  # lichess keeps 100 (lila maxChaptersToShow)
    (["abcd:1-150", "efgh:151-200"], "would carry 150 boards"),
    (["abcd:1-100", "efgh:100-150"], "board 100 is in lichess rounds abcd and efgh"),
    (["abcd:1-50", "abcd:51-100"], "given twice"),
    (["abcd", "efgh:101-200"], "give each its boards"),
    (["abcd:0-10"], "from board 1"),
    (["abcd:20-10"], "from board 1"),
    (["abcd:1-x"], "expected numbers and ranges"),
    (["ab/cd:1-10"], "letters and digits"),
    ([], "no lichess round"),
])
def test_a_mapping_that_cannot_work_is_refused(specs, message):
    with pytest.raises(MappingError, match=message):
        parse_round_ids(specs)


def test_the_command_refuses_a_round_over_the_limit(monkeypatch, capsys):
    from venue.cli import main

    monkeypatch.setenv("LICHESS_TOKEN", TOKEN)
    code = main(["broadcast", "lichess", "--round-id", "abcd1234:1-200", "--store", "memory://", "--tournament", "x"])
    err = capsys.readouterr().err
    assert code == 2 and "lichess keeps at most 100 games a round" in err
    assert "--round-id abcd1234:1-100 --round-id ID2:101-200" in err  # what to give instead


def test_further_games_fill_a_round_after_the_main_games_in_a_stable_order():
    """A lichess round takes each board's first game by board number, then further games (an
    Armageddon game ``R-B-A``) while it has room: the main games are always carried."""
    games = [{"id": f"1-{b}", "board": str(b)} for b in range(1, 101)]
    games.insert(3, {"id": "1-3-A", "board": "3"})
    split = assign(games, [LichessRound("x", None)], limit=MAX_GAMES)
    assert [g["id"] for g in split.games["x"]] == [f"1-{b}" for b in range(1, 101)]
    assert [(g["id"], rid) for g, rid in split.over] == [("1-3-A", "x")]
    roomy = assign(games[:10], [LichessRound("x", None)])
    assert [g["id"] for g in roomy.games["x"]][:5] == ["1-1", "1-2", "1-3", "1-3-A", "1-4"]


def test_read_answer_per_game():
    """lila's answer read per game: by GameId when the entry has one, else by place; an error, a
    shorter game (lila drops an illegal last king move to the centre, DGT's result signal), no entry."""
    sent = [{"id": "1-1", "white": "A", "black": "B", "moves": ["e2e4", "e7e5"]},
            {"id": "1-2", "white": "C", "black": "D", "moves": ["d2d4"]},
            {"id": "1-3", "white": "E", "black": "F", "moves": ["c2c4", "e7e5", "e1e4"]},
            {"id": "1-4", "white": "G", "black": "H", "moves": []}]
    answer = {"games": [{"tags": {"GameId": "1-2"}, "moves": 1}, {"tags": {"GameId": "1-1"}, "moves": 2},
                        {"tags": {}, "moves": 2}]}
    taken = read_answer(sent, answer)
    assert [(t.game, t.moves, t.problem) for t in taken] == [
        ("1-1", 2, None), ("1-2", 1, None), ("1-3", 2, "E - F: lichess read 2 of 3 plies"),
        ("1-4", None, "G - H: not in lichess's answer (not taken)")]
    assert [t.problem for t in read_answer(sent[:1], {"games": [{"tags": {}, "error": "Invalid PGN"}]})] == ["A - B: Invalid PGN"]
    assert all(t.moves is None for t in read_answer(sent, "not json"))
