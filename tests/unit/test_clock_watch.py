"""Clock and board disagreements (services.regulations.clock_watch), on the US 2023 control:
"90 minutes for the first 40 moves followed by 30 minutes for the rest of the game with an addition
of 30 seconds (increment) per move starting from move one." (us-championship-2023.txt rule 4)"""

from services.regulations.clock_watch import ClockWatch
from services.regulations.controls import control_from_spec

US = control_from_spec("40/5400+30:1800+30")
S = 1000


def start(w: ClockWatch) -> None:
    w.on_clock("start", 5_400_000, 5_400_000, "white", 0)


def test_a_clock_that_agrees_raises_nothing():
    w = ClockWatch(US)
    start(w)
    w.on_move("white", 9_000)
    # White used 10 s and gets +30 s: 5400 - 10 + 30 = 5420 s (Fischer increment on the press).
    assert w.on_clock("press", 5_420_000, 5_400_000, "black", 10_000) == []
    assert w.tick(20_000) == []


def test_more_than_two_seconds_off_is_reported_once():
    w = ClockWatch(US)
    start(w)
    w.on_move("white", 9_000)
    [f] = w.on_clock("press", 5_416_500, 5_400_000, "black", 10_000)
    assert f["kind"] == "time" and f["difference_ms"] == -3_500 and f["model_ms"] == 5_420_000
    # The model took the device's figures: the next press is judged from there.
    w.on_move("black", 19_000)
    # Black used 10 s and gets +30 s: 5420 s.
    assert w.on_clock("press", 5_416_500, 5_420_000, "white", 20_000) == []


def test_move_counter_off_puts_the_period_time_after_the_wrong_move():
    # The device adds the 30 minutes after White's 39th move instead of the 40th.
    w = ClockWatch(US)
    start(w)
    t, white, black = 0, 5_400_000, 5_400_000
    for n in range(1, 40):
        t += 10 * S
        w.on_move("white", t)
        white += 20 * S  # used 10 s, +30 s increment
        if n == 39:
            white += 1_800_000
        found = w.on_clock("press", white, black, "black", t)
        if n < 39:
            assert found == []
        t += 10 * S
        w.on_move("black", t)
        black += 20 * S
        w.on_clock("press", white, black, "white", t)
    assert found[0]["kind"] == "move_counter" and found[0]["move_number"] == 39
    assert found[0]["difference_ms"] == 1_800_000


def test_press_without_move_and_move_without_press_after_grace():
    w = ClockWatch(US, grace_ms=5000)
    start(w)
    w.on_clock("press", 5_430_000, 5_400_000, "black", 1000)  # White pressed, no move on the board
    assert w.tick(2000) == []                                  # within the grace period
    [f] = w.tick(6500)
    assert f["kind"] == "press_without_move" and f["side"] == "white"
    reported = {(f["kind"], f["side"], f["presses"])}          # the fold of the clock_disagreement entry
    assert w.tick(9000, reported) == []                        # once
    w2 = ClockWatch(US, grace_ms=5000)
    start(w2)
    w2.on_move("white", 1000)
    assert w2.tick(5000) == []
    [f2] = w2.tick(7000)
    assert f2["kind"] == "move_without_press" and "6.2.1" in f2["detail"]


def test_next_due_is_the_first_instant_tick_reports_and_none_once_reported():
    """``next_due``: the instant a timer must look again (the press at 1000 ms plus the 5000 ms
    grace of the test above); None with no mismatch open or once the finding is reported."""
    w = ClockWatch(US, grace_ms=5000)
    start(w)
    assert w.next_due() is None
    w.on_clock("press", 5_430_000, 5_400_000, "black", 1000)  # White pressed, no move on the board
    assert w.next_due() == 6000
    assert w.tick(5999) == []
    [f] = w.tick(6000)
    assert w.next_due({(f["kind"], f["side"], f["presses"])}) is None
    w.on_move("white", 7000)  # the move came: the mismatch is closed
    assert w.next_due() is None and w.tick(60_000) == []


def test_replay_rate_scales_the_gateways_instants():
    # A replay at 60x: 1 s of wall time is 60 s of game time.
    w = ClockWatch(US, rate=60)
    start(w)
    w.on_move("white", 900)
    assert w.on_clock("press", 5_400_000 - 60_000 + 30_000, 5_400_000, "black", 1000) == []


