"""Where a process's CPU goes, by section: synchronous functions wrapped to add up the thread's CPU
time (``time.thread_time_ns``, CLOCK_THREAD_CPUTIME_ID) they spend, each section's own time without
the sections called inside it.

For the gateway bench (``BENCH_GATEWAY_SECTIONS=1``): a sampling profiler on this shared 2-core
machine counts the time a process waits for a core after waking Redis or the broker, and cProfile
inflates Python-heavy code several times; a few clock reads per message do neither. What no section
covers (the event loop's own C code and system calls, coroutine glue between awaits) is the process's
CPU less the sections' sum, printed as ``(outside sections)``.
"""

from __future__ import annotations

import functools
import time

_clock = time.thread_time_ns


class Sections:
    """Accumulates per-section CPU ns and calls; ``wrap(owner, name, label)`` replaces
    ``owner.name`` (a function of a class or module, or a bound method of an instance)."""

    def __init__(self) -> None:
        self.own: dict[str, int] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[list] = []  # [label, started_ns, children_ns]
        self.started = _clock()

    def wrap(self, owner, name: str, label: str | None = None) -> None:
        label = label or f"{getattr(owner, '__name__', type(owner).__name__)}.{name}"
        original = getattr(owner, name)
        stack, own, calls = self._stack, self.own, self.calls
        own.setdefault(label, 0)
        calls.setdefault(label, 0)

        @functools.wraps(original)
        def timed(*args, **kwargs):
            frame = [label, _clock(), 0]
            stack.append(frame)
            try:
                return original(*args, **kwargs)
            finally:
                spent = _clock() - frame[1]
                stack.pop()
                own[label] += spent - frame[2]
                calls[label] += 1
                if stack:
                    stack[-1][2] += spent

        setattr(owner, name, timed)

    def reset(self) -> None:
        """Start counting again (e.g. once the process is ready: the set-up left out)."""
        for k in self.own:
            self.own[k] = 0
            self.calls[k] = 0
        self.started = _clock()

    def report(self, units: int) -> dict:
        """``{label: [us per unit, calls per unit]}`` (``units``: e.g. the messages handled),
        with ``(outside sections)`` and ``(thread total)``, most CPU first."""
        total = _clock() - self.started
        units = max(units, 1)
        rows = {k: [round(v / units / 1000, 1), round(self.calls[k] / units, 2)]
                for k, v in sorted(self.own.items(), key=lambda kv: -kv[1])}
        rows["(outside sections)"] = [round((total - sum(self.own.values())) / units / 1000, 1), None]
        rows["(thread total)"] = [round(total / units / 1000, 1), None]
        return rows
