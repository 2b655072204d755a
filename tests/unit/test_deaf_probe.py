"""The deaf gateway's probe (gateway/probe.py) decided on a fake clock (ms), its alert
(services/views/alerts.py) and /api/health's words for it (dashboard/api.py).

Source of the behaviour: issue 28, "A gateway that knows when it is deaf": an end-to-end probe through
the broker (a message to itself on a topic it subscribes to, at a short interval); when it does not
come back, health says so, the arbiters get an alert, and the gateway reconnects with a fresh session
(and, if that fails, exits for its supervisor). The figures are the probe's own defaults
(``EVERY_MS`` 2,000, ``TIMEOUT_MS`` 6,000, ``MISSES`` 2) or the ones a test gives it.
"""

from alert_feed import FoldedAlerts

from dashboard.api import deaf_error
from gateway.probe import DEAF, EVERY_MS, HEARING, TIMEOUT_MS, DeafProbe, probe_topic


def run(probe: DeafProbe, until: int, step: int = 100, echo=lambda payload, now: True, start: int = 0,
        answers=lambda now: True):
    """Drive ``probe`` from ``start`` to ``until`` ms in ``step`` ms ticks as the gateway's loop does;
    ``echo(payload, now)`` says whether a published probe comes back at once, ``answers(now)``
    whether the broker answers on the link then (the probe's PUBACK). The verdicts with their times."""
    answered_at = -1
    verdicts = []
    for now in range(start, until + 1, step):
        if probe.due(now):
            payload = probe.sent(now)
            if echo(payload, now):
                probe.heard(payload, now)
        if answers(now):
            answered_at = now
        verdict = probe.verdict(now, answered_at)
        if verdict:
            verdicts.append((verdict, now))
    return verdicts


def test_a_broker_that_delivers_is_never_deaf():
    probe = DeafProbe(instance="a")
    assert run(probe, 60_000) == [] and probe.unanswered == 0 and not probe.deaf


def test_deaf_once_the_oldest_unanswered_probe_is_past_the_timeout_and_two_are_unanswered():
    probe = DeafProbe(instance="a")
    # nothing comes back from t=0: probes at 0, 2000, 4000, 6000; the one of 0 is 6,000 ms old at 6000
    assert run(probe, 20_000, echo=lambda p, now: False) == [(DEAF, TIMEOUT_MS)]
    assert probe.deaf and probe.deaf_since == 0 and probe.unanswered == 20_000 // EVERY_MS + 1  # every probe of 0..20,000 ms


def test_one_probe_late_is_not_deafness():
    # misses=2: a single probe unanswered past the timeout (the next one came back) is not deaf
    probe = DeafProbe(every_ms=10_000, timeout_ms=3000, instance="a")
    first = probe.sent(0)
    assert probe.verdict(5000, 5000) is None  # one probe out, 5 s old: not enough
    probe.heard(probe.sent(10_000), 10_000)  # the later one back: the broker delivers in order
    assert probe.unanswered == 0 and probe.verdict(10_000, 10_000) is None
    assert not probe.heard(first.replace(b"a:", b"b:"), 10_001)  # another process's probe is not ours


def test_hearing_again_after_deafness_is_said_once_with_how_long():
    probe = DeafProbe(instance="a")
    deaf_until = 9000
    verdicts = run(probe, 20_000, echo=lambda p, now: now > deaf_until)
    assert verdicts == [(DEAF, 6000), (HEARING, 10_000)]  # the probe of 10,000 came back
    assert probe.was_deaf_ms == 10_000 and not probe.deaf


def test_a_fresh_link_gets_its_own_verdict():
    # deaf, the gateway reconnects fresh (new_link): still nothing back -> DEAF again, for that link
    probe = DeafProbe(instance="a")
    assert run(probe, 6000, echo=lambda p, now: False) == [(DEAF, 6000)]
    probe.new_link()
    assert probe.unanswered == 0 and probe.deaf and probe.due(6100)
    assert run(probe, 20_000, start=6100, echo=lambda p, now: False) == [(DEAF, 12_100)]
    probe.new_link()  # the supervisor's restart, or a broker restart: hears again
    assert run(probe, 30_000, start=20_100) == [(HEARING, 20_100)]


