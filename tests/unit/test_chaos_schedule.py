"""The chaos soak's fault schedule (tools/chaos_soak.py): Jepsen's nemesis as issue 28's acceptance
words it: "every 20-60 s, kills (-9), freezes (SIGSTOP for 1-20 s) or restarts a random process
(gateway or shard, dashboard, broker, Redis, bridge) or cuts a board's link". Seeded, so a run can
be repeated."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import chaos_soak  # noqa: E402


def test_the_schedule_follows_the_issue_and_repeats_with_its_seed():
    faults = chaos_soak.schedule(random.Random(7), 30 * 60, 100)
    assert faults == chaos_soak.schedule(random.Random(7), 30 * 60, 100)
    assert faults != chaos_soak.schedule(random.Random(8), 30 * 60, 100)
    times = [f.at_s for f in faults]
    gaps = [b - a for a, b in zip([0.0] + times, times)]
    assert all(20 - 0.1 <= g <= 60 + 0.1 for g in gaps) and times[-1] < 30 * 60  # every 20-60 s
    assert 30 <= len(faults) <= 90  # 1,800 s at 20-60 s apart
    assert {f.kind for f in faults} == {"kill", "freeze", "restart", "cut"}
    for f in faults:
        if f.kind == "cut":
            assert f.target.startswith("board ") and 1 <= int(f.target.split()[1]) <= 100
        else:
            assert f.target in ("gateway", "dashboard", "broker", "redis")
        assert (1 <= f.hold_s <= 20) if f.kind in ("freeze", "cut") else f.hold_s == 0  # SIGSTOP 1-20 s


def test_a_short_soak_has_a_few_faults():
    faults = chaos_soak.schedule(random.Random(1), 3 * 60 * 0.85, 20)
    assert 2 <= len(faults) <= 7 and all(f.at_s < 153 for f in faults)


def test_the_shipped_configs_directives_are_rewritten():
    text = "# listener 8883\nlistener 1883\nuser mosquitto\npersistence true\n"
    assert chaos_soak.rewritten(text, {"listener": "listener 5 127.0.0.1", "user": "user me"}) == \
        "# listener 8883\nlistener 5 127.0.0.1\nuser me\npersistence true\n"


def test_a_game_the_laws_ended_before_the_pgns_end_is_equal(shared_data):
    """The soak's board 53 (100 boards): Candidates 2024 open, Nakamura - Gukesh (1/2-1/2), whose 140th
    ply leaves king and bishop against king: a dead position, drawn at once (FIDE Laws 5.2.2); the PGN
    has the king's capture of the bishop after it, which the gateway rightly refuses ("game over")."""
    import io

    import chess.pgn

    from devices.script import scripts_from_pgn
    from services.eventlog.base import Entry

    text = (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text()
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.headers["White"] == "Nakamura, Hikaru" and game.headers["Black"] == "Gukesh D":
            break
    [script] = scripts_from_pgn(str(game), boards=["1"])
    assert len(script.plies) == 141
    setup = {"round": "1", "event": "Candidates", "site": "", "date": "2024.04.04", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "Nakamura, Hikaru", "black": "Gukesh D",
         "variant": "chess", "time_control": None, "fen": None, "kind": "classical"}]}
    entries = [Entry(1, 0, "round_started", setup)]
    board = game.board()
    for n, ply in enumerate(script.plies[:140], start=1):
        move = chess.Move.from_uci(ply.uci)
        san = board.san(move)
        board.push(move)
        entries.append(Entry(n + 1, n, "move_played", {
            "game": "1-1", "board": "1", "device": "board", "seq": n, "ply": n, "move": ply.uci, "san": san,
            "fen": board.fen(), "turn": "white" if board.turn else "black", "claimable": [], "from": "move"}))
    entries.append(Entry(142, 141, "game_ended", {"game": "1-1", "result": "1/2-1/2", "termination": "insufficient_material",
                                                  "by": "rules", "ply": 140}))
    verdict = chaos_soak.check(entries, [script])
    assert (verdict.equal, verdict.total, verdict.differences) == (1, 1, [])
    assert verdict.notes == ["board 1: ended by the Laws (insufficient_material) at ply 140; the PGN goes on to ply 141"]
