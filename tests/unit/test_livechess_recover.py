"""Moves made while the bridge did not hear LiveChess, recovered from LiveChess's own reading of the
game (devices/livechess/recover.py, translate.py), LiveChess's ``flipped``, an e-board in a state we
do not know (api.py), and the bridge keeping what the gateway has not confirmed (link.py, store.py).

LiveChess's fields, as DGT's interface declarations give them (copied in herohde/livechess-go
``pkg/livechess/events.go`` and luno1977/dgt ``EBoardEventResponse.java``): ``start`` "FEN string with
the position from where reconstruction of moves is done", ``san`` "array of SAN values with the
detected moves", ``match`` "boolean indicating if the current board exactly matches the reconstructed
move", ``flipped`` "indicator if the board is flipped or not"; ``state`` ``string | null``
(herohde/livechess-go ``eboard.go``).

The game: FIDE Candidates 2024 round 1, Caruana - Nakamura (../shared/data/chess/fide_candidates_2024_open.pgn),
its first 20 plies: 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 e5 6.Bb5+ Nbd7 7.Nf5 a6 8.Ba4 b5 9.Bb3 Nc5
10.Bg5 Bxf5.
"""

from __future__ import annotations

import io
import json

import chess
import chess.pgn
import pytest

from devices.livechess import translate
from devices.livechess.api import BoardEvent, parse_eboards, parse_event
from devices.livechess.link import BoardLink
from devices.livechess.recover import Covered, recover
from devices.livechess.store import SeqStore
from devices.livechess.translate import Reading
from services.protocol import placement as pl

START_FEN = chess.STARTING_FEN


@pytest.fixture(scope="module")
def caruana_nakamura(shared_data) -> list[chess.Move]:
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    while (g := chess.pgn.read_game(stream)) is not None:
        if g.headers["White"].startswith("Caruana") and g.headers["Black"].startswith("Nakamura") \
                and g.headers["Round"] == "1":
            return list(g.mainline_moves())[:20]
    raise AssertionError("Caruana - Nakamura, round 1, not in the file")


def line(moves: list[chess.Move], n: int) -> tuple[tuple[str, ...], list[str]]:
    """The first ``n`` plies in SAN, and the placements after each ply (index 0: the start)."""
    board, san, placements = chess.Board(), [], [chess.STARTING_BOARD_FEN]
    for m in moves[:n]:
        san.append(board.san(m))
        board.push(m)
        placements.append(board.board_fen())
    return tuple(san), placements


def one_move_each(start: str, placements: list[str]) -> list[str]:
    """The moves the gateway reads from ``placements`` sent one after the other from ``start``."""
    board, out = chess.Board(start), []
    for p in placements:
        guess = pl.infer_move(board, p)
        assert guess.kind == pl.MOVE, (board.fen(), p)
        board.push_uci(guess.move)
        out.append(guess.move)
    return out


def test_moves_made_while_cut_go_out_one_position_each(caruana_nakamura):
    """Covered to ply 8; LiveChess's next event reads 14 plies and the board shows the position
    after them: plies 9-14 go out as six placements, each one legal move from the one before."""
    san, placements = line(caruana_nakamura, 14)
    rec = recover(Covered(START_FEN, san[:8]), False, START_FEN, san, placements[14], True)
    sent = [p for p, _ in rec.steps]
    assert sent == placements[9:15]
    board = chess.Board()
    for m in caruana_nakamura[:8]:
        board.push(m)
    assert one_move_each(board.fen(), sent) == [m.uci() for m in caruana_nakamura[8:14]]
    assert rec.covered.san == san and rec.turned is False
    assert [c.san for _, c in rec.steps][-1] == san  # what is covered once each is sent


def test_the_last_reading_waits_while_a_piece_is_in_the_air(caruana_nakamura):
    """The board shows something else than LiveChess's last position (a piece in the hand, match
    false): the moves before the last go out, the last waits for the next event."""
    san, placements = line(caruana_nakamura, 12)
    lifted = chess.BaseBoard(placements[12])
    lifted.remove_piece_at(chess.E1 if lifted.piece_at(chess.E1) else chess.G1)
    rec = recover(Covered(START_FEN, san[:8]), False, START_FEN, san, lifted.board_fen(), False)
    assert [p for p, _ in rec.steps] == placements[9:12] and rec.covered.san == san[:11]
    again = recover(rec.covered, False, START_FEN, san, placements[12], True)
    assert [p for p, _ in again.steps] == [placements[12]]


def test_a_reading_livechess_replaces_goes_out_as_the_new_one(caruana_nakamura):
    """5...e5 (ply 10) with the pawn seen on e6 on its way: LiveChess read ...e6 (a legal move), then
    replaces it by e5 when the pawn lands (lila ui/dgt play.ts: LiveChess may detect the wrong move
    while pieces are in the air). The position after e5 goes out, nothing else."""
    san, placements = line(caruana_nakamura, 10)
    assert san[9] == "e5"
    in_the_air = san[:9] + ("e6",)
    rec = recover(Covered(START_FEN, in_the_air), False, START_FEN, san, placements[10], True)
    assert [p for p, _ in rec.steps] == [placements[10]] and rec.covered.san == san


