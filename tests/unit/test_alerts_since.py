"""An alert says what is true now, not only what its entry said (a new user's console, last session:
"the board waits for you" stayed after the board resumed; "messages 19-1017 were lost" stayed after
those messages had arrived). ``services.views.alert_since``: folded from the entries that follow.

The sequences are the gateway's own (``tests/hall_driver.Driver``):

- field case F05 (a) (../shared/cases/field-cases.md): e2e4, e7e5, e1e3 (an illegal king jump);
  "later moves (here b8c6) are held for the arbiter"; the replacement is 2.Ke2 (``e1e2``). The
  board's next legal move lifts the hold (docs/protocol.md, gateway/decide.py: "until the board's
  next message that is legal in the official position, or a placement equal to the official
  position"), on a sensor board the official position set back (F05, ``placement_seen`` "same");
- the demo's board 2 (Firouzja - Nakamura, Candidates 2024 round 5, 126 plies, the round's PGN in
  venue/data) with a stray publish under seq 1018 after the board's seq 18, as in the new user's run:
  the hold for seq 19 runs out (``seq_gap`` 19..1017), the stray is applied (an illegal move: the
  board held), and the board's own messages from seq 19 on come late, each one applied
  (docs/protocol.md: "a seq inside a hole a seq_gap skipped is applied"). The board sends 126: seqs
  19..126 arrive late and 127..1017 never come; once the next round is set up the devices count
  from 1 again and those can no longer be applied.
"""

from __future__ import annotations

import json

import chess
from alert_feed import FoldedAlerts
from candidates_r5 import firouzja_nakamura
from hall_driver import Driver

from services.views.alert_evidence import evidence_words
from services.views.alert_since import GAP_ARRIVED_TITLE, GAP_LOST_TITLE, RELEASED_TITLES
from services.views.alerts import ALERTING, AlertQueue

HOLD_MS = 5000  # the gateway's default hold for a missing seq (docs/protocol.md)
STRAY_SEQ = 1018  # the stray's seq in the new user's run
OWN_BEFORE = 18  # the board's own messages before the stray
ALERT_GAP_TITLE = ALERTING["seq_gap"][1]  # unchanged while messages are missing


def queue_of(d: Driver, upto: int | None = None) -> AlertQueue:
    """The arbiters' queue folded from the log as stored (JSON text), as a restarted dashboard does."""
    q = FoldedAlerts()
    rows = list(zip(d.entries, d.stamps))[:upto]
    for seq, ((t, data), at) in enumerate(rows, start=1):
        q.apply(seq, at, t, json.loads(json.dumps(data)))
    return q


def only(q: AlertQueue, kind: str, **evidence) -> list:
    return [a for a in q.alerts.values() if a.kind == kind and all(a.evidence.get(k) == v for k, v in evidence.items())]


def f05(d: Driver) -> None:
    """F05 (a): e2e4, e7e5, the illegal e1e3, then b8c6 (held)."""
    for uci in ("e2e4", "e7e5", "e1e3", "b8c6"):
        d.move("1", uci)


def test_a_held_boards_alerts_say_it_resumed_with_the_replacement_move():
    d = Driver("1")
    f05(d)
    held = only(queue_of(d), "move_rejected", held=True)
    assert [a.evidence["move"] for a in held] == ["e1e3", "b8c6"] and all(a.status == "open" for a in held)
    d.move("1", "e1e2")  # 2.Ke2: the replacement F05 names
    at = d.stamps[-1]
    [played] = [data for t, data in d.entries if t == "move_played" and data["move"] == "e1e2"]
    assert played["resumed"] and played["san"] == "Ke2" and played["ply"] == 3
    q = queue_of(d)
    for a in only(q, "move_rejected", held=True):
        assert a.status == "resolved", a.to_json()
        assert a.title == RELEASED_TITLES["resumed"]
        assert a.since == {"how": "resumed", "at": at, "ply": 3, "move": "e1e2", "san": "Ke2"}
        assert (a.resolution["by"], a.resolution["at"]) == ("board", at)
        assert a.to_json()["since"] == a.since
    assert not [a for a in q.open_alerts() if a.kind == "move_rejected"]


def test_a_held_move_is_said_to_be_the_side_whose_man_it_moved():
    """F05 (a): b8c6, held after White's illegal e1e3, is Black's knight: its alert names Black
    (the official position has White to move, which the alert used to name)."""
    d = Driver("1")
    f05(d)
    [held] = only(queue_of(d), "move_rejected", move="b8c6")
    assert held.evidence["side"] == "black"
    game = d.hall.state.games["1-1"]
    assert evidence_words(held.kind, held.evidence, game)["side"] == "black"
    assert evidence_words(held.kind, held.evidence, game)["move_text"] == "Nb8-c6"


def test_an_alert_handled_before_the_board_resumed_still_says_it_resumed():
    """The arbiter marked the first alert handled while the board waited: it stays resolved by the
    arbiter, and what it says is still what happened since."""
    d = Driver("1")
    f05(d)
    first = only(queue_of(d), "move_rejected", move="e1e3")[0]
    d.external("alert_resolved", {"alert": first.id, "by": "chief"})
    d.move("1", "e1e2")
    a = queue_of(d).alerts[first.id]
    assert a.status == "resolved" and a.resolution["by"] == "chief"
    assert a.since["how"] == "resumed" and a.since["san"] == "Ke2"


