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