def test_a_new_game_on_the_board_goes_out_from_its_start(caruana_nakamura):
    """The list keeps less than all but LiveChess's last two readings of what was covered: the board
    was set up again (an Armageddon game, the next round) and the new moves go out from the start
    position, even when they begin like the old game."""
    san, placements = line(caruana_nakamura, 20)
    new = san[:3]  # 1.e4 e5 2.Nf3 again
    rec = recover(Covered(START_FEN, san), False, START_FEN, new, placements[3], True)
    assert [p for p, _ in rec.steps] == placements[:4]


def test_a_board_that_sent_nothing_goes_out_from_the_start(caruana_nakamura):
    """The bridge started after the game began (a fresh round in its state file): everything from
    the start position (the gateway reads the orientation and the game from it)."""
    san, placements = line(caruana_nakamura, 6)
    rec = recover(None, True, None, san, placements[6], True)
    assert [p for p, _ in rec.steps] == placements[:7]
    assert recover(None, False, None, san, placements[6], True).steps == ()  # sent before: nothing known


def test_another_start_is_taken_as_it_stands(caruana_nakamura):
    """LiveChess set up from another position (its ``setup`` call): nothing is sent, its list is
    what is covered from now on."""
    san, placements = line(caruana_nakamura, 6)
    board = chess.Board()
    for m in caruana_nakamura[:6]:
        board.push(m)
    rec = recover(Covered(START_FEN, san), False, board.fen(), (), placements[6], True)
    assert rec.steps == () and rec.covered == Covered(board.fen(), (), board.fen())


def test_a_move_that_is_not_legal_stops_the_reading(caruana_nakamura):
    san, placements = line(caruana_nakamura, 6)
    rec = recover(Covered(START_FEN, san[:2]), False, START_FEN, san[:4] + ("Ke4",) + san[4:], placements[6], False)
    assert [p for p, _ in rec.steps] == placements[3:5]
    assert rec.problem.startswith("LiveChess's move 5 (Ke4) is not legal")


def test_a_board_turned_round_and_the_result_signal_with_a_piece_moved(caruana_nakamura):
    """The placement shows LiveChess's position turned 180 degrees (F06): ``turned``. The kings on
    the centre squares (F07) with a piece moved off one for a king: still the game's last position."""
    san, placements = line(caruana_nakamura, 12)
    assert recover(Covered(START_FEN, san[:10]), False, START_FEN, san, pl.rotate_placement(placements[12]),
                   True).turned is True
    signal = chess.BaseBoard(placements[12])
    for sq in list(signal.pieces(chess.KING, chess.WHITE) | signal.pieces(chess.KING, chess.BLACK)):
        signal.remove_piece_at(sq)
    signal.set_piece_at(chess.E4, chess.Piece(chess.KING, chess.WHITE))  # over White's e-pawn
    signal.set_piece_at(chess.D4, chess.Piece(chess.KING, chess.BLACK))
    assert pl.result_signal(signal.board_fen()) == "1/2-1/2"
    rec = recover(Covered(START_FEN, san[:10]), False, START_FEN, san, signal.board_fen(), False)
    assert [p for p, _ in rec.steps] == placements[11:13]


def event(board: str | None, san=None, flipped=False, match=None) -> BoardEvent:
    return BoardEvent("7425", flipped, board, None, False, START_FEN if san is not None else None, san, match)


def test_flipped_mid_game_keeps_the_game_turned_as_the_gateway_read_it(caruana_nakamura):
    """A board set up turned round, LiveChess reporting its sensors (the gateway reads the rotation
    from the start, F06); at ply 8 the operator flips it in LiveChess, which then reports the game's
    squares: the bridge turns them back, and the moves recovered after a cut go out turned too."""
    san, placements = line(caruana_nakamura, 14)
    reading, sent = Reading(), []
    for n in range(0, 9):
        reading, out = translate.from_event(reading, event(pl.rotate_placement(placements[n]), san[:n], match=True),
                                            fresh=n == 0)
        sent += [p["placement"] for k, p, _ in out if k == "position"]
    reading, out = translate.from_event(reading, event(placements[8], san[:8], flipped=True, match=True))
    assert [k for k, _, _ in out] == []  # the same board, only reported turned: nothing to send
    reading, out = translate.from_event(reading, event(placements[14], san, flipped=True, match=True))
    sent += [p["placement"] for k, p, _ in out if k == "position"]
    assert sent == [pl.rotate_placement(p) for p in placements[:9] + placements[9:15]]
    assert reading.turned is True and reading.sent_turned is True