def test_a_board_whose_pieces_are_set_back_to_the_official_position_says_so():
    """F05 on a sensor board that also reports moves: the reported e1e3 is refused and holds the
    board; the pieces then read as the official position (``placement_seen`` "same": the king back
    on e1), which lifts the hold (gateway/decide.py)."""
    d = Driver("1")
    board = chess.Board()
    for uci in ("e2e4", "e7e5"):
        d.move("1", uci)
        board.push_uci(uci)
    d.move("1", "e1e3")
    [alert] = only(queue_of(d), "move_rejected", held=True)
    d.place("1", board.board_fen())
    assert d.entries[-1][0] == "placement_seen" and d.entries[-1][1]["reading"] == "same"
    a = queue_of(d).alerts[alert.id]
    assert a.status == "resolved" and a.title == RELEASED_TITLES["restored"]
    assert a.since == {"how": "restored", "at": d.stamps[-1]}


def test_the_game_ending_while_the_board_waits_says_so():
    d = Driver("1")
    f05(d)
    d.send("1", "result", {"result": "0-1", "reason": "resignation"})
    [ended] = d.of("game_ended")
    q = queue_of(d)
    for a in only(q, "move_rejected", held=True):
        assert a.status == "resolved" and a.title == RELEASED_TITLES["ended"]
        assert a.since == {"how": "ended", "at": d.stamps[-1], "result": ended["result"]}


def stray_jump(rounds: int = 1) -> tuple[Driver, list[str]]:
    """Board 2 replayed with the stray ``{"seq": 1018, "move": "a1a8"}`` after its seq 18 (see the
    module); ``rounds=2``: round 2 set up afterwards."""
    moves = firouzja_nakamura()
    d = Driver("2", hold_ms=HOLD_MS)
    for seq, uci in enumerate(moves[:OWN_BEFORE], start=1):
        d.move("2", uci, seq=seq)
    d.move("2", "a1a8", seq=STRAY_SEQ)
    d.tick(HOLD_MS + 1000)
    assert d.of("seq_gap") == [{"board": "2", "device": "board", "expected": OWN_BEFORE + 1, "got": STRAY_SEQ}]
    for seq, uci in enumerate(moves[OWN_BEFORE:], start=OWN_BEFORE + 1):
        d.move("2", uci, seq=seq)
    assert d.played("2") == moves
    if rounds == 2:
        games = [{"id": "2-2", "board": "2", "round": "2", "white": "Nakamura, Hikaru", "black": "Firouzja, Alireza",
                  "white_elo": None, "black_elo": None, "variant": "chess", "time_control": "5400+30", "fen": None,
                  "kind": "classical"}]
        d.external("round_started", {"round": "2", "event": "Test", "site": "", "date": "2024.04.05", "games": games})
    return d, moves


def test_skipped_messages_that_arrive_late_are_said_to_have_arrived():
    d, moves = stray_jump()
    last_own = len(moves)  # 126: the board's last message
    q = queue_of(d)
    [gap] = only(q, "seq_gap")
    assert gap.status == "open" and gap.title == ALERT_GAP_TITLE
    assert gap.since == {"arrived": [[OWN_BEFORE + 1, last_own]], "missing": [[last_own + 1, STRAY_SEQ - 1]], "lost": False}


def test_skipped_messages_still_missing_when_the_next_round_starts_were_lost():
    d, moves = stray_jump(rounds=2)
    [gap] = only(queue_of(d), "seq_gap")
    assert gap.title == GAP_LOST_TITLE and gap.status == "open"  # the arbiter decides what the loss meant
    assert gap.since == {"arrived": [[OWN_BEFORE + 1, len(moves)]], "missing": [[len(moves) + 1, STRAY_SEQ - 1]],
                         "lost": True}


def test_a_gap_whose_messages_all_arrive_is_resolved_nothing_lost():
    """The stray jumps to the board's next-but-one seq (22 after 20, as in tests/unit/test_stray_seq):
    the one skipped message, the board's own seq 21, arrives late."""
    moves = firouzja_nakamura()
    d = Driver("2", hold_ms=HOLD_MS)
    for seq, uci in enumerate(moves[:20], start=1):
        d.move("2", uci, seq=seq)
    d.move("2", "a1a8", seq=22)
    d.tick(HOLD_MS + 1000)
    [gap] = only(queue_of(d), "seq_gap")
    assert gap.since == {"arrived": [], "missing": [[21, 21]], "lost": False} and gap.status == "open"
    d.move("2", moves[20], seq=21)
    at = d.stamps[-1]
    gap = queue_of(d).alerts[gap.id]
    assert gap.status == "resolved" and gap.title == GAP_ARRIVED_TITLE
    assert gap.since == {"arrived": [[21, 21]], "missing": [], "lost": False}
    assert (gap.resolution["by"], gap.resolution["at"]) == ("device", at)


def test_the_queue_folded_live_equals_the_queue_of_a_restarted_dashboard():
    """Folded entry by entry as they came (the live desk) or from the whole log at once (a restart):
    the same alerts, saying the same."""
    d, _ = stray_jump(rounds=2)
    live = FoldedAlerts()
    for seq, ((t, data), at) in enumerate(zip(d.entries, d.stamps), start=1):
        live.apply(seq, at, t, data)
    assert [a.to_json() for a in live.alerts.values()] == [a.to_json() for a in queue_of(d).alerts.values()]

