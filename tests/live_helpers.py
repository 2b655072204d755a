"""Helpers shared by the tests that run the gateway for real (integration and browser tests).

``tests/`` is on ``sys.path`` (pytest inserts the directory of the root ``conftest.py``), so test
modules import this as ``live_helpers``.
"""

from __future__ import annotations

import asyncio
import contextlib

from eventually import eventually_async

MOSQUITTO = "mqtt://127.0.0.1:1883"


@contextlib.asynccontextmanager
async def broker(which: str):
    """The URL of a broker of kind ``which``: "embedded" (amqtt on a free port, run for the block:
    ``gateway.embedded_broker``) or "mosquitto" (127.0.0.1:1883)."""
    if which == "embedded":
        from gateway import embedded_broker

        async with embedded_broker() as url:
            yield url
    else:
        yield MOSQUITTO


@contextlib.asynccontextmanager
async def running(gateway):
    """Run ``gateway`` (a ``gateway.Gateway``) as a task until the block ends; waits up to 30 s until
    it is ready (its state rebuilt, subscribed). Yields the task. 30 s, not less: after a restart the
    embedded broker (amqtt) redelivers the session's queued messages before it answers SUBSCRIBE,
    which took over 10 s on a loaded 2-core machine."""
    task = asyncio.create_task(gateway.run())
    try:
        await asyncio.wait_for(gateway.ready.wait(), 30)
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def log_until(log, predicate, timeout: float = 10.0, poll: float = 0.05) -> list:
    """Read ``log`` every ``poll`` s until ``predicate(entries)`` holds; returns those entries.
    Raises AssertionError, listing what the log holds, after ``timeout`` s."""
    async def holds() -> list:
        entries = await log.read()
        assert predicate(entries), f"not in the log: {[(e.type, e.data) for e in entries][-20:]}"
        return entries

    return await eventually_async(holds, timeout, poll=poll)


async def entries_matching(log, pred, timeout: float = 20.0) -> list:
    """The log's entries ``e`` with ``pred(e)``, once there is at least one (AssertionError after
    ``timeout`` s)."""
    entries = await log_until(log, lambda es: any(pred(e) for e in es), timeout)
    return [e for e in entries if pred(e)]
