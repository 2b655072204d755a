"""tests/eventually.py, the suite's one way to wait for something to happen: its contract as its
docstring states it (a truthy value ends the wait and is returned; AssertionError means not yet and
the last one is raised when time runs out; pytest.fail gives up at once; an async predicate is awaited;
an eventually_async never awaited is reported)."""

from __future__ import annotations

import asyncio

import pytest
from eventually import eventually, eventually_async, unawaited


def test_the_first_truthy_value_is_returned():
    calls = iter([0, None, [], {"seq": 3}])
    assert eventually(lambda: next(calls), 5, poll=0) == {"seq": 3}


def test_the_last_assertion_is_raised_when_time_runs_out():
    tries = []

    def never():
        tries.append(1)
        assert len(tries) < 0, f"try {len(tries)}"

    with pytest.raises(AssertionError, match=r"did not hold within 0.05 s: try \d+"):
        eventually(never, 0.05, poll=0.01)
    assert len(tries) >= 2


def test_pytest_fail_gives_up_at_once():
    tries = []

    def dead():
        tries.append(1)
        pytest.fail("the process exited")

    with pytest.raises(pytest.fail.Exception, match="the process exited"):
        eventually(dead, 5)
    assert tries == [1]


def test_an_async_predicate_needs_the_async_form():
    async def later():
        return True

    with pytest.raises(TypeError, match="eventually_async"):
        eventually(later, 1)


async def test_the_async_form_awaits_the_predicate_while_the_loop_runs():
    done = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, done.set)

    async def is_done():
        return done.is_set() and "set"

    assert await eventually_async(is_done, 5, poll=0.01) == "set"


async def test_an_async_form_never_awaited_is_reported():
    waiting = eventually_async(lambda: True, 1)
    assert unawaited() == [f"test_eventually.py:{test_an_async_form_never_awaited_is_reported.__code__.co_firstlineno + 1}"]
    assert unawaited() == []
    assert await waiting is True