def test_probe_topic_is_the_logins_own():
    # deploy/make-mosquitto-passwords.py grants this topic to the gateway login only
    assert probe_topic("olympiad-open", "gateway-olympiad-open") == \
        "venue/olympiad-open/gateway/gateway-olympiad-open/probe"


def test_the_alert_is_one_per_gateway_and_closes_when_it_hears_again():
    q = FoldedAlerts()
    deaf = {"client_id": "venue-gateway-t", "since": 1000, "unanswered": 4}
    [a] = q.apply(5, 7000, "gateway_deaf", deaf)
    assert a.severity == "action" and a.title.startswith("Gateway deaf: the broker delivers nothing")
    assert "reconnects with a fresh session" in a.text
    [same] = q.apply(6, 14_000, "gateway_deaf", {**deaf, "unanswered": 7, "fresh": True})
    assert same is a and a.count == 2 and "restart the broker" in a.text
    [closed] = q.apply(7, 30_000, "gateway_hearing", {"client_id": "venue-gateway-t", "deaf_ms": 29_000})
    assert closed is a and a.status == "resolved" and q.open_alerts() == []


def test_health_names_the_deaf_gateways():
    assert deaf_error({}) is None
    text = deaf_error({"gateway-t": {"since": 1000, "unanswered": 4}})
    assert text is not None and text.startswith("gateway deaf: the broker delivers nothing to gateway-t")


def test_messages_coming_through_mean_the_broker_delivers():
    # a backlog: the probes wait behind it, but the boards' messages keep coming: not deaf
    probe = DeafProbe(instance="a")
    verdicts = []
    for now in range(0, 20_001, 100):
        if probe.due(now):
            probe.sent(now)
        if now % 1000 == 0:
            probe.delivered(now)
        if (verdict := probe.verdict(now, now)):
            verdicts.append(verdict)
    assert verdicts == [] and probe.unanswered == 11


def test_a_gateway_restarted_deaf_says_it_hears_again_at_its_first_probe_back():
    # the log's gateway_deaf of an earlier process (since 1000 ms), no gateway_hearing after it
    probe = DeafProbe(instance="b")
    probe.deaf_before(1000)
    assert run(probe, 50_000, start=40_000) == [(HEARING, 40_000)] and probe.was_deaf_ms == 39_000


def test_a_broker_that_says_nothing_at_all_is_not_deaf_but_silent():
    # frozen from 1000 ms on (SIGSTOP): no probe back and no PUBACK either; the keep alive drops that
    # link and the gateway keeps its session (a fresh one would drop what the broker queued meanwhile)
    probe = DeafProbe(instance="a")
    assert run(probe, 30_000, echo=lambda p, now: now < 1000, answers=lambda now: now < 1000) == []
    assert probe.unanswered == 15 and not probe.deaf


def test_a_stalled_gateway_judges_again_on_new_probes():
    # A gateway frozen 15 s (SIGSTOP, as the chaos soak does; the loop's own stalls too): the broker
    # closed its link meanwhile, and what it reads at SIGCONT is stamped with the time it was read.
    # Judged on the probes from before the stall, old PUBACKs read late would look like a broker that
    # answers and delivers nothing, and a fresh session would drop what the broker queued. The
    # gateway's loop calls new_link() after a stall: the probes published since are judged alone.
    resumed = 17_000
    answered_at = resumed - 1  # the old PUBACKs, read (and stamped) as the process resumed
    for stall_seen in (False, True):
        probe = DeafProbe(instance="a")
        probe.sent(0)
        probe.sent(2000)  # both unanswered when the process is stopped at 2,100 ms
        if stall_seen:
            probe.new_link()
        probe.sent(resumed)  # published on the dead link, never acknowledged
        probe.sent(resumed + 2000)
        verdict = probe.verdict(resumed + 30_000, answered_at)
        assert verdict == (None if stall_seen else DEAF)