def test_the_reading_survives_the_state_file(tmp_path, caruana_nakamura):
    san, placements = line(caruana_nakamura, 4)
    reading, _ = translate.from_event(Reading(), event(placements[4], san, match=True), fresh=True)
    assert Reading.from_json(json.loads(json.dumps(reading.to_json()))) == reading


def test_an_unknown_state_makes_that_board_not_usable_only():
    """``state`` is ``string | null``: a state DGT does not list (here "UPDATING") and an entry that
    cannot be read make their boards offline; the others are read as ever."""
    errors: list[str] = []
    boards = parse_eboards([
        {"serialnr": "1001", "state": "ACTIVE", "board": chess.STARTING_BOARD_FEN, "flipped": False, "clock": None},
        {"serialnr": "1002", "state": "UPDATING", "board": chess.STARTING_BOARD_FEN, "flipped": False, "clock": None},
        {"serialnr": "1003", "state": "ACTIVE", "board": "8/8", "flipped": False, "clock": None},
        {"state": "ACTIVE"},
        {"serialnr": "1005", "state": 7},
    ], errors)
    assert [(b.serial, b.state, b.online) for b in boards] == [
        ("1001", "ACTIVE", True), ("1002", "UPDATING", False), ("1003", None, False), ("1005", None, False)]
    assert len(errors) == 3 and errors[0].startswith("e-board 1003: board:")
    reading, out = translate.from_snapshot(Reading(online=True), boards[1])
    assert out == [("status", "offline", reading)]


def test_a_reading_that_cannot_be_read_leaves_the_placement():
    ev = parse_event({"serialnr": "1", "flipped": False, "board": chess.STARTING_BOARD_FEN, "san": "e4"})
    assert ev.board == chess.STARTING_BOARD_FEN and ev.san is None and ev.problem.startswith("san:")


def feedback(ref, device="board", **more) -> str:
    return json.dumps({"ref": ref, "device": device, "accepted": True, "reason": None, "fen": None, **more})


async def test_a_message_is_done_when_the_gateway_says_it_is_stored(tmp_path):
    """Issue 28: the feedback with the message's seq (``ref``) and ``device`` confirms it; a
    ``resend_from`` answer does not (the gateway holds that message, it has not stored it); what is
    not confirmed is in the state file, for a bridge started again."""
    store = SeqStore(tmp_path / "state.json", "t", "1")
    link = BoardLink("127.0.0.1", 1, "t", "1", on_confirm=lambda d, s: store.confirm("1", d, s))
    for n in range(1, 4):
        seq = store.take("1", "board", Reading(), ("position", {"placement": f"p{n}"}))
        link.send("position", seq, {"placement": f"p{n}"}, "board")
    seq = store.take("1", "clock", Reading(), ("clock", {"event": "start"}))
    link.send("clock", seq, {"event": "start"}, "clock")
    link.take(feedback(1))
    link.take(feedback(3, reason="waiting for missing seq: send again from seq 2", resend_from=2))
    link.take(feedback(1, "clock"))
    link.take("not json")
    assert list(link.unconfirmed) == [("board", 2), ("board", 3)]
    again = SeqStore(tmp_path / "state.json", "t", "1")
    assert [(d, s, body) for d, s, _, body in again.unconfirmed("1")] == [
        ("board", 2, {"placement": "p2"}), ("board", 3, {"placement": "p3"})]
    restarted = BoardLink("127.0.0.1", 1, "t", "1")
    for device, seq, kind, body in again.unconfirmed("1"):
        restarted.keep(device, seq, kind, body)
    assert [json.loads(p)["seq"] for _, p in restarted.unconfirmed.values()] == [2, 3]
    for task in list(link._tasks):  # the resend_from answer started one (no broker here)
        task.cancel()


def test_a_first_message_without_a_reading_waits_for_the_next(caruana_nakamura):
    """herohde/livechess-go prints LiveChess's first message after a subscribe with no ``san``: the
    board several moves on goes out as it is (the gateway waits it out as a passing state), and the
    next message's reading brings the moves in between, each one legal move from the one before."""
    san, placements = line(caruana_nakamura, 13)
    reading = Reading()
    for n in range(0, 9):
        reading, _ = translate.from_event(reading, event(placements[n], san[:n], match=True), fresh=n == 0)
    reading, out = translate.from_event(reading, event(placements[12]))  # reconnected: no reading
    assert [p["placement"] for k, p, _ in out if k == "position"] == [placements[12]]
    reading, out = translate.from_event(reading, event(placements[13], san, match=True))
    sent = [p["placement"] for k, p, _ in out if k == "position"]
    board = chess.Board()
    for m in caruana_nakamura[:8]:
        board.push(m)
    assert one_move_each(board.fen(), sent) == [m.uci() for m in caruana_nakamura[8:13]]