def test_a_replay_allows_its_wall_clock_jitter_scaled_by_the_rate():
    """A demo replaying at 60x: the press reaches the gateway 40 ms (wall) after the device's
    instant, 2.4 s of game time. In a real hall (rate 1) 2.4 s off is reported; in the replay it
    is jitter, and only a difference beyond the tolerance plus 100 ms x 59 of jitter is."""
    real = ClockWatch(US)
    start(real)
    real.on_move("white", 9_000)
    # White used 10 s and gets +30 s: 5420 s; the device shows 2.4 s more.
    [f] = real.on_clock("press", 5_422_400, 5_400_000, "black", 10_000)
    assert f["difference_ms"] == 2_400

    replay = ClockWatch(US, rate=60)
    start(replay)
    replay.on_move("white", 150)
    # 10 s of game time is 166.7 ms of wall time at 60x; the press arrives at 166 ms.
    assert replay.on_clock("press", 5_422_400, 5_400_000, "black", 166) == []
    replay.on_move("black", 300)
    # Black's clock ran 333 - 166 = 167 ms of wall time, 10.02 s of game time, +30 s: the model
    # gives 5419.98 s; a device showing 5391 s is 28.98 s off, far beyond jitter: reported.
    [g] = replay.on_clock("press", 5_422_400, 5_391_000, "white", 333)
    assert g["model_ms"] == 5_419_980 and g["difference_ms"] == -28_980


def test_a_press_known_only_within_a_window_is_reported_only_beyond_it():
    """A press read after an outage with no ``sent_at`` (``services.clock.instant``): made at any
    instant from 2 s (White's clock started) to 60 s (read). US 2023 rule 4: White used between 0 and
    58 s and gets +30 s, so the clock may show anything from 5372 s to 5430 s (2 s tolerance beyond):
    5420 s (10 s used, a press read 50 s late) is no disagreement; 5435 s is 5 s more than any
    instant allows."""
    w = ClockWatch(US)
    w.on_clock("start", 5_400_000, 5_400_000, "white", 2_000)
    w.on_move("white", 59_000)
    assert w.on_clock("press", 5_420_000, 5_400_000, "black", 60_000, 60_000, 2_000) == []
    w2 = ClockWatch(US)
    w2.on_clock("start", 5_400_000, 5_400_000, "white", 2_000)
    w2.on_move("white", 59_000)
    [f] = w2.on_clock("press", 5_435_000, 5_400_000, "black", 60_000, 60_000, 2_000)
    assert (f["kind"], f["difference_ms"], f["model_ms"]) == ("time", 5_000, 5_430_000)
    # never less than the latest instant allows: 5400 - 58 + 30 = 5372 s; 5369 s is 3 s short
    w3 = ClockWatch(US)
    w3.on_clock("start", 5_400_000, 5_400_000, "white", 2_000)
    w3.on_move("white", 59_000)
    [f3] = w3.on_clock("press", 5_369_000, 5_400_000, "black", 60_000, 60_000, 2_000)
    assert (f3["difference_ms"], f3["model_ms"]) == (-3_000, 5_372_000)


def test_the_clock_started_within_a_window_may_show_that_much_less_at_its_next_press():
    """White's press above (5420 s: made at 30 s, read at 60 s) starts Black's clock at any instant
    from 2 s to 60 s; the model has it at 60 s. Black presses, read promptly, at 90 s: Black used
    60 s in truth (5400 - 60 + 30 = 5370 s on the clock), 30 s by the model (5400 s): the 30 s are
    inside the window, no disagreement; the model then has the device's figures, exact again."""
    w = ClockWatch(US)
    w.on_clock("start", 5_400_000, 5_400_000, "white", 2_000)
    w.on_move("white", 59_000)
    assert w.on_clock("press", 5_420_000, 5_400_000, "black", 60_000, 60_000, 2_000) == []
    w.on_move("black", 89_000)
    assert w.on_clock("press", 5_420_000, 5_370_000, "white", 90_000) == []
    # exact again: White's next move of 10 s, shown 3 s short, is reported (US 2023: +30 s)
    w.on_move("white", 99_000)
    [f] = w.on_clock("press", 5_437_000, 5_370_000, "black", 100_000)
    assert f["difference_ms"] == -3_000 and f["model_ms"] == 5_440_000


def test_a_press_at_its_own_instant_is_judged_there():
    """``made_ms``: the press was made at 10 s and applied at 60 s (its ``sent_at`` believed): White
    used 10 s and gets +30 s, 5420 s, as in the first test; the grace periods run from 60 s."""
    w = ClockWatch(US)
    start(w)
    w.on_move("white", 9_000)
    assert w.on_clock("press", 5_420_000, 5_400_000, "black", 60_000, 10_000) == []
    assert w.remaining("black", 70_000) == 5_400_000 - 60_000  # Black's clock runs from the press at 10 s
    # a press without a move, made at 70 s and applied at 100 s: its grace (5 s) runs from 100 s
    w.on_clock("press", 5_420_000, 5_340_000, "white", 100_000, 70_000)
    assert w.next_due() == 100_000 + w.grace
