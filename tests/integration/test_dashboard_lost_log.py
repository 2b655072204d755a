"""``venue dashboard`` keeps serving when the log is lost while it starts (issue 11, "A lost or
rolled-back log goes unnoticed": the dashboard's ``/api/health`` turns 503 naming LogReplaced).

Found by CI (tests/integration/test_deploy_commands.py, intermittent on a loaded machine): the log's
keys vanished after the dashboard had opened the log and begun serving but before its start-up
check "is the log empty?" ran; that check raised LogReplaced and the process exited with a
traceback, so the health check got "connection refused" instead of 503. Here the loss is put at
exactly that moment: the keys are deleted once the dashboard serves, before the check.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import httpx
import pytest
import redis.asyncio as aioredis

import venue.serve as serve
from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys

pytestmark = pytest.mark.live

REDIS_URL = "redis://127.0.0.1:6379/0"


async def test_a_log_lost_while_the_dashboard_starts_gives_503_not_a_crash(monkeypatch):
    slug = f"lost-at-start-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS_URL, slug)
    await log.append("note_added", {"text": "before the loss", "by": "chief"})  # docs/events.md
    await log.close()
    store = aioredis.Redis.from_url(REDIS_URL)
    real = serve.dashboard_at

    @contextlib.asynccontextmanager
    async def lost_once_serving(*args, **kwargs):
        async with real(*args, **kwargs) as served:
            await store.delete(*tournament_keys(slug))  # what a Redis restarted without AOF does
            yield served

    monkeypatch.setattr(serve, "dashboard_at", lost_once_serving)
    port = free_port()
    task = asyncio.create_task(serve.run_dashboard(REDIS_URL, slug, "127.0.0.1", port))
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(100):
                assert not task.done(), f"the dashboard stopped: {task.exception()!r}"
                with contextlib.suppress(httpx.HTTPError):
                    health = await client.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                    if health.status_code == 503:
                        break
                await asyncio.sleep(0.1)
            else:
                pytest.fail("/api/health never said 503")
        assert health.json()["ok"] is False and "LogReplaced" in health.json()["error"]
        assert not task.done()
        assert await store.exists(*tournament_keys(slug)) == 0  # nothing written over the lost log
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await store.delete(*tournament_keys(slug))
        await store.aclose()
