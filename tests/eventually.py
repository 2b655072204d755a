"""``eventually(predicate, timeout)``: wait until something has happened, instead of sleeping a guess.

A test that waits for another task, process or server asks ``predicate`` again and again until it
holds, and fails with what it last saw when it does not hold within ``timeout`` seconds. The timeout
bounds a failure; it is not a guess at how long the thing takes (a passing test waits only as long
as the thing takes), so it is generous: a loaded 2-core CI machine is slow.

``predicate()`` holds when it returns a truthy value (which is returned) without raising
AssertionError; an AssertionError means "not yet", and the last one is raised when time runs out,
so a predicate can say what it expects with ``assert`` (``pytest.fail`` inside it gives up at once).

- ``eventually(...)`` polls in the calling thread (sleeping ``poll`` s between tries): sync tests,
  fixtures and helpers (a TestClient, a subprocess, a server started in a thread).
- ``await eventually_async(...)``: the same inside a running event loop, which keeps running between
  tries; the predicate may return an awaitable (``await eventually_async(lambda: log.read())``).
  Not awaited, it would check nothing: the suite's conftest fails the test that made it
  (``unawaited``).

A sleep that is the behaviour under test (a device's pace, letting a real clock run) is not a wait
for something to happen and stays a sleep.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from eventually import eventually``.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import time
from collections.abc import Callable
from typing import Any

_pending: list[_Waiting] = []  # made inside a running loop and not yet awaited


def eventually(predicate: Callable[[], Any], timeout: float = 10.0, *, poll: float = 0.02) -> Any:
    """``predicate()``'s first truthy value, polled every ``poll`` s in this thread for up to
    ``timeout`` s. AssertionError after ``timeout`` s: the predicate's last AssertionError, or one
    naming the caller's line and the last value."""
    return _poll(predicate, timeout, poll, _caller())


def eventually_async(predicate: Callable[[], Any], timeout: float = 10.0, *, poll: float = 0.02) -> Any:
    """``eventually`` inside a running event loop: an awaitable of ``predicate()``'s first truthy
    value (the predicate may return an awaitable); the loop runs on between tries."""
    waiting = _Waiting(predicate, timeout, poll, _caller())
    _pending.append(waiting)
    return waiting


def _caller() -> str:
    frame = sys._getframe(2)
    return f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno}"


def unawaited() -> list[str]:
    """Where each ``eventually_async`` never awaited was called (and forget them)."""
    left = [w.where for w in _pending]
    _pending.clear()
    return left


def _try(value_or_error: Callable[[], Any]) -> tuple[bool, Any]:
    try:
        value = value_or_error()
    except AssertionError as e:
        return False, e
    return bool(value), value


def _give_up(where: str, timeout: float, last: Any) -> AssertionError:
    if isinstance(last, AssertionError):
        return AssertionError(f"eventually ({where}) did not hold within {timeout} s: {last}")
    return AssertionError(f"eventually ({where}) did not hold within {timeout} s; last value: {last!r}"[:2000])


def _poll(predicate: Callable[[], Any], timeout: float, poll: float, where: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        held, last = _try(predicate)
        if inspect.isawaitable(last):
            if inspect.iscoroutine(last):
                last.close()
            raise TypeError(f"eventually ({where}): an async predicate needs await eventually_async(...)")
        if held:
            return last
        if time.monotonic() >= deadline:
            raise _give_up(where, timeout, last)
        time.sleep(poll)


class _Waiting:
    """``eventually_async``'s awaitable: polls when awaited."""

    def __init__(self, predicate: Callable[[], Any], timeout: float, poll: float, where: str):
        self.predicate, self.timeout, self.poll, self.where = predicate, timeout, poll, where

    def __await__(self):
        if self in _pending:
            _pending.remove(self)
        return self._run().__await__()

    async def _run(self) -> Any:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                value = self.predicate()
                if inspect.isawaitable(value):
                    value = await value
                held, last = bool(value), value
            except AssertionError as e:
                held, last = False, e
            if held:
                return last
            if time.monotonic() >= deadline:
                raise _give_up(self.where, self.timeout, last)
            await asyncio.sleep(self.poll)
