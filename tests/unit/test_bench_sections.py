"""bench/_sections.py: a section's own CPU time leaves out the sections called inside it, and the
time outside every section is the thread's total less their sum (what ``BENCH_GATEWAY_SECTIONS``
prints). The clock is a fake that advances by the amounts the test's functions say they spend."""

from __future__ import annotations

import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import _sections  # noqa: E402


def test_own_time_leaves_out_the_sections_inside_and_the_rest_is_outside(monkeypatch):
    now = [0]
    monkeypatch.setattr(_sections, "_clock", lambda: now[0])

    def spend(ns):
        now[0] += ns

    mod = types.SimpleNamespace()
    mod.inner = lambda: spend(3_000)  # 3 us
    mod.outer = lambda: (spend(2_000), mod.inner(), spend(1_000))  # 3 us of its own around inner
    s = _sections.Sections()
    s.wrap(mod, "inner", "inner")
    s.wrap(mod, "outer", "outer")
    for _ in range(2):  # two messages
        mod.outer()
        spend(4_000)  # 4 us in no section (the event loop)
    report = s.report(units=2)
    assert report["inner"] == [3.0, 1.0] and report["outer"] == [3.0, 1.0]
    assert report["(outside sections)"] == [4.0, None] and report["(thread total)"] == [10.0, None]
    s.reset()
    assert s.report(units=1)["(thread total)"] == [0.0, None] and s.calls["outer"] == 0


def test_a_section_that_raises_still_counts():
    s = _sections.Sections()
    mod = types.SimpleNamespace(fail=lambda: 1 / 0)
    s.wrap(mod, "fail", "fail")
    try:
        mod.fail()
    except ZeroDivisionError:
        pass
    assert s.calls["fail"] == 1 and s._stack == []  # noqa: SLF001
